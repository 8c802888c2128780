"""A playtest's records, their digest, and every figure derived from them.

A summary.json keeps two things: the **records** of its games and the figures a run printed
from them. The records are counts, exact and additive: at each table the games by length, by
end, wins by seat, by agent and by place in turn order, finished games by first seat, draws and
shared wins, every score, margin, winning score and numeric answer counted by value, the yes/no
answers counted, each deal's (wins, games) by agent and by seat in duplicate play, the replayed
first games' digests and the capped games; a compensation's first-player counts at each value
tried and on the confirmation's fresh deals (with its first games' digest). A figure is never
read from the file: ``refigure.derived`` rebuilds every one from the records (rates, intervals,
means, quantiles, Elo, levels, sentences), and the check requires the stored figures to be
exactly those (:func:`first_difference`) and the records to match ``records_sha256``, the
digest the run wrote over all of them. An edited figure, or an edited record without its
digest, fails the check at the summary's path; the replayed games tie the records to the rules
and agents.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.simulate.stats import Tally, by_deal

DIGEST_KEY = "records_sha256"


def _counts(histogram: Sequence[Sequence[float]] | None) -> Counter[float]:
    return Counter({v: int(n) for v, n in histogram or ()})


def tally_of(table: Mapping[str, Any], kinds: Mapping[str, str]) -> Tally:
    """The counts a stored table's figures were computed from."""
    players = int(table["players"])
    tally = Tally.empty(players, kinds)
    tally.games = int(table["games"])
    tally.turns = _counts(table["turns"].get("histogram"))
    tally.ends = Counter({r: int(e["count"]) for r, e in table["ends"].items()})
    tally.seat_wins = Counter({int(s["seat"]) - 1: int(s["count"]) for s in table["seats"]})
    tally.first = Counter({int(s) - 1: int(n) for s, n in table["first_player"]["seats"].items()})
    tally.order_wins = Counter({int(p["place"]) - 1: int(p["count"])
                                for p in table["turn_order"]})
    tally.agent_seats = Counter({a: int(f["of"]) for a, f in table["agents"].items()})
    tally.agent_wins = Counter({a: int(f["count"]) for a, f in table["agents"].items()})
    tally.draws = int(table["draws"]["count"])
    tally.shared = int(table["shared_wins"]["count"])
    tally.scores[0] = _counts(table["scores"].get("histogram"))  # every seat's, as printed
    tally.winning = _counts(table["winning_score"].get("histogram"))
    tally.margins = _counts(table["margin"].get("histogram"))
    for name, kind in kinds.items():
        answer = table["questions"][name]
        if kind == "rate":
            tally.answers[name] = Counter({1: int(answer["count"]),
                                           0: int(answer["of"]) - int(answer["count"])})
        else:
            tally.answers[name] = _counts(answer.get("histogram"))
    units = table.get("duplicate", {}).get("units")
    if units is not None:
        tally.agent_units = {a: Counter({(w, g): n for w, g, n in u})
                             for a, u in units["agents"].items()}
        tally.seat_units = {s: Counter({(w, g): n for w, g, n in u})
                            for s, u in enumerate(units["seats"]) if u}
        tally.deal_units = {k: Counter({(w, g): n for w, g, n in u})
                            for k, u in units.get("other", {}).items()}
    for d, name, half, games in table.get("by_deal", ()):
        tally.deal_scores.setdefault(int(d), {})[str(name)] = (int(half), int(games))
    tension = table.get("tension")
    if tension is not None:
        tally.lead_changes = _counts(tension["lead_changes"].get("histogram"))
        tally.comebacks = {name: Counter({"won": int(c["count"]), "behind": int(c["of"])})
                           for name, c in tension["comebacks"].items()}
    tally.stalls = {int(s["game"]): (int(s["setup_seed"]), str(s["found"]))
                    for s in table.get("stalls", ())}
    return tally


def tally_records(tally: Tally) -> dict[str, Any]:
    """A tally's counts in one canonical form (sorted), for the digest."""
    def items(counter: Mapping[Any, int]) -> list[list[Any]]:
        return [[k, counter[k]] for k in sorted(counter, key=repr) if counter[k]]

    scores: Counter[float] = Counter()
    for counts in tally.scores.values():
        scores.update(counts)
    return {
        "players": tally.players, "games": tally.games, "turns": items(tally.turns),
        "ends": items(tally.ends), "seat_wins": items(tally.seat_wins),
        "first": items(tally.first), "order_wins": items(tally.order_wins),
        "agent_seats": items(tally.agent_seats), "agent_wins": items(tally.agent_wins),
        "draws": tally.draws, "shared": tally.shared, "scores": items(scores),
        "winning": items(tally.winning), "margins": items(tally.margins),
        "answers": {n: items(c) for n, c in sorted(tally.answers.items())},
        "agent_units": {a: items(c) for a, c in sorted(tally.agent_units.items())},
        "seat_units": {str(s): items(c) for s, c in sorted(tally.seat_units.items())},
        **({"deal_units": {k: items(c) for k, c in sorted(tally.deal_units.items())}}
           if tally.deal_units else {}),
        **({"deal_scores": by_deal(tally)} if tally.deal_scores else {}),
        "lead_changes": items(tally.lead_changes),
        "comebacks": {n: items(c) for n, c in sorted(tally.comebacks.items())},
        "stalls": [[i, *tally.stalls[i]] for i in sorted(tally.stalls)],
    }


