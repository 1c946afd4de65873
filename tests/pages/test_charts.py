"""The server-drawn charts' geometry (``pages.charts``), worked out by hand.

Most cases draw on a small frame: 200 × 120 units, margins left 40, right 10, top 10, bottom
30, so the plot runs across x 40 … 190 (150 units) and down y 10 … 90 (80 units); a value v of
a y scale [lo, hi] lands at 90 − (v − lo) / (hi − lo) · 80.
"""

from __future__ import annotations

import re

import pytest

from pages.charts import (
    DASHES,
    Bar,
    Frame,
    Series,
    bar_chart,
    clip_text,
    line_chart,
    nice_step,
    nice_ticks,
    signed,
    spread_ticks,
    text_width,
)

SMALL = Frame(width=200, height=120, left=40, right=10, top=10, bottom=30)


def chart(*series: Series, **kw):
    return line_chart(list(series), title="T", frame=SMALL, **kw)


def test_points_land_where_worked_out_and_negatives_lie_below_the_zero_line():
    # y from −10 to 10: span 20 in at most 4 steps → step 5, ticks −10 … 10; y(10) = 10,
    # y(0) = 50, y(−10) = 90. x from 0 to 2: 0 → 40, 1 → 115, 2 → 190
    c = chart(Series("a", [(0, 0), (1, 10), (2, -10)]))
    assert [t.value for t in c.y_ticks] == [-10, -5, 0, 5, 10]
    [line] = c.lines
    assert line.points == ((40, 50), (115, 10), (190, 90))
    assert c.zero == 50
    # SVG's y grows downward: the negative point is below (greater y than) the zero line
    assert line.points[2][1] > c.zero > line.points[1][1]


def test_the_zero_line_is_always_in_the_scale():
    # all above zero: the scale still starts at 0. 0 … 15 in steps of 5 (15 / 4 = 3.75 → 5);
    # y(5) = 90 − 5/15 · 80 = 63.33, y(15) = 10
    c = chart(Series("a", [(0, 5), (1, 15)]))
    assert [t.value for t in c.y_ticks] == [0, 5, 10, 15]
    assert c.zero == 90
    assert c.lines[0].points == ((40, 63.33), (190, 10))


def test_the_reference_line_can_be_another_value_or_none():
    # ratings about the 1500 a new player starts at: 1480 … 1540 in steps of 20 (60 / 4 = 15)
    c = chart(Series("r", [(0, 1500), (1, 1540), (2, 1480)]), zero=1500.0)
    assert [t.value for t in c.y_ticks] == [1480, 1500, 1520, 1540]
    assert c.zero == pytest.approx(90 - 20 / 60 * 80, abs=0.01)
    no_line = chart(Series("r", [(0, 5), (1, 15)]), zero=None)
    assert no_line.zero is None and 'class="zero"' not in no_line.svg()
    # without it the scale holds the data alone: 5 … 15, 10 / 4 = 2.5 → a step of 5
    assert [t.value for t in no_line.y_ticks] == [5, 10, 15]


def test_several_series_share_one_scale_and_each_has_its_own_look():
    c = chart(
        Series("a", [(0, 0), (2, 20)]),
        Series("b", [(0, 0), (1, -20)]),
        Series("c", [(0, 0), (1, 1)]),
        Series("d", [(0, 0), (1, 2)]),
    )
    assert [t.value for t in c.y_ticks] == [-20, -10, 0, 10, 20]
    a, b, *_ = c.lines
    assert a.points[-1] == (190, 10) and b.points[-1] == (115, 90)
    looks = {(line.colour, line.dash, line.marker) for line in c.lines}
    assert len(looks) == 4
    assert len({line.dash for line in c.lines}) == 4  # told apart without their colour too
    assert [i.label for i in c.legend] == ["a", "b", "c", "d"]
    assert c.lines[0].dash == DASHES[0] == ""  # the first is solid


def test_the_legend_goes_below_the_plot_two_to_a_row_when_the_labels_fit():
    short = chart(Series("a", [(0, 0), (1, 1)]), Series("b", [(0, 0), (1, 2)]),
                  Series("c", [(0, 0), (1, 3)]))  # fmt: skip
    # items from the frame's bottom (120) down, rows of 18: a and b on one row, c below
    assert [(i.x, i.y) for i in short.legend] == [(4, 129), (102, 129), (4, 147)]
    assert short.height == 120 + 2 * 18 + 4
    long = chart(Series("a rather long name of a club", [(0, 0), (1, 1)]),
                 Series("b", [(0, 0), (1, 2)]))  # fmt: skip
    assert [(i.x, i.y) for i in long.legend] == [(4, 129), (4, 147)]


def test_empty_series_give_the_empty_state():
    for c in (chart(empty_text="No session yet"),
              chart(Series("a", []), Series("b", []), empty_text="No session yet")):  # fmt: skip
        assert c.empty and c.lines == () and c.y_ticks == ()
        svg = c.svg()
        assert "No session yet" in svg and "<polyline" not in svg
        assert 'role="img"' in svg and "<title" in svg


