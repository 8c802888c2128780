"""Faces from data: a CSV deck, inline rows and rule text drawn by layout files, read back from
the PDFs; every bad layout or data file answered at its file:line with exit 2 and nothing
written."""

from __future__ import annotations

import functools
import io
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pypdf
import pytest
from support import run

from rulepress.document.reader import read_document
from rulepress.pnp.kit import build_kit, kit_diagnostics

FIXTURE = Path(__file__).parent / "fixtures" / "layouts" / "deck"



@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the fixture deck to change: tmp_path/sources/deck."""
    target = tmp_path / "sources" / "deck"
    shutil.copytree(FIXTURE, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, 1))


def text_of(pdf: bytes) -> str:
    """The words of every page, in reading order (pypdf follows rotated faces)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return " ".join(" ".join(p.extract_text() or "" for p in reader.pages).split())


def test_rows_explode_by_qty_and_the_count_follows() -> None:
    doc = read_document(FIXTURE / "rules.md")
    counts = {c.id: c.count for c in doc.meta.components}
    assert counts == {"deck": 4, "markers": 3, "aid": 2}  # qty 2+1+1; 2+1 inline rows
    kit = build_kit(doc, {}, "a4")
    assert dict(kit.drawn) == counts
    assert kit.backs["deck"] == 4


def test_the_kit_prints_each_rows_fields_and_the_rulebooks_text() -> None:
    kit = build_kit(read_document(FIXTURE / "rules.md"), {}, "a4")
    words = text_of(kit.pdf)
    for phrase in ("Leads every trick.", "Steals one card.", "Start", "Goal", "Layout Deck",
                   "Play one card, then draw one.", "The game ends when the deck runs out."):
        assert phrase in words


def test_check_and_pnp_accept_the_deck(tmp_path: Path) -> None:
    code, err = run("check", "--sources", str(FIXTURE.parent))
    assert code == 0, err
    code, err = run("pnp", "--sources", str(FIXTURE.parent), "--out", str(tmp_path),
                    "--paper", "a4")
    assert code == 0, err
    assert (tmp_path / "deck" / "deck-a4.pdf").stat().st_size > 10_000


def test_editing_the_rule_source_changes_the_printed_card(game: Path) -> None:
    edit(game / "rules.md", "Play one card, then draw one.", "Play two cards, then rest.")
    kit = build_kit(read_document(game / "rules.md"), {}, "a4")
    words = text_of(kit.pdf)
    assert "Play two cards, then rest." in words
    assert "Play one card" not in words


def test_each_distinct_face_and_image_is_drawn_once_into_the_pdf() -> None:
    """Four cards, three distinct: one form per distinct face, one per image, one PNG."""
    kit = build_kit(read_document(FIXTURE / "rules.md"), {}, "a4")
    assert kit.pdf.count(b"/Subtype /Image") == 1  # the PNG, shown on all four cards
    # fronts 3 + the back face 1 + the kit's shared-back form 1 + markers 2 + aid 1 + images 2
    assert kit.pdf.count(b"/Subtype /Form") == 10


# -- errors: each at its own file:line, exit 2, nothing written --------------------------------

