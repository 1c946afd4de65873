"""Charts drawn by the server as inline SVG: a line chart of several series with a zero line,
and a horizontal bar chart.

Plain Python, no Django: each function takes numbers and labels (already in the page's
language) and answers a small read model (:class:`LineChart`, :class:`BarChart`) holding the
geometry, which ``svg()`` writes out as one ``<svg>`` element. So a chart reads without
JavaScript, prints, and works in a chat app's browser:

* ``role="img"`` with a ``<title>`` and a ``<desc>`` (the figures in words), every axis and
  value labelled in text inside the drawing;
* a colour is never alone: each series has its own dash pattern and marker shape as well, and
  the legend names it beside a sample of its line;
* ``viewBox`` with ``width="100%"``: the drawing is 340 units wide and scales to the phone's
  390 px card (text of 11 units stays about 11 px there).

Geometry, in the drawing's units (y grows downward, as in SVG): the plot is the rectangle
``Frame.plot``; a value ``v`` of a scale ``[lo, hi]`` lands at
``x0 + (v − lo) / (hi − lo) · (x1 − x0)`` across and ``y1 − (v − lo) / (hi − lo) · (y1 − y0)``
down, so a negative value lies below the zero line. The x scale spans the data exactly (the
first point on the left edge, the last on the right); the y scale is widened to "nice" ticks
(1, 2, 5 × 10ⁿ) and always holds the reference line (0 for scores).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

#: Okabe–Ito colours (told apart with most colour blindness), each with a dash and a marker
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
DASHES = ("", "6 3", "2 2", "8 3 2 3", "1 3", "10 2", "4 2 1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "circle", "square", "triangle")
#: points drawn with a marker each up to this many in a series (beyond: the last one only)
MARKED_POINTS = 40
FONT = 12  # text size, in the drawing's units (about as many px on a 390 px phone)
AXIS = "#6b6b70"
GRID = "#e4e4e8"


def text_width(text: str, size: float = FONT) -> float:
    """About how wide ``text`` is drawn at ``size``: a Chinese character is a square, Latin
    letters and digits a little over half of one."""
    return sum(size * (1.0 if ord(ch) > 0x2E80 else 0.6) for ch in text)


def clip_text(text: str, width: float, size: float = FONT) -> str:
    """``text`` cut to fit ``width`` (with an ellipsis when cut)."""
    if text_width(text, size) <= width:
        return text
    out = ""
    for ch in text:
        if text_width(out + ch + "…", size) > width:
            break
        out += ch
    return out + "…"


# --- scales -----------------------------------------------------------------------------------


def nice_step(span: float, intervals: int = 4) -> float:
    """The smallest of 1, 2, 5 × 10ⁿ (and 25, 250 … from 10 up) that cuts ``span`` into at
    most ``intervals`` parts."""
    if span <= 0:
        return 1.0
    raw = span / intervals
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10) if power >= 10 else (1, 2, 5, 10):
        if m * power >= raw * (1 - 1e-9):
            return m * power
    return 10 * power  # pragma: no cover - the loop always returns


def nice_ticks(lo: float, hi: float, intervals: int = 4, *, integer: bool = False) -> list[float]:
    """Tick values covering ``[lo, hi]`` at a nice step: the first at or below ``lo``, the last
    at or above ``hi``. A single value gets a tick either side of it."""
    if hi < lo:
        lo, hi = hi, lo
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    step = nice_step(hi - lo, intervals)
    if integer:
        step = max(1.0, math.ceil(step))
    first = math.floor(lo / step + 1e-9) * step
    last = math.ceil(hi / step - 1e-9) * step
    n = round((last - first) / step)
    return [_clean(first + i * step) for i in range(n + 1)]


def _clean(v: float) -> float:
    """A tick value without floating dust (0.30000000000000004 → 0.3, −0.0 → 0.0)."""
    return round(v, 9) + 0.0


@dataclass(frozen=True)
class Scale:
    """Maps ``[lo, hi]`` onto ``[start, end]`` (``end`` may be below ``start``: y goes down)."""

    lo: float
    hi: float
    start: float
    end: float

    def __call__(self, v: float) -> float:
        if self.hi == self.lo:
            return (self.start + self.end) / 2
        return self.start + (v - self.lo) / (self.hi - self.lo) * (self.end - self.start)


@dataclass(frozen=True)
class Frame:
    """The drawing's size and the plot's margins inside it."""

    width: float = 340
    height: float = 200
    left: float = 44
    right: float = 14
    top: float = 22
    bottom: float = 38

    @property
    def plot(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): the plot's left, top, right and bottom."""
        return (self.left, self.top, self.width - self.right, self.height - self.bottom)


