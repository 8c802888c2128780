"""Front matter validation: the schema, as code, with every error at its YAML line."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, SourceLoc, error, not_utf8
from rulepress.document import rows as data_rows
from rulepress.document.fonts import BOOK_USES, FONT_KEYS, RESERVED, STYLES, font_file_problem
from rulepress.document.model import (
    Component,
    Data,
    GameFont,
    Licence,
    Meta,
    Provenance,
    Version,
)
from rulepress.document.yamlines import KeyPath, closest_line
from rulepress.games import is_module_spec
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_COMPONENT_COUNT
from rulepress.suggest import nearest, suggest
from rulepress.units import Size, UnitError

TOP_KEYS = {
    "title": True, "subtitle": False, "designer": True, "credits": False, "players": True,
    "duration": True, "ages": False, "engine": False, "licence": True, "provenance": True,
    "components": True, "files": False, "version": False, "date": False, "versions": False,
    "fonts": False,
}
VERSION_KEYS = {"version": True, "date": False, "summary": True}
VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._+-]*\Z")
LICENCE_KEYS = {"name": True, "url": True, "notice": False, "text": False}
PROVENANCE_KEYS = {"title": True, "source": True, "author": False, "note": False}
PLAYERS_KEYS = {"min": True, "max": True}
COMPONENT_KEYS = {
    "id": True, "name": True, "count": False, "size": False, "front": False, "back": False,
    "back_varies": False, "tileable": False, "note": False, "variants": False, "data": False,
}
LAYOUT_SUFFIXES = (".yml", ".yaml")


def is_layout(name: str) -> bool:
    """A component's front or back names a layout file (else a drawer of the engine)."""
    return name.lower().endswith(LAYOUT_SUFFIXES)
FAMILY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]*\Z")
ID = re.compile(r"^[a-z0-9][a-z0-9_-]*\Z")
ENGINE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


def _dotted(key: KeyPath) -> str:
    return ".".join(map(str, key))


class _Checker:
    def __init__(self, path: Path, lines: Mapping[KeyPath, int], fallback: int) -> None:
        self.path = path
        self.lines = lines
        self.fallback = fallback
        self.diagnostics: list[Diagnostic] = []

    def loc(self, key: KeyPath) -> SourceLoc:
        line = closest_line(self.lines, key)
        return SourceLoc(self.path, self.fallback if line is None else line)

    def fail(self, key: KeyPath, message: str) -> None:
        self.diagnostics.append(error(self.loc(key), message))

    def mapping(self, value: Any, key: KeyPath, spec: Mapping[str, bool], what: str) -> bool:
        if not isinstance(value, dict):
            self.fail(key, f"{what} must be a mapping of keys to values")
            return False
        ok = True
        meant: set[str] = set()  # required keys misspelt: said once, as the misspelling
        for k in value:
            if str(k) not in spec:
                near = nearest(str(k), spec)
                also = suggest(str(k), spec)
                meant.update([near] if near else [])
                allowed = ", ".join(spec)
                at = k if isinstance(k, int) else str(k)  # as yamlines keys its lines
                self.fail((*key, at), f"unknown key '{k}' in {what}{also}; allowed: {allowed}")
                ok = False
        for k, required in spec.items():
            if required and k not in value and k not in meant:
                self.fail(key, f"{what} is missing the required key '{k}'")
                ok = False
        return ok

    def text(self, value: Any, key: KeyPath, *, allow_empty: bool = False) -> str:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.fail(key, f"'{_dotted(key)}' must be text")
            return ""
        if not allow_empty and not str(value).strip():
            self.fail(key, f"'{_dotted(key)}' must not be empty")
        return str(value)

    def integer(self, value: Any, key: KeyPath, minimum: int, maximum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"'{_dotted(key)}' must be a whole number, not {value!r}")
            return minimum
        if value < minimum:
            self.fail(key, f"'{_dotted(key)}' must be at least {minimum}, not {value}")
        elif maximum is not None and value > maximum:
            self.fail(key, f"'{_dotted(key)}' must be at most {maximum}, not {value}")
            return maximum
        return value

    def flag(self, value: Any, key: KeyPath) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"'{_dotted(key)}' must be true or false")
            return False
        return value