LAYOUT = "layouts/card.yml"
CASES = [
    # (file, old, new, where the error is, what it says)
    (LAYOUT, "type: symbol", "type: symbl", f"{LAYOUT}:9:",
     "unknown element type 'symbl' (did you mean 'symbol'?)"),
    (LAYOUT, "    size: 48pt", "    sise: 48pt", f"{LAYOUT}:13:",
     "unknown property 'sise' (did you mean 'size'?)"),
    (LAYOUT, "{{ rank }}", "{{ rnak }}", f"{LAYOUT}:5:",
     "'rnak' is not defined (in the rows at"),
    # a data file's fields are text: `!= 1` would hold on every row and draw every pip
    (LAYOUT, "    size: 48pt", "    size: 48pt\n    when: rank != 1", f"{LAYOUT}:14:",
     "'rank' is text ('A') compared with the number 1 (in the row at"),
    (LAYOUT, "{{ text }}", "{{ text if rank != 2 else '' }}",
     f"{LAYOUT}:21:", "'rank' is text ('A') compared with the number 2"),
    (LAYOUT, "x: 6mm", "x: 6", f"{LAYOUT}:17:", "'6' has no unit: write e.g. 6mm"),
    (LAYOUT, "height: 18mm", "height: 2mm", f"{LAYOUT}:21:",
     "text 'words' does not fit its box (51.5 x 2.0 mm) even at 6 pt"),
    (LAYOUT, "src: images/logo.svg", "src: images/nope.svg", f"{LAYOUT}:31:",
     "image 'images/nope.svg' does not exist in deck/"),
    (LAYOUT, "src: images/logo.svg", "src: ../../escape.svg", f"{LAYOUT}:31:",
     "image '../../escape.svg' must be inside the game's folder"),
    (LAYOUT, "extends: layouts/base.yml", "extends: layouts/card.yml", f"{LAYOUT}:1:",
     "layout 'layouts/card.yml' extends itself"),
    ("layouts/base.yml", 'fill: "{{ colour }}"', 'fill: "{{ colour }}x"', "layouts/base.yml:10:",
     "'redx' is not a colour"),
    ("data/cards.csv", "K,♠,black,1,", "K,♠,black,one,", "data/cards.csv:3:",
     "qty must be a whole number of copies, at least 1, not 'one'"),
    ("data/cards.csv", "K,♠,black,1,", "K,♠,black,²,", "data/cards.csv:3:",
     "qty must be a whole number of copies, at least 1, not '²'"),
    ("data/cards.csv", "K,♠,black,1,", "K,♠,black," + "9" * 5000 + ",", "data/cards.csv:3:",
     "qty must be at most 1000, not 99999999999999999999..."),
    ("rules.md", "data: data/cards.csv", "data: data/card.csv", "rules.md:14:",
     "data file 'data/card.csv' does not exist in deck/"),
    ("rules.md", "    name: Markers\n", "    name: Markers\n    count: 4\n", "rules.md:17:",
     "count is 4 but its data rows make 3 copies"),
    ("rules.md", "rules.section('quick-reference')", "rules.section('quick-refrence')",
     "layouts/aid.yml:13:", "no section 'quick-refrence' (did you mean 'quick-reference'?)"),
    ("layouts/marker.yml", "font: bold", "font: bolt", "layouts/marker.yml:5:",
     "'bolt' is not one of regular, bold, italic, symbols (did you mean 'bold'?)"),
    ("rules.md", "front: layouts/aid.yml", "front: reference-card", "rules.md:26:",
     "no front drawer 'reference-card'. Drawers are Python code a game's engine provides "
     "(this game names no engine); to draw it without code, name a layout file instead"),
]


@pytest.mark.parametrize(("name", "old", "new", "where", "says"), CASES,
                         ids=[c[4][:40] for c in CASES])
def test_a_bad_layout_or_data_file_is_an_error_at_its_line(
    game: Path, name: str, old: str, new: str, where: str, says: str
) -> None:
    target = game / name if name != "rules.md" else game / "rules.md"
    if name == "rules.md" and "quick-refrence" in new:
        target = game / "layouts" / "aid.yml"
    edit(target, old, new)
    out = game.parents[1] / "out"
    for command in (["check"], ["pnp", "--out", str(out)]):
        code, err = run(*command, "--sources", str(game.parent))
        assert code == 2, err
        lines = [ln for ln in err.splitlines() if says in ln]
        assert lines, err
        assert f"deck/{where}" in lines[0], lines[0]
        assert "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(("spoil", "says"), [
    (lambda data: data[:60], "the PNG file is cut short"),
    (lambda data: data[:50] + bytes(b ^ 0x55 for b in data[50:-20]) + data[-20:],
     "the PNG data is damaged"),
])
def test_a_corrupt_image_is_an_error_at_the_layout_line(
    game: Path, spoil: Callable[[bytes], bytes], says: str
) -> None:
    png = game / "images" / "stamp.png"
    png.write_bytes(spoil(png.read_bytes()))
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert f"deck/{LAYOUT}:38:" in err
    assert f"image 'images/stamp.png' cannot be read: {says} (" in err, err


