"""The errata sheet: a game's difference between two printings as an HTML page and PDFs.

First a page in plain words for players, then every rule changed, added or removed (old and
new side by side, changed words marked), every example whose data changed (each proven by its
own printing's engine), and every component whose faces changed, both drawn small.
"""

from __future__ import annotations

import base64
import re
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
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.paths import templates_dir
from rulepress.render.html import FONT_FACES, _printing, environment, run_templates
from rulepress.validate.check import DocumentCheck
from rulepress.validate.results import Status
from rulepress.words import N_, NP_, SOURCE_WORDS, N_plural, Words

SUMMARY_LINES = 12  # the player summary keeps to one page
STATUS_WORDS = {
    Status.PROVEN: N_("Proven by this printing's rules engine."),
    Status.FAILED: N_("Disproved by this printing's rules engine."),
    Status.NOT_CHECKABLE: N_("Not checkable: this printing names no rules engine."),
    Status.SIMULATED: N_("From games played by this printing's rules engine."),
}
# A change's heading, "Setup: Shuffle the cards (changed)", whole: a language may agree it.
_KIND = {CHANGED: N_("{what} (changed)"), ADDED: N_("{what} (added)"),
         REMOVED: N_("{what} (removed)")}
# The front matter's and a component's keys as the sheet names them ("duration").
_FIELD = {
    "title": NP_("field", "title"), "subtitle": NP_("field", "subtitle"),
    "designer": NP_("field", "designer"), "players": NP_("field", "players"),
    "duration": NP_("field", "duration"), "ages": NP_("field", "ages"),
    "name": NP_("field", "name"), "count": NP_("field", "count"),
    "size": NP_("field", "size"), "front": NP_("field", "front"),
    "back": NP_("field", "back"), "back_varies": NP_("field", "back_varies"),
    "tileable": NP_("field", "tileable"), "note": NP_("field", "note"),
    "claims": NP_("field", "claims"), "data": NP_("field", "data"),
    "text": NP_("field", "text"),
}


def field(key: str, _: Words) -> str:
    """A front-matter or declaration key in the language of ``_`` (as written if unknown)."""
    marked = _FIELD.get(key)
    return _.pgettext(*marked) if marked else key


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
        return self.named(SOURCE_WORDS)

    def named(self, _: Words) -> str:
        """Its name in the language of ``_``: 'Version 1.1 (Arbeitsstand)'."""
        version = self.doc.meta.version
        # Translators: the printing in the project's folder now, not yet a git revision.
        label = _("working tree") if self.label == "working tree" else self.label
        if not version:
            return label
        said = _("version {version}", version=version)
        return said if self.label in (version, f"v{version}") else f"{said} ({label})"


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


def _where(change: TextChange, _: Words) -> str:
    o, n = change.old, change.new
    was = None if o is None else f"{o.file}:{o.line}"
    now = None if n is None else f"{n.file}:{n.line}"
    # Translators: where a rule stands in each printing's sources: "rules.md:30".
    return (_("was {old}, now {new}", old=was, new=now) if was and now else
            _("was {old}", old=was) if was else _("now {new}", new=now))


def _text(change: TextChange, _: Words) -> dict[str, Any]:
    o = _plain(change.old.text) if change.old else None
    n = _plain(change.new.text) if change.new else None
    runs = list(words(o or "", n or ""))
    section = change.block.section or _("The opening")
    return {
        "kind": change.kind, "where": _where(change, _),
        "heading": _(_KIND[change.kind],
                     what=_("{section}: {label}", section=section, label=change.block.label)),
        "old": None if o is None else [r for r in runs if r[0] != "new"],
        "new": None if n is None else [r for r in runs if r[0] != "old"],
    }


def _side(p: Printing, ex_id: str, present: bool, _: Words) -> dict[str, Any]:
    rendered = p.check.examples.get(ex_id)
    if not present or rendered is None:
        return {"name": p.named(_), "claims": None, "status": ""}
    status = STATUS_WORDS.get(rendered.status)
    return {"name": p.named(_), "claims": list(rendered.claims),
            "status": _(status) if status else ""}


def _example(e: ExampleChange, old: Printing, new: Printing, _: Words) -> dict[str, Any]:
    was, now = _side(old, e.id, e.old is not None, _), _side(new, e.id, e.new is not None, _)
    before = dict(was["claims"] or [])
    after = dict(now["claims"] or [])
    changed = {k for k in {*before, *after} if before.get(k) != after.get(k)}
    loc = (e.new or e.old).loc  # type: ignore[union-attr]
    what = ", ".join(field(f, _) for f in e.fields) if e.fields else None
    where = f"{loc.path.name}:{loc.line}"
    return {"kind": e.kind, "id": e.id, "heading": _(_KIND[e.kind], what=e.title),
            "old": was, "new": now, "changed": changed,
            "where": _("{where}; changed: {fields}", where=where, fields=what) if what
            else where}


