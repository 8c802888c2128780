"""Translation benchmarks; prints one JSON object per line.

second_language_ratio: Pigeon Race's books (both editions, A4 and Letter PDFs) in English and
German in one build, over the English build alone, less one: what the German edition adds, as a
share of the English build (the engine's replays are shared, so the target is <= 1.1). Also the
German build alone over the English alone. CPU time of this process and its workers (the
builds fork), best of 3, each into a fresh folder with the plots' cache warm.
translate_largest_s: `rulepress translate` on the game with the most segments (its catalog
merged and written, its engine asked for its words in a worker), wall time, best of 5; the
target is 1 s.
german_pages: the German player edition's A4 pages, against the player budget + 15 %.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "sources"
sys.path.insert(0, str(ROOT / "tests"))
BUDGET = 10  # Pigeon Race's player edition, A4 pages (tests/test_book_pages.py)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _best(run: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = _cpu()
        run()
        best = min(best, _cpu() - start)
    return best


def _build(langs: tuple[str, ...], out: Path) -> None:
    from support import Quiet

    from rulepress.build import build_rulebooks
    from rulepress.i18n.books import TranslatedBooks, TranslationOptions

    others = tuple(lang for lang in langs if lang != "en")
    also = [TranslatedBooks(TranslationOptions(others))] if others else []
    shutil.rmtree(out, ignore_errors=True)
    build_rulebooks(SOURCES, out, games=("pigeon-race",), reporter=Quiet(), jobs=1,
                    source="en" in langs, also=also)


def main() -> None:
    import pypdfium2 as pdfium

    from rulepress.document.reader import read_document
    from rulepress.i18n.segments import segments
    from rulepress.i18n.translate import translate

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RULEPRESS_CACHE"] = str(Path(tmp) / "cache")
        out = Path(tmp) / "out"
        _build(("en", "de"), out)  # warms the plots' cache
        pages = len(pdfium.PdfDocument(out / "pigeon-race" / "de" / "pigeon-race-a4.pdf"))
        english = _best(lambda: _build(("en",), out), 3)
        german = _best(lambda: _build(("de",), out), 3)
        both = _best(lambda: _build(("en", "de"), out), 3)
        print(json.dumps({"name": "second_language_ratio",
                          "value": round((both - english) / english, 3), "unit": "x",
                          "en_cpu_s": round(english, 2), "en_de_cpu_s": round(both, 2),
                          "de_alone_over_en_alone": round(german / english, 3)}))
        print(json.dumps({"name": "german_pages", "value": pages, "unit": "A4 pages",
                          "budget_plus_15pct": round(BUDGET * 1.15, 1)}))

        largest = max((p.parent for p in SOURCES.glob("*/rules.md")),
                      key=lambda f: len(segments(read_document(f / "rules.md"))))
        copy = Path(tmp) / "sources" / largest.name
        shutil.copytree(largest, copy, ignore=shutil.ignore_patterns("locales"))
        doc = read_document(copy / "rules.md")
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            translate(doc, ["de"], "en", ROOT)
            best = min(best, time.perf_counter() - start)
        print(json.dumps({"name": "translate_largest_s", "value": round(best, 3), "unit": "s",
                          "game": largest.name, "segments": len(segments(doc))}))


if __name__ == "__main__":
    main()
