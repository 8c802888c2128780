"""`rulepress simulate` on the pipeline: the Simulation generator and the command's run.

A simulation needs its game read (front matter valid) and its options checked against the
engine, not every example proven: a rules text whose example fails can still be played, as it
always could (the check's exit status would otherwise change what simulate says). So it
declares ``checked = False`` and checks its options in ``prepare``. Its one unit, the summary
and the plots, is made on every run (``remakes``: it plays again) and written in the pipeline's
write phase as one set with the output folder's manifest, where simulate always kept it; a
plot an earlier run wrote that this one does not draw goes. ``--ladder`` and ``--compensate``
are the same generator: their one unit plays the ladder (simulate/ladder.py) or the search
(simulate/compensate.py) instead of one run."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, ExitStatus, Reporter, RulepressError, error
from rulepress.document.model import Document
from rulepress.pipeline import Base, Files, Paths, RunOptions, Unit, run
from rulepress.simulate.compensate import compensation_files, compensation_options
from rulepress.simulate.execute import SchedulerError
from rulepress.simulate.ladder import ladder_files, ladder_options
from rulepress.simulate.play import SimulationFailure
from rulepress.simulate.progress import game_steps
from rulepress.simulate.run import (
    SIMULATION_UNIT,
    narrower,
    outputs,
    plan_of,
    play,
    stalled,
    summarize,
)
from rulepress.simulate.summary import SUMMARY, Options, Plan
from rulepress.validate.check import DocumentCheck
from rulepress.write import check_free


class _Quiet:
    def progress(self, message: str) -> None:
        pass

    def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        pass


class Simulation(Base):
    """A run of ``options`` on the game read: its summary and plots, one unit."""

    name = "simulation"
    checked = False
    remakes = True

    def __init__(self, options: Options, project: Path | None, *, jobs: int,
                 scheduler: str | None, reporter: Reporter | None) -> None:
        self.options = options
        self.project, self.jobs, self.scheduler, self.reporter = project, jobs, scheduler, reporter
        self.plan: Plan | None = None
        self.games = 0  # played (fewer than planned when --until stopped early)
        self.seconds = 0.0
        self.summary: dict[str, Any] = {}
        self.said = ""  # a ladder's or a search's account of itself
        self.plan_options = options  # what the plan is checked with (a ladder's agents)
        if options.compensate:
            self.plan_options = compensation_options(options)
        elif options.ladder is not None:
            self.plan_options = ladder_options(options)

    def prepare(self, docs: Sequence[Document]) -> None:
        (doc,) = docs
        self.plan = plan_of(doc, self.project, self.plan_options)

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        return [Unit(SIMULATION_UNIT, key, self._played, game.doc.slug)]

    def _played(self) -> Files:
        chosen = self.plan
        assert chosen is not None  # prepare() came first
        if self.options.compensate or self.options.ladder is not None:
            return self._searched(chosen)
        total = sum(chosen.spec.plays(t.players) for t in chosen.spec.tables)
        start = time.perf_counter()
        try:
            with game_steps(self.reporter, chosen.spec.game, total) as progress:
                tallies = play(chosen, jobs=self.jobs, scheduler=self.scheduler,
                               progress=progress)
        except SchedulerError as exc:
            raise RulepressError.at(None, str(exc)) from None
        except SimulationFailure as exc:  # the engine raised or misbehaved (bad input), or a
            raise RulepressError([error(exc.loc, str(exc))], ExitStatus.BAD_INPUT  # finding
                                 if exc.bad_input else ExitStatus.CHECK_FAILED) from None
        self.seconds = time.perf_counter() - start
        self.games = sum(t.games for t in tallies)
        self.summary = summarize(chosen, tallies)
        return outputs(self.summary)

    def _searched(self, chosen: Plan) -> Files:
        if self.options.compensate:
            files, self.said = compensation_files(chosen, chosen.spec.game, jobs=self.jobs,
                                                  scheduler=self.scheduler,
                                                  reporter=self.reporter)
        else:
            files, self.said = ladder_files(chosen, chosen.spec.game,
                                            adaptive=self.options.adaptive, jobs=self.jobs,
                                            scheduler=self.scheduler, reporter=self.reporter)
        return files


def simulate_game(game: str, sources: Path, project: Path | None, options: Options, out: Path,
                  *, jobs: int = 0, scheduler: str | None = None,
                  reporter: Reporter | None = None) -> str:
    """The whole run: plan, play, summarize, draw, write, its progress told to ``reporter``
    (None: quiet). Returns what to tell the user."""
    if jobs < 0:
        raise RulepressError.at(None, f"--jobs {jobs}: give a number of processes, or 0 for "
                                "one per core")
    check_free(out, [SUMMARY])  # before the games: they can take an hour
    simulation = Simulation(options, project, jobs=jobs, scheduler=scheduler, reporter=reporter)
    built = run(Paths(sources, out, project), [simulation], reporter or _Quiet(),
                RunOptions((game,)))
    if simulation.said:  # a ladder or a search
        return f"{simulation.said}; wrote {len(built.written)} files to {out}"
    workers = jobs or os.cpu_count() or 1
    where = f"on {scheduler}" if scheduler else f"on {workers} process{'es' * (workers > 1)}"
    total, seconds = simulation.games, simulation.seconds
    return (f"played {total} games of {game} in {seconds:.1f} s {where} "
            f"({total / seconds:.0f} games/s){narrower(simulation.summary)}"
            f"{stalled(simulation.summary)}; wrote {len(built.written)} files to {out}")


def simulate_ladder(game: str, sources: Path, project: Path | None, options: Options,
                    out: Path, *, jobs: int = 0, scheduler: str | None = None,
                    reporter: Reporter | None = None) -> str:
    """``rulepress simulate --ladder``: the pairs, then the strongest in every seat; one
    summary.json and ladder.svg, written through the pipeline. Returns what to tell the
    user."""
    return simulate_game(game, sources, project, options, out, jobs=jobs, scheduler=scheduler,
                         reporter=reporter)
