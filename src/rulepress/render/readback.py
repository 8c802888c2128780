"""Nothing reaches the page unchecked: the text of what a build wrote is read back (an HTML
page's text, a PDF's text page by page) and any source markup still in it, ``{{ ... }}``,
``{% ... %}``, a ``[...]{...}`` attribute (or a ``{key="`` that lost its bracket), ``:dfn[``
or ``:icon[``, is an error at the source line the printed text came from. Markup in print means
some text went out unread: a sentence copied raw into a glossary or an errata summary, or markup
the reader does not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from rulepress.diagnostics import Diagnostic, SourceLoc, error
from rulepress.document.model import Document

# An attribute cut off from its bracket (":dfn[pile]s{def=...}": the "s" ends the mark) prints
# without the "]", so its opening, a key and a quote, is markup on its own.
MARKUP = re.compile(r"\{\{[^{}\n]{0,80}\}\}|\{%[^{}\n]{0,80}%\}|\{\{|\{%"
                    r"|\]\{[^{}\n]{0,200}\}|\{[a-z][\w-]*=[\"“]|:dfn\[|:icon\[")
_CONTEXT = 48  # characters of printed text before the markup, to find its source line
_SHOWN = 90  # characters of printed text quoted in the message, up to the markup
_AFTER = 24  # and after it
# What a page shows as code is meant to be read as written (an author may show markup there).
_VERBATIM = frozenset({"code", "pre", "kbd", "samp"})
_UNREAD = frozenset({"style", "script", "title"})  # not printed text
_BREAKS = frozenset({"p", "li", "dt", "dd", "div", "section", "h1", "h2", "h3", "h4", "h5",
                     "h6", "tr", "td", "th", "br", "figcaption", "blockquote", "header",
                     "footer", "table", "ul", "ol", "dl"})


@dataclass(frozen=True)
class Sources:
    """Where printed text may come from: each source file's lines. Plain data, so that a PDF's
    typesetting in a worker can read its own output back."""

    files: tuple[tuple[Path, tuple[str, ...]], ...]

    @property
    def first(self) -> Path | None:
        return self.files[0][0] if self.files else None


def sources_of(doc: Document, *more: Path) -> Sources:
    """The files of ``doc``: rules.md (front matter too: version notes come from it), every
    part, and ``more`` (a translation's catalog)."""
    paths = dict.fromkeys([doc.path, *(p.path for p in doc.parts), *more])
    files = []
    for path in paths:
        try:
            files.append((path, tuple(path.read_text(encoding="utf-8").split("\n"))))
        except (OSError, UnicodeDecodeError):  # read once already; if gone, point at the file
            files.append((path, ()))
    return Sources(tuple(files))


class _Text(HTMLParser):
    """An HTML page's printed text; what it shows as code, apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.code: list[str] = []
        self._verbatim = 0
        self._unread = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._verbatim += tag in _VERBATIM
        self._unread += tag in _UNREAD
        if tag in _BREAKS:
            self.text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        self._verbatim -= tag in _VERBATIM and self._verbatim > 0
        self._unread -= tag in _UNREAD and self._unread > 0
        if tag in _BREAKS:
            self.text.append("\n")

    def handle_data(self, data: str) -> None:
        if self._unread:
            return
        (self.code if self._verbatim else self.text).append(data)


def html_text(page: str) -> tuple[str, str]:
    """The printed text of an HTML page, and the text it shows as code."""
    parser = _Text()
    parser.feed(page)
    parser.close()
    return "".join(parser.text), "\n".join(parser.code)


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a PDF."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(data)
    try:
        out = []
        for page in pdf:
            textpage = page.get_textpage()
            out.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            textpage.close()
            page.close()
        return out
    finally:
        pdf.close()


def verbatim_markup(code: str) -> frozenset[str]:
    """The markup a page shows as code: its PDF prints it too, on purpose."""
    return frozenset(m[0] for m in MARKUP.finditer(code))


def read_back(text: str, what: str, sources: Sources,
              allowed: Iterable[str] = ()) -> list[Diagnostic]:
    """An error for each piece of source markup in ``text`` (the printed text of ``what``),
    at the source line it came from; once per markup and line. ``allowed``: markup the page
    shows as code."""
    shown_as_code = frozenset(allowed)
    found: list[Diagnostic] = []
    seen: set[tuple[str, SourceLoc | None]] = set()
    flat = " ".join(text.split())
    for m in MARKUP.finditer(flat):
        if m[0] in shown_as_code:
            continue
        before = flat[max(0, m.start() - _CONTEXT):m.start()]
        loc = locate(m[0], before, sources)
        if (m[0], loc) in seen:
            continue
        seen.add((m[0], loc))
        start = max(0, m.start() - (_SHOWN - len(m[0])))
        end = min(len(flat), m.end() + _AFTER)
        quoted = ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")
        found.append(error(loc, (
            f"{what} prints the source markup '{m[0]}': “{quoted}”. Markup is read, never "
            "printed: a text went to the page without being rendered, or the markup is not "
            "one rulepress reads (see docs/authoring.md)")))
    return found


def locate(markup: str, before: str, sources: Sources) -> SourceLoc | None:
    """The source line holding ``markup`` whose text before it best matches ``before`` (the
    printed words in front of it); else the first source file's first line."""
    best: tuple[int, SourceLoc] | None = None
    words = before.split()
    # the page curls the quotes the source typed straight ({def=“ was {def=")
    needles = dict.fromkeys([markup, markup.replace("“", '"').replace("”", '"')])
    for path, lines in sources.files:
        for n, line in enumerate(lines):
            for needle in needles:
                col = line.find(needle)
                while col >= 0:
                    score = _agreement(words, _plain_words(" ".join(
                        [*lines[max(0, n - 3):n], line[:col]])))
                    if best is None or score > best[0]:
                        best = (score, SourceLoc(path, n + 1, col + 1))
                    col = line.find(needle, col + 1)
    if best is not None:
        return best[1]
    first = sources.first
    return SourceLoc(first, 1) if first is not None else None


def _plain_words(text: str) -> list[str]:
    """Source text's words without Markdown's marks, as the page would print them."""
    text = re.sub(r"[*_`]+|:dfn\[|\]\{[^}]*\}|\]\([^)]*\)", " ", text)
    return text.replace("[", " ").replace("]", " ").split()


def _agreement(printed: Sequence[str], source: Sequence[str]) -> int:
    """How many words at the end of ``printed`` and ``source`` agree, back from the end."""
    n = 0
    for a, b in zip(reversed(printed), reversed(source), strict=False):
        if a.strip("“”\"'.,:;()") != b.strip("“”\"'.,:;()"):
            break
        n += 1
    return n


def read_back_html(name: str, page: str, sources: Sources) -> list[Diagnostic]:
    """``read_back`` of an HTML page written as ``name``."""
    return read_back(html_text(page)[0], Path(name).name, sources)


def read_back_pdf(name: str, pdf: bytes, sources: Sources, html: str | None = None
                  ) -> list[Diagnostic]:
    """``read_back`` of each page of a PDF written as ``name``; ``html``: the page it was
    typeset from, whose code shown as code is no markup."""
    allowed = verbatim_markup(html_text(html)[1]) if html is not None else ()
    return [d for n, text in enumerate(pdf_pages(pdf), 1)
            for d in read_back(text, f"{Path(name).name} p. {n}", sources, allowed)]
