"""The tournament pages in a browser: a phone (390×844), a laptop (1280×800) and the hall's
projector (1920×1080), in Chinese and English, with a screenshot of every step under
``tests/artifacts/``.

The tournament: sixteen players, three rounds of four tables, 普通 (one win a hand), four hands
a table. Rounds 1 and 2 have their totals entered (at each table the players by id score +30,
+10, −10, −30); round 3 is in play: table 1 has two hands (PINGHU: S1 wins on S2's discard),
table 2 its four, table 3 its totals entered, table 4 nothing yet. What the pages show is checked
against the selectors they read (the values themselves are worked out by hand in
``tests/pages/tournaments/test_tournaments.py``); here the point is what a person sees.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from clubs.services.clubs import club_create
from clubs.services.hands import hand_record
from tests.browser.steps import PHONE
from tests.scoring.engine.records import PINGHU
from tournaments import selectors, services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "张三", "李四", "王五", "赵六", "陈七", "刘八", "孙九", "周十",
    "吴一", "郑二", "欧阳娜娜", "曾小明", "Alexander Li", "冯六", "褚七", "卫八",
]  # fmt: skip
DESKTOP = {"width": 1280, "height": 800}
HALL = {"width": 1920, "height": 1080}
A4 = {"width": 794, "height": 1123}


def _scores(table, amounts) -> list[dict[str, int]]:
    seats = sorted(table.session.seats.all(), key=lambda s: s.player_id)
    return [{"player": s.player_id, "score": a} for s, a in zip(seats, amounts, strict=True)]


def _tournament() -> tuple[Tournament, object]:
    owner = get_user_model().objects.create_user("director", password="mahjong-2026-chengdu")
    club = club_create(name="成都茶馆", slug="teahouse", user=owner)
    t = services.tournament_create(
        name="春季杯 Spring Cup", slug="spring-cup", user=owner, club=club, rounds=3,
        hands_per_table=4, mode="single",
    )  # fmt: skip
    for name in NAMES:
        services.registration_create(tournament=t, name=name, new_player=True)
    for _ in range(2):
        round_ = services.round_start(tournament=t)  # seated on commit, in this process
        round_.refresh_from_db()
        assert round_.status == Round.Status.SEATED
        for table in round_.tables.all():
            services.table_result_enter(
                table=table, scores=_scores(table, [30, 10, -10, -30]), user=owner
            )
    round_ = services.round_start(tournament=t)
    one, two, three, four = round_.tables.order_by("number")
    for _ in range(2):
        hand_record(session=one.session, data=PINGHU, user=owner)
    for _ in range(4):
        hand_record(session=two.session, data=PINGHU, user=owner)
    services.table_result_enter(table=three, scores=_scores(three, [12, 4, -6, -10]), user=owner)
    t.refresh_from_db()
    return t, (owner, four)


def _pages(pdf: bytes) -> int:
    """The pages of a PDF Chromium printed (each is a ``/Type /Page`` object)."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _context(browser, live_server, viewport, locale="zh-CN"):
    context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1)
    context.set_default_timeout(15_000)
    return context, context.new_page()


def test_the_tournament_on_a_phone(browser, live_server, shots, in_process_tasks):
    t, _ = _tournament()
    top = selectors.latest_standings(t).rows[0]
    context, page = _context(browser, live_server, PHONE)
    base = f"{live_server.url}/tournaments/spring-cup"

    page.goto(f"{base}/")
    assert page.locator("h1").inner_text() == "春季杯 Spring Cup"
    assert "第 3 轮" in page.locator(".rounds").inner_text()
    assert _no_sideways_scroll(page)
    shots(page, "home")

    page.goto(f"{base}/standings/")
    first = page.locator("table.standings tbody tr").first
    assert first.locator("th.player").inner_text().startswith(top.name)
    assert page.locator("table.standings tbody tr").count() == len(NAMES)
    assert "排名依据：名次分 → 桌分" in page.locator(".chain").inner_text()
    # every trend has a sign and its words, not a colour alone
    for trend in page.locator("table.standings .trend").all()[:4]:
        assert trend.inner_text().strip()[0] in "▲▼=新"
    assert _no_sideways_scroll(page)  # the table scrolls inside its box, not the page
    shots(page, "standings")

    page.goto(f"{base}/live/")
    tables = page.locator(".live-table")
    assert tables.count() == 4
    assert "进行中" in tables.nth(0).inner_text() and "2 / 4 局" in tables.nth(0).inner_text()
    assert "已完成" in tables.nth(1).inner_text()
    assert "已录入总分" in tables.nth(2).inner_text()
    assert "未开始" in tables.nth(3).inner_text()
    assert _no_sideways_scroll(page)
    shots(page, "live tables")

    page.goto(f"{base}/rounds/3/print/")
    assert page.locator(".seat-block").count() == 4
    assert page.locator(".name-list li").count() == len(NAMES)
    assert page.locator("[data-print]").is_visible()
    assert _no_sideways_scroll(page)
    shots(page, "print on screen")
    page.set_viewport_size(A4)
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator("[data-print]").is_visible()
    shots(page, "print media A4")
    context.close()