def build_meta(
    data: Any, lines: Mapping[KeyPath, int], path: Path, first_line: int
) -> tuple[Meta | None, list[Diagnostic]]:
    c = _Checker(path, lines, first_line)
    if not c.mapping(data, (), TOP_KEYS, "the front matter"):
        return None, c.diagnostics
    players = data["players"]
    p_min = p_max = 1
    if c.mapping(players, ("players",), PLAYERS_KEYS, "players"):
        p_min = c.integer(players["min"], ("players", "min"), 1)
        p_max = c.integer(players["max"], ("players", "max"), 1)
        if p_max < p_min:
            c.fail(("players", "max"), f"players max ({p_max}) is less than min ({p_min})")
    licence = Licence("", "")
    lic = data["licence"]
    if c.mapping(lic, ("licence",), LICENCE_KEYS, "licence"):
        licence = Licence(
            c.text(lic["name"], ("licence", "name")),
            c.text(lic["url"] or "", ("licence", "url"), allow_empty=True),
            c.text(lic.get("notice", ""), ("licence", "notice"), allow_empty=True),
            _licence_text(c, lic.get("text")),
        )
    provenance: list[Provenance] = []
    prov = data["provenance"]
    if not isinstance(prov, list) or not prov:
        c.fail(("provenance",), "provenance must be a list naming the original texts")
    else:
        for i, item in enumerate(prov):
            key: KeyPath = ("provenance", i)
            if c.mapping(item, key, PROVENANCE_KEYS, f"provenance entry {i + 1}"):
                provenance.append(Provenance(
                    c.text(item["title"], (*key, "title")),
                    c.text(item["source"], (*key, "source")),
                    c.text(item.get("author", ""), (*key, "author"), allow_empty=True),
                    c.text(item.get("note", ""), (*key, "note"), allow_empty=True),
                ))
    credits_raw = data.get("credits", [])
    credits: list[str] = []
    if not isinstance(credits_raw, list):
        c.fail(("credits",), "credits must be a list of lines")
    else:
        credits = [c.text(v, ("credits", i)) for i, v in enumerate(credits_raw)]
    engine = data.get("engine")
    if engine is not None and not (
        isinstance(engine, str) and (ENGINE_NAME.match(engine) or is_module_spec(engine))
    ):
        c.fail(("engine",), "engine must name an installed engine (e.g. pigeon_race) or a "
                            f"module of the project (e.g. engines/pig.py:ENGINE), not {engine!r}")
        engine = None
    files = _files(c, data.get("files", []))
    version = _version(c, data.get("version"), ("version",))
    date = _date(c, data.get("date"), ("date",))
    versions = _versions(c, data.get("versions", []), version)
    components = _components(c, data["components"])
    fonts = _fonts(c, data.get("fonts", []))
    if c.diagnostics:
        return None, c.diagnostics
    meta = Meta(
        title=c.text(data["title"], ("title",)),
        designer=c.text(data["designer"], ("designer",)),
        players_min=p_min,
        players_max=p_max,
        duration=c.text(data["duration"], ("duration",)),
        licence=licence,
        provenance=tuple(provenance),
        components=components,
        credits=tuple(credits),
        subtitle=c.text(data.get("subtitle", ""), ("subtitle",), allow_empty=True),
        ages=c.text(data.get("ages", ""), ("ages",), allow_empty=True),
        engine=engine,
        engine_loc=c.loc(("engine",)) if engine else None,
        players_loc=c.loc(("players",)),
        files=files,
        version=version,
        date=date,
        versions=versions,
        fonts=fonts,
    )
    return (None if c.diagnostics else meta), c.diagnostics


def _files(c: _Checker, raw: Any) -> tuple[str, ...]:
    """Further Markdown files of the body (the reader opens them, inside the game's folder)."""
    if not isinstance(raw, list) or not all(isinstance(f, str) and f.strip() for f in raw):
        c.fail(("files",), "files must be a list of Markdown file names, e.g. [setup.md, play.md]")
        return ()
    return tuple(raw)


def _fonts(c: _Checker, raw: Any) -> tuple[GameFont, ...]:
    """The game's own fonts (rulepress.document.fonts says what each entry holds)."""
    if not isinstance(raw, list):
        c.fail(("fonts",), "fonts must be a list of families: [{family: Grenze, regular: "
                           "fonts/Grenze-Regular.ttf}]")
        return ()
    folder = c.path.parent
    out: list[GameFont] = []
    for i, item in enumerate(raw):
        key: KeyPath = ("fonts", i)
        if not c.mapping(item, key, FONT_KEYS, f"fonts entry {i + 1}"):
            continue
        family = c.text(item["family"], (*key, "family")).strip()
        if family and not FAMILY.match(family):  # it goes into CSS and PDF names as it is
            c.fail((*key, "family"), f"family '{family}' may use letters, digits, spaces, "
                                     "'-' and '_'")
        elif family.lower().replace(" ", "").replace("-", "") in RESERVED:
            c.fail((*key, "family"), f"family '{family}' is a name layouts already use "
                                     "(regular, bold, italic, symbols, Carlito, DejaVu Sans): "
                                     "call it by the font's own name")
        elif family in {f.family for f in out}:
            c.fail((*key, "family"), f"family '{family}' is declared twice")
        book = str(item.get("book", "none"))
        if book not in BOOK_USES:
            c.fail((*key, "book"), f"book: '{book}' is not one of {', '.join(BOOK_USES)}"
                                   f"{suggest(book, BOOK_USES)}")
        faces = []
        for style in STYLES:
            if style not in item:
                continue
            why, path = font_file_problem(folder, item[style])
            if why:
                c.fail((*key, style), f"fonts: {family} {style}: {why}")
            elif path is not None:
                faces.append((style, path))
        out.append(GameFont(family, tuple(faces), book, c.loc(key)))
    return tuple(out)


