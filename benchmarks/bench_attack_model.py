"""Cost of one Attack model update (what a control move on the damage page recomputes).

Prints the median of repeated updates for the default attack and for the slowest settings the
model's bounds allow (a 20-die Gift with 5 boosts, 20 Ki, a 20-level track and a defender with
10 Ki spending all of it): the fight's Markov chain is the bulk of it.

Run: ``python benchmarks/bench_attack_model.py``.
"""

from __future__ import annotations

import statistics
import time

from tb_playground.models import Attack

WORST = {
    "dice_source": "gift",
    "gift_dice": 20,
    "boosts": 5,
    "bonus": 1,
    "attacker_ki": 20,
    "target_wall": 10,
    "target_levels": 20,
    "target_ki": 10,
    "target_ki_policy": "all",
    "element": 0,
    "target_defense_stat": 10,
}


def time_updates(attack: Attack, repeats: int) -> float:
    """Median milliseconds of one update, toggling the Element by one."""
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        attack.element = 1 if i % 2 == 0 else 0
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def main() -> None:
    print(f"default attack update:        {time_updates(Attack(), 21):8.1f} ms")
    print(f"slowest allowed settings:     {time_updates(Attack(**WORST), 5):8.1f} ms")


if __name__ == "__main__":
    main()
