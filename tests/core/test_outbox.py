"""The outbox (``core.outbox``): a write is answered its success whether the broker is up or
not; what it asked of the workers is stored with it and delivered by the sweep once the broker
answers."""

from __future__ import annotations

import time
from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from clubs.models import Hand, Role
from config.celery import app
from core import outbox
from core.models import OutboxMessage, TaskRecord
from tests.clubs.factories import TableSessionFactory
from tests.clubs.records import PINGHU
from tests.core.test_celery_worker import (  # noqa: F401 (fixtures)
    broker_url,
    non_eager_app,
    outbox_sweeper,
    worker,
)
from tests.helpers import client_for, member_login
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)

#: nothing listens on port 1: a broker that is down
DOWN = "redis://127.0.0.1:1/0"


@pytest.fixture
def broker_down(monkeypatch):
    """Tasks go to a broker (not eager), and the broker does not answer."""
    # Celery reads the broker from this variable before its configuration
    monkeypatch.setenv("CELERY_BROKER_URL", DOWN)
    keys = ("task_always_eager", "broker_url", "broker_transport_options", "task_publish_retry")
    saved = {k: getattr(app.conf, k) for k in keys}
    app.conf.task_always_eager = False
    app.conf.broker_url = DOWN
    app.conf.broker_transport_options = {"socket_connect_timeout": 0.5}
    app.conf.task_publish_retry = False
    fresh_connections()
    yield
    for key, value in saved.items():
        setattr(app.conf, key, value)
    fresh_connections()


def fresh_connections() -> None:
    """Forget Celery's pooled broker connections (as after a fork), so the next publish
    connects to the broker the configuration names now."""
    app._after_fork()


def test_writes_while_the_broker_is_down_get_their_success_answer(broker_down):
    """A hand (201), another table's final results (200) and a round to seat (202) while the
    broker is down: each answered its success (no 500, so no retry that stores a duplicate),
    and what each asked of the workers waits in the outbox."""
    session = TableSessionFactory()
    scorer = client_for(member_login(session.club, Role.SCORER))
    hand = scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
    assert hand.status_code == 201, hand.content
    other = TableSessionFactory(club=session.club)
    seated = list(other.seats.order_by("number").values_list("player_id", flat=True))
    totals = [{"player": p, "total": t} for p, t in zip(seated, (2, 0, 0, -2), strict=True)]
    result = scorer.post(f"/api/v1/sessions/{other.pk}/result/", {"totals": totals},
                         format="json")  # fmt: skip
    assert result.status_code == 200, result.content
    director = member_login(session.club, Role.ORGANISER)
    t = tournament_services.tournament_create(
        name="Down", slug="down", user=director, club=session.club, rounds=2
    )
    for i in range(4):
        tournament_services.registration_create(tournament=t, name=f"D{i}")
    seating = client_for(director).post(f"/api/v1/tournaments/{t.slug}/rounds/")
    assert seating.status_code == 202, seating.content
    assert Hand.objects.filter(session=session).count() == 1
    waiting = list(OutboxMessage.objects.values_list("task", flat=True))
    assert waiting == ["clubs.session_changed", "clubs.session_changed",
                       "tournaments.generate_seating"]  # fmt: skip
    # the sweep cannot send them either (once their coalescing wait is over): they stay,
    # with the reason
    OutboxMessage.objects.update(not_before=timezone.now())
    assert outbox.deliver() == 0
    first = OutboxMessage.objects.first()
    assert first.attempts == 1 and first.last_error
    assert OutboxMessage.objects.count() == 3


def test_once_the_broker_is_back_the_sweep_delivers_to_a_worker(worker):  # noqa: F811
    """A round asked for (its row in the outbox, as if the broker had been down), then the
    sweep delivers it to a real worker: the round is seated, its job reports success."""
    session = TableSessionFactory()
    director = member_login(session.club, Role.ORGANISER)
    t = tournament_services.tournament_create(
        name="Back", slug="back", user=director, club=session.club, rounds=2, hands_per_table=1
    )
    for i in range(4):
        tournament_services.registration_create(tournament=t, name=f"B{i}")
    round_ = tournament_services.round_start(tournament=t)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if TaskRecord.objects.get(pk=round_.task_id).state == "SUCCESS":
            break
        time.sleep(0.1)
    assert TaskRecord.objects.get(pk=round_.task_id).state == "SUCCESS"
    round_.refresh_from_db()
    assert round_.status == "seated" and round_.tables.count() == 1
    assert not OutboxMessage.objects.filter(task="tournaments.generate_seating").exists()


def test_beat_sweeps_the_outbox_every_second():
    entry = settings.CELERY_BEAT_SCHEDULE["deliver-the-outbox"]
    assert entry["task"] == "core.deliver_outbox" and entry["schedule"] == 1.0
    assert "core.deliver_outbox" in app.tasks


def test_the_outbox_command_shows_delivers_and_checks(broker_down):
    """``manage.py outbox``: a message due for a minute fails ``--check 30`` (beat's health
    check); ``--deliver`` sends it once a broker takes it (here: tasks run in-process)."""
    outbox.enqueue("xuezhan.ping")
    out = StringIO()
    call_command("outbox", "--check", "30", stdout=out)
    assert "1 message(s) waiting" in out.getvalue()
    OutboxMessage.objects.update(not_before=timezone.now() - timedelta(seconds=60))
    with pytest.raises(CommandError, match="not being delivered"):
        call_command("outbox", "--check", "30", stdout=StringIO())
    app.conf.task_always_eager = True  # a broker that takes it: in-process
    out = StringIO()
    call_command("outbox", "--deliver", "--check", "30", stdout=out)
    assert "sent 1 message(s)" in out.getvalue() and not OutboxMessage.objects.exists()


def test_a_tables_writes_close_together_share_one_follow_up(broker_down, settings):
    """A busy table asked for its totals (and then its ratings) once per hand: under load the
    worker fell minutes behind. Writes within FOLLOW_UP_COALESCE_SECONDS join the message
    still waiting; one already due (the sweep may be sending it) is never joined."""
    settings.FOLLOW_UP_COALESCE_SECONDS = 5
    session = TableSessionFactory()
    other = TableSessionFactory(club=session.club)
    scorer = client_for(member_login(session.club, Role.SCORER))
    for _ in range(3):
        hand = scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
        assert hand.status_code == 201, hand.content
    scorer.post(f"/api/v1/sessions/{other.pk}/hands/", PINGHU, format="json")
    waiting = list(OutboxMessage.objects.values_list("task", "args"))
    assert sorted(waiting) == [("clubs.session_changed", [session.pk]),
                               ("clubs.session_changed", [other.pk])]  # fmt: skip
    first = OutboxMessage.objects.get(args=[session.pk])
    assert first.not_before > timezone.now()  # waits its window
    OutboxMessage.objects.update(not_before=timezone.now() - timedelta(seconds=1))
    scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
    assert OutboxMessage.objects.filter(args=[session.pk]).count() == 2