# --- the line chart ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    """One line: its label (in the legend) and its points (x, y) in drawing order."""

    label: str
    points: Sequence[tuple[float, float]]


@dataclass(frozen=True)
class Tick:
    value: float
    at: float  # where it is drawn (x across for the x axis, y down for the y axis)
    label: str


@dataclass(frozen=True)
class Line:
    """A series as drawn: its points in the drawing's units and how it is told apart."""

    label: str
    colour: str
    dash: str
    marker: str
    points: tuple[tuple[float, float], ...]
    marked: tuple[tuple[float, float], ...]  # the points that get a marker


@dataclass(frozen=True)
class LegendItem:
    label: str
    colour: str
    dash: str
    marker: str
    x: float
    y: float


@dataclass(frozen=True)
class LineChart:
    title: str
    desc: str
    frame: Frame
    height: float  # the frame's height and the legend's rows below it
    x_label: str
    y_label: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero: float | None  # the reference line's y (None: not drawn)
    lines: tuple[Line, ...]
    legend: tuple[LegendItem, ...]
    empty: bool
    empty_text: str
    id: str = "chart"

    def svg(self) -> str:
        return _line_svg(self)


def _fmt(v: float) -> str:
    """A value as a label when no formatter is given: 3, 2.5, −4 (a true minus sign)."""
    text = f"{v:g}" if v != int(v) else str(int(v))
    return text.replace("-", "−")


