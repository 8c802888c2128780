"""Check phase: replay every example in its engine, cross-check components, collect verdicts."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulepress import memo
from rulepress.cache import digest
from rulepress.diagnostics import (
    Diagnostic,
    ExitStatus,
    Severity,
    SourceLoc,
    disproved,
    error,
    exit_status,
    warning,
)
from rulepress.document.model import Document, Example
from rulepress.document.numbers import check_numbers, remember, uses_numbers
from rulepress.document.reader import SIMULATION_INFO
from rulepress.document.rows import counts_from_tables, table_counts
from rulepress.document.yamlines import KeyPath
from rulepress.games import UnknownEngine, contract, load_engine
from rulepress.games.base import ExampleDataError, Figure, GameEngine
from rulepress.host import engine_raised, engine_workers
from rulepress.prose import render_prose
from rulepress.suggest import suggest
from rulepress.validate.hooks import NONE, Hooks
from rulepress.validate.results import RenderedExample, Status
from rulepress.workers import Workers, WorkerStopped, unit

if TYPE_CHECKING:
    from rulepress.write import Kept


@dataclass
class DocumentCheck:
    doc: Document
    engine: GameEngine | None
    examples: dict[str, RenderedExample] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    kit_at: int = 0  # where the kit's diagnostics go among them (after the engine's)
    # What the game was checked from (its folder, text and examples as checked): the key of
    # what is kept of its checks (memo.py); None: nothing is.
    key: str | None = None

    def add_kit(self, found: Sequence[Diagnostic]) -> None:
        def mistake(d: Diagnostic) -> tuple[Any, str]:  # an engine's error, whatever it was doing
            return d.loc, d.message.split(" while ")[0]

        said = {mistake(d) for d in self.diagnostics}  # once, not again for the kit
        self.diagnostics[self.kit_at:self.kit_at] = [d for d in found if mistake(d) not in said]


@dataclass
class CheckedPrinting:
    """A printing checked: each game's check, in the order read."""

    documents: list[DocumentCheck]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for c in self.documents for d in c.diagnostics]

    @property
    def status(self) -> ExitStatus:
        return exit_status(self.diagnostics)

    def count(self, status: Status, *, reports: bool = False) -> int:
        """Examples (or, with ``reports``, playtest reports) of this status."""
        return sum(1 for c in self.documents for e in c.examples.values()
                   if e.status is status and _is_report(c.doc, e.id) == reports)

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    def summary(self) -> str:
        # A report that cannot be checked (its summary missing) is no disproved example.
        reports = self.count(Status.SIMULATED, reports=True)
        stale = self.count(Status.FAILED, reports=True)
        return (
            f"{self.count(Status.PROVEN)} proven, {self.count(Status.FAILED)} failed, "
            f"{self.count(Status.NOT_CHECKABLE)} not checkable"
            + (f", {reports} playtest report{'s' * (reports > 1)} up to date" if reports else "")
            + (f", {stale} playtest report{'s' * (stale > 1)} not up to date" if stale else "")
        )


def _is_report(doc: Document, example_id: str) -> bool:
    return any(e.id == example_id for e in doc.reports)


