"""A project: the folder holding ``rulepress.toml`` (or, without one, the current folder).

Every command finds the project the same way: ``--project DIR``, else the nearest folder from
the current one upwards that holds ``rulepress.toml``, else the current folder with the defaults.
Paths in the file are relative to the folder holding it. Each key is documented in
docs/authoring.md; a bad key or value is an error at ``rulepress.toml:line``.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, not_utf8
from rulepress.document.editions import EDITIONS
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import ENGINE_MEMORY_MB, ENGINE_SECONDS, MAX_NUMBER_DIGITS
from rulepress.media import DEFAULT_LANGUAGE, PAPER_KEYS
from rulepress.suggest import suggest

CONFIG = "rulepress.toml"
DEFAULT_TITLE = "rulepress rulebooks"


@dataclass(frozen=True)
class Project:
    root: Path
    config: Path | None  # None: no rulepress.toml, every key at its default
    title: str = DEFAULT_TITLE
    sources: Path = Path("sources")
    build: Path = Path("build")
    pnp: Path = Path("pnp")
    papers: tuple[str, ...] = PAPER_KEYS
    editions: tuple[str, ...] = EDITIONS
    games: tuple[str, ...] = ()  # the games a command takes when it names none (empty: all)
    # The first is the rules' own language; the others translations.
    languages: tuple[str, ...] = (DEFAULT_LANGUAGE,)
    # The folder keys set in rulepress.toml, each with its line (for messages only).
    lines: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    engine_seconds: float = ENGINE_SECONDS  # [limits]: the budget of engine code (limits.py)
    engine_memory_mb: int = ENGINE_MEMORY_MB

    def path(self, relative: Path) -> Path:
        return relative if relative.is_absolute() else self.root / relative

    def folder(self, key: str) -> Folder:
        """The folder ``key`` (sources, build or pnp) names, with where it was set."""
        value: Path = getattr(self, key)
        line = dict(self.lines).get(key)
        if self.config is None or line is None:
            return Folder(self.path(value), f'{key} (by default "{value}")', None)
        return Folder(self.path(value), f'{key} = "{value}"', SourceLoc(self.config, line))


@dataclass(frozen=True)
class Folder:
    """A folder a command reads or writes, and where it was set (for a message)."""

    path: Path
    setting: str  # 'pnp = "build"', '--out docs', 'build (by default "build")'
    loc: SourceLoc | None  # its line in rulepress.toml; None for an option or a default

    def described(self, at: SourceLoc | None) -> str:
        """The setting, with its line when a message located at ``at`` does not show it."""
        if self.loc is None or self.loc == at:
            return self.setting
        return f"{self.setting} ({'rulepress.toml:' if at is None else 'line '}{self.loc.line})"


def _real(folder: Folder) -> Path:
    return Path(os.path.realpath(folder.path))


def _rank(folder: Folder) -> tuple[bool, int]:
    """Which of two settings a message is about: an option, else the later line."""
    return folder.setting.startswith("--"), folder.loc.line if folder.loc else 0


def _overlap(a: Folder, b: Folder) -> str | None:
    """How ``a`` stands to ``b``, if they are not apart."""
    if _real(a) == _real(b):
        return "is the same folder as"
    if _real(a).is_relative_to(_real(b)):
        return "is inside"
    if _real(b).is_relative_to(_real(a)):
        return "holds"
    return None


def _apart_error(a: Folder, how: str, b: Folder, why: str) -> RulepressError:
    return RulepressError.at(a.loc, f"{a.described(a.loc)} {how} {b.described(a.loc)}: {why}")


_APART = "the sources and each output folder must be folders of their own, none inside another"


def folders_apart(folders: Sequence[Folder]) -> None:
    """Each of ``folders`` (the sources, and where each output goes) must be a folder of its
    own, not inside another: else a run would write over its own inputs or another command's
    outputs. An error (exit 2) naming both, at the rulepress.toml line that set one."""
    for i, first in enumerate(folders):
        for second in folders[i + 1:]:
            a, b = sorted((first, second), key=_rank, reverse=True)
            how = _overlap(a, b)
            if how is not None:
                raise _apart_error(a, how, b, _APART)


def simulation_apart(out: Folder, sources: Folder, others: Sequence[Folder]) -> None:
    """Where ``simulate --out`` writes: in a folder of its own, which may be inside the output
    folders or inside a game's folder (a playtest report's summary), but holds none of them
    and is not a game's folder itself."""
    for other in (sources, *others):
        how = _overlap(out, other)
        if how is not None and how != "is inside":
            raise _apart_error(out, how, other, _APART)
    inside = _real(out).relative_to(_real(sources)) if _overlap(out, sources) else None
    if inside is not None and len(inside.parts) < 2:
        raise _apart_error(out, "is inside", sources, (
            "it would be a game's folder; write into a folder inside the game's "
            f"({out.path / 'playtest'} for a playtest report)"))


