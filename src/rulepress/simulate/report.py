"""The playtest report: a ```` ```simulation ```` block of a rulebook's source.

The block names a run (``run:``, the options of ``rulepress simulate``) and the summary that run
wrote into the game's folder (``summary:``), which is committed with the source: a run of
10^5 games takes minutes, so the book reads its figures rather than playing them again. The
check phase makes sure the summary is still that run's: its parameters must be the block's,
and the run's first games at every table are played again and must give the summary's record
of them (a digest of each game's length, end, winners and scores), so a change of the rules or of
an agent that shows in play makes the report stale, an error at its line that gives the
command making it again. The prose then takes its numbers from the summary's figures exactly
as an example's prose takes them from its data (the same rendering and the same no-bare-number
rule), and the plots it names are drawn from the same summary.

Prose sees the summary as written (``run``, ``tables``, ``questions``...), ``table`` (each
table by its key, e.g. ``table["4-standard"]``) and ``games`` (the games at each table, written
out: ``100,000``); a ladder's also ``ladder`` (its ``sentence``, ``seat_balance``, each agent's
``elo[name].shown`` and ``interval``) and ``versus`` (each pair's score from either side,
``versus["ismcts:400"]["greedy"]``); ``name`` gives each of the run's players by its one
name (``name.greedy``), the name its plots and tables show. Every rate also has ``percent``
(``"12.3%"``) and ``interval`` (``"11.9–12.7%"``); every mean has ``shown`` (``"28.6"``) and
``interval``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from rulepress import memo
from rulepress.cache import code_digest, digest, theme_digest
from rulepress.diagnostics import Diagnostic, RulepressError, disproved, error
from rulepress.document.model import Document, Example
from rulepress.games.base import Figure
from rulepress.games.contract import Malformed
from rulepress.jail import read_regular
from rulepress.prose import render_prose
from rulepress.simulate import plots  # called through the module: tests count its draws
from rulepress.simulate.compensate import compensation_files
from rulepress.simulate.execute import SchedulerError
from rulepress.simulate.ladder import (
    command,
    ladder_files,
    pair_key,
    pair_specs,
    seat_spec,
    sentence,
)
from rulepress.simulate.play import SimulationFailure, replay
from rulepress.simulate.records import DIGEST_KEY, first_difference, records, records_digest
from rulepress.simulate.refigure import derived
from rulepress.simulate.run import plan_for, play, summarize
from rulepress.simulate.spec import RunSpec, Table
from rulepress.simulate.stats import SAMPLE, _r, rate, sample_digest
from rulepress.simulate.summary import FORMAT, Options, Plan
from rulepress.validate.results import RenderedExample, Status
from rulepress.words import N_
from rulepress.workers import unit
from rulepress.write import Kept

KEYS = ("summary", "run", "plots")
RUN_KEYS = ("games", "players", "variants", "agents", "seed", "max_turns", "seconds_per_turn",
            "duplicate", "ladder", "until", "handicap", "compensate", "adaptive")
CAPTIONS = {
    "length": N_("How long games last"),
    "scores": N_("Scores"),
    "margins": N_("Winning margins"),
    "win-rates": N_("Share of the wins by seat and by place in turn order"),
    "ends": N_("How games end"),
    "agents": N_("Win rate of each agent"),
    "ladder": N_("Skill ladder: each agent's Elo, with its 95% interval"),
}
_PROLOGUE = re.compile(r"^\s*<\?xml[^>]*\?>\s*(<!DOCTYPE[^>]*>\s*)?")


class _Stale(Exception):
    def __init__(self, key: str, message: str, *, disproved: bool = False) -> None:
        super().__init__(message)
        self.key = key
        self.message = message
        self.disproved = disproved


Sample = Mapping[str, Mapping[int, str]]  # each table's first games, as Game.line()s, by key
CONFIRMATION = "confirmation"  # a compensation's confirmation, among the tables played again


def sample_lines(doc: Document, block: Example, project: Path | None) -> Sample | None:
    """The first games of each table of the block's run, played (in the engine's worker, while
    the check goes on); None when the block names no run that can be played (check_simulation
    says why). A game that fails raises SimulationFailure; the engine's error, its own."""
    try:
        plan = _plan(doc, block, project)
        stored = _stored(doc, block)
        chosen = _compensated(block, plan, stored)
        played = _sampled_tables(chosen.spec, _is_ladder(block), _ladder_top(block, stored),
                                 _confirmation_run(block, chosen.spec, stored))
    except (_Stale, RulepressError):
        return None
    lines: dict[str, dict[int, str]] = {}
    for key, spec, table, count in played:
        for i in range(count):
            with unit(i):  # each game within the engine's budget, as in a run
                lines.setdefault(key, {})[i] = replay(spec, table, i).line()
    return lines


