"""The summary's plots as SVG, drawn by matplotlib from summary.json alone (so a report can draw
them again from a committed summary), the same bytes on every run.

Reproducible: the Agg-based SVG writer, no pyplot state, a fixed ``svg.hashsalt`` for the ids,
no date or program version in the metadata, text drawn as paths in the bundled Carlito (DejaVu
Sans for any glyph it lacks), so a viewer needs no font and every run writes the same bytes.
"""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from rulepress.paths import templates_dir
from rulepress.words import N_, ordinal

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

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


# The ladder plot's words, in the theme's catalog (i18n/engine.py translates a drawn plot's texts).
LADDER_AXIS = N_("Elo ({agent} at 0), 95% intervals; a colour per level of play the games tell "
                 "apart")
LADDER_TITLE = N_("Skill ladder: each agent's Elo, with its 95% interval")


def plots(summary: Mapping[str, Any]) -> dict[str, str]:
    """Every plot of the summary: file name -> SVG text."""
    drawn = {name: draw for name, draw in PLOTS.items()
             if name != "agents.svg" or len(summary["run"]["agents"]) > 1}
    with _style():
        return {name: _svg(draw(summary)) for name, draw in drawn.items()}


def plot(summary: Mapping[str, Any], name: str, *, text_as_paths: bool = True,
         narrow: bool = False) -> str:
    """One plot by its name without ``.svg`` (as a report names it). A book's plot keeps its
    text as text (``text_as_paths=False``), set in the book's own Carlito: a reader can search
    and copy it, and the PDF draws a few dozen lines instead of a thousand glyph outlines.
    ``narrow``: drawn for a phone's screen."""
    draw = ladder_plot if name == "ladder" else PLOTS[f"{name}.svg"]
    token = _narrow.set(narrow)
    try:
        with _style(), _text(text_as_paths), _phone(narrow):
            return _svg(draw(summary))
    finally:
        _narrow.reset(token)


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
    text = f"{table['players']} player{'s' if table['players'] != 1 else ''}"
    if len(summary["run"]["variants"]) > 1:
        text += f", {table['variant']}"
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
            xs = [v for v, _ in dist["histogram"]]
            ys = [c / dist["n"] for _, c in dist["histogram"]]
            ax.bar(xs, ys, width=_bar_width(xs), color=PALETTE[n % len(PALETTE)])
            ax.set_ylim(0, max(ys) * 1.35)  # room above the bars for the panel's note
            note = (f"{label(table, summary)}: median {dist['quantiles']['median']:g}, "
                    f"mean {dist['mean']:.1f}")
        else:
            note = f"{label(table, summary)}: no finished game"
        ax.text(0.01, 0.95, note, transform=ax.transAxes, va="top", fontsize=max(9, _small()),
                zorder=3,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1})
        ax.yaxis.set_major_formatter(_percent())
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # turns and points are whole
    axes[-1].set_xlabel(xlabel)
    figure.supylabel("share of games", fontsize=10)
    figure.suptitle(_wrapped(title, 12))
    return figure


def _bar_width(xs: Sequence[float]) -> float:
    steps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    return 0.8 * min(steps, default=1.0)


def length_plot(summary: Mapping[str, Any]) -> Figure:
    seconds = summary["run"]["seconds_per_turn"]
    figure = _counts_plot(summary, "turns", f"Game length (a turn taken as {seconds:g} s)",
                          "turns")
    ax = figure.axes[0]

    def to_minutes(turns: Any) -> Any:
        return turns * seconds / 60

    def to_turns(minutes: Any) -> Any:
        return minutes * 60 / seconds

    minutes = ax.secondary_xaxis("top", functions=(to_minutes, to_turns))
    minutes.set_xlabel("minutes", fontsize=max(9, _small()))
    return figure


def scores_plot(summary: Mapping[str, Any]) -> Figure:
    return _counts_plot(summary, "scores", "Scores (every player)", "score")


def margins_plot(summary: Mapping[str, Any]) -> Figure:
    return _counts_plot(summary, "margin", "Winning margin (best score less the next)",
                        "points")


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
        names = [str(s["seat"]) for s in seats] + [ordinal(o["place"]) for o in order]
        _rate_bars(ax, names, [*seats, *order], [INK] * len(seats) + [ACCENT] * len(order))
        ax.axhline(table["fair_share"], color=FAIR, linestyle="--", linewidth=1)
        ax.set_title(label(table, summary))
        ax.tick_params(axis="x", labelsize=_small())
    for ax in axes[len(tables):]:
        ax.set_axis_off()
    # One line of a page-wide plot: "Share of the wins ... by place in turn order" ran past it.
    figure.suptitle(_wrapped("Share of wins by seat (1, 2...) and turn order (1st, 2nd...), "
                             "95% intervals; dashed: an even share", 12))
    return figure


def agents_plot(summary: Mapping[str, Any]) -> Figure:
    tables = summary["tables"]
    rows, cols = _grid(len(tables))
    figure, axes = _figure(rows, cols, height=2.6)
    for ax, table in zip(axes, tables, strict=False):
        names = list(table["agents"])
        colours = [PALETTE[summary["run"]["agents"].index(n) % len(PALETTE)] for n in names]
        _rate_bars(ax, names, [table["agents"][n] for n in names], colours)
        ax.axhline(table["fair_share"], color=FAIR, linestyle="--", linewidth=1)
        ax.set_title(label(table, summary))
    for ax in axes[len(tables):]:
        ax.set_axis_off()
    figure.suptitle(_wrapped("Win rate of each agent's seats, 95% intervals (dashed: an even "
                             "share)", 12))
    return figure


def ends_plot(summary: Mapping[str, Any]) -> Figure:
    tables = summary["tables"]
    reasons = list(dict.fromkeys(r for t in tables for r in t["ends"]))
    figure, (ax,) = _figure(height=0.6 + 0.45 * len(tables))
    names = [label(t, summary) for t in tables]
    left = [0.0] * len(tables)
    for n, reason in enumerate(reasons):
        shares = [(t["ends"].get(reason) or {"rate": 0.0})["rate"] for t in tables]
        ax.barh(names, shares, left=left, color=PALETTE[n % len(PALETTE)], label=reason,
                height=0.6)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(_percent())
    ax.set_title("How games end")
    ax.legend(frameon=False, fontsize=max(9, _small()), loc="upper center",
              bbox_to_anchor=(0.5, -0.18), ncols=min(2 if _narrow.get() else 3, len(reasons)))
    return figure


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
        ax.annotate(f"{elo['elo']:.0f}", (elo["elo"], y), xytext=(0, 6),
                    textcoords="offset points", ha="center", fontsize=_small(),
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                          "edgecolor": "none"})
    ax.set_yticks(list(range(len(names))), names)
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.axvline(0, color=FAIR, linestyle="--", linewidth=1)
    ax.set_xlabel(_wrapped(LADDER_AXIS.format(agent=ladder["agents"][0]), 10))
    ax.set_title(_wrapped(LADDER_TITLE, 11))
    return figure