def check_game(
    doc: Document, *, project: Path | None = None, draw: bool = False, kit: bool = True,
    kept: Kept | None = None, engines: EngineChecks,
) -> DocumentCheck:
    """One game's part of validate.check_printing, its engine's tasks in ``engines``.
    ``kit=False`` leaves its kit to the caller (check_kit, then add_kit: the build checks it
    while the game's PDFs start); ``kept``: plots drawn by an earlier run, taken when drawn
    from the same inputs."""
    result = DocumentCheck(doc, None)
    if doc.meta.engine:
        try:
            result.engine = load_engine(doc.meta.engine, project)
        except UnknownEngine as exc:
            result.diagnostics.append(error(exc.loc or doc.meta.engine_loc, str(exc)))
    engine = result.engine
    hooks = engines.hooks
    done: dict[Item, Any] = {}
    items: list[Item] = [Whole.COUNTS, *range(len(doc.boxes))]
    if engine is not None:
        engines.add(doc, engine)
        engines.ask(doc, tasks(doc, hooks, kit=kit))
    kit_found = check_kit(result, engines) if kit else []
    if engine is not None:
        done = engines.answers(doc, items)
    counted = done.get(Whole.COUNTS, ([], ()))[0]
    result.diagnostics += counted
    if counts_from_tables(doc) and engine is not None and not counted:  # tried in the worker
        result.doc = table_counts(doc, contract.tables(engine))
    if uses_numbers(doc) and not counted:  # the worker checked them: their values, for the book
        result.diagnostics += (check_numbers(doc, None, "") if not doc.meta.engine else [])
        if engine is not None:
            remember(doc, contract.tables(engine))
    result.kit_at = len(result.diagnostics)
    result.add_kit(kit_found)
    for n, example in enumerate(doc.boxes):
        if example.kind == SIMULATION_INFO:
            diags, rendered = _playtest(doc, example, engine, project, draw, kept, done.get(n),
                                        hooks)
        else:
            diags, rendered = check_example(example, engine, draw=draw,
                                            replayed=done.get(n))
        if engine is None and doc.meta.engine:
            diags = [d for d in diags if d.severity is Severity.ERROR]  # the engine error says it
        result.diagnostics += diags
        result.examples[example.id] = rendered
    result.key = engines.hooks_key(doc, result)
    result.diagnostics += _document_hooks(doc, result, engines)
    return result


def _document_hooks(doc: Document, game: DocumentCheck,
                    engines: EngineChecks) -> list[Diagnostic]:
    """What the hooks that check the whole game (``doc`` as read) say of it, kept (memo.py) by
    all they read: the game's folder, its text and its examples as checked."""
    documents = engines.hooks.documents()
    if not documents:
        return []
    key = None if game.key is None else digest(game.key, engines.hooks.names)
    kept = memo.diagnostics_in(memo.get(key)) if key is not None else None
    if kept is not None:
        return kept
    found = [d for hook in documents for d in hook.check(doc, game.examples)]
    memo.put(key, memo.diagnostics_out(found))
    return found


def _playtest(doc: Document, block: Example, engine: GameEngine | None, project: Path | None,
              draw: bool, kept: Kept | None, played: Any,
              hooks: Hooks) -> tuple[list[Diagnostic], RenderedExample]:
    """A playtest report's check; ``played``: its sample as the engine's worker played it
    (the report hook's sample), the exception that raised, or the errors that stopped it."""
    if isinstance(played, tuple):  # the engine raised, or its worker stopped
        return played[0], RenderedExample(block.id, block.title, block.text, (), (), (),
                                          Status.FAILED)
    report = hooks.report()
    if report is None:  # no hook here reports it
        return [], RenderedExample(block.id, block.title, block.text, (), (), (),
                                   Status.NOT_CHECKABLE)
    try:
        return report.check(doc, block, project, draw=draw, kept=kept, sampled=played)
    except BaseException as exc:  # noqa: BLE001 - an engine's own error, at its line
        return [engine_raised(exc, engine, f"playing {block.id}", block.loc)], RenderedExample(
            block.id, block.title, block.text, (), (), (), Status.FAILED)


class Whole(enum.Enum):
    """A game's engine tasks besides its examples (which are named by their index)."""

    KIT = "drawing its kit"
    COUNTS = "counting its components"


Item = Whole | int  # one engine task of a game