def _is_ladder(block: Example) -> bool:
    run = block.data.get("run")
    return isinstance(run, Mapping) and run.get("ladder") is not None


def _is_compensation(block: Example) -> bool:
    run = block.data.get("run")
    return isinstance(run, Mapping) and run.get("compensate") is True


def _stored(doc: Document, block: Example) -> Any:
    """The block's summary as its file holds it, read once for all that asks; None when it
    cannot be read (the check says why)."""
    try:
        return json.loads(read_regular(_summary_path(doc, block)).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


def _compensated(block: Example, chosen: Plan, stored: Any) -> Plan:
    """A --compensate block's run at the handicap its summary (``stored``) suggests (its games
    were played there); any other block's as it is."""
    if not _is_compensation(block):
        return chosen
    try:
        value = stored["compensation"]["suggested"]
    except (KeyError, TypeError):
        value = None
    if not isinstance(value, int):
        raise _Stale("summary", f"{block.data['summary']} is not the summary of a "
                                f"--compensate run; make it with: "
                                f"{_command(chosen.spec, False, True)}")
    return replace(chosen, spec=replace(chosen.spec, handicap=value))


def _ladder_top(block: Example, stored: Any) -> str | None:
    """A ladder's strongest agent as its summary (``stored``) ranks it (its seat-balance table
    is played with it), None for another run or a summary that cannot say."""
    if not _is_ladder(block):
        return None
    try:
        return str(stored["ladder"]["ranking"][0])
    except (KeyError, TypeError, IndexError):
        return None


def _confirmation_run(block: Example, spec: RunSpec, stored: Any) -> RunSpec | None:
    """The confirmation a block's summary (``stored``) records (a --compensate run's, ``spec``
    at the suggested value), as a run; None when it records none, or cannot be read."""
    if _is_ladder(block):
        return None
    try:
        return _confirmation_of(spec, stored)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


def _confirmation_of(spec: RunSpec, summary: Mapping[str, Any]) -> RunSpec | None:
    """The run of the confirmation ``summary`` records: its value and seed, as recorded (an
    edited one plays other games than those its sample digests)."""
    confirmation = summary.get("compensation", {}).get("confirmation")
    if confirmation is None:
        return None
    return replace(spec, handicap=int(confirmation["value"]), seed=int(confirmation["seed"]))


def _sampled_tables(spec: RunSpec, ladder: bool, top: str | None,
                    confirmation: RunSpec | None = None
                    ) -> list[tuple[str, RunSpec, Table, int]]:
    """(the summary's table key, its run, the table, games to play again) for each table a
    check plays again: an ordinary run's first SAMPLE games at each table, and a compensation's
    confirmation's first SAMPLE games (key "confirmation"); a ladder's first game of each pair
    and of its strongest agent in every seat (searches are slow)."""
    if not ladder:
        confirmed = ([] if confirmation is None else
                     [(CONFIRMATION, confirmation, confirmation.tables[0],
                       min(SAMPLE, confirmation.plays(confirmation.tables[0].players)))])
        return [*((t.key, spec, t, min(SAMPLE, spec.plays(t.players))) for t in spec.tables),
                *confirmed]

    runs = [(pair_key(s), s) for s in pair_specs(replace(spec, until=None), spec.agents)]
    if top is not None:
        runs.append((f"{top} in every seat", seat_spec(spec, top)))
    return [(key, s, s.tables[0], 1) for key, s in runs]


def check_simulation(
    doc: Document, block: Example, project: Path | None, *, draw: bool = False,
    kept: Kept | None = None, sampled: Sample | Exception | None = None,
) -> tuple[list[Diagnostic], RenderedExample]:
    """The block's diagnostics and its rendering: prose from the summary, the plots it names
    (drawn only when ``draw``; taken from ``kept`` when drawn from the same summary before).
    ``sampled``: sample_lines(), played already (or the SimulationFailure it raised)."""
    figures: Sequence[Figure] = ()
    diags: list[Diagnostic] = []
    try:
        summary = _checked_summary(doc, block, project, sampled)
        context = figures_in(summary)
        names = _plot_names(block)
        if draw:
            # Kept under the block's own name: two blocks may draw the same plot from two runs.
            folder = f"{doc.slug}/{block.id}"
            figures = _plots(summary, names, folder, kept or Kept(None))
    except _Stale as stale:
        loc = block.line_of((stale.key,))
        diags.append((disproved if stale.disproved else error)(loc, f"{block.id}: {stale}"))
        context = {}
    status = Status.FAILED if diags else Status.SIMULATED
    prose, prose_diags = (block.text, []) if diags else render_prose(
        Example(block.id, block.title, block.loc, context, {}, block.text, block.lines,
                block.edition, block.kind))
    rendered = RenderedExample(block.id, block.title, prose, (), (), tuple(figures), status)
    return diags + prose_diags, rendered


def _checked_summary(doc: Document, block: Example, project: Path | None,
                     sampled: Sample | Exception | None) -> dict[str, Any]:
    unknown = [k for k in block.data if k not in KEYS]
    if unknown:
        raise _Stale(unknown[0], f"a simulation block holds {', '.join(KEYS)} (and id, title, "
                                 f"text), not '{unknown[0]}'")
    if not doc.meta.engine:
        raise _Stale("run", "the game names no engine, so it has no simulation to report")
    asked = _plan(doc, block, project)
    path = _summary_path(doc, block)
    ladder, compensate = _is_ladder(block), _is_compensation(block)
    remake = (f"make it with: {_command(asked.spec, ladder, compensate)} --out "
              f"{_shown(path.parent, project)}")
    if not path.is_file():
        raise _Stale("summary", f"{block.data['summary']} does not exist; {remake}")
    stored = _stored(doc, block)
    chosen = _compensated(block, asked, stored)
    expected = {**chosen.spec.figures(), **({"ladder": True} if ladder else {})}
    try:
        # Bounded and never blocking: the game's folder could hold a FIFO or 200 GB there.
        # Read again only when it did not read, for the reason it gives.
        summary: dict[str, Any] = (stored if stored is not None
                                   else json.loads(read_regular(path).decode("utf-8")))
        made_by = summary["command"]
        same = (summary["format"] == FORMAT and summary["engine"] == chosen.spec.engine
                and summary["run"] == expected)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise _Stale("summary", f"{block.data['summary']} is not a summary rulepress simulate "
                                f"wrote ({exc}); {remake}") from None
    if not same:
        raise _Stale("run", f"{block.data['summary']} is the summary of another run "
                            f"({made_by}); {remake}")
    summary = _from_records(summary, block.data["summary"], remake)
    _replay_sample(chosen, summary, block, remake, sampled)
    return summary


def _from_records(summary: dict[str, Any], name: str, remake: str) -> dict[str, Any]:
    """The summary with every figure computed from its records, once the records match their
    digest and the stored figures are exactly those (records.py)."""
    try:
        sealed = summary.get(DIGEST_KEY)
        intact = sealed == records_digest(summary)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _Stale("summary", f"{name} is not a summary rulepress simulate wrote (its "
                                f"records lack {exc}); {remake}") from None
    if not intact:
        raise _Stale("summary", f"{name}: its records do not match their digest "
                                f"({DIGEST_KEY}): a record was changed after the run; "
                                f"{remake}")
    # Computing the figures again takes the most of a check (Student's t by integration): a
    # summary whose figures matched its records before is taken as derived then.
    key = memo.key("records", summary)
    kept = memo.get(key)
    if isinstance(kept, dict):
        return kept
    made = {**derived(summary), DIGEST_KEY: sealed}
    changed = first_difference(summary, made)
    if changed:
        raise _Stale("summary", f"{name}: {changed}; a figure is computed from the records, "
                                f"never edited: {remake}")
    memo.put(key, made)
    return made


def _command(spec: RunSpec, ladder: bool, compensate: bool = False) -> str:
    if compensate:
        return replace(spec, handicap=None).command() + " --compensate"
    return command(spec) if ladder else spec.command()


def _plan(doc: Document, block: Example, project: Path | None) -> Plan:
    run = block.data.get("run")
    if not isinstance(run, Mapping) or not run:
        raise _Stale("run", "run: names the simulation, e.g. {games: 10000, players: 2-4, "
                            "agents: greedy, seed: 1}")
    unknown = [k for k in run if k not in RUN_KEYS]
    if unknown:
        raise _Stale("run", f"run: '{unknown[0]}' is not an option of the run; it takes "
                            f"{', '.join(RUN_KEYS)}")

    def listed(key: str) -> str | None:
        value = run.get(key)
        if isinstance(value, list):
            return ",".join(map(str, value))
        return None if value is None else str(value)

    defaults = Options(games=1)
    agents = listed("agents")
    if run.get("ladder") is not None:
        if agents is not None or run.get("duplicate") is not None:
            raise _Stale("run", "run: a ladder names its agents and plays them duplicate: "
                                "leave out agents and duplicate")
        agents = listed("ladder")
    duplicate = _flag(run, "duplicate")
    if _flag(run, "compensate") and (run.get("handicap") is not None or agents is None
                                     or run.get("ladder") is not None):
        raise _Stale("run", "run: compensate finds the handicap itself for the agents named: "
                            "name agents, and leave out handicap and ladder")
    try:
        options = Options(
            games=int(run.get("games", 0)),
            players=listed("players"),
            variants=listed("variants"),
            agents=agents,
            seed=int(run.get("seed", defaults.seed)),
            max_turns=int(run.get("max_turns", defaults.max_turns)),
            seconds_per_turn=float(run.get("seconds_per_turn", defaults.seconds_per_turn)),
            duplicate=duplicate,
            until=listed("until"),
            handicap=None if run.get("handicap") is None else int(run["handicap"]),
            compensate=_flag(run, "compensate"),
        )
    except (TypeError, ValueError) as exc:
        raise _Stale("run", f"run: {exc}") from None
    adaptive = _flag(run, "adaptive")
    if adaptive and run.get("ladder") is None:
        raise _Stale("run", "run: adaptive stops a ladder's decided pairs early: it needs ladder")
    assert doc.meta.engine is not None
    try:
        chosen = plan_for(doc.slug, doc.meta.title, doc.meta.engine, doc.meta.engine_loc,
                          project, options)
        return replace(chosen, spec=replace(chosen.spec, adaptive=True)) if adaptive else chosen
    except Malformed:  # the engine's error, at its own line, not the block's
        raise
    except RulepressError as exc:
        raise _Stale("run", f"run: {exc.diagnostics[0].message}") from None


def _flag(run: Mapping[str, Any], key: str) -> bool:
    value = run.get(key, False)
    if not isinstance(value, bool):
        raise _Stale("run", f"run: {key} is true or false, not '{value}'")
    return value


def _summary_path(doc: Document, block: Example) -> Path:
    name = block.data.get("summary")
    if not isinstance(name, str) or not name.endswith(".json"):
        raise _Stale("summary", "summary: names the run's summary.json in the game's folder, "
                                "e.g. playtest/summary.json")
    folder = doc.folder.resolve()
    path = (folder / name).resolve()
    if Path(name).is_absolute() or not path.is_relative_to(folder):
        raise _Stale("summary", f"'{name}' is not inside the game's folder")
    return path


def _shown(folder: Path, project: Path | None) -> str:
    if project is not None and folder.is_relative_to(project.resolve()):
        return str(folder.relative_to(project.resolve()))
    return str(folder)


def _replay_sample(chosen: Plan, summary: Mapping[str, Any], block: Example,
                   remake: str, sampled: Sample | Exception | None) -> None:
    """Play each table's first games again (or take them from ``sampled``): the summary's
    digest of them must come out (a ladder's: of each table's first game)."""
    if isinstance(sampled, SimulationFailure):
        raise _Stale("summary", str(sampled))
    if isinstance(sampled, BaseException):
        raise sampled
    ladder = _is_ladder(block)
    try:
        top = str(summary["ladder"]["ranking"][0]) if ladder else None
        recorded = {str(t.get("key")): t for t in summary["tables"]}
        confirmation = _confirmation_of(chosen.spec, summary)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError):
        raise _Stale("summary", f"{block.data['summary']} is not a summary rulepress simulate "
                                f"wrote; {remake}") from None
    if confirmation is not None:
        recorded[CONFIRMATION] = summary["compensation"]["confirmation"]
        if "sample" not in recorded[CONFIRMATION]:
            raise _Stale("summary", f"{block.data['summary']}: its confirmation was recorded "
                                    f"without its first games' digest, so no check can play "
                                    f"them again; {remake}")
    tables = _sampled_tables(chosen.spec, ladder, top, confirmation)
    if len(tables) != len(recorded):
        raise _Stale("summary", f"{block.data['summary']} does not hold the run's tables; "
                                f"{remake}")
    for key, spec, table, count in tables:
        try:
            lines = dict(sampled[key]) if sampled is not None else {
                i: replay(spec, table, i).line() for i in range(count)}
        except SimulationFailure as exc:
            raise _Stale("summary", str(exc)) from None
        except KeyError:
            lines = {}
        mine = recorded.get(key, {})
        if sample_digest(lines) != mine.get("first_game" if ladder else "sample"):
            raise _Stale("summary", f"the rules or agents no longer play the games of "
                                    f"{block.data['summary']}: its first games at {key} "
                                    f"come out differently now; {remake}", disproved=True)