def _caption(label: str, kind: str, old: str | None, new: str | None, _: Words) -> str:
    """A changed face's caption: 'front of row 2 (Perch) (changed): v1.0, then v1.1'."""
    face = _(_KIND[kind], what=_face(label, _))
    if old and new:
        return _("{face}: {old}, then {new}", face=face, old=old, new=new)
    return _("{face}: {printing}", face=face, printing=old or new)


def context(title: str, old: Printing, new: Printing, diff: Difference,
            _: Words = SOURCE_WORDS) -> dict[str, Any]:
    was, now = old.named(_), new.named(_)
    comps = []
    for c in diff.components:
        faces = []
        for f in c.faces:
            key = (c.id, *f.key)
            o, n = _uri(old.faces.get(key)), _uri(new.faces.get(key))
            label = _face(f.label, _)
            faces.append({"old": o, "new": n,
                          "old_alt": f"{c.name}, {label}, {was}",
                          "new_alt": f"{c.name}, {label}, {now}",
                          "caption": _caption(f.label, f.kind, o and was, n and now, _)})
        comps.append({"id": c.id, "kind": c.kind, "heading": _(_KIND[c.kind], what=c.name),
                      "fields": [(field(k, _), o, n) for k, o, n in c.fields],
                      "faces": faces})
    reprint = [f"{c.name} ({', '.join(_face(f.label, _) for f in c.faces if f.kind != REMOVED)})"
               for c in diff.components if any(f.kind != REMOVED for f in c.faces)]
    return {
        "title": title, "old": old, "new": new, "empty": diff.empty,
        "headline": _headline(title, old, new, diff, _),
        "summary": summary(diff, _),
        "lang": _.lang or DEFAULT_LANGUAGE,
        "old_name": was, "new_name": now,
        "printing": _printing(new.doc, _),
        "words": {
            "kicker": _("Errata"),
            "title": _("{title}: errata, {old} to {new}", title=title, old=was, new=now),
            "subtitle": _("What changed from {old} to {new}", old=was, new=now),
            "plain": _("In plain words"),
            "nothing": _("Nothing changed: {old} and {new} have the same rules, worked examples "
                         "and components. There are no errata.", old=was, new=now),
            "reprint": _("If you own {old}: print or ask for new copies of {reprint}; "
                         "everything else stays as it is.", old=was, reprint="; ".join(reprint)),
            "game": _("The game"),
            # Translators: the head of a column of the front matter's keys ("duration").
            "what": _("What"),
            "rules": _("Rules"),
            "examples": _("Worked examples"),
            "components": _("Components"),
            # Translators: the head of a column of a component's keys ("size", "count").
            "declared": _("Declared"),
            "absent": _("(not there)"),
            "removed": _("(removed)"),
            "colophon": _("Computed by rulepress from both printings' sources: every worked "
                          "example above was replayed by its own printing's rules engine."),
        },
        "reprint": "; ".join(reprint),
        "meta": [(field(k, _), o, n) for k, o, n in diff.meta],
        "texts": [_text(t, _) for t in diff.texts],
        "examples": [_example(e, old, new, _) for e in diff.examples],
        "components": comps,
    }


def _face(label: str, _: Words) -> str:
    """'front of row 2 (Perch)' in the language of ``_`` (the label as face_changes made it)."""
    side, _of, what = label.partition(" of ")
    row = re.fullmatch(r"row (\d+)(.*)", what, re.S)
    if row:
        what = _("row {n}", n=row[1]) + row[2]
    elif what.startswith("copy "):
        what = _("copy {n}", n=what.removeprefix("copy "))
    elif what == "every copy":
        what = _("every copy")
    return (_("front of {what}", what=what) if side == "front" else
            _("back of {what}", what=what))


# What changed, in the headline: the first count of a kind names it, the next do not.
_HEADLINE = {
    ("rule", CHANGED): N_plural("{n} rule changed", "{n} rules changed"),
    ("rule", ADDED): N_plural("{n} rule added", "{n} rules added"),
    ("rule", REMOVED): N_plural("{n} rule removed", "{n} rules removed"),
    ("example", CHANGED): N_plural("{n} worked example changed", "{n} worked examples changed"),
    ("example", ADDED): N_plural("{n} worked example added", "{n} worked examples added"),
    ("example", REMOVED): N_plural("{n} worked example removed", "{n} worked examples removed"),
    ("component", CHANGED): N_plural("{n} component changed", "{n} components changed"),
    ("component", ADDED): N_plural("{n} component added", "{n} components added"),
    ("component", REMOVED): N_plural("{n} component removed", "{n} components removed"),
}
_MORE = {CHANGED: N_("{n} changed"), ADDED: N_("{n} added"), REMOVED: N_("{n} removed")}