def _version(c: _Checker, raw: Any, key: KeyPath) -> str:
    """A version: '1.1', '2.0-beta'. YAML reads 1.1 as a number, shown as Python shows it (so
    1.10 is 1.1: docs/authoring.md says to quote such a version)."""
    if raw is None:
        return ""
    text = c.text(raw, key)
    if text and not VERSION.match(text):
        c.fail(key, f"version {text!r} may use letters, digits, '.', '_', '+' and '-' "
                    "(e.g. 1.1 or 2.0-beta)")
    return text


def _date(c: _Checker, raw: Any, key: KeyPath) -> str:
    """An ISO date, 2026-11-27 (YAML reads it as a date; the calendar is checked there)."""
    if raw is None:
        return ""
    if isinstance(raw, datetime.datetime):
        c.fail(key, f"date is a day without a time, e.g. {raw.date().isoformat()}, not {raw}")
    elif isinstance(raw, datetime.date):
        return raw.isoformat()
    else:
        c.fail(key, f"date must be a day written YYYY-MM-DD, e.g. 2026-11-27, not {raw!r}")
    return ""


def _versions(c: _Checker, raw: Any, current: str) -> tuple[Version, ...]:
    """The printings so far, oldest first; the last is ``version``, when the game names one."""
    if not isinstance(raw, list):
        c.fail(("versions",), "versions must be a list of printings: "
                              "[{version: '1.0', date: 2026-11-01, summary: First printing}]")
        return ()
    out: list[Version] = []
    for i, item in enumerate(raw):
        key: KeyPath = ("versions", i)
        if not c.mapping(item, key, VERSION_KEYS, f"versions entry {i + 1}"):
            continue
        number = _version(c, item["version"], (*key, "version"))
        if number in {v.version for v in out}:
            c.fail((*key, "version"), f"version {number!r} is listed twice")
        out.append(Version(number, c.text(item["summary"], (*key, "summary")), c.loc(key),
                           _date(c, item.get("date"), (*key, "date"))))
    if out and not current:
        c.fail(("versions",), f"versions lists {out[-1].version!r} but the game names no "
                              f"version: add `version: {out[-1].version}`")
    elif out and out[-1].version != current:
        c.fail(("versions",), f"the last of versions is {out[-1].version!r} but the game's "
                              f"version is {current!r}: list the printings oldest first, "
                              "this one last")
    return tuple(out)


def _licence_text(c: _Checker, name: Any) -> str:
    """The full licence from a UTF-8 text file inside the game's folder."""
    if name is None:
        return ""
    key: KeyPath = ("licence", "text")
    folder = c.path.parent.resolve()
    target = (folder / c.text(name, key)).resolve()
    if not target.is_relative_to(folder) or not target.is_file():
        c.fail(key, f"licence text '{name}' must be a file inside {folder.name}/")
        return ""
    try:
        return read_regular(target).decode("utf-8")
    except UnicodeDecodeError as exc:
        at, what = not_utf8(target, exc)
        c.fail(key, f"licence text '{name}', its line {at.line}: {what}")
        return ""
    except (OSError, PathRefused) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)  # no errno, no full path
        c.fail(key, f"licence text '{name}' cannot be read: {why}")
        return ""


