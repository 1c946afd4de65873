"""The round clock: stored times, never a process. The clock stands still in these tests
(time-machine), so what is left is worked out by hand.

The round starts at 19:00:00 (Chengdu) with 90 minutes: it ends at 20:30. At 19:30 an hour is
left (3600 s). Five minutes are added for every table: 20:35. Table 2 is given ten minutes of
its own (a dispute stopped it): 20:45 there. At 20:40 the round is over (0 s left, "time is
up") except at table 2, which has five minutes (300 s).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client

from clubs.models import Role
from tests.helpers import client_for, member_login
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

CHENGDU = ZoneInfo("Asia/Shanghai")


def at(hour: int, minute: int) -> datetime:
    return datetime(2026, 11, 3, hour, minute, tzinfo=CHENGDU)


@pytest.fixture
def round_(make_tournament, seat):
    t = make_tournament(players=8, rounds=2, round_minutes=90)
    return seat(t)


def test_the_clock_is_worked_out_from_its_stored_times(round_):
    with time_machine.travel(at(19, 0), tick=False):
        services.round_clock_start(round_=round_)
    clock = selectors.round_clock(round_.__class__.objects.get(pk=round_.pk))
    assert clock.ends_at() == at(20, 30)
    assert clock.seconds_left(at(19, 30)) == 3600

    services.round_clock_extend(round_=round_, minutes=5)
    services.round_clock_extend(round_=round_, minutes=10, table_number=2)
    clock = selectors.round_clock(round_.__class__.objects.get(pk=round_.pk))
    assert (clock.ends_at(), clock.ends_at(1), clock.ends_at(2)) == (at(20, 35), at(20, 35),
                                                                     at(20, 45))  # fmt: skip
    assert clock.seconds_left(at(20, 40)) == 0
    assert clock.seconds_left(at(20, 40), 2) == 300


def test_the_clock_over_the_api(round_, director):
    api = client_for(director)
    url = "/api/v1/tournaments/open/rounds/1/clock/"
    assert api.get(url).status_code == 404  # not started
    with time_machine.travel(at(19, 0), tick=False):
        started = api.post(url, {"minutes": 60}, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["ends_at"] == "2026-11-03T20:00:00+08:00"
    again = api.post(url, {}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "clock_running"
    nowhere = api.post(f"{url}extend/", {"minutes": 5, "table": 9}, format="json")
    assert nowhere.status_code == 400
    assert nowhere.json()["errors"][0]["code"] == "no_such_table"
    extended = api.post(f"{url}extend/", {"minutes": 5, "table": 1}, format="json")
    assert extended.json()["tables"] == {"1": "2026-11-03T20:05:00+08:00"}
    scorer = client_for(member_login(round_.tournament.club, Role.SCORER))
    assert scorer.post(f"{url}extend/", {"minutes": 5}, format="json").status_code == 403


def test_the_desk_starts_and_extends_the_clock_and_every_page_shows_it(round_, director):
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(director)
    desk = page.get("/tournaments/open/desk/").content.decode()
    assert "Start the clock" in desk and 'value="90"' in desk  # the tournament's round time
    with time_machine.travel(at(19, 0), tick=False):
        page.post("/tournaments/open/desk/clock/", {"action": "start", "minutes": "90"})
        page.post("/tournaments/open/desk/clock/", {"action": "extend", "minutes": "5",
                                                    "table": "2"})  # fmt: skip
    with time_machine.travel(at(19, 30), tick=False):
        desk = page.get("/tournaments/open/desk/").content.decode()
        assert "1:00:00" in desk and "ends 20:30" in desk and "this table ends 20:35" in desk
        live = page.get("/tournaments/open/live/").content.decode()
        assert "1:00:00" in live and "the hand in play is finished" in live
        projector = page.get("/tournaments/open/projector/").content.decode()
        assert "1:00:00" in projector
        table = round_.tables.get(number=2)
        own = page.get(f"/sessions/{table.session_id}/").content.decode()
        assert "1:05:00" in own  # table 2's own five minutes
    with time_machine.travel(at(20, 31), tick=False):
        assert "Time is up" in page.get("/tournaments/open/live/").content.decode()


def test_the_clock_speaks_chinese(round_, director):
    with time_machine.travel(at(19, 0), tick=False):
        services.round_clock_start(round_=round_)
    page = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    page.force_login(director)
    with time_machine.travel(at(19, 45), tick=False):
        live = page.get("/tournaments/open/live/").content.decode()
    assert "第 1 轮剩余时间" in live and "45:00" in live and "不再开新局" in live