def kinds_of(summary: Mapping[str, Any]) -> dict[str, str]:
    """Each question's kind: as the summary lists them, or (a ladder's, which lists none)
    as its tables count them (a rate keeps a count, a mean its values)."""
    if "questions" in summary:
        return {name: str(q["kind"]) for name, q in summary["questions"].items()}
    asked = summary["tables"][0]["questions"] if summary["tables"] else {}
    return {name: "rate" if "count" in q else "mean" for name, q in asked.items()}


def records(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Everything a summary's figures are computed from (see the module's docstring)."""
    kinds = kinds_of(summary)
    out: dict[str, Any] = {
        "format": summary["format"], "engine": summary["engine"], "run": summary["run"],
        "tables": [{"key": t["key"], "variant": t["variant"],
                    "replayed": [t.get("sample"), t.get("first_game")],
                    **tally_records(tally_of(t, kinds))} for t in summary["tables"]],
    }
    compensation = summary.get("compensation")
    if compensation is not None:
        out["compensation"] = {
            "handicap": compensation["handicap"],
            "suggested": compensation["suggested"],
            "tried": [[t["value"], t["first_player"]["count"], t["first_player"]["of"]]
                      for t in compensation["tried"]],
        }
        confirmation = compensation.get("confirmation")
        if confirmation is not None:  # the fresh deals' first-player counts, first games
            out["compensation"]["confirmation"] = [
                confirmation["value"], confirmation["seed"],
                confirmation["first_player"]["count"], confirmation["first_player"]["of"],
                # recorded since check plays them again; an older record's digest is kept
                *([confirmation["sample"]] if "sample" in confirmation else [])]
    return out


def records_digest(summary: Mapping[str, Any]) -> str:
    text = json.dumps(records(summary), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def sealed(summary: Mapping[str, Any]) -> dict[str, Any]:
    """``summary`` with the digest of its records (what a run writes)."""
    return {**summary, DIGEST_KEY: records_digest(summary)}


def first_difference(stored: Any, made: Any, path: str = "") -> str | None:
    """Where ``stored`` first differs from ``made`` (``tables[2-standard].agents.greedy.rate:
    0.7, its records give 0.6``), None when they are the same."""
    if isinstance(stored, Mapping) and isinstance(made, Mapping):
        for key in [*made, *(k for k in stored if k not in made)]:
            if key not in stored:
                return f"{path}{key} is missing"
            if key not in made:
                return f"{path}{key} is not a figure of this version"
            found = first_difference(stored[key], made[key], f"{path}{key}.")
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(made, list) and len(stored) == len(made):
        for i, (a, b) in enumerate(zip(stored, made, strict=True)):
            label = b.get("key") if isinstance(b, Mapping) and "key" in b else i
            found = first_difference(a, b, f"{path[:-1]}[{label}].")
            if found:
                return found
        return None
    if stored == made and type(stored) is type(made) or (
            isinstance(stored, int | float) and isinstance(made, int | float)
            and not isinstance(stored, bool) and stored == made):
        return None
    return f"{path[:-1]} is {json.dumps(stored)}, its records give {json.dumps(made)}"


def changes(stored: Any, made: Any, path: str = "") -> list[str]:
    """Every figure that differs between two summaries, as ``path: old -> new``."""
    if isinstance(stored, Mapping) and isinstance(made, Mapping):
        return [c for k in dict.fromkeys([*stored, *made])
                for c in (changes(stored.get(k), made.get(k), f"{path}{k}.")
                          if k in stored and k in made
                          else [f"{path}{k}: {json.dumps(stored.get(k))} -> "
                                f"{json.dumps(made.get(k))}"])]
    if isinstance(stored, list) and isinstance(made, list) and len(stored) == len(made):
        labels = [b.get("key", i) if isinstance(b, Mapping) else i for i, b in enumerate(made)]
        return [c for label, a, b in zip(labels, stored, made, strict=True)
                for c in changes(a, b, f"{path[:-1]}[{label}].")]
    if stored == made:
        return []
    return [f"{path[:-1]}: {json.dumps(stored)} -> {json.dumps(made)}"]
