"""Every limit rulepress puts on its input, in one place, each with its reason.

A game's folder is untrusted input: a few kilobytes must not take minutes, gigabytes or a crash.
Each limit is far above what a real rulebook needs (the bundled games use a small fraction of
each) and is refused with an error at the input's file:line. docs/authoring.md lists them all.
"""

from __future__ import annotations

# Source files (rules.md, a licence text, templates): the four bundled rule texts are 34-51 KB.
MAX_SOURCE_BYTES = 2_000_000

# YAML (front matter, each example): nodes counted with every alias expanded, so a kilobyte of
# nested aliases ("billion laughs") cannot become gigabytes; and nesting, so deep brackets cannot
# exhaust the stack. The largest bundled example has about 400 nodes and depth 6.
MAX_YAML_NODES = 50_000
MAX_YAML_CHARS = 2_000_000
MAX_YAML_DEPTH = 32
# A whole number's digits as written (YAML, rulepress.toml): a game needs a few; Python refuses
# to print or read one past 4300 decimal digits (at least 640 if a user lowers it), and 500
# hexadecimal digits are 603 decimal ones.
MAX_NUMBER_DIGITS = 500

# Markdown: blocks (quotes, lists) and inline runs (emphasis in emphasis ...) nested in one
# another, as parsed; the typesetter recurses per level, and markdown-it drops text past its own.
MAX_MARKDOWN_NESTING = 32

# Example prose, a Jinja expression language over the example's data: its rendered size, the CPU
# time it may take, and the largest string or list an operator may build (``'ab' * n``).
MAX_PROSE_CHARS = 20_000
PROSE_SECONDS = 1.0
MAX_SEQUENCE = 100_000

# A game's template overrides (rulebook.html.j2, print.css ...): CPU time for a page (the largest
# bundled rulebook page renders in 0.05 s) and page size (the largest is 0.5 MB).
TEMPLATE_SECONDS = 2.0
MAX_PAGE_CHARS = 20_000_000

# How much a render of prose or templates may grow the process (a bundled rulebook: a few MB;
# a page at MAX_PAGE_CHARS, its images inlined, some copies of that): past it allocation fails
# with a clear error instead of the machine swapping or the kernel killing the build.
MAX_RENDER_MEMORY = 512 * 2**20

# Translation catalogs (PO files, read with MAX_SOURCE_BYTES): plural forms a language may
# declare (gettext's languages need at most 6; Babel builds and writes that many strings for
# each plural entry), entries (the bundled German Pigeon Race has 236), the pairs of new
# segments and old translations the fuzzy merge compares (difflib, about 0.4 ms a pair of
# near-duplicates: 10 s at the limit; past it the merge is done without fuzzy matching, with a
# warning), and a glossary's terms (each searched in each translated segment).
MAX_PLURAL_FORMS = 10
MAX_CATALOG_ENTRIES = 20_000
MAX_FUZZY_PAIRS = 25_000
MAX_GLOSSARY_TERMS = 2_000
# Hyphenation exceptions (<lang>-hyphenation.txt): words a file lists (rulepress's German has
# 4; each page's every word is looked up among them) and a word's length (German's longest
# dictionary compounds run to about 80 letters).
MAX_HYPHENATION_WORDS = 10_000
MAX_HYPHENATED_CHARS = 100
# A translation's length against its source's: German runs about 1.3 times English, a short
# label (Pawn: Spielfigur) a few words more. A 1.8 MB kit title ran the kit's text fitting for
# more than ten minutes.
MAX_TRANSLATION_GROWTH = 4
TRANSLATION_SLACK_CHARS = 200

# An export (rulepress export): the pieces it draws, every component's count added up, each
# at the target's resolution (a Tabletop Simulator face is about 0.7 MB, a print house's
# several). The bundled games have at most 72; five decks of 1000 took 3.9 GB and 3 minutes.
MAX_EXPORT_PIECES = 2_000

# Components: a kit of 1000 poker cards is 112 sheets; a board of 1 m x 1 m is 25 A4 tiles.
# Sheets are counted per component and paper (fronts; backs double them).
MAX_COMPONENT_COUNT = 1000
MIN_LENGTH_MM = 5.0
MAX_LENGTH_MM = 1000.0
MAX_SHEETS_PER_COMPONENT = 250

