"""Document + proven examples -> one self-contained HTML page (Jinja2, autoescaped)."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from rulepress.collate import sort_key
from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.document.editions import REFERENCE
from rulepress.document.model import Component, Document, Example, Meta
from rulepress.document.numbers import fill
from rulepress.jail import read_regular
from rulepress.limits import MAX_FONT_BYTES, MAX_PAGE_CHARS, TEMPLATE_SECONDS
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.paths import templates_dir
from rulepress.render.body import TocEntry, render_body, render_markdown, render_parser
from rulepress.render.figures import legible_width, named
from rulepress.render.lookup import Lookup, link_inline, lookup
from rulepress.render.offline import checked_page, refusal_loc
from rulepress.render.references import example_anchor, href, prose_line
from rulepress.sandbox import COMPILED, GameTemplates, Sandbox, TemplateProblem, render
from rulepress.validate.results import RenderedExample, Status
from rulepress.words import N_, Gettext, Words, localize_dates, theme_words

CREDITS_TITLE = N_("Credits and licence")
NOTATION_TITLE = N_("Appendix: the examples in engine notation")
GLOSSARY_TITLE = N_("Glossary")
INDEX_TITLE = N_("Index")
COLOPHON_TITLE = N_("Colophon")


@dataclass(frozen=True)
class FontFace:
    file: str
    weight: str
    style: str
    local: str  # suffix of the local() name: "" or " Bold" ...


SYMBOLS_FONT = "DejaVuSans.ttf"  # family RPSymbols: arrows and shapes Carlito lacks
FONTS = "fonts"  # the output folder's folder of bundled fonts, beside index.html
FONT_FACES = (
    FontFace("Carlito-Regular.ttf", "normal", "normal", ""),
    FontFace("Carlito-Bold.ttf", "bold", "normal", " Bold"),
    FontFace("Carlito-Italic.ttf", "normal", "italic", " Italic"),
    FontFace("Carlito-BoldItalic.ttf", "bold", "italic", " Bold Italic"),
)

# A game font's faces (front matter fonts:) in CSS terms, and what its ``book`` use sets.
FACE_CSS = {"regular": ("normal", "normal"), "bold": ("bold", "normal"),
            "italic": ("normal", "italic")}
BOOK_SELECTORS = {  # ``html`` first: these win over print.css's ``body`` rule, added after
    "body": "html body",
    "headings": "html h1, html h2, html h3, html h4, html h5, html h6, html .cover-title",
}


ICON_IMG = 'class="icon"'  # an :icon[...] of the prose; pages without one keep their bytes
ICON_CSS = "\nimg.icon { height: 1em; width: auto; vertical-align: -0.15em; }"


def game_fonts_css(meta: Meta) -> str:
    """@font-face rules for a game's own fonts (as data: URLs, so the page stays one file and
    WeasyPrint embeds and subsets them like the bundled ones), and the font-family of what the
    book sets in them; Carlito and the symbol font stay behind each as fallbacks."""
    rules = []
    for font in meta.fonts:
        for style, path in font.faces:
            weight, slant = FACE_CSS[style]
            data = base64.b64encode(read_regular(path, MAX_FONT_BYTES)).decode("ascii")
            rules.append(f'@font-face {{ font-family: "{font.family}"; font-weight: {weight}; '
                         f"font-style: {slant}; "
                         f'src: url("data:font/ttf;base64,{data}") format("truetype"); }}')
        if font.book in BOOK_SELECTORS:
            rules.append(f'{BOOK_SELECTORS[font.book]} {{ font-family: "{font.family}", '
                         "Carlito, RPSymbols; }")
    return "\n".join(rules)


STATUS = {
    Status.PROVEN: ("proven", N_("Proven by the rules engine")),
    Status.FAILED: ("failed", N_("Check FAILED (draft build)")),
    Status.NOT_CHECKABLE: ("unchecked", N_("Not checkable: no rules engine")),
    Status.SIMULATED: ("simulated", N_("From games played by the rules engine")),
}
# kicker, class
KICKERS = {"example": (N_("Example"), ""), "simulation": (N_("Playtest"), "playtest")}


@cache
def environment(game_folder: Path | None) -> Sandbox:
    """Templates of the game folder's templates/ (if any) first, then the theme's, all in the
    sandbox: a game's folder is untrusted. Its templates are compiled once a process
    (sandbox.COMPILED)."""
    loaders: list[jinja2.BaseLoader] = []
    if game_folder is not None:
        loaders.append(GameTemplates(game_folder))
    loaders.append(jinja2.FileSystemLoader(templates_dir()))
    return Sandbox(
        loader=jinja2.ChoiceLoader(loaders), autoescape=True, keep_trailing_newline=True,
        trim_blocks=False, bytecode_cache=COMPILED,
    )


def game_environment(folder: Path) -> Sandbox:
    """``folder`` as the user named it, so that errors name its files the same way."""
    return environment(folder)


def run_templates(env: Sandbox, name: str, produce: Callable[[], str]) -> str:
    """Run ``produce``, which renders the template ``name`` (of a game folder's environment or
    the theme's), in the sandbox's bounds; any template error is a RulepressError at the
    template's file:line."""
    try:
        return render(produce, TEMPLATE_SECONDS, MAX_PAGE_CHARS, f"template '{name}'", env)
    except TemplateProblem as problem:
        where = Path(problem.filename) if problem.filename else template_path(env, name)
        raise RulepressError.at(SourceLoc(where, problem.line or 1),
                                f"template: {problem.message}") from None


def template_path(env: Sandbox, name: str) -> Path:
    """Where ``name`` comes from: the game's override if it has one, else the theme."""
    loader = env.loader
    assert isinstance(loader, jinja2.ChoiceLoader)
    for each in loader.loaders:
        if isinstance(each, GameTemplates) and (each.root / name).exists():
            return each.root / name
    return templates_dir() / name


# Figures are inlined; they come from engines, but a stray script or external reference would
# make the page fetch or run something, so they are refused rather than trusted.
_SVG_BAD = re.compile(
    r"<\s*(script|foreignObject|iframe|object|embed)\b|\son[a-z]+\s*=|"
    r"""(?:xlink:)?href\s*=\s*["']\s*(?!#|data:image/)""",
    re.I,
)


_SVG_ID = re.compile(r"""(?=i)\bid\s*=\s*(["'])([^"']+)\1""")  # (?=i): a quick skip


def _figure_svg(svg: str, example: Example, scope: str, name: str) -> Markup:
    bad = _SVG_BAD.search(svg)
    if bad:
        raise RulepressError.at(example.loc, f"example '{example.id}': its diagram contains "
                                f"'{bad.group(0).strip()}'; figures must be self-contained SVG")
    svg = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)  # an XML declaration is not HTML
    return Markup(named(scope_ids(svg, scope), name))


