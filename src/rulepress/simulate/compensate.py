"""``rulepress simulate --compensate``: the value of the rules' numeric handicap
(``Rules.handicap``) that evens the first player's chances, found by bisection.

Every value tried plays the same deals (the run's seed), so two values differ by the handicap
alone. The first player's win rate is taken to fall as the handicap grows: the lowest value
and the highest are tried, then the middle of the two values that still straddle one half,
until they are neighbours; the one nearer an even share is suggested, with its interval. A
logistic curve fitted to every value tried gives the fair handicap; that value, rounded, is
played again on fresh deals (seeds the search never played), and only a value so confirmed is
"the handicap to try".
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulepress.diagnostics import ExitStatus, Reporter, RulepressError, error
from rulepress.games import contract
from rulepress.games.base import handicap_of
from rulepress.simulate.execute import SchedulerError, players
from rulepress.simulate.play import SimulationFailure, engine_of
from rulepress.simulate.progress import game_steps
from rulepress.simulate.records import sealed
from rulepress.simulate.run import outputs, summarize
from rulepress.simulate.stats import Z95, Tally, _r, rate, sample_digest
from rulepress.simulate.summary import Options, Plan

METHOD = ("every value plays the run's deals; the first player's win rate (Wilson, 95%) is "
          "taken to fall as the handicap grows; bisection between the lowest and highest "
          "values until the two that straddle one half are neighbours; the nearer to one half "
          "is suggested")


def first_player(tally: Tally) -> dict[str, Any]:
    return rate(tally.order_wins[0], sum(tally.first.values()))


def _counts(tally: Tally) -> tuple[int, int]:
    """The first player's wins and the games with a first player."""
    return tally.order_wins[0], sum(tally.first.values())


def compensation_options(options: Options) -> Options:
    """The options a compensation's plan is checked with (its own, once they agree)."""
    if options.ladder is not None or options.handicap is not None:
        raise RulepressError.at(None, "--compensate finds the handicap itself: leave out "
                                      "--handicap and --ladder")
    return options


FIT_METHOD = ("a logistic curve, logit(first player's win rate) = a + b handicap, fitted by "
              "maximum likelihood to the first player's wins at every value tried; the fair "
              "handicap is where it crosses one half, -a / b, its 95% interval Fieller's from "
              "the fit's covariance, each value's games taken as independent though every "
              "value plays the same deals (none when the slope is not told from 0)")


def logistic_fit(tried: Sequence[tuple[int, int, int]]) -> dict[str, Any] | None:
    """The handicap where the fitted curve of (value, first player's wins, games) crosses one
    half, with its interval (FIT_METHOD); None with fewer than two values."""
    import numpy as np

    rows = [(v, k, n) for v, k, n in tried if n > 0]
    if len({v for v, _, _ in rows}) < 2:
        return None
    x = np.array([[1.0, float(v)] for v, _, _ in rows])
    k = np.array([float(k) for _, k, _ in rows])
    n = np.array([float(n) for _, _, n in rows])
    beta = np.zeros(2)
    try:
        for _ in range(100):  # Newton's method on the log-likelihood
            p = 1 / (1 + np.exp(-(x @ beta)))
            info = (x * (n * p * (1 - p))[:, None]).T @ x
            step = np.linalg.solve(info, x.T @ (k - n * p))
            beta += step
            if np.max(np.abs(step)) < 1e-12:
                break
        p = 1 / (1 + np.exp(-(x @ beta)))
        cov = np.linalg.inv((x * (n * p * (1 - p))[:, None]).T @ x)
    except np.linalg.LinAlgError:  # every value won, or lost, every game: no curve to fit
        return None
    if not (np.all(np.isfinite(beta)) and np.all(np.isfinite(cov))):
        return None
    a, b = float(beta[0]), float(beta[1])
    out: dict[str, Any] = {"games": int(n.sum()), "intercept": _r(a), "slope": _r(b),
                           "fair": _r(-a / b) if b else None, "ci": None,
                           "shown": f"{-a / b:.1f}" if b else None}
    # Fieller: every h with (a + b h)^2 <= z^2 var(a + b h), a quadratic in h.
    z2 = Z95 * Z95
    qa = b * b - z2 * cov[1, 1]
    qb = 2 * (a * b - z2 * cov[0, 1])
    qc = a * a - z2 * cov[0, 0]
    root = qb * qb - 4 * qa * qc
    if qa > 0 and root >= 0:
        ends = sorted(float((-qb + sign * math.sqrt(root)) / (2 * qa)) for sign in (-1, 1))
        out["ci"] = [_r(ends[0]), _r(ends[1])]
        out["interval"] = f"{ends[0]:.1f}–{ends[1]:.1f}"
    return out


# The confirmation's deals come from the run's seed plus this: seeds the fit never played.
CONFIRM_OFFSET = 1_000_000
CONFIRM_METHOD = ("the value to try (the fitted fair handicap rounded to a whole value, or "
                  "the value tried nearest one half without a fit) played again on as many "
                  "fresh deals, set up from the seed plus 1,000,000 (none of the fit's); "
                  "confirmed when the first player's Wilson 95% interval there holds one half")


def value_to_try(fit: Mapping[str, Any] | None, suggested: int, low: int, high: int) -> int:
    """The handicap a confirmation plays: the fitted fair value, rounded, within the range."""
    if fit is None or fit.get("fair") is None:
        return suggested
    return max(low, min(high, math.floor(float(fit["fair"]) + 0.5)))


