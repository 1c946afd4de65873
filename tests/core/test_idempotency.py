"""``Idempotency-Key`` on POST: a retry gets the first answer and stores nothing twice; the same
key with another body is a 409; keys belong to their user; without a key nothing changes."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import (
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Role,
    SessionResult,
    TableSession,
)
from core.models import IdempotentRequest
from core.tasks import purge_idempotency_keys
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.clubs.records import PINGHU, SELFDRAW
from tests.helpers import client_for, db_state, member_login

pytestmark = pytest.mark.django_db

KEY = "5b0e2f4c-retry-me"


@pytest.fixture
def session():
    return TableSessionFactory()


@pytest.fixture
def scorer(session):
    return client_for(member_login(session.club, Role.SCORER))


@pytest.fixture
def organiser(session):
    return client_for(member_login(session.club, Role.ORGANISER))


def post_twice(client, url, body, key=KEY):
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    second = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    return first, second


def assert_replayed(first, second, status):
    assert first.status_code == status, first.json()
    assert "Idempotent-Replayed" not in first
    assert second.status_code == status
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()


def test_a_retried_hand_is_stored_once(session, scorer):
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first, second = post_twice(scorer, url, PINGHU)
    assert_replayed(first, second, 201)
    assert first.json()["number"] == 1
    assert Hand.objects.count() == 1
    assert Payment.objects.count() == 1
    assert HandRevision.objects.count() == 1
    assert IdempotentRequest.objects.count() == 1
    # a third retry, after other hands were recorded, still answers hand 1
    scorer.post(url, SELFDRAW, format="json")
    third = scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert third.json() == first.json() and third["Idempotent-Replayed"] == "true"
    assert Hand.objects.count() == 2


def test_the_stored_answer_is_the_live_answer(session, scorer):
    """The hand's statement stores the answer it gives (worked out before the write): the
    same JSON, replayed as it was."""
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first, second = post_twice(scorer, url, PINGHU)
    assert_replayed(first, second, 201)
    stored = IdempotentRequest.objects.get()
    assert (stored.key, stored.path, stored.status) == (KEY, url, 201)
    assert stored.user.username == Hand.objects.get().entered_by.username
    assert stored.response == first.json()
    assert len(stored.body_hash) == 64


def test_a_hand_refused_as_taken_stores_no_key(session, scorer, json_errors):
    """A hand refused in its write (its number taken: the statement fails) stores no answer;
    the same key with the number fixed records it."""
    url = f"/api/v1/sessions/{session.pk}/hands/"
    assert scorer.post(url, PINGHU, format="json").status_code == 201  # hand 1, no key
    taken = scorer.post(url, {**PINGHU, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert taken.status_code == 409
    assert [e["code"] for e in json_errors(taken)] == ["hand_exists"]
    assert IdempotentRequest.objects.count() == 0
    fixed = scorer.post(url, {**PINGHU, "number": 2}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed
    assert fixed.json()["number"] == 2
    assert IdempotentRequest.objects.get().response == fixed.json()
    assert Hand.objects.count() == 2


def test_a_retried_hand_is_stored_once_when_tasks_are_sent_directly(session, scorer, settings):
    """Without the outbox (``JOBS_DELIVERY = "direct"``) a hand is stored a statement at a
    time, and its answer with the ORM, in the same transaction."""
    settings.JOBS_DELIVERY = "direct"
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first, second = post_twice(scorer, url, PINGHU)
    assert_replayed(first, second, 201)
    assert Hand.objects.count() == 1
    assert IdempotentRequest.objects.get().response == first.json()


def test_a_retry_logged_in_by_session_is_answered_too(session, scorer_login):
    """Logged in by the session (a browser), the key is looked up on its own: same answers."""
    client = APIClient()
    client.force_login(scorer_login)
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first, second = post_twice(client, url, PINGHU)
    assert_replayed(first, second, 201)
    assert Hand.objects.count() == 1 and IdempotentRequest.objects.count() == 1


def test_a_retried_session_is_opened_once(session, organiser):
    players = [s.player_id for s in session.seats.all()]
    body = {"players": players, "bettors": [{"guest_name": "老王"}], "notes": "retry"}
    first, second = post_twice(organiser, f"/api/v1/clubs/{session.club.slug}/sessions/", body)
    assert_replayed(first, second, 201)
    assert TableSession.objects.filter(notes="retry").count() == 1


def test_a_retried_club_is_created_once():
    client = client_for(member_login(ClubFactory()))
    body = {"name": "雀友会", "slug": "queyou"}
    first, second = post_twice(client, "/api/v1/clubs/", body)
    assert_replayed(first, second, 201)  # not a 409 slug_taken: the retry is the same request
    assert Club.objects.filter(slug="queyou").count() == 1
    assert Membership.objects.filter(club__slug="queyou").count() == 1


def test_retried_results_are_entered_once(session, scorer):
    seats = session.seats.all()
    body = {
        "totals": [
            {"player": s.player_id, "total": t} for s, t in zip(seats, [6, -2, -2, -2], strict=True)
        ]
    }
    first, second = post_twice(scorer, f"/api/v1/sessions/{session.pk}/result/", body)
    assert_replayed(first, second, 200)
    assert SessionResult.objects.filter(session=session).count() == 4


def test_a_retried_close_is_answered_from_the_first_time(session, scorer, organiser):
    url = f"/api/v1/sessions/{session.pk}/close/"
    first = scorer.post(url, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    organiser.post(f"/api/v1/sessions/{session.pk}/reopen/")
    second = scorer.post(url, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert_replayed(first, second, 200)
    assert TableSession.objects.get(pk=session.pk).is_open  # the retry closed nothing again


def test_the_same_key_with_another_body_is_a_409(session, scorer, json_errors):
    url = f"/api/v1/sessions/{session.pk}/hands/"
    scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    before = db_state()
    response = scorer.post(url, SELFDRAW, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert response.status_code == 409
    assert [e["code"] for e in json_errors(response)] == ["idempotency_key_reused"]
    assert db_state() == before


def test_the_same_key_on_another_path_is_a_409(session, scorer, json_errors):
    other = TableSessionFactory(club=session.club, seated=[s.player for s in session.seats.all()])
    scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json",
                HTTP_IDEMPOTENCY_KEY=KEY)  # fmt: skip
    before = db_state()
    response = scorer.post(f"/api/v1/sessions/{other.pk}/hands/", PINGHU, format="json",
                           HTTP_IDEMPOTENCY_KEY=KEY)  # fmt: skip
    assert response.status_code == 409
    assert json_errors(response)[0]["code"] == "idempotency_key_reused"
    assert db_state() == before


def test_different_users_may_use_the_same_key(session, scorer):
    other = client_for(member_login(session.club, Role.SCORER))
    url = f"/api/v1/sessions/{session.pk}/hands/"
    mine = scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    theirs = other.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert (mine.status_code, theirs.status_code) == (201, 201)
    assert "Idempotent-Replayed" not in theirs
    assert [mine.json()["number"], theirs.json()["number"]] == [1, 2]
    assert Hand.objects.count() == 2 and IdempotentRequest.objects.count() == 2


def test_without_a_key_every_post_counts(session, scorer, json_errors):
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first = scorer.post(url, PINGHU, format="json")
    second = scorer.post(url, PINGHU, format="json")
    assert [first.json()["number"], second.json()["number"]] == [1, 2]
    assert "Idempotent-Replayed" not in second
    assert Hand.objects.count() == 2 and IdempotentRequest.objects.count() == 0
    client = client_for(member_login(session.club))
    assert (
        client.post("/api/v1/clubs/", {"name": "A", "slug": "a"}, format="json").status_code == 201
    )
    again = client.post("/api/v1/clubs/", {"name": "A", "slug": "a"}, format="json")
    assert again.status_code == 409
    assert json_errors(again)[0]["code"] == "slug_taken"


def test_a_refused_request_is_not_remembered(session, scorer, json_errors):
    """Only a successful answer is kept: a request refused before anything was stored may be
    sent again, corrected, with the same key."""
    url = f"/api/v1/sessions/{session.pk}/hands/"
    bad = {**PINGHU, "events": [{**PINGHU["events"][0], "from": 1}]}
    refused = scorer.post(url, bad, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert refused.status_code == 400
    json_errors(refused)
    assert IdempotentRequest.objects.count() == 0 and Hand.objects.count() == 0
    fixed = scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed
    assert Hand.objects.count() == 1


def test_a_key_does_not_let_anyone_past_the_permissions(session, scorer, json_errors):
    url = f"/api/v1/sessions/{session.pk}/hands/"
    scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    anonymous = client_for(None).post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert anonymous.status_code == 401
    member = client_for(member_login(session.club)).post(
        url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY
    )
    assert member.status_code == 403
    json_errors(member)
    assert Hand.objects.count() == 1


# --- a replay is answered only if the same request would be allowed now ---------------------


@pytest.fixture
def scorer_login(session):
    return member_login(session.club, Role.SCORER)


def test_a_replay_checks_the_role_again(session, scorer_login, json_errors):
    """A scorer demoted to member replays her key: the refusal she would get without it."""
    client = client_for(scorer_login)
    url = f"/api/v1/sessions/{session.pk}/hands/"
    assert client.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY).status_code == 201
    Membership.objects.filter(player__user=scorer_login).update(role=Role.MEMBER)
    replay = client.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert replay.status_code == 403
    assert "Idempotent-Replayed" not in replay
    assert [e["code"] for e in json_errors(replay)] == ["permission_denied"]
    assert Hand.objects.count() == 1


def test_a_replay_after_leaving_a_members_only_club_finds_nothing(session, scorer_login,
                                                                  json_errors):  # fmt: skip
    Club.objects.filter(pk=session.club_id).update(visibility=Club.Visibility.MEMBERS)
    client = client_for(scorer_login)
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first = client.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 201
    Membership.objects.filter(player__user=scorer_login).delete()
    replay = client.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert replay.status_code == 404
    assert json_errors(replay)[0]["code"] == "not_found"


def test_the_answer_keeps_the_checks_it_passed(session, scorer):
    scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json",
                HTTP_IDEMPOTENCY_KEY=KEY)  # fmt: skip
    assert IdempotentRequest.objects.get().checks == [
        ["clubs.authorize", [session.club_id, Role.SCORER]]
    ]


def test_a_check_this_code_no_longer_knows_is_a_refusal(session, scorer, json_errors):
    url = f"/api/v1/sessions/{session.pk}/hands/"
    scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    IdempotentRequest.objects.update(checks=[["retired.check", [1]]])
    replay = scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert replay.status_code == 403
    json_errors(replay)


# --- keys expire after IDEMPOTENCY_KEY_HOURS and are purged -------------------------------------


def age(hours: float) -> None:
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=hours))


def test_an_expired_key_is_a_new_request(session, scorer, settings):
    assert settings.IDEMPOTENCY_KEY_HOURS == 24
    url = f"/api/v1/sessions/{session.pk}/hands/"
    scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    age(23.9)
    assert scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)[
        "Idempotent-Replayed"
    ] == "true"  # fmt: skip
    age(24.1)
    again = scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert again.json()["number"] == 2
    assert IdempotentRequest.objects.count() == 1  # the expired answer made way for the new one


@pytest.mark.parametrize("purge", ["command", "task"])
def test_expired_keys_are_purged(session, scorer, purge):
    url = f"/api/v1/sessions/{session.pk}/hands/"
    scorer.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY="old")
    age(25)
    scorer.post(url, SELFDRAW, format="json", HTTP_IDEMPOTENCY_KEY="new")
    if purge == "command":
        out = io.StringIO()
        call_command("purge_idempotency_keys", stdout=out)
        assert "Deleted 1 expired" in out.getvalue()
    else:
        assert purge_idempotency_keys.apply().get() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]
    assert Hand.objects.count() == 2  # only the answers go


def test_the_purge_runs_hourly_where_beat_runs(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge-idempotency-keys"]
    assert entry == {"task": "core.purge_idempotency_keys", "schedule": 3600.0}
