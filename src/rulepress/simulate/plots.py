"""The summary's plots as SVG, drawn by matplotlib from summary.json alone (so a report can draw
them again from a committed summary), the same bytes on every run.

Reproducible: the Agg-based SVG writer, no pyplot state, a fixed ``svg.hashsalt`` for the ids,
no date or program version in the metadata, text drawn as paths in the bundled Carlito (DejaVu
Sans for any glyph it lacks), so a viewer needs no font and every run writes the same bytes.

A translated book's plots are drawn in its language (:class:`Wording`), so matplotlib lays
them out around the words it prints, never around the English ones.
"""

from __future__ import annotations

import io
import math
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rulepress.paths import templates_dir
from rulepress.words import (
    N_,
    SOURCE,
    is_source,
    localize_numbers,
    ordinal,
    theme_translated,
    theme_words,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure
    from matplotlib.ticker import Formatter

WIDTH = 7.0  # inches: a page's text width
# A phone's drawing: one panel to a row, titles wrapped, no text under SMALL points, so at the
# text width of a 375 px screen every label is 9 px or more without scrolling.
NARROW_WIDTH, SMALL, NARROW_SMALL = 3.9, 8, 10
_narrow: ContextVar[bool] = ContextVar("narrow", default=False)
INK, FAIR, ACCENT = "#1f3a5f", "#9a9a9a", "#c8553d"
PALETTE = ("#1f3a5f", "#c8553d", "#5b8c5a", "#d9a441", "#7a5c99", "#3d8fb0", "#8c6d46",
           "#b04a7a")
FONTS = ("Carlito-Regular.ttf", "Carlito-Bold.ttf", "DejaVuSans.ttf")
STYLE: dict[str, Any] = {
    "svg.hashsalt": "rulepress",
    "svg.fonttype": "path",
    "font.family": ["Carlito", "DejaVu Sans"],
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.unicode_minus": False,
    "figure.dpi": 72,
    "path.simplify": False,
}


# The ladder plot's words, in the theme's catalog.
LADDER_AXIS = N_("Elo ({agent} at 0), 95% intervals; a colour per level of play the games tell "
                 "apart")
LADDER_TITLE = N_("Skill ladder: each agent's Elo, with its 95% interval")


class Wording:
    """The words a plot is drawn in: rulepress's own (titles, axes, notes) from the theme's
    catalogs, the summary's (an end's reason, an agent's or a variant's name) through
    ``data`` (the game's catalog), numbers and ordinals in the language's format. Each text
    that still prints in the source language is added to ``left``. No language: the source's,
    every text as the summary and the code have it."""

    def __init__(self, lang: str | None = None, folder: Path | None = None,
                 data: Callable[[str], str | None] | None = None) -> None:
        self.lang = None if is_source(lang) else lang
        self.folder, self.data = folder, data
        self.left: set[str] = set()

    def __call__(self, msgid: str, **values: Any) -> str:
        """A word of rulepress's, its ``{placeholders}`` filled from ``values``."""
        said = theme_words(self.lang, self.folder)(msgid, **values)
        self._untranslated(msgid, said)
        return said

    def word(self, text: str) -> str:
        """A word of the summary's data, as the game's catalog translates it."""
        if self.lang is None:
            return text
        said = self.data(text) if self.data is not None else None
        if said is None:
            if any(c.isalpha() for c in text):
                self.left.add(text)
            return text
        return said

    def ordinal(self, n: int) -> str:
        said = ordinal(n, self.lang or SOURCE, self.folder)
        self._untranslated("{n}th", said)
        return said

    def number(self, text: str) -> str:
        """A number as Python wrote it (``32.1``, ``20%``) in the language's format."""
        return localize_numbers(text, self.lang)

    def _untranslated(self, msgid: str, said: str) -> None:
        if self.lang is not None and msgid not in theme_translated(self.lang, self.folder):
            self.left.add(said)


_wording: ContextVar[Wording | None] = ContextVar("wording", default=None)  # None: the source's


def _said() -> Wording:
    return _wording.get() or Wording()


def _(msgid: str, **values: Any) -> str:
    """A word of rulepress's in the plot's language (``_`` as gettext names it: the theme's
    catalog finds each ``_("...")`` of the code)."""
    return _said()(msgid, **values)


def _word(text: str) -> str:
    return _said().word(text)


def _number(text: str) -> str:
    return _said().number(text)


def plots(summary: Mapping[str, Any]) -> dict[str, str]:
    """Every plot of the summary: file name -> SVG text."""
    drawn = {name: draw for name, draw in PLOTS.items()
             if name != "agents.svg" or len(summary["run"]["agents"]) > 1}
    with _style():
        return {name: _svg(draw(summary)) for name, draw in drawn.items()}


def plot(summary: Mapping[str, Any], name: str, *, text_as_paths: bool = True,
         narrow: bool = False, wording: Wording | None = None) -> str:
    """One plot by its name without ``.svg`` (as a report names it). A book's plot keeps its
    text as text (``text_as_paths=False``), set in the book's own Carlito: a reader can search
    and copy it, and the PDF draws a few dozen lines instead of a thousand glyph outlines.
    ``narrow``: drawn for a phone's screen; ``wording``: in a translation's words."""
    draw = ladder_plot if name == "ladder" else PLOTS[f"{name}.svg"]
    said = wording or Wording()
    token, worded = _narrow.set(narrow), _wording.set(said)
    try:
        with _style(), _text(text_as_paths), _phone(narrow):
            figure = draw(summary)
            if said.lang is not None:
                _localized_ticks(figure, said)
            return _svg(figure)
    finally:
        _wording.reset(worded)
        _narrow.reset(token)


def _localized_ticks(figure: Figure, wording: Wording) -> None:
    """Every axis's numbers in the language's format (2,5 and 20 % in German); ticks that
    name things (seats, tables) are words already."""
    from matplotlib.ticker import FixedFormatter, NullFormatter

    for ax in figure.axes:
        for axes in (ax, *ax.child_axes):  # a secondary axis (minutes over turns) is a child
            for axis in (axes.xaxis, axes.yaxis):
                inner = axis.get_major_formatter()
                if not isinstance(inner, FixedFormatter | NullFormatter):
                    axis.set_major_formatter(_localizing(inner, wording, axis))


def _localizing(inner: Formatter, wording: Wording, axis: Axis) -> Formatter:
    """``inner``'s labels in ``wording``'s number format."""
    from matplotlib.ticker import Formatter

    class Localized(Formatter):
        def __call__(self, x: float, pos: int | None = None) -> str:
            return wording.number(inner(x, pos))

        def format_ticks(self, values: Any) -> list[str]:
            return [wording.number(t) for t in inner.format_ticks(values)]

        def get_offset(self) -> str:
            return wording.number(inner.get_offset())

        def set_locs(self, locs: Any) -> None:
            inner.set_locs(locs)

    inner.set_axis(axis)
    return Localized()


def _width() -> float:
    return NARROW_WIDTH if _narrow.get() else WIDTH


def _small() -> int:
    """The size of a plot's smallest text (tick labels, notes), points."""
    return NARROW_SMALL if _narrow.get() else SMALL


def _wrapped(title: str, size: float) -> str:
    """A title on as many lines as a phone's drawing needs (matplotlib never wraps)."""
    if not _narrow.get():
        return title
    return textwrap.fill(title, max(20, int(_width() * 72 / (0.5 * size))))


@contextmanager
def _phone(narrow: bool) -> Iterator[None]:
    import matplotlib

    sizes = {"font.size": 11, "xtick.labelsize": 10, "ytick.labelsize": 10,
             "axes.titlesize": 11, "legend.fontsize": 10} if narrow else {}
    with matplotlib.rc_context(cast(Any, sizes)):
        yield


@contextmanager
def _text(as_paths: bool) -> Iterator[None]:
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "path" if as_paths else "none"}):
        yield


