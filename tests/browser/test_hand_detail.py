"""The hand page on a phone (390×844, Chinese) and on a desktop (1280×800, English): each
winner's tiles drawn as tiles, the winning tile set apart and outlined, melds apart, a concealed
kong with its outer tiles face down, declared hands in words, the draw's hands.

Hands of a public 血战 table (qq, base 1), recorded through the services:

1. ``tests.clubs.test_hand_tiles.RECORD``: 小李 暗杠 9条 and wins 清一色 + 1根 on 王姐's 5条
   (4 fan → 8); 老张 self-draws, declared 清一色 1根; at the draw 王姐 is declared 花猪, 阿明
   declared ready on 对对胡.
2. ``DRAWN``: a draw with three hands shown (one with an added kong 5筒).
3. 小李 with three melds — 碰 1筒, 直杠 7筒 (on 老张's discard), 碰 9万 — and 234万 5万 in hand,
   wins on 老张's 5万: 平胡 + 1根 (the kong) = 2 fan → 2; the others are declared not ready.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Club, Role
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_create
from tests.browser.steps import PHONE
from tests.clubs.factories import ClubFactory
from tests.clubs.test_hand_tiles import RECORD
from tests.helpers import member_login
from tests.scoring.engine.records import DRAWN

pytestmark = pytest.mark.django_db(transaction=True)

MELDS = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 1, "kind": "direct", "tile": "7p", "from": 0},
        {"type": "win", "from": 0, "tile": "5m", "situation": [],
         "winners": [{"seat": 1, "concealed": "234m5m",
                      "melds": [{"kind": "pung", "tile": "1p"}, {"kind": "kong", "tile": "7p"},
                                {"kind": "pung", "tile": "9m"}]}]},
    ],
    "draw": {"hands": {"0": {"declared": "not_ready"}, "2": {"declared": "not_ready"},
                       "3": {"declared": "not_ready"}}},
}  # fmt: skip


@pytest.fixture
def table():
    club = ClubFactory(visibility=Club.Visibility.PUBLIC)
    scorer = member_login(club, Role.SCORER)
    players = [player_create(club=club, name=n).player for n in ("老张", "小李", "王姐", "阿明")]
    session = session_create(club=club, players=players, user=scorer, mode="xuezhan")
    for record in (RECORD, DRAWN, MELDS):
        hand_record(session=session, data=record, user=scorer)
    return session


def hand_url(page, session, n: int) -> str:
    return page.base_url + reverse("page-hand", args=[session.pk, n])


def boxes(locator) -> list[dict]:
    return [locator.nth(i).bounding_box() for i in range(locator.count())]


def test_a_hand_on_a_phone(phone, shots, table):
    page = phone
    page.goto(hand_url(page, table, 1))
    li = page.locator(".win-card").first
    assert "小李" in li.locator("h2").inner_text()
    hand = li.locator(".tile-group.in-hand .mj-tile")
    assert hand.count() == 10
    sizes = boxes(hand)
    # readable on a phone: every tile at least 25 px wide (13 fill a line), all ten on one line
    assert all(b["width"] >= 25 and b["height"] >= 32 for b in sizes)
    assert len({round(b["y"]) for b in sizes}) == 1
    # the winning tile stands apart (a gap wider than between the tiles of the hand) and is
    # outlined; the concealed kong is apart again, its outer tiles face down
    winning = li.locator(".mj-tile.winning")
    assert winning.count() == 1 and winning.get_attribute("class") == "mj-tile winning"
    gap = winning.bounding_box()["x"] - (sizes[-1]["x"] + sizes[-1]["width"])
    assert gap >= 8 or winning.bounding_box()["y"] > sizes[-1]["y"]
    kong = li.locator(".meld.kong.concealed .mj-tile")
    assert kong.count() == 4 and li.locator(".meld.kong.concealed .mj-tile.back").count() == 2
    assert li.locator(".meld .group-label").inner_text() == "暗杠"
    assert li.locator("svg[aria-label='五条']").count() == 3
    # nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shots(page, "hand 1 shown and declared winners")
    li.screenshot(path=str(shots.folder / "hand-1-tiles-close-up.png"))
    zhang = page.locator(".win-card").nth(1)
    assert "报牌：清一色，1根" in zhang.inner_text() and zhang.locator(".mj-tile").count() == 0
    draw = page.locator(".draw-card")
    assert "报牌：花猪" in draw.inner_text() and "听对对胡" in draw.inner_text()
    draw.scroll_into_view_if_needed()
    shots(page, "hand 1 the draw and the payments")

    page.goto(hand_url(page, table, 3))
    li = page.locator(".win-card").first
    melds = li.locator(".tile-group.meld")
    assert melds.count() == 3
    assert [m.locator(".group-label").inner_text() for m in melds.all()] == ["碰", "明杠", "碰"]
    groups = boxes(li.locator(".tile-group"))
    for a, b in zip(groups, groups[1:], strict=False):  # each group apart from the one before
        assert b["x"] >= a["x"] + a["width"] + 8 or b["y"] >= a["y"] + a["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shots(page, "hand 3 melds")
    li.screenshot(path=str(shots.folder / "hand-3-tiles-close-up.png"))

    page.goto(hand_url(page, table, 2))
    hands = page.locator(".draw-hand")
    assert hands.count() == 3
    assert hands.nth(0).locator(".waits .mj-tile").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shots(page, "hand 2 a shown draw")


def test_a_hand_on_a_desktop(browser, live_server, shots, table):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.base_url = live_server.url
    try:
        page.goto(hand_url(page, table, 3))
        li = page.locator(".win-card").first
        tiles = boxes(li.locator(".mj-tile"))
        assert len(tiles) == 4 + 1 + 3 + 4 + 3
        # on a wide screen the hand, the winning tile and the melds make one line of tiles
        assert len({round(b["y"]) for b in tiles}) == 1
        assert all(b["width"] >= 40 for b in tiles)
        assert li.locator("svg[aria-label='5 Characters']").count() == 2  # in hand, and won on
        shots(page, "desktop hand 3 melds")
        page.goto(hand_url(page, table, 1))
        assert "Declared: 清一色 (Pure one suit), 1 root" in page.locator("main").inner_text()
        shots(page, "desktop hand 1")
    finally:
        context.close()