def with_class(svg: Markup, name: str) -> Markup:
    """The SVG with ``name`` as the class of its root element."""
    return Markup(re.sub(r"<svg\b", f'<svg class="{name}"', str(svg), count=1))


_PLAIN_ID = re.compile(r"[\w.:-]+\Z")
_ID_USE = re.compile(r"""(?=[iuh])(?:\bid\s*=\s*(["'])([^"']+)\1|url\(#([\w.:-]+)\)|"""
                     r"""(href\s*=\s*["'])#([\w.:-]+)(["']))""")


def scope_ids(svg: str, scope: str) -> str:
    """Prefix an inline SVG's ids and its references to them: one HTML page holds many figures,
    and two figures with the same id would otherwise share one clip path or gradient."""
    ids = {m.group(2) for m in _SVG_ID.finditer(svg)}
    if all(_PLAIN_ID.match(name) for name in ids):  # one pass; else name by name, below

        def scoped(m: re.Match[str]) -> str:
            if m.group(2) is not None:
                return f'id="{scope}-{m.group(2)}"' if m.group(2) in ids else m.group(0)
            if m.group(3) is not None:
                return f"url(#{scope}-{m.group(3)})" if m.group(3) in ids else m.group(0)
            return (f"{m.group(4)}#{scope}-{m.group(5)}{m.group(6)}" if m.group(5) in ids
                    else m.group(0))

        return _ID_USE.sub(scoped, svg) if ids else svg
    return _scope_each(svg, scope, ids)


