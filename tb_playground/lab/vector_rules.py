"""The rules of a fight, on many fights at once (RULES.md "Combat round", "Attacks", "Vitals").

``Fights`` holds a batch of fights as arrays of shape (combatants, fights) and plays the table's
round on them (``table.rules``), with no per-fight Python loop:

- Initiative once per fight: 1d10 + Initiative, highest first; ties to the higher Initiative
  sub-stat, then characters before creatures, then the encounter's order (rules/000 "Combat
  Order"; the table's ``initiative_order``).
- Each round every combatant who can act declares a Bracket by its ``bracket_policy``; bands
  resolve Fast, Normal, Slow, Initiative order inside a band. Normal holds two attacks, Fast
  and Slow one; a Slow attack is empowered (Aim +1 Advantage, or a Called Shot). A Ki bump
  moves the band and "keeps everything it was" (rules/000 "Action Brackets").
- An attack: the to-hit kept total is drawn from the engine's exact kept-total counts
  (``engine.dice.KEPT_TOTAL_COUNTS``) for the roll's Advantage sign, which
  ``engine.roll_modifiers`` gives once per condition set (Off Balance, Overwhelmed, Flustered,
  and each side's standing conditions), never per fight. A kept 2 is a critical hit: half the
  dice (rounded up) connect, the rest roll + Klotho; a kept 20 is a catastrophe: a miss that
  leaves the attacker Off Balance (Disadvantage) to the end of its next turn (rules/000
  "Critical Success in Combat", "Rolling the Dice").
- Damage: the number of dice over the wall and the number a boost would lift over it are drawn
  together from their exact trinomial law (``prepare.trinomial``); the attacker boosts, after
  the roll, the dice a boost lifts while its Ki lasts (``boost_policy``), as ``engine.damage``
  reads the default rule, but only while one more level still counts against the track
  (``engine.hit_room``: the live table offers no boost that changes nothing). Under the 002
  switch ``boosts_before_roll`` the attacker commits ``min(boost cap, Ki)`` boosts before the
  roll when a boost can lift a face of the attack (else none); a hit spends
  ``min(committed, dice rolled)`` Ki whatever the dice show, and its levels are drawn from the
  engine's exact "before" law for that many boosted dice; a miss spends nothing (the table
  spends them when the damage is rolled; ``engine.fight_odds``).
- A Gift attack (RULES.md "Core Roll: Gift Check"; rules/000 "Ki"): its Ki cost is paid when it
  is declared, and when the attacker is short it makes the best attack it can pay for
  (``prepare.attack_choice``); a Gift that asks rolls its Gift Check first (engine
  ``gift_check`` odds): a failure costs 1 Ki, a kept 20 leaves Off Balance, the attack goes on.
- Armor (rules/002 "What Does Armor Do?"): a Physical hit on a zone (the Head for a Called
  Shot, else the Body) whose item has levels is intercepted: the wearer takes nothing, the
  item loses one level with the engine's odds (``engine.armor_distribution``), broken at 0.
- The track: ``engine.vital_step`` (the one place the track rules live), vectorized over the
  fights hit: one attack never carries a track past 0, at or below 0 it takes one level, the
  defender's Ki prevents levels by its ``ki_policy`` (``engine.KI_POLICIES``), Poise at its
  bottom costs a Sanity level (which Ki may prevent too), Flustered lasts the Scene.
- Out of the fight: a character or named creature at 0 Health or below can't act (rules/000
  "Harm and Recovery"), nor anyone Shattered (Sanity below 0); an unnamed creature at 0 Health
  leaves the fight and the story (rules/000 "Named and unnamed").

A fight is decided when at most one side has anyone left standing (``end="down"``: able to
act; ``end="dead"``: not dead and not gone); ``check_over`` marks it.

A fight under way (``FightOptions.opening``, from ``lab.from_table``) starts from a live table's
state instead: the Initiative order as rolled, Off Balance, Flustered and who is out as they
stand, and for its first round what is already declared, the order once revealed and the turns
left.

Readings where the texts are silent are in docs/notes/0010-lab.md.
"""

from __future__ import annotations

import numpy as np

from tb_playground.engine import VITALS, hit_room, vital_step
from tb_playground.engine.dice import KEPT_TOTAL_COUNTS, KEPT_TOTAL_DENOMINATOR, TOTALS

from .fight_options import FightOptions
from .prepare import CODES, SURPRISED_BIT, Prepared

_BRACKET = {  # band (0 fast, 1 normal, 2 slow), attacks, empowered (0 none, 1 Aim, 2 Called)
    "normal": (1, 2, 0),
    "fast": (0, 1, 0),
    "aim": (2, 1, 1),
    "called_shot": (2, 1, 2),
}

_BIG = 1 << 40

