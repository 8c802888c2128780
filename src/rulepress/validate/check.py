"""Check phase: replay every example in its engine, cross-check components, collect verdicts."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from rulepress.document.reader import SIMULATION_INFO
from rulepress.document.yamlines import KeyPath
from rulepress.games import UnknownEngine, contract, load_engine
from rulepress.games.base import ExampleDataError, Figure, GameEngine
from rulepress.games.contract import Malformed
from rulepress.games.fault import blamed, library_raised
from rulepress.prose import render_prose
from rulepress.validate.results import RenderedExample, Status

if TYPE_CHECKING:
    from rulepress.cache import Kept


@dataclass
class DocumentCheck:
    doc: Document
    engine: GameEngine | None
    examples: dict[str, RenderedExample] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    kit_at: int = 0  # where the kit's diagnostics go among them (after the engine's)

    def add_kit(self, found: Sequence[Diagnostic]) -> None:
        self.diagnostics[self.kit_at:self.kit_at] = found


@dataclass
class CheckReport:
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


def check_documents(
    docs: Sequence[Document], *, project: Path | None = None, draw: bool = False
) -> CheckReport:
    """The one check phase of every command: examples, components, references, images, glyphs,
    drawers and kit counts, all diagnostics collected. ``project``: the folder engine modules
    are loaded from. ``draw``: also draw each proven example's figures (only the build needs
    them)."""
    return CheckReport([check_document(doc, project=project, draw=draw) for doc in docs])


def check_document(
    doc: Document, *, project: Path | None = None, draw: bool = False, kit: bool = True,
    kept: Kept | None = None,
) -> DocumentCheck:
    """One game's part of check_documents. ``kit=False`` leaves its kit to the caller
    (check_kit, then add_kit: the build checks it while the game's PDFs start); ``kept``: plots
    drawn by an earlier run, taken when drawn from the same inputs."""
    from rulepress.render.glyphs import check_glyphs
    from rulepress.render.references import check_references

    result = DocumentCheck(doc, None)
    if doc.meta.engine:
        try:
            result.engine = load_engine(doc.meta.engine, project)
        except UnknownEngine as exc:
            result.diagnostics.append(error(exc.loc or doc.meta.engine_loc, str(exc)))
    engine = result.engine
    if engine is not None:
        result.diagnostics += guarded(lambda: cross_check_components(doc, engine), engine,
                                      "counting its components", doc.meta.engine_loc)
    result.kit_at = len(result.diagnostics)
    if kit:
        result.add_kit(check_kit(result))
    for example in doc.boxes:
        if example.kind == SIMULATION_INFO:
            from rulepress.simulate.report import check_simulation

            try:
                diags, rendered = check_simulation(doc, example, project, draw=draw, kept=kept)
            except Exception as exc:  # noqa: BLE001 - an engine's own error, at its line
                diags = [engine_raised(exc, engine, f"playing {example.id}", example.loc)]
                rendered = RenderedExample(example.id, example.title, example.text, (), (),
                                           (), Status.FAILED)
        else:
            diags, rendered = check_example(example, engine, draw=draw)
        if engine is None and doc.meta.engine:
            diags = [d for d in diags if d.severity is Severity.ERROR]  # the engine error says it
        result.diagnostics += diags
        result.examples[example.id] = rendered
    result.diagnostics += check_references(doc)
    result.diagnostics += check_glyphs(doc, result.examples)
    return result


def check_kit(result: DocumentCheck) -> list[Diagnostic]:
    """The game's kit, drawn and counted: its faces' data, drawers and text (none without a
    kit). Part of check_document, which ``kit=False`` leaves to the caller (add_kit)."""
    doc, engine = result.doc, result.engine
    if not any(c.in_kit for c in doc.meta.components):
        return []
    from rulepress.pnp.kit import kit_diagnostics

    return guarded(lambda: kit_diagnostics(doc, contract.drawers(engine), contract.tables(engine)),
                   engine, "drawing its kit", doc.meta.engine_loc)


def cross_check_components(doc: Document, engine: GameEngine) -> list[Diagnostic]:
    found: list[Diagnostic] = []
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


def check_example(
    example: Example, engine: GameEngine | None, *, draw: bool = False
) -> tuple[list[Diagnostic], RenderedExample]:
    diags: list[Diagnostic] = []
    figures: Sequence[Figure] = ()
    if engine is None:
        diags.append(warning(example.loc, f"{example.id}: not checkable: the game has no engine"))
        status = Status.NOT_CHECKABLE
    else:
        try:
            facts = contract.facts(engine, example.data)
        except ExampleDataError as exc:
            diags.append(error(example.line_of(exc.path), f"{example.id}: {exc.message}"))
        except Exception as exc:  # noqa: BLE001 - the engine's own error, at its line
            diags.append(engine_raised(exc, engine, f"replaying {example.id}", example.loc))
        else:
            diags += _claim_errors(example, engine.name, facts)
            if draw and not diags:
                try:
                    figures = contract.figures(engine, example.data)
                except Exception as exc:  # noqa: BLE001
                    diags.append(engine_raised(exc, engine, f"drawing {example.id}",
                                               example.loc))
        status = Status.FAILED if diags else Status.PROVEN
    prose, prose_diags = render_prose(example)
    diags += prose_diags
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


def engine_raised(exc: Exception, engine: GameEngine | None, doing: str,
                  source: SourceLoc | None) -> Diagnostic:
    """An engine's exception as an error at the line of its code that raised it (a malformed
    value: at the method that returned it), naming what it was doing and for which line of the
    source; rulepress's own exceptions are re-raised."""
    at = f" ({source})" if source is not None else ""
    if isinstance(exc, Malformed):
        return error(exc.loc or source, exc.said(f"{doing}{at}"))
    library = library_raised(exc)
    if library is not None:  # rulepress called it directly: no engine code ran
        return error(source, f"{library} failed ({type(exc).__name__}) while {doing}")
    loc, raised = blamed(exc)
    name = f"the {engine.name} engine" if engine is not None else "the engine"
    return error(loc, f"{name} raised {raised} while {doing}{at}")


def guarded(check: Callable[[], list[Diagnostic]], engine: GameEngine | None, doing: str,
            source: SourceLoc | None) -> list[Diagnostic]:
    """``check()``'s diagnostics, or the error the engine raised while it ran."""
    try:
        return check()
    except Exception as exc:  # noqa: BLE001 - an engine's own error, at its line
        return [engine_raised(exc, engine, doing, source)]


def _claim_errors(example: Example, engine: str, facts: Mapping[str, Any]) -> list[Diagnostic]:
    """One error per claim the facts do not bear out, at the claim's own line."""
    found: list[Diagnostic] = []
    for path, claimed, computed in compare(example.claims, facts):
        name = ".".join(map(str, path))
        said = f"{example.id}: claims {name} = {show(claimed)}"
        if computed is _MISSING:
            message = f"{said}, but the {engine} engine computes no fact '{name}'"
            if len(path) == 1:  # a designer cannot see which facts there are without the code
                known = sorted(map(str, facts))
                near = difflib.get_close_matches(name, known, n=1)
                message += (f" (did you mean '{near[0]}'?)" if near else "") + (
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
