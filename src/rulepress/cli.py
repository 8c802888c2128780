"""Command line: thin commands, each calling one function. Each command imports what it runs
inside its function, so `rulepress --help` and `--version` load none of it (WeasyPrint,
ReportLab, Babel, numpy, the engines). At the top: what every run loads anyway (signals,
workers, the supervisor)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rulepress.diagnostics import Diagnostic, ExitStatus, RulepressError, exit_status
from rulepress.document.editions import EDITIONS
from rulepress.media import PAPER_KEYS
from rulepress.signals import Interrupted, stop_on_signals
from rulepress.simulate import spec as sim
from rulepress.supervise import supervised
from rulepress.workers import Budget, set_budget

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.status import Status

    from rulepress.pipeline import Step
    from rulepress.project import Folder, Project

PAPERS = {**{key: (key,) for key in PAPER_KEYS}, "both": PAPER_KEYS}

project_option = click.option(
    "--project", type=click.Path(path_type=Path), default=None,
    help="The project folder (it holds rulepress.toml). Default: the nearest one from the "
         "current folder up, else the current folder.",
)
sources_option = click.option(
    "--sources", type=click.Path(path_type=Path), default=None,
    help="Folder holding one folder per game. Default: the project's (sources/).",
)


def out_option(default: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return click.option(
        "--out", type=click.Path(path_type=Path), default=None,
        help=f"Output folder. Default: the project's ({default}/).",
    )


force_option = click.option(
    "--force", is_flag=True,
    help="Rebuild every output, even those whose inputs are unchanged since they were written.",
)
lang_option = click.option(
    "--lang", "langs", multiple=True, metavar="LANG",
    help="Only this language (repeat for more): the source's, or a translation from "
         "locales/LANG.po. Default: the project's languages (rulepress.toml).",
)
paper_option = click.option(
    "--paper", type=click.Choice(list(PAPERS)), default=None,
    help="Paper size of the PDFs. Default: the project's papers (both).",
)


@dataclass(frozen=True)
class Where:
    """Where a command reads and writes, from the project and the command line."""

    project: Project
    sources: Path
    games: tuple[str, ...]
    sources_option: Path | None = None

    @classmethod
    def of(cls, project: Path | None, sources: Path | None, games: tuple[str, ...]) -> Where:
        # read when a command runs, not for --help
        from rulepress.project import chosen_games, load_project

        found = load_project(project)
        set_budget(Budget(found.engine_seconds, found.engine_memory_mb))
        return cls(found, sources or found.path(found.sources), chosen_games(found, games),
                   sources)

    def folders(self, out: Path | None = None, key: str | None = None) -> dict[str, Folder]:
        """The sources and the output folders, checked apart: ``out`` (--out) replaces the
        folder ``key`` names. Returns them by key."""
        # read when a command runs, not for --help
        from rulepress.project import Folder, folders_apart, no_links_below

        found = {k: self.project.folder(k) for k in ("sources", "build", "pnp")}
        if self.sources_option is not None:
            found["sources"] = Folder(self.sources, f"--sources {self.sources_option}", None)
        if out is not None and key is not None:
            found[key] = Folder(out, f"--out {out}", None)
        folders_apart(list(found.values()))
        if key is not None:
            no_links_below(self.project.root, found[key])
        return found

    def languages(self, langs: tuple[str, ...]) -> tuple[bool, tuple[str, ...]]:
        """Whether the source language is wanted, and the translations (--lang, else the
        project's languages)."""
        # Babel: only a command that asks for languages
        from rulepress.i18n.catalog import lang_problem

        wanted = langs or self.project.languages
        for lang in wanted:
            if lang_problem(lang):
                raise RulepressError.at(None, f"--lang {lang}: {lang_problem(lang)}")
        source = self.project.languages[0]
        return source in wanted, tuple(dict.fromkeys(x for x in wanted if x != source))

    def papers(self, paper: str | None) -> tuple[str, ...]:
        return PAPERS[paper] if paper else self.project.papers

    def editions(self, edition: str | None) -> tuple[str, ...]:
        if edition is None:
            return self.project.editions
        return EDITIONS if edition == "both" else (edition,)


QUIET = "rulepress.quiet"


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    ctx.meta[QUIET] = ctx.meta.get(QUIET, False) or value


quiet_option = click.option(
    "--quiet", "-q", is_flag=True, expose_value=False, callback=_set_quiet,
    help="Print only diagnostics: no progress, no summary.",
)


class Reporter:
    """Diagnostics to stderr, always. Progress, unless quiet: on a terminal a status line, and a
    bar for counted steps (rich); elsewhere (a pipe, CI) one line per message, so a counted task
    prints a line per finished file."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self._status: Status | None = None
        self._bar: Progress | None = None
        self._console: Console | None = None
        if sys.stderr.isatty() and not os.environ.get("CI"):
            from rich.console import Console

            self._console = Console(stderr=True, highlight=False)

    def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        for d in diagnostics:
            if self._console is not None:
                self._console.print(str(d), markup=False)
            else:
                click.echo(str(d), err=True)

    def progress(self, message: str) -> None:
        # Jinja, Markdown: only a command that runs the pipeline
        from rulepress.pipeline import Step

        if self.quiet:
            return
        if self._console is None:
            click.echo(message, err=True)
        elif isinstance(message, Step):
            self._advance(self._console, message)
        elif self._status is None:
            self.clear()
            self._status = self._console.status(message)
            self._status.start()
        else:
            self._status.update(message)

    def _advance(self, console: Console, step: Step) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        if self._bar is None:
            self.clear()
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), console=console, transient=True)
            self._bar.add_task(step, total=step.total)
            self._bar.start()
        self._bar.update(self._bar.task_ids[0], description=step, completed=step.done,
                         total=step.total)

    def clear(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def done(self, message: str) -> None:
        self.clear()
        if not self.quiet:
            click.echo(message, err=True)


def _run(action: Callable[[Reporter], ExitStatus]) -> None:
    context = click.get_current_context(silent=True)
    reporter = Reporter(quiet=bool(context and context.meta.get(QUIET)))
    try:
        with stop_on_signals():
            status = action(reporter)
    except RulepressError as exc:
        reporter.clear()
        reporter.diagnostics(exc.diagnostics)
        status = exc.status
    except Interrupted as exc:
        reporter.clear()
        click.echo(f"rulepress: stopped by {exc.name}", err=True)
        sys.exit(128 + exc.signum)
    finally:
        set_budget(Budget())  # the project's (Where.of) is for this command only
    sys.exit(int(status))


class _Console(click.Group):
    """The command line: as the console script (called), supervised in a child process
    (supervise.py); as tests invoke it (``main.main``, CliRunner), in this process."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return supervised(lambda: self.main(*args, **kwargs))


@click.group(cls=_Console, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulepress")
def main() -> None:
    """Compile rule texts into proven rulebooks and print-and-play kits."""


def games_command(command: Callable[..., None]) -> click.Command:
    """A command over the project's games, all or those named: GAMES..., --project, --sources."""
    return main.command()(click.argument("games", nargs=-1)(project_option(sources_option(
        command))))


@main.command()
@click.argument("name")
@quiet_option
def new(name: str) -> None:
    """Start a project: NAME/ with rulepress.toml, one game and its engine."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it
        from rulepress.scaffold import new_project

        folder = new_project(name, Path.cwd())
        reporter.done(
            f"created {folder}: a project with the game '{name}' (sources/{name}/rules.md) and "
            f"its engine (engines/{name.replace('-', '_')}/).\n"
            f"next: cd {name} && rulepress check && rulepress build && rulepress pnp"
        )
        return ExitStatus.OK

    _run(action)


@games_command
@lang_option
@click.option("--strict", is_flag=True,
              help="A segment that would print in the source language (untranslated or "
                   "fuzzy) is an error at its catalog line.")
@quiet_option
@click.option("--replay-all", "replay_all", is_flag=True,
              help="Also play every game of each playtest report again (as long as its run "
                   "took) and require the records its summary keeps.")
def check(games: tuple[str, ...], project: Path | None, sources: Path | None,
          langs: tuple[str, ...], strict: bool, replay_all: bool = False) -> None:
    """Run every check (examples, components, references, kits, each language's catalog);
    write nothing."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it
        from rulepress.validate.kept import check_key, keep_check, kept_check

        where = Where.of(project, sources, games)
        where.folders()
        _, others = where.languages(langs)  # the source is checked whatever is asked
        root = where.project.root
        key = None if replay_all else check_key(where.sources, where.games, root,
                                                repr(where.project), others, strict)
        kept = kept_check(key, root)
        if kept is not None:  # nothing it was checked from has changed
            reporter.diagnostics(kept[0])
            reporter.done(kept[1])
            return exit_status(kept[0])

        # a check made afresh: the reader and the check, which a kept answer never loads
        from rulepress.document.reader import read_sources
        from rulepress.validate.printing import check_printing

        docs = read_sources(where.sources, where.games)
        extra = []
        if others:  # once the source passes: its translations
            # the translations' check: only when there are some
            from rulepress.i18n.checked import checked_translations

            extra = [checked_translations(others, where.project.languages[0], strict)]
        report = check_printing(docs, project=where.project.root, extra=extra)
        if replay_all and report.status is ExitStatus.OK:
            # the playtest runs: for --replay-all alone
            from rulepress.simulate.report import replayed_in_full

            found: list[Diagnostic] = []
            for doc in docs:
                for block in doc.reports:
                    reporter.progress(f"{doc.slug}: playing every game of {block.id} again")
                    found += replayed_in_full(doc, block, where.project.root)
            reporter.diagnostics([*report.diagnostics, *found])
            played = sum(len(doc.reports) for doc in docs)
            reporter.done(f"{report.summary()}; {played} replayed in full"
                          + (f", {len(found)} not as recorded" if found else ""))
            return exit_status([*report.diagnostics, *found])
        reporter.diagnostics(report.diagnostics)
        reporter.done(report.summary())
        if report.status is ExitStatus.OK:
            keep_check(key, root, [doc.meta.engine for doc in docs], report.diagnostics,
                       report.summary())
        return report.status

    _run(action)


@games_command
@out_option("build")
@paper_option
@click.option(
    "--edition", type=click.Choice([*EDITIONS, "both"]), default=None,
    help="The player edition (teaches), the reference edition (everything), or both. "
         "Default: the project's editions (both).",
)
@click.option(
    "--booklet", is_flag=True,
    help="Also write the player edition as a saddle-stitched booklet per paper "
         "(<game>-a4-booklet.pdf: A5 pages on A4; -letter-booklet.pdf: half-letter pages on "
         "Letter). Print both sides, flipping on the short edge; fold and staple.",
)
@click.option(
    "--press", is_flag=True,
    help="Also write each edition for a manufacturer, per paper (<game>-a4-press.pdf): "
         "PDF/X-1a, CMYK, 3 mm bleed on every page, crop marks.",
)
@click.option("--draft", is_flag=True, help="Build even when examples fail (as warnings).")
@click.option(
    "--changelog-since", "changelog_since", metavar="OLD", default=None,
    help="The reference edition's changelog also says, in plain words, what changed since OLD "
         "(a git revision of the project, or a project folder), both printings checked.",
)
@click.option("--jobs", "-j", type=int, default=0, help="Worker processes (0: one per core).")
@click.option("--no-pdf", "no_pdf", is_flag=True,
              help="Only the HTML pages, for a quick look (their links to the PDFs stay).")
@lang_option
@click.option("--strict", is_flag=True,
              help="A segment printed in the source language (untranslated or fuzzy) is an "
                   "error at its catalog line, not a count in the summary.")
@force_option
@quiet_option
def build(
    games: tuple[str, ...], project: Path | None, sources: Path | None, out: Path | None,
    paper: str | None, edition: str | None, booklet: bool, press: bool, draft: bool,
    changelog_since: str | None, jobs: int, no_pdf: bool, langs: tuple[str, ...], strict: bool,
    force: bool,
) -> None:
    """Build HTML and PDF rulebooks into the output folder."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it (ReportLab)
        from rulepress.build import build_rulebooks

        where = Where.of(project, sources, games)
        where.folders(out, "build")
        target = out or where.project.path(where.project.build)
        source, others = where.languages(langs)
        also = []
        if others:
            # Babel: only when there are translations
            from rulepress.i18n.books import TranslatedBooks, TranslationOptions

            options = TranslationOptions(others, where.project.languages[0],
                                         where.papers(paper), where.editions(edition),
                                         booklet, strict)
            also = [TranslatedBooks(options, pdf=not no_pdf)]
        built = build_rulebooks(
            where.sources, target, games=where.games, papers=where.papers(paper),
            draft=draft, jobs=jobs, editions=where.editions(edition),
            project=where.project.root, title=where.project.title, booklet=booklet,
            press=press, reporter=reporter, pdf=not no_pdf, force=force,
            changelog_since=changelog_since, source=source, also=also,
        )
        reporter.done("\n".join([built.summary(), *(n for g in also for n in g.notes)]))
        return ExitStatus.OK

    _run(action)


@games_command
@out_option("pnp")
@paper_option
@click.option(
    "--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
    help="The edge your printer flips double-sided pages on.",
)
@click.option(
    "--sides", type=click.Choice(["two", "one"]), default="two", show_default=True,
    help="two: backs printed on the reverse (duplex); one: fronts only, each piece with a back "
         "printed beside it as a gutter-fold pair.",
)
@click.option(
    "--ink", type=click.Choice(["normal", "low"]), default="normal", show_default=True,
    help="low: outlines and light tints, no full-bleed backgrounds.",
)
@click.option(
    "--only", metavar="ID[,ID]", default=None,
    help="Print only these components (ids from the front matter), e.g. a spare deck.",
)
@click.option("--bleed", type=float, default=3.0, show_default=True, help="Bleed in mm.")
@click.option(
    "--changed-since", "changed_since", metavar="OLD", default=None,
    help="Only the faces that differ from OLD (a git revision of the project, or a project "
         "folder), with their backs: replacement parts for a kit printed from OLD.",
)
@click.option(
    "--proof", is_flag=True,
    help="Instead of the kits, write one page per game (<game>-proof.pdf) showing each distinct "
         "face once at 1:1 with its trim and safe-area lines.",
)
@click.option(
    "--press", is_flag=True,
    help="The kits for a print shop (<game>-a4-press.pdf): PDF/X-1a, every colour CMYK.",
)
@lang_option
@click.option("--strict", is_flag=True,
              help="A text a translated kit would print in the source language (a card's, a "
                   "layout's, the theme's) is an error at its catalog line.")
@force_option
@quiet_option
def pnp(
    games: tuple[str, ...], project: Path | None, sources: Path | None, out: Path | None,
    paper: str | None, duplex: str, sides: str, ink: str, only: str | None, bleed: float,
    changed_since: str | None, proof: bool, press: bool, langs: tuple[str, ...], strict: bool,
    force: bool,
) -> None:
    """Draw the print-and-play kits (or, with --proof, a proof page of every face)."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it (ReportLab)
        from rulepress.build import build_kits

        where = Where.of(project, sources, games)
        where.folders(out, "pnp")
        target = out or where.project.path(where.project.pnp)
        chosen = None if only is None else tuple(i.strip() for i in only.split(","))
        source, others = where.languages(langs)
        also = []
        if others:
            # Babel: only when there are translations
            from rulepress.i18n.kits import TranslatedKitOptions, TranslatedKits

            also = [TranslatedKits(TranslatedKitOptions(
                where.papers(paper), duplex, bleed, proof, sides, ink, chosen,
                langs=others, source=where.project.languages[0]), strict=strict)]
        built = build_kits(
            where.sources, target, games=where.games, papers=where.papers(paper),
            duplex=duplex, bleed_mm=bleed, project=where.project.root, reporter=reporter,
            proof=proof, sides=sides, ink=ink, only=chosen, force=force,
            changed_since=changed_since, source=source, also=also, press=press,
        )
        reporter.done(built.summary())
        return ExitStatus.OK

    _run(action)


@main.command()
@click.argument("game")
@project_option
@sources_option
@out_option("pnp")
@click.option("--to", "target", type=click.Choice(["tts", "tgc", "mpc", "dtc"]), required=True,
              help="tts: a Tabletop Simulator saved object; tgc, mpc: The Game Crafter's or "
                   "MakePlayingCards' images; dtc: DriveThruCards' CMYK PDFs.")
@click.option("--base-url", default=None, metavar="URL",
              help="tts: the http(s) address you upload the images to, so TTS can fetch "
                   "them. Default: each image's name, relative to the saved object's folder.")
@click.option("--skip", metavar="ID[,ID]", default=None,
              help="Leave out these components (e.g. pieces the house cannot print).")
@click.option("--strict", is_flag=True, help="Preflight findings are errors, not warnings.")
@lang_option
@force_option
@quiet_option
def export(game: str, project: Path | None, sources: Path | None, out: Path | None, target: str,
           base_url: str | None, skip: str | None, strict: bool, langs: tuple[str, ...],
           force: bool) -> None:
    """Export GAME's components for Tabletop Simulator or a print-on-demand house, into
    pnp/GAME/<target>/ (docs/export-<target>.md says what to upload where)."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it (ReportLab, pypdf, numpy)
        from rulepress.export.generator import Exporter, ExportOptions
        from rulepress.export.generator import base_url as checked_url
        from rulepress.pipeline import Generator, Paths, RunOptions, run
        from rulepress.validate.hooks import EVERY

        where = Where.of(project, sources, (game,))
        where.folders(out, "pnp")
        target_dir = out or where.project.path(where.project.pnp)
        url = checked_url(base_url) if base_url is not None else ""
        if url and target != "tts":
            raise RulepressError.at(None, f"--base-url is for --to tts, not --to {target}")
        left_out = tuple(i.strip() for i in skip.split(",")) if skip else ()
        options = ExportOptions(target, os.path.abspath(target_dir), url, left_out, strict)
        source, others = where.languages(langs)
        exporters: list[Generator] = [Exporter(options)] if source else []
        if others:  # each translation's, into pnp/GAME/LANG/<target>/
            # Babel: only when there are translations
            from rulepress.i18n.exports import TranslatedExporter

            exporters.append(TranslatedExporter(options, others, where.project.languages[0]))
        built = run(Paths(where.sources, target_dir, where.project.root), exporters,
                    reporter, RunOptions(where.games, force), EVERY)
        reporter.done(built.summary())
        return ExitStatus.OK

    _run(action)


@main.command()
@click.argument("old")
@click.argument("rest", nargs=-1, metavar="[NEW] [GAME]...")
@project_option
@sources_option
@out_option("build")
@paper_option
@lang_option
@click.option("--strict", is_flag=True,
              help="A word a translated errata sheet would print in the source language (the "
                   "theme's, a rule's, a card's) is an error at its catalog line.")
@force_option
@quiet_option
def diff(old: str, rest: tuple[str, ...], project: Path | None, sources: Path | None,
         out: Path | None, paper: str | None, langs: tuple[str, ...], strict: bool,
         force: bool) -> None:
    """Write an errata sheet per game: what changed from OLD to NEW (git revisions of the
    project, or project folders; NEW defaults to the working tree), both proven, into
    build/GAME/errata/GAME-errata-OLD-NEW.html and a PDF per paper; and one in each of the
    project's translations, into build/GAME/LANG/errata/."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it (ReportLab)
        from rulepress.errata import diff as run_diff

        where = Where.of(project, sources, ())
        new, games = _new_and_games(rest, where)
        where = Where.of(project, sources, games)
        where.folders(out, "build")
        target = out or where.project.path(where.project.build)
        source, others = where.languages(langs)
        notes: list[str] = []
        built = run_diff(where.project, where.sources, target, old, new, where.games,
                         where.papers(paper), reporter, force, others, source, strict, notes)
        reporter.done("\n".join([built.summary(), *notes]))
        return ExitStatus.OK

    _run(action)


def _new_and_games(rest: tuple[str, ...], where: Where) -> tuple[str | None, tuple[str, ...]]:
    """``diff OLD [NEW] [GAME]...``: a lone word after OLD is a game when the sources hold a
    game of that name and it is not a folder, else NEW."""
    if not rest:
        return None, ()
    first = rest[0]
    is_game = (where.sources / first / "rules.md").is_file() and not Path(first).is_dir()
    if len(rest) == 1 and is_game:
        return None, rest
    return first, rest[1:]


@games_command
@out_option("build")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="The port on 127.0.0.1 (0: any free one). Default: 8000, else a free one.")
@lang_option
@quiet_option
def serve(games: tuple[str, ...], project: Path | None, sources: Path | None, out: Path | None,
          port: int | None, langs: tuple[str, ...]) -> None:
    """Preview the rulebooks in a browser: serve their pages on 127.0.0.1, rebuild a game
    when its files change and reload the page; a PDF is rendered when its link is opened."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it
        from rulepress.document.reader import source_games
        from rulepress.serve.builder import Settings
        from rulepress.serve.server import serve as run_server

        where = Where.of(project, sources, games)
        where.folders(out, "build")
        _, others = where.languages(langs)  # the source's pages are always served
        settings = Settings(where.sources.resolve(),
                            (out or where.project.path(where.project.build)).resolve(),
                            where.project.root, where.papers(None), where.editions(None),
                            where.project.title, where.project.path(where.project.pnp),
                            (where.project.languages[0], *others),
                            Budget(where.project.engine_seconds, where.project.engine_memory_mb))
        served = source_games(where.sources, where.games)

        def say(line: str) -> None:
            if not reporter.quiet or ": error: " in line or ": warning: " in line:
                click.echo(line, err=True)

        run_server(settings, served, port, say, follow=not where.games)
        return ExitStatus.OK

    _run(action)


@games_command
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="A language to translate into (de, pt_BR); repeat for more. Default: the "
                   "project's languages but the first (rulepress.toml's languages).")
@quiet_option
def translate(games: tuple[str, ...], project: Path | None, sources: Path | None,
              langs: tuple[str, ...]) -> None:
    """Write each game's translation template (locales/<game>.pot) and create or update its
    catalogs (locales/LANG.po), merged as msgmerge does."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it (Babel)
        from rulepress.document.reader import read_sources
        from rulepress.i18n.translate import theme_line
        from rulepress.i18n.translate import translate as run

        where = Where.of(project, sources, games)
        where.folders()
        wanted = langs or where.project.languages[1:]
        if not wanted:
            raise RulepressError.at(None, "name a language: --lang de (or list it in "
                                          "rulepress.toml: languages = [\"en\", \"de\"])")
        for doc in read_sources(where.sources, where.games):
            for done in run(doc, wanted, where.project.languages[0], where.project.root):
                reporter.diagnostics(list(done.updated.warnings))
                reporter.done(done.line())
                theme = theme_line(doc, done.lang)
                if theme is not None:
                    reporter.done(theme)
        # the command's own: --help and --version load none of it
        from rulepress.project import CONFIG, add_languages

        added = add_languages(where.project, wanted)
        if added:  # so that check, build and pnp make them from now on
            reporter.done(f"{CONFIG}: added {', '.join(added)} to the project's languages "
                          f"({', '.join(where.project.languages + added)})")
        return ExitStatus.OK

    _run(action)


@main.command()
@click.argument("game")
@project_option
@sources_option
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output folder. Default: the project's build/GAME/simulation/.")
@click.option("--games", "-n", type=int, default=sim.DEFAULT_GAMES, show_default=True,
              help="Games at each table (each player count and variant).")
@click.option("--players", "-p", default=None,
              help="Player counts: 3, 2,4 or 2-6. Default: the game's smallest.")
@click.option("--variant", default=None, help="Variants, e.g. standard,slalom. Default: the "
              "game's standard one.")
@click.option("--agent", "-a", default=None,
              help="Agents taking the seats in turn, e.g. greedy or random,greedy; or a "
                   "search of N playouts a move: flat:N, mcts:N, ismcts:N. Default: random.")
@click.option("--seed", type=int, default=sim.DEFAULT_SEED, show_default=True,
              help="The run's seed; each game's seed comes from it and the game's number.")
@click.option("--jobs", "-j", type=int, default=0, help="Worker processes (0: one per core).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on this Dask scheduler (e.g. tcp://10.0.0.5:8786) instead.")
@click.option("--max-turns", type=int, default=sim.DEFAULT_MAX_TURNS, show_default=True,
              help="A game still going after this many turns stops, counted as unfinished.")
@click.option("--seconds-per-turn", type=float, default=sim.DEFAULT_SECONDS_PER_TURN,
              show_default=True,
              help="For game length in minutes (above 0, at most a day: 86400).")
@click.option("--check", is_flag=True, help="Check the game's invariants on every state.")
@click.option("--duplicate", is_flag=True,
              help="Play each of the GAMES deals once per rotation of the agents over the "
                   "seats, with the same chance: intervals over deals, on equal luck.")
@click.option("--ladder", default=None, metavar="AGENTS",
              help="Rank these agents (e.g. random,greedy,ismcts:100): every pair plays the "
                   "same deals head to head, duplicate; Elo with intervals, levels, luck "
                   "share, and the strongest's seat balance.")
@click.option("--until", default=None, metavar="±X%",
              help="Stop once the first player's win rate is known to ±X% (at most GAMES "
                   "games); with --ladder, for the strongest agent's seat balance.")
@click.option("--adaptive", is_flag=True,
              help="With --ladder: stop playing a pair once its result is decided (after 10 "
                   "deals, its 95% confidence sequence clear of an even score), so close pairs "
                   "get the time; GAMES is each pair's most.")
@click.option("--handicap", type=int, default=None,
              help="Play with the game's numeric handicap at this value (e.g. Pigeon Race: "
                   "points to every player but the first).")
@click.option("--compensate", is_flag=True,
              help="Find the handicap value that evens the first player's chances, by "
                   "bisection (GAMES games a value tried).")
@click.option("--tension", is_flag=True,
              help="Count lead changes and comebacks (for a game with running scores).")
@click.option("--quiet", "-q", is_flag=True, help="No progress.")
def simulate(
    game: str, project: Path | None, sources: Path | None, out: Path | None, games: int,
    players: str | None, variant: str | None, agent: str | None, seed: int, jobs: int,
    scheduler: str | None, max_turns: int, seconds_per_turn: float, check: bool,
    duplicate: bool, ladder: str | None, until: str | None, adaptive: bool,
    handicap: int | None, compensate: bool, tension: bool, quiet: bool,
) -> None:
    """Play GAME many times and write statistics and plots: how long games last, how they
    end, who wins (by seat, by agent) and the game's own questions, with 95% intervals."""

    def action(reporter: Reporter) -> ExitStatus:
        # the command's own: --help and --version load none of it
        from rulepress.project import Folder, no_links_below, simulation_apart
        from rulepress.simulate.generator import simulate_game
        from rulepress.simulate.summary import Options

        where = Where.of(project, sources, (game,))
        found = where.folders()
        target = out or where.project.path(where.project.build) / game / "simulation"
        chosen = Folder(target, f"--out {out or f'(by default {_shown(target, where)})'}", None)
        if out is not None:
            simulation_apart(chosen, found["sources"], [found["build"], found["pnp"]])
        # Under the sources, only a game's own folders are checked (the sources may be a link).
        no_links_below(where.sources if _within(target, where.sources) else where.project.root,
                       chosen)
        options = Options(games, players, variant, agent, seed, max_turns, seconds_per_turn,
                          check, duplicate, ladder, until, handicap, compensate, tension,
                          adaptive)
        done = simulate_game(game, where.sources, where.project.root, options, target,
                             jobs=jobs, scheduler=scheduler, reporter=None if quiet else reporter)
        reporter.done(done)
        return ExitStatus.OK

    _run(action)


def _shown(path: Path, where: Where) -> str:
    """``path`` as the user would write it: relative to the project, if inside it."""
    inside = _within(path, where.project.root)
    return str(Path(os.path.abspath(path)).relative_to(where.project.root) if inside else path)


def _within(path: Path, folder: Path) -> bool:
    return Path(os.path.abspath(path)).is_relative_to(os.path.abspath(folder))


if __name__ == "__main__":
    main()
