"""Helping at the table: the Help action, who counts as a helper, the shared catastrophe.

Rule: RULES.md, Core Roll (Helping); rules/000 "Helping". Readings (the help waits on the ally's
next roll this round): docs/notes/0015-table-rules.md, "Attacks and armor".
"""

from __future__ import annotations

from tb_playground.engine.validation import require_choice

from . import command_tools as tools
from . import fight_rules
from .command_record import Command
from .state import combatant_path

#: The fields of the "help" command.
HELP_FIELDS = ("type", "combatant", "ally")


def helping(c: dict) -> str | None:
    """The id of the ally ``c`` spent their Help action on this round (not yet used), or None."""
    return c.get("carried", {}).get("helping")


def attack_need(c: dict, index: int) -> dict:
    """What a helper of ``c``'s attack ``index`` must be Trained in (rules/000 line 79).

    A Skill attack: its Skill. A Gift's attack: that Gift (a helper who has it). A weapon's
    or a card's attack: that weapon (a helper who fights with it). Issue 32 item 9; the
    texts give no weapon Skills, so "Trained" with a weapon or Gift is having it (note 0015).
    """
    spec = c["attacks"][index]
    if spec.get("skill"):
        return {"skill": spec["skill"]}
    gift = next((g for g in c.get("gifts", []) if g["attack"] == index), None)
    if gift is not None:
        return {"gift": gift["name"]}
    return {"weapon": weapon_name(spec)}


def weapon_name(spec: dict) -> str:
    """An attack's weapon, its name before " (" ("Crowbar (2 dice)" -> "Crowbar")."""
    return spec["name"].split(" (")[0].strip()


def need_words(need: str | dict | None) -> str:
    """What a helper lacks, in words ("Trained in Research", "able with a Crowbar")."""
    if isinstance(need, str):
        need = {"skill": need}
    need = need or {}
    if "skill" in need:
        return f"Trained in {need['skill']}"
    if "gift" in need:
        return f"able with the Gift {need['gift']}"
    if "weapon" in need:
        return f"able with a {need['weapon']}"
    return "able to act"


def trained(helper: dict, need: str | dict | None) -> bool:
    """Whether ``helper`` may help a roll that needs ``need`` (rules/000: "at least Trained").

    ``need``: a Skill's name (Trained, tier 1, or better), an ``attack_need`` (the Skill, the
    Gift or the weapon), or None for a roll that uses no Skill, Gift or weapon (a Potence
    roll, a Grab's bare hands): any helper able to act counts.
    """
    if not fight_rules.can_act(helper):
        return False
    if isinstance(need, str):
        need = {"skill": need}
    if not need:
        return True
    if "skill" in need:
        return helper.get("skills", {}).get(need["skill"], {"tier": 0})["tier"] >= 1
    if "gift" in need:
        return any(g["name"] == need["gift"] and g["level"] >= 1 for g in helper.get("gifts", []))
    gifts = {g["attack"] for g in helper.get("gifts", [])}
    return any(
        weapon_name(x) == need["weapon"] and not x.get("skill") and i not in gifts
        for i, x in enumerate(helper["attacks"])
    )


def helpers_for(
    state: dict, roller: dict, skill: str | dict | None, named: object = None
) -> list[str]:
    """The helpers of ``roller``'s roll of ``skill``: those named (checked), or by default all.

    Parameters
    ----------
    state : dict
        The table's state.
    roller : dict
        The combatant who rolls.
    skill : str, dict or None
        The Skill rolled, an attack's ``attack_need``, or None (a roll with no Skill).
    named : list of str or None
        The ids the command names; None takes everyone whose Help waits on ``roller`` and who
        is Trained enough (the others are left out, their help unused).

    Raises
    ------
    ValueError
        A named id that is not helping ``roller`` this round, or is not Trained in ``skill``.
    """
    cs = state["combatants"]
    if named is None:
        return [
            cid
            for cid in state["ids"]
            if helping(cs[cid]) == roller["id"] and trained(cs[cid], skill)
        ]
    if not isinstance(named, list) or len(set(map(repr, named))) != len(named):
        raise ValueError("helpers must be a list of distinct combatant ids")
    for hid in named:
        if hid not in cs:
            raise ValueError("helpers: one of the helpers named is not at this table")
        h = cs[hid]
        if helping(h) != roller["id"]:
            raise ValueError(
                f"helpers: {h['name']} is not helping {roller['name']} this round (a helper "
                "spends their Help action first, naming the ally: the 'help' command)"
            )
        if not trained(h, skill):
            raise ValueError(
                f"helpers: {h['name']} is not {need_words(skill)} (rules/000 'Helping': a "
                "helper is at least Trained in the Skill rolled)"
                if skill
                else f"helpers: {h['name']} cannot act"
            )
    return list(named)


def use_help(helpers: list[str]) -> list:
    """The changes that spend the helpers' help on this roll (one Help, one roll)."""
    return [[combatant_path(hid, "carried", "helping"), None] for hid in helpers]


def help_command(state, command, role, seat, roll) -> list:
    """The "help" command: the helper spends their Help action on their turn, naming the ally.

    rules/000 "Helping"; rules/001 "Combat Actions" (Help is one action, ``round_budget``).
    """
    tools.in_phase(state, "resolve")
    c = tools.combatant(state, command)
    tools.own(role, seat, c, "help")
    if state["up"] != c["id"]:
        raise ValueError(f"combatant: it is not {c['name']}'s turn")
    ally = tools.combatant(state, command, "ally")
    if ally["id"] == c["id"]:
        raise ValueError("ally must be another combatant than the helper")
    if ally["side"] != c["side"]:
        raise ValueError(f"ally: {ally['name']} is not on {c['name']}'s side")
    if ally["out"]:
        raise ValueError(f"ally: {ally['name']} is out of the fight")
    require_choice("action", "help", fight_rules.OTHER_ACTIONS)
    problem = fight_rules.next_action_problem(state, c, "help")
    if problem:
        raise ValueError(problem)
    changes = fight_rules.spend_action(c, "help")
    changes.append([combatant_path(c["id"], "carried", "helping"), ally["id"]])
    data = {"combatant": c["id"], "action": "help", "ally": ally["id"]}
    return [("helped", data, changes)]


COMMANDS = (
    Command(
        "help",
        help_command,
        HELP_FIELDS[1:],
        words={"helped": lambda r, d: f"{r.name(d['combatant'])} helps {r.name(d['ally'])}."},
    ),
)
