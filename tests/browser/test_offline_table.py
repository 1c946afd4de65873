"""Offline first at the table (issue: the teahouse's Wi-Fi drops): a scorer with the table's card
saves three hands with no connection; they wait on his phone, shown as such, the totals marked
provisional; a reload with no connection shows the page from the service worker and the queue
still there; back online, the three are stored exactly once, in order, and the page's totals
are the API's. A queued hand whose number another phone took meanwhile is shown refused, with
the server's words and the fix (save it as the next hand). And a send whose answer is lost when
the connection drops mid-send is sent again with its key: stored once.

Hands (declared, 普通: a hand ends at the first win, base 1): seat ``w`` 自摸 平胡 (1 番), each
of the other three pays 1, so the winner +3 and the others −1 each.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from clubs.models import Hand
from clubs.services.hands import hand_record
from tests.browser.live_steps import fill_hand, tournament_table
from tests.browser.steps import open_phone
from tests.clubs.records import PINGHU
from tests.helpers import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def _ready(page) -> None:
    """The service worker installed and in charge of the page (a reload after the first
    visit), the queue's database open."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _queue_hand(page, winner: int) -> None:
    """Save a hand (seat ``winner`` 自摸 平胡) with no connection: it joins the queue."""
    form = fill_hand(page, winner)
    before = page.locator("#queue li.queued").count()
    form.locator('button[type="submit"]').click()
    page.wait_for_function(
        f"() => document.querySelectorAll('#queue li.queued').length === {before + 1}"
    )


def _scorer_at_table(browser, base: str):
    """A tournament table (eight hands) and a phone holding its card, on its page, the
    service worker in charge: (table, context, page)."""
    _, [table] = tournament_table(hands=8)
    context, page = open_phone(browser, base)
    page.goto(f"{base}/t/{table.scorer_key}/")
    page.wait_for_url(f"**/sessions/{table.session_id}/**")
    _ready(page)
    return table, context, page


def _winners(session_id: int) -> list[tuple[int, int]]:
    hands = Hand.objects.filter(session_id=session_id).order_by("number")
    return [(h.number, h.record["events"][0]["winners"][0]["seat"]) for h in hands]


def _totals_on_page(page) -> list[int]:
    return page.eval_on_selector_all(
        "#seat-board [data-total]", "els => els.map(e => Number(e.dataset.value))"
    )


def test_three_hands_saved_offline_are_sent_once_in_order(browser, live_server, shots,
                                                          in_process_tasks):  # fmt: skip
    table, context, page = _scorer_at_table(browser, live_server.url)

    context.set_offline(True)
    for winner in (1, 2, 3):
        _queue_hand(page, winner)
    assert Hand.objects.filter(session_id=table.session_id).count() == 0
    assert page.locator("#queue").is_visible()
    assert page.locator("#seat-board.provisional").count() == 1
    assert page.locator('input[name="number"]').input_value() == "4"
    shots(page, "three hands wait on the phone")

    page.reload()  # no connection: the page from the service worker, the queue from IndexedDB
    page.locator("#queue li.queued").nth(2).wait_for()
    assert page.locator("#queue li.queued.waiting").count() == 3
    shots(page, "reloaded offline, the queue is still there")

    context.set_offline(False)  # the online event sends them
    page.wait_for_url("**saved=3#*")
    page.wait_for_load_state()
    assert _winners(table.session_id) == [(1, 1), (2, 2), (3, 3)]
    # each winner +3 once, −1 for each of the two other wins: seats 1, 2, 3 at +1, seat 0 −3
    assert sorted(_totals_on_page(page)) == [-3, 1, 1, 1]
    # and they are the API's, seat by seat
    api = client_for(table.round.tournament.created_by).get(f"/api/v1/sessions/{table.session_id}/")
    by_player = {p["id"]: p["total"] for p in api.json()["totals"]["players"]}
    seats = page.eval_on_selector_all(
        "#seat-board [data-total]",
        "els => els.map(e => [Number(e.dataset.total), Number(e.dataset.value)])",
    )
    assert dict(seats) == by_player
    assert page.locator("#queue").is_hidden()
    shots(page, "back online, the three hands stored")
    context.close()


