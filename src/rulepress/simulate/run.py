"""A simulation run from start to end: check the options against the game, play, summarize,
draw, write. Everything is checked before the first game is played, and nothing is written
until every game is done."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulepress import memo
from rulepress.cache import digest
from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.document.model import Document
from rulepress.document.reader import read_sources
from rulepress.games import UnknownEngine, contract
from rulepress.games.base import GameEngine, Rules, handicap_of, standing_of
from rulepress.games.contract import defined_at
from rulepress.games.fault import blamed
from rulepress.host import one
from rulepress.simulate.execute import GamesDone, StopRule, players
from rulepress.simulate.ladder import parse_until, until_enough
from rulepress.simulate.play import engine_of
from rulepress.simulate.plots import plots
from rulepress.simulate.records import sealed
from rulepress.simulate.search import is_search_name
from rulepress.simulate.spec import (
    CAPPED,
    MAX_SECONDS_PER_TURN,
    RunSpec,
    SpecError,
    agent_line,
    check_duplicate,
    parse_agents,
    parse_names,
    parse_players,
)
from rulepress.simulate.stats import DUPLICATE_METHOD, METHOD, Tally, table_figures
from rulepress.simulate.summary import FORMAT, SUMMARY, Options, Plan, Posed, dumps
from rulepress.workers import WorkerStopped, can_fork, in_unit, in_worker, tick, unit

SIMULATION_UNIT = "simulation"  # the manifest's unit listing a run's files


def plan(game: str, sources: Path, project: Path | None, options: Options) -> Plan:
    """The run ``options`` ask for on ``game`` (a folder of ``sources``); RulepressError (bad
    input) for anything the game cannot take."""
    (doc,) = read_sources(sources, [game])
    return plan_of(doc, project, options)


def plan_of(doc: Document, project: Path | None, options: Options) -> Plan:
    """As :func:`plan`, for the game read."""
    if not doc.meta.engine:
        raise RulepressError.at(SourceLoc(doc.path, 1), f"{doc.slug} names no engine in its "
                                "front matter (engine:), so there is nothing to simulate")
    return plan_for(doc.slug, doc.meta.title, doc.meta.engine, doc.meta.engine_loc, project,
                    options)


def plan_for(game: str, title: str, engine_spec: str, engine_loc: SourceLoc | None,
             project: Path | None, options: Options) -> Plan:
    """As :func:`plan`, for a game already read (its folder name, title and engine)."""
    spec = RunSpec(game, engine_spec, project, options.games, (), (), ())
    try:
        engine = engine_of(spec)
    except UnknownEngine as exc:
        raise RulepressError.at(engine_loc, str(exc)) from None
    if can_fork() and not in_worker():
        # A set-up that passed in a worker passes again with the same engine, game and
        # options (engines are pure): serve's rebuilds, checking four playtest reports each
        # save, keep that in the memo and set up here instead of forking four workers.
        key = None if engine_loc is None else memo.engine_key(
            engine_loc.path.parent, engine_loc.path, engine_spec, project,
            digest("set-up trial", repr(options), title))
        if memo.get(key) is not True:
            done = _set_up_in_worker(spec, engine, options, title)
            if isinstance(done, tuple):
                loc, how = done
                raise RulepressError.at(loc or engine_loc, f"the {engine.name} engine {how} "
                                                           f"while setting up {game}")
            memo.put(key, True)
            if isinstance(done, RulepressError):
                raise done
            return done
    # In a worker (a playtest report's in check's) the set-up is within the budget too.
    with unit(0) if in_worker() and not in_unit() else nullcontext():
        done = _set_up(spec, engine, options, title)
    if isinstance(done, RulepressError):
        raise done
    return done


def _set_up(spec: RunSpec, engine: GameEngine, options: Options, title: str,
            memory_stops: bool = False) -> Plan | RulepressError:
    """The checked run, or the error that stops it: bad options, or the engine's own error
    at its line. ``memory_stops``: a MemoryError is raised (in the host's worker, past its
    memory budget: a stop, said as one)."""
    try:
        return _setup(spec, engine, options, title)
    except SpecError as exc:
        return RulepressError.at(None, str(exc))
    except RulepressError as exc:
        return exc
    except BaseException as exc:  # noqa: BLE001 - the engine's own error (an exit too)
        if memory_stops and isinstance(exc, MemoryError):
            raise
        loc, raised = blamed(exc)  # a stop signal or rulepress's own error: raised again
        return RulepressError.at(loc, f"the {engine.name} engine raised {raised} while "
                                      f"setting up {spec.game}")


def _setup(spec: RunSpec, engine: GameEngine, options: Options, title: str) -> Plan:
    spec = _checked(spec, engine, options, title)
    _at(getattr(engine, "agents", None), engine)
    lines = {n: agent_line(engine, n) for n in dict.fromkeys(spec.agents)}
    _at(getattr(engine, "questions", None), engine)
    return Plan(spec, title, lines,
                tuple(Posed(q.name, q.text, q.kind) for q in contract.questions(engine)))


_trail: int | None = None  # in a trial's worker: the pipe it names each step's def line on
_said: list[SourceLoc] = []  # the last it named


def _at(*where: object) -> None:
    """The set-up's next call on the engine (``where``: the method, else its owner): its
    budget starts afresh, and a trial's worker says which def line it is in."""
    tick()
    if _trail is not None:
        loc = defined_at(*where)
        if loc is not None and loc not in _said[-1:]:  # once a line: the pipe never fills
            _said.append(loc)
            os.write(_trail, f"{loc.path}\0{loc.line}\0{loc.col}\0".encode())


