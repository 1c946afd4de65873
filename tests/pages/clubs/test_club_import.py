"""The organisers' import page (``/clubs/<slug>/import/``): a spreadsheet's players or results
checked first (every bad row in words, nothing stored), then imported from the same text."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import Role
from tests.clubs.factories import ClubFactory
from tests.exchange.test_csv_import import PLAYERS, RESULTS
from tests.helpers import ascii_colons, db_state, member_login

pytestmark = pytest.mark.django_db

URL = "/clubs/teahouse/import/"


@pytest.fixture
def club():
    return ClubFactory(slug="teahouse", name="Teahouse")


def client_for(user, lang: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


def upload(client: Client, text: str, name: str = "players.csv"):
    return client.post(URL, {"file": SimpleUploadedFile(name, text.encode())})


def test_check_then_import_players(club):
    organiser = member_login(club, Role.ORGANISER, "organiser")
    client = client_for(organiser)
    assert "Import from a spreadsheet" in client.get("/clubs/teahouse/").content.decode()
    before = db_state()
    page = upload(client, PLAYERS)
    body = page.content.decode()
    assert page.status_code == 200 and db_state() == before
    assert "5 rows, all good." in body and "5 new players" in body and "曾七" in body
    content = page.context["confirm"]["content"].value()
    answer = client.post(URL, {"content": content})
    assert answer.status_code == 302 and answer["Location"] == "/clubs/teahouse/players/"
    assert club.memberships.count() == 6
    assert "5 players joined the club." in client.get(answer["Location"]).content.decode()


def test_bad_rows_in_words_in_chinese_and_nothing_stored(club):
    organiser = member_login(club, Role.ORGANISER, "organiser")
    client = client_for(organiser, "zh-hans")
    upload(client, PLAYERS)
    client.post(URL, {"content": PLAYERS})
    bad = RESULTS.replace("2025-03-01,2,曾七,5", "2025-03-01,2,曾七,6").replace("王五,0", "无名,0")
    before = db_state()
    page = upload(client, bad, "results.csv")
    body = page.content.decode()
    assert db_state() == before and page.context["confirm"] is None
    assert "2行有误，什么都没有存。" in body
    assert "第3行：得分相加是1，不是0。" in body
    assert "第4行，player3列：无名不是本俱乐部的牌友：请先导入牌友。" in body
    assert ascii_colons(body) == []


def test_results_are_previewed_then_imported(club):
    organiser = member_login(club, Role.ORGANISER, "organiser")
    client = client_for(organiser)
    client.post(URL, {"content": PLAYERS})
    page = upload(client, RESULTS, "results.csv")
    body = page.content.decode()
    assert "3 rows, all good." in body and '老王 <span class="neg">−2</span>' in body
    answer = client.post(URL, {"content": page.context["confirm"]["content"].value()})
    assert answer["Location"] == "/clubs/teahouse/"
    assert club.sessions.count() == 3
    # sent again, the same tables are refused: nothing is stored twice
    again = client.post(URL, {"content": RESULTS})
    assert again.status_code == 200 and club.sessions.count() == 3
    assert "This table of this date is already in the club." in again.content.decode()


def test_a_scorer_may_not_import(club):
    scorer = member_login(club, Role.SCORER, "scorer")
    before = db_state()
    assert client_for(scorer).post(URL, {"content": PLAYERS}).status_code == 403
    assert upload(client_for(scorer), PLAYERS).status_code == 403
    assert db_state() == before
