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
from dataclasses import replace
from typing import Any

from rulepress.diagnostics import ExitStatus, RulepressError, error
from rulepress.games import contract
from rulepress.games.base import handicap_of
from rulepress.pipeline import Progress as Reporter
from rulepress.simulate.run import Options, Plan, outputs, summarize
from rulepress.simulate.stats import Tally, rate

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


def compensation_files(chosen: Plan, game: str, *, jobs: int = 0, scheduler: str | None = None,
                       reporter: Reporter | None = None) -> tuple[dict[str, str], str]:
    """The search on the checked plan ``chosen``: its files (the summary at the suggested
    value, its plots) and what to tell the user of it."""
    from rulepress.simulate.execute import SchedulerError, players
    from rulepress.simulate.play import SimulationFailure, engine_of
    from rulepress.simulate.progress import game_steps

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
    fair = first_player(tried[best])
    ci = fair["ci"] or [0.0, 0.0]
    sentence = (f"with the handicap at {best} ({offered.text}), the first player wins "
                f"{fair['rate'] * 100:.1f}% [{ci[0] * 100:.1f}, {ci[1] * 100:.1f}] of "
                f"{fair['of']:,} games (at {offered.low}: "
                f"{at(offered.low, None) * 100:.1f}%)")
    summary["compensation"] = {
        "handicap": {"text": offered.text, "low": offered.low, "high": offered.high},
        "method": METHOD,
        "tried": [{"value": v, "first_player": first_player(tried[v])} for v in sorted(tried)],
        "suggested": best,
        "sentence": sentence,
    }
    games = sum(t.games for t in tried.values())
    where = f"on {scheduler}" if scheduler else f"on {jobs or os.cpu_count() or 1} processes"
    return outputs(summary), (f"played {games} games of {game} in {seconds:.1f} s {where}, "
                              f"{len(tried)} values of the handicap: {sentence}")

