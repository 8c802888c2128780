"""A skill ladder: every pair of agents plays the same deals head to head, each deal once per
seat (duplicate play), and a Bradley–Terry fit puts them on one Elo scale.

What it tells a designer, from counts alone (so a run's figures are the same whatever
``--jobs`` or ``--scheduler``):

- each pair's score (a win 1, a shared win or a draw 1/2) with its Wilson interval, and its
  interval over deals;
- each agent's Elo (the first agent at 0) with a 95% interval from the fit's Fisher
  information, each pair's games counted as ``games / design effect`` (the design effect: the
  variance over deals over the variance as if the games were independent);
- how many levels of play the games tell apart and the Elo spread from the first agent to the
  strongest;
- the seat balance with the strongest agent in every seat (``--until``: until the first
  player's interval is that narrow).

``--adaptive`` spends the games where they tell something: each pair plays its deals in rounds
and stops after the first round that decides it (:func:`decided`), so random play against a
searching player takes a round and the close pairs play every deal. A pair's figures are then
from fewer deals (``games`` in its table says how many).
"""

from __future__ import annotations

import math
import os
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from rulepress.diagnostics import ExitStatus, Reporter, RulepressError, error
from rulepress.simulate.execute import SchedulerError, StopRule, players
from rulepress.simulate.play import SimulationFailure
from rulepress.simulate.plots import ladder_svg
from rulepress.simulate.progress import game_steps
from rulepress.simulate.records import sealed, tally_of
from rulepress.simulate.spec import RunSpec, SpecError
from rulepress.simulate.stats import (
    DUPLICATE_METHOD,
    METHOD,
    MIN_DEALS,
    Z95,
    Tally,
    _r,
    anytime_p,
    confidence_sequence,
    rate,
    rejects,
    sample_digest,
    seat_shares,
    t_two_sided,
    table_figures,
    wilson,
)
from rulepress.simulate.summary import FORMAT, Options, Plan, dumps
from rulepress.words import N_

ELO = 400 / math.log(10)  # Elo points per unit of log-strength
PRIOR_GAMES = 1.0  # a virtual drawn game per pair: a pair won 100% still has a finite fit
# A design effect is taken as at least this: a pair's games count at most twice, however
# alike its deals' two games look (0.1 let a few even deals count ten times).
MIN_EFFECT = 0.5
# --adaptive, as recorded before the records numbered the deals: a pair was decided when its
# score's Wilson interval at this z was clear of 1/2 after any round (16 looks).
DECIDED_Z = 2.8
# --adaptive now: a pair is decided once it has played this many deals and its confidence
# sequence (stats.confidence_sequence, valid however often it is looked at) excludes 1/2.
MIN_STOP_DEALS = 10
# Intervals by resampling deals: every pair played the same deals, so a resample draws deal
# numbers and takes every pair's games on them at once. Fixed, so the records give the same
# intervals at every check.
RESAMPLES = 2000
RESAMPLE_SEED = 43
LEVELS_TEST = ("each pair's two-sided test of an even score: t on n - 1 over its deals' scores "
               "(a draw or a shared win half) when it has 10 deals or more and its records "
               "keep scores by deal, else the binomial's normal approximation")
LEVELS_HOLM = ("; p-values adjusted by Holm's method over all pairs (p_holm), a pair told "
               "apart when p_holm < 0.05; agents by Elo, strongest first, an agent starting a "
               "new level when it is told apart from every agent of the level above")
