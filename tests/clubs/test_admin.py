"""The Django admin of clubs, scoring and the kernel: every page renders, search and filters
work, the settlement views are read-only and the actions go through the services."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone

from clubs.demo import SLUG, demo_club_create
from clubs.models import (
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    Invitation,
    Membership,
    Payment,
    Player,
    Role,
    Seat,
    SeatRepair,
    SessionResult,
    TableSession,
)
from clubs.services.invitations import invitation_create
from clubs.services.sessions import seats_repair, session_create, session_result_enter
from core.jobs import job_create
from core.models import IdempotentRequest, OutboxMessage, TaskRecord
from scoring.models import RulesetSnapshot

pytestmark = pytest.mark.django_db

APPS = ("core", "scoring", "clubs")
MODELS = [m for m in admin.site._registry if m._meta.app_label in APPS]
READ_ONLY = {RulesetSnapshot, Hand, HandRevision, HandConfirmation, Payment, SessionResult,
             IdempotentRequest, TaskRecord, OutboxMessage, Invitation, SeatRepair}  # fmt: skip


def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def demo(admin_user):
    """The demo club, plus a session entered as final results, a stored POST answer and a
    background job's record."""
    demo_club_create(username=admin_user.username)
    club = Club.objects.get(slug=SLUG)
    players = [m.player for m in club.memberships.order_by("player__name")[:4]]
    session = session_create(club=club, players=players, user=admin_user, notes="只记总分")
    totals = [{"player": p.pk, "total": t} for p, t in zip(players, (5, -3, 2, -4), strict=True)]
    session_result_enter(session=session, totals=totals, user=admin_user)
    seats_repair(session=session, order=[1, 0, 2, 3], reason="坐反了", user=admin_user)
    IdempotentRequest.objects.create(
        key="demo-key", user=admin_user, path="/api/v1/clubs/", body_hash="0" * 64,
        status=201, response={"slug": SLUG},
    )  # fmt: skip
    job_create("xuezhan.ping")
    invitation_create(club=club, by=admin_user, role=Role.SCORER)
    OutboxMessage.objects.create(task="xuezhan.ping", not_before=timezone.now())
    hand = Hand.objects.filter(session__club=club).first()
    HandConfirmation.objects.create(hand=hand, revision=hand.revision, seat=1, verdict="confirm")
    return club