def signed(v: float) -> str:
    """A value rounded to a whole number and signed: +5, −3 (a true minus sign), 0."""
    n = round(v)
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _legend(labels_and_styles, x0: float, width: float, top: float, row: float = 18):
    """The legend's items from ``top`` down: two to a row when every label fits half the
    width, else one to a row."""
    half = (width - x0) / 2
    two = all(text_width(lab) + 30 <= half for lab, *_ in labels_and_styles)
    items = []
    for i, (label, colour, dash, marker) in enumerate(labels_and_styles):
        column, line = (i % 2, i // 2) if two else (0, i)
        items.append(
            LegendItem(label, colour, dash, marker, x0 + column * half, top + line * row + row / 2)
        )
    rows = math.ceil(len(items) / 2) if two else len(items)
    return tuple(items), rows * row


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    desc: str = "",
    x_label: str = "",
    y_label: str = "",
    zero: float | None = 0.0,
    x_ticks: Sequence[tuple[float, str]] | None = None,
    x_integer: bool = True,
    x_format: Callable[[float], str] = _fmt,
    y_format: Callable[[float], str] = _fmt,
    empty_text: str = "",
    frame: Frame | None = None,
    id: str = "chart",
) -> LineChart:
    """Several series on one plot, with a reference line at ``zero`` (None: none).

    ``x_ticks`` gives the x axis' ticks as (value, label); without it, nice ticks over the data
    (whole numbers when ``x_integer``), labelled by ``x_format``. Series without points are
    left out; with none left the chart is its empty state (``empty_text`` in the plot)."""
    frame = frame or Frame()
    x0, y0, x1, y1 = frame.plot
    drawn = [s for s in series if len(s.points)]
    styles = [
        (s.label, COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)], MARKERS[i % len(MARKERS)])
        for i, s in enumerate(drawn)
    ]
    legend, legend_height = _legend(styles, x0 - frame.left + 4, frame.width, frame.height)
    height = frame.height + legend_height + (4 if legend else 0)
    if not drawn:
        return LineChart(
            title, desc, frame, frame.height, x_label, y_label, (), (), None, (), (), True,
            empty_text, id,
        )  # fmt: skip
    xs = [x for s in drawn for x, _ in s.points]
    ys = [y for s in drawn for _, y in s.points] + ([zero] if zero is not None else [])
    y_values = nice_ticks(min(ys), max(ys))
    ys_scale = Scale(y_values[0], y_values[-1], y1, y0)
    lo, hi = min(xs), max(xs)
    xs_scale = Scale(lo, hi, x0, x1)
    if x_ticks is None:
        values = [v for v in nice_ticks(lo, hi, integer=x_integer) if lo <= v <= hi]
        if hi == lo:
            values = [lo]
        x_ticks = [(v, x_format(v)) for v in values]
    ticks_x = tuple(Tick(v, xs_scale(v), label) for v, label in x_ticks if lo <= v <= hi)
    ticks_y = tuple(Tick(v, ys_scale(v), y_format(v)) for v in y_values)
    lines = []
    for s, (label, colour, dash, marker) in zip(drawn, styles, strict=True):
        points = tuple((_r(xs_scale(x)), _r(ys_scale(y))) for x, y in s.points)
        marked = points if len(points) <= MARKED_POINTS else points[-1:]
        lines.append(Line(label, colour, dash, marker, points, marked))
    return LineChart(
        title=title,
        desc=desc,
        frame=frame,
        height=height,
        x_label=x_label,
        y_label=y_label,
        x_ticks=ticks_x,
        y_ticks=ticks_y,
        zero=None if zero is None else _r(ys_scale(zero)),
        lines=tuple(lines),
        legend=legend,
        empty=False,
        empty_text=empty_text,
        id=id,
    )


def spread_ticks(lo: float, hi: float, label: Callable[[float], str], count: int = 4):
    """``count`` ticks spread evenly from ``lo`` to ``hi`` (both ends included), each labelled
    by ``label``: for a time axis, where nice numbers mean nothing."""
    if hi <= lo or count < 2:
        return [(lo, label(lo))]
    step = (hi - lo) / (count - 1)
    return [(lo + i * step, label(lo + i * step)) for i in range(count)]


def _r(v: float) -> float:
    return round(v, 2)