def _set_up_in_worker(spec: RunSpec, engine: GameEngine, options: Options, title: str
                      ) -> Plan | RulepressError | tuple[SourceLoc | None, str]:
    """The set-up (:func:`_set_up`) in a worker of the engine host: its plan or its error; if
    it ends or hangs the worker's process (os._exit, a crash, a loop, its memory), how, with
    the def line it was in."""
    read, write = os.pipe()

    def set_up(_: None) -> Plan | RulepressError:
        global _trail
        _trail = write
        with unit(0):
            return _set_up(spec, engine, options, title, memory_stops=True)

    try:
        done = one(set_up, None)
    finally:
        os.close(write)
        said = _drained(read)
    if not isinstance(done, WorkerStopped):
        return done
    fields = said.split(b"\0")  # path, line, col, path, line, col, ..., b""
    loc = None
    if len(fields) >= 4:  # each written whole (a write of a few bytes to a pipe is)
        path, line, col = fields[-4:-1]
        loc = SourceLoc(Path(os.fsdecode(path)), int(line), int(col))
    return loc, done.how


def _drained(fd: int) -> bytes:
    """What is in the pipe ``fd`` (its writers gone or not), which is closed."""
    os.set_blocking(fd, False)
    chunks = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except BlockingIOError:
        pass
    finally:
        os.close(fd)
    return b"".join(chunks)


def _checked(spec: RunSpec, engine: GameEngine, options: Options, title: str) -> RunSpec:
    _at(getattr(engine, "rules", None), engine)
    rules = contract.rules(engine, check=options.check)
    if rules is None:
        raise SpecError(f"the {engine.name} engine has no rules (rules()), so it cannot play")
    if options.games < 1:
        raise SpecError(f"--games {options.games}: play at least one game")
    if options.max_turns < 1:
        raise SpecError(f"--max-turns {options.max_turns}: allow at least one turn")
    if not 0 < options.seconds_per_turn <= MAX_SECONDS_PER_TURN:  # inf, nan: plots of nothing
        raise SpecError(f"--seconds-per-turn {options.seconds_per_turn:g}: give a time above 0 "
                        f"and at most {MAX_SECONDS_PER_TURN:,} (a day)")
    _at(rules.variants, rules)
    variants = contract.variants(engine, rules)
    players = parse_players(options.players, rules, title)
    _at(getattr(engine, "agents", None), engine)
    spec = RunSpec(
        spec.game, spec.engine, spec.project, options.games,
        players,
        parse_names(options.variants, variants, "variant", "--variant", variants[0]),
        parse_agents(options.agents, engine, rules),
        options.seed, options.max_turns, options.seconds_per_turn, options.check,
        options.duplicate,
    )
    if options.adaptive:
        raise SpecError("--adaptive stops a ladder's decided pairs early: use it with --ladder")
    if options.until is not None:
        spec = replace(spec, until=parse_until(options.until))
    if options.tension:
        _at(rules.new_game, rules)
        if standing_of(rules.new_game(spec.players[0], 0, spec.variants[0])) is None:
            raise SpecError(f"--tension follows running scores, and the {engine.name} engine "
                            "keeps none (a state's standing())")
        spec = replace(spec, tension=True)
    if options.handicap is not None or options.compensate:
        spec = replace(spec, handicap=_handicap(rules, options, engine.name))
    if spec.duplicate:
        check_duplicate(spec.agents, spec.players)
    for table in spec.tables:
        _at(rules.new_game, rules)
        try:  # the engine may refuse a combination (a variant for some player counts only)
            state = rules.new_game(table.players, 0, table.variant)
        except ValueError as exc:
            raise SpecError(f"{spec.game} cannot be set up for {table.players} players, "
                            f"{table.variant}: {exc}") from None
        started = contract.started(engine, rules, state)
        if any(map(is_search_name, spec.agents)):
            contract.hidden(engine, rules, started)
    return spec