def test_a_chain_of_layouts_past_the_limit_is_an_error_at_the_extends(game: Path) -> None:
    from rulepress.limits import MAX_LAYOUT_EXTENDS

    links = MAX_LAYOUT_EXTENDS + 1
    for n in range(links):  # link0 extends link1 ... the last extends the fixture's base
        parent = f"link{n + 1}.yml" if n + 1 < links else "base.yml"
        (game / "layouts" / f"link{n}.yml").write_text(f"extends: layouts/{parent}\n")
    edit(game / LAYOUT, "extends: layouts/base.yml", "extends: layouts/link0.yml")
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2, err
    last = MAX_LAYOUT_EXTENDS - 1  # card.yml is the first of the chain
    assert (f"deck/layouts/link{last - 1}.yml:1:1: error: layout 'layouts/link{last}.yml' is "
            f"more than {MAX_LAYOUT_EXTENDS} layouts deep (through card.yml -> link0.yml") in err
    edit(game / "layouts" / "link0.yml", "link1.yml", "base.yml")  # two deep: fine
    code, err = run("check", "--sources", str(game.parent))
    assert code == 0, err


def test_a_kit_image_past_the_pixel_limit_is_refused(game: Path) -> None:
    from PIL import Image

    from rulepress.limits import MAX_IMAGE_PIXELS

    side = int(MAX_IMAGE_PIXELS ** 0.5) + 1  # a 1-bit PNG of it is a few kilobytes
    Image.new("1", (side, side)).save(game / "images" / "stamp.png")
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2, err
    assert f"deck/{LAYOUT}:38:" in err, err
    assert f"image 'images/stamp.png' has more than {MAX_IMAGE_PIXELS:,} pixels" in err, err


def test_an_svg_reaching_outside_itself_is_refused(game: Path) -> None:
    (game / "images" / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10"><image xlink:href="file:///etc/passwd" width="10" '
        'height="10"/></svg>')
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert f"deck/{LAYOUT}:31:" in err and "refers to 'file:///etc/passwd'" in err