LADDER_METHOD = {
    "ladder": "every pair plays the same deals (the run's seed), each deal once per seat "
              "(duplicate play); a pair's score counts a win 1, a shared win or a draw 1/2; "
              "its ci is Wilson over the games, its deal_ci over the deals on that same "
              "score (duplicate's interval; none below its least number of deals), the one "
              "its sentence prints and says \"beats\" by",
    "elo": "Bradley-Terry fitted by minorization-maximization (Hunter 2004) with one virtual "
           "drawn game per pair; Elo = 400 log10(strength), the first agent at 0; 95% "
           "intervals from the Fisher information, each pair's games divided by its design "
           "effect (variance over deals / binomial variance, at least 0.5; 1 for a pair of "
           "fewer deals than an interval over deals needs)",
    "levels": LEVELS_TEST + LEVELS_HOLM,
    "seat_balance": "the strongest agent (by Elo) in every seat; the first player's win rate "
                    "over the games with a first player (not those won at the deal), Wilson "
                    "interval; each seat's share of the wins; with --until, games are played in "
                    "16 rounds and the run stops after the first round whose interval is that "
                    "narrow",
}
# A ladder whose records say which deal each pair's games were played on (by_deal): the
# intervals resample the deals jointly. One recorded before that keeps LADDER_METHOD's Fisher
# intervals, which take the pairs as independent, and its sentence says so.
JOINT_METHOD = {
    "elo": "Bradley-Terry fitted by minorization-maximization (Hunter 2004) over all pairs "
           "with one virtual drawn game per pair; Elo = 400 log10(strength), the first agent "
           "at 0; 95% percentile intervals, each agent's Elo and each difference between two "
           f"agents (differences), from {RESAMPLES} resamples of the deals: each resample "
           "draws as many deal numbers as were played, with replacement, and refits every "
           "pair on those same deals at once (the pairs share their deals), a deal's games "
           "counted only for the pairs that played it",
}


def adaptive_rule(stop_alpha: float | None) -> str:
    """An adaptive ladder's stopping rule (its method's ``adaptive``) at level ``stop_alpha``
    (None: as recorded before the level was divided among the pairs, each pair at 0.05)."""
    level = (f"0.05 / the number of pairs (here {stop_alpha:g}), so that Holm's "
             "adjustment over all the pairs still tells every stopped pair apart"
             if stop_alpha is not None else
             "0.05 for each pair alone (recorded by an earlier version), so Holm's "
             "adjustment over all the pairs may tell no stopped pair apart")
    return ("each pair plays its deals in 16 rounds and stops after the first round "
            f"with {MIN_STOP_DEALS} deals or more whose confidence sequence for the pair's "
            f"score excludes an even one at level {level}; every pair's score has the "
            "always-valid 95% interval (cs), valid at whatever round it stopped, where a "
            "fixed sample's would be too narrow; a stopped pair's score is still pushed away "
            "from 1/2, and the sentence names every such pair (stopped_early)")


# What every adaptive ladder's always-valid intervals are, whatever rule stopped its pairs.
ADAPTIVE_CS = {
    "cs": "a confidence sequence for the mean of the deals' scores (each in [0, 1]): the "
          "means m that a mixture of constant bets against m, each a fraction k/10 (k = -9 "
          "to 9, not 0) of the most that can be staked at m, has not multiplied by 20, on a "
          "grid of 0.001 (Ville's inequality: 95%, at any stopping time)",
}
# The rule of an adaptive ladder recorded before its records numbered the deals. Its pairs'
# always-valid intervals (cs) hold whatever rule stopped them.
ADAPTIVE_WILSON = {
    "adaptive": "recorded by an earlier version: each pair played its deals in 16 rounds and "
                "stopped after the first round whose Wilson interval at z = "
                f"{DECIDED_Z} lay clear of an even score, with no least number of deals; "
                "every pair's score has its always-valid interval (cs), valid at whatever "
                "round it stopped; a stopped pair's score is still pushed away from 1/2, and "
                "the sentence names every such pair (stopped_early)",
    **ADAPTIVE_CS,
}


def pair_specs(base: RunSpec, names: Sequence[str]) -> list[RunSpec]:
    """One duplicate run per pair of agents, all on the base run's deals."""
    if len(names) < 2:
        raise SpecError(f"--ladder {','.join(names)}: rank two or more agents, e.g. "
                        "--ladder random,greedy")
    if len(set(names)) != len(names):
        raise SpecError(f"--ladder {','.join(names)}: an agent is named twice")
    if base.players != (2,):
        raise SpecError("--ladder plays agents head to head: it needs two-player games "
                        "(--players 2)")
    return [replace(base, agents=(a, b), duplicate=True, by_deal=True)
            for a, b in combinations(names, 2)]


