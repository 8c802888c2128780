"""Variants side by side: a kit's ink, sides, paper and proof variants and the books' booklets
each have their own files, and a run replaces (and deletes) only files of the variant it makes.
"""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from support import run

from rulepress.books import replaced
from rulepress.pnp.generator import KitOptions, Kits
from rulepress.scaffold import new_project

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def pdfs(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.pdf"))


def page_size(path: Path) -> tuple[float, float]:
    box = PdfReader(path).pages[0].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


def ok(*args: str) -> str:
    code, err = run(*args)
    assert code == 0, err
    return err


def test_each_kit_variant_stays_beside_the_others(tmp_path: Path) -> None:
    project = new_project("demo", tmp_path)
    out = tmp_path / "pnp"
    pnp = ["pnp", "--project", str(project), "--out", str(out)]
    ok(*pnp)
    ok(*pnp, "--ink", "low")
    kits = out / "demo"
    assert pdfs(kits) == ["demo-a4-low-ink.pdf", "demo-a4.pdf", "demo-letter-low-ink.pdf",
                          "demo-letter.pdf"]
    for name, size in (("demo-a4.pdf", A4), ("demo-a4-low-ink.pdf", A4),
                       ("demo-letter.pdf", LETTER), ("demo-letter-low-ink.pdf", LETTER)):
        assert page_size(kits / name) == size, name
    normal = (kits / "demo-a4.pdf").read_bytes()
    ok(*pnp, "--proof")
    ok(*pnp, "--paper", "letter", "--sides", "one")
    assert pdfs(kits) == ["demo-a4-low-ink.pdf", "demo-a4.pdf", "demo-letter-low-ink.pdf",
                          "demo-letter-one-sided.pdf", "demo-letter.pdf", "demo-proof.pdf"]
    assert (kits / "demo-a4.pdf").read_bytes() == normal  # not written again, not deleted
    # A run of one variant makes nothing of another: the kits in place are fresh.
    assert "wrote 0 files" in ok(*pnp)


def test_a_variant_s_own_stale_kits_are_still_deleted(tmp_path: Path) -> None:
    project = new_project("demo", tmp_path)
    rules = project / "sources/demo/rules.md"
    text = rules.read_text(encoding="utf-8")
    sized = "    size: 63.5mm x 88.9mm\n"
    rules.write_text(text.replace(sized, sized + "    variants: {tarot: 69.85mm x 120.65mm}\n"),
                     encoding="utf-8")
    out = tmp_path / "pnp"
    pnp = ["pnp", "--project", str(project), "--out", str(out), "--paper", "a4"]
    ok(*pnp)
    ok(*pnp, "--ink", "low")
    kits = out / "demo"
    assert pdfs(kits) == ["demo-a4-low-ink.pdf", "demo-a4-tarot-low-ink.pdf",
                          "demo-a4-tarot.pdf", "demo-a4.pdf"]
    rules.write_text(text, encoding="utf-8")  # the size variant is gone
    ok(*pnp)
    assert pdfs(kits) == ["demo-a4-low-ink.pdf", "demo-a4-tarot-low-ink.pdf", "demo-a4.pdf"]
    ok(*pnp, "--ink", "low")
    assert pdfs(kits) == ["demo-a4-low-ink.pdf", "demo-a4.pdf"]


def test_a_plain_build_keeps_the_booklets_an_earlier_build_wrote(tmp_path: Path) -> None:
    project = new_project("demo", tmp_path)
    out = tmp_path / "build"
    build = ["build", "--project", str(project), "--out", str(out), "--edition", "player",
             "-j", "1"]
    ok(*build, "--paper", "a4", "--booklet")
    ok(*build, "--paper", "letter")
    assert pdfs(out / "demo") == ["demo-a4-booklet.pdf", "demo-a4.pdf", "demo-letter.pdf"]


def test_what_a_run_replaces() -> None:
    kits = Kits(KitOptions(papers=("a4",), ink="low"))
    assert kits.replaces("go-stop", "go-stop/kit-low-ink a4")
    assert kits.replaces("go-stop", "go-stop/kit-low-ink a4/de")  # its translation
    assert not kits.replaces("go-stop", "go-stop/kit a4")
    assert not kits.replaces("go-stop", "go-stop/kit-low-ink letter")
    assert not kits.replaces("go-stop", "go-stop/proof")
    assert kits.replaces("go-stop", "go-stop")  # an older manifest's name
    assert Kits(KitOptions(proof=True)).replaces("go-stop", "go-stop/proof")
    assert not Kits(KitOptions(proof=True)).replaces("go-stop", "go-stop/kit a4")
    plain = ("tiny", ("player", "reference"), ("a4", "letter"), False)
    assert replaced("tiny/tiny-a4.pdf", *plain)
    assert replaced("tiny/de/tiny-reference.html", *plain)
    assert not replaced("tiny/tiny-a4-booklet.pdf", *plain)
    assert not replaced("tiny/de/tiny-letter-booklet.pdf", *plain)
    assert not replaced("tiny/tiny-letter.pdf", "tiny", ("player",), ("a4",), True)
    assert replaced("tiny/tiny-a4-booklet.pdf", "tiny", ("player",), ("a4",), True)