#: The dtype of per-combatant state (tracks, Ki, rounds...): small numbers, half the traffic.
_STATE = np.int32


def _kept_lookup() -> np.ndarray:
    """(3, 1000): kept total of each of 1000 equally likely outcomes, for sign -1, 0, +1."""
    out = np.empty((3, 1000), dtype=np.int64)
    for s in (-1, 0, 1):
        scale = 1000 // KEPT_TOTAL_DENOMINATOR[s]
        out[s + 1] = np.repeat(TOTALS, KEPT_TOTAL_COUNTS[s] * scale)
    return out


KEPT_LOOKUP = _kept_lookup()
KEPT_LOOKUP_FLAT = KEPT_LOOKUP.ravel()


class Fights:
    """The state of a batch of fights and the rules applied to it.

    Every per-combatant state is an array of shape (combatants, rows): one contiguous row per
    combatant, so what one attacker or target needs is a 1-D gather. Who can act and who is
    still in the fight (not dead, not gone) are kept up to date for the fights an attack
    touched; nothing is recomputed over the whole batch per attack. ``opts`` says how each
    combatant plays (``FightOptions``).
    """

    #: Per-combatant state, shape (n, rows); ``fid``, ``live`` and ``rank`` are per fight.
    COLUMNS = (
        "ki", "ob_since", "flustered", "out", "dealt", "out_round", "dead_round", "can",
        "alive", "hit_count", "code", "armor_lv", "led",
    )  # fmt: skip

    def __init__(self, prep: Prepared, rows: int, rng, opts: FightOptions):
        self.prep = prep
        self.rng = rng
        self.opts = opts
        n = len(prep.names)
        self.n = n
        self.fid = np.arange(rows)
        self.tracks = [
            np.repeat(prep.start[:, v][:, None], rows, axis=1).astype(_STATE) for v in range(3)
        ]
        self.ki = np.repeat(prep.ki[:, None], rows, axis=1).astype(_STATE)
        self.ob_since = np.full((n, rows), -1, dtype=_STATE)
        self.flustered = self.tracks[1] <= 0
        self.out = (self.tracks[0] <= 0) & ~prep.named[:, None]
        exhausted = prep.exhausted if prep.exhausted is not None else np.zeros(n, dtype=np.int64)
        #: not out cold (Exhausted 5 can't act: rules/004 "Conditions")
        self.awake = (exhausted < 5)[:, None]
        #: Ki one spend adds (Exhausted 4: +1 per spend, rules/004 "Conditions"; 004:127)
        self.surcharge = (exhausted >= 4).astype(np.int64)
        opening = opts.opening
        if opening is not None:  # a fight under way (``lab.from_table``): as it stands
            self.ob_since[:] = np.asarray(opening["ob_since"], dtype=_STATE)[:, None]
            self.flustered |= np.asarray(opening["flustered"], dtype=bool)[:, None]
            self.out |= np.asarray(opening["out"], dtype=bool)[:, None]
        #: Fate Tokens as they stand, the same in every fight: the simulated play spends none
        self.fate = _opening_fate(opening, n)
        self.dealt = np.zeros((n, rows), dtype=_STATE)
        self.hit_count = np.zeros((n, rows), dtype=_STATE)
        dead = self.tracks[0] <= prep.dead_at[:, None]
        self.can = (self.tracks[0] > 0) & (self.tracks[2] >= 0) & ~self.out & self.awake
        self.alive = ~dead & ~self.out
        #: led this round (a Shattered character an ally leads: able to the round's end)
        self.led = np.zeros((n, rows), dtype=bool)
        self.led_any = False
        #: whether each combatant may be Shattered in some fight (Sanity below 0 once)
        self.shattered_any = (self.tracks[2] < 0).any(axis=1)
        self.out_round = np.where(self.can, -1, 0).astype(_STATE)
        self.dead_round = np.where(dead, 0, -1).astype(_STATE)
        self.code = (self.tracks[2] <= 0).astype(_STATE) << 1  # Overwhelmed, Shattered too
        self.code |= self.flustered.astype(_STATE) << 2
        self.code |= (self.ob_since >= 0).astype(_STATE)
        if prep.surprised is not None and prep.surprised.any():
            self.code[prep.surprised] |= SURPRISED_BIT
        self.live = np.ones(rows, dtype=bool)
        self.attacks = 0
        # armor levels left, row z * n + j: combatant j's item on zone z (engine.armor.ZONES)
        self.armor_lv = np.repeat(prep.armor_levels.T.reshape(2 * n, 1), rows, axis=1)
        self.armor_lv = self.armor_lv.astype(_STATE)
        if opening is not None and opening.get("rank") is not None:  # Initiative rolled
            self.rank = np.repeat(np.asarray(opening["rank"], dtype=np.int64)[None, :], rows, 0)
        else:
            face = rng.integers(1, 11, size=(rows, n))
            init = prep.initiative[None, :]
            key = ((face + init) * 16 + init) * 2 + prep.is_character[None, :]
            key = key * n + (n - 1 - np.arange(n))[None, :]
            order = np.argsort(-key, axis=1, kind="stable")
            self.rank = np.empty_like(order)
            np.put_along_axis(self.rank, order, np.arange(n)[None, :], axis=1)
        self.has = prep.has_attack.reshape(n, n)
        self.vit = prep.vital[: n * n].reshape(n, n)
        self.downed_ok = (self.opts.target_code == 3) | (self.opts.end == "dead")
        self._tables: dict = {}
        self.tie = (1000 * n + np.arange(n))[:, None]
        self.danger_key = np.rint(prep.danger * 1000).astype(np.int64) * (10_000 * n)
        # per option g (``prepare``): the roll's sign by (g, condition code, empowered)
        self.roll_table = np.where(prep.allowed, prep.sign, 2).ravel()
        owner = prep.option_pair // n
        target = prep.option_pair % n
        real = prep.option_attack >= 0
        mine = [real & (owner == i) for i in range(n)]
        self.any_auto = [bool(prep.automatic[m].any()) for m in mine]
        self.targets_of = [sorted({int(j) for j in target[m]}) for m in mine]
        self.max_levels = np.ones(n, dtype=np.int64)  # most levels one attack deals j
        np.maximum.at(self.max_levels, target[real], prep.dice[real])
        # Ki-dependent choice (a Gift attack it cannot pay for falls back): per attacker the
        # flat (target, min(Ki, top)) -> option table, or None when Ki never changes it
        top = prep.choice_top
        self.top = top
        self.choice = [
            prep.choice[i].ravel().copy()
            if top and (prep.choice[i] != prep.choice[i][:, -1:]).any()
            else None
            for i in range(n)
        ]
        # whether every option of a against each target hits the primary's track (or none)
        self.fixed = [
            self.choice[i] is None
            or all(
                (prep.choice[i, j] == -1).all()
                if not self.has[i, j]
                else (prep.choice[i, j] >= 0).all()
                and (prep.vital[prep.choice[i, j]] == self.vit[i, j]).all()
                for j in range(n)
            )
            for i in range(n)
        ]
        self.pays = [bool(prep.ki_cost[m].any()) for m in mine]
        self.checks = [bool(prep.gift_check[m].any()) for m in mine]
        self.armored = [bool(prep.armor_on[m].any()) for m in mine]
        self.side_masks = [prep.side == s for s in range(len(prep.sides))]
        self.up_count = np.stack([self.standing[mask].sum(axis=0) for mask in self.side_masks])
        # target keys kept up to date: (track, pool, attacker's side) -> (n, rows) of
        # track * n + tie for foes in the pool, _BIG for the rest (see ``choose_targets``)
        self.tkeys: dict = {}
        for a in range(n):
            key = self._tkey_name(a)
            if key is not None and key not in self.tkeys:
                v, downed, side = key
                pool = self.alive if downed else self.can
                foe = (prep.side != side)[:, None]
                keys = np.where(pool & foe, self.tracks[v] * n + self.tie, _BIG)
                self.tkeys[key] = np.ascontiguousarray(keys.T)  # (rows, n): a row a fight
        self.tkey_of = [
            None if k is None else self.tkeys[k] for k in map(self._tkey_name, range(n))
        ]

    def _tkey_name(self, a: int):
        if not self.fixed[a]:
            return None
        vit = self.vit[a][self.has[a]]
        if not vit.size or not (vit == vit[0]).all():
            return None
        return (int(vit[0]), bool(self.downed_ok[a]), int(self.prep.side[a]))

    def _update_tkeys(self, rows, j: int) -> None:
        side = int(self.prep.side[j])
        for (v, downed, attacker_side), key in self.tkeys.items():
            if attacker_side != side:
                pool = (self.alive if downed else self.can)[j][rows]
                key[rows, j] = np.where(pool, self.tracks[v][j][rows] * self.n + self.tie[j], _BIG)

    # -- status ------------------------------------------------------------------------------

    def _dead(self, rows, j: int) -> np.ndarray:
        return self.tracks[0][j][rows] <= self.prep.dead_at[j]

    def _can_act(self, rows, j: int) -> np.ndarray:
        can = (self.tracks[0][j][rows] > 0) & (self.tracks[2][j][rows] >= 0) & ~self.out[j][rows]
        return can & self.awake[j]

    def acts(self, rows, i: int) -> np.ndarray:
        """Whether ``i`` acts now in the fights ``rows``: able on its own, or Shattered and led.

        A Shattered character (Sanity below 0) acts when someone leads it (rules/000 "Sanity";
        the table's ``lead``): the policy has an ally on its side who can act on its own and
        is not Humiliated (Poise below 0 "cannot take the lead", rules/000 "Poise") lead it
        at its turn; the lead costs no action. Once led it is able to the end of the round
        (the table's ``fight_end.able``: it keeps its side in the fight until then); not led,
        it is not. Its foes' targets are those able on their own (``can``).
        """
        can = self.can[i][rows]
        if not self.shattered_any[i]:
            return can
        sanity = self.tracks[2][i][rows]
        if not (sanity < 0).any():
            return can
        shattered = ~can & (sanity < 0) & (self.tracks[0][i][rows] > 0) & ~self.out[i][rows]
        shattered &= self.awake[i]
        if not shattered.any():
            return can
        leader = np.zeros(rows.size, dtype=bool)
        for k in np.flatnonzero(self.prep.side == self.prep.side[i]):
            if k != i:
                leader |= self.can[k][rows] & (self.tracks[1][k][rows] >= 0)
        led = shattered & (leader | self.led[i][rows])
        if self.opts.end == "down" and led.any():
            new = rows[led & ~self.led[i][rows]]
            if new.size:
                self.led[i][new] = True
                self.led_any = True
                self.up_count[self.prep.side[i]][new] += 1
        return can | led

    def end_round(self, round_no: int, winner, rounds) -> None:
        """The end of a round: Surprised and the leads of the Shattered end.

        Surprised lasts the first round (rules/004 "Conditions"); a lead lasts the round (the
        table's ``lead``), so a side whose only able were led may have no one left able.
        """
        if round_no == 1 and self.prep.surprised is not None and self.prep.surprised.any():
            self.code[self.prep.surprised] &= ~SURPRISED_BIT
        if self.led_any:
            ended = []
            for i in range(self.n):
                r = np.flatnonzero(self.led[i] & ~self.can[i])
                if r.size:
                    self.up_count[self.prep.side[i]][r] -= 1
                    ended.append(r)
            self.led[:] = False
            self.led_any = False
            if ended:
                r = np.unique(np.concatenate(ended))
                self.check_over(r[self.live[r]], round_no, winner, rounds)

    @property
    def standing(self) -> np.ndarray:
        """Who still counts as standing for the fight's end ("down" or "dead")."""
        if self.opts.end == "dead":
            return self.alive
        return self.can | self.led if self.led_any else self.can

    def _standing(self, j: int, rows) -> np.ndarray:
        """``standing`` of combatant ``j`` in the fights ``rows``."""
        if self.opts.end == "dead":
            return self.alive[j][rows]
        return self.can[j][rows] | self.led[j][rows] if self.led_any else self.can[j][rows]

    def check_over(self, r, round_no: int, winner: np.ndarray, rounds: np.ndarray) -> None:
        """Mark the fights ``r`` (row indices) that are decided."""
        sides_up = self.up_count.take(r, axis=1) > 0  # (sides, m)
        count = sides_up.sum(axis=0)
        done = count <= 1
        if done.any():
            rows = r[done]
            self.live[rows] = False
            won = np.where(count[done] == 1, np.argmax(sides_up[:, done], axis=0), -1)
            winner[self.fid[rows]] = won
            rounds[self.fid[rows]] = round_no

    # -- targets -----------------------------------------------------------------------------

    def choose_targets(self, rows: np.ndarray, a: int) -> np.ndarray:
        """Attacker ``a``'s target in each fight of ``rows`` (-1 if none), by its policy."""
        n = self.n
        policy = int(self.opts.target_code[a])
        kept_key = self.tkey_of[a]
        if kept_key is not None:
            key = kept_key.take(rows, axis=0)  # (m, n)
            if policy == 1:
                key += self.hit_count.take(rows, axis=1).T * (10_000 * n)
            elif policy == 2:
                key -= self.danger_key[a][None, :]
            t = np.argmin(key, axis=1)
            if policy == 0 or policy == 3:
                best = key[np.arange(t.size), t]
                return t if (best < _BIG).all() else np.where(best < _BIG, t, -1)
            return np.where(kept_key[rows, t] < _BIG, t, -1)
        vit = self.vit[a]
        has = self.has[a]
        pool = self.alive if self.downed_ok[a] else self.can
        cand = pool.take(rows, axis=1)
        if not self.fixed[a]:  # the attack, so its track, hangs on the Ki left
            option = self.options(a, rows, np.arange(n)[:, None])  # (n, m)
            cand &= option >= 0
            vit = self.prep.vital[option]
            level = self.tracks[0].take(rows, axis=1)
            for v in (1, 2):
                if (vit == v).any():
                    level = np.where(vit == v, self.tracks[v].take(rows, axis=1), level)
        else:
            first = int(vit[has][0]) if has.any() else 0
            level = self.tracks[first].take(rows, axis=1)  # (n, m)
            if (vit[has] != first).any():
                for v in range(3):
                    if v != first and (vit == v).any():
                        other = self.tracks[v].take(rows, axis=1)
                        level = np.where((vit == v)[:, None], other, level)
            if not has.all():
                cand &= has[:, None]
        key = level * n + self.tie  # weakest, then the encounter's order
        if policy == 1:
            key += self.hit_count.take(rows, axis=1) * (10_000 * n)
        elif policy == 2:
            key -= self.danger_key[a][:, None]
        key[~cand] = _BIG
        t = np.argmin(key, axis=0)
        some = cand.any(axis=0)
        return t if some.all() else np.where(some, t, -1)

    def options(self, a: int, rows, t):
        """The option ``a`` uses on ``t`` in the fights ``rows`` (``prepare.attack_option``)."""
        if self.choice[a] is None:
            return a * self.n + t
        q = np.minimum(self.ki[a][rows], self.top)
        return self.choice[a][t * (self.top + 1) + q]

    # -- the round ---------------------------------------------------------------------------

    def declare(self, round_no: int, first: dict | None = None):
        """Each combatant's band, attacks and empowered choice this round, and the order.

        ``first`` (the round in play of a fight under way, ``lab.from_table``) fixes what
        is already declared (its ``fixed`` combatants' ``band``, ``attacks`` and ``emp``: no
        Ki is paid again) and, once the brackets are revealed, the round's ``order``.
        """
        prep, n = self.prep, self.n
        rows = self.fid.size
        band = np.ones((rows, n), dtype=np.int64)
        attacks = np.full((rows, n), 2, dtype=np.int64)
        emp = np.zeros((rows, n), dtype=np.int64)
        for i, policy in enumerate(self.opts.bracket):
            if first is not None and first["fixed"][i]:
                band[:, i], attacks[:, i] = first["band"][i], first["attacks"][i]
                emp[:, i] = first["emp"][i]
            elif policy in _BRACKET:
                band[:, i], attacks[:, i], emp[:, i] = _BRACKET[policy]
            elif policy == "bump":  # only a combatant with an attack to make bumps
                cost = 1 + int(self.surcharge[i])  # one spend (engine ``bump_cost``)
                bump = self.can[i] & (self.ki[i] >= cost) & bool(self.has[i].any())
                self.ki[i] -= bump * cost
                band[:, i] = np.where(bump, 0, 1)
            elif policy == "slow_aim":
                r = np.flatnonzero(self.live & self.can[i])
                t = self.choose_targets(r, i)
                aim = np.zeros(rows, dtype=bool)
                ok = t >= 0
                aim[r[ok]] = prep.aim_better[self.options(i, r[ok], t[ok])]
                band[:, i] = np.where(aim, 2, 1)
                attacks[:, i] = np.where(aim, 1, 2)
                emp[:, i] = aim.astype(np.int64)
        if first is not None and first.get("order") is not None:
            order = np.repeat(np.asarray(first["order"], dtype=np.int64)[None, :], rows, axis=0)
        else:
            order = np.argsort(band * n + self.rank, axis=1, kind="stable")
        return order, attacks, emp

    def attack(self, rows, a: int, emp, round_no: int, winner, rounds) -> None:
        """Attacker ``a`` makes one attack in each fight of ``rows``."""
        prep = self.prep
        t = self.choose_targets(rows, a)
        ok = t >= 0
        if not ok.all():
            rows, t = rows[ok], t[ok]
            if np.ndim(emp):
                emp = emp[ok]
        g = self.options(a, rows, t)  # the attack it makes there (and can pay for)
        # the roll's Advantage sign (or 2: not allowed) by option, condition code, empowerment
        roll = self.roll_table[(g * CODES + self.code[a][rows]) * 3 + emp]
        allowed = roll < 2
        if not allowed.all():
            rows, t, g, roll = rows[allowed], t[allowed], g[allowed], roll[allowed]
            if np.ndim(emp):
                emp = emp[allowed]
        m = rows.size
        if m == 0:
            return
        self.attacks += m
        if self.opts.spread:
            self.hit_count[t, rows] += 1
        if self.pays[a]:  # a Gift attack pays its Ki when declared (table.gifts)
            self.ki[a][rows] -= prep.ki_cost[g].astype(_STATE)
        if self.checks[a]:
            self._gift_check(rows, a, g, round_no)
        u = self.rng.random(m) * 1000.0  # whole part: the to-hit; fraction: the damage dice
        whole = u.astype(np.int64)
        kept = KEPT_LOOKUP_FLAT[(roll + 1) * 1000 + whole]
        crit = kept <= 2
        cat = kept == 20
        hit = crit | ((kept <= prep.tn[g]) & ~cat)
        if self.any_auto[a]:
            auto = prep.automatic[g]
            crit &= ~auto
            cat &= ~auto
            hit |= auto
        if self.opts.off_balance and cat.any():
            r = rows[cat]
            self.ob_since[a][r] = round_no
            self.code[a][r] |= 1
        frac = u - whole
        rows, t, g, crit, frac = rows[hit], t[hit], g[hit], crit[hit], frac[hit]
        if np.ndim(emp):
            emp = emp[hit]
        cap = int(self.opts.boost_cap[a])
        if self.armored[a] and rows.size:
            rows, t, g, crit, frac = self._armor(rows, a, t, g, crit, frac, emp, cap)
        if rows.size == 0:
            return
        if prep.boosts_before:
            levels = self._damage_before(rows, a, g, crit, frac, cap)
        else:
            b = np.searchsorted(prep.block_cum, 2 * g + crit + frac, side="right")
            levels = prep.block_over[b]
            if crit.any():
                levels += np.where(crit, prep.crit_auto[g], 0)
        if cap > 0 and not prep.boosts_before:
            lift = prep.block_lift[b]
            some = np.flatnonzero(lift > 0)
            if some.size:  # only the boosts whose levels the track still loses (hit_room)
                r = rows[some]
                counts = np.maximum(self._room(r, a, t[some], g[some]) - levels[some], 0)
                extra = int(self.surcharge[a])  # one spend for the dice boosted (Exhausted 4)
                budget = np.maximum(self.ki[a][r] - extra, 0) if extra else self.ki[a][r]
                boosts = np.minimum(np.minimum(lift[some], counts), np.minimum(budget, cap))
                self.ki[a][r] -= boosts + extra * (boosts > 0) if extra else boosts
                levels[some] += boosts
        land = levels > 0
        rows, t, levels = rows[land], t[land], levels[land]
        if not self.fixed[a]:
            g = g[land]
        if rows.size == 0:
            return
        fell = []
        side_of = self.prep.side
        single = len(self.targets_of[a]) == 1
        for j in self.targets_of[a]:
            sel = slice(None) if single else np.flatnonzero(t == j)
            r = rows[sel]
            if r.size == 0:
                continue
            before = self._standing(j, r)
            if self.fixed[a]:
                self.dealt[a][r] += self._hit_track(r, j, int(self.vit[a, j]), levels[sel])
            else:  # the track of the attack the Ki left allowed, fight by fight
                vit = prep.vital[g[sel]]
                for v in np.unique(vit):
                    on = np.flatnonzero(vit == v)
                    hit_levels = levels[sel][on]
                    self.dealt[a][r[on]] += self._hit_track(r[on], j, int(v), hit_levels)
            can = self._can_act(r, j)
            dropped = self.can[j][r] & ~can
            if dropped.any():
                self.out_round[j][r[dropped]] = round_no
            self.can[j][r] = can
            if self.led_any:  # led until it cannot act at all (0 Health, out)
                self.led[j][r] &= (self.tracks[0][j][r] > 0) & ~self.out[j][r]
            alive = ~self._dead(r, j) & ~self.out[j][r]
            died = self.alive[j][r] & ~alive
            if died.any():
                self.dead_round[j][r[died]] = round_no
            self.alive[j][r] = alive
            self._update_tkeys(r, j)
            gone = before & ~self._standing(j, r)
            if gone.any():
                fell.append(r[gone])
                self.up_count[side_of[j]][r[gone]] -= 1
        if fell:
            self.check_over(np.concatenate(fell), round_no, winner, rounds)

    def _gift_check(self, rows, a: int, g, round_no: int) -> None:
        """The Gift Check of the Gift attacks among ``g`` (``engine.gift_check`` odds).

        Rolled after the Ki cost is paid, at the Ki left (+ Stamina under the 002 switch), no
        Advantage: a failure costs 1 Ki (none at 0) and the attack goes on; a kept 20 leaves
        the attacker Off Balance, as the table's ``gifts._check`` does. The attack's own roll
        was set when it was declared, so it is not affected.
        """
        prep = self.prep
        on = np.flatnonzero(prep.gift_check[g])
        if on.size == 0:
            return
        r = rows[on]
        ki = self.ki[a][r]
        u = self.rng.random(on.size)
        fail = u >= prep.check_success[a][ki]
        self.ki[a][r] -= (fail & (ki > 0)).astype(_STATE)
        if self.opts.off_balance:
            cat = u >= 1.0 - prep.check_catastrophe[a][ki]
            if cat.any():
                self.ob_since[a][r[cat]] = round_no
                self.code[a][r[cat]] |= 1

    def _armor(self, rows, a: int, t, g, crit, frac, emp, cap: int):
        """The hits armor intercepts: it loses its level or not, the wearer takes nothing.

        The zone is the Body, the Head for a Called Shot (rules/002); the armor covers while it
        has levels. Whether it loses its one level is drawn from the engine's odds
        (``prepare._armor_odds``, ``engine.armor_distribution``) with the hit's own fraction:
        after the roll the attacker spends 1 Ki on a boost when only a boost would beat the
        Hardness (boost policy not "none", Ki left); with boosts chosen before the roll it
        commits them as on the wall (when a boost can lift a face over the Hardness) and
        spends ``min(committed, dice rolled)``. Returns the hits that reach the wearer.
        """
        prep, n = self.prep, self.n
        zone = (emp == 2).astype(np.int64) if np.ndim(emp) else int(emp == 2)
        on = prep.armor_on[g, zone]
        if not on.any():
            return rows, t, g, crit, frac
        lv_row = zone * n + t
        on &= self.armor_lv[lv_row, rows] > 0
        if not on.any():
            return rows, t, g, crit, frac
        k = np.flatnonzero(on)
        r, gk, ck, fk = rows[k], g[k], crit[k], frac[k]
        zk = zone[k] if np.ndim(zone) else zone
        row = (gk * 2 + zk) * 2 + ck
        if prep.boosts_before:
            committed = np.zeros(k.size, dtype=np.int64)
            extra = int(self.surcharge[a])
            if cap > 0:
                useful = prep.armor_useful[gk, zk]
                budget = np.maximum(self.ki[a][r] - extra, 0)
                committed = np.where(useful, np.minimum(budget, cap), 0)
            used = np.minimum(committed, prep.before_rolled[2 * gk + ck])
            self.ki[a][r] -= (used + extra * (used > 0)).astype(_STATE)
            lost = fk < prep.armor_before[row, used]
        else:
            lost = fk < prep.armor_break[row, 0]
            if cap > 0:
                spend = 1 + int(self.surcharge[a])
                boost = ~lost & (fk < prep.armor_break[row, 1]) & (self.ki[a][r] >= spend)
                if boost.any():
                    self.ki[a][r[boost]] -= spend
                    lost |= boost
        if lost.any():
            self.armor_lv[lv_row[k[lost]], r[lost]] -= 1
        keep = ~on
        return rows[keep], t[keep], g[keep], crit[keep], frac[keep]

    def _damage_before(self, rows, a: int, g, crit, frac, cap: int) -> np.ndarray:
        """Levels of the hits of ``a`` on ``t`` with boosts chosen before the roll (002).

        The attacker commits ``min(cap, Ki)`` boosts before any die is rolled when a boost can
        lift a face of this attack over the wall (else none); on a hit, ``min(committed, dice
        rolled)`` of them are spent whatever the dice show (``engine.damage``'s "before"
        timing; the table spends them when the damage is rolled), and the levels are drawn
        from the engine's exact law for that many boosted dice (``prepare._before_blocks``).
        """
        prep = self.prep
        bi = 2 * g + crit
        committed = np.zeros(rows.size, dtype=np.int64)
        extra = int(self.surcharge[a])  # Exhausted 4: the spend costs one more
        if cap > 0:
            useful = prep.boost_useful[g]
            if useful.any():
                budget = np.maximum(self.ki[a][rows] - extra, 0)
                committed = np.where(useful, np.minimum(budget, cap), 0)
        used = np.minimum(committed, prep.before_rolled[bi])
        if used.any():
            self.ki[a][rows] -= (used + extra * (used > 0)).astype(_STATE)
        g = np.searchsorted(prep.before_cum, prep.before_start[bi] + used + frac, side="right")
        return prep.before_levels[g]

    def _table(self, j: int, v: int):
        """``engine.vital_step`` over every (track, levels, Ki) combatant ``j`` can be in.

        One vectorized call per (combatant, track) and Ruleset, read back per fight by index:
        the track rules stay in ``vital_step`` (the one place they live) and cost a lookup.
        """
        key = (j, v)
        if key not in self._tables:
            prep = self.prep
            policy = self.opts.ki_policy[j]
            maximum = int(prep.maximum[j, v])
            most = int(self.max_levels[j])
            ki_top = int(prep.ki[j]) if policy != "none" else 0
            cur = np.arange(-maximum, maximum + 1)[:, None, None]
            lev = np.arange(most + 1)[None, :, None]
            ki = np.arange(ki_top + 1)[None, None, :]
            extra = int(self.surcharge[j])  # Exhausted 4: a prevention (one spend) costs 1 more
            budget = np.maximum(ki - extra, 0)
            step = vital_step(cur, lev, maximum, VITALS[v], budget, policy, prep.variant_002)
            spent = step.prevented + extra * (step.prevented > 0)
            shape = (2 * maximum + 1, most + 1, ki_top + 1)
            self._tables[key] = (
                maximum,
                most + 1,
                ki_top,
                *(
                    np.broadcast_to(x, shape).ravel().copy()
                    for x in (step.current, step.taken, spent, step.sanity_loss)
                ),
            )
        return self._tables[key]

    def _step(self, rows, j: int, v: int, levels):
        maximum, width, ki_top, current, taken, prevented, sanity_loss = self._table(j, v)
        track = self.tracks[v][j]
        index = (track[rows] + maximum) * width + np.minimum(levels, width - 1)
        if ki_top:
            index = index * (ki_top + 1) + np.minimum(self.ki[j][rows], ki_top)
            self.ki[j][rows] -= prevented[index]
        track[rows] = current[index]
        return index, taken[index], sanity_loss

    def _recode_sanity(self, rows, j: int) -> None:
        """Overwhelmed (Sanity at 0, and below: everything at Disadvantage) in the code.

        Below 0 the character is Shattered and still Overwhelmed (``vital_conditions``: a
        track below 0 keeps its "at 0" condition); a led Shattered character rolls with it.
        """
        zero = (self.tracks[2][j][rows] <= 0).astype(_STATE) << 1
        self.code[j][rows] = (self.code[j][rows] & ~2) | zero

    def _room(self, rows, a: int, t, g) -> np.ndarray:
        """The most levels each hit of ``a`` (on ``t`` by option ``g``) takes from its track.

        ``engine.hit_room`` of the track the attack strikes, as it stands in each fight: a
        boost after the roll past it changes nothing, so the table does not offer it
        (``table/boost_offer.py``) and the simulator does not spend Ki on it.
        """
        prep = self.prep
        out = np.zeros(rows.size, dtype=np.int64)
        for j in np.unique(t):
            on = np.flatnonzero(t == j)
            vit = np.full(on.size, self.vit[a, j]) if self.fixed[a] else prep.vital[g[on]]
            for v in np.unique(vit):
                k = on[vit == v]
                maximum = int(prep.maximum[j, v])
                track = self.tracks[v][j][rows[k]]
                out[k] = hit_room(track, maximum, VITALS[v], prep.variant_002)
        return out

    def _hit_track(self, rows: np.ndarray, j: int, v: int, levels: np.ndarray) -> np.ndarray:
        index, taken, sanity_loss = self._step(rows, j, v, levels)
        if v == 1:
            flustered = self.flustered[j][rows] | (self.tracks[1][j][rows] <= 0)
            self.flustered[j][rows] = flustered
            self.code[j][rows] |= flustered.astype(_STATE) << 2
            lose = np.flatnonzero(sanity_loss[index] > 0)
            if lose.size:
                taken = taken.copy()
                r = rows[lose]
                taken[lose] += self._step(r, j, 2, np.ones(r.size, dtype=np.int64))[1]
                self._recode_sanity(r, j)
        elif v == 2:
            self._recode_sanity(rows, j)
        if v and not self.shattered_any[j]:
            self.shattered_any[j] = bool((self.tracks[2][j][rows] < 0).any())
        if v == 0 and not self.prep.named[j]:
            self.out[j][rows] |= self.tracks[0][j][rows] <= 0
        return taken

    def end_turn(self, rows: np.ndarray, a: int, round_no: int) -> None:
        """End of ``a``'s turn in ``rows``: Off Balance put on in an earlier round ends.

        rules/000 "Rolling the Dice": Off Balance lasts "until the end of your next turn"; put
        on during your own turn (a catastrophe), it outlasts this turn and ends with the next.
        """
        if self.opts.off_balance and rows.size:
            since = self.ob_since[a][rows]
            ends = (since >= 0) & (since < round_no)
            if ends.any():
                r = rows[ends]
                self.ob_since[a][r] = -1
                self.code[a][r] &= ~1

    def keep(self, rows: np.ndarray) -> None:
        """Keep only the fights of ``rows`` (the others have ended)."""
        self.tracks = [t[:, rows] for t in self.tracks]
        for key in self.tkeys:
            self.tkeys[key] = self.tkeys[key][rows]
        self.up_count = self.up_count[:, rows]
        self.tkey_of = [
            None if k is None else self.tkeys[k]
            for k in (self._tkey_name(a) for a in range(self.n))
        ]
        for name in self.COLUMNS:
            setattr(self, name, getattr(self, name)[:, rows])
        self.fid, self.live, self.rank = self.fid[rows], self.live[rows], self.rank[rows]


def _opening_fate(opening: dict | None, n: int) -> np.ndarray:
    if opening is None or opening.get("fate") is None:
        return np.zeros(n, dtype=np.int64)
    return np.asarray(opening["fate"], dtype=np.int64)
