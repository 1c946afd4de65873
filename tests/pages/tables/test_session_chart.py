"""The table page's running totals: a line per seat, drawn on the server, for everyone who may
read the table; and the read-only page a visitor of a public club gets."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubs.models import Club, Role
from clubs.services.hands import hand_delete, hand_record
from clubs.services.sessions import session_result_enter
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import ascii_colons, login, member_login
from tests.pages.html_read import text_of
from tests.scoring.engine.records import PINGHU

pytestmark = pytest.mark.django_db

#: S2 pays S1 1 (平胡 on S2's discard, qq base 1)
S1_FROM_S2 = PINGHU


def page(session, *, lang: str = "en", user=None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    response = client.get(f"/sessions/{session.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def x_labels(svg: str) -> list[str]:
    """The x axis' labels: the texts under the plot (its bottom at 162, labels 15 below)."""
    return re.findall(r'<text x="[\d.]+" y="177" [^>]*>([^<]+)</text>', svg)


def chart(html: str) -> str:
    match = re.search(r'<svg [^>]*id="running-chart".*?</svg>', html, flags=re.S)
    assert match
    return match.group(0)


@pytest.fixture
def played():
    """A public club's table of three hands: S1 wins on S2's discard each time (+1 / −1)."""
    session = TableSessionFactory()
    scorer = member_login(session.club, Role.SCORER)
    for _ in range(3):
        hand_record(session=session, data=S1_FROM_S2, user=scorer)
    return session, scorer


def test_a_visitor_of_a_public_club_reads_the_sheet_and_the_chart_without_the_form(played):
    session, _ = played
    html = page(session)
    assert 'class="liushui"' in html and 'name="w1_seat"' not in html
    svg = chart(html)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    # four lines, from 0 before hand 1: S1 +1, +2, +3 and S2 −1, −2, −3; S0 and S3 stay 0
    assert svg.count("<polyline") == 4
    names = [s.player.name for s in session.seats.order_by("number")]
    legend = re.findall(r"<text x=\"[\d.]+\" y=\"[\d.]+\">([^<]+)</text>", svg)
    assert legend == [f"East {names[0]} 0", f"South {names[1]} +3", f"West {names[2]} −3",
                      f"North {names[3]} 0"]  # fmt: skip
    assert x_labels(svg) == ["0", "1", "2", "3"]  # the hands along the bottom
    assert ">Hand</text>" in svg and ">Total</text>" in svg
    assert "3 hands, lowest −3, highest +3" in svg


def test_the_lines_are_where_worked_out(played):
    # y −3 … 3: 6 / 4 = 1.5 → a step of 2, the scale −4 … 4 on the plot's 22 … 162: y(v) =
    # 162 − (v + 4) / 8 · 140, so 0 → 92, 1 → 74.5, 2 → 57, 3 → 39.5, −3 → 144.5.
    # x 0 … 3 on 44 … 326: 44, 138, 232, 326
    session, _ = played
    svg = chart(page(session))
    lines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert lines[1] == "44,92 138,74.5 232,57 326,39.5"
    assert lines[2] == "44,92 138,109.5 232,127 326,144.5"
    assert lines[0] == lines[3] == "44,92 138,92 232,92 326,92"
    assert '<line class="zero" x1="44" y1="92"' in svg


def test_a_deleted_hand_leaves_the_lines(played):
    session, scorer = played
    hand_delete(hand=session.hands.get(number=2), reason="wrong table", user=scorer)
    svg = chart(page(session))
    assert x_labels(svg) == ["0", "1", "3"]  # hands 1 and 3 remain
    assert "2 hands" in svg


def test_members_of_a_private_club_see_it_too(played):
    session, scorer = played
    Club.objects.filter(pk=session.club_id).update(visibility=Club.Visibility.MEMBERS)
    assert 'id="running-chart"' in page(session, user=member_login(session.club))
    assert 'id="running-chart"' in page(session, user=scorer)
    client = Client()
    client.force_login(login())
    assert client.get(f"/sessions/{session.pk}/").status_code == 404


def test_no_chart_without_hands():
    session = TableSessionFactory(club=ClubFactory())
    assert 'id="running-chart"' not in page(session)
    players = [s.player_id for s in session.seats.order_by("number")]
    session_result_enter(
        session=session, user=None,
        totals=[{"player": p, "total": t} for p, t in zip(players, (3, -1, -1, -1), strict=True)],
    )  # fmt: skip
    assert 'id="running-chart"' not in page(session)


def test_the_chart_in_chinese(played):
    session, _ = played
    html = page(session, lang="zh-hans")
    svg = chart(html)
    assert "逐局累计" in text_of(html) and ">局</text>" in svg and "东 " in svg
    assert ascii_colons(html) == []