class EngineChecks:
    """The engine code of a check, in a worker process (workers.py) while this one checks the
    rest: each game's kit drawn (its drawers and tables), its component counts, each example
    replayed (and drawn, with ``draw``), a playtest report's first games played. The worker is
    forked once every game's engine is loaded, so it has them all, and keeps what it loads
    from game to game (fonts, libraries): one worker, as a second would load them again and
    make check no quicker on two cores. An engine that exits, crashes or runs
    past its budget fails the task it was on: an error at the example's line, else at the
    game's engine: line. ``hooks``: what the generators add, some of it engine code run
    here."""

    def __init__(self, docs: Sequence[Document], project: Path | None, draw: bool, *,
                 hooks: Hooks = NONE) -> None:
        self.hooks = hooks
        self.docs = {doc.slug: doc for doc in docs}
        self.project, self.draw = project, draw
        self.done: dict[tuple[str, Item], Any] = {}
        self.asked: set[tuple[str, Item]] = set()
        self.keys: dict[str, str | None] = {}  # each game's memo key
        self.pool: Workers[tuple[str, Item]] = engine_workers(self._run, 1)
        self.engines: dict[str, GameEngine] = {}  # loaded before the fork: the workers have them
        for doc in docs:
            with suppress(UnknownEngine):
                if doc.meta.engine:
                    self.engines[doc.slug] = load_engine(doc.meta.engine, project)
        for doc in docs:  # every task asked now: none waits for this process to reach its game
            if doc.slug in self.engines:
                self.ask(doc, tasks(doc, hooks))

    def __enter__(self) -> EngineChecks:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.__exit__(None, None, None)

    def add(self, doc: Document, engine: GameEngine) -> None:
        """Make ``doc``, checked with ``engine``, one of its games (a game it was made with is
        in it already)."""
        self.docs.setdefault(doc.slug, doc)
        self.engines.setdefault(doc.slug, engine)

    def ask(self, doc: Document, items: Sequence[Item]) -> None:
        """Start ``doc``'s tasks ``items`` (its engine must be loaded); one whose answer is
        kept (memo.py) is answered at once."""
        for item in items:
            if (doc.slug, item) not in self.asked:
                self.asked.add((doc.slug, item))
                kept = self._kept(doc, item)
                if kept is not None:
                    self.done[(doc.slug, item)] = kept
                else:
                    self.pool.submit((doc.slug, item))

    def _base_key(self, doc: Document) -> str | None:
        """The game's memo key: its engine's inputs (the game's folder with its source's front
        matter, not its prose: a saved paragraph keeps them)."""
        if doc.slug not in self.keys:
            self.keys[doc.slug] = memo.engine_key(doc.folder, doc.path, doc.meta.engine,
                                                   self.project, "check")
        return self.keys[doc.slug]

    def hooks_key(self, doc: Document, game: DocumentCheck) -> str | None:
        """The key of ``doc`` as checked: the game's key, its text (every part) and its
        examples as ``game`` checked them (their prose and figures)."""
        base = self._base_key(doc)
        if base is None:
            return None
        examples = [[e.id, e.status.value, e.prose, e.claims,
                     [[f.caption, f.svg, f.narrow] for f in e.figures]]
                    for e in game.examples.values()]
        return digest(base, "checked", [[str(p.path), p.first_line, p.text] for p in doc.parts],
                      examples)

    def _memo_key(self, doc: Document, item: Item) -> str | None:
        """A kit's, an example's or a playtest report's key: the game's key and the block's
        own data and claims."""
        if item is Whole.COUNTS:
            return None
        base = self._base_key(doc)
        if base is None:
            return None
        if item is Whole.KIT:
            return digest(base, "kit")
        block = doc.boxes[item]
        return digest(base, block.kind, block.id,
                      json.dumps([block.data, block.claims], default=repr), self.draw)

    def _kept(self, doc: Document, item: Item) -> Any:
        value = memo.get(self._memo_key(doc, item))
        if value is None or item is Whole.COUNTS:
            return None
        if item is Whole.KIT:
            return memo.diagnostics_in(value)
        if doc.boxes[item].kind != SIMULATION_INFO:  # a proven example's figures
            try:
                return [], tuple(Figure(str(c), str(s), str(n)) for c, s, n in value)
            except (TypeError, ValueError):
                return None
        try:  # a playtest report's sample: {table: {game number: line}}
            return {str(t): {int(i): str(line) for i, line in games.items()}
                    for t, games in value.items()}
        except (AttributeError, TypeError, ValueError):
            return None

    def _keep(self, doc: Document, item: Item, value: Any) -> None:
        """Keep a task's answer for the next check with the same inputs: a kit's diagnostics,
        a proven example's figures, a playtest report's sample (not an engine's failure:
        reported afresh each time)."""
        key = self._memo_key(doc, item)
        if key is None or item is Whole.COUNTS:
            return
        if item is Whole.KIT:
            if isinstance(value, list) and all(isinstance(d, Diagnostic) for d in value):
                memo.put(key, memo.diagnostics_out(value))
        elif doc.boxes[item].kind != SIMULATION_INFO:
            # Proven only: an example's errors are at its lines, which move as prose does.
            if isinstance(value, tuple) and value[0] == []:
                memo.put(key, [[f.caption, f.svg, f.narrow] for f in value[1]])
        elif isinstance(value, dict):
            memo.put(key, {t: {str(i): line for i, line in games.items()}
                           for t, games in value.items()})

    def answers(self, doc: Document, items: Sequence[Item]) -> dict[Item, Any]:
        """Each task's answer, waiting for those not in yet (asking for any not asked)."""
        self.ask(doc, items)
        keys = [(doc.slug, item) for item in items]
        results = self.pool.results()
        while any(key not in self.done for key in keys):
            key, value = next(results)
            if isinstance(value, WorkerStopped):
                value = self._stopped(key, value)
            else:
                self._keep(self.docs[key[0]], key[1], value)
            self.done[key] = value
        for key in keys:
            self.asked.discard(key)
        return {key[1]: self.done.pop(key) for key in keys}

    def _stopped(self, key: tuple[str, Item], stopped: WorkerStopped) -> Any:
        doc, engine, item = self.docs[key[0]], self.engines[key[0]], key[1]
        if isinstance(item, Whole):
            doing, loc = item.value, doc.meta.engine_loc
        else:
            example = doc.boxes[item]
            verb = "playing" if example.kind == SIMULATION_INFO else "replaying"
            doing, loc = f"{verb} {example.id}", example.loc
        found = [error(loc, f"the {engine.name} engine {stopped.how} while {doing}")]
        return found if item is Whole.KIT else (found, ())

    def _run(self, key: tuple[str, Item]) -> Any:
        """In a worker: the kit's diagnostics; the counts' or an example's Replayed; a playtest
        report's sample (the report hook's), the exception it gave, or the engine's error
        (Replayed)."""
        doc, item, engine = self.docs[key[0]], key[1], self.engines[key[0]]
        if item is Whole.KIT:
            with unit(-1):  # the game's own task, no example's
                return _kit(doc, engine, self.hooks)
        if item is Whole.COUNTS:
            with unit(-1):
                return guarded(lambda: cross_check_components(doc, engine), engine,
                               "counting its components", doc.meta.engine_loc), ()
        example = doc.boxes[item]
        if example.kind != SIMULATION_INFO:
            with unit(item):
                return replay(example, engine, draw=self.draw)
        report = self.hooks.report()
        if report is None:
            return None
        try:
            return report.sample(doc, example, self.project)  # each game in a unit()
        except BaseException as exc:  # noqa: BLE001 - an engine's own error, at its line
            return [engine_raised(exc, engine, f"playing {example.id}", example.loc)], ()