def _plot_names(block: Example) -> list[str]:
    names = block.data.get("plots", [])
    if not isinstance(names, list) or any(n not in CAPTIONS for n in names):
        raise _Stale("plots", f"plots: a list of {', '.join(CAPTIONS)}")
    return [str(n) for n in names]


def _plots(summary: Mapping[str, Any], names: Sequence[str], folder: str,
           kept: Kept) -> list[Figure]:
    """The plots ``names`` of ``summary``, kept as ``folder``/<name>.svg."""
    if "agents" in names and len(summary["run"]["agents"]) < 2:
        raise _Stale("plots", "plots: 'agents' compares agents, and the run has one")
    # What a plot is drawn from: the summary, the theme's fonts (text is measured in them)
    # and rulepress's code (with matplotlib's version).
    drawn_from = digest("playtest plot", json.dumps(summary, sort_keys=True), theme_digest(),
                        code_digest())
    # Each drawn twice: a page wide, and for a phone (one panel to a row, larger text).
    return [Figure(CAPTIONS[n], kept.text(f"{folder}/{n}.svg", digest(drawn_from, n),
                                          partial(draw, summary, n)),
                   kept.text(f"{folder}/{n}-narrow.svg", digest(drawn_from, n, "narrow"),
                             partial(draw, summary, n, narrow=True)))
            for n in names]


