"""Server-side costs of the character sheet (issue 4 figures).

Prints, as medians: a fresh ``Character``; loading Ronan's file from examples/roster; one stat
change and the derived values it recomputes; building a whole ``CharacterSheet`` (the work a
new browser session costs the server). Browser latency is not measured here.

Run: ``python benchmarks/bench_character.py``.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from tb_playground.models import Character
from tb_playground.models.files import load
from tb_playground.views.character_sheet import CharacterSheet

RONAN = Path(__file__).resolve().parents[1] / "examples" / "roster" / "ronan.json"


def median_ms(call, repeats: int) -> float:
    """Median wall time of ``call()`` in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def main() -> None:
    ronan = load(RONAN)
    flip = iter(range(10**6))
    print(f"Character():                    {median_ms(Character, 21):7.1f} ms")
    print(f"load ronan.json:                {median_ms(lambda: load(RONAN), 21):7.1f} ms")
    print(
        "one stat change (Air) + derived: "
        f"{median_ms(lambda: setattr(ronan, 'air', 3 + next(flip) % 2), 41):7.1f} ms"
    )
    sheet_ms = median_ms(lambda: CharacterSheet(character=load(RONAN)), 7)
    print(f"CharacterSheet() for a session: {sheet_ms:7.1f} ms")


if __name__ == "__main__":
    main()