def _handicap(rules: Rules, options: Options, engine: str) -> int | None:
    offered = handicap_of(rules)
    if offered is None:
        what = "--compensate" if options.compensate else f"--handicap {options.handicap}"
        raise SpecError(f"{what}: the {engine} engine offers no numeric handicap "
                        "(Rules.handicap)")
    bounds = (offered.low, offered.high)
    if (not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
            or offered.low > offered.high):  # inf: a traceback; nan: every value compared false
        what = "--compensate" if options.compensate else f"--handicap {options.handicap}"
        raise SpecError(f"{what}: the {engine} engine's handicap ({offered.text}) must take "
                        f"whole numbers from low to high; it gives low={offered.low!r}, "
                        f"high={offered.high!r}")
    value = options.handicap
    if value is not None and not offered.low <= value <= offered.high:
        raise SpecError(f"--handicap {value}: the handicap ({offered.text}) takes "
                        f"{offered.low} to {offered.high}")
    return value


def narrower(summary: Mapping[str, Any]) -> str:
    """What duplicate play gained, table by table: ``; over deals, 2-standard's intervals are
    1% narrower by agent, 43% by seat``."""
    gains = [f"{t['key']}'s intervals are {n['agents']} narrower by agent, {n['seats']} by seat"
             for t in summary["tables"] if "duplicate" in t
             for n in [t["duplicate"]["narrower"]] if None not in n.values()]
    return f"; over deals, {', '.join(gains)}" if gains else ""


def stalled(summary: Mapping[str, Any]) -> str:
    """Games the turn cap stopped, a possible rules problem: ``; 3 games stopped by the turn
    cap at 2-standard (game 0: loop: move 6 returns to the state after move 0)``."""
    said = [f"{t['ends'][CAPPED]['count']} game{'s' * (t['ends'][CAPPED]['count'] > 1)} "
            f"stopped by the turn cap at {t['key']} (game {t['stalls'][0]['game']}: "
            f"{t['stalls'][0]['found']})" for t in summary["tables"] if t.get("stalls")]
    return f"; {', '.join(said)}" if said else ""


def play(plan: Plan, *, jobs: int = 0, scheduler: str | None = None,
         progress: GamesDone = lambda n: None) -> list[Tally]:
    """Every game of the run, on local processes or the Dask scheduler at ``scheduler``."""
    stop = None
    if plan.spec.until is not None:
        stop = StopRule(until_enough(plan.spec.until))
    with players(jobs, scheduler) as played:
        return played([plan.spec], progress, stop)[0]


def summarize(plan: Plan, tallies: Sequence[Tally]) -> dict[str, Any]:
    """summary.json: every figure, the exact command, and how each figure was computed."""
    spec = plan.spec
    return sealed({
        "format": FORMAT,
        "command": spec.command(),
        "game": spec.game,
        "title": plan.title,
        "engine": spec.engine,
        "run": spec.figures(),
        "agents": plan.agents,
        "questions": {q.name: {"text": q.text, "kind": q.kind} for q in plan.questions},
        "method": {**METHOD, **DUPLICATE_METHOD} if spec.duplicate else METHOD,
        "tables": [
            {"key": t.key, "players": t.players, "variant": t.variant,
             **table_figures(tally, spec.agents, spec.seconds_per_turn)}
            for t, tally in zip(spec.tables, tallies, strict=True)
        ],
    })


def outputs(summary: Mapping[str, Any]) -> dict[str, str]:
    """File name -> text: summary.json and the plots."""
    return {SUMMARY: dumps(summary) + "\n", **plots(summary)}