def _scope_each(svg: str, scope: str, ids: set[str]) -> str:
    """scope_ids name by name, longest first: for ids a single pattern cannot name."""
    for name in sorted(ids, key=len, reverse=True):
        new = f"{scope}-{name}"
        svg = re.sub(rf"""\bid\s*=\s*(["']){re.escape(name)}\1""", f'id="{new}"', svg)
        svg = svg.replace(f"url(#{name})", f"url(#{new})")
        svg = re.sub(rf"""(href\s*=\s*["'])#{re.escape(name)}(["'])""", rf"\1#{new}\2", svg)
    return svg


@dataclass(frozen=True)
class _Fig:
    svg: Markup
    caption: str
    min_width: int | None  # CSS px that keep its smallest label legible (it scrolls if wider)
    narrow: Markup | None = None  # the same figure for a phone, stages one under another


def _figures(example: Example, rendered: RenderedExample, _: Gettext) -> tuple[_Fig, ...]:
    """Each figure named by the example's title and its caption ("A trump moves two pigeons:
    after 3C>2,5"), so a screen reader hears more than "Before"; ids scoped to it."""
    count = len(rendered.figures)
    figures = []
    for n, f in enumerate(rendered.figures, 1):
        which = f.caption or (_("figure {n} of {count}", n=n, count=count) if count > 1 else "")
        name = f"{rendered.title}: {which}" if which else rendered.title
        scope = f"{example_anchor(example.id)}-fig{n}"
        svg = _figure_svg(f.svg, example, scope, name)
        if not f.narrow:
            figures.append(_Fig(svg, f.caption, legible_width(svg)))
            continue
        # Both drawn; the page's stylesheet shows one, by the screen's width (print: the wide).
        narrow = _figure_svg(f.narrow, example, f"{scope}-narrow", name)
        figures.append(_Fig(with_class(svg, "figure-wide"), f.caption, None,
                            with_class(narrow, "figure-narrow")))
    return tuple(figures)


@dataclass(frozen=True)
class _Box:
    anchor: str
    kicker: str
    kind_class: str
    title: str
    status_class: str
    status_label: str
    prose: Markup
    figures: tuple[_Fig, ...]
    moves: tuple[str, ...]  # empty: the notation is in the reference edition's appendix
    claims: tuple[tuple[str, str], ...]  # empty, likewise
    notation: str = ""  # the anchor of its entry in that appendix, if any


@dataclass(frozen=True)
class _Notation:
    """An example's engine notation, in the reference edition's appendix."""

    anchor: str
    example: str  # the example box's anchor
    title: str
    moves: tuple[str, ...]
    claims: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class _Entry:
    """A line of the glossary or index: its text, what it adds, where it points."""

    text: str
    anchor: str
    note: str | Markup = ""  # the glossary's definition (rendered); the index's "Ruling 17"
    sort: str = ""  # the author's sort key (a term's sort="..."), else its text sorts it


def _component_row(c: Component, _: Gettext, lang: str | None) -> dict[str, str]:
    notes = []
    if c.in_kit:
        notes.append(_("In the print-and-play kit (double-sided)") if c.back
                     else _("In the print-and-play kit"))
    if c.note:
        notes.append(c.note)
    n = Words(lang).number  # 88,9 in German
    size = f"{n(c.size.width)} × {n(c.size.height)} mm" if c.size else "—"
    return {"name": c.name, "count": str(c.count), "size": size,
            "notes": "; ".join(notes) or "—"}


def _nest(toc: Sequence[TocEntry]) -> list[tuple[TocEntry, list[TocEntry]]]:
    nested: list[tuple[TocEntry, list[TocEntry]]] = []
    for entry in toc:
        if entry.rank == 1 or not nested:
            nested.append((entry, []))
        elif entry.rank == 2:
            nested[-1][1].append(entry)
    return nested