def pair_key(spec: RunSpec) -> str:
    return " vs ".join(spec.agents)


def score_of(tally: Tally, agent: str) -> float:
    """``agent``'s score at a two-player table: wins, a shared win or a draw counting 1/2."""
    return tally.agent_wins[agent] - tally.shared / 2 + tally.draws / 2


def on_score(figures: Mapping[str, Any], agent: str, halves: bool) -> Mapping[str, Any] | None:
    """``agent``'s figures over deals on what its pair prints: its wins when no game was drawn
    or shared, else its score (a draw or a shared win half), None for records made before
    scores were kept by deal."""
    duplicate: Mapping[str, Any] = figures["duplicate"]
    found: Mapping[str, Any] | None = (duplicate["agents"][agent] if not halves
                                       else duplicate.get("score", {}).get(agent))
    return found


def design_effect(over: Mapping[str, Any] | None) -> float:
    """The pair's variance over deals over the binomial variance (its interval's width ratio,
    squared); 1 when there is no width to compare."""
    ratio = None if over is None else over["width_ratio"]
    return 1.0 if ratio is None else ratio * ratio


def fit(names: Sequence[str], pairs: Sequence[tuple[int, int, float, float, float]]
        ) -> tuple[list[float], list[list[float]]]:
    """Bradley-Terry log-strengths (the first 0) and their covariance from ``pairs`` of
    (i, j, i's score, games, design effect)."""
    import numpy as np

    k = len(names)
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    eff = np.zeros((k, k))
    for i, j, score, n, effect in pairs:
        wins[i, j] += score + PRIOR_GAMES / 2
        wins[j, i] += n - score + PRIOR_GAMES / 2
        games[i, j] = games[j, i] = n + PRIOR_GAMES
        eff[i, j] = eff[j, i] = (n + PRIOR_GAMES) / max(effect, MIN_EFFECT)
    total = wins.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(100_000):
        denominator = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = total / denominator
        new /= new[0]
        done = np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-12
        gamma = new
        if done:
            break
    theta = np.log(gamma)
    p = gamma[:, None] / (gamma[:, None] + gamma[None, :])
    weight = eff * p * p.T
    info = np.diag(weight.sum(axis=1)) - weight
    cov = np.zeros((k, k))
    cov[1:, 1:] = np.linalg.inv(info[1:, 1:])  # the first agent is the fixed origin
    return [float(t) for t in theta], [[float(c) for c in row] for row in cov]


def resampled(names: Sequence[str], matches: Sequence[tuple[str, str]],
              tallies: Sequence[Tally], resamples: int = RESAMPLES) -> Any:
    """Bradley-Terry log-strengths (first agent 0) refitted on ``resamples`` resamples of the
    deals, one row each (see JOINT_METHOD); None when a pair's records do not say which deal
    each of its games was played on."""
    import random

    import numpy as np

    if not tallies or any(not t.deal_scores for t in tallies):
        return None
    deals = sorted({d for t in tallies for d in t.deal_scores})
    column = {d: c for c, d in enumerate(deals)}
    half = np.zeros((len(matches), len(deals)))  # the pair's first agent's half points
    games = np.zeros((len(matches), len(deals)))
    for p, ((a, _), tally) in enumerate(zip(matches, tallies, strict=True)):
        for d, by_agent in tally.deal_scores.items():
            half[p, column[d]], games[p, column[d]] = by_agent[a]
    # Python's generator, whose random() is the same in every version: the same resamples.
    rng = random.Random(RESAMPLE_SEED)
    n = len(deals)
    counts = np.zeros((resamples, n))
    for row in counts:
        for _ in range(n):
            row[int(rng.random() * n)] += 1
    scores, played = counts @ half.T / 2, counts @ games.T  # (resamples, pairs)
    k = len(names)
    wins = np.full((resamples, k, k), 0.0)
    total = np.zeros((resamples, k, k))
    for p, (a, b) in enumerate(matches):
        i, j = names.index(a), names.index(b)
        wins[:, i, j] += scores[:, p] + PRIOR_GAMES / 2
        wins[:, j, i] += played[:, p] - scores[:, p] + PRIOR_GAMES / 2
        total[:, i, j] = total[:, j, i] = played[:, p] + PRIOR_GAMES
    return _newton(wins, total)


