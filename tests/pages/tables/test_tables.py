"""The table page /sessions/<id>/: who may see and do what, the 流水 sheet, recording,
correcting and deleting hands, closing, reopening, final results."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Hand, Role, SessionResult, TableSession
from clubs.services.clubs import player_create
from clubs.services.hands import hand_correct, hand_delete, hand_record
from clubs.services.sessions import session_create
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import ascii_colons, client_for, login, member_login
from tests.scoring.engine.records import PINGHU

pytestmark = pytest.mark.django_db

#: S1 自摸 清一色 1根 (普通, qq, base 1): 清一色 3番 + 1根 = 4番 → 2^(4-1) = 8 from each of the
#: three others: S1 +24, the others −8 each
S1_ZIMO_QINGYISE = {"w1_seat": "1", "w1_from": "self", "w1_pattern": "qingyise",
                    "w1_roots": "1", "w1_rank": "9", "w1_suit": "s"}  # fmt: skip


@pytest.fixture
def table():
    club = ClubFactory(visibility=Club.Visibility.MEMBERS)
    return TableSessionFactory(club=club)


def client_as(role: str | None, session: TableSession) -> Client:
    """A browser client for a role in the session's club (None: anonymous; 'outsider': a
    login of no club)."""
    client = Client()
    if role == "outsider":
        client.force_login(login())
    elif role is not None:
        client.force_login(member_login(session.club, role))
    return client


ROLES = [None, "outsider", Role.MEMBER, Role.SCORER, Role.ORGANISER, Role.OWNER]


def url(name: str, session: TableSession, *args) -> str:
    return reverse(name, args=[session.pk, *args])


def post_hand(client: Client, session: TableSession, number: int, **fields):
    return client.post(url("page-session", session), {"number": str(number), **fields})


def shown_total(body: str | bytes, player_id: int) -> int:
    """A seat card's total: its ``data-value`` (a plain integer, for scripts and tests), which
    the card shows signed as the club pages do (+5, −3 with a true minus sign, 0)."""
    if isinstance(body, bytes):
        body = body.decode()
    match = re.search(rf'data-total="{player_id}" data-value="(-?\d+)">([^<]*)<', body)
    assert match, f"no total for player {player_id}"
    value = int(match.group(1))
    assert match.group(2) == (f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0")
    return value


# --- the permission matrix ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "role, status",
    [(None, 404), ("outsider", 404), (Role.MEMBER, 200), (Role.SCORER, 200),
     (Role.ORGANISER, 200), (Role.OWNER, 200)],
)  # fmt: skip
def test_a_members_only_table_is_seen_by_members_only(table, role, status):
    response = client_as(role, table).get(url("page-session", table))
    assert response.status_code == status


def test_a_public_table_is_seen_by_anyone_but_not_recorded_on():
    session = TableSessionFactory()
    response = Client().get(url("page-session", session))
    assert response.status_code == 200
    assert b'name="w1_seat"' not in response.content  # no hand form for a visitor
    assert b"Player" in response.content


# What a role gets for each action on a members-only table (it does not exist for a visitor
# or an outsider: 404; members lacking the role 403; the rest may).
WRITE = {None: 404, "outsider": 404, Role.MEMBER: 403, Role.SCORER: "ok",
         Role.ORGANISER: "ok", Role.OWNER: "ok"}  # fmt: skip
REOPEN = {**WRITE, Role.SCORER: 403}


def _expect(response, expected):
    if expected == "ok":
        assert response.status_code in (200, 302), response.content[:300]
        if response.status_code == 302:
            assert "/login" not in response["Location"]
    else:
        assert response.status_code == expected
        if expected == 302:
            assert "/login" in response["Location"]


@pytest.mark.parametrize("role", ROLES)
def test_every_action_follows_the_roles(table, role):
    scorer = member_login(table.club, Role.SCORER)
    hand_record(session=table, data=PINGHU, user=scorer)
    client = client_as(role, table)
    stored = Hand.objects.count()
    _expect(post_hand(client, table, 2, **S1_ZIMO_QINGYISE), WRITE[role])
    assert Hand.objects.count() == stored + (1 if WRITE[role] == "ok" else 0)
    _expect(client.get(url("page-hand", table, 1)), 404 if role in (None, "outsider") else "ok")
    _expect(
        client.get(url("page-hand-edit", table, 1)), {**WRITE, None: 404}[role]
    )  # fmt: skip  (a GET asks to read first)
    _expect(
        client.post(url("page-hand-edit", table, 1),
                    {"revision": "1", "w1_seat": "1", "w1_from": "2", "w1_pattern": "pinghu",
                     "w1_rank": "4", "w1_suit": "p", "reason": "declared"}),
        WRITE[role],
    )  # fmt: skip
    _expect(client.post(url("page-hand-delete", table, 1), {"reason": "twice"}), WRITE[role])
    assert Hand.objects.get(number=1).is_deleted == (WRITE[role] == "ok")
    _expect(client.get(url("page-session-result", table)), {**WRITE, None: 404}[role])
    _expect(client.post(url("page-session-close", table)), WRITE[role])
    table.refresh_from_db()
    assert table.is_open == (WRITE[role] != "ok")
    if not table.is_open:
        _expect(client.post(url("page-session-reopen", table)), REOPEN[role])
        table.refresh_from_db()
        assert table.is_open == (REOPEN[role] == "ok")


def test_csrf_is_enforced_on_every_write(table):
    user = member_login(table.club, Role.OWNER)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    for target in ("page-session", "page-session-close", "page-session-reopen",
                   "page-session-result"):  # fmt: skip
        assert client.post(url(target, table), {}).status_code == 403
    assert Hand.objects.count() == 0
    page = client.get(url("page-session", table))
    assert b"csrfmiddlewaretoken" in page.content


# --- the sheet ----------------------------------------------------------------------------------


def _hands(session: TableSession, n: int) -> None:
    user = member_login(session.club, Role.SCORER)
    for _ in range(n):
        hand_record(session=session, data=PINGHU, user=user)


@pytest.mark.parametrize("n", [5, 40])
def test_the_page_reads_in_the_same_queries_with_5_or_40_hands(
    table, n, django_assert_max_num_queries
):
    _hands(table, n)
    client = client_as(Role.SCORER, table)
    # the first read computes the parts every visitor sees alike (and keeps them): one query
    # more than before, for the version of the words said about the hands
    with django_assert_max_num_queries(15):
        response = client.get(url("page-session", table))
    assert response.status_code == 200
    # PINGHU: S2 pays S1 1 each hand
    assert shown_total(response.content, table.seats.get(number=1).player_id) == n


def test_the_sheet_marks_declared_and_deleted_hands_and_sums_to_the_api(table):
    scorer = member_login(table.club, Role.SCORER)
    client = client_as(Role.SCORER, table)
    hand_record(session=table, data=PINGHU, user=scorer)  # shown: S1 +1, S2 −1
    response = post_hand(client, table, 2, **S1_ZIMO_QINGYISE)  # declared: S1 +24
    assert response.status_code == 302
    hand = Hand.objects.get(number=2)
    assert hand.settlement["verified"] is False
    page = client.get(response["Location"])
    body = page.content.decode()
    assert 'class=" declared"' in body or "declared" in body
    s1 = table.seats.get(number=1).player_id
    assert shown_total(body, s1) == 25
    # the saved hand's payments in words: each of the three others pays S1 8
    assert body.count('data-reason="self_draw"') == 3
    assert body.count("pays S1 Player") == 3 and "→ 8" in body
    api = client_for(scorer).get(f"/api/v1/sessions/{table.pk}/").json()
    page_totals = {p["id"]: p["total"] for p in api["totals"]["players"]}
    assert page_totals[s1] == 25
    for seat in table.seats.all():
        assert shown_total(body, seat.player_id) == page_totals[seat.player_id]
    # deleting hand 1 strikes it out and moves the totals
    client.post(url("page-hand-delete", table, 1), {"reason": "wrong table"})
    body = client.get(url("page-session", table)).content.decode()
    assert "<s>+1</s>" in body and "<s>−1</s>" in body and "Deleted: wrong table" in body
    assert shown_total(body, s1) == 24


# --- recording ----------------------------------------------------------------------------------


def test_a_refusal_is_shown_in_words_with_the_form_kept(table):
    client = client_as(Role.SCORER, table)
    # 七对 with a root under qq must be declared 龙七对 (RULES §6): the engine refuses
    response = post_hand(client, table, 1, dealer="0", w1_seat="1", w1_from="self",
                         w1_pattern="qidui", w1_roots="1", w1_rank="9", w1_suit="s")  # fmt: skip
    assert response.status_code == 400
    body = response.content.decode()
    assert 'class="errors"' in body
    assert 'value="qidui" checked' in body  # what was entered is kept
    assert Hand.objects.count() == 0


def test_the_engine_refusal_reads_in_the_scorer_language(table):
    """The same refusal on a Chinese phone: the engine's code (``seven_pairs_with_roots``) in
    the catalogue's Chinese, not the engine's English message."""
    client = client_as(Role.SCORER, table)
    response = client.post(
        url("page-session", table),
        {"number": "1", "dealer": "0", "w1_seat": "1", "w1_from": "self",
         "w1_pattern": "qidui", "w1_roots": "1"},
        HTTP_ACCEPT_LANGUAGE="zh-CN",
    )  # fmt: skip
    assert response.status_code == 400
    assert "七对带根在这套规则里算龙七对，请选龙七对。" in response.content.decode()


def test_the_form_says_what_it_cannot_read(table):
    client = client_as(Role.SCORER, table)
    response = post_hand(client, table, 1, w1_seat="1")  # from whom?
    assert response.status_code == 400
    assert b"from whom" in response.content.lower() or "自摸".encode() in response.content


@pytest.mark.parametrize("digits", ["9" * 5000, "²", "٣"])
def test_numbers_no_int_reads_are_no_numbers_on_the_page(table, digits):
    """A hand number, a roots count or ``?saved=`` in digits ``int`` refuses (4,300 and more, or
    what only ``str.isdigit`` calls digits) was a 500 (tests/pages/test_page_fuzz.py). They
    are read as any word that is no number: the hand takes the next number."""
    client = client_as(Role.SCORER, table)
    fields = {**S1_ZIMO_QINGYISE, "dealer": "0", "w1_roots": digits}
    response = client.post(url("page-session", table), {"number": digits, **fields})
    assert response.status_code == 302
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    assert client.get(url("page-session", table) + f"?saved={digits}").status_code == 200


def test_the_first_hand_asks_for_the_dealer(table):
    table.mode = TableSession.Mode.XUEZHAN
    table.save()
    client = client_as(Role.SCORER, table)
    response = post_hand(client, table, 1, **S1_ZIMO_QINGYISE)
    assert response.status_code == 400  # no dealer, and one winner does not finish 血战
    assert Hand.objects.count() == 0


def test_posting_twice_stores_one_hand(table):
    client = client_as(Role.SCORER, table)
    first = post_hand(client, table, 1, dealer="0", **S1_ZIMO_QINGYISE)
    again = post_hand(client, table, 1, dealer="0", **S1_ZIMO_QINGYISE)  # back button / 2nd tap
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Hand.objects.count() == 1
    # a different hand on the stale form is refused (409) with the hand stored, not stored
    # over hand 1 (tests/pages/tables/test_hand_race.py: the choice it offers)
    other = post_hand(client, table, 1, dealer="0", **{**S1_ZIMO_QINGYISE, "w1_roots": "0"})
    assert other.status_code == 409
    text = other.content.decode()
    assert "was just saved from another phone" in text or "已由另一部手机保存" in text
    assert Hand.objects.count() == 1


def test_the_dealer_defaults_to_the_previous_next_dealer(table):
    _hands(table, 1)  # PINGHU in 普通: S1 won on S2's discard → the next dealer is S2 (RULES §3.1)
    page = client_as(Role.SCORER, table).get(url("page-session", table)).content.decode()
    assert 'name="dealer" value="2" checked' in page


def test_correct_a_hand_keeps_its_history(table):
    _hands(table, 1)
    client = client_as(Role.SCORER, table)
    form = client.get(url("page-hand-edit", table, 1)).content.decode()
    assert 'name="w1_tiles" id="id_w1_tiles" value="123m456m789m11p23p"' in form
    response = client.post(
        url("page-hand-edit", table, 1),
        {"revision": "1", "dealer": "0", "w1_seat": "1", "w1_from": "2",
         "w1_pattern": "duiduihu", "w1_rank": "4", "w1_suit": "p", "reason": "it was 对对胡"},
    )  # fmt: skip
    assert response.status_code == 302
    hand = Hand.objects.get(number=1)
    assert hand.revision == 2
    assert hand.settlement["totals"]["seats"] == [0, 2, -2, 0]  # 对对胡 2番 → 2
    detail = client.get(url("page-hand", table, 1)).content.decode()
    assert "it was 对对胡" in detail
    # the same correction sent again is not a third revision
    same = {"revision": "1", "dealer": "0", "w1_seat": "1", "w1_from": "2",
            "w1_pattern": "duiduihu", "w1_rank": "4", "w1_suit": "p"}  # fmt: skip
    assert client.post(url("page-hand-edit", table, 1), same).status_code == 302
    assert Hand.objects.get(number=1).revision == 2


def test_a_correction_needs_a_reason(table):
    _hands(table, 1)
    before = Hand.objects.get(number=1).settlement
    response = client_as(Role.SCORER, table).post(
        url("page-hand-edit", table, 1),
        {"revision": "1", "dealer": "0", "w1_seat": "1", "w1_from": "2",
         "w1_pattern": "duiduihu", "w1_rank": "4", "w1_suit": "p", "reason": "  "},
    )  # fmt: skip
    assert response.status_code == 400
    assert "Say why, in a few words." in response.content.decode()  # reason_required
    hand = Hand.objects.get(number=1)
    assert (hand.revision, hand.settlement) == (1, before)


def test_delete_needs_a_reason(table):
    _hands(table, 1)
    client = client_as(Role.SCORER, table)
    response = client.post(url("page-hand-delete", table, 1), {"reason": " "})
    assert response.status_code == 302
    assert not Hand.objects.get(number=1).is_deleted
    # the service's refusal (reason_required) is shown on the hand's page
    assert 'class="message error"' in client.get(response["Location"]).content.decode()


def test_a_closed_table_has_no_form_and_reopens_for_an_organiser(table):
    client = client_as(Role.ORGANISER, table)
    client.post(url("page-session-close", table))
    page = client.get(url("page-session", table)).content.decode()
    assert 'name="w1_seat"' not in page
    assert url("page-session-reopen", table) in page
    client.post(url("page-session-reopen", table))
    table.refresh_from_db()
    assert table.is_open


def test_a_final_result_is_zero_sum_checked(table):
    client = client_as(Role.SCORER, table)
    seats = list(table.seats.all())
    values = {f"p{s.player_id}": str(v) for s, v in zip(seats, [10, -5, -5, 1], strict=True)}
    response = client.post(url("page-session-result", table), values)
    assert response.status_code == 400
    assert SessionResult.objects.count() == 0
    values[f"p{seats[3].player_id}"] = "0"
    response = client.post(url("page-session-result", table), values)
    assert response.status_code == 302
    assert SessionResult.objects.count() == 4
    page = client.get(url("page-session", table)).content.decode()
    assert shown_total(page, seats[0].player_id) == 10
    assert 'name="w1_seat"' not in page  # a table with a result takes no hands


def test_a_tournament_table_renders_and_keeps_its_lock(table):
    table.kind = TableSession.Kind.TOURNAMENT
    table.hand_limit = 1
    table.notes = "Spring cup · R1 T1"
    table.save()
    client = client_as(Role.SCORER, table)
    page = client.get(url("page-session", table)).content.decode()
    assert "Spring cup" in page and 'name="w1_seat"' in page
    assert post_hand(client, table, 1, dealer="0", **S1_ZIMO_QINGYISE).status_code == 302
    refused = post_hand(client, table, 2, dealer="0", **S1_ZIMO_QINGYISE)
    assert refused.status_code == 400  # table_complete, in words
    assert Hand.objects.count() == 1
    TableSession.objects.filter(pk=table.pk).update(lock_code="round_locked",
                                                    lock_message="round 2 is seated")  # fmt: skip
    page = client.get(url("page-session", table)).content.decode()
    assert 'name="w1_seat"' not in page and "round 2 is seated" in page
    assert client_as("outsider", table).get(url("page-session", table)).status_code == 404


# --- the table page on a phone ------------------------------------------------------------------


def test_a_declared_win_is_saved_without_its_winning_tile(table):
    """ "S1 自摸 清一色 1根" with no tile tapped (RULES §6): 清一色 3番 + 1根 = 4番 → 8 from
    each of the three others."""
    client = client_as(Role.SCORER, table)
    fields = {k: v for k, v in S1_ZIMO_QINGYISE.items() if k not in ("w1_rank", "w1_suit")}
    response = post_hand(client, table, 1, dealer="0", **fields)
    assert response.status_code == 302
    hand = Hand.objects.get(number=1)
    assert hand.settlement["totals"]["seats"] == [-8, 24, -8, -8]
    assert hand.settlement["wins"][0]["tile"] is None
    assert "tile" not in hand.record["events"][0]
    body = client.get(response["Location"]).content.decode()
    assert body.count("→ 8") == 3


def test_a_shown_winner_without_the_winning_tile_is_asked_for_it(table):
    client = client_as(Role.SCORER, table)
    response = post_hand(client, table, 1, dealer="0", w1_seat="1", w1_from="2",
                         w1_tiles="123m456m789m11p23p")  # fmt: skip
    assert response.status_code == 400
    assert "needs the winning tile" in response.content.decode()
    assert Hand.objects.count() == 0


def _open(body: str, element_id: str) -> bool:
    """Whether the <details id=…> is open."""
    start = body.rindex("<details", 0, body.index(f'id="{element_id}"'))
    return " open" in body[start : body.index(">", start)]


def test_the_form_folds_what_a_typical_hand_does_not_need(table):
    client = client_as(Role.SCORER, table)
    body = client.get(url("page-session", table)).content.decode()
    assert _open(body, "winner-1")
    assert not _open(body, "winner-2") and not _open(body, "winner-3")
    assert not _open(body, "kongs") and not _open(body, "draw")
    assert body.count('<details class="kong">') == 3  # kongs 2–4 folded inside the kongs
    assert '<details class="fold tile-known">' in body  # the winning tile: only if known
    # a refused form opens what holds a value: winner 2, kong 2, the draw
    response = post_hand(client, table, 1, dealer="0", w1_seat="1", w1_from="self",
                         w1_pattern="qingyise", w2_seat="2", k2_seat="3", d0_state="huazhu",
                         w1_rank="9", w1_suit="s")  # fmt: skip
    assert response.status_code == 400
    body = response.content.decode()
    assert _open(body, "winner-2") and not _open(body, "winner-3")
    assert _open(body, "kongs") and '<details class="kong" open>' in body
    assert _open(body, "draw")
    assert '<details class="fold tile-known" open>' in body


def test_correcting_opens_the_folds_of_the_stored_hand(table):
    scorer = member_login(table.club, Role.SCORER)
    record = {"dealer": 0, "events": [
        {"type": "kong", "seat": 3, "kind": "concealed", "tile": "5m"},
        {"type": "kong", "seat": 3, "kind": "concealed", "tile": "6m"},
        {"type": "win", "from": None, "situation": [],
         "winners": [{"seat": 1, "declared": {"pattern": "qingyise", "roots": 0}}]},
    ]}  # fmt: skip
    hand_record(session=table, data=record, user=scorer)
    body = client_as(Role.SCORER, table).get(url("page-hand-edit", table, 1)).content.decode()
    assert _open(body, "kongs") and body.count('<details class="kong" open>') == 1  # kong 2
    assert not _open(body, "winner-2") and not _open(body, "draw")


def test_the_seat_cards_carry_full_names_totals_and_the_dealer(table):
    seats = list(table.seats.select_related("player"))
    seats[0].player.name = "欧阳大伯伯"
    seats[0].player.save()
    _hands(table, 1)  # PINGHU in 普通: S1 won on S2's discard → S2 deals next
    body = client_as(Role.MEMBER, table).get(url("page-session", table)).content.decode()
    assert '<span class="name" title="欧阳大伯伯">欧阳大伯伯</span>' in body
    assert body.count('class="seat-card') == 4
    assert body.count('class="seat-card dealer"') == 1
    dealer = body.index('class="seat-card dealer"')
    assert seats[2].player.name in body[dealer : body.index("</li>", dealer)]
    assert body.count("dealer-mark") == 1
    assert body.index("seat-grid") < body.index('class="muted next-dealer"')


def test_who_paid_whom_columns_are_names_with_the_seat_in_a_title(table):
    _hands(table, 1)
    s1 = table.seats.get(number=1).player.name
    body = client_as(Role.MEMBER, table).get(url("page-hand", table, 1)).content.decode()
    name = f'<span class="col-name">{s1}</span>'
    assert f'<th scope="col" class="num" title="S1 {s1}">{name}</th>' in body
    assert f'<th scope="row" title="S1 {s1}">{name}</th>' in body
    assert "Sum (zero-sum)" in body


def test_a_closed_table_shows_no_empty_card(table):
    scorer = client_as(Role.SCORER, table)
    scorer.post(url("page-session-close", table))
    body = scorer.get(url("page-session", table)).content.decode()
    assert "table-actions" not in body  # nothing a scorer can do there: no card at all
    assert "next-dealer" not in body  # nor who deals next
    organiser = client_as(Role.ORGANISER, table).get(url("page-session", table)).content.decode()
    assert "table-actions" in organiser and url("page-session-reopen", table) in organiser


def test_the_tile_pickers_words_and_script_come_once_a_page(table):
    body = client_as(Role.SCORER, table).get(url("page-session", table)).content.decode()
    assert body.count("data-tile-picker") == 3  # one a winner
    assert body.count('id="tile-picker-words"') == 1
    assert body.count("pages/tilepicker.js") == 1
    assert 'label for="id_w1_tiles">Hand tiles without the winning tile' in body


# --- the table page's words (zh: full-width colons; en: plurals; both: changes in words) ------


#: 叫马 in a 普通 table, RULES §4.7: 老王 drew 2s and follows the seat after the dealer
NAMED = ["老张", "小李", "王姐", "阿明"]


@pytest.fixture
def named():
    """A 普通 table of four named players and the guest bettor 老王, with a scorer."""
    club = ClubFactory(visibility=Club.Visibility.MEMBERS)
    scorer = member_login(club, Role.SCORER)
    players = [player_create(club=club, name=n).player for n in NAMED]
    session = session_create(club=club, players=players, user=scorer, mode="single",
                             bettors=[{"guest_name": "老王"}])  # fmt: skip
    return session, scorer


def _zh(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(user)
    return client


def _en(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_table_hand_and_correction_pages_in_chinese_use_full_width_colons(named):
    session, scorer = named
    client = _zh(scorer)
    assert post_hand(client, session, 1, dealer="0", **S1_ZIMO_QINGYISE).status_code == 302
    hand_record(session=session, data=PINGHU, user=scorer)  # hand 2, deleted below
    hand = Hand.objects.get(number=1)
    record = {**hand.record, "dealer": 1}
    hand_correct(hand=hand, data=record, user=scorer, reason="庄家记错")
    hand_delete(hand=Hand.objects.get(number=2), reason="记错桌了", user=scorer)
    table = client.get(url("page-session", session)).content.decode()
    detail = client.get(url("page-hand", session, 1)).content.decode()
    deleted = client.get(url("page-hand", session, 2)).content.decode()
    correcting = client.get(url("page-hand-edit", session, 1)).content.decode()
    result = client.get(url("page-session-result", session)).content.decode()
    assert "已删除：记错桌了" in table
    assert "小李：清一色 1根，自摸" in table  # the win in words, on the sheet
    assert "改动：庄家" in detail and "原因：庄家记错" in detail
    assert "原因：记错桌了" in deleted
    for page in (table, detail, deleted, correcting, result):
        assert ascii_colons(page) == []


def test_the_history_says_what_a_correction_changed_in_words(named):
    session, scorer = named
    post_hand(_en(scorer), session, 1, dealer="0", **S1_ZIMO_QINGYISE)
    hand = Hand.objects.get(number=1)
    # the dealer and the win: 小李 清一色 with no root now
    events = [{**hand.record["events"][0], "winners": [
        {"seat": 1, "declared": {"pattern": "qingyise", "roots": 0}}]}]  # fmt: skip
    hand_correct(hand=hand, data={**hand.record, "dealer": 2, "events": events}, user=scorer,
                 reason="no root")  # fmt: skip
    history = _en(scorer).get(url("page-hand", session, 1)).content.decode()
    history = history[history.index('class="list history"') :]
    assert "Changed: the dealer, wins and kongs" in history
    assert "events" not in history and "dealer," not in history.replace("the dealer,", "")
    zh = _zh(scorer).get(url("page-hand", session, 1)).content.decode()
    assert "改动：庄家、胡牌与杠" in zh


def test_counts_in_english_take_their_plural(named):
    session, scorer = named
    session.hand_limit = 1
    session.save()
    client = _en(scorer)
    form = client.get(url("page-session", session)).content.decode()
    assert 'name="w1_roots" value="1">1 root</label>' in form
    assert 'name="w1_roots" value="2">2 roots</label>' in form and "1 roots" not in form
    assert "<span>1 hand</span>" in form and "1 hands" not in form  # the table plays 1 hand
    post_hand(client, session, 1, dealer="0", **S1_ZIMO_QINGYISE)
    body = client.get(url("page-session", session)).content.decode()
    assert "1 roots" not in body
    # each win readable on its own: who, what, how
    assert "小李: Pure one suit + 1 root, self-drawn" in body


def test_a_win_from_a_discard_says_from_whom(named):
    session, scorer = named
    client = _en(scorer)
    post_hand(client, session, 1, dealer="0", w1_seat="1", w1_from="0", w1_pattern="qingyise")
    body = client.get(url("page-session", session)).content.decode()
    assert '<span class="win">小李: Pure one suit, from 老张</span>' in body


def test_negative_amounts_take_the_minus_sign_of_the_club_pages(named):
    """S1 自摸 清一色 1根: 8 from each of the three others (+24); 老王 drew 2s and follows 小李
    (rank 2: the seat after the dealer, RULES §4.7), so each of the three pays him 8 as well:
    老张, 王姐, 阿明 −16, 小李 +24, 老王 +24 (sum 0)."""
    session, scorer = named
    client = _en(scorer)
    response = post_hand(client, session, 1, dealer="0", b0_rank="2", b0_suit="s",
                         **S1_ZIMO_QINGYISE)  # fmt: skip
    assert response.status_code == 302
    assert Hand.objects.get(number=1).record["bettors"] == [{"name": "老王", "tile": "2s"}]
    body = client.get(response["Location"]).content.decode()
    seats = list(session.seats.order_by("number"))
    assert [shown_total(body, s.player_id) for s in seats] == [-16, 24, -16, -16]
    bettor = session.bettors.get()
    assert f'data-bettor-total="{bettor.pk}" data-value="24">+24<' in body
    assert not re.search(r">-\d", body)  # no hyphen-minus before a number, anywhere
    assert "−16" in body
    sheet = body[body.index('class="liushui"') :]
    # the bettor's column has its running total, like the seats'
    cell = '<td class="num bettor"><span class="pos">+24</span><small class="run">+24</small>'
    assert cell in sheet
    hand = client.get(url("page-hand", session, 1)).content.decode()
    assert not re.search(r">-\d", hand) and "−16" in hand


def test_the_bettors_tile_is_tapped_as_rank_and_suit_or_typed(named):
    session, scorer = named
    client = _en(scorer)
    form = client.get(url("page-session", session)).content.decode()
    assert 'name="b0_rank" value="9"' in form and 'name="b0_suit" value="s"' in form
    assert 'name="b0_tile"' in form  # the typed fallback
    post_hand(client, session, 1, dealer="0", b0_tile="7p", **S1_ZIMO_QINGYISE)
    assert Hand.objects.get(number=1).record["bettors"] == [{"name": "老王", "tile": "7p"}]
    # correcting it shows the tile as its chips
    again = client.get(url("page-hand-edit", session, 1)).content.decode()
    assert 'name="b0_rank" value="7" checked' in again
    assert 'name="b0_suit" value="p" checked' in again