def test_a_queued_hand_refused_is_shown_with_its_fix(browser, live_server, shots,
                                                     in_process_tasks):  # fmt: skip
    table, context, page = _scorer_at_table(browser, live_server.url)
    context.set_offline(True)
    _queue_hand(page, 1)  # hand 1: seat 1 自摸
    # meanwhile another phone stores hand 1 otherwise: seat 1 wins on seat 2's discard
    # (PINGHU: seat 1 wins on seat 2's discard, its tiles shown)
    hand_record(session=table.session, data={**PINGHU, "number": 1}, user=None)
    context.set_offline(False)
    refused = page.locator("#queue li.refused")
    refused.wait_for()
    assert "1" in refused.locator("strong").inner_text()
    assert refused.locator(".errors li").count() >= 1
    shots(page, "the refused hand with the server's words")
    refused.get_by_role("button", name="保存为第 2 局").click()
    page.wait_for_url("**saved=2#*")
    assert _winners(table.session_id) == [(1, 1), (2, 1)]
    assert Hand.objects.get(session_id=table.session_id, number=1).record["events"][0]["from"] == 2
    context.close()


def test_the_connection_dropping_mid_save_stores_the_hand_once(browser, live_server, shots,
                                                               in_process_tasks):  # fmt: skip
    """Online, the form is sent as always; the connection drops after the server stored the
    hand, before its answer: the service worker keeps the hand in the queue and shows the
    table; sent again, the server answers that this very hand is stored — one hand."""
    table, context, page = _scorer_at_table(browser, live_server.url)
    lost = []

    def drop_the_answer(route):
        # the form reaches the server, which stores the hand; its answer never arrives
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch(max_redirects=0).status)
            route.abort("connectionreset")
        else:
            route.continue_()

    context.route(f"**/sessions/{table.session_id}/", drop_the_answer)
    fill_hand(page, 1)
    page.locator('form.hand-form button[type="submit"]').click()
    page.wait_for_url("**queued=1*")
    assert lost == [302]
    assert page.locator("#queue li.queued.waiting").count() == 1
    shots(page, "the answer was lost: the hand waits on the phone")
    context.unroute(f"**/sessions/{table.session_id}/")
    try:
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
    except PlaywrightError:
        # the page read itself again meanwhile (the stored hand announced on its live channel):
        # the queue is still there; tell the new page the connection is back
        page.wait_for_load_state()
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_url("**saved=1#*")
    assert _winners(table.session_id) == [(1, 1)]
    shots(page, "sent again: the same hand, stored once")
    context.close()


def test_a_queued_hand_whose_answer_is_lost_is_sent_again_with_its_key(
    browser, live_server, in_process_tasks
):
    """The queue's own sending: the first answer lost, the hand sent again with the same key
    gets the first answer (replayed); one hand."""
    table, context, page = _scorer_at_table(browser, live_server.url)
    answers = []

    def drop_the_first_answer(route):
        answered = route.fetch()
        answers.append((answered.status, answered.headers.get("idempotent-replayed")))
        if len(answers) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=answered)

    page.route("**/hands/send/", drop_the_first_answer)
    context.set_offline(True)
    _queue_hand(page, 1)
    context.set_offline(False)  # sent: stored, the answer lost; then sent again
    page.wait_for_url("**saved=1#*", timeout=20_000)
    assert answers == [(201, None), (201, "true")]
    assert _winners(table.session_id) == [(1, 1)]
    context.close()


def test_signing_out_empties_the_pages_kept_on_the_phone(browser, live_server):
    """A phone passed round the table: what its last scorer could read goes when he signs
    out."""
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Role
    from clubs.services.sessions import session_create
    from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory

    club = ClubFactory(visibility=Club.Visibility.MEMBERS)
    user = get_user_model().objects.create_user("jifen", password="mahjong-2026-chengdu")
    MembershipFactory(club=club, player=PlayerFactory(user=user), role=Role.SCORER)
    players = [MembershipFactory(club=club).player for _ in range(4)]
    session = session_create(club=club, players=players, user=user)
    context, page = open_phone(browser, live_server.url)
    page.goto(f"{live_server.url}/login/?next=/sessions/{session.pk}/")
    page.get_by_label("用户名").fill("jifen")
    page.get_by_label("密码").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(f"**/sessions/{session.pk}/")
    _ready(page)
    kept = "() => caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
    kept += ".then(c => c.keys())))).then(lists => lists.flat().map(r => r.url))"
    assert any(f"/sessions/{session.pk}/" in url for url in page.evaluate(kept))
    page.get_by_role("button", name="退出").click()
    page.wait_for_url("**/")
    assert not any("/sessions/" in url for url in page.evaluate(kept))
    context.close()
