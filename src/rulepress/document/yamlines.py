"""YAML that remembers where each key was written, so diagnostics can point at it."""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from typing import Any

import yaml

from rulepress.limits import MAX_NUMBER_DIGITS, MAX_YAML_CHARS, MAX_YAML_DEPTH, MAX_YAML_NODES

KeyPath = tuple[str | int, ...]
# libyaml's parser when PyYAML was built with it: several times faster on long rule texts.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line  # 1-based, in the file


_UNCLOSED = {"parsing a flow sequence": "the list '['", "parsing a flow mapping": "the mapping '{'",
             "scanning a quoted scalar": "the quoted text"}


def closest_line(lines: Mapping[KeyPath, int], path: KeyPath) -> int | None:
    """The line of the key at ``path``, else of its closest enclosing key that has one."""
    for n in range(len(path), 0, -1):
        if path[:n] in lines:
            return lines[path[:n]]
    return None


def load(text: str, first_line: int) -> tuple[Any, dict[KeyPath, int]]:
    """Parse ``text`` (which starts at file line ``first_line``); return data and key lines."""
    lines: dict[KeyPath, int] = {}
    try:
        try:
            node = yaml.compose(text, Loader=_LOADER)
        except (yaml.YAMLError, RecursionError):
            # The library may refuse deep nesting itself (libyaml stops at 1000 levels and
            # scans ahead of the parser; pure-Python PyYAML recurses): our limit, in our words.
            _depth_first(text, first_line)
            raise
        if node is None:
            return None, lines
        # One parse: the data is built from the same node tree the key lines are read from.
        constructor = yaml.constructor.SafeConstructor()
        _walk(node, (), first_line, lines, constructor, _Budget())
        return constructor.construct_document(node), lines
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + (mark.line if mark else 0)
        problem = exc.problem or exc.context or "malformed YAML"
        opened = _UNCLOSED.get((exc.context or "").removeprefix("while ").strip())
        start = exc.context_mark
        if opened and start is not None and mark is not None and start.line < mark.line:
            # The parser notices an unclosed [ { or quote only lines later: the mistake is
            # where it was opened.
            raise YamlError(f"malformed YAML: {opened} opened at column {start.column + 1} is "
                            f"not closed ({problem})", first_line + start.line) from None
        raise YamlError(f"malformed YAML: {problem}", line) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"malformed YAML: {exc}", first_line) from None
    except RecursionError:  # not past our limit (_depth_first found none), yet too deep
        raise YamlError(f"nested more than {MAX_YAML_DEPTH} levels deep", first_line) from None