def tasks(doc: Document, hooks: Hooks, *, kit: bool = True) -> list[Item]:
    """The engine's tasks of a game's check, the longest first."""
    first: list[Item] = [Whole.KIT] if kit and hooks.kits() and _has_kit(doc) else []
    return [*first, Whole.COUNTS, *range(len(doc.boxes))]


def _has_kit(doc: Document) -> bool:
    return any(c.in_kit for c in doc.meta.components)


def check_kit(result: DocumentCheck, engines: EngineChecks) -> list[Diagnostic]:
    """The game's kit, drawn and counted: its faces' data, drawers and text (none without a
    kit), in the check's workers (``engines``) when it has an engine. Part of check_game,
    which ``kit=False`` leaves to the caller (add_kit)."""
    doc, engine = result.doc, result.engine
    if not engines.hooks.kits() or not _has_kit(doc) or (engine is None and doc.meta.engine):
        return []  # an engine that failed to load: its one error says so, its tables are not
    if engine is None:  # no engine code to run: layouts only
        return _kit(doc, None, engines.hooks)
    engines.add(doc, engine)
    return engines.answers(doc, [Whole.KIT])[Whole.KIT]  # type: ignore[no-any-return]


def _kit(doc: Document, engine: GameEngine | None, hooks: Hooks) -> list[Diagnostic]:
    measures = hooks.kits()

    def check() -> list[Diagnostic]:
        tables = contract.tables(engine)
        counted, drawers = table_counts(doc, tables), contract.drawers(engine)
        return [d for kit in measures for d in kit.measure(counted, drawers, tables)]

    return guarded(check, engine, "drawing its kit", doc.meta.engine_loc)