# Component data and layouts: a data file's size, rows (a row is a card: the largest bundled
# deck has 48) and fields (the widest bundled table has 6), a layout file's size, how many
# layouts one may extend through, and the numbers a layout's range() or repeat may give (as
# many as a component's count).
MAX_DATA_BYTES = 4 * 2**20
MAX_DATA_ROWS = 10_000
MAX_DATA_FIELDS = 1000
MAX_LAYOUT_BYTES = 2**20
MAX_LAYOUT_EXTENDS = 8
MAX_LAYOUT_RANGE = 1000
# CPU time for one layout value (a text, a repeat): a bundled face's take well under a
# millisecond; loops in loops, each within MAX_LAYOUT_RANGE, took 40 s in check.
LAYOUT_SECONDS = 1.0

# Images, in rulebooks and kits: bytes read, decoded pixels (a 4 KB PNG can declare
# 40 000 x 40 000), SVG elements. An SVG's limits count everything it draws: the images it
# embeds (data: URLs, at any depth) and each copy a <use> makes (a hundred <use> of <use> draw
# a million elements), so an image, with all it holds, decodes to at most MAX_IMAGE_PIXELS and
# draws at most MAX_SVG_ELEMENTS. The renderers recurse once per level of an SVG's elements
# (a <use> holding what it names) and of images embedded in images; an Inkscape drawing is
# about a dozen deep and embeds images one level deep.
MAX_IMAGE_BYTES = 10_000_000
MAX_IMAGE_PIXELS = 25_000_000
MAX_SVG_ELEMENTS = 50_000
MAX_SVG_DEPTH = 100
MAX_IMAGE_NESTING = 4
# A game's own font file (TTF/OTF): a Latin family's face is 50-500 KB, a CJK one ~8 MB.
MAX_FONT_BYTES = 10_000_000
# The character codes its cmap maps, all subtables added up, counted before fontTools expands
# them (a 9.5 KB cmap of ranges over all of Unicode, 400 times, took 8 GB): a CJK face maps
# about 65,000, twice over in its two subtables.
MAX_FONT_CODES = 2_000_000

# The most any one read of a game's file takes (each of the limits above is at most this): a
# larger file cannot be an input of a build, so the incremental build's key counts it by size
# and date instead of reading it (a 200 GB sparse file was hashed whole).
MAX_READ_BYTES = max(MAX_SOURCE_BYTES, MAX_DATA_BYTES, MAX_LAYOUT_BYTES, MAX_IMAGE_BYTES,
                     MAX_FONT_BYTES)
# Walking a game's folder (the incremental build's key): folders in folders, files and folders
# in all, and bytes read (past it, files count by size and date too). The bundled games have
# 3 levels, 30 files and 0.3 MB.
# An old revision read for rulepress diff (git archive): its rulepress.toml, sources and Python
# files in all; a file past MAX_READ_BYTES is left out (it cannot be an input).
MAX_REVISION_BYTES = 256 * 2**20
MAX_FOLDER_DEPTH = 32
MAX_FOLDER_FILES = 10_000
MAX_HASHED_BYTES = 256 * 2**20

# One typesetting of a PDF: CPU time in build; in rulepress serve, wall-clock time for a rebuild
# of a game's pages or a render of a PDF before its process is killed and the page says why
# (the largest bundled reference edition renders in about 5 s here; a 300-page book in about a
# minute). A print.css override can make the typesetter's work grow without end, each nested
# flex box tripling it.
RENDER_SECONDS = 180.0

# Engine code (a game's plug-in: example replays and diagrams, kit drawers, simulated games)
# runs in a worker process (workers.py): CPU time for one example, simulated game or kit face
# (the bundled games need milliseconds), and the memory the worker may add to what it started
# with. Past either, the worker is stopped and the example, game or kit is named. A project may
# change both in rulepress.toml ([limits] engine_seconds, engine_memory_mb).
ENGINE_SECONDS = 10.0
ENGINE_MEMORY_MB = 1024