def no_links_below(base: Path, folder: Folder) -> None:
    """An output folder inside ``base`` must be reached through real folders: a symbolic link
    on the way (a game's playtest/ linked elsewhere) would have rulepress write outside."""
    start, target = Path(os.path.abspath(base)), Path(os.path.abspath(folder.path))
    if not target.is_relative_to(start):
        return
    here = start
    for part in target.relative_to(start).parts:
        here = here / part
        if here.is_symlink():
            raise RulepressError.at(folder.loc, (
                f"{folder.setting}: {here} is a symbolic link (to {os.readlink(here)}); "
                "rulepress writes only into real folders: name the folder it leads to instead"))


def find_config(start: Path) -> Path | None:
    """The nearest rulepress.toml in ``start`` or a folder above it."""
    for folder in (start, *start.parents):
        candidate = folder / CONFIG
        if candidate.is_file():
            return candidate
    return None


def load_project(explicit: Path | None = None, cwd: Path | None = None) -> Project:
    """The project of ``--project DIR`` (which must hold rulepress.toml), else the one found from
    ``cwd`` upwards, else ``cwd`` with the defaults."""
    here = (cwd or Path.cwd()).resolve()
    if explicit is not None:
        folder = (here / explicit).resolve()
        config = folder / CONFIG
        if not config.is_file():
            raise RulepressError.at(None, f"--project {explicit}: no {CONFIG} in {folder}")
        return read_config(config)
    found = find_config(here)
    return read_config(found) if found is not None else Project(here, None)


# key -> (kind, what to say when the value is wrong)
_KEYS: Mapping[str, tuple[str, str]] = {
    "title": ("text", "the title of the index page, as text"),
    "sources": ("path", "a folder holding one folder per game"),
    "build": ("path", "the folder rulebooks are written to"),
    "pnp": ("path", "the folder print-and-play kits are written to"),
    "papers": ("papers", f"a list of papers: {', '.join(PAPER_KEYS)}"),
    "editions": ("editions", f"a list of editions: {', '.join(EDITIONS)}"),
    "games": ("games", "a list of game folder names"),
    "languages": ("languages", "a list of language codes, the rules' own first "
                               "(e.g. [\"en\", \"de\"])"),
    "limits": ("limits", "a table of engine_seconds (CPU seconds above 0, at most 3600) and "
                         "engine_memory_mb (a whole number of MB, 16 to 1048576)"),
}
MIN_ENGINE_MEMORY_MB = 16  # a worker needs some room to start in
MAX_ENGINE_MEMORY_MB = 2**20
MAX_ENGINE_SECONDS = 3600.0
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_KEY_LINE = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*=")


def read_config(path: Path) -> Project:
    try:
        text = read_regular(path).decode("utf-8").removeprefix("\ufeff")  # as rules.md
    except UnicodeDecodeError as exc:
        raise RulepressError.at(*not_utf8(path, exc)) from None
    except (OSError, PathRefused) as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read {CONFIG}: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_AT.search(str(exc))
        loc = SourceLoc(path, int(m[1]), int(m[2])) if m else SourceLoc(path, 1)
        message = _TOML_AT.sub("", str(exc)).strip()
        raise RulepressError.at(loc, f"{CONFIG} is not valid TOML: {message}") from None
    except ValueError:  # Python's int() refuses a number past 4300 digits, in its words
        m = _LONG_NUMBER.search(text)
        loc = SourceLoc(path, text.count("\n", 0, m.start()) + 1 if m else 1)
        raise RulepressError.at(loc, f"{CONFIG} cannot be read: {_TOO_LONG}") from None
    except RecursionError:  # deep arrays
        raise RulepressError.at(SourceLoc(path, 1), f"{CONFIG} cannot be read: nested too "
                                                     "deeply") from None
    lines = _key_lines(text)
    for key, value in data.items():
        if _has_long_number(value):
            raise RulepressError.at(SourceLoc(path, lines.get(key, 1)), f"'{key}': {_TOO_LONG}")

    def at(key: str) -> SourceLoc:
        return SourceLoc(path, lines.get(key, 1))

    problems: list[Diagnostic] = []
    values: dict[str, Any] = {}
    for key, value in data.items():
        spec = _KEYS.get(key)
        if spec is None:
            hint = suggest(key, _KEYS)
            problems.append(error(at(key), f"unknown key '{key}'{hint}; the keys are "
                                           f"{', '.join(_KEYS)}"))
            continue
        kind, what = spec
        converted = _convert(kind, value)
        if converted is None:
            problems.append(error(at(key), f"'{key}' must be {what}, not {value!r}"))
        elif kind == "limits":
            values.update(converted)
        else:
            values[key] = converted
    if problems:
        raise RulepressError(problems)
    project = Project(path.parent.resolve(), path, **values,
                      lines=tuple((k, lines[k]) for k in ("sources", "build", "pnp") if k in lines))
    folders_apart([project.folder("sources"), project.folder("build"), project.folder("pnp")])
    return project