def cross_check_components(doc: Document, engine: GameEngine) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    if counts_from_tables(doc):
        doc = table_counts(doc, contract.tables(engine))
    if uses_numbers(doc):
        found += check_numbers(doc, contract.tables(engine), engine.name)
    rules = contract.rules(engine)
    meta = doc.meta
    if rules is not None and (rules.min_players, rules.max_players) != (meta.players_min,
                                                                         meta.players_max):
        found.append(disproved(meta.players_loc, (
            f"players: the front matter says {meta.players_min}–{meta.players_max}, the "
            f"{engine.name} engine plays {rules.min_players}–{rules.max_players}")))
    declared = {c.id: c for c in doc.meta.components}
    for cid, count in sorted(contract.component_counts(engine).items()):
        comp = declared.get(cid)
        if comp is None:
            found.append(error(
                SourceLoc(doc.path, 1),
                f"the {engine.name} engine uses component '{cid}' ({count}), "
                "which the front matter does not declare",
            ))
        elif comp.count != count:
            found.append(disproved(
                comp.loc,
                f"component '{cid}': the source declares {comp.count}, "
                f"the {engine.name} engine uses {count}",
            ))
    return found


Replayed = tuple[list[Diagnostic], Sequence[Figure]]  # an example's engine errors, figures


def check_example(
    example: Example, engine: GameEngine | None, *, draw: bool = False,
    replayed: Replayed | None = None,
) -> tuple[list[Diagnostic], RenderedExample]:
    """An example's diagnostics and rendering; ``replayed``: its replay(), done already (in
    a worker), else it is replayed here."""
    diags: list[Diagnostic] = []
    figures: Sequence[Figure] = ()
    if engine is None:
        diags.append(warning(example.loc, f"{example.id}: not checkable: the game has no engine"))
        status = Status.NOT_CHECKABLE
    else:
        found, figures = replayed if replayed is not None else replay(example, engine, draw=draw)
        diags += found
        status = Status.FAILED if diags else Status.PROVEN
    prose, prose_diags = render_prose(example)
    if not any(not d.disproved and d.message.startswith(f"{example.id}: claims") for d in diags):
        diags += prose_diags  # else its text fails on the claims already said to be wrong
    rendered = RenderedExample(
        id=example.id,
        title=example.title,
        prose=prose,
        moves=tuple(str(m) for m in _as_list(example.data.get("moves"))),
        claims=tuple((k, show(v, quote=False)) for k, v in flatten(example.claims)),
        figures=tuple(figures),
        status=status,
    )
    return diags, rendered