@cache
def _fonts() -> None:
    from matplotlib import font_manager

    for name in FONTS:
        font_manager.fontManager.addfont(str(templates_dir() / "fonts" / name))


@contextmanager
def _style() -> Iterator[None]:
    import matplotlib

    _fonts()
    with matplotlib.rc_context(cast(Any, STYLE)):
        yield


def _svg(figure: Figure) -> str:
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None},
                   bbox_inches="tight")
    return _referenced_ids_only(out.getvalue())


_ID = re.compile(r' id="([^"]+)"')
_REF = re.compile(r'#([^"\)\s]+)')


def _referenced_ids_only(svg: str) -> str:
    """Drop the ids nothing refers to (matplotlib names every group): a book that inlines the
    plot rewrites each id it finds, and a plot holds hundreds."""
    used = set(_REF.findall(svg))
    return _ID.sub(lambda m: m.group(0) if m.group(1) in used else "", svg)


def _figure(rows: int = 1, cols: int = 1, height: float = 3.0) -> tuple[Figure, list[Axes]]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(_width(), height * rows), layout="constrained")
    axes = figure.subplots(rows, cols, squeeze=False)
    return figure, [a for row in axes for a in row]


def label(table: Mapping[str, Any], summary: Mapping[str, Any]) -> str:
    """'3 players', or '3 players, slalom' when the run compares variants."""
    n = table["players"]
    text = "1 player" if n == 1 and _said().lang is None else _("{n} players", n=n)
    if len(summary["run"]["variants"]) > 1:
        text += f", {_word(table['variant'])}"
    return text


