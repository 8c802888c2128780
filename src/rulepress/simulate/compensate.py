"""``rulepress simulate --compensate``: the value of the rules' numeric handicap
(``Rules.handicap``) that evens the first player's chances, found by bisection.

Every value tried plays the same deals (the run's seed), so two values differ by the handicap
alone. The first player's win rate is taken to fall as the handicap grows: the lowest value
and the highest are tried, then the middle of the two values that still straddle one half,
until they are neighbours; the one nearer an even share is suggested, with its interval.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulepress.diagnostics import ExitStatus, RulepressError, error
from rulepress.games import contract
from rulepress.games.base import handicap_of
from rulepress.pipeline import Reporter
from rulepress.simulate.execute import SchedulerError, players
from rulepress.simulate.play import SimulationFailure, engine_of
from rulepress.simulate.progress import game_steps
from rulepress.simulate.records import sealed
from rulepress.simulate.run import outputs, summarize
from rulepress.simulate.stats import Z95, Tally, _r, rate
from rulepress.simulate.summary import Options, Plan

METHOD = ("every value plays the run's deals; the first player's win rate (Wilson, 95%) is "
          "taken to fall as the handicap grows; bisection between the lowest and highest "
          "values until the two that straddle one half are neighbours; the nearer to one half "
          "is suggested")


def first_player(tally: Tally) -> dict[str, Any]:
    return rate(tally.order_wins[0], sum(tally.first.values()))


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
    return {"handicap": handicap, "method": METHOD, "tried": tried, "suggested": best,
            "sentence": sentence,
            **({"fit": {**fit, "method": FIT_METHOD}} if fit is not None else {})}


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

    total = steps * chosen.spec.plays(chosen.spec.players[0])
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
    except SchedulerError as exc:
        raise RulepressError.at(None, str(exc)) from None
    except SimulationFailure as exc:
        raise RulepressError([error(exc.loc, str(exc))], ExitStatus.BAD_INPUT
                             if exc.bad_input else ExitStatus.CHECK_FAILED) from None
    seconds = time.perf_counter() - start
    best = min((low, high) if high in tried else (low,),
               key=lambda v: (abs(at(v, None) - 0.5), v))
    suggested = Plan(replace(chosen.spec, handicap=best), chosen.title, chosen.agents,
                     chosen.questions)
    summary = summarize(suggested, [tried[best]])
    summary["compensation"] = derived({
        "handicap": {"text": offered.text, "low": offered.low, "high": offered.high},
        "tried": [{"value": v, "first_player": first_player(tried[v])} for v in sorted(tried)],
        "suggested": best,
    }, summary["tables"][0])
    summary = sealed(summary)
    sentence = summary["compensation"]["sentence"]
    games = sum(t.games for t in tried.values())
    where = f"on {scheduler}" if scheduler else f"on {jobs or os.cpu_count() or 1} processes"
    return outputs(summary), (f"played {games} games of {game} in {seconds:.1f} s {where}, "
                              f"{len(tried)} values of the handicap: {sentence}")