def replay(example: Example, engine: GameEngine, *, draw: bool = False) -> Replayed:
    """The engine's part of checking ``example``: its claims against the facts, and (with
    ``draw``, when they hold) its figures."""
    diags: list[Diagnostic] = []
    figures: Sequence[Figure] = ()
    try:
        replayed = contract.replayed(engine, example.data)  # once: facts and figures read it
        facts = contract.facts(engine, replayed)
    except ExampleDataError as exc:
        diags.append(error(example.line_of(exc.path), f"{example.id}: {exc.message}"))
    except BaseException as exc:  # noqa: BLE001 - the engine's own error (an exit too), at its line
        diags.append(engine_raised(exc, engine, f"replaying {example.id}", example.loc))
    else:
        diags += _claim_errors(example, engine.name, facts)
        if draw and not diags:
            try:
                figures = contract.figures(engine, replayed, example.data)
            except BaseException as exc:  # noqa: BLE001
                diags.append(engine_raised(exc, engine, f"drawing {example.id}", example.loc))
    return diags, figures


def guarded(check: Callable[[], list[Diagnostic]], engine: GameEngine | None, doing: str,
            source: SourceLoc | None) -> list[Diagnostic]:
    """``check()``'s diagnostics, or the error the engine raised while it ran."""
    try:
        return check()
    except BaseException as exc:  # noqa: BLE001 - an engine's own error (an exit too), at its line
        return [engine_raised(exc, engine, doing, source)]


def _claim_errors(example: Example, engine: str, facts: Mapping[str, Any]) -> list[Diagnostic]:
    """One error per claim the facts do not bear out, at the claim's own line."""
    found: list[Diagnostic] = []
    if not example.claims:  # compared whole, {} would fail as "claims  = {}"
        computes = ", ".join(sorted(map(str, facts))) or "none"
        at = example.line_of(("claims",)) if ("claims",) in example.lines else example.loc
        return [error(at, f"{example.id}: claims nothing, so it "
                                                    f"proves nothing; the {engine} engine "
                                                    f"computes {computes}")]
    for path, claimed, computed in compare(example.claims, facts):
        name = ".".join(map(str, path))
        said = f"{example.id}: claims {name} = {show(claimed)}"
        if computed is _MISSING:
            message = f"{said}, but the {engine} engine computes no fact '{name}'"
            if len(path) == 1:  # a designer cannot see which facts there are without the code
                known = sorted(map(str, facts))
                message += suggest(name, known) + (
                    f"; it computes {', '.join(known)}" if known else "; it computes none")
            found.append(error(example.line_of(("claims", *path)), message))
        else:
            message = f"{said}, the rules give {show(computed)}"
            found.append(disproved(example.line_of(("claims", *path)), message))
    return found


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _norm(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _norm(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    return value


def compare(claims: Mapping[str, Any], facts: Mapping[str, Any]) -> list[tuple[KeyPath, Any, Any]]:
    """(path, claimed, computed) for every claim the facts do not bear out."""
    out: list[tuple[KeyPath, Any, Any]] = []
    _compare(_norm(claims), _norm(facts), (), out)
    return out


def _compare(claim: Any, fact: Any, path: KeyPath, out: list[tuple[KeyPath, Any, Any]]) -> None:
    if isinstance(claim, dict) and isinstance(fact, dict) and claim:
        for key, value in claim.items():
            child = (*path, _key(key))
            if key not in fact:
                out.append((child, value, _MISSING))
            else:
                _compare(value, fact[key], child, out)
    elif not _equal(claim, fact):
        out.append((path, claim, fact))


def _equal(a: Any, b: Any) -> bool:
    # bool is an int in Python; a claim of `true` must not match a fact of 1.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def _key(key: str) -> str | int:
    return int(key) if key.isdigit() else key


def flatten(value: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, Mapping) and value:
        out: list[tuple[str, Any]] = []
        for k, v in value.items():
            out += flatten(v, f"{path}.{k}" if path else str(k))
        return out
    return [(path, value)]


def show(value: Any, *, quote: bool = True) -> str:
    """A value as the example's YAML would spell it (strings quoted where it matters)."""
    if value is _MISSING:
        return "nothing"
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if quote else value
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v, quote=quote) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {show(v, quote=quote)}" for k, v in value.items()) + "}"
    return str(value)


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]
