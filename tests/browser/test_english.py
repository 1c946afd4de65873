"""The club's pages in English (a phone set to en-US): home → club → players → open a table →
the table → a hand → the evening's 结算. Headings are English, and no Chinese is left where English
is expected: the only Chinese is the domain words shown beside their English (清一色 (Pure one
suit)), glosses in brackets (Dealer (庄)), the tiles' faces, the brand 血战 and the language
switcher's 简体中文."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, Role
from clubs.selectors import club_today
from clubs.services.clubs import club_create, player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_create
from tests.browser.steps import open_phone

pytestmark = pytest.mark.django_db(transaction=True)

CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
#: 清一色 (Pure one suit): a domain name with its English beside it
NAMED = re.compile(rf"[{CJK}]+(?:\s*[{CJK}]+)*\s+\([A-Za-z][^()]*\)")
#: Dealer (庄), 叫马 bettors: a Chinese gloss in brackets, or a club word the English uses
GLOSS = re.compile(rf"\((?:[^()]*[{CJK}][^()]*)\)|（[^（）]*）")
#: Chinese kept on purpose: the brand and the language switcher's own name
KEPT = ("血战", "简体中文")


def leftover_chinese(text: str) -> list[str]:
    """The Chinese of ``text`` that is none of the kinds above: each line that still has some."""
    rest = GLOSS.sub("", NAMED.sub("", text))
    for word in KEPT:
        rest = rest.replace(word, "")
    return [line.strip() for line in rest.splitlines() if re.search(f"[{CJK}]", line)]


def fits(page, selector: str) -> bool:
    """Whether a sideways-scrolling table fits the phone's width (nothing to scroll)."""
    return page.locator(selector).evaluate("el => el.scrollWidth <= el.clientWidth")


def _setup():
    user = get_user_model().objects.create_user("owner", password="mahjong-2026-chengdu")
    club = club_create(name="Teahouse", slug="teahouse", user=user, unit_label="points",
                       visibility=Club.Visibility.MEMBERS)  # fmt: skip
    players = [player_create(club=club, name=n).player for n in ("Zhang", "Li", "Wang", "Zhao")]
    session = session_create(club=club, players=players, user=user, mode="xuezhan",
                             bettors=[{"guest_name": "Old Wang"}])  # fmt: skip
    # a declared hand: Zhao's concealed kong, Li 清一色 and Wang 对对胡 on Zhang's discard, then
    # a draw where Zhao is ready and Zhang is not; Old Wang drew 2s and follows Li
    hand_record(
        session=session,
        user=user,
        data={
            "dealer": 0,
            "events": [
                {"type": "kong", "seat": 3, "kind": "concealed", "tile": "5m"},
                {
                    "type": "win",
                    "from": 0,
                    "tile": "9p",
                    "winners": [
                        {"seat": 1, "declared": {"pattern": "qingyise", "roots": 0}},
                        {"seat": 2, "declared": {"pattern": "duiduihu", "roots": 0}},
                    ],
                },
            ],
            "draw": {
                "hands": {
                    "0": {"declared": "not_ready"},
                    "3": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 1}},
                }
            },
            "bettors": [{"name": "Old Wang", "tile": "2s"}],
        },
    )
    return user, club, session


def test_the_club_pages_in_english(browser, live_server, shots):
    user, club, session = _setup()
    assert user.player.memberships.get(club=club).role == Role.OWNER
    context, page = open_phone(browser, live_server.url, locale="en-US")
    found: dict[str, list[str]] = {}

    def check(step: str, heading: str) -> None:
        assert page.locator("h1").first.inner_text().startswith(heading)
        shots(page, step)
        # every folded part too: the rules in words, the other winners, the draw …
        page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
        # a tile's face is printed in Chinese (一萬, 5筒): a picture, not words (the tiles and
        # the page's sprite of their faces)
        page.evaluate(
            "document.querySelectorAll('.tp-tile, .tile-sprite')"
            ".forEach(t => t.style.display='none')"
        )
        text = page.locator("body").inner_text()
        if left := leftover_chinese(text):
            found[step] = left

    try:
        page.goto(live_server.url + "/login/")
        page.get_by_label("Username").fill("owner")
        page.get_by_label("Password").fill("mahjong-2026-chengdu")
        page.get_by_role("button", name="Sign in").click()
        check("home", "Sichuan mahjong clubs")
        page.get_by_role("link", name="Create a club").click()
        check("create a club", "Create a club")
        assert page.get_by_label("Unit").input_value() == "points"
        page.go_back()
        page.get_by_role("link", name="Teahouse").click()
        check("club", "Teahouse")
        page.get_by_role("link", name="Players").click()
        check("players", "Players")
        page.get_by_role("link", name="← Teahouse").click()
        page.get_by_role("link", name="Members and roles").click()
        check("members", "Members")
        page.goto(f"{live_server.url}/clubs/teahouse/tables/new/")
        check("open a table", "Open a table")
        page.goto(f"{live_server.url}/clubs/teahouse/")
        page.get_by_role("link", name=f"Table {session.pk}").first.click()
        check("table", "Table · Teahouse")
        assert fits(page, ".sheet .scroll")  # four seats and a bettor, in English too
        page.locator("table.liushui tbody").get_by_role("link", name="1", exact=True).click()
        check("hand", "Hand 1")
        assert fits(page, ".hand-payments .scroll")
        page.get_by_role("link", name="Correct this hand").click()
        check("correcting", "Correct hand 1")
        page.goto(f"{live_server.url}/clubs/teahouse/")
        page.get_by_role("link", name="Settle up today (结算)").click()
        check("evening", f"Settling up (结算), {club_today(club):%Y-%m-%d}")
        transfers = page.locator(".transfers li").all_inner_texts()
        assert transfers and all(" pays " in t for t in transfers)
    finally:
        context.close()
    assert found == {}, found
