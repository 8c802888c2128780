"""Example prose: Markdown whose numbers come from the example's own data through Jinja.

It renders in the sandbox with nothing but the data in scope (no range, no globals), against
the clock and size limits. The no-bare-number rule is judged on the parsed template, so
``{{ 7 }}`` or ``{{ "7" }}`` cannot slip a number past it; a number may only pick an item out
of the data (``moves[0]``, ``claims.points[1]``, ``moves[0][:3]``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from functools import cache
from types import CodeType
from typing import Any

import jinja2
from jinja2 import nodes

from rulepress import memo
from rulepress.cache import cache_key
from rulepress.diagnostics import Diagnostic, RulepressError, error
from rulepress.document.model import Example
from rulepress.limits import MAX_PROSE_CHARS, PROSE_SECONDS
from rulepress.sandbox import Sandbox, TemplateProblem, render

_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"\d[\d.,]*")


class _Texts(jinja2.BaseLoader):
    """Example prose by name, a prose's name being its own text: loaded through a loader, it
    is compiled through the bytecode cache."""

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, None, Callable[[], bool] | None]:
        return template, None, None


class _Kept(jinja2.BytecodeCache):
    """Compiled prose kept in the memo, so that serve's next rebuild, a fresh process, loads
    it rather than compiling it again (compiling is most of what rendering prose costs)."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = memo.get(self._key(bucket))
        if not isinstance(kept, str):
            return
        try:
            bucket.bytecode_from_string(base64.b64decode(kept))
        except Exception:  # noqa: BLE001 - a damaged entry is a miss (memo.py)
            bucket.reset()
        if not isinstance(bucket.code, CodeType):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        memo.put(self._key(bucket), base64.b64encode(bucket.bytecode_to_string()).decode())

    @staticmethod
    def _key(bucket: jinja2.bccache.Bucket) -> str:
        # the code digest names Python and Jinja too: their code objects differ between versions
        return cache_key("prose", bucket.key, bucket.checksum, theme=False)


@cache
def environment() -> Sandbox:
    """The sandbox that compiles example prose: each text once a process (a check, then the
    build's pages; serve's checks, edit after edit) in its template cache, and once for all
    processes in the memo."""
    env = Sandbox(autoescape=False, loader=_Texts(), bytecode_cache=_Kept(), cache_size=1024)
    env.globals.clear()
    return env


def shows_a_number(text: str) -> str | None:
    """The first number the prose ``text`` prints that does not come from the data, or None.

    TemplateSyntaxError when ``text`` is not a template."""
    tree = environment().parse(text)
    keys = {id(n) for item in tree.find_all(nodes.Getitem)
            for n in [item.arg, *item.arg.find_all(nodes.Const)]}
    for data in tree.find_all(nodes.TemplateData):
        if m := _NUMBER.search(data.data):
            return m.group().rstrip(".,")
    for node in tree.find_all(nodes.Const):
        if (id(node) not in keys and isinstance(node.value, str | int | float)
                and not isinstance(node.value, bool) and _DIGIT.search(str(node.value))):
            return str(node.value)
    return None


def data_holding(number: str, data: Any, path: str = "") -> str | None:
    """Where in an example's data ``number`` is, as the prose would write it (``claims.pot``,
    ``setup.banked[0]``); None when it is nowhere."""
    if isinstance(data, dict):
        for key, value in data.items():
            step = f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{key!r}]"
            found = data_holding(number, value, f"{path}{step}" if path else str(key))
            if found:
                return found
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found = data_holding(number, value, f"{path}[{i}]")
            if found:
                return found
    elif not isinstance(data, bool) and isinstance(data, int | float | str) and path:
        return path if str(data) == number else None
    return None


def render_prose(example: Example) -> tuple[str, list[Diagnostic]]:
    """Fill the example's prose from its own data and claims.

    A name the data lacks is a diagnostic of the example; prose that breaks a limit (time, size,
    an operation the sandbox refuses) is bad input, raised at once as a RulepressError."""
    context = {**example.data, "claims": example.claims}
    loc = example.line_of(("text",))
    env = environment()
    try:
        text = render(lambda: env.get_template(example.text).render(context), PROSE_SECONDS,
                      MAX_PROSE_CHARS, "the example text", env)
    except TemplateProblem as problem:
        message = f"{example.id}: example text: {problem.message}"
        if problem.limit:
            raise RulepressError.at(loc, message) from None
        return example.text, [error(loc, message)]
    return text, []