def draw(summary: Mapping[str, Any], name: str, narrow: bool = False,
         wording: plots.Wording | None = None) -> str:
    """A book's plot ``name`` of ``summary`` (its text as text), in ``wording``'s words."""
    return _PROLOGUE.sub("", plots.plot(summary, name, text_as_paths=False, narrow=narrow,
                                        wording=wording))


def plotted(doc: Document, block: Example) -> tuple[dict[str, Any], list[str]]:
    """The summary a block's plots are drawn from (its figures computed from its records) and
    the plots it names, for a translation to draw them again in its words once the check has
    passed them; RulepressError at the block's line if the summary no longer reads as then."""
    try:
        name = _summary_path(doc, block)
        summary = json.loads(read_regular(name).decode("utf-8"))
        return _from_records(summary, block.data["summary"], "run rulepress check"), \
            _plot_names(block)
    except _Stale as stale:
        raise RulepressError.at(block.line_of((stale.key,)), f"{block.id}: {stale}") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RulepressError.at(block.line_of(("summary",)),
                                f"{block.id}: {block.data['summary']}: {exc}") from None


def figures_in(summary: Mapping[str, Any]) -> dict[str, Any]:
    """What the prose sees: the summary, each table by its key, and every figure also written
    out as text (rates in percent, means to one decimal, each with its interval)."""
    shown: dict[str, Any] = _written(summary)
    shown["table"] = {t["key"]: t for t in shown["tables"]}
    if "ladder" in summary:
        # Said again from the figures, not read from the run: in this version's words, which a
        # translated book's report knows (the summary keeps the words of the run's version).
        shown["ladder"]["sentence"] = sentence(summary["ladder"])
        shown["versus"] = _versus(summary["ladder"])
        for entry in shown["ladder"]["elo"].values():
            entry["shown"] = f"{entry['elo']:.0f}"
            entry["interval"] = f"{entry['ci'][0]:.0f} to {entry['ci'][1]:.0f}"
    shown["games"] = f"{summary['run']['games']:,}"
    # Each player by its one name, the one the plots and tables show: the agent's declared
    # name. Only the run's agents have one, so prose naming another is an error at its line.
    shown["name"] = {agent: agent for agent in summary["run"]["agents"]}
    return shown


