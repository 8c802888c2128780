"""A summary's figures computed again from its records (records.py), whatever made it: one
run, a ladder (ladder.derived) or a handicap search (compensate.derived). It sits above the
three, so records.py, which each of them uses to seal its summary, imports none of them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.simulate import ladder
from rulepress.simulate.compensate import derived as compensated
from rulepress.simulate.records import (
    DIGEST_KEY,
    changes,
    kinds_of,
    records_digest,
    tally_of,
)
from rulepress.simulate.stats import DUPLICATE_METHOD, METHOD, table_figures
from rulepress.simulate.summary import dumps


def _table(stored: Mapping[str, Any], kinds: Mapping[str, str], agents: Sequence[str],
           seconds_per_turn: float) -> dict[str, Any]:
    figures = table_figures(tally_of(stored, kinds), agents, seconds_per_turn)
    figures["sample"] = stored["sample"]  # a record: the replayed games' digest
    out = {"key": stored["key"], "players": stored["players"], "variant": stored["variant"],
           **figures}
    if "first_game" in stored:
        out["first_game"] = stored["first_game"]
    return out


def derived(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The summary with every figure computed again from its records, in this version's
    methods and words (the records, run and descriptions as stored)."""
    kinds = kinds_of(summary)
    run = summary["run"]
    spt = float(run["seconds_per_turn"])
    out = dict(summary)
    if "ladder" in summary:
        out.update(ladder.derived(summary, kinds))
        return out
    out["method"] = {**METHOD, **DUPLICATE_METHOD} if run.get("duplicate") else dict(METHOD)
    out["tables"] = [_table(t, kinds, run["agents"], spt) for t in summary["tables"]]
    if "compensation" in summary:
        out["compensation"] = compensated(summary["compensation"], out["tables"][0])
    return out


def refigured(text: str) -> tuple[str, list[str]]:
    """A summary's text with its figures computed again from its records in this version's
    methods (no game played), and what changed; ValueError when its records do not match
    their digest (a refigured summary keeps the run's digest, never a new one)."""
    summary = json.loads(text)
    if summary.get(DIGEST_KEY) != records_digest(summary):
        raise ValueError("its records do not match their digest")
    made = {**derived(summary), DIGEST_KEY: summary[DIGEST_KEY]}
    return dumps(made) + "\n", changes(summary, made)


if __name__ == "__main__":  # python -m rulepress.simulate.refigure summary.json...
    import sys
    from pathlib import Path

    for name in sys.argv[1:]:
        file = Path(name)
        text, changed = refigured(file.read_text(encoding="utf-8"))
        file.write_text(text, encoding="utf-8")
        print(f"{name}: {len(changed)} figures changed", *changed, sep="\n  ")
