"""The hand page /sessions/<id>/hands/<n>/: each winner's tiles drawn as tiles, melds apart,
the winning tile marked, declared hands as declared, the draw's hands, every explanation line,
the payments and who paid whom with its zero sum, the history."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Role
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_create
from tests.clubs.factories import ClubFactory
from tests.clubs.test_hand_tiles import RECORD
from tests.helpers import ascii_colons, member_login
from tests.scoring.engine.records import DRAWN, XUEZHAN

pytestmark = pytest.mark.django_db

NAMES = ["老张", "小李", "王姐", "阿明"]


@pytest.fixture
def table():
    """A 血战 table (qq, base 1) of four named players in a members-only club, and a member."""
    club = ClubFactory(visibility=Club.Visibility.MEMBERS)
    scorer = member_login(club, Role.SCORER)
    players = [player_create(club=club, name=n).player for n in NAMES]
    session = session_create(club=club, players=players, user=scorer, mode="xuezhan")
    return session, scorer


def page(session, user, number=1, lang="en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    response = client.get(reverse("page-hand", args=[session.pk, number]))
    assert response.status_code == 200
    return response.content.decode()


def labels(body: str) -> list[str]:
    """The tiles' labels, in the page's order."""
    return re.findall(r'<svg class="tile-face[^"]*"[^>]*aria-label="([^"]+)"', body)


def winner_section(body: str, name: str) -> str:
    """The win card of one winner."""
    for section in re.findall(r'<section class="card win-card.*?</section>', body, re.S):
        if re.search(rf"<h2[^>]*>{name} ", section):
            return section
    raise AssertionError(f"no win card for {name}")


def test_a_shown_winner_is_drawn_tile_by_tile_with_his_kong_and_winning_tile(table):
    session, scorer = table
    hand_record(session=session, data=RECORD, user=scorer)
    body = page(session, scorer, lang="zh-hans")
    li = winner_section(body, "小李")
    # 10 in hand, the winning tile, the 暗杠: two faces between two backs
    back = "一张扣着的牌"
    assert labels(li) == ["一条", "一条", "二条", "三条", "四条", "五条", "五条", "六条",
                          "七条", "八条", "五条", back, "九条", "九条", back]  # fmt: skip
    assert li.count('class="mj-tile winning"') == 1
    kong = 'class="tile-group meld kong concealed" role="group" aria-label="暗杠 九条"'
    assert kong in li
    assert '<span class="tile-text" aria-hidden="true">5条</span>' in li  # the text fallback
    assert 'aria-label="小李的牌"' in li
    assert "点炮" in li and "王姐" in li  # on 王姐's discard
    # every explanation line, then the whole count: 清一色 3番 + 1根 = 4番 → 8
    assert re.findall(r'<ol class="win-lines".*?</ol>', li, re.S)[0].count("<li>") == 2
    assert "<li>清一色 3番</li>" in li and "<li>根 1番</li>" in li
    assert "清一色 3番 + 1根 = 4番 → 8" in li
    assert not ascii_colons(body)


def test_a_declared_winner_is_shown_as_declared_without_tiles(table):
    session, scorer = table
    hand_record(session=session, data=RECORD, user=scorer)
    body = page(session, scorer)
    zhang = winner_section(body, "老张")
    assert labels(zhang) == []  # no tile drawn: nothing was shown
    assert "Declared: 清一色 (Pure one suit), 1 root" in zhang
    assert "not checked by tiles" in zhang and "Self-drawn" in zhang
    assert "清一色 (Pure one suit) 3 fan + 1 root = 4 fan → 8" in zhang


def test_the_draw_shows_each_hand_still_in(table):
    session, scorer = table
    hand_record(session=session, data=RECORD, user=scorer)
    body = page(session, scorer)
    draw = re.findall(r'<section class="card draw-card".*?</section>', body, re.S)[0]
    assert "Declared a flower pig (花猪): three suits in the hand" in draw
    assert "Declared ready, waiting on 对对胡 (All pungs)" in draw
    assert "Check of the ready hands (查叫): worth 2" in draw
    assert labels(draw) == []
    assert draw.count("not checked by tiles") == 2


def test_a_shown_draw_has_tiles_and_waits(table):
    """DRAWN: 老张 shows 13 tiles, ready on 2筒 and 5筒 (every 5筒 in sight: dead); 王姐 shows
    10 with her added kong 5筒; 阿明 is not ready."""
    session, scorer = table
    hand_record(session=session, data=DRAWN, user=scorer)
    body = page(session, scorer, lang="zh-hans")
    draw = re.findall(r'<section class="card draw-card".*?</section>', body, re.S)[0]
    hands = re.findall(r'<div class="draw-hand.*?</p>\s*(?:<p class="muted">[^<]*</p>\s*)?</div>',
                       draw, re.S)  # fmt: skip
    assert len(hands) == 3
    assert len(labels(hands[0])) == 13 + 2  # the hand, then the waits
    assert labels(hands[0])[-2:] == ["二筒", "五筒"] and 'class="mj-tile dead"' in hands[0]
    assert "查叫：1" in hands[0]
    assert labels(hands[1])[-3:] == ["五条", "六条", "九条"]  # ready on 5s, 6s, 9s
    assert len(labels(hands[1])) == 10 + 4 + 3 and 'aria-label="明杠 五筒"' in hands[1]
    assert "没下叫" in hands[2]


def test_payments_in_words_and_who_paid_whom_with_its_zero_sum(table):
    session, scorer = table
    hand_record(session=session, data=RECORD, user=scorer)
    body = page(session, scorer)
    assert body.count('data-reason="kong_concealed"') == 3
    assert "S2 王姐 pays S1 小李 8: 清一色 (Pure one suit) 3 fan + 1 root = 4 fan → 8" in body
    tfoot = re.findall(r"<tfoot>.*?</tfoot>", body, re.S)[0]
    assert "Sum (zero-sum)" in tfoot and re.search(r'<td class="num">0</td>', tfoot)
    # the nets: 老张 +14, 小李 +14, 王姐 −34, 阿明 +6
    nets = re.findall(r'<td class="num (?:pos|neg|zero)?">([^<]+)</td></tr>', body)
    assert nets[:4] == ["+14", "+14", "−34", "+6"]


def _xuezhan_hands(session, user, n):
    for _ in range(n):
        hand_record(session=session, data=XUEZHAN, user=user)


@pytest.mark.parametrize("record", ["one winner", "three winners"])
def test_the_page_reads_in_the_same_queries_for_1_or_3_winners(
    table, record, django_assert_num_queries
):
    session, scorer = table
    data = RECORD if record == "one winner" else XUEZHAN
    if record == "one winner":  # one win event of one winner: 小李 平胡 on 王姐's discard
        data = {"dealer": 0, "events": [XUEZHAN["events"][2]],
                "draw": {"hands": {"0": {"declared": "not_ready"},
                                   "1": {"declared": "not_ready"},
                                   "3": {"declared": "not_ready"}}}}  # fmt: skip
    hand_record(session=session, data=data, user=scorer)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(scorer)
    url = reverse("page-hand", args=[session.pk, 1])
    client.get(url)  # the login's session and the language settle once
    with django_assert_num_queries(QUERIES):
        body = client.get(url).content.decode()
    assert body.count('<section class="card win-card') == (1 if record == "one winner" else 3)


#: the hand page's queries, however many winners: the session with its club and ruleset, its
#: seats and bettors (3), the login (1: its browser session is read from the cache), the
#: visitor's role, the hand and its payments (2), the sheet's hands, results and totals (4), the
#: history, the words said about it (its confirmations)
QUERIES = 13


def test_the_sheet_links_each_hand_to_its_page(table):
    session, scorer = table
    _xuezhan_hands(session, scorer, 2)
    client = Client()
    client.force_login(scorer)
    body = client.get(reverse("page-session", args=[session.pk])).content.decode()
    for n in (1, 2):
        assert f'href="{reverse("page-hand", args=[session.pk, n])}"' in body
