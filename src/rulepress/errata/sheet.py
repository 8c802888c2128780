"""The errata sheet: a game's difference between two printings as an HTML page and PDFs.

First a page in plain words for players, then every rule changed, added or removed (old and
new side by side, changed words marked), every example whose data changed (each proven by its
own printing's engine), and every component whose faces changed, both drawn small.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulepress.document.model import Document
from rulepress.errata.compare import (
    ADDED,
    CHANGED,
    REMOVED,
    Difference,
    ExampleChange,
    FaceChange,
    TextChange,
    _plain,
    words,
)
from rulepress.errata.faces import Drawn, FaceId, png
from rulepress.render.html import FONT_FACES, environment, run_templates
from rulepress.validate.check import DocumentCheck
from rulepress.validate.results import Status

SUMMARY_LINES = 12  # the player summary keeps to one page
STATUS_WORDS = {
    Status.PROVEN: "Proven by this printing's rules engine.",
    Status.FAILED: "Disproved by this printing's rules engine.",
    Status.NOT_CHECKABLE: "Not checkable: this printing names no rules engine.",
    Status.SIMULATED: "From games played by this printing's rules engine.",
}


@dataclass(frozen=True)
class Printing:
    """One side as the sheet names it."""

    label: str  # as the user wrote it: v1.0, working tree
    doc: Document
    check: DocumentCheck
    faces: Mapping[FaceId, Drawn]

    @property
    def name(self) -> str:
        """'version 1.1 (working tree)', 'v1.0' ..."""
        version = self.doc.meta.version
        if not version:
            return self.label
        said = f"version {version}"
        return said if self.label in (version, f"v{version}") else f"{said} ({self.label})"


def face_changes(old: Mapping[FaceId, Drawn],
                 new: Mapping[FaceId, Drawn]) -> dict[str, tuple[FaceChange, ...]]:
    """By component id, its faces whose drawings differ (or that one side lacks)."""
    out: dict[str, list[FaceChange]] = {}
    for key in dict.fromkeys([*new, *old]):
        o, n = old.get(key), new.get(key)
        if o is not None and n is not None and o.digest == n.digest:
            continue
        kind = CHANGED if o and n else ADDED if n else REMOVED
        shown = n or o
        assert shown is not None
        side = "back" if key[1] else "front"
        out.setdefault(key[0], []).append(FaceChange(kind, f"{side} of {shown.label}",
                                                     (key[1], key[2])))
    return {cid: tuple(found) for cid, found in out.items()}


def _uri(drawn: Drawn | None) -> str | None:
    if drawn is None:
        return None
    return "data:image/png;base64," + base64.b64encode(png(drawn.pdf)).decode("ascii")


def _where(change: TextChange) -> str:
    o, n = change.old, change.new
    parts = []
    if o is not None:
        parts.append(f"was {o.file}:{o.line}")
    if n is not None:
        parts.append(f"now {n.file}:{n.line}")
    return ", ".join(parts)


def _text(change: TextChange) -> dict[str, Any]:
    o = _plain(change.old.text) if change.old else None
    n = _plain(change.new.text) if change.new else None
    runs = list(words(o or "", n or ""))
    return {
        "kind": change.kind, "section": change.block.section or "Opening",
        "label": change.block.label, "where": _where(change),
        "old": None if o is None else [r for r in runs if r[0] != "new"],
        "new": None if n is None else [r for r in runs if r[0] != "old"],
    }


def _side(p: Printing, ex_id: str, present: bool) -> dict[str, Any]:
    rendered = p.check.examples.get(ex_id)
    if not present or rendered is None:
        return {"name": p.name, "claims": None, "status": ""}
    return {"name": p.name, "claims": list(rendered.claims),
            "status": STATUS_WORDS.get(rendered.status, "")}


def _example(e: ExampleChange, old: Printing, new: Printing) -> dict[str, Any]:
    was, now = _side(old, e.id, e.old is not None), _side(new, e.id, e.new is not None)
    before = dict(was["claims"] or [])
    after = dict(now["claims"] or [])
    changed = {k for k in {*before, *after} if before.get(k) != after.get(k)}
    loc = (e.new or e.old).loc  # type: ignore[union-attr]
    what = ", ".join(e.fields) if e.fields else e.kind
    return {"kind": e.kind, "id": e.id, "title": e.title, "old": was, "new": now,
            "changed": changed, "where": f"{loc.path.name}:{loc.line}; changed: {what}"}


def context(title: str, old: Printing, new: Printing, diff: Difference) -> dict[str, Any]:
    comps = []
    for c in diff.components:
        faces = []
        for f in c.faces:
            key = (c.id, *f.key)
            faces.append({"label": f.label, "kind": f.kind,
                          "old": _uri(old.faces.get(key)), "new": _uri(new.faces.get(key))})
        comps.append({"id": c.id, "name": c.name, "kind": c.kind, "fields": c.fields,
                      "faces": faces})
    reprint = [f"{c.name} ({', '.join(f.label for f in c.faces if f.kind != REMOVED)})"
               for c in diff.components if any(f.kind != REMOVED for f in c.faces)]
    return {
        "title": title, "old": old, "new": new, "empty": diff.empty,
        "headline": _headline(title, old, new, diff),
        "summary": summary(diff),
        "reprint": "; ".join(reprint),
        "meta": diff.meta,
        "texts": [_text(t) for t in diff.texts],
        "examples": [_example(e, old, new) for e in diff.examples],
        "components": comps,
    }


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _headline(title: str, old: Printing, new: Printing, diff: Difference) -> str:
    said = []
    for what, changes in (("rule", diff.texts), ("worked example", diff.examples),
                          ("component", diff.components)):
        kinds = [sum(c.kind == k for c in changes) for k in (CHANGED, ADDED, REMOVED)]
        if any(kinds):
            first = next(i for i, n in enumerate(kinds) if n)
            parts = [f"{n} {('changed', 'added', 'removed')[i]}" for i, n in enumerate(kinds)
                     if n]
            parts[0] = f"{_count(kinds[first], what)} {('changed', 'added', 'removed')[first]}"
            said.append(", ".join(parts))
    return f"From {old.name} to {new.name} of {title}: {'; '.join(said)}."


def summary(diff: Difference) -> list[str]:
    """One line in plain words per change, at most SUMMARY_LINES (the rest: see below)."""
    lines = []
    for key, was, now in diff.meta:
        lines.append(f"The game's {key} is now “{now}” (was “{was}”).")
    for t in diff.texts:
        where, label = t.block.section or "The opening", t.block.label
        if t.kind == CHANGED:
            assert t.old is not None and t.new is not None
            lines.append(f"{where}: in “{t.old.label}”, {_swaps(t.old.text, t.new.text)}.")
        elif t.kind == ADDED:
            lines.append(f"{where}: a new rule, “{label}”.")
        else:
            lines.append(f"{where}: “{label}” is gone.")
    for e in diff.examples:
        verb = {CHANGED: "is corrected", ADDED: "is new", REMOVED: "is gone"}[e.kind]
        lines.append(f"The worked example “{e.title}” {verb}.")
    for c in diff.components:
        if c.faces:
            lines.append(f"{c.name}: {_count(len(c.faces), 'face')} redrawn.")
        elif c.kind == CHANGED:
            lines.append(f"{c.name}: {', '.join(k for k, _, _ in c.fields)} changed.")
        else:
            lines.append(f"{c.name}: {'new' if c.kind == ADDED else 'no longer used'}.")
    if len(lines) > SUMMARY_LINES:
        rest = len(lines) - SUMMARY_LINES + 1
        lines = [*lines[:SUMMARY_LINES - 1], f"... and {rest} more, each in full below."]
    return lines


def _swaps(old: str, new: str) -> str:
    """What a reader must change in their copy: '“middle line” becomes “axis”', at most
    three such changes, else that the passage is rewritten."""
    runs = list(words(_plain(old), _plain(new)))
    swaps: list[str] = []
    pending = ""
    for kind, run in [*runs, ("same", "")]:
        if kind == "old":
            pending = run
        elif kind == "new":
            swaps.append(f"“{pending}” becomes “{run}”" if pending else f"“{run}” is added")
            pending = ""
        else:
            if pending:
                swaps.append(f"“{pending}” is struck out")
            pending = ""
    if not swaps or len(swaps) > 3 or sum(len(x) for x in swaps) > 240:
        return "the passage is rewritten (in full below)"
    return "; ".join(swaps)


def render_page(title: str, old: Printing, new: Printing, diff: Difference,
                fonts_href: str | None = None) -> str:
    env = environment(None)
    values = context(title, old, new, diff)
    return run_templates(env, "errata.html.j2", lambda: env.get_template("errata.html.j2").render(
        **values, fonts_href=fonts_href, font_faces=FONT_FACES))


def render_pdfs_of(page: str, papers: Sequence[str], folder: Path) -> dict[str, bytes]:
    """The page as one PDF per paper; ``folder``: the new printing's game folder."""
    from rulepress.render import templates_dir
    from rulepress.render.pdf import render_pdfs

    return render_pdfs(page, papers, base_url=folder,
                       allowed_roots=(folder.resolve(), templates_dir()))
