"""Share cards in a browser: the evening page shows its card, and the card image itself draws
its names and nets (Chromium renders the SVG; the screenshots are for looking at).

The evening is ``tests/pages/cards/test_share_cards.py``'s (小李 +25, 老张 −8, 王姐 −9, 阿明 −8),
in a public club, so no login is needed.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Club, Role
from clubs.selectors import session_day
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create
from tests.clubs.factories import ClubFactory
from tests.helpers import member_login
from tests.pages.cards.test_share_cards import QINGYISE
from tests.scoring.engine.records import PINGHU

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def evening(in_process_tasks):
    club = ClubFactory(visibility=Club.Visibility.PUBLIC, name="成都周五麻将")
    scorer = member_login(club, Role.SCORER)
    players = [player_create(club=club, name=n).player for n in ("老张", "小李", "王姐", "阿明")]
    session = session_create(club=club, players=players, user=scorer, mode="single")
    for record in (PINGHU, QINGYISE):
        hand_record(session=session, data=record, user=scorer)
    session_close(session=session)
    return club, session, players


def test_the_evening_card_on_a_phone_and_as_an_image(phone, browser, live_server, shots, evening):
    club, session, players = evening
    day = session_day(session).isoformat()
    page = phone
    page.goto(page.base_url + reverse("page-club-evening", args=[club.slug, day]))
    preview = page.locator(".share-card img")
    preview.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('.share-card img').naturalWidth > 0")
    assert page.evaluate("document.querySelector('.share-card img').naturalWidth") == 1080
    shots(page, "evening page with its card")
    page.goto(page.base_url + reverse("page-session", args=[session.pk]))
    link = page.locator(".share a.button")
    # the button opens the PNG, which chat apps take
    assert link.get_attribute("href") == reverse(
        "page-club-evening-card-png", args=[club.slug, day]
    )
    link.scroll_into_view_if_needed()
    shots(page, "the table links the evening card")

    context = browser.new_context(viewport={"width": 1080, "height": 1350}, locale="zh-CN")
    try:
        card = context.new_page()
        card.goto(live_server.url + reverse("page-club-evening-card", args=[club.slug, day]))
        body = card.content()
        assert "小李" in body and "+25" in body and "−9" in body
        # an SVG document has no page to scroll: the viewport is the card
        card.screenshot(path=str(shots.folder / "03-evening-card.png"))
        year = session_day(session).year
        card.goto(
            live_server.url + reverse("page-player-card", args=[players[1].pk]) + f"?year={year}"
        )
        assert "小李" in card.content() and "清一色" in card.content()
        card.screenshot(path=str(shots.folder / "04-player-card.png"))
        # the PNG the button opens, as a phone shows it: Chinese glyphs drawn by the server
        card.goto(live_server.url + reverse("page-club-evening-card-png", args=[club.slug, day]))
        card.screenshot(path=str(shots.folder / "05-evening-card-png.png"))
    finally:
        context.close()