def _headline(title: str, old: Printing, new: Printing, diff: Difference,
              _: Words = SOURCE_WORDS) -> str:
    said = []
    for what, changes in (("rule", diff.texts), ("example", diff.examples),
                          ("component", diff.components)):
        kinds = [(k, sum(c.kind == k for c in changes)) for k in (CHANGED, ADDED, REMOVED)]
        parts = [(k, n) for k, n in kinds if n]
        if parts:
            (k, n), rest = parts[0], parts[1:]
            one, many = _HEADLINE[what, k]
            said.append(", ".join([_.ngettext(one, many, n)] + [_(_MORE[k], n=n)
                                                               for k, n in rest]))
    return _("From {old} to {new} of {title}: {changes}.", old=old.named(_),
             new=new.named(_), title=title, changes="; ".join(said))


def summary(diff: Difference, _: Words = SOURCE_WORDS) -> list[str]:
    """One line in plain words per change, at most SUMMARY_LINES (the rest: see below)."""
    lines = []
    for key, was, now in diff.meta:
        lines.append(_("The game's {key} is now “{now}” (was “{was}”).", key=field(key, _),
                       now=now, was=was))
    for t in diff.texts:
        where, label = t.block.section or _("The opening"), t.block.label
        if t.kind == CHANGED:
            assert t.old is not None and t.new is not None
            lines.append(_("{where}: in “{label}”, {swaps}.", where=where, label=t.old.label,
                           swaps=_swaps(t.old.text, t.new.text, _)))
        elif t.kind == ADDED:
            lines.append(_("{where}: a new rule, “{label}”.", where=where, label=label))
        else:
            lines.append(_("{where}: “{label}” is gone.", where=where, label=label))
    verbs = {CHANGED: N_("The worked example “{title}” is corrected."),
             ADDED: N_("The worked example “{title}” is new."),
             REMOVED: N_("The worked example “{title}” is gone.")}
    for e in diff.examples:
        lines.append(_(verbs[e.kind], title=e.title))
    for c in diff.components:
        if c.faces:
            lines.append(_.ngettext("{name}: {n} face redrawn.", "{name}: {n} faces redrawn.",
                                    len(c.faces), name=c.name))
        elif c.kind == CHANGED:
            lines.append(_("{name}: {fields} changed.", name=c.name,
                           fields=", ".join(field(k, _) for k, _w, _v in c.fields)))
        elif c.kind == ADDED:
            lines.append(_("{name}: new.", name=c.name))
        else:
            lines.append(_("{name}: no longer used.", name=c.name))
    if len(lines) > SUMMARY_LINES:
        rest = len(lines) - SUMMARY_LINES + 1
        lines = [*lines[:SUMMARY_LINES - 1], _("... and {n} more, each in full below.", n=rest)]
    return lines


def _swaps(old: str, new: str, _: Words = SOURCE_WORDS) -> str:
    """What a reader must change in their copy: '“middle line” becomes “axis”', at most
    three such changes, else that the passage is rewritten."""
    runs = list(words(_plain(old), _plain(new)))
    swaps: list[str] = []
    pending = ""
    for kind, run in [*runs, ("same", "")]:
        if kind == "old":
            pending = run
        elif kind == "new":
            swaps.append(_("“{old}” becomes “{new}”", old=pending, new=run) if pending
                         else _("“{new}” is added", new=run))
            pending = ""
        else:
            if pending:
                swaps.append(_("“{old}” is struck out", old=pending))
            pending = ""
    if not swaps or len(swaps) > 3 or sum(len(x) for x in swaps) > 240:
        return _("the passage is rewritten (in full below)")
    return "; ".join(swaps)


def render_page(title: str, old: Printing, new: Printing, diff: Difference,
                fonts_href: str | None = None, words: Words = SOURCE_WORDS) -> str:
    """The sheet's page, every word of it in the language of ``words``."""
    env = environment(None)
    values = context(title, old, new, diff, words)
    return run_templates(env, "errata.html.j2", lambda: env.get_template("errata.html.j2").render(
        **values, fonts_href=fonts_href, font_faces=FONT_FACES))


def render_pdfs_of(page: str, papers: Sequence[str], folder: Path) -> dict[str, bytes]:
    """The page as one PDF per paper; ``folder``: the new printing's game folder."""
    from rulepress.render.pdf import render_pdfs  # WeasyPrint: a slow import

    return render_pdfs(page, papers, base_url=folder,
                       allowed_roots=(folder.resolve(), templates_dir()))
