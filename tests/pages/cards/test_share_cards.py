"""Share cards (战绩图): an evening's 结算 and a player's season as SVG images.

The table (qq, 普通, base 1) of a members-only club, worked by hand (RULES §3.1, 2^(fan − 1)):

- hand 1, PINGHU: 小李 (S1) 平胡 on 王姐's (S2) discard: 王姐 pays 小李 1;
- hand 2: 小李 self-draws, declared 清一色 1根 (3 + 1 = 4 fan → 8): 8 from each of the others.

Nets: 老张 −8, 小李 +25, 王姐 −9, 阿明 −8 (sum 0). Each loser pays 小李 his loss: three
transfers settle the evening (8, 9, 8). 小李's season: 1 session, +25, 1st once, biggest
hand 清一色 + 1 root worth 8 (what each payer paid for the win).
"""

from __future__ import annotations

from datetime import date
from xml.etree import ElementTree

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, Role
from clubs.selectors import Evening, EveningLine, EveningTransfer, Person, session_day
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create
from pages.cards.layout import evening_card
from tests.clubs.factories import ClubFactory
from tests.helpers import login, member_login
from tests.scoring.engine.records import PINGHU

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["老张", "小李", "王姐", "阿明"]
QINGYISE = {
    "dealer": 1,
    "events": [{"type": "win", "from": None, "situation": [],
                "winners": [{"seat": 1, "declared": {"pattern": "qingyise", "roots": 1,
                                                     "extras": []}}]}],
}  # fmt: skip


@pytest.fixture
def evening(in_process_tasks, django_capture_on_commit_callbacks):
    """The evening above, its table closed and rated (the outbox ran its tasks)."""
    club = ClubFactory(visibility=Club.Visibility.MEMBERS, name="成都<周五>&麻将")
    member = member_login(club, Role.SCORER)
    with django_capture_on_commit_callbacks(execute=True):
        players = [player_create(club=club, name=n).player for n in NAMES]
        session = session_create(club=club, players=players, user=member, mode="single")
    for record in (PINGHU, QINGYISE):
        with django_capture_on_commit_callbacks(execute=True):
            hand_record(session=session, data=record, user=member)
    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=session)
    return club, session, member, players


def get(user, url: str, lang: str = "zh-hans"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    return client.get(url)


def texts(response) -> list[str]:
    """Every text of the SVG (it parses as XML, whatever the names hold)."""
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    root = ElementTree.fromstring(response.content)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 1080 1350"
    return ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]


def evening_url(club, session) -> str:
    return reverse("page-club-evening-card", args=[club.slug, session_day(session).isoformat()])


def test_the_evening_card_holds_the_names_and_the_nets(evening):
    club, session, member, _ = evening
    response = get(member, evening_url(club, session))
    assert response.status_code == 200
    assert "script" not in response["Content-Security-Policy"]
    lines = texts(response)
    assert "成都<周五>&麻将" in lines  # escaped in the XML, whole in the text
    day = session_day(session).isoformat()
    assert f"结算，{day}" in lines and "1 桌 · 4 人" in lines
    # largest first, each with its sign (never colour alone)
    names = ["1. 小李", "2. 老张", "3. 阿明", "4. 王姐"]
    assert [t for t in lines if t[:2] in ("1.", "2.", "3.", "4.")] == names
    i = lines.index("1. 小李")
    assert lines[i + 1 : i + 8 : 2] == ["+25", "−8", "−8", "−9"]
    assert "合计（零和）" in lines and lines[lines.index("合计（零和）") + 1] == "0"
    transfers = [(t, lines[j + 1]) for j, t in enumerate(lines) if "→" in t]
    assert sorted(transfers) == sorted(
        [("老张 → 小李", "8"), ("王姐 → 小李", "9"), ("阿明 → 小李", "8")]
    )
    assert lines[-1].endswith(reverse("page-club-evening", args=[club.slug, day]))


def test_the_player_card_holds_his_season(evening):
    club, session, member, players = evening
    li = players[1]
    year = session_day(session).year
    response = get(member, reverse("page-player-card", args=[li.pk]) + f"?year={year}", "en")
    assert response.status_code == 200
    lines = texts(response)
    assert "小李" in lines and f"Season {year}" in lines
    # each figure stands above its label
    assert lines[lines.index("Sessions") - 1] == "1" and lines[lines.index("Total") - 1] == "+25"
    assert any(t.startswith("Rating · provisional") for t in lines)
    places = lines[lines.index("Places") + 1 : lines.index("Places") + 9]
    assert places == ["1st", "1", "2nd", "0", "3rd", "0", "4th", "0"]
    best = lines.index("Biggest hand") + 1
    assert lines[best : best + 2] == ["清一色 (Pure one suit) + 1 root", "8"]
    assert lines[best + 2] == f"self-drawn · {session_day(session).isoformat()} · declared"
    # another season has nothing of his
    empty = texts(get(member, reverse("page-player-card", args=[li.pk]) + f"?year={year - 1}"))
    assert "还没有胡过牌。" in empty and "0" in empty


