"""A registered player's private page (/me/<key>/): no login, the key is the capability. It shows
his table and seat wind this round with his table mates, the round clock, his results so far,
and lets him check in; a new link revokes the old one. The scorekeeper prints the slips.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client

from clubs.models import Role
from tests.helpers import member_login
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(make_tournament):
    t = make_tournament(players=0, rounds=2, check_in=True, is_public=False)
    for name in ("张三", "李四", "王五", "赵六"):
        services.registration_create(tournament=t, name=name)
    services.private_keys(tournament=t)
    return t


def page(key: str, **extra):
    return Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/me/{key}/", **extra)


def key_of(t, name: str) -> str:
    return t.registrations.get(player__name=name).private_key


def test_a_player_checks_in_and_sees_his_table_seat_and_clock(cup, seat):
    me = key_of(cup, "王五")
    text = page(me).content.decode()
    assert "王五" in text and "No round is seated yet" in text
    # a private tournament: his link works without a login all the same
    assert Client().post(f"/me/{me}/").status_code == 302
    assert cup.registrations.get(player__name="王五").checked_in
    for name in ("张三", "李四", "赵六"):
        services.registration_update(registration=cup.registrations.get(player__name=name),
                                     checked_in=True)  # fmt: skip
    round_ = seat(cup)
    with time_machine.travel(datetime(2026, 11, 3, 19, 0, tzinfo=ZoneInfo("Asia/Shanghai")),
                             tick=False):  # fmt: skip
        services.round_clock_start(round_=round_, minutes=60)
        text = page(me).content.decode()
    wind = round_.tables.get().session.seats.get(player__name="王五").number
    assert "Table 1" in text and ["东", "南", "西", "北"][wind] in text
    assert all(n in text for n in ("张三", "李四", "赵六"))  # his table mates
    assert "1:00:00" in text


def test_a_wrong_or_revoked_key_is_a_404(cup, director):
    assert page("no-such-key").status_code == 404
    old = key_of(cup, "张三")
    organiser = Client(HTTP_ACCEPT_LANGUAGE="en")
    organiser.force_login(director)
    player = cup.registrations.get(player__name="张三").player_id
    organiser.post(f"/tournaments/open/entries/{player}/", {"action": "new_link"})
    assert page(old).status_code == 404
    assert page(key_of(cup, "张三")).status_code == 200


def test_the_slips_carry_every_link_for_the_organiser_only(cup, director, host):
    organiser = Client(HTTP_ACCEPT_LANGUAGE="en")
    organiser.force_login(director)
    text = organiser.get("/tournaments/open/slips/").content.decode()
    keys = Registration.objects.filter(tournament=cup).values_list("private_key", flat=True)
    assert all(f"/me/{k}/" in text for k in keys) and text.count("<svg") >= 4
    scorer = Client()
    scorer.force_login(member_login(host, Role.SCORER))
    assert scorer.get("/tournaments/open/slips/").status_code == 403
