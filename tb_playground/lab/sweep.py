"""Many encounters at once, on Dask: builds, creatures and readings side by side.

``sweep(items, fights, seed, scheduler=None, **policies)`` runs ``simulate`` per item on a given
scheduler, ``TB_DASK_SCHEDULER``, a ``LocalCluster`` of its own, or ``"inline"``; common random
numbers make the results the same wherever the tasks run. Notes: docs/notes/0010-lab.md,
"Session 3: pages, sweeps".
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from tb_playground.engine.validation import require_int

from .fight_result import EncounterResult
from .prepare import plain_encounter
from .simulate import MAX_FIGHTS, simulate

#: The environment variable naming a Dask scheduler (``tcp://host:8786``).
SCHEDULER_ENV = "TB_DASK_SCHEDULER"

#: ``scheduler=INLINE`` runs the sweep in this process, without Dask.
INLINE = "inline"

#: Keyword arguments of ``simulate`` an item may set for itself (its reading, its play).
ITEM_OPTIONS = (
    "bracket_policy", "target_policy", "ki_policy", "boost_policy", "attack_policy", "end",
    "max_rounds", "off_balance", "ruleset",
)  # fmt: skip


@dataclass(frozen=True, eq=False)
class SweepResult:
    """The results of a sweep, in the order of its items.

    Attributes
    ----------
    labels : list of str
        Each item's label.
    results : list of EncounterResult
        Each item's ``simulate`` result.
    seed : int
        The seed every item was played with.
    where : str
        Where the tasks ran, in words ("this process", "a local Dask cluster of 2 workers",
        "the Dask scheduler at tcp://...").
    """

    labels: list[str]
    results: list[EncounterResult]
    seed: int
    where: str

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, label: str) -> EncounterResult:
        """The result of the item labelled ``label``."""
        try:
            return self.results[self.labels.index(label)]
        except ValueError:
            raise KeyError(label) from None

    def rows(self) -> list[dict]:
        """One row per (item, side): P(win) with its interval, mean rounds, P(character down)."""
        out = []
        for label, result in zip(self.labels, self.results, strict=True):
            for side in result.sides:
                low, high = result.p_win_interval[side]
                out.append(
                    {
                        "item": label,
                        "side": side,
                        "p_win": result.p_win[side],
                        "p_win_low": low,
                        "p_win_high": high,
                        "mean_rounds": result.rounds.mean,
                        "p_character_down": result.p_character_down,
                    }
                )
        return out


def _items(encounters_or_builds) -> list[tuple[str, object, dict]]:
    """(label, encounter, options) for every item of a mapping or a sequence."""
    if isinstance(encounters_or_builds, Mapping):
        pairs = [(str(k), v) for k, v in encounters_or_builds.items()]
    elif isinstance(encounters_or_builds, Sequence) and not isinstance(
        encounters_or_builds, str | bytes
    ):
        pairs = []
        for i, item in enumerate(encounters_or_builds):
            enc = item[0] if isinstance(item, tuple) else item
            name = getattr(enc, "name", None)
            pairs.append((f"{i + 1}: {name}" if name else f"{i + 1}", item))
    else:
        raise TypeError(
            "encounters_or_builds must be a list of encounters or a dict label -> encounter, "
            f"got {type(encounters_or_builds).__name__}"
        )
    if not pairs:
        raise ValueError("encounters_or_builds must hold at least one encounter")
    out = []
    for label, item in pairs:
        if isinstance(item, tuple):
            if len(item) != 2 or not isinstance(item[1], Mapping):
                raise TypeError(
                    f"item {label!r}: a tuple must be (encounter, options dict), got {item!r:.80}"
                )
            enc, options = item
            unknown = set(options) - set(ITEM_OPTIONS)
            if unknown:
                raise ValueError(
                    f"item {label!r}: options must be among {ITEM_OPTIONS}, got {sorted(unknown)}"
                )
        else:
            enc, options = item, {}
        out.append((label, enc, dict(options)))
    return out


def _run_batch(batch: list[tuple]) -> list[EncounterResult]:
    """Play a batch of (plain encounter, fights, seed, keyword arguments) in this process."""
    return [simulate(plain, fights, seed, **kwargs) for plain, fights, seed, kwargs in batch]


def _dask_client(scheduler, workers: int, processes: bool):
    """(client, where, cleanup) for a Client, an address, the environment's, or a LocalCluster."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as err:  # pragma: no cover - the [lab] extra is missing
        raise ImportError(
            'sweeps on Dask need dask.distributed: pip install "tb_playground[lab]"'
        ) from err
    if scheduler is not None and not isinstance(scheduler, str):
        if not (hasattr(scheduler, "map") and hasattr(scheduler, "gather")):
            raise TypeError(
                "scheduler must be an address, a dask.distributed.Client or None, "
                f"got {type(scheduler).__name__}"
            )
        return scheduler, "a Dask client given", lambda: None
    address = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if address:
        client = Client(address, set_as_default=False)
        return client, f"the Dask scheduler at {address}", client.close
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=processes,
        dashboard_address=":0",
        silence_logs=40,  # logging.ERROR
    )
    client = Client(cluster, set_as_default=False)

    def cleanup():
        client.close()
        cluster.close()

    return client, f"a local Dask cluster of {workers} workers", cleanup


