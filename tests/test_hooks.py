"""The check's hooks: each registered name loads the hook of that name, a generator names only
registered hooks, and a check runs each hook once however many generators name it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.books import Books
from rulepress.document.reader import read_document
from rulepress.pnp.generator import Kits
from rulepress.simulate.checks import PLAYTEST
from rulepress.validate import hooks as registry
from rulepress.validate.hooks import (
    EVERY,
    DocumentHook,
    Hooks,
    KitHook,
    ReportHook,
    hook,
)
from rulepress.validate.printing import check_printing

SOURCES = Path(__file__).parent.parent / "sources"


def test_every_registered_name_loads_the_hook_of_that_name() -> None:
    kinds = {name: type(hook(name)) for name in EVERY}
    assert kinds == {"references": DocumentHook, "glyphs": DocumentHook,
                     "glossary": DocumentHook, "teaching": DocumentHook,
                     "hyphenation": DocumentHook, "playtest": ReportHook, "kit": KitHook}


def test_the_generators_name_registered_hooks_and_together_every_one() -> None:
    named = [*Books.checks, *Kits.checks]
    assert set(named) <= set(EVERY)
    assert Hooks.named(Books.checks, Kits.checks, Books.checks).names == tuple(named)
    assert set(Hooks.named(Books.checks, Kits.checks).names) == set(EVERY)


def test_a_hook_named_twice_runs_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    counted = DocumentHook("counted", lambda doc, examples: calls.append(doc.slug) or [])
    monkeypatch.setitem(registry.REGISTRY, "counted", "tests:unused")
    monkeypatch.setitem(registry._loaded, "counted", counted)
    doc = read_document(SOURCES / "worm-derby" / "rules.md")
    check_printing([doc], hooks=Hooks.named(("counted",), ("counted", "glossary")))
    assert calls == ["worm-derby"]


def test_a_name_bound_to_another_hook_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.REGISTRY, "renamed", "rulepress.pnp.measure:KIT")
    with pytest.raises(TypeError, match="is not the check hook 'renamed'"):
        hook("renamed")


def test_two_hooks_that_check_playtest_reports_are_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    other = ReportHook("other", PLAYTEST.sample, PLAYTEST.check)
    monkeypatch.setitem(registry.REGISTRY, "other", "tests:unused")
    monkeypatch.setitem(registry._loaded, "other", other)
    with pytest.raises(TypeError, match="two check hooks check playtest reports: playtest, other"):
        Hooks.named(("playtest", "other")).report()
