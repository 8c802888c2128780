"""Streaming statistics with honest uncertainty.

A :class:`Tally` keeps only counts: games by length, by end, wins by seat and by agent, and
every score, margin and numeric answer counted by value (in bins of 0.01, exact for whole
numbers). Counts add up exactly in any order, so tallies of batches merge into the same total
whichever process played which batch, and memory grows with the number of distinct values, not
with the number of games. Every figure of the summary is computed from these counts at the end:

- rates with the Wilson score interval (95%);
- means with the normal approximation, mean +- 1.96 s / sqrt(n), s the sample standard deviation;
- quantiles by nearest rank on the counted values (exact for whole numbers such as turns).
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulepress.simulate.spec import CAPPED
from rulepress.simulate.tension import CHECKPOINTS

if TYPE_CHECKING:
    from rulepress.simulate.game import Game

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile
SAMPLE = 4  # each table's first games, replayed by every check to spot a stale summary
STALLS = 10  # capped games a batch names (the run keeps the first STALLS by number)
QUANTILES = {"p5": 0.05, "p25": 0.25, "median": 0.5, "p75": 0.75, "p95": 0.95}
BIN = 100  # values are counted in bins of 1/BIN
MIN_DEALS = 10  # an interval over deals needs this many deals (4 gave [100, 100])
METHOD = {
    "rates": "Wilson score interval, 95%",
    "means": "normal approximation, mean +- 1.96 s / sqrt(n), s the sample standard deviation",
    "quantiles": "nearest rank over values counted in bins of 0.01 (exact for whole numbers)",
    "outcomes": "a finished game has one winner, a shared win (several seats win; each of "
                "them has a win), or no winner (a draw: no seat wins); a capped game is "
                "unfinished and counts in no win rate; 'decided' games are those with a winner",
    "wins": "an agent's, or the first player's, win rate: its wins over its finished games "
            "(the first player's: over the games with a first player; a draw is no win); a "
            "seat's, or the k-th to act's, share: its wins over all wins at the table (by "
            "seat, or by place in turn order), so the shares sum to 100% (the decided games "
            "when no win is shared) and an even share is 1 / players",
    "seeds": "game i is set up from sha256('seed:i:deal') and played from sha256('seed:i:play')",
    "lineup": "seat s of game i is played by agents[(i + s) mod len(agents)]",
}
DUPLICATE_METHOD = {
    "seeds": "deal d is set up from sha256('seed:d:deal'), its chance outcomes drawn from "
             "sha256('seed:d:chance') (one draw a chance node), the agent at seat s draws from "
             "sha256('seed:d:agent s')",
    "lineup": "game i is rotation r = i mod P of deal d = i div P (P players): seat s is played "
              "by agents[(d + (s + r) mod P) mod len(agents)]",
    "duplicate": "each deal is one unit: an agent's (or seat's) wins w_d of its finished "
                 "games g_d in the deal; rate = W / G over all deals, ci = rate +- t sqrt(n / "
                 "(n - 1) * sum (w_d - rate g_d)^2) / G, t Student's 97.5th percentile on n - 1 "
                 "degrees of freedom (n deals; s / sqrt(n) of the deals' shares when every "
                 f"deal has as many games), printed from {MIN_DEALS} deals on (none below); "
                 "ordinary_ci = Wilson over the games as if independent; width_ratio = ci's "
                 "width / ordinary_ci's",
    "score": "an agent's score over deals: w_d its half points in deal d (a win 2, a draw or "
             "a shared win 1) of g_d = twice its finished games there, the interval as for "
             "duplicate; its ordinary_ci Wilson over the games, a draw or a shared win "
             "counting half a game",
}


def bin_value(x: float) -> float:
    """``x`` in its counting bin; a whole number stays an int (so JSON shows ``7``, not ``7.0``)."""
    v = round(float(x) * BIN) / BIN
    return int(v) if v.is_integer() else v


@dataclass
class Tally:
    """The counts of some games at one table."""

    players: int
    kinds: dict[str, str]  # question name -> "rate" or "mean"
    games: int = 0
    turns: Counter[float] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)
    seat_wins: Counter[int] = field(default_factory=Counter)
    first: Counter[int] = field(default_factory=Counter)  # finished games by first seat to act
    order_wins: Counter[int] = field(default_factory=Counter)  # wins by place in turn order
    agent_seats: Counter[str] = field(default_factory=Counter)  # seat-games each agent played
    agent_wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    shared: int = 0
    scores: dict[int, Counter[float]] = field(default_factory=dict)  # seat -> scores
    winning: Counter[float] = field(default_factory=Counter)
    margins: Counter[float] = field(default_factory=Counter)
    answers: dict[str, Counter[float]] = field(default_factory=dict)
    sample: dict[int, str] = field(default_factory=dict)
    # duplicate play: each deal one unit, counted by its (wins, games) for each agent and seat
    agent_units: dict[str, Counter[tuple[int, int]]] = field(default_factory=dict)
    seat_units: dict[int, Counter[tuple[int, int]]] = field(default_factory=dict)
    # and every other rate by deal: "first_player", "score:<agent>" (in half points),
    # "end:<reason>" and "question:<name>", each deal's (count, of) where the rate occurs
    deal_units: dict[str, Counter[tuple[int, int]]] = field(default_factory=dict)
    # with keep_deals (a ladder's pairs): deal number -> agent -> (score in half points, its
    # finished games), so deals can be told apart across the pairs that played them
    keep_deals: bool = False
    deal_scores: dict[int, dict[str, tuple[int, int]]] = field(default_factory=dict)
    # capped game -> the seed it was set up from, and the loop it is in, if any
    stalls: dict[int, tuple[int, str]] = field(default_factory=dict)
    # --tension: games by lead changes; by checkpoint, seats behind there and how many won
    lead_changes: Counter[float] = field(default_factory=Counter)
    comebacks: dict[str, Counter[str]] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: int, kinds: Mapping[str, str]) -> Tally:
        return cls(players, dict(kinds), scores={s: Counter() for s in range(players)},
                   answers={name: Counter() for name in kinds})

    def add(self, game: Game) -> None:
        self.games += 1
        self.turns[game.turns] += 1
        self.ends[game.end] += 1
        if game.index < SAMPLE:
            self.sample[game.index] = game.line()
        if not game.scores:
            return  # unfinished: counted by its length and its end only
        for seat in game.winners:
            self.seat_wins[seat] += 1
            self.agent_wins[game.lineup[seat]] += 1
        self.agent_seats.update(game.lineup)
        self.draws += not game.winners
        self.shared += len(game.winners) > 1
        if game.first is not None:
            self.first[game.first] += 1
            self.order_wins.update((seat - game.first) % self.players for seat in game.winners)
        for seat, score in enumerate(game.scores):
            self.scores[seat][bin_value(score)] += 1
        ranked = sorted(game.scores, reverse=True)
        self.winning[bin_value(ranked[0])] += 1
        if len(ranked) > 1:
            self.margins[bin_value(ranked[0] - ranked[1])] += 1
        if game.lead_changes is not None:
            self.lead_changes[game.lead_changes] += 1
            for name, seats in zip(CHECKPOINTS, game.behind, strict=True):
                counts = self.comebacks.setdefault(name, Counter())
                counts["behind"] += len(seats)
                counts["won"] += sum(seat in game.winners for seat in seats)
        for name, answer in game.answers.items():
            if answer is not None:
                rate = self.kinds[name] == "rate"
                self.answers[name][int(bool(answer)) if rate else bin_value(answer)] += 1

    def add_deal(self, games: Sequence[Game]) -> None:
        """One deal's rotations (already added one by one): what each agent and each seat won
        of the deal's finished games, as one unit."""
        wins: Counter[str | int] = Counter()
        plays: Counter[str | int] = Counter()
        for game in games:
            if not game.scores:
                continue  # unfinished: in no win rate
            for seat, name in enumerate(game.lineup):
                plays[name] += 1
                plays[seat] += 1
            for seat in game.winners:
                wins[game.lineup[seat]] += 1
                wins[seat] += 1
        for key, n in plays.items():
            units = (self.agent_units.setdefault(key, Counter()) if isinstance(key, str)
                     else self.seat_units.setdefault(key, Counter()))
            units[wins[key], n] += 1
        counts: Counter[str] = Counter()
        of: Counter[str] = Counter()
        for game in games:
            of["games"] += 1  # every end's rate is over all the deal's games
            counts[f"end:{game.end}"] += 1
            if not game.scores:
                continue
            if game.first is not None:
                of["first_player"] += 1
                counts["first_player"] += game.first in game.winners
            for seat, name in enumerate(game.lineup):  # a win 2, a draw or shared win 1
                of[f"score:{name}"] += 2
                counts[f"score:{name}"] += (0 if game.winners and seat not in game.winners
                                            else 2 if game.winners == (seat,) else 1)
            for name, answer in game.answers.items():
                if answer is not None and self.kinds.get(name) == "rate":
                    of[f"question:{name}"] += 1
                    counts[f"question:{name}"] += bool(answer)
        ends = {key for key in counts if key.startswith("end:")}
        for key in ends | {k for k in of if k != "games"}:
            total = of["games"] if key.startswith("end:") else of[key]
            self.deal_units.setdefault(key, Counter())[counts[key], total] += 1
        if self.keep_deals and games:
            names = dict.fromkeys(name for game in games for name in game.lineup)
            self.deal_scores[games[0].index // len(games)] = {
                name: (counts[f"score:{name}"], of[f"score:{name}"] // 2) for name in names}

    def merge(self, other: Tally) -> None:
        for name, counts in other.agent_units.items():
            self.agent_units.setdefault(name, Counter()).update(counts)
        for seat, counts in other.seat_units.items():
            self.seat_units.setdefault(seat, Counter()).update(counts)
        for key, counts in other.deal_units.items():
            self.deal_units.setdefault(key, Counter()).update(counts)
        self.deal_scores.update(other.deal_scores)
        self.games += other.games
        for mine, theirs in self._counters(other):
            mine.update(theirs)
        self.draws += other.draws
        self.shared += other.shared
        self.sample.update(other.sample)
        self.lead_changes.update(other.lead_changes)
        for name, seen in other.comebacks.items():
            self.comebacks.setdefault(name, Counter()).update(seen)
        merged = {**self.stalls, **other.stalls}
        self.stalls = {i: merged[i] for i in sorted(merged)[:STALLS]}

    def _counters(self, other: Tally) -> Iterable[tuple[Counter[Any], Counter[Any]]]:
        yield from ((self.turns, other.turns), (self.ends, other.ends),
                    (self.seat_wins, other.seat_wins), (self.first, other.first),
                    (self.order_wins, other.order_wins),
                    (self.agent_seats, other.agent_seats), (self.agent_wins, other.agent_wins),
                    (self.winning, other.winning), (self.margins, other.margins))
        yield from ((self.scores[s], other.scores[s]) for s in self.scores)
        yield from ((self.answers[n], other.answers[n]) for n in self.answers)


# --- figures from counts --------------------------------------------------------------------------


def _r(x: float) -> float:
    return round(x, 6)


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``k`` in ``n`` (n > 0)."""
    p = k / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: float, n: int) -> dict[str, Any]:
    """``k`` of ``n`` as a rate with its interval (None when n is 0)."""
    if n == 0:
        return {"count": k, "of": 0, "rate": None, "ci": None}
    low, high = wilson(k, n)
    return {"count": k, "of": n, "rate": _r(k / n), "ci": [_r(low), _r(high)]}


def distribution(counts: Mapping[float, int], *, histogram: bool = True) -> dict[str, Any]:
    """Mean, its interval, spread, quantiles and (optionally) the counts themselves."""
    n = sum(counts.values())
    if n == 0:
        return {"n": 0}
    values = sorted(counts)
    mean = math.fsum(v * counts[v] for v in values) / n
    var = math.fsum(counts[v] * (v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    sd = math.sqrt(var)
    half = Z95 * sd / math.sqrt(n)
    out: dict[str, Any] = {
        "n": n,
        "mean": _r(mean),
        "ci": [_r(mean - half), _r(mean + half)],
        "sd": _r(sd),
        "min": values[0],
        "max": values[-1],
        "quantiles": {name: nearest_rank(values, counts, n, q) for name, q in QUANTILES.items()},
    }
    if histogram:
        out["histogram"] = [[v, counts[v]] for v in values]
    return out


def nearest_rank(values: Sequence[float], counts: Mapping[float, int], n: int, q: float) -> float:
    """The smallest value with at least ``q`` of the ``n`` counted at or below it."""
    rank = max(1, math.ceil(q * n))
    seen = 0
    for v in values:
        seen += counts[v]
        if seen >= rank:
            return v
    return values[-1]


def scaled(dist: Mapping[str, Any], factor: float) -> dict[str, Any]:
    """A distribution's figures times ``factor`` (turns -> minutes), without the counts."""
    if not dist["n"]:
        return {"n": 0}
    return {
        "n": dist["n"],
        "mean": _r(dist["mean"] * factor),
        "ci": [_r(x * factor) for x in dist["ci"]],
        "sd": _r(dist["sd"] * factor),
        "min": _r(dist["min"] * factor),
        "max": _r(dist["max"] * factor),
        "quantiles": {k: _r(v * factor) for k, v in dist["quantiles"].items()},
    }


def table_figures(tally: Tally, agents: Sequence[str], seconds_per_turn: float) -> dict[str, Any]:
    """Every figure of one table, from its tally (``agents`` in the run's order)."""
    finished = tally.games - tally.ends.get(CAPPED, 0)
    turns = distribution(tally.turns)
    all_scores: Counter[float] = Counter()
    for counts in tally.scores.values():
        all_scores.update(counts)
    ends = sorted(tally.ends.items(), key=lambda item: (-item[1], item[0]))
    first_games = sum(tally.first.values())
    return {
        "games": tally.games,
        "finished": finished,
        "turns": turns,
        "minutes": scaled(turns, seconds_per_turn / 60),
        "ends": {reason: rate(count, tally.games) for reason, count in ends},
        "fair_share": _r(1 / tally.players),
        "seats": seat_shares(tally),
        "first_player": {
            **rate(tally.order_wins[0], first_games),
            "seats": {str(s + 1): tally.first[s] for s in sorted(tally.first)},
        },
        "turn_order": turn_order_shares(tally),
        "agents": {name: rate(tally.agent_wins[name], tally.agent_seats[name])
                   for name in dict.fromkeys(agents)},
        "draws": rate(tally.draws, finished),
        "shared_wins": rate(tally.shared, finished),
        "scores": distribution(all_scores),
        "winning_score": distribution(tally.winning),
        "margin": distribution(tally.margins),
        "questions": {name: _answer(tally.kinds[name], tally.answers[name])
                      for name in tally.kinds},
        "sample": sample_digest(tally.sample),
        **({"duplicate": duplicate_figures(tally, agents)} if tally.seat_units else {}),
        **({"by_deal": by_deal(tally)} if tally.deal_scores else {}),
        **({"tension": {
            "lead_changes": distribution(tally.lead_changes),
            "comebacks": {name: rate(tally.comebacks.get(name, Counter())["won"],
                                     tally.comebacks.get(name, Counter())["behind"])
                          for name in CHECKPOINTS},
        }} if tally.lead_changes else {}),
        **({"stalls": [{"game": i, "setup_seed": tally.stalls[i][0],
                        "found": tally.stalls[i][1]} for i in sorted(tally.stalls)]}
           if tally.stalls else {}),
    }


def by_deal(tally: Tally) -> list[list[Any]]:
    """Each deal's result, a record: [deal, agent, score in half points, finished games]."""
    return [[d, name, *tally.deal_scores[d][name]] for d in sorted(tally.deal_scores)
            for name in sorted(tally.deal_scores[d])]


def seat_shares(tally: Tally) -> list[dict[str, Any]]:
    """Each seat's share of the table's wins (see METHOD["wins"]): they sum to 100%."""
    won = sum(tally.seat_wins.values())
    return [{"seat": s + 1, **rate(tally.seat_wins[s], won)} for s in range(tally.players)]


def turn_order_shares(tally: Tally) -> list[dict[str, Any]]:
    """Each place in turn order's share of the wins of the games with a first player (see
    METHOD["wins"]): they sum to 100%, where win rates over the games summed to 107-110% at
    4-6 players of Pigeon Race (a shared win counted for each of its places) against an even
    share of 1 / players."""
    won = sum(tally.order_wins.values())
    return [{"place": k + 1, **rate(tally.order_wins[k], won)} for k in range(tally.players)]


# A confidence sequence for the mean of values in [0, 1] (each deal's score): m is kept
# while the capital of a mixture of bets against it, each bet a fixed fraction of the most
# that can be staked at m, stays below 1 / alpha. A mixture of test martingales is one, so by
# Ville's inequality every m the data reject was rejected wrongly with probability at most
# alpha, at whatever deal the looking stopped (Waudby-Smith and Ramdas 2023's betting,
# with constant bets).
BETS = tuple(k / 10 for k in range(-9, 10) if k)
CS_GRID = 1000  # candidate means 0, 1/1000, ... 1


def _capital(values: Mapping[float, int], m: float) -> float:
    """The log of the mixture's capital against the mean ``m``, after ``values`` (counted)."""
    scale = 1 / max(m, 1 - m)
    logs = [math.fsum(n * math.log1p(bet * scale * (x - m)) for x, n in sorted(values.items()))
            for bet in BETS]
    top = max(logs)
    return top + math.log(math.fsum(math.exp(v - top) for v in logs) / len(BETS))


def rejects(values: Mapping[float, int], m: float, alpha: float = 0.05) -> bool:
    """Whether the confidence sequence after ``values`` excludes the mean ``m``."""
    return _capital(values, m) >= math.log(1 / alpha)


def anytime_p(values: Mapping[float, int], m: float = 0.5) -> float:
    """The always-valid p-value of the mean ``m``: the smallest alpha at which the confidence
    sequence after ``values`` excludes it, 1 / capital (Ville's inequality bounds the capital
    at any stopping time, so it stays a p-value whenever the looking stopped)."""
    return min(1.0, math.exp(-_capital(values, m)))


def confidence_sequence(values: Mapping[float, int], alpha: float = 0.05
                        ) -> tuple[float, float] | None:
    """The always-valid (1 - alpha) interval for the mean of ``values`` in [0, 1] (each
    counted), on a grid of CS_GRID steps; None before any value."""
    if not sum(values.values()):
        return None
    kept = [k / CS_GRID for k in range(CS_GRID + 1) if not rejects(values, k / CS_GRID, alpha)]
    return (kept[0], kept[-1]) if kept else None


def _t_area(t: float, df: int, steps: int = 2000) -> float:
    """Student's t density on ``df`` degrees of freedom integrated from 0 to ``t`` (Simpson)."""
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def density(x: float) -> float:
        return math.exp(log_c - (df + 1) / 2 * math.log1p(x * x / df))

    h = t / steps
    inner = math.fsum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
    return h / 3 * (density(0.0) + inner + density(t))


@functools.cache
def t975(df: int) -> float:
    """Student's t 97.5th percentile on ``df`` degrees of freedom: where the density's area
    from 0 reaches 0.475, found by bisection."""
    low, high = Z95, 100.0
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if _t_area(middle, df) < 0.475 else (low, middle)
    return (low + high) / 2


def t_two_sided(t: float, df: int) -> float:
    """The two-sided p-value of ``t`` on ``df`` degrees of freedom."""
    return max(0.0, min(1.0, 1 - 2 * _t_area(min(abs(t), 1e3), df, 20_000)))


def duplicate_figures(tally: Tally, agents: Sequence[str]) -> dict[str, Any]:
    """Win rates over deals: each deal one unit (the agent's, or seat's, share of the deal's
    games won), with the interval of those units beside the ordinary one, which takes every
    game as independent."""
    finished = tally.games - tally.ends.get(CAPPED, 0)
    by_agent = {name: _paired(tally.agent_units.get(name, Counter()),
                              tally.agent_wins[name], tally.agent_seats[name])
                for name in dict.fromkeys(agents)}
    by_seat = [{"seat": s + 1, **_paired(tally.seat_units.get(s, Counter()),
                                         tally.seat_wins[s], finished)}
               for s in range(tally.players)]
    deals = max((sum(u.values()) for u in tally.seat_units.values()), default=0)
    units = tally.deal_units

    def over_deals(key: str, count: int, of: int, everywhere: int = 0,
                   per_game: int = 1) -> dict[str, Any]:
        seen = units.get(key, Counter())
        # an end absent from a deal is a deal of 0 such games out of its `everywhere`
        missing = deals - sum(seen.values()) if everywhere else 0
        return _paired(seen + Counter({(0, everywhere): missing}) if missing > 0 else seen,
                       count, of, per_game)

    # every other rate of a duplicate table over deals, when the run recorded its units
    others: dict[str, Any] = {}
    if units:
        width = tally.players
        others = {
            "first_player": over_deals("first_player", tally.order_wins[0],
                                       sum(tally.first.values())),
            "score": {name: over_deals(f"score:{name}", sum(k * n for (k, _), n in
                                                          units.get(f"score:{name}",
                                                                    Counter()).items()),
                                       2 * tally.agent_seats[name], per_game=2)
                      for name in dict.fromkeys(agents)},
            "ends": {reason: over_deals(f"end:{reason}", count, tally.games, width)
                     for reason, count in sorted(tally.ends.items(),
                                                 key=lambda item: (-item[1], item[0]))},
            "questions": {name: over_deals(f"question:{name}", tally.answers[name][1],
                                           tally.answers[name][0] + tally.answers[name][1])
                          for name, kind in tally.kinds.items() if kind == "rate"},
        }
    return {
        "deals": deals,
        "rotations": tally.players,
        "narrower": {"agents": _narrower(by_agent.values()), "seats": _narrower(by_seat)},
        "agents": by_agent,
        "seats": by_seat,
        **others,
        # the records these come from: each deal's (wins, games), counted
        "units": {"agents": {name: _units(tally.agent_units.get(name, Counter()))
                             for name in dict.fromkeys(agents)},
                  "seats": [_units(tally.seat_units.get(s, Counter()))
                            for s in range(tally.players)],
                  **({"other": {key: _units(units[key]) for key in sorted(units)}}
                     if units else {})},
    }


def _units(units: Counter[tuple[int, int]]) -> list[list[int]]:
    return [[w, g, units[w, g]] for w, g in sorted(units) if units[w, g]]


def _narrower(figures: Iterable[Mapping[str, Any]]) -> str | None:
    """How much narrower the intervals over deals are than the ordinary ones, on average:
    ``"40%"`` (None when no interval has a width)."""
    ratios = [f["width_ratio"] for f in figures if f["width_ratio"] is not None]
    return f"{(1 - math.fsum(ratios) / len(ratios)) * 100:.0f}%" if ratios else None


def _paired(units: Counter[tuple[int, int]], wins: int, games: int,
            per_game: int = 1) -> dict[str, Any]:
    """A win rate with its interval over deals (each deal one unit: its wins and games) beside
    the ordinary one, and their widths' ratio. The rate is wins / games, as the ordinary one; its
    variance the ratio estimator's, n / (n - 1) * sum (w_d - rate * g_d)^2 / games^2, which is
    s^2 / n of the deals' shares when every deal has as many games. ``per_game``: units counted
    in fractions of a game (a score in half points: 2), so the ordinary interval is over games,
    not over those fractions."""
    n = sum(units.values())
    ordinary = rate(wins / per_game if per_game > 1 else wins, games // per_game)
    if n < MIN_DEALS:
        return {"deals": n, "rate": ordinary["rate"], "ci": None,
                "ordinary_ci": ordinary["ci"], "width_ratio": None}
    mean = wins / games
    keys = sorted(units)  # a fixed order: the same sums whatever order the tallies merged in
    spread = math.fsum(units[k] * (k[0] - mean * k[1]) ** 2 for k in keys)
    half = t975(n - 1) * math.sqrt(n / (n - 1) * spread) / games
    ci = [_r(max(0.0, mean - half)), _r(min(1.0, mean + half))]
    width = ordinary["ci"][1] - ordinary["ci"][0]
    return {"deals": n, "rate": _r(mean), "ci": ci, "ordinary_ci": ordinary["ci"],
            "width_ratio": _r((ci[1] - ci[0]) / width) if width > 0 else None}


def _answer(kind: str, counts: Counter[float]) -> dict[str, Any]:
    if kind == "rate":
        return rate(counts[1], counts[0] + counts[1])
    return distribution(counts)


def sample_digest(lines: Mapping[int, str]) -> dict[str, Any]:
    text = "\n".join(lines[i] for i in sorted(lines))
    return {"games": len(lines), "sha256": hashlib.sha256(text.encode()).hexdigest()}
