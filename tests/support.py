"""What many tests share: running the command line in-process, and a reporter that says
nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from rulepress.cli import main


def run(*args: str) -> tuple[int, str]:
    """``rulepress ARGS`` in this process: its exit code and what it wrote to stderr. An
    exception other than the exit itself fails the test."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


class Quiet:
    """A reporter for build functions called directly: no progress, no diagnostics."""

    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: object) -> None: ...


SOURCES = Path(__file__).parents[1] / "sources"
FENCE = "\n```simulation\n"


def pigeon_race(into: Path, keep: tuple[str, ...] = ("playtest",), *,
                locales: bool = False) -> Path:
    """A copy of Pigeon Race in the folder ``into`` whose playtest report keeps only the
    simulation blocks of the ids ``keep`` (and its German catalog only with ``locales``): its
    cold check replays a few greedy games, not the whole game's searches (about 30 CPU-s),
    which tests of a mechanism do not need. Returns the game's folder."""
    folder = into / "pigeon-race"
    shutil.copytree(SOURCES / "pigeon-race", folder,
                    ignore=None if locales else shutil.ignore_patterns("locales"))
    report = folder / "playtest.md"
    head, *blocks = report.read_text(encoding="utf-8").split(FENCE)
    kept = [head]
    for block in blocks:
        fence, _, after = block.partition("\n```\n")
        if fence.startswith("id: ") and fence.split("\n", 1)[0][4:] in keep:
            kept.append(FENCE + fence + "\n```\n" + after)
        else:
            kept.append("\n" + after)
    assert len(kept) - 1 == len(blocks) and sum(FENCE in b for b in kept) == len(keep), keep
    report.write_text("".join(kept), encoding="utf-8")
    return folder


CHROMIUM = Path("/usr/bin/chromium")  # Debian's package; `make test` installs it when missing
# Headless as root on a machine without a network: no sandbox, GPU or background requests.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def text_boxes(svg: str) -> tuple[tuple[float, float], list[tuple[str, tuple[float, ...]]]]:
    """``svg`` set on a page of its own size by WeasyPrint, in the theme's Carlito (as a book
    sets it): the page's width and height, and each printed character with its box (left,
    bottom, right, top, points) as pdfium measures it; a character the drawing cuts off lies
    outside the page."""
    import re

    import pypdfium2 as pdfium
    from weasyprint import HTML

    from rulepress.paths import templates_dir

    size = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    assert size is not None, svg[:300]
    font = (templates_dir() / "fonts" / "Carlito-Regular.ttf").as_uri()
    page = (f"<style>@font-face {{ font-family: Carlito; src: url({font}) }} "
            f"@page {{ size: {size[1]}pt {size[2]}pt; margin: 0 }} body {{ margin: 0 }} "
            f"svg {{ display: block }}</style>{svg}")
    pdf = pdfium.PdfDocument(HTML(string=page).write_pdf())
    text = pdf[0].get_textpage()
    chars = [(text.get_text_range(i, 1), tuple(text.get_charbox(i)))
             for i in range(text.count_chars())]
    return (pdf[0].get_width(), pdf[0].get_height()), [(c, b) for c, b in chars if c.strip()]


def cut_off(svg: str, slack: float = 0.5) -> list[str]:
    """The characters of ``svg`` printed outside its own box, each with where it is."""
    (width, height), chars = text_boxes(svg)
    return [f"{c!r} at {[round(v, 1) for v in box]}" for c, box in chars
            if box[0] < -slack or box[1] < -slack or box[2] > width + slack
            or box[3] > height + slack]