def test_a_series_without_points_is_left_out():
    c = chart(Series("none", []), Series("some", [(0, 1), (1, 2)]))
    assert [line.label for line in c.lines] == ["some"]


def test_a_single_point_sits_in_the_middle_with_a_marker():
    c = chart(Series("a", [(3, 4)]))
    [line] = c.lines
    assert line.points[0][0] == 115  # (40 + 190) / 2
    assert line.marked == line.points
    svg = c.svg()
    assert "<polyline" not in svg and "<circle" in svg
    assert [t.label for t in c.x_ticks] == ["3"]


def test_x_ticks_are_whole_numbers_within_the_data_or_as_given():
    c = chart(Series("a", [(0, 0), (3, 1)]))
    # 0 … 3 in at most 4 steps: 0.75 → a whole step of 1
    assert [(t.value, t.at) for t in c.x_ticks] == [(0, 40), (1, 90), (2, 140), (3, 190)]
    given = chart(Series("a", [(0, 0), (10, 1)]), x_ticks=[(0, "start"), (5, "mid"), (12, "x")])
    assert [(t.label, t.at) for t in given.x_ticks] == [("start", 40), ("mid", 115)]


def test_labels_are_formatted_and_escaped():
    c = chart(Series("<b>&", [(0, -3), (1, 3)]), y_format=signed, x_label="Hands",
              y_label="Total")  # fmt: skip
    assert [t.label for t in c.y_ticks] == ["−4", "−2", "0", "+2", "+4"]
    svg = c.svg()
    assert "&lt;b&gt;&amp;" in svg and "<b>" not in svg
    assert ">Hands</text>" in svg and ">Total</text>" in svg


def test_the_svg_reads_without_script_and_fits_a_phone():
    c = line_chart([Series("a", [(0, 0), (1, 1)])], title="Score <over> time",
                   desc="His score.", id="score")  # fmt: skip
    svg = c.svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert 'role="img"' in svg and 'aria-labelledby="score-title score-desc"' in svg
    assert '<title id="score-title">Score &lt;over&gt; time</title>' in svg
    assert '<desc id="score-desc">His score.</desc>' in svg
    assert 'width="100%"' in svg and re.search(r'viewBox="0 0 340 \d+"', svg)
    assert "<script" not in svg


def test_nice_ticks():
    assert nice_step(24) == 10 and nice_step(60) == 20 and nice_step(20) == 5
    assert nice_step(85) == 25 and nice_step(10) == 5  # 2.5 × 10ⁿ from 25 up only
    assert nice_ticks(0, 24) == [0, 10, 20, 30]
    assert nice_ticks(-3, 24) == [-10, 0, 10, 20, 30]
    assert nice_ticks(0.1, 0.9) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(5, 5) == [4, 4.5, 5, 5.5, 6]  # one value: a tick either side
    assert nice_ticks(0, 3, integer=True) == [0, 1, 2, 3]


def test_spread_ticks_cover_both_ends():
    assert spread_ticks(0, 9, lambda v: f"d{v:g}") == [(0, "d0"), (3, "d3"), (6, "d6"), (9, "d9")]
    assert spread_ticks(4, 4, str) == [(4, "4")]


def test_bars_are_as_long_as_their_share_of_the_longest():
    # width 200, a pad of 4 each side, the longest value's text "4" about 0.6 · 12 = 7.2 wide
    # and a gap of 6: the longest bar is 200 − 8 − 7.2 − 6 = 178.8 long, a bar of 2 half of
    # it. Rows of 16 (label) + 12 (bar) + 8 (gap) = 36 from the pad: bars' tops at 20 and 56
    c = bar_chart([Bar("清一色", 4), Bar("平胡", 2)], title="Patterns", width=200)
    a, b = c.bars
    assert (a.x, a.y, a.width, a.height) == (4, 20, 178.8, 12)
    assert (b.y, b.width) == (56, 89.4)
    assert c.height == 8 + 2 * 36 - 8
    svg = c.svg()
    assert ">清一色</text>" in svg and ">4</text>" in svg and 'role="img"' in svg


def test_a_bar_chart_shows_counts_only_and_has_an_empty_state():
    with pytest.raises(ValueError):
        bar_chart([Bar("x", -1)], title="T")
    empty = bar_chart([], title="T", empty_text="No win yet.")
    assert empty.empty and "No win yet." in empty.svg()
    zero = bar_chart([Bar("x", 0)], title="T")
    assert zero.bars[0].width == 0 and ">0</text>" in zero.svg()


def test_a_long_label_is_cut_and_kept_whole_in_its_title():
    label = "龙七对 (Seven pairs with a four of a kind, and a very long name besides)"
    c = bar_chart([Bar(label, 3)], title="T", width=200)
    [bar] = c.bars
    assert bar.label.endswith("…") and text_width(bar.label) <= 192
    assert f"<title>{label}: 3</title>" in c.svg()
    assert clip_text("short", 100) == "short"


def test_signed_values_take_a_true_minus():
    assert [signed(v) for v in (5, -3, 0, -0.4, 2.6)] == ["+5", "−3", "0", "0", "+3"]