_TOO_LONG = f"a whole number of more than {MAX_NUMBER_DIGITS} digits"
_LONG_NUMBER = re.compile(rf"[0-9][0-9_]{{{MAX_NUMBER_DIGITS},}}")


def _has_long_number(value: Any) -> bool:
    """Whether ``value`` holds an int too long to print (a loop: tables nest arbitrarily)."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, int) and abs(v) >= 10**MAX_NUMBER_DIGITS:
            return True
        todo.extend(v.values() if isinstance(v, dict) else v if isinstance(v, list) else ())
    return False


def _convert(kind: str, value: Any) -> Any:
    if kind == "limits":
        return _limits(value)
    if kind == "text":
        return value if isinstance(value, str) and value.strip() else None
    if kind == "path":
        return Path(value) if isinstance(value, str) and value.strip() else None
    if kind == "languages":
        from rulepress.i18n.catalog import (  # Babel: only a project with translations
            lang_problem,  # Babel comes with it: a translation's alone
        )

        ok = isinstance(value, list) and value and all(
            isinstance(v, str) and lang_problem(v) is None for v in value)
        return tuple(dict.fromkeys(value)) if ok else None
    choices = {"papers": PAPER_KEYS, "editions": EDITIONS}.get(kind)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    if choices is not None:
        if not value or any(v not in choices for v in value):
            return None
        return tuple(c for c in choices if c in value)  # in the canonical order, once each
    return tuple(dict.fromkeys(value))


def _limits(value: Any) -> dict[str, Any] | None:
    """[limits] as Project's fields; None when a key is unknown or a value out of range."""
    if not isinstance(value, dict) or not set(value) <= {"engine_seconds", "engine_memory_mb"}:
        return None
    seconds = value.get("engine_seconds", ENGINE_SECONDS)
    memory = value.get("engine_memory_mb", ENGINE_MEMORY_MB)
    if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
            or not 0 < seconds <= MAX_ENGINE_SECONDS):
        return None
    if (isinstance(memory, bool) or not isinstance(memory, int)
            or not MIN_ENGINE_MEMORY_MB <= memory <= MAX_ENGINE_MEMORY_MB):
        return None
    return {"engine_seconds": float(seconds), "engine_memory_mb": memory}


def _key_lines(text: str) -> dict[str, int]:
    """Top-level key -> its line (keys inside [tables] are not rulepress's)."""
    lines: dict[str, int] = {}
    in_table = False
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_table = True
            lines.setdefault(stripped.strip("[] "), n)
        elif not in_table:
            m = _KEY_LINE.match(line)
            if m:
                lines.setdefault(m[1].strip('"'), n)
    return lines


def chosen_games(project: Project, games: Sequence[str]) -> tuple[str, ...]:
    """The games a command works on: those named, else the project's default list (else all)."""
    return tuple(games) or project.games


_LANGUAGES = re.compile(r"^(?P<head>languages\s*=\s*)\[[^\]]*\]", re.M)


def add_languages(project: Project, langs: Sequence[str]) -> tuple[str, ...]:
    """Add ``langs`` to the project's ``languages`` in rulepress.toml (created with that key
    alone when there is none), its other lines and comments kept; the codes added. What is
    written is read back as a project before it replaces the file."""
    added = tuple(lang for lang in dict.fromkeys(langs) if lang not in project.languages)
    if not added:
        return ()
    path = project.config or project.root / CONFIG
    text = read_regular(path).decode("utf-8") if project.config is not None else ""
    line = "languages = [" + ", ".join(f'"{x}"' for x in project.languages + added) + "]"
    found = _LANGUAGES.search(text)
    if found is not None and _key_lines(text).get("languages") == text.count(
            "\n", 0, found.start()) + 1:
        text = text[:found.start()] + line + text[found.end():]
    else:  # a top-level key: before the first [table]
        table = re.search(r"^\s*\[", text, re.M)
        at = table.start() if table else len(text)
        before = text[:at] + ("\n" if text[:at] and not text[:at].endswith("\n") else "")
        text = before + line + "\n" + text[at:]
    tmp = path.with_name(f".{path.name}.new")
    try:
        tmp.write_text(text, encoding="utf-8")
        if read_config(tmp).languages != project.languages + added:
            raise RulepressError.at(SourceLoc(path, 1), "cannot add the languages: its "
                                                        "languages key is not a plain list")
        os.replace(tmp, path)
    except OSError as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot write: {exc.strerror}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return added