def _counts_plot(summary: Mapping[str, Any], key: str, title: str, xlabel: str) -> Figure:
    """A histogram of ``key``'s counts (share of games at each value), a panel per table."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    tables = summary["tables"]
    figure = Figure(figsize=(_width(), 0.9 + 0.95 * len(tables)), layout="constrained")
    axes = figure.subplots(len(tables), 1, sharex=True, squeeze=False)[:, 0]
    for n, (ax, table) in enumerate(zip(axes, tables, strict=True)):
        dist = table[key]
        ax.set_ylim(bottom=0)
        if dist["n"]:
            xs = [v for v, _count in dist["histogram"]]
            ys = [c / dist["n"] for _value, c in dist["histogram"]]
            ax.bar(xs, ys, width=_bar_width(xs), color=PALETTE[n % len(PALETTE)])
            ax.set_ylim(0, max(ys) * 1.35)  # room above the bars for the panel's note
            note = _("{label}: median {median}, mean {mean}", label=label(table, summary),
                     median=_number(f"{dist['quantiles']['median']:g}"),
                     mean=_number(f"{dist['mean']:.1f}"))
        else:
            note = _("{label}: no finished game", label=label(table, summary))
        ax.text(0.01, 0.95, note, transform=ax.transAxes, va="top", fontsize=max(9, _small()),
                zorder=3,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1})
        ax.yaxis.set_major_formatter(_percent())
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # turns and points are whole
    axes[-1].set_xlabel(xlabel)
    figure.supylabel(_("share of games"), fontsize=10)
    figure.suptitle(_wrapped(title, 12))
    return figure


def _bar_width(xs: Sequence[float]) -> float:
    steps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    return 0.8 * min(steps, default=1.0)


def length_plot(summary: Mapping[str, Any]) -> Figure:
    seconds = summary["run"]["seconds_per_turn"]
    figure = _counts_plot(summary, "turns", _("Game length (a turn taken as {seconds} s)",
                                              seconds=_number(f"{seconds:g}")), _("turns"))
    ax = figure.axes[0]

    def to_minutes(turns: Any) -> Any:
        return turns * seconds / 60

    def to_turns(minutes: Any) -> Any:
        return minutes * 60 / seconds

    minutes = ax.secondary_xaxis("top", functions=(to_minutes, to_turns))
    minutes.set_xlabel(_("minutes"), fontsize=max(9, _small()))
    return figure


def scores_plot(summary: Mapping[str, Any]) -> Figure:
    return _counts_plot(summary, "scores", _("Scores (every player)"), _("score"))


def margins_plot(summary: Mapping[str, Any]) -> Figure:
    return _counts_plot(summary, "margin", _("Winning margin (best score less the next)"),
                        _("points"))


def _grid(count: int) -> tuple[int, int]:
    cols = min(1 if _narrow.get() else 2, count)
    return -(-count // cols), cols


def _rate_bars(ax: Axes, names: Sequence[str], rates: Sequence[Mapping[str, Any]],
               colours: Sequence[str]) -> None:
    """Bars of rates with their 95% intervals as error bars."""
    xs = range(len(names))
    values = [r["rate"] or 0.0 for r in rates]
    low = [v - (r["ci"] or [v, v])[0] for v, r in zip(values, rates, strict=True)]
    high = [(r["ci"] or [v, v])[1] - v for v, r in zip(values, rates, strict=True)]
    ax.bar(xs, values, color=colours, width=0.7, yerr=[low, high], capsize=3,
           error_kw={"elinewidth": 1, "ecolor": "#222222"})
    ax.set_xticks(list(xs), list(names))
    ax.set_ylim(0, max(1e-9, *(v + h for v, h in zip(values, high, strict=True))) * 1.15)
    ax.yaxis.set_major_formatter(_percent())


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


def win_rates_plot(summary: Mapping[str, Any]) -> Figure:
    tables = summary["tables"]
    rows, cols = _grid(len(tables))
    figure, axes = _figure(rows, cols, height=2.6)
    for ax, table in zip(axes, tables, strict=False):
        seats, order = table["seats"], table["turn_order"]
        names = [str(s["seat"]) for s in seats] + [_said().ordinal(o["place"])
                                                   for o in order]
        _rate_bars(ax, names, [*seats, *order], [INK] * len(seats) + [ACCENT] * len(order))
        ax.axhline(table["fair_share"], color=FAIR, linestyle="--", linewidth=1)
        ax.set_title(label(table, summary))
        ax.tick_params(axis="x", labelsize=_small())
    for ax in axes[len(tables):]:
        ax.set_axis_off()
    # One line of a page-wide plot: "Share of the wins ... by place in turn order" ran past it.
    figure.suptitle(_wrapped(_("Share of wins by seat (1, 2...) and turn order (1st, 2nd...), "
                               "95% intervals; dashed: an even share"), 12))
    return figure


def agents_plot(summary: Mapping[str, Any]) -> Figure:
    tables = summary["tables"]
    rows, cols = _grid(len(tables))
    figure, axes = _figure(rows, cols, height=2.6)
    for ax, table in zip(axes, tables, strict=False):
        names = list(table["agents"])
        colours = [PALETTE[summary["run"]["agents"].index(n) % len(PALETTE)] for n in names]
        _rate_bars(ax, [_word(n) for n in names], [table["agents"][n] for n in names], colours)
        ax.axhline(table["fair_share"], color=FAIR, linestyle="--", linewidth=1)
        ax.set_title(label(table, summary))
    for ax in axes[len(tables):]:
        ax.set_axis_off()
    figure.suptitle(_wrapped(_("Win rate of each agent's seats, 95% intervals (dashed: an even "
                               "share)"), 12))
    return figure


def ends_plot(summary: Mapping[str, Any]) -> Figure:
    tables = summary["tables"]
    reasons = list(dict.fromkeys(r for t in tables for r in t["ends"]))
    names = [_folded(label(t, summary)) for t in tables]
    words = [_word(r) for r in reasons]
    lines = max((n.count("\n") + 1 for n in names), default=1)
    row = 0.45 if lines == 1 else 0.15 + 0.18 * lines  # inches: room for a name's lines
    size = max(9, _small())
    usual = cols = min(2 if _narrow.get() else 3, len(reasons))
    if cols > 1 and _legend_width(words, cols, size) > _width() * 72:
        cols = 1  # one reason a line, where side by side they would run past the plot
    # the legend's lines beyond those it had side by side
    more = len(reasons) - math.ceil(len(reasons) / usual) if cols < usual else 0
    figure, (ax,) = _figure(height=0.6 + row * len(tables) + more * 1.5 * size / 72)
    left = [0.0] * len(tables)
    for n, reason in enumerate(reasons):
        shares = [(t["ends"].get(reason) or {"rate": 0.0})["rate"] for t in tables]
        ax.barh(names, shares, left=left, color=PALETTE[n % len(PALETTE)], label=words[n],
                height=0.6)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(_percent())
    ax.set_title(_("How games end"))
    ax.legend(frameon=False, fontsize=size, loc="upper center", bbox_to_anchor=(0.5, -0.18),
              ncols=cols)
    return figure


def _legend_width(words: Sequence[str], cols: int, size: float) -> float:
    """How wide (points) a legend of ``words`` in ``cols`` columns is set, as matplotlib sets
    one: its columns filled top to bottom, the first ones longest; each a colour patch, a gap
    and its longest word, the columns apart by the legend's spacing."""
    import matplotlib
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    rc = matplotlib.rcParams
    font = FontProperties(family=rc["font.family"], size=size)
    measure = TextToPath()
    widths = [measure.get_text_width_height_descent(w, font, ismath=False)[0] for w in words]
    rows, long = divmod(len(widths), cols)
    columns, start = [], 0
    for k in range(cols):
        end = start + rows + (1 if k < long else 0)
        columns.append(max(widths[start:end], default=0.0))
        start = end
    patch = (rc["legend.handlelength"] + rc["legend.handletextpad"]) * size
    return float(sum(w + patch for w in columns) + (cols - 1) * rc["legend.columnspacing"]
                 * size + 2 * rc["legend.borderpad"] * size)