def _versus(ladder: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each pair's score from either side: ``versus["ismcts:400"]["greedy"].percent``."""
    out: dict[str, dict[str, Any]] = {}
    for pair in ladder["pairs"]:
        a, b = pair["agents"]
        won, games = pair["count"], pair["of"]
        mine, theirs = rate(won, games), rate(games - won, games)
        # an adaptive ladder's pair: its always-valid interval; else the interval over deals
        # on its score, as the ladder's sentence prints (Wilson's for older records)
        ci = pair.get("cs") or pair.get("deal_ci")
        if ci is not None:
            mine["ci"], theirs["ci"] = ci, [_r(1 - ci[1]), _r(1 - ci[0])]
        out.setdefault(a, {})[b] = _written(mine)
        out.setdefault(b, {})[a] = _written(theirs)
    return out


def _written(value: Any) -> Any:
    if isinstance(value, Mapping):
        out = {k: _written(v) for k, v in value.items()}
        ci = value.get("ci")
        if value.get("rate") is not None and ci:
            out["percent"] = _percent(value["rate"])
            out["interval"] = f"{_percent(ci[0])[:-1]}–{_percent(ci[1])}"
        elif "mean" in value and ci:
            out["shown"] = f"{value['mean']:.1f}"
            out["interval"] = f"{ci[0]:.1f}–{ci[1]:.1f}"
        return out
    if isinstance(value, list):
        return [_written(v) for v in value]
    return value


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


# Records a later version keeps of every table, which a summary made before does not: each
# rate's units by deal and each deal's scores by number. Played again, such a summary's games
# give them; it is compared on the records it keeps.
LATER_RECORDS = ("deal_units", "deal_scores")


def _kept_kinds(made: dict[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
    """``made``'s records without the LATER_RECORDS a stored table does not keep."""
    tables = [{k: v for k, v in m.items() if k not in LATER_RECORDS or k in t}
              for m, t in zip(made["tables"], stored["tables"], strict=False)]
    return {**made, "tables": tables + made["tables"][len(tables):]}


def replayed_in_full(doc: Document, block: Example, project: Path | None,
                     jobs: int = 0) -> list[Diagnostic]:
    """``check --replay-all``: every game of the block's run played again (as long as the run
    took), its records required to be the summary's exactly. Call it once the block checked."""
    name = block.data["summary"]
    loc = block.line_of(("summary",))
    asked = _plan(doc, block, project)
    stored = json.loads(read_regular(_summary_path(doc, block)).decode("utf-8"))
    try:
        if _is_ladder(block):
            files, _ = ladder_files(asked, doc.slug, adaptive=asked.spec.adaptive, jobs=jobs)
            made = json.loads(files["summary.json"])
        elif _is_compensation(block):
            files, _ = compensation_files(asked, doc.slug, jobs=jobs)
            made = json.loads(files["summary.json"])
        else:
            made = summarize(asked, play(asked, jobs=jobs))
    except (SimulationFailure, SchedulerError) as exc:
        return [error(loc, f"{block.id}: {name}: playing its games again failed: {exc}")]
    mine, theirs = records(made), records(stored)
    if made[DIGEST_KEY] == stored.get(DIGEST_KEY) and mine == theirs:
        return []
    mine = _kept_kinds(mine, theirs)
    if mine == theirs:
        return []
    where = next((f"tables[{m['key']}].{k}" for m, t in zip(mine["tables"], theirs["tables"],
                                                             strict=False)
                  for k in m if m[k] != t.get(k)), "its compensation")
    return [disproved(loc, f"{block.id}: {name}: its records are not what its games give "
                           f"played again in full (first at {where}); make it with: "
                           f"{_command(asked.spec, _is_ladder(block), _is_compensation(block))}")]