def test_an_image_linked_out_of_the_game_folder_is_refused(game: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.svg"
    shutil.copy(game / "images" / "logo.svg", outside)
    (game / "images" / "logo.svg").unlink()
    try:
        (game / "images" / "logo.svg").symlink_to(outside)
    except OSError as exc:  # pragma: no cover - the filesystem must allow symlinks
        pytest.fail(f"this test needs symlinks: {exc}")
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert "image 'images/logo.svg' must be inside the game's folder" in err


def test_a_missing_field_in_one_inline_row_names_that_row(game: Path) -> None:
    edit(game / "rules.md", "- {label: Goal}", "- {name: Goal}")
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert "deck/layouts/marker.yml:4:" in err
    assert "'label' is not defined (in the row at" in err and "rules.md:21)" in err


def test_malformed_layout_yaml_is_an_error_at_its_line(game: Path) -> None:
    edit(game / LAYOUT, "    size: 48pt", "    size: [48pt")
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert f"deck/{LAYOUT}:" in err and "malformed YAML" in err


def test_check_reports_every_problem_at_once(game: Path) -> None:
    edit(game / LAYOUT, "type: symbol", "type: symbl")
    edit(game / "layouts" / "marker.yml", "font: bold", "font: bolt")
    doc = read_document(game / "rules.md")
    found = kit_diagnostics(doc, {})
    messages = " ".join(d.message for d in found)
    assert "symbl" in messages and "bolt" in messages


def test_a_back_per_row_shows_each_rows_fields(game: Path) -> None:
    edit(game / "rules.md", "    data: data/cards.csv\n", "    data: data/cards.csv\n"
                                                           "    back_varies: true\n")
    edit(game / "layouts" / "back.yml", 'text: "{{ game.title }}"', 'text: "back of {{ rank }}"')
    kit = build_kit(read_document(game / "rules.md"), {}, "a4")
    words = text_of(kit.pdf)
    assert words.count("back of A") == 2 and words.count("back of K") == 1
    assert kit.backs["deck"] == 4


def test_a_shared_back_sees_no_row(game: Path) -> None:
    edit(game / "layouts" / "back.yml", 'text: "{{ game.title }}"', 'text: "back of {{ rank }}"')
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert "deck/layouts/back.yml:5:" in err
    assert "'rank' is not defined; this face is the same on every copy" in err


@pytest.mark.parametrize(("svg", "says"), [
    (b'<svg xmlns="http://www.w3.org/2000/svg">\n<rect></svg>', "a closing tag does not match "
                                                              "the element it closes (its line 2"),
    (b'<svg xmlns="http://www.w3.org/2000/svg">', "the file ends before its elements are closed"),
])
def test_a_malformed_svg_in_a_kit_is_worded_as_in_a_rulebook(
    tmp_path: Path, svg: bytes, says: str
) -> None:
    from rulepress.images import BadImage, check_image
    from rulepress.pnp.faces.images import ImageProblem, open_image

    (tmp_path / "bad.svg").write_bytes(svg)
    said = re.escape(f"not well-formed SVG: {says}")
    with pytest.raises(ImageProblem, match=f"^refused image 'bad.svg': {said}"):
        open_image(tmp_path, "bad.svg")
    with pytest.raises(BadImage, match=f"^{said}"):
        check_image(tmp_path / "bad.svg", svg)


def test_a_library_failing_on_a_layout_image_names_the_image_at_its_line(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An image that passes the check and that ReportLab then fails on (here: a font it lacks).
    from reportlab.graphics.shapes import Drawing, String

    from rulepress.pnp.faces import paint
    from rulepress.pnp.faces.images import Picture

    drawing = Drawing(10, 10, String(0, 0, "x", fontName="NoSuchFont"))
    monkeypatch.setattr(paint, "open_image", lambda folder, name: Picture("f" * 16, 10.0, 10.0,
                                                                         drawing=drawing))
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    (line,) = [ln for ln in err.splitlines() if ": error: " in ln]  # one for every row
    assert line.startswith(f"{game}/{LAYOUT}:31:1: error: image 'images/logo.svg' cannot be "
                           "drawn: reportlab failed on it (KeyError) (in the rows at "), line
    assert line.endswith("cards.csv:2–4)"), line
    assert "engine" not in line and "site-packages" not in line


def test_a_library_error_outside_engine_code_is_not_the_engines(tmp_path: Path) -> None:
    from PIL import Image

    from rulepress.diagnostics import SourceLoc
    from rulepress.validate.check import guarded

    at = SourceLoc(tmp_path / "rules.md", 7)
    (diag,) = guarded(functools.partial(Image.open, io.BytesIO(b"not an image")), None,
                      "drawing its kit", at)
    assert diag.loc == at
    assert diag.message == "pillow failed (UnidentifiedImageError) while drawing its kit"


@pytest.mark.parametrize("name", ["data/cards.csv", LAYOUT])
def test_a_byte_that_is_not_utf8_is_an_error_at_its_own_line(game: Path, name: str) -> None:
    path = game / name
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b"\n", b"\xff\n")
    path.write_bytes(b"".join(lines))
    code, err = run("check", "--sources", str(game.parent))
    assert code == 2
    assert f"{path}:3:1: error: not UTF-8 text (byte 0xff); save it as UTF-8" in err, err


def test_a_data_field_past_the_csv_modules_own_limit_is_read(tmp_path: Path) -> None:
    from rulepress.diagnostics import SourceLoc
    from rulepress.document.rows import read_csv

    (tmp_path / "cards.csv").write_text("name,text\nA," + "x" * 200_000 + "\n")
    rows, problems = read_csv(tmp_path, "cards.csv", SourceLoc(tmp_path / "rules.md", 1))
    assert problems == []
    assert len(rows[0].fields["text"]) == 200_000  # csv stops at 131,072 unless told