@pytest.mark.parametrize("year", ["9" * 5000, "²⁰²⁶", "٢٠٢٦", "1899", "99999"])
def test_a_year_that_is_no_season_is_404(evening, year):
    """Digits too many for ``int`` (4,300 and more), or that only ``str.isdigit`` calls digits,
    were a 500 (tests/pages/test_page_fuzz.py)."""
    _, _, member, players = evening
    url = reverse("page-player-card", args=[players[1].pk]) + f"?year={year}"
    assert get(member, url).status_code == 404


def test_an_outsider_gets_404_from_a_members_only_club(evening):
    club, session, _, players = evening
    for user in (None, login()):
        assert get(user, evening_url(club, session)).status_code == 404
        assert get(user, reverse("page-player-card", args=[players[1].pk])).status_code == 404
        url = reverse("page-player-card", args=[players[1].pk]) + f"?club={club.slug}"
        assert get(user, url).status_code == 404
    assert get(None, reverse("page-player-card", args=[999999])).status_code == 404


def test_the_evening_and_table_pages_link_the_card(evening):
    club, session, member, _ = evening
    day = session_day(session).isoformat()
    card = evening_url(club, session)
    page = get(member, reverse("page-club-evening", args=[club.slug, day])).content.decode()
    assert f'<img src="{card}"' in page and "战绩图（图片）" in page
    table = get(member, reverse("page-session", args=[session.pk])).content.decode()
    assert f'href="{card}"' in table


def person(name: str) -> Person:
    return Person(("guest", name), name, None)


def test_a_long_evening_is_cut_with_and_n_more():
    """14 people, 13 transfers: too many lines for 1350 px. The lists start at 430; the nets
    take a heading (66), a line each, "and N more" and the sum (50 each when tight), the
    transfers a gap (80), a heading (58), a line each and "and N more" (46 each). Transfers
    are cut to 3 first: 430 + 66 + 50 (s + 2) + 138 + 46 × 4 ≤ 1270 leaves s = 7 nets."""
    people = [person("欧阳" * 10)] + [person(f"P{i:02d}") for i in range(1, 14)]
    nets = [13] + [-1] * 13
    lines = [EveningLine(p, n, 1) for p, n in zip(people, nets, strict=True)]
    transfers = [EveningTransfer(p, people[0], 1) for p in people[1:]]
    club = ClubFactory.build(name="X", unit_label="分")
    with translation.override("en"):
        card = evening_card(club, Evening(date(2026, 5, 1), [], lines, transfers))
    shown = [item.text for item in card.items if item.kind == "line"]
    assert shown[0] == "1. 欧阳欧阳欧阳欧阳欧阳欧…"  # 12 characters: 11 and the ellipsis
    assert [t for t in shown if t[0].isdigit()][-1] == "7. P06"
    assert "and 7 more" in shown and "and 10 more" in shown
    assert len([t for t in shown if "→" in t]) == 3
    assert max(item.y for item in card.items) <= 1270  # above the footer
    # a short evening is shown whole, roomy: 430 + 66 + 64 × 7 + 138 + 56 × 5 = 1362 > 1270,
    # so lines of 50 and 46: 430 + 66 + 50 × 7 + 138 + 46 × 5 = 1214
    with translation.override("en"):
        card = evening_card(club, Evening(date(2026, 5, 1), [], lines[:6], transfers[:5]))
    shown = [item.text for item in card.items if item.kind == "line"]
    assert len([t for t in shown if "→" in t]) == 5 and not any("more" in t for t in shown)


def _another_table(club, member, players, capture) -> None:
    with capture(execute=True):
        session = session_create(club=club, players=players, user=member, mode="single")
    with capture(execute=True):
        hand_record(session=session, data=PINGHU, user=member)
    with capture(execute=True):
        session_close(session=session)


@pytest.mark.parametrize("tables", [1, 3])
def test_the_cards_read_in_the_same_queries_with_1_or_3_tables(
    evening, tables, django_assert_num_queries, django_capture_on_commit_callbacks
):
    club, session, member, players = evening
    for _ in range(tables - 1):
        _another_table(club, member, players, django_capture_on_commit_callbacks)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member)
    year = session_day(session).year
    urls = (evening_url(club, session),
            reverse("page-player-card", args=[players[1].pk]) + f"?year={year}")  # fmt: skip
    for url, queries in zip(urls, CARD_QUERIES, strict=True):
        client.get(url)  # the login's session settles once
        with django_assert_num_queries(queries):
            assert client.get(url).status_code == 200


#: the evening card: the login (1: its browser session is read from the cache), the club and
#: the visitor's role (2), the evening (5); the player card: the login (1), the player (1), his
#: statistics over what the visitor may read (9; 10 when he played a tournament table)
CARD_QUERIES = (8, 11)