def sweep(
    encounters_or_builds,
    fights: int = 2_000,
    seed: int | None = None,
    scheduler=None,
    *,
    workers: int = 2,
    processes: bool = True,
    batch: int | None = None,
    **policies,
) -> SweepResult:
    """Simulate many encounters (builds, creatures, readings) as Dask tasks.

    Parameters
    ----------
    encounters_or_builds : list or dict
        The items: each an encounter (an Encounter, the table's combatant records or a table's
        state) or a tuple (encounter, options) whose options (``ITEM_OPTIONS``: a policy, a
        ``ruleset`` of switches for a reading...) override ``policies`` for that item. A dict
        gives each item its label; a list labels them "1: name", "2: name"...
    fights : int
        Fights per item, 1..10,000,000.
    seed : int, optional
        The seed of every item (a fresh one if None, kept in the result).
    scheduler : str, Client or None
        A Dask scheduler's address, an open ``dask.distributed.Client``, ``"inline"`` (this
        process, no Dask), or None: ``TB_DASK_SCHEDULER`` if set, else a ``LocalCluster``.
    workers : int
        Workers of the ``LocalCluster`` (1..64; unused otherwise).
    processes : bool
        Whether the ``LocalCluster``'s workers are processes (True) or threads.
    batch : int, optional
        Items per task (default: enough tasks for about 4 per worker, at most 200 items each).
    **policies
        ``simulate``'s keyword arguments for every item (``bracket_policy``, ``ruleset``...).

    Returns
    -------
    SweepResult
        The same for the same seed wherever the tasks run.
    """
    items = _items(encounters_or_builds)
    fights = require_int("fights", fights, 1, MAX_FIGHTS)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    seed = require_int("seed", seed, 0, None)
    workers = require_int("workers", workers, 1, 64)
    if not isinstance(processes, bool):
        raise TypeError(f"processes must be True or False, got {processes!r}")
    unknown = set(policies) - set(ITEM_OPTIONS)
    if unknown:
        raise ValueError(f"policies must be among {ITEM_OPTIONS}, got {sorted(unknown)}")
    jobs = []
    for _label, enc, options in items:
        kwargs = {**policies, **options}
        ruleset = kwargs.pop("ruleset", None)
        jobs.append((plain_encounter(enc, ruleset), fights, seed, kwargs))
    # A bad policy fails here, once, rather than in every task on the cluster.
    simulate(jobs[0][0], 1, seed, **jobs[0][3])
    if batch is None:
        batch = min(200, max(1, math.ceil(len(jobs) / (4 * workers))))
    batch = require_int("batch", batch, 1, None)
    batches = [jobs[i : i + batch] for i in range(0, len(jobs), batch)]
    if scheduler == INLINE:
        parts = [_run_batch(b) for b in batches]
        where = "this process"
    else:
        client, where, cleanup = _dask_client(scheduler, workers, processes)
        try:
            futures = client.map(_run_batch, batches, pure=False)
            parts = client.gather(futures)
        finally:
            cleanup()
    results = [r for part in parts for r in part]
    return SweepResult([label for label, _, _ in items], results, seed, where)


__all__ = ["INLINE", "ITEM_OPTIONS", "SCHEDULER_ENV", "SweepResult", "sweep"]