def render_html(doc: Document, examples: Mapping[str, RenderedExample], *,
                edition: str = REFERENCE, links: Mapping[str, str] | None = None,
                fonts_href: str | None = None) -> str:
    """The ``edition`` of the rulebook of ``doc`` as one self-contained HTML page.

    ``examples``: the check phase's rendering of each example, by id. ``links``: label -> relative
    path shown on the cover (e.g. {"PDF (A4)": "pigeon-race-a4.pdf"}), encoded here.
    ``fonts_href``: a relative folder holding the Carlito TTFs for browsers without Carlito
    (None: the font stack alone).
    """
    env = game_environment(doc.path.parent)
    page = run_templates(env, "rulebook.html.j2",
                         lambda: _page(env, doc, examples, edition, links or {}, fonts_href))
    read = checked_page(page, 2 if doc.language else 1)  # a translation is in <game>/<lang>/
    if read.problems:  # a template override wrote it: the page must open offline and run nothing
        what, url = read.problems[0]
        raise RulepressError.at(refusal_loc(url, doc.path.parent), (
            f"the page would hold {what}, '{url[:80]}': a rulebook's page reads only its own "
            "files and data: URLs, and runs no scripts"))
    if read.bad_images:  # a template override's data: image, held to the limits of the rest
        why, url = read.bad_images[0]
        raise RulepressError.at(refusal_loc(url, doc.path.parent),
                                f"refused image '{url[:60]}...': {why}")
    return page


def _page(env: Sandbox, doc: Document, examples: Mapping[str, RenderedExample], edition: str,
          links: Mapping[str, str], fonts_href: str | None) -> str:
    folder = doc.path.parent
    proof = edition == REFERENCE
    lang = doc.language.code if doc.language else None
    _ = theme_words(lang, folder)
    box_template = env.get_template("example.html.j2")
    try:
        module = box_template.make_module({"_": _})
    except Exception:  # noqa: BLE001 - re-raised with the template's own lines, as render does
        env.handle_exception()
    box_macro = getattr(module, "example_box", None)
    if not callable(box_macro):  # an override that forgot the macro the page calls
        raise RulepressError.at(SourceLoc(Path(box_template.filename or "example.html.j2"), 1), (
            "template: example.html.j2 must define the macro example_box(ex), which draws "
            "one worked example (see the bundled example.html.j2)"))

    found = lookup(doc, edition)
    notation: list[_Notation] = []

    def example_box(example: Example) -> str:
        rendered = examples.get(example.id)
        if rendered is None:
            raise RulepressError.at(example.loc, f"example '{example.id}' has no checked rendering")
        status_class, status_label = STATUS[rendered.status]
        status_label = _(status_label)
        anchor = example_anchor(example.id)
        if proof and (rendered.moves or rendered.claims):
            notation.append(_Notation(f"rp-notation-{example.id}", anchor, rendered.title,
                                      rendered.moves, rendered.claims))
        if not proof and rendered.status is Status.PROVEN:
            status_label = ""  # the player edition shows no proof machinery
        box = _Box(
            anchor=anchor,
            kicker=_(KICKERS[example.kind][0]),
            kind_class=KICKERS[example.kind][1],
            title=rendered.title,
            status_class=status_class,
            status_label=status_label,
            prose=Markup(render_markdown(rendered.prose, folder, example.loc.path,
                                         prose_line(example), found)),
            figures=_figures(example, rendered, _),
            moves=(),
            claims=(),
            notation=notation[-1].anchor if notation and notation[-1].example == anchor else "",
        )
        return str(box_macro(box))

    components = [_component_row(c, _, lang) for c in doc.meta.components]
    components_html = (env.get_template("components.html.j2").render(components=components, _=_)
                       if components else "")
    body = render_body(doc, example_box, components_html, edition, _("Components"))
    # The author may have written a section of that name already; two would confuse the contents.
    titles = {entry.text.casefold() for entry in body.toc}
    credits_title = (_(CREDITS_TITLE) if _(CREDITS_TITLE).casefold() not in titles
                     else _(COLOPHON_TITLE))
    # The reference edition lists the printings, newest first, from the front matter's versions.
    changelog = tuple(replace(v, summary=generated(doc, v.summary),
                              changes=tuple(generated(doc, line) for line in v.changes))
                      for v in reversed(doc.meta.versions)) if edition == REFERENCE else ()
    changelog_entry = (TocEntry(1, _("Changelog"), "rp-changelog"),) if changelog else ()
    glossary = sorted((_Entry(t.text, t.anchor, generated(doc, t.definition, found), t.sort)
                       for t in found.terms),
                      key=lambda e: sort_key(e.text, lang, e.sort))
    # Every term (and the words players look it up by), every table row heading, every ruling.
    index = sorted([*(_Entry(t.text, t.anchor, sort=t.sort) for t in found.terms),
                    *(_Entry(word, t.anchor, t.text) for t in found.terms for word in t.also),
                    *(_Entry(text, anchor) for text, anchor in body.rows
                      if text.casefold() not in {t.text.casefold() for t in found.terms}),
                    *(_Entry(_indexed(r.title), r.anchor, _("Ruling {number}", number=r.number))
                      for r in doc.rulings
                      if doc.keeps(edition, r.loc))], key=lambda e: sort_key(e.text, lang, e.sort)
                   ) if proof else []
    # The reference edition's glossary is at the back; the player edition's, short, is on the
    # page of the contents.
    front = [TocEntry(1, _(GLOSSARY_TITLE), "rp-glossary")] if glossary and not proof else []
    back = [(_(NOTATION_TITLE), "rp-notation", notation),
            (_(GLOSSARY_TITLE), "rp-glossary", glossary if proof else []),
            (_(INDEX_TITLE), "rp-index", index)]
    toc_back = [TocEntry(1, title, anchor) for title, anchor, items in back if items]
    return env.get_template("rulebook.html.j2").render(
        lang=doc.language.code.replace("_", "-") if doc.language else DEFAULT_LANGUAGE,
        edition=edition,
        meta=doc.meta,
        title_anchor=body.title_anchor,
        links=[(label, href(path)) for label, path in links.items()],
        toc=_nest((*front, *body.toc, *toc_back, *changelog_entry,
                   TocEntry(1, credits_title, "rp-credits"))),
        changelog=changelog,
        notation=notation,
        glossary=glossary,
        index=index,
        credits_title=credits_title,
        body=Markup(body.html),
        fonts_href=fonts_href,
        font_faces=FONT_FACES,
        game_fonts=Markup(game_fonts_css(doc.meta) + (ICON_CSS if ICON_IMG in body.html else "")),
        _=_,
        printing=_printing(doc, _),
        date=lambda iso: localize_dates(str(iso), lang),
    )