def _confirmation(stored: Mapping[str, Any]) -> dict[str, Any]:
    """The confirmation's figures from its record: the value, the seed, the first player's
    wins and games."""
    value, seed = stored["value"], stored["seed"]
    fair = rate(stored["first_player"]["count"], stored["first_player"]["of"])
    holds = fair["ci"] is not None and fair["ci"][0] <= 0.5 <= fair["ci"][1]
    # a record: the digest of its first games, which every check plays again
    sample = {"sample": stored["sample"]} if "sample" in stored else {}
    return {"value": value, "seed": seed, "games": fair["of"], "first_player": fair,
            "confirmed": holds, "method": CONFIRM_METHOD, **sample}


def derived(stored: Mapping[str, Any], table: Mapping[str, Any]) -> dict[str, Any]:
    """A compensation's figures from its records (each value's first-player counts) and the
    table played at the suggested value (its figures already derived)."""
    handicap = stored["handicap"]
    tried = [{"value": t["value"], "first_player": rate(t["first_player"]["count"],
                                                         t["first_player"]["of"])}
             for t in stored["tried"]]
    best = stored["suggested"]
    fair = table["first_player"]
    ci = fair["ci"] or [0.0, 0.0]
    at_low = next(t["first_player"]["rate"] for t in tried if t["value"] == handicap["low"])
    sentence = (f"with the handicap at {best} ({handicap['text']}), the first player wins "
                f"{fair['rate'] * 100:.1f}% [{ci[0] * 100:.1f}, {ci[1] * 100:.1f}] of "
                f"{fair['of']:,} games (at {handicap['low']}: {at_low * 100:.1f}%)")
    fit = logistic_fit([(t["value"], t["first_player"]["count"], t["first_player"]["of"])
                        for t in tried])
    confirmation = (_confirmation(stored["confirmation"]) if "confirmation" in stored
                    else None)
    if confirmation is not None:
        fp = confirmation["first_player"]
        said = (f"the first player wins {fp['rate'] * 100:.1f}% [{fp['ci'][0] * 100:.1f}, "
                f"{fp['ci'][1] * 100:.1f}] of {fp['of']:,} fresh games at {confirmation['value']}")
        sentence += (f"; the handicap to try: {confirmation['value']} ({said})"
                     if confirmation["confirmed"] else f"; not confirmed: {said}")
    return {"handicap": handicap, "method": METHOD, "tried": tried, "suggested": best,
            "sentence": sentence,
            **({"fit": {**fit, "method": FIT_METHOD}} if fit is not None else {}),
            **({"confirmation": confirmation} if confirmation is not None else {})}


def compensation_files(chosen: Plan, game: str, *, jobs: int = 0, scheduler: str | None = None,
                       reporter: Reporter | None = None) -> tuple[dict[str, str], str]:
    """The search on the checked plan ``chosen``: its files (the summary at the suggested
    value, its plots) and what to tell the user of it."""
    if len(chosen.spec.tables) != 1:
        raise RulepressError.at(None, "--compensate evens one table: give one player count and "
                                      "one variant")
    rules = contract.rules(engine_of(chosen.spec))
    offered = handicap_of(rules) if rules is not None else None
    assert offered is not None, "checked by plan()"
    steps = 2 + math.ceil(math.log2(max(1, offered.high - offered.low)))
    tried: dict[int, Tally] = {}
    start = time.perf_counter()

    def at(value: int, progress: Any) -> float:
        if value not in tried:
            ((tried[value],),) = played([replace(chosen.spec, handicap=value)], progress, None)
        found = first_player(tried[value])["rate"]
        return 0.5 if found is None else float(found)

    total = (steps + 1) * chosen.spec.plays(chosen.spec.players[0])  # and the confirmation
    try:  # one pool (or cluster connection) for every value tried
        with players(jobs, scheduler) as played, game_steps(reporter, game, total) as progress:
            low, high = offered.low, offered.high
            if at(low, progress) > 0.5 and at(high, progress) <= 0.5:
                while high - low > 1:
                    middle = (low + high) // 2
                    if at(middle, progress) > 0.5:
                        low = middle
                    else:
                        high = middle
            best = min((low, high) if high in tried else (low,),
                       key=lambda v: (abs(at(v, None) - 0.5), v))
            # the value to try, played on fresh deals before the report calls it that
            fit = logistic_fit([(v, *_counts(t)) for v, t in sorted(tried.items())])
            value = value_to_try(fit, best, offered.low, offered.high)
            fresh = replace(chosen.spec, handicap=value, seed=chosen.spec.seed + CONFIRM_OFFSET)
            ((confirmed,),) = played([fresh], progress, None)
    except SchedulerError as exc:
        raise RulepressError.at(None, str(exc)) from None
    except SimulationFailure as exc:
        raise RulepressError([error(exc.loc, str(exc))], ExitStatus.BAD_INPUT
                             if exc.bad_input else ExitStatus.CHECK_FAILED) from None
    seconds = time.perf_counter() - start
    suggested = Plan(replace(chosen.spec, handicap=best), chosen.title, chosen.agents,
                     chosen.questions)
    summary = summarize(suggested, [tried[best]])
    count, of = _counts(confirmed)
    summary["compensation"] = derived({
        "handicap": {"text": offered.text, "low": offered.low, "high": offered.high},
        "tried": [{"value": v, "first_player": first_player(tried[v])} for v in sorted(tried)],
        "suggested": best,
        "confirmation": {"value": value, "seed": fresh.seed,
                         "first_player": {"count": count, "of": of},
                         "sample": sample_digest(confirmed.sample)},
    }, summary["tables"][0])
    summary = sealed(summary)
    sentence = summary["compensation"]["sentence"]
    games = sum(t.games for t in tried.values()) + confirmed.games
    where = f"on {scheduler}" if scheduler else f"on {jobs or os.cpu_count() or 1} processes"
    return outputs(summary), (f"played {games} games of {game} in {seconds:.1f} s {where}, "
                              f"{len(tried)} values of the handicap: {sentence}")

