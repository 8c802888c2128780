"""Limits that need inputs too large to keep in the hostile corpus, made here instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulepress.diagnostics import RulepressError
from rulepress.document import yamlines
from rulepress.document.reader import read_document
from rulepress.limits import MAX_NUMBER_DIGITS, MAX_SOURCE_BYTES, MAX_YAML_DEPTH
from rulepress.units import Size, UnitError, parse_length


def test_a_rule_text_past_the_size_limit_is_refused_at_its_first_line(tmp_path: Path) -> None:
    rules = tmp_path / "rules.md"
    rules.write_bytes(b"---\n" + b"#" * MAX_SOURCE_BYTES)
    with pytest.raises(RulepressError) as err:
        read_document(rules)
    (diag,) = err.value.diagnostics
    assert diag.loc is not None and (diag.loc.path, diag.loc.line) == (rules, 1)
    assert f"more than the limit of {MAX_SOURCE_BYTES}" in diag.message


@pytest.mark.parametrize("text", ["9" * 400 + "mm", "9" * 400 + ".5in", "0.001mm", "1001mm", "4pt"])
def test_component_sides_outside_the_printable_range_are_refused(text: str) -> None:
    with pytest.raises(UnitError, match="outside the printable range"):
        Size.parse(f"{text} x 20mm")


@pytest.mark.parametrize("text", ["5mm", "1000mm", "100cm", "2.5in"])
def test_component_sides_at_the_bounds_are_kept(text: str) -> None:
    assert 5 <= Size.parse(f"20mm x {text}").height <= 1000


@pytest.mark.parametrize("text", ["9" * 400 + "mm", "1001mm"])
def test_any_length_past_the_longest_printable_one_is_refused(text: str) -> None:
    with pytest.raises(UnitError, match="longer than the longest printable length"):
        parse_length(text)


def test_a_type_size_may_be_far_below_a_component_side() -> None:
    assert parse_length("6.5pt") == pytest.approx(6.5 * 25.4 / 72)


# 5000 levels and the line (of 10 + n) of the first one past ours
DEEP = {
    "flow": ("a:\n" + "  [\n" * 5000 + "]" * 5000, 1 + MAX_YAML_DEPTH),
    "block": ("a:\n  " + "- " * 5000 + "x", 1),
    "mappings": ("a: " + "{a: " * 5000 + "}" * 5000, 0),
}


@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])
@pytest.mark.parametrize("shape", sorted(DEEP))
def test_nesting_past_any_yaml_library_limit_is_refused_in_our_words(
    loader: str, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # libyaml stops itself at 1000 levels and pure-Python PyYAML recurses: either way the
    # message and the line are ours.
    if not hasattr(yaml, loader):
        pytest.skip(f"PyYAML built without {loader}")
    monkeypatch.setattr(yamlines, "_LOADER", getattr(yaml, loader))
    with pytest.raises(yamlines.YamlError) as err:
        yamlines.load(DEEP[shape][0], first_line=10)
    assert err.value.message == f"nested more than {MAX_YAML_DEPTH} levels deep"
    assert err.value.line == 10 + DEEP[shape][1]


@pytest.mark.parametrize(("text", "message"), [
    ("9" * MAX_NUMBER_DIGITS, None),
    ("0x" + "f" * MAX_NUMBER_DIGITS, None),
    ("9" * (MAX_NUMBER_DIGITS + 1), f"a whole number of {MAX_NUMBER_DIGITS + 1} digits, more "
                                    f"than the limit of {MAX_NUMBER_DIGITS}"),
    ("-0b" + "1_" * MAX_NUMBER_DIGITS + "1", f"a whole number of {MAX_NUMBER_DIGITS + 1} "
                                             f"digits, more than the limit of {MAX_NUMBER_DIGITS}"),
    ("0000-01-01", "there is no year 0"),
    ("2023-02-29", "February 2023 has no day 29"),
    ("2024-01-01 24:00:00", "there is no time 24:00:00"),
])
def test_numbers_and_dates_are_bounded_in_our_words(text: str, message: str | None) -> None:
    if message is None:
        data, _ = yamlines.load(f"a: {text}", first_line=3)
        assert str(data["a"])  # printable: Python's own digit limit is never reached
        return
    with pytest.raises(yamlines.YamlError) as err:
        yamlines.load(f"a: {text}", first_line=3)
    assert (err.value.message.split(": ", 1)[1], err.value.line) == (message, 3)


@pytest.mark.parametrize(("text", "tag"), [
    ("!foo x", "!foo"), ("!!python/name:os.system x", "!!python/name:os.system")])
def test_an_unknown_yaml_tag_is_refused_in_our_words(text: str, tag: str) -> None:
    with pytest.raises(yamlines.YamlError) as err:
        yamlines.load(f"a: 1\nb: {text}", first_line=3)
    assert (err.value.message, err.value.line) == (
        f"unknown tag '{tag}': write a plain value, list or mapping", 4)


@pytest.mark.slow  # waits out the typesetting's time limit
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_typesetting_that_never_ends_fails_the_build_at_its_print_css(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """A print.css that makes nested lists flex boxes: each level triples the typesetter's work,
    within every limit on the input. The build stops at RENDER_SECONDS of CPU time (made short
    here), in this process (--jobs 1) or in a worker, writes nothing and names the print.css."""
    from support import run

    from rulepress import limits
    from rulepress.scaffold import new_project

    project = new_project("demo", tmp_path)
    game = project / "sources" / "demo"
    nested = "\n".join("  " * n + f"- level {n}" for n in range(8))
    rules = game / "rules.md"
    rules.write_text(rules.read_text().replace("## A turn", f"## Nested\n\n{nested}\n\n## A turn"))
    (game / "templates").mkdir()
    css = game / "templates" / "print.css"
    css.write_text("@page { size: {{ page_size }}; margin: 20mm }\nul, li { display: flex }\n")
    monkeypatch.setattr(limits, "RENDER_SECONDS", 2.0)
    out = tmp_path / "out"
    code, err = run("build", "--project", str(project), "--out", str(out), "--paper", "a4",
                    "--jobs", jobs)  # two editions: two typesettings, in two workers with -j 2
    assert code == 2, err
    assert re.search(rf"{re.escape(str(css))}:1:1: error: cannot render demo(-reference)?-a4.pdf: "
                     r"typesetting took more than 2 s of CPU time \(RENDER_SECONDS, see Limits "
                     r"in docs/authoring.md\)", err), err
    assert "Traceback" not in err
    assert not (out / "demo").exists()


def test_a_shorter_deadline_inside_a_longer_one_holds_and_gives_the_rest_back() -> None:
    """A template's seconds inside a book's typesetting: the inner limit fired only after the
    outer one (the build's 180 s), so a print.css that never finished hung the build."""
    import signal
    import time

    from rulepress.sandbox import Timeout, deadline

    def spin(seconds: float) -> None:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    with deadline(30):
        start = time.process_time()
        with pytest.raises(Timeout), deadline(0.2):
            spin(10)
        assert time.process_time() - start < 5
        left = signal.getitimer(signal.ITIMER_PROF)[0]
        assert 20 < left <= 30  # the outer deadline's own time, less what was spent
        with deadline(60):  # longer than the outer: the outer still holds
            assert signal.getitimer(signal.ITIMER_PROF)[0] <= 30
    assert signal.getitimer(signal.ITIMER_PROF)[0] == 0
