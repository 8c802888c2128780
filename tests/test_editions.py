"""Two editions from one source: what the markers keep in each, and bad markers refused."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import support

from rulepress.document.reader import read_document

GOOD = Path(__file__).parent / "fixtures" / "roots" / "good" / "tiny"

BODY = """\
# Tiny Race

## Goal

Reach square ten exactly.

::: reference
A note from the designer: ten was chosen after playtests.
:::

## A turn

Move one, two or three squares, as in [the first example](#example-three-steps).

```example
id: three-steps
title: Two moves
setup: {at: 2}
moves: ["+3", "+2"]
claims:
  at: 7
  legal: true
text: |
  From square {{ setup.at }} the pawn reaches square {{ claims.at }}.
```

```example
id: overshoot
edition: reference
title: A move may not pass the goal
setup: {at: 9}
moves: ["+2"]
claims:
  legal: false
  reason: a move may not pass the goal
text: |
  Moving {{ moves[0] }} is refused: {{ claims.reason }}.
```

## Rulings

- A move that passes the goal is refused.
  ::: reference
  > "You must land exactly." (the original, page one)
  :::

## Clarifications {.reference}

The overshoot example shows it: [overshoot](#example-overshoot).

### How the goal was chosen

Ten squares fit a small table.

## Quick reference {.player}

Move one to three; land on ten.
"""


def game(tmp_path: Path, body: str = BODY, extra: str = "") -> Path:
    folder = tmp_path / "sources" / "tiny"
    shutil.copytree(GOOD, folder)
    rules = folder / "rules.md"
    text = rules.read_text()
    front = text[: text.index("---", 4) + 4]
    rules.write_text(front.replace("engine: tiny_race", f"engine: tiny_race{extra}") + body)
    return rules


def run(*args: str) -> tuple[int, str]:
    code, said = support.run(*args)
    assert "Traceback" not in said
    return code, said


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("editions")
    game(tmp)
    out = tmp / "out"
    code, err = run("build", "--sources", str(tmp / "sources"), "--out", str(out), "--paper",
                    "a4", "--jobs", "1")
    assert code == 0, err
    return {name: (out / "tiny" / f"{name}.html").read_text()
            for name in ("tiny", "tiny-reference")}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_player_edition_leaves_out_what_is_marked_reference(books: dict[str, str]) -> None:
    player = text_of(books["tiny"])
    assert "Reach square ten exactly." in player and "A move that passes the goal" in player
    for gone in ("A note from the designer", "You must land exactly", "How the goal was chosen",
                 "Clarifications", "A move may not pass the goal"):
        assert gone not in player, gone
    assert "Move one to three; land on ten." in player
    assert 'id="example-overshoot"' not in books["tiny"]


def test_the_reference_edition_keeps_everything_but_player_only_parts(
    books: dict[str, str]
) -> None:
    reference = text_of(books["tiny-reference"])
    for kept in ("A note from the designer", "You must land exactly", "How the goal was chosen",
                 "Clarifications", "A move may not pass the goal"):
        assert kept in reference, kept
    assert "Move one to three; land on ten." not in reference
    assert 'id="clarifications"' in books["tiny-reference"]
    assert "{.reference}" not in books["tiny-reference"]


def test_only_the_reference_edition_shows_claims_and_moves(books: dict[str, str]) -> None:
    assert 'class="claims"' in books["tiny-reference"] and "+3" in books["tiny-reference"]
    assert 'class="claims"' not in books["tiny"] and 'class="moves"' not in books["tiny"]
    assert "Proven by the rules engine" not in books["tiny"]
    assert "From square 2 the pawn reaches square 7." in books["tiny"]


def test_each_edition_lists_its_own_contents_and_links_the_other(books: dict[str, str]) -> None:
    def contents(html: str) -> list[str]:
        start = html.index('class="toc-list"')
        toc = html[start: html.index("</nav>", start)]
        return re.findall(r'class="toc-link" href="#([^"]+)"', toc)

    assert "clarifications" not in contents(books["tiny"])
    assert "quick-reference" in contents(books["tiny"])
    assert contents(books["tiny-reference"])[-4:] == [
        "how-the-goal-was-chosen", "rp-notation", "rp-index", "rp-credits"]
    assert 'href="tiny-reference.html"' in books["tiny"]
    assert 'href="tiny.html"' in books["tiny-reference"]


def test_a_section_marked_in_one_file_ends_at_the_next_heading_of_another(
    tmp_path: Path
) -> None:
    at = BODY.index("### How the goal")
    rules = game(tmp_path, BODY[:at], "\nfiles: [more.md]")
    (rules.parent / "more.md").write_text(BODY[at:])
    doc = read_document(rules)
    spans = {(s.path.name, s.first, s.last, s.edition) for s in doc.spans}
    lines = BODY[at:].split("\n")
    quick = 1 + lines.index("## Quick reference {.player}")
    clarifications = 1 + rules.read_text().split("\n").index("## Clarifications {.reference}")
    last_of_rules = rules.read_text().count("\n") + 1
    assert ("rules.md", clarifications, last_of_rules, "reference") in spans
    assert ("more.md", 1, quick - 1, "reference") in spans  # it goes on in the next file
    assert ("more.md", quick, len(lines), "player") in spans


@pytest.mark.parametrize(("edit", "message"), [
    (("## Clarifications {.reference}", "## Clarifications {.referee}"),
     "heading 'Clarifications': 'referee' names no edition; mark player or reference"),
    (("::: reference\nA note", "::: notes\nA note"),
     "'notes' names no edition; mark player or reference"),
    (("  ::: reference\n  > \"You must land exactly.\" (the original, page one)\n  :::\n",
      "  ::: reference\n  > \"You must land exactly.\" (the original, page one)\n"),
     "this '::: reference' block is never closed, so it runs to the end of the file (or of "
     "its list item): end it with a ':::' line"),
    (("```example\nid: overshoot", "```Example\nid: overshoot"),
     "a fence of 'Example' would show a plain code block, never checked: write 'example' "
     "alone after the backticks"),
    (("```example\nid: three-steps", "```example {.reference}\nid: three-steps"),
     "a fence of 'example {.reference}' would show a plain code block, never checked: write "
     "'example' alone after the backticks"),
    (("edition: reference", "edition: expert"),
     "example edition: 'expert' names no edition; mark player or reference"),
    (("Ten squares fit", "See [the overshoot](#example-overshoot). Ten squares fit"), None),
    (("Reach square ten exactly.", "Reach ten, as [overshoot](#example-overshoot) shows."),
     "refused link '#example-overshoot': the player edition leaves '#example-overshoot' out "
     "but prints this link"),
    (("Reach square ten exactly.", "Reach ten ([quick](#quick-reference))."),
     "refused link '#quick-reference': the reference edition leaves '#quick-reference' out "
     "but prints this link"),
])
def test_bad_markers_and_links_to_what_an_edition_leaves_out(
    tmp_path: Path, edit: tuple[str, str], message: str | None
) -> None:
    body = BODY.replace(*edit)
    assert body != BODY
    rules = game(tmp_path, body)
    code, err = run("check", "--sources", str(tmp_path / "sources"))
    if message is None:
        assert code == 0, err
        return
    assert code == 2
    line = 1 + rules.read_text().split("\n").index(
        next(ln for ln in rules.read_text().split("\n") if edit[1].split("\n")[0] in ln))
    assert re.search(rf"rules\.md:{line}:\d+: error: {re.escape(message)}", err), err


def test_a_heading_may_ask_for_a_new_page_and_one_edition(tmp_path: Path) -> None:
    body = BODY.replace("## Quick reference {.player}", "## Quick reference {.player .new-page}")
    game(tmp_path, body)
    out = tmp_path / "out"
    code, err = run("build", "--sources", str(tmp_path / "sources"), "--out", str(out),
                    "--paper", "a4", "--jobs", "1", "--edition", "player")
    assert code == 0, err
    html = (out / "tiny" / "tiny.html").read_text()
    assert '<h2 id="quick-reference" class="rank-1 new-page">Quick reference</h2>' in html
    from pypdf import PdfReader

    pages = [p.extract_text() for p in PdfReader(out / "tiny" / "tiny-a4.pdf").pages]
    starts = [n for n, text in enumerate(pages) if "Quick reference\n" in text[:80]]
    assert starts and "Move one to three" in pages[starts[-1]]


def test_a_heading_in_two_editions_is_an_error(tmp_path: Path) -> None:
    rules = game(tmp_path, BODY.replace("{.player}", "{.player .reference}"))
    code, err = run("check", "--sources", str(tmp_path / "sources"))
    line = 1 + rules.read_text().split("\n").index("## Quick reference {.player .reference}")
    assert code == 2
    assert (f"rules.md:{line}:1: error: heading 'Quick reference': a heading belongs to one "
            "edition, or to both when unmarked") in err