def test_every_model_of_these_apps_is_registered():
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            assert admin.site.is_registered(model), model


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_and_change_page_render(admin_client, demo, model):
    assert model.objects.exists(), model
    response = admin_client.get(url(model, "changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == model.objects.count()
    for obj in model.objects.all()[:5]:
        assert admin_client.get(url(model, "change", obj.pk)).status_code == 200


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_add_page_only_where_adding_is_allowed(admin_client, model):
    expected = 403 if model in READ_ONLY else 200
    assert admin_client.get(url(model, "add")).status_code == expected


def result_names(response) -> set[str]:
    return {str(obj) for obj in response.context["cl"].result_list}


@pytest.mark.parametrize(
    ("model", "query", "expected"),
    [
        (Club, "茶馆", {"成都茶馆麻将社"}),
        (Club, "no-such-club", set()),
        (TableSession, "晚场", None),
        (TableSession, "老王", None),  # a guest bettor
    ],
)
def test_search(admin_client, demo, model, query, expected):
    response = admin_client.get(url(model, "changelist"), {"q": query})
    assert response.status_code == 200
    names = result_names(response)
    if expected is None:
        assert len(names) == 1
    else:
        assert names == expected


def test_search_players_memberships_hands_and_payments(admin_client, demo):
    r = admin_client.get(url(Player, "changelist"), {"q": "李娜"})
    assert result_names(r) == {"李娜"}
    r = admin_client.get(url(Membership, "changelist"), {"q": "李娜"})
    assert r.context["cl"].result_count == 1
    # 杨磊 sits only at the second table: its two hands
    r = admin_client.get(url(Hand, "changelist"), {"q": "杨磊"})
    assert r.context["cl"].result_count == 2
    r = admin_client.get(url(Payment, "changelist"), {"q": "老王"})
    assert r.context["cl"].result_count > 0
    assert all(
        "老王" in (str(p.payer_bettor) + str(p.payee_bettor)) for p in r.context["cl"].result_list
    )


def test_filters(admin_client, demo):
    r = admin_client.get(url(TableSession, "changelist"), {"status__exact": "closed"})
    assert r.context["cl"].result_count == 2
    r = admin_client.get(url(Payment, "changelist"), {"reason__exact": "huazhu"})
    assert r.context["cl"].result_count > 0
    r = admin_client.get(url(RulesetSnapshot, "changelist"), {"preset__exact": "chengdu"})
    assert r.context["cl"].result_count == 1
    # the link from a session's hand count
    session = TableSession.objects.filter(status="open", hands__isnull=False).distinct().get()
    r = admin_client.get(url(Hand, "changelist"), {"session__id__exact": session.pk})
    assert r.status_code == 200 and r.context["cl"].result_count == 2


def test_hand_page_shows_the_settlement_read_only(admin_client, demo):
    hand = Hand.objects.filter(record__draw__isnull=False).exclude(record__draw=None).first()
    page = admin_client.get(url(Hand, "change", hand.pk))
    html = page.content.decode()
    assert "<pre" in html and "&quot;events&quot;" in html and "&quot;chajiao&quot;" in html
    assert "流局" in html  # the wins summary
    assert 'name="record"' not in html and "_save" not in html
    assert "payments-0-amount" not in html  # payments inline is not a form
    before = (hand.record, hand.settlement, hand.payments.count())
    response = admin_client.post(url(Hand, "change", hand.pk), {"record": "{}"})
    assert response.status_code == 403
    hand.refresh_from_db()
    assert (hand.record, hand.settlement, hand.payments.count()) == before
    assert admin_client.post(url(Hand, "delete", hand.pk), {"post": "yes"}).status_code == 403


@pytest.mark.parametrize("model", [RulesetSnapshot, HandRevision, Payment])
def test_immutable_models_refuse_change_and_delete(admin_client, demo, model):
    obj = model.objects.first()
    assert admin_client.post(url(model, "change", obj.pk), {}).status_code == 403
    assert admin_client.post(url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_session_with_hands_keeps_its_seats_and_rules(admin_client, demo):
    session = TableSession.objects.filter(bettors__guest_name="老王").get()
    html = admin_client.get(url(TableSession, "change", session.pk)).content.decode()
    assert "老王" in html and 'name="bettors-0-guest_name"' not in html
    assert 'name="seats-0-player"' not in html
    assert 'name="base"' not in html and 'name="notes"' in html
    # a session without hands can still be fixed
    empty = TableSession.objects.filter(hands__isnull=True).first()
    html = admin_client.get(url(TableSession, "change", empty.pk)).content.decode()
    assert 'name="seats-0-player"' in html and 'name="base"' in html


def action(admin_client, model, name: str, objs, **extra):
    data = {"action": name, "_selected_action": [o.pk for o in objs], **extra}
    return admin_client.post(url(model, "changelist"), data, follow=True)


def test_soft_delete_action_needs_a_reason(admin_client, demo):
    hand = Hand.objects.filter(session__status="open").first()
    r = action(admin_client, Hand, "soft_delete", [hand], reason="")
    assert "Give a reason" in r.content.decode()
    hand.refresh_from_db()
    assert not hand.is_deleted

    r = action(admin_client, Hand, "soft_delete", [hand], reason="entered twice")
    assert r.status_code == 200
    hand.refresh_from_db()
    assert hand.is_deleted and hand.deleted_reason == "entered twice"
    assert hand.payments.count() == 0
    last = hand.revisions.order_by("-revision").first()
    assert (last.action, last.reason, last.changed_by.username) == ("deleted", "entered twice",
                                                                     "admin")  # fmt: skip


def test_soft_delete_refused_in_a_closed_session(admin_client, demo):
    hand = Hand.objects.filter(session__status="closed").first()
    r = action(admin_client, Hand, "soft_delete", [hand], reason="oops")
    assert "closed" in r.content.decode()
    hand.refresh_from_db()
    assert not hand.is_deleted and hand.payments.exists()


def test_close_and_reopen_actions(admin_client, demo):
    session = TableSession.objects.filter(status="open", hands__isnull=False).distinct().get()
    action(admin_client, TableSession, "close_sessions", [session])
    session.refresh_from_db()
    assert session.status == "closed" and session.closed_at is not None
    action(admin_client, TableSession, "reopen_sessions", [session])
    session.refresh_from_db()
    assert session.status == "open" and session.closed_at is None


def test_a_view_only_staff_user_cannot_run_the_actions(client, demo, django_user_model):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("viewer", password="x", is_staff=True)
    staff.user_permissions.set(
        Permission.objects.filter(codename__in=["view_hand", "view_tablesession"])
    )
    client.force_login(staff)
    hand = Hand.objects.filter(session__status="open").first()
    assert client.get(url(Hand, "changelist")).status_code == 200
    action(client, Hand, "soft_delete", [hand], reason="no right")
    hand.refresh_from_db()
    assert not hand.is_deleted
    session = hand.session
    action(client, TableSession, "close_sessions", [session])
    session.refresh_from_db()
    assert session.status == "open"


def test_owner_membership_is_listed(admin_client, demo):
    r = admin_client.get(url(Membership, "changelist"), {"role__exact": Role.OWNER})
    assert {m.player.user.username for m in r.context["cl"].result_list} == {"admin"}


def test_seats_changed_in_the_admin_are_writes_to_their_session(admin_client, demo, rf):
    """A session without hands (its totals entered) keeps its seats and bettors editable in the
    admin: each change there counts as a write to the session (its ``data_version`` moves), as
    the services' writes do — tournament standings and approvals read a table by that version,
    and what was read at the old one must not be used again."""
    session = TableSession.objects.filter(hands__isnull=True, seats__isnull=False).first()
    version = TableSession.objects.get(pk=session.pk).data_version
    seat = session.seats.get(number=0)
    other = Player.objects.exclude(seats__session=session).first()
    response = admin_client.post(
        url(Seat, "change", seat.pk), {"session": session.pk, "number": 0, "player": other.pk}
    )
    assert response.status_code == 302
    assert session.seats.get(number=0).player_id == other.pk
    assert TableSession.objects.get(pk=session.pk).data_version == version + 1
    # the session's own page saves its seat and bettor inlines: counted when one changed
    session_admin = admin.site._registry[TableSession]
    form = SimpleNamespace(instance=session, save_m2m=lambda: None)
    for changed, moved in ((False, 0), (True, 1)):
        formset = SimpleNamespace(has_changed=lambda changed=changed: changed, save=lambda: [])
        session_admin.save_related(rf.post("/"), form, [formset], change=True)
        assert TableSession.objects.get(pk=session.pk).data_version == version + 1 + moved
    # a seat deleted
    response = admin_client.post(url(Seat, "delete", seat.pk), {"post": "yes"})
    assert response.status_code == 302
    assert TableSession.objects.get(pk=session.pk).data_version == version + 3