def _newton(wins: Any, games: Any) -> Any:
    """The Bradley-Terry maximum-likelihood log-strengths of each row (the first 0), by
    Newton's method on the concave log-likelihood, all rows at once."""
    import numpy as np

    rows, k = wins.shape[0], wins.shape[1]
    theta = np.zeros((rows, k))
    for _ in range(100):
        p = 1 / (1 + np.exp(theta[:, None, :] - theta[:, :, None]))  # p[i, j]: i beats j
        grad = (wins - games * p).sum(axis=2)[:, 1:]
        weight = games * p * (1 - p)
        hess = weight.copy()
        hess[:, range(k), range(k)] = -weight.sum(axis=2)
        step = np.linalg.solve(hess[:, 1:, 1:], grad[:, :, None])[:, :, 0]
        theta[:, 1:] -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return theta


def _percentiles(values: Any) -> list[float]:
    import numpy as np

    low, high = np.percentile(values, [2.5, 97.5])
    return [_r(float(low)), _r(float(high))]


def figures(names: Sequence[str], matches: Sequence[tuple[str, str]], variant: str,
            tallies: Sequence[Tally], seconds_per_turn: float, planned: int | None = None
            ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ladder's figures and each pair's table figures (``planned``: an --adaptive
    ladder's games a pair, so the pairs stopped before them are named)."""
    tables: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []
    fitted: list[tuple[int, int, float, float, float]] = []
    for (a, b), tally in zip(matches, tallies, strict=True):
        table = table_figures(tally, (a, b), seconds_per_turn)
        tables.append({"key": f"{a} vs {b}", "players": 2, "variant": variant,
                       **table, **first_game(tally)})
        n = table["finished"]
        score = score_of(tally, a)
        # over deals on the printed score: wins alone when nothing was drawn or shared
        halves = bool(tally.draws + tally.shared)
        over = on_score(table, a, halves)
        effect = design_effect(over)
        over_deals = None if over is None else over["ci"]
        # A pair --adaptive stopped early was looked at after every round: a fixed-sample
        # test's p-value is too small there, its confidence sequence's holds (levels_method).
        early = planned is not None and table["games"] < planned
        p = (anytime_p(deal_scores(tally, a)) if early
             else _p_even(tally, a, score, n, halves))
        pairs.append({"agents": [a, b], **rate(_r(score), n),
                      "deal_ci": over_deals, "design_effect": _r(effect), "p": _r(p),
                      **({"cs": _cs(tally, a)} if planned is not None else {})})
        fitted.append((names.index(a), names.index(b), score, n, effect))
    for pair, adjusted in zip(pairs, holm([pair["p"] for pair in pairs]), strict=True):
        pair["p_holm"] = _r(adjusted)
    theta, cov = fit(names, fitted)
    ranked = sorted(range(len(names)), key=lambda i: (-theta[i], i))
    top, bottom = ranked[0], ranked[-1]
    spread = theta[top] - theta[bottom]
    boot = resampled(names, matches, tallies)
    if boot is None:  # records without deal numbers: the Fisher intervals (LADDER_METHOD)
        elo = {name: {"elo": _r(ELO * t), "ci": _elo_ci(ELO * t, cov[i][i])}
               for i, (name, t) in enumerate(zip(names, theta, strict=True))}
        spread_var = cov[top][top] + cov[bottom][bottom] - 2 * cov[top][bottom]
        spread_ci = _elo_ci(ELO * spread, spread_var)
        joint: dict[str, Any] = {}
    else:
        elo = {name: {"elo": _r(ELO * t), "ci": _percentiles(ELO * boot[:, i])}
               for i, (name, t) in enumerate(zip(names, theta, strict=True))}
        spread_ci = _percentiles(ELO * (boot[:, top] - boot[:, bottom]))
        differences = []
        for a, b in matches:  # each pair's difference, the stronger first
            i, j = sorted((names.index(a), names.index(b)), key=lambda x: (-theta[x], x))
            differences.append({"agents": [names[i], names[j]],
                                "elo": _r(ELO * (theta[i] - theta[j])),
                                "ci": _percentiles(ELO * (boot[:, i] - boot[:, j]))})
        joint = {"differences": differences,
                 "resampled": {"deals": len({d for t in tallies for d in t.deal_scores}),
                               "resamples": RESAMPLES}}
    return {
        "agents": list(names),
        "pairs": pairs,
        "elo": elo,
        "ranking": [names[i] for i in ranked],
        "spread": {"from": names[bottom], "to": names[top], "elo": _r(ELO * spread),
                   "ci": spread_ci},
        **joint,
        "levels": _levels([names[i] for i in ranked], pairs),
        # --adaptive: pairs stopped once decided, whose fixed-sample intervals are too narrow
        **({"stopped_early": [p["agents"] for p, t in zip(pairs, tables, strict=True)
                              if t["games"] < planned]} if planned is not None else {}),
    }, tables


def _cs(tally: Tally, agent: str) -> list[float] | None:
    """An adaptive pair's always-valid interval on ``agent``'s score (ADAPTIVE_CS)."""

    found = confidence_sequence(deal_scores(tally, agent))
    return None if found is None else [_r(found[0]), _r(found[1])]


def _elo_ci(value: float, variance: float) -> list[float]:
    half = Z95 * ELO * math.sqrt(max(variance, 0.0))
    return [_r(value - half), _r(value + half)]


def _p_even(tally: Tally, agent: str, score: float, n: int, halves: bool) -> float:
    """The two-sided p-value of an even score for ``agent``'s pair (LADDER_METHOD's levels):
    over its deals' scores (in half points when a game was drawn or shared) where the records
    keep them, else over its games."""

    if n == 0:
        return 1.0
    units = tally.deal_units.get(f"score:{agent}") if halves else tally.agent_units.get(agent)
    per_game = 2 if halves else 1
    deals = sum(units.values()) if units else 0
    if units and deals >= MIN_DEALS:
        share = score / n
        keys = sorted(units)
        spread = math.fsum(units[k] * (k[0] - share * k[1]) ** 2 for k in keys)
        se = math.sqrt(deals / (deals - 1) * spread) / (per_game * n)
        if se == 0:
            return 1.0 if share == 0.5 else 0.0
        return t_two_sided((share - 0.5) / se, deals - 1)
    z = (score - n / 2) / math.sqrt(n / 4)
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    adjusted = [1.0] * len(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def _levels(ranked: Sequence[str], pairs: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """Agents grouped into levels the games tell apart (see LADDER_METHOD)."""
    def apart(a: str, b: str) -> bool:
        return any(set(pair["agents"]) == {a, b} and pair["p_holm"] < 0.05 for pair in pairs)

    levels: list[list[str]] = []
    for name in ranked:
        if levels and not all(apart(other, name) for other in levels[-1]):
            levels[-1].append(name)
        else:
            levels.append([name])
    return levels


def first_game(tally: Tally) -> dict[str, Any]:
    """The digest of a table's first game alone: a playtest report's check plays only that
    one again (a search's games are slow), where an ordinary run's checks its first few."""
    return {"first_game": sample_digest({0: tally.sample[0]})} if 0 in tally.sample else {}


def command(spec: RunSpec) -> str:
    """The command that makes a ladder's summary again (its agents as --ladder)."""
    agents = ",".join(spec.agents)
    return spec.command().replace(f"--agent {shlex.quote(agents)}",
                                  f"--ladder {shlex.quote(agents)}")


def deal_scores(tally: Tally, agent: str) -> dict[float, int]:
    """``agent``'s score in each deal (a win 1, a draw or a shared win 1/2, over the deal's
    finished games), counted."""
    scores: dict[float, int] = {}
    units = tally.deal_units.get(f"score:{agent}")
    if units is None and not tally.draws + tally.shared:
        units = tally.agent_units.get(agent)  # recorded before scores by deal: wins are all
    for (count, of), n in (units or {}).items():
        if of:
            score = count / of  # half points over twice the games, or wins over games
            scores[score] = scores.get(score, 0) + n
    return scores


def decided(agent: str, alpha: float) -> Callable[[list[Tally]], bool]:
    """A StopRule's test for one pair: ``agent``'s score is told from 1/2 by its confidence
    sequence at level ``alpha``, after MIN_STOP_DEALS deals or more."""

    def enough(totals: Sequence[Tally]) -> bool:
        (tally,) = totals
        scores = deal_scores(tally, agent)
        return sum(scores.values()) >= MIN_STOP_DEALS and rejects(scores, 0.5, alpha)

    return enough


def seat_spec(base: RunSpec, strongest: str) -> RunSpec:
    return replace(base, agents=(strongest,), duplicate=False)


def until_enough(half_width: float) -> Callable[[list[Tally]], bool]:
    """A StopRule's test: every table's first-player interval is at most ``half_width`` wide
    on each side."""
    def enough(totals: Sequence[Tally]) -> bool:
        for tally in totals:
            n = sum(tally.first.values())
            if n == 0:
                return False
            low, high = wilson(tally.order_wins[0], n)
            if (high - low) / 2 > half_width:
                return False
        return True

    return enough


def seat_balance(tally: Tally, strongest: str, half_width: float | None) -> dict[str, Any]:
    first = sum(tally.first.values())
    out: dict[str, Any] = {"agent": strongest, "games": tally.games,
           "first_player": rate(tally.order_wins[0], first),
           "seats": seat_shares(tally)}
    if half_width is not None:
        ci = out["first_player"]["ci"]
        out["until"] = _r(half_width)
        out["reached"] = ci is not None and (ci[1] - ci[0]) / 2 <= half_width
    return out


LADDER_SENTENCE = N_(
    "{top} beats {bottom}, scoring {rate} [{low}, {high}] (a win 1, a draw or a shared win "
    "half), {elo} Elo [{elo_low}, {elo_high}]; levels of play the games tell apart: {levels}")
# When the pair's interval holds an even score: the words may claim no more than it shows.
LADDER_EVEN = N_(
    "no difference shown between {top} and {bottom}: the former scores {rate} [{low}, {high}] "
    "(a win 1, a draw or a shared win half), {elo} Elo [{elo_low}, {elo_high}]; levels of play "
    "the games tell apart: {levels}")
# A ladder recorded before its records numbered the deals keeps the Fisher intervals.
FISHER_SENTENCE = N_("{ladder} (Elo intervals from the Fisher information, as if the pairs had "
                     "not played the same deals: these records do not say which deal is which)")
EARLY_SENTENCE = N_("{ladder}; stopped early once decided, so their scores are pushed away "
                    "from an even one, though their intervals hold however early they "
                    "stopped: {pairs}")
SEAT_SENTENCE = N_("{ladder}; with {agent} in both seats the first player wins {rate} "
                   "[{low}, {high}] of {games} games")


def sentence(ladder: Mapping[str, Any]) -> str:
    """The ladder in plain words, for the report and the command's last line."""
    top, bottom = ladder["spread"]["to"], ladder["spread"]["from"]
    pair = next(p for p in ladder["pairs"] if set(p["agents"]) == {top, bottom})
    # The interval it says "beats" by, and prints: an adaptive pair's always-valid one (it was
    # looked at after every round), else the one over deals on its score, else Wilson's
    # (records made before scores were kept by deal).
    p, ci = pair["rate"], pair.get("cs") or pair.get("deal_ci") or pair["ci"]
    if pair["agents"][0] != top and p is not None:
        p, ci = 1 - p, [1 - ci[1], 1 - ci[0]]
    spread = ladder["spread"]
    beats = ci is not None and ci[0] > 0.5
    # Written from the theme's words, so a translated book's report says it in its language.
    text = (LADDER_SENTENCE if beats else LADDER_EVEN).format(
        top=top, bottom=bottom, rate=_pct(p), low=_pct(ci[0], ""), high=_pct(ci[1], ""),
        elo=f"{spread['elo']:.0f}", elo_low=f"{spread['ci'][0]:.0f}",
        elo_high=f"{spread['ci'][1]:.0f}", levels=len(ladder["levels"]))
    if "differences" not in ladder:
        text = FISHER_SENTENCE.format(ladder=text)
    early = ladder.get("stopped_early")
    if early:
        text = EARLY_SENTENCE.format(ladder=text, pairs=", ".join(" vs ".join(p) for p in early))
    seat = ladder.get("seat_balance")
    if seat:
        fp = seat["first_player"]
        text = SEAT_SENTENCE.format(ladder=text, agent=seat["agent"], rate=_pct(fp["rate"]),
                                    low=_pct(fp["ci"][0], ""), high=_pct(fp["ci"][1], ""),
                                    games=f"{fp['of']:,}")
    return text


def _pct(x: float | None, sign: str = "%") -> str:
    return "n/a" if x is None else f"{100 * x:.1f}{sign}"


def parse_until(text: str | None) -> float | None:
    """``--until ±1%`` (or ``1%``, ``+-0.5%``) -> 0.01."""
    if text is None:
        return None
    shown = text.strip().removeprefix("±").removeprefix("+-").strip()
    try:
        value = float(shown.removesuffix("%")) / 100 if shown.endswith("%") else float(shown)
    except ValueError:
        raise SpecError(f"--until {text}: write the interval's half width, e.g. ±1%") from None
    if not 0 < value < 0.5:
        raise SpecError(f"--until {text}: give a half width above 0% and below 50%")
    return value


def ladder_options(options: Options) -> Options:
    """The options a ladder's plan is checked with: its agents, played duplicate."""
    if options.agents is not None or options.duplicate:
        raise RulepressError.at(None, "--ladder names the agents and plays them duplicate: "
                                      "leave out --agent and --duplicate")
    return replace(options, agents=options.ladder, ladder=None, adaptive=False)


def ladder_files(chosen: Plan, game: str, *, adaptive: bool = False, jobs: int = 0,
                 scheduler: str | None = None, reporter: Reporter | None = None
                 ) -> tuple[dict[str, str], str]:
    """The ladder of the checked plan ``chosen`` (``adaptive``: --adaptive): its files
    (summary.json, ladder.svg) and what to tell the user of it."""
    chosen = replace(chosen, spec=replace(chosen.spec, adaptive=adaptive))
    names = chosen.spec.agents
    try:
        specs = pair_specs(replace(chosen.spec, until=None), names)
    except SpecError as exc:
        raise RulepressError.at(None, str(exc)) from None
    half = chosen.spec.until
    total = sum(s.plays(2) for s in specs) + chosen.spec.games
    start = time.perf_counter()

    try:  # one pool (or cluster connection) for every run of the ladder
        with players(jobs, scheduler) as played, game_steps(reporter, game, total) as progress:
            if chosen.spec.adaptive:  # one pair at a time, each stopping on its own
                alpha = chosen.spec.stop_alpha()
                results = [played([s], progress, StopRule(decided(s.agents[0], alpha)))[0]
                           for s in specs]
            else:
                results = played(specs, progress, None)
            ladder, tables = figures(names, [(s.agents[0], s.agents[1]) for s in specs],
                                     chosen.spec.variants[0], [r[0] for r in results],
                                     chosen.spec.seconds_per_turn,
                                     specs[0].plays(2) if chosen.spec.adaptive else None)
            seats = seat_spec(chosen.spec, ladder["ranking"][0])
            stop = StopRule(until_enough(half)) if half is not None else None
            (seat_tally,) = played([seats], progress, stop)[0]
    except SchedulerError as exc:
        raise RulepressError.at(None, str(exc)) from None
    except SimulationFailure as exc:
        raise RulepressError([error(exc.loc, str(exc))], ExitStatus.BAD_INPUT
                             if exc.bad_input else ExitStatus.CHECK_FAILED) from None
    seconds = time.perf_counter() - start
    ladder["seat_balance"] = seat_balance(seat_tally, seats.agents[0], half)
    ladder["sentence"] = sentence(ladder)
    spec = chosen.spec
    summary: dict[str, Any] = sealed({
        "format": FORMAT,
        "command": command(spec),
        "game": spec.game,
        "title": chosen.title,
        "engine": spec.engine,
        "run": {**spec.figures(), "ladder": True},
        "agents": chosen.agents,
        "method": method(spec.adaptive, "differences" in ladder,
                         ladder.get("stopped_early", ()), spec.stop_alpha()),
        "ladder": ladder,
        "tables": [*tables, {"key": f"{seats.agents[0]} in every seat", "players": 2,
                             "variant": spec.variants[0],
                             **table_figures(seat_tally, seats.agents, spec.seconds_per_turn),
                             **first_game(seat_tally)}],
    })

    files = {"summary.json": dumps(summary) + "\n", "ladder.svg": ladder_svg(summary)}
    games = sum(t["games"] for t in summary["tables"])
    where = f"on {scheduler}" if scheduler else f"on {jobs or os.cpu_count() or 1} processes"
    return files, (f"played {games} games of {game} in {seconds:.1f} s {where}: "
                   f"{ladder['sentence']}")


def levels_method(early: Sequence[Sequence[str]]) -> str:
    """LADDER_METHOD's levels for an adaptive ladder, naming the pairs it stopped early
    (``early``), whose p-values are their confidence sequences' (stats.anytime_p)."""
    named = ", ".join(" vs ".join(pair) for pair in early) or "none stopped early"
    return (LEVELS_TEST + "; a pair --adaptive stopped early instead takes the always-valid "
            "p-value of its confidence sequence (cs): 1 / the capital of its bets against an "
            "even score, the smallest alpha at which the sequence excludes 1/2, a p-value at "
            "whatever round it stopped where a fixed-sample test's is too small (here: "
            f"{named})" + LEVELS_HOLM)


def method(adaptive: bool, joint: bool, early: Sequence[Sequence[str]] = (),
           stop_alpha: float | None = None) -> dict[str, str]:
    """The methods of a ladder's figures (``joint``: its records number the deals, as this
    version's runs do; ``early``: the pairs an adaptive ladder stopped early; ``stop_alpha``:
    the level it stopped them at, None for a ladder recorded before it said)."""
    if not adaptive:
        stopping: dict[str, str] = {}
    elif not joint:
        stopping = ADAPTIVE_WILSON
    else:
        stopping = {"adaptive": adaptive_rule(stop_alpha), **ADAPTIVE_CS}
    levels = {"levels": levels_method(early)} if adaptive else {}
    return {**METHOD, **DUPLICATE_METHOD, **LADDER_METHOD, **(JOINT_METHOD if joint else {}),
            **stopping, **levels}


def derived(summary: Mapping[str, Any], kinds: Mapping[str, str]) -> dict[str, Any]:
    """A ladder summary's figures (method, ladder, tables) computed again from its records."""
    run = summary["run"]
    stored = summary["tables"]
    matches = [(t["agents"][0], t["agents"][1]) for t in
               (p for p in summary["ladder"]["pairs"])]
    tallies = [tally_of(t, kinds) for t in stored[:-1]]
    spt = float(run["seconds_per_turn"])
    ladder, tables = figures(run["agents"], matches, run["variants"][0], tallies, spt,
                             2 * int(run["games"]) if run.get("adaptive") else None)
    for made, kept in zip(tables, stored, strict=False):
        made["sample"] = kept["sample"]  # records: the replayed games' digests
        made.update({"first_game": kept["first_game"]} if "first_game" in kept else {})
    seats = stored[-1]
    top = ladder["ranking"][0]
    seat_table = {"key": f"{top} in every seat", "players": 2, "variant": run["variants"][0],
                  **table_figures(tally_of(seats, kinds), (top,), spt),
                  "sample": seats["sample"],
                  **({"first_game": seats["first_game"]} if "first_game" in seats else {})}
    until = run.get("until")
    ladder["seat_balance"] = seat_balance(tally_of(seats, kinds), top,
                                          None if until is None else float(until))
    ladder["sentence"] = sentence(ladder)
    return {"method": method(bool(run.get("adaptive")), "differences" in ladder,
                             ladder.get("stopped_early", ()), run.get("stop_alpha")),
            "ladder": ladder,
            "tables": [*tables, seat_table]}