def _components(c: _Checker, raw: Any) -> tuple[Component, ...]:
    if not isinstance(raw, list) or not raw:
        c.fail(("components",), "components must be a list with at least one component")
        return ()
    out: list[Component] = []
    ids: set[str] = set()
    for i, item in enumerate(raw):
        key: KeyPath = ("components", i)
        if not c.mapping(item, key, COMPONENT_KEYS, f"component {i + 1}"):
            continue
        cid = c.text(item["id"], (*key, "id"))
        if cid and not ID.match(cid):
            c.fail((*key, "id"), f"component id {cid!r} may use only a-z, 0-9, '-' and '_'")
        if cid in ids:
            c.fail((*key, "id"), f"component id '{cid}' is declared twice")
        ids.add(cid)
        data = _data(c, item.get("data"), (*key, "data"), cid)
        count = _count(c, item, key, cid, data)
        size = None
        if "size" in item:
            try:
                size = Size.parse(str(item["size"]))
            except UnitError as exc:
                c.fail((*key, "size"), f"component '{cid}': {exc}")
        front = item.get("front")
        back = item.get("back")
        for name, value in (("front", front), ("back", back)):
            if value is not None and not (isinstance(value, str) and value.strip()):
                c.fail((*key, name), f"component '{cid}': {name} must name a drawer of the "
                                     "engine or a layout file (e.g. layouts/card.yml)")
        if (front or back) and "size" not in item:
            c.fail(key, f"component '{cid}' is printed in the kit, so it needs a size")
        if back and not front:
            c.fail((*key, "back"), f"component '{cid}' has a back drawer but no front drawer")
        if data is not None and not front:
            c.fail((*key, "data"), f"component '{cid}' has data but is not printed: add "
                                   "`front: layouts/<name>.yml`")
        variants = _variants(c, item.get("variants", {}), key, cid)
        if variants and not front:
            c.fail((*key, "variants"), f"component '{cid}' has size variants but is not printed")
        out.append(Component(
            id=cid,
            name=c.text(item["name"], (*key, "name")),
            count=count,
            loc=c.loc(key),
            size=size,
            front=front,
            back=back,
            back_varies=c.flag(item.get("back_varies", False), (*key, "back_varies")),
            tileable=c.flag(item.get("tileable", False), (*key, "tileable")),
            note=c.text(item.get("note", ""), (*key, "note"), allow_empty=True),
            variants=variants,
            data=data,
            keys={str(k): c.loc((*key, str(k))) for k in item},
        ))
    return tuple(out)


def _count(c: _Checker, item: dict[str, Any], key: KeyPath, cid: str, data: Data | None) -> int:
    """The declared count; without one, the copies the data rows add up to."""
    made = sum(r.qty for r in data.rows) if data is not None and data.rows else None
    if made is not None and made > MAX_COMPONENT_COUNT:
        c.fail((*key, "data"), f"component '{cid}': its data rows make {made} copies; at most "
                               f"{MAX_COMPONENT_COUNT} are printed")
        return MAX_COMPONENT_COUNT
    if "count" not in item:
        if data is not None and data.engine is None and not data.rows:
            return 1  # its file could not be read, which is the one error to say
        if data is not None and data.engine is not None:
            return 0  # the copies the engine's table makes, once it is known (table_counts)
        if made is None:
            c.fail(key, f"component '{cid}' is missing the required key 'count'")
            return 1
        return made
    count = c.integer(item["count"], (*key, "count"), 1, MAX_COMPONENT_COUNT)
    if made is not None and count != made:
        c.fail((*key, "count"), f"component '{cid}': count is {count} but its data rows make "
                                f"{made} copies (one per row, or its qty); drop count or fix it")
    return count


def _data(c: _Checker, raw: Any, key: KeyPath, cid: str) -> Data | None:
    """``data:``: a CSV file in the game's folder, a list of rows, or {engine: table}."""
    if raw is None:
        return None
    loc = c.loc(key)
    if isinstance(raw, str) and raw.lower().endswith(".csv"):
        rows, diags = data_rows.read_csv(c.path.parent, raw, loc)
        c.diagnostics += diags
        return Data(loc, raw, rows)
    if isinstance(raw, list) and raw:
        rows, diags = data_rows.inline_rows(raw, key, c.lines, c.path, loc.line)
        c.diagnostics += diags
        return Data(loc, "the front matter", rows)
    if isinstance(raw, dict) and list(raw) == ["engine"] and isinstance(raw["engine"], str):
        return Data(loc, f"the engine's table '{raw['engine']}'", engine=raw["engine"])
    c.fail(key, f"component '{cid}': data is a CSV file in the game's folder (data/cards.csv), "
                "a list of rows ([{name: Ace, qty: 4}, ...]) or an engine table "
                "({engine: scores})")
    return None


def _variants(c: _Checker, raw: Any, key: KeyPath, cid: str) -> dict[str, Size]:
    """Named alternative sizes, e.g. {poker: 63.5mm x 88.9mm}: each name is a kit of its own."""
    if not isinstance(raw, dict):
        c.fail((*key, "variants"), f"component '{cid}': variants maps a name to a size")
        return {}
    out: dict[str, Size] = {}
    for name, text in raw.items():
        where = (*key, "variants", str(name))
        if not ID.match(str(name)):
            c.fail(where, f"component '{cid}': variant name {str(name)!r} may use a-z, 0-9, "
                          "'-', '_'")
            continue
        try:
            out[str(name)] = Size.parse(str(text))
        except UnitError as exc:
            c.fail(where, f"component '{cid}': variant '{name}': {exc}")
    return out
