"""Example prose: Markdown whose numbers come from the example's own data through Jinja.

It renders in the sandbox with nothing but the data in scope (no range, no globals), against
the clock and size limits. The no-bare-number rule is judged on the parsed template, so
``{{ 7 }}`` or ``{{ "7" }}`` cannot slip a number past it; a number may only pick an item out
of the data (``moves[0]``, ``claims.points[1]``, ``moves[0][:3]``).
"""

from __future__ import annotations

import base64
import marshal
import re
from functools import cache, lru_cache
from types import CodeType
from typing import Any

import jinja2
from jinja2 import nodes

from rulepress import memo
from rulepress.cache import code_digest, digest
from rulepress.diagnostics import Diagnostic, RulepressError, error
from rulepress.document.model import Example
from rulepress.limits import MAX_PROSE_CHARS, PROSE_SECONDS
from rulepress.sandbox import Sandbox, TemplateProblem, render

_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"\d[\d.,]*")


@cache
def environment() -> Sandbox:
    env = Sandbox(autoescape=False)
    env.globals.clear()
    return env


@lru_cache(maxsize=1024)
def _template(text: str) -> jinja2.Template:
    """An example's prose, compiled once a process (a check, then the build's pages; serve's
    checks, edit after edit): compiling is most of what rendering it costs. The compiled
    code is kept in the memo, so that serve's next rebuild, a fresh process, loads it."""
    env = environment()
    key = digest("prose", text, code_digest())  # the code digest names Python and Jinja too
    kept = memo.get(key)
    if isinstance(kept, str):
        try:
            code = marshal.loads(base64.b64decode(kept))
        except (ValueError, EOFError, TypeError):
            pass
        else:
            if isinstance(code, CodeType):
                return env.template_class.from_code(env, code, env.make_globals(None), None)
    code = env.compile(text)
    memo.put(key, base64.b64encode(marshal.dumps(code)).decode("ascii"))
    return env.template_class.from_code(env, code, env.make_globals(None), None)


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
        text = render(lambda: _template(example.text).render(context), PROSE_SECONDS,
                      MAX_PROSE_CHARS, "the example text", env)
    except TemplateProblem as problem:
        message = f"{example.id}: example text: {problem.message}"
        if problem.limit:
            raise RulepressError.at(loc, message) from None
        return example.text, [error(loc, message)]
    return text, []