def _folded(name: str) -> str:
    """A row's name over more lines when it is longer than the room a row's name has beside a
    plot (a translation's may be): the bars keep their width."""
    room = 22 if _narrow.get() else 30
    return name if len(name) <= room else textwrap.fill(name, room)


PLOTS: dict[str, Callable[[Mapping[str, Any]], Figure]] = {
    "length.svg": length_plot,
    "scores.svg": scores_plot,
    "margins.svg": margins_plot,
    "win-rates.svg": win_rates_plot,
    "ends.svg": ends_plot,
    "agents.svg": agents_plot,
}


def ladder_svg(summary: Mapping[str, Any]) -> str:
    """A ladder's plot: each agent's Elo with its 95% interval, strongest on top, each level
    of play in its own colour."""
    with _style():
        return _svg(ladder_plot(summary))


def ladder_plot(summary: Mapping[str, Any]) -> Figure:
    ladder = summary["ladder"]
    names = list(reversed(ladder["ranking"]))  # barh draws from the bottom up
    level = {n: k for k, group in enumerate(ladder["levels"]) for n in group}
    figure, (ax,) = _figure(height=0.9 + 0.4 * len(names))
    for y, name in enumerate(names):
        elo = ladder["elo"][name]
        low, high = elo["ci"]
        colour = PALETTE[level[name] % len(PALETTE)]
        ax.errorbar([elo["elo"]], [y], xerr=[[elo["elo"] - low], [high - elo["elo"]]],
                    fmt="o", color=colour, capsize=3, elinewidth=1.2)
        # A white ground keeps the dashed line at 0 from striking through the anchor's "0".
        ax.annotate(_number(f"{elo['elo']:.0f}"), (elo["elo"], y), xytext=(0, 6),
                    textcoords="offset points", ha="center", fontsize=_small(),
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                          "edgecolor": "none"})
    ax.set_yticks(list(range(len(names))), [_word(n) for n in names])
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.axvline(0, color=FAIR, linestyle="--", linewidth=1)
    ax.set_xlabel(_wrapped(_(LADDER_AXIS, agent=_word(ladder["agents"][0])), 10))
    ax.set_title(_wrapped(_(LADDER_TITLE), 11))
    return figure