def generated(doc: Document, text: str, found: Lookup | None = None) -> Markup:
    """A text rulepress puts together from the source (a glossary's definition) rendered as
    the prose is: the engine's numbers in, rule marks off, its Markdown read, its empty
    cross-references filled in. Never copied raw: a raw copy prints the source's markup."""
    md = render_parser()
    tokens = md.parseInline(fill(doc, text))
    for token in tokens:
        if found is not None:
            link_inline(token, found, mentions=False)
    return Markup(md.renderer.render(tokens, md.options, {}))


def _printing(doc: Document, _: Gettext) -> str:
    """'Version 1.1, 2026-11-27' (or less), as covers and footers say it, in the language."""
    meta, lang = doc.meta, doc.language.code if doc.language else None
    said = _("Version {version}", version=meta.version) if meta.version else ""
    return ", ".join(p for p in (said, localize_dates(meta.date, lang)) if p)


def _indexed(title: str) -> str:
    """A ruling's title as an index lists it: by its first word that matters ("bomb", not "A
    bomb"), so it sorts beside the term of that name."""
    bare = re.sub(r"^(?:an?|the)\s+(?=\w)", "", title, flags=re.I)
    return bare[:1].upper() + bare[1:] if bare != title else title


@dataclass(frozen=True)
class IndexEntry:
    """One game on build/index.html; every path is relative to build/ (encoded when rendered)."""

    title: str
    html: str  # the page the title links to
    subtitle: str = ""
    players: str = ""
    duration: str = ""
    links: tuple[tuple[str, str], ...] = ()  # (label, href): every book, PDF and kit


def render_index(entries: Sequence[IndexEntry], *, title: str = "rulepress rulebooks") -> str:
    """build/index.html listing every game, its rulebook page, PDFs and print-and-play files."""
    env = environment(None)
    encoded = [replace(e, html=href(e.html), links=tuple((k, href(v)) for k, v in e.links))
               for e in entries]
    return run_templates(env, "index.html.j2", lambda: env.get_template("index.html.j2").render(
        title=title, entries=encoded, fonts_href=FONTS, font_faces=FONT_FACES))