def test_the_tournament_on_a_laptop_in_english(browser, live_server, shots, in_process_tasks):
    _tournament()
    context, page = _context(browser, live_server, DESKTOP, locale="en-US")
    base = f"{live_server.url}/tournaments/spring-cup"

    page.goto(f"{base}/standings/")
    head = page.locator("table.standings thead").inner_text()
    assert "Placement points" in head and "R3" in head
    # the whole table fits a laptop: nothing to scroll sideways
    assert page.locator(".scroll").evaluate("el => el.scrollWidth <= el.clientWidth")
    shots(page, "standings")

    page.goto(f"{base}/live/")
    assert "1 playing" in page.locator(".live-summary").inner_text()
    shots(page, "live tables")

    page.goto(f"{base}/rounds/3/print/")
    assert "Where do I sit?" in page.locator(".by-name h2").inner_text()
    assert page.locator(".seat-block .first-dealer").count() == 4
    page.set_viewport_size(A4)  # what the printer lays out: an A4 page at 96 dpi
    page.emulate_media(media="print")
    shots(page, "print media A4")
    # printed: the four tables on the first page, "where do I sit" on the next
    assert _pages(page.pdf(format="A4")) == 2
    page.goto(f"{base}/rounds/3/print/?cards=1")
    shots(page, "table cards in print")
    assert _pages(page.pdf(format="A4")) == 5  # a page a table, then the names
    context.close()


def _font_size(page, selector: str) -> float:
    """The font size of the first element ``selector`` finds, found and read in one step: the
    projector's refresh replaces its rows, and a row found before it and read after has no
    style left (NaN)."""
    return float(page.evaluate(
        "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
    ))  # fmt: skip


#: the first name on the projector's standings
FIRST_NAME = ".proj-standings tbody th.player"


def test_the_projector_in_the_hall(browser, live_server, shots, in_process_tasks):
    t, (owner, four) = _tournament()
    context, page = _context(browser, live_server, HALL)
    base = f"{live_server.url}/tournaments/spring-cup"

    page.goto(f"{base}/projector/?refresh=5")
    assert page.locator(".site-header").count() == 0  # no navigation
    size = _font_size(page, FIRST_NAME)
    assert size >= 36  # read from the back of the room
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(12, 13, 16)"  # dark
    assert page.locator(".proj-qr svg").is_visible()
    shots(page, "standings")

    # it scrolls by itself (sixteen rows do not fit)
    page.wait_for_function("() => document.getElementById('proj-scroll').scrollTop > 40")
    shots(page, "standings scrolled")

    # a result comes in: the board reads it on its next refresh, without a reload
    before = page.locator("#proj-board").inner_html()
    page.evaluate("window.__same_page = true")
    services.table_result_enter(table=four, scores=_scores(four, [8, 2, -3, -7]), user=owner)
    page.wait_for_function(
        "html => document.getElementById('proj-board').innerHTML !== html", arg=before
    )
    assert page.evaluate("window.__same_page === true")
    rows = page.locator(".proj-standings tbody th.player").all_inner_texts()
    assert [r.split()[0] for r in rows] == [
        r.name.split()[0] for r in selectors.latest_standings(t).rows
    ]

    # larger text, then the light background
    page.mouse.move(200, 1000)
    page.locator("[data-size='1']").click()
    page.locator("[data-size='1']").click()
    bigger = _font_size(page, FIRST_NAME)
    assert bigger > size
    shots(page, "standings larger text")
    page.locator("[data-theme]").click()
    assert page.evaluate("document.documentElement.classList.contains('light')")
    shots(page, "standings light")
    page.locator("[data-theme]").click()
    page.locator("[data-size='-1']").click()
    page.locator("[data-size='-1']").click()

    page.goto(f"{base}/projector/?show=seating")
    assert page.locator(".proj-table").count() == 4
    assert page.locator(".proj-table .first-dealer").count() == 4
    assert _font_size(page, ".proj-seats .name") >= 36
    shots(page, "seating")
    context.close()

    # in English: the tiebreaks named with their Chinese, still one line a player
    context, page = _context(browser, live_server, HALL, locale="en-US")
    page.goto(f"{base}/projector/")
    head = page.locator(".proj-standings thead").inner_text()
    assert "Placement points" in head and "Head-to-head" in head
    heights = page.locator(".proj-standings tbody tr").evaluate_all(
        "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    assert max(heights) < 2 * size  # no name wraps onto a second line
    shots(page, "standings in English")
    page.goto(f"{base}/projector/?show=seating")
    assert page.locator(".proj-seats .wind-name").first.inner_text() == "东 E"
    cut = page.locator(".proj-seats .name").evaluate_all(
        "names => names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)"
    )
    assert cut == []  # every name whole at this size
    shots(page, "seating in English")
    context.close()