# --- the bar chart ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """One bar: its label, its value (not negative) and the text written at its end (the value
    itself unless given)."""

    label: str
    value: float
    text: str | None = None
    title: str | None = None  # the row's tooltip (default "label: text")


@dataclass(frozen=True)
class DrawnBar:
    label: str  # as drawn (cut to fit)
    full_label: str  # the row's title: the whole label and the value
    text: str
    x: float
    y: float  # the bar's top
    width: float
    height: float
    label_y: float  # the label's baseline (above the bar)


@dataclass(frozen=True)
class BarChart:
    title: str
    desc: str
    width: float
    height: float
    bars: tuple[DrawnBar, ...]
    colour: str
    empty: bool
    empty_text: str
    id: str = "bars"

    def svg(self) -> str:
        return _bar_svg(self)


#: a bar's row: its label on a line of its own, the bar under it, a gap
LABEL_LINE = 16
BAR_HEIGHT = 12
ROW_GAP = 8


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    desc: str = "",
    empty_text: str = "",
    width: float = 340,
    id: str = "bars",
    colour: str = COLOURS[0],
) -> BarChart:
    """Horizontal bars, one row each: the label above its bar, the value at the bar's end. The
    longest bar ends where room is left for its value's text; a label too long for the width
    is cut (its whole text stays in the row's ``<title>``)."""
    if any(b.value < 0 for b in bars):
        raise ValueError("a bar chart shows counts: no negative value")
    if not bars:
        return BarChart(title, desc, width, 44, (), colour, True, empty_text, id)
    pad = 4
    texts = [b.text if b.text is not None else _fmt(b.value) for b in bars]
    room = width - 2 * pad - max(text_width(t) for t in texts) - 6
    top = max(b.value for b in bars)
    row = LABEL_LINE + BAR_HEIGHT + ROW_GAP
    drawn = []
    for i, (b, text) in enumerate(zip(bars, texts, strict=True)):
        y = pad + i * row
        length = room * b.value / top if top else 0.0
        drawn.append(
            DrawnBar(
                clip_text(b.label, width - 2 * pad),
                b.title or f"{b.label}: {text}",
                text,
                pad,
                _r(y + LABEL_LINE),
                _r(length),
                BAR_HEIGHT,
                _r(y + LABEL_LINE - 4),
            )  # fmt: skip
        )
    height = 2 * pad + len(bars) * row - ROW_GAP
    return BarChart(title, desc, width, height, tuple(drawn), colour, False, empty_text, id)


# --- writing the SVG --------------------------------------------------------------------------


def _a(value) -> str:
    """An attribute's value, escaped."""
    return escape(str(value), quote=True)


def _head(chart_id: str, width: float, height: float, title: str, desc: str) -> list[str]:
    t, d = f"{chart_id}-title", f"{chart_id}-desc"
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart" id="{_a(chart_id)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" width="100%" '
        f'preserveAspectRatio="xMinYMin meet" aria-labelledby="{_a(t)} {_a(d)}" '
        f'font-size="{FONT}">',
        f'<title id="{_a(t)}">{escape(title)}</title>',
        f'<desc id="{_a(d)}">{escape(desc)}</desc>',
    ]


def _n(v: float) -> str:
    """A number in the SVG's text: no needless decimals."""
    return f"{round(v, 2) + 0.0:.2f}".rstrip("0").rstrip(".")


def _marker(kind: str, x: float, y: float, colour: str, r: float = 3.2) -> str:
    if kind == "square":
        return (f'<rect x="{_n(x - r)}" y="{_n(y - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}" '
                f'fill="{colour}"/>')  # fmt: skip
    if kind in ("triangle", "diamond"):
        if kind == "triangle":
            corners = [(x, y - r - 0.6), (x + r + 0.6, y + r), (x - r - 0.6, y + r)]
        else:
            corners = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
        pts = " ".join(f"{_n(a)},{_n(b)}" for a, b in corners)
        return f'<polygon points="{pts}" fill="{colour}"/>'
    return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{colour}"/>'


def _line_svg(c: LineChart) -> str:
    out = _head(c.id, c.frame.width, c.height, c.title, c.desc)
    x0, y0, x1, y1 = c.frame.plot
    if c.y_label:
        out.append(f'<text class="axis-label" x="2" y="{_n(y0 - 9)}" fill="{AXIS}">'
                   f"{escape(c.y_label)}</text>")  # fmt: skip
    if c.empty:
        out.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
                   f'fill="#f6f6f8" stroke="{GRID}"/>')  # fmt: skip
        out.append(f'<text class="empty" x="{_n((x0 + x1) / 2)}" y="{_n((y0 + y1) / 2)}" '
                   f'text-anchor="middle" fill="{AXIS}">{escape(c.empty_text)}</text>')  # fmt: skip
        out.append("</svg>")
        return "".join(out)
    for t in c.y_ticks:  # grid lines and the y axis' labels
        out.append(f'<line x1="{_n(x0)}" y1="{_n(t.at)}" x2="{_n(x1)}" y2="{_n(t.at)}" '
                   f'stroke="{GRID}"/>')  # fmt: skip
        out.append(f'<text x="{_n(x0 - 4)}" y="{_n(t.at + 3.5)}" text-anchor="end" '
                   f'fill="{AXIS}">{escape(t.label)}</text>')  # fmt: skip
    last = len(c.x_ticks) - 1
    for i, t in enumerate(c.x_ticks):
        anchor = "middle"
        if len(c.x_ticks) > 1 and i == 0 and text_width(t.label) / 2 > t.at - 2:
            anchor = "start"
        if len(c.x_ticks) > 1 and i == last and text_width(t.label) / 2 > c.frame.width - t.at - 2:
            anchor = "end"
        out.append(f'<line x1="{_n(t.at)}" y1="{_n(y1)}" x2="{_n(t.at)}" y2="{_n(y1 + 4)}" '
                   f'stroke="{AXIS}"/>')  # fmt: skip
        out.append(f'<text x="{_n(t.at)}" y="{_n(y1 + 15)}" text-anchor="{anchor}" '
                   f'fill="{AXIS}">{escape(t.label)}</text>')  # fmt: skip
    out.append(f'<line x1="{_n(x0)}" y1="{_n(y1)}" x2="{_n(x1)}" y2="{_n(y1)}" stroke="{AXIS}"/>')
    out.append(f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x0)}" y2="{_n(y1)}" stroke="{AXIS}"/>')
    if c.zero is not None:
        out.append(f'<line class="zero" x1="{_n(x0)}" y1="{_n(c.zero)}" x2="{_n(x1)}" '
                   f'y2="{_n(c.zero)}" stroke="#1d1d1f" stroke-width="1.2"/>')  # fmt: skip
    if c.x_label:
        out.append(f'<text class="axis-label" x="{_n((x0 + x1) / 2)}" y="{_n(y1 + 30)}" '
                   f'text-anchor="middle" fill="{AXIS}">{escape(c.x_label)}</text>')  # fmt: skip
    for line in c.lines:
        dash = f' stroke-dasharray="{line.dash}"' if line.dash else ""
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in line.points)
        out.append(f'<g class="series"><title>{escape(line.label)}</title>')
        if len(line.points) > 1:
            out.append(f'<polyline points="{points}" fill="none" stroke="{line.colour}" '
                       f'stroke-width="2" stroke-linejoin="round"{dash}/>')  # fmt: skip
        out.extend(_marker(line.marker, x, y, line.colour) for x, y in line.marked)
        out.append("</g>")
    for item in c.legend:
        dash = f' stroke-dasharray="{item.dash}"' if item.dash else ""
        out.append(f'<line x1="{_n(item.x)}" y1="{_n(item.y)}" x2="{_n(item.x + 22)}" '
                   f'y2="{_n(item.y)}" stroke="{item.colour}" '
                   f'stroke-width="2"{dash}/>')  # fmt: skip
        out.append(_marker(item.marker, item.x + 11, item.y, item.colour))
        out.append(f'<text x="{_n(item.x + 27)}" y="{_n(item.y + 4)}">{escape(item.label)}</text>')
    out.append("</svg>")
    return "".join(out)


def _bar_svg(c: BarChart) -> str:
    out = _head(c.id, c.width, c.height, c.title, c.desc)
    if c.empty:
        out.append(f'<text class="empty" x="{_n(c.width / 2)}" y="26" text-anchor="middle" '
                   f'fill="{AXIS}">{escape(c.empty_text)}</text></svg>')  # fmt: skip
        return "".join(out)
    for b in c.bars:
        out.append(f"<g><title>{escape(b.full_label)}</title>")
        out.append(f'<text x="{_n(b.x)}" y="{_n(b.label_y)}">{escape(b.label)}</text>')
        out.append(f'<rect x="{_n(b.x)}" y="{_n(b.y)}" width="{_n(max(b.width, 1))}" '
                   f'height="{_n(b.height)}" rx="2" fill="{c.colour}"/>')  # fmt: skip
        out.append(f'<text x="{_n(b.x + b.width + 5)}" y="{_n(b.y + b.height - 2)}" '
                   f'font-weight="600">{escape(b.text)}</text></g>')  # fmt: skip
    out.append("</svg>")
    return "".join(out)
