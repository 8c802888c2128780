"""rulepress simulate --ladder --adaptive at full size: Pigeon, two players, five agents
(random, greedy, flat:25, flat:100, flat:400: a search below greedy, and two above it), every
pair on the same deals (duplicate) until its result is decided or DEALS are played, then the
strongest in every seat for DEALS games; on two workers, as on the reference machine's two
cores.

- ``pigeon_ladder5_seconds``: wall time of the whole ladder (DEALS, argv[1], default 48);
- ``pigeon_ladder5_deals``: deals played in all by the ten pairs (at most 10 x DEALS);
- ``pigeon_ladder5_deals_<a>_vs_<b>``: each pair's deals (fewer than DEALS: decided early);
- ``pigeon_ladder5_widest_pair_half_width``, ``pigeon_ladder5_first_player_half_width``: how
  wide (each side, in points of percentage) the widest pair's interval over deals and the
  strongest's first-player interval come out;
- ``pigeon_ladder5_levels``: how many levels of play the games tell apart;
- ``load_average_1min``: the machine's load meanwhile (other work slows this down).

Run: .venv/bin/python benchmarks/bench_ladder_pigeon.py [DEALS [AGENTS]]  -> one JSON object per
line (AGENTS: a --ladder list, e.g. random,greedy,ismcts:100,ismcts:400,ismcts:1600).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from rulepress.simulate.generator import simulate_ladder
from rulepress.simulate.summary import Options

ROOT = Path(__file__).resolve().parents[1]
AGENTS = "random,greedy,flat:25,flat:100,flat:400"
JOBS = 2


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit}), flush=True)


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 48
    agents = sys.argv[2] if len(sys.argv) > 2 else AGENTS
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        simulate_ladder("pigeon", ROOT / "sources", ROOT,
                        Options(deals, "2", None, None, ladder=agents, adaptive=True), Path(out),
                        jobs=JOBS)
        seconds = time.perf_counter() - start
        summary = json.loads((Path(out) / "summary.json").read_text())
    ladder, tables = summary["ladder"], summary["tables"]
    # How much these deals tell: the widest pair's interval over deals, and the seat balance's.
    spans = [p["deal_ci"] or p["ci"] for p in ladder["pairs"]]
    widest = max(high - low for low, high in spans)
    seat = ladder["seat_balance"]["first_player"]["ci"]
    emit("pigeon_ladder5_seconds", seconds, "s")
    played = [t["games"] // 2 for t in tables[:-1]]  # a deal is two games, one per seat
    emit("pigeon_ladder5_deals", sum(played), "deals")
    for pair, n in zip(ladder["pairs"], played, strict=True):
        emit("pigeon_ladder5_deals_" + "_vs_".join(pair["agents"]), n, "deals")
    emit("pigeon_ladder5_widest_pair_half_width", 100 * widest / 2, "percentage points")
    emit("pigeon_ladder5_first_player_half_width", 100 * (seat[1] - seat[0]) / 2,
         "percentage points")
    emit("pigeon_ladder5_levels", len(ladder["levels"]), "levels")
    emit("load_average_1min", os.getloadavg()[0], "processes")


if __name__ == "__main__":
    main()