def _depth_first(text: str, first: int) -> None:
    """Raise at the first node nested deeper than MAX_YAML_DEPTH, reading events with the
    pure-Python parser (it has no nesting limit of its own and does not recurse) and stopping
    there; a text that is not too deep before its first syntax error passes."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.NodeEvent) and depth > MAX_YAML_DEPTH:
                mark = event.start_mark
                raise YamlError(f"nested more than {MAX_YAML_DEPTH} levels deep",
                                first + (mark.line if mark else 0))
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except (yaml.YAMLError, RecursionError):
        return


class _Budget:
    """What the data may grow to with every alias expanded (aliases share one node, so a
    kilobyte of them can stand for gigabytes once the data is walked, printed or compared)."""

    def __init__(self) -> None:
        self.nodes = MAX_YAML_NODES
        self.chars = MAX_YAML_CHARS

    def spend(self, node: yaml.Node, depth: int, first: int) -> None:
        line = first + node.start_mark.line
        if depth > MAX_YAML_DEPTH:
            raise YamlError(f"nested more than {MAX_YAML_DEPTH} levels deep", line)
        self.nodes -= 1
        if isinstance(node, yaml.ScalarNode):
            self.chars -= len(node.value)
        if self.nodes < 0:
            raise YamlError(f"more than {MAX_YAML_NODES:,} values once its aliases (*name) are "
                            "expanded", line)
        if self.chars < 0:
            raise YamlError(f"more than {MAX_YAML_CHARS:,} characters of text once its aliases "
                            "(*name) are expanded", line)


def _walk(
    node: yaml.Node,
    path: KeyPath,
    first: int,
    lines: dict[KeyPath, int],
    constructor: yaml.constructor.SafeConstructor,
    budget: _Budget,
) -> None:
    budget.spend(node, len(path), first)
    if node.tag not in constructor.yaml_constructors:  # PyYAML would word it itself
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        raise YamlError(f"unknown tag '{tag}': write a plain value, list or mapping",
                        first + node.start_mark.line)
    if isinstance(node, yaml.MappingNode):
        seen: set[object] = set()
        for key_node, value_node in node.value:
            line = first + key_node.start_mark.line
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError("a key must be a plain value, not a list or mapping", line)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError("'<<' (merging a mapping into this one) is not supported: write "
                                "the keys out", line)
            _scalar(key_node, line, constructor)
            key = constructor.construct_object(key_node)
            if key in seen:
                raise YamlError(f"duplicate key '{key}'", line)
            seen.add(key)
            child = (*path, key if isinstance(key, int) else str(key))
            lines[child] = line
            _walk(value_node, child, first, lines, constructor, budget)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[(*path, i)] = first + item.start_mark.line
            _walk(item, (*path, i), first, lines, constructor, budget)
    else:
        _scalar(node, first + node.start_mark.line, constructor)


def _scalar(node: yaml.Node, line: int, constructor: yaml.constructor.SafeConstructor) -> None:
    """Build a scalar now (the document reuses it), so a value YAML accepts and Python refuses
    is an error at its line, not a traceback later."""
    if "\x00" in node.value:  # "\0" in quotes: no path, name or text can hold it
        raise YamlError("a NUL character ('\\0') is not allowed", line)
    shown = node.value if len(node.value) <= 20 else node.value[:20] + "..."
    if node.tag == "tag:yaml.org,2002:int":
        digits = len(_NOT_DIGITS.sub("", node.value.lstrip("+-").removeprefix("0")))
        if digits > MAX_NUMBER_DIGITS:  # Python would refuse to read or print it, in its words
            raise YamlError(f"cannot read {shown!r}: a whole number of {digits:,} digits, more "
                            f"than the limit of {MAX_NUMBER_DIGITS}", line)
    elif node.tag == "tag:yaml.org,2002:timestamp":
        _date(node.value, shown, line)
    try:
        constructor.construct_object(node)
    except (ValueError, LookupError, AttributeError):  # '!!int abc', '!!timestamp hello'
        kind = _KINDS.get(node.tag, "value of its tag")
        raise YamlError(f"cannot read {shown!r}: not a {kind}", line) from None


_KINDS = {f"tag:yaml.org,2002:{tag}": kind for tag, kind in [
    ("int", "whole number"), ("float", "number"), ("bool", "true or false value"),
    ("timestamp", "date")]}


_NOT_DIGITS = re.compile(r"^[xob]|[^0-9a-fA-F]")  # a base's letter, '_' and ':' separators


def _date(text: str, shown: str, line: int) -> None:
    """Refuse a date the calendar does not have (2024-02-30) before datetime does, in its words."""
    m = yaml.constructor.SafeConstructor.timestamp_regexp.match(text)
    if m is None:
        return
    year, month, day = int(m["year"]), int(m["month"]), int(m["day"])
    if year < 1:
        raise YamlError(f"cannot read {shown!r}: there is no year 0", line)
    if not 1 <= month <= 12:
        raise YamlError(f"cannot read {shown!r}: there is no month {month}", line)
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        raise YamlError(f"cannot read {shown!r}: {calendar.month_name[month]} {year} has no day "
                        f"{day}", line)
    hour, minute, second = (int(m[k] or 0) for k in ("hour", "minute", "second"))
    if hour > 23 or minute > 59 or second > 59:
        raise YamlError(f"cannot read {shown!r}: there is no time {m['hour']}:{m['minute']}:"
                        f"{m['second']}", line)
