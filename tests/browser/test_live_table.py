"""The table lives on four phones (issue: live updates): phone A records hands with the table's
card; phones B, C and D follow with the players' link; the tournament's live tables page and the
hall's projector are open too. Each hand A saves appears on B, C and D, and in the live tables'
count, without a reload; the table's last hand completes it, and the projector's standings show
its result. The pages are served by the ASGI server, as ``make run`` serves them."""

from __future__ import annotations

import pytest

from tests.browser.live_steps import (
    HALL,
    changed_after,
    fill_hand,
    phones_at,
    save_hand,
    seen_at,
    tournament_table,
    watch,
)
from tests.browser.steps import open_phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hand_saved_on_one_phone_appears_on_the_others_and_the_projector(
    browser, asgi_server, shots, in_process_tasks
):
    tournament, [table] = tournament_table(hands=4)
    base = asgi_server.url
    phones = phones_at(browser, base, table)
    a, followers = phones[0][1], [page for _, page in phones[1:]]
    hall, projector = open_phone(browser, base, locale="zh-CN")
    projector.set_viewport_size(HALL)
    projector.goto(f"{base}/tournaments/{tournament.slug}/projector/?show=seating")
    watch(projector)
    board = hall.new_page()
    board.goto(f"{base}/tournaments/{tournament.slug}/projector/?show=standings")
    watch(board)
    lap, live_tables = open_phone(browser, base)
    live_tables.goto(f"{base}/tournaments/{tournament.slug}/live/")
    watch(live_tables)
    shots(followers[0], "a follower before the first hand")
    for page in followers:  # a mark a reload would lose
        page.evaluate("() => { window.__same_page = true; }")

    for hand in range(1, 5):
        # seats 1, 2, 3, 1 win by 自摸 平胡 (1 番, base 1: each other seat pays 1)
        sent, _ = save_hand(a, winner=[1, 2, 3, 1][hand - 1])
        for page in followers:
            assert seen_at(page, hand) >= sent - 1  # shown after it was sent, not before
        changed_after(live_tables, sent, f"{hand} / 4")
    shots(followers[0], "a follower after four hands, not reloaded")
    shots(live_tables, "the live tables follow")
    for page in followers:
        assert page.evaluate("() => window.__same_page") is True
        # the totals A's page shows: seat 1 won twice (+3 each), seats 2 and 3 once (+3),
        # and paid 1 for each of the other three wins: S0 −4, S1 +6 −2 = +4, S2 +3 −3 = 0,
        # S3 +3 −3 = 0
        totals = page.eval_on_selector_all(
            "#seat-board [data-total]", "els => els.map(e => Number(e.dataset.value))"
        )
        assert totals == [-4, 4, 0, 0]
        # the last hand in words, to confirm (newest first)
        assert "4" in page.locator(".confirm-hands h3").first.inner_text()
    # the fourth hand completed the table: the projector shows it done, and the standings
    # (recomputed as the table counts) its result, 老张 first with +4
    changed_after(projector, 0, "✓")
    shots(projector, "the projector shows the table done")
    changed_after(board, 0, "老张")
    assert board.locator(".proj-standings tbody tr").first.inner_text().count("老张") == 1
    shots(board, "the projector's standings")
    for context, _ in phones:
        context.close()
    hall.close()
    lap.close()


def test_the_club_page_follows_its_open_tables(browser, asgi_server, shots):
    """A member watches his members-only club's page on his phone: a table opened, its hands
    and its closing appear there without a reload (the club's channel)."""
    from clubs.models import Club
    from clubs.services.hands import hand_record
    from clubs.services.sessions import session_close, session_create
    from tests.browser.live_steps import PASSWORD
    from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
    from tests.scoring.engine.records import PINGHU

    club = ClubFactory(name="成都麻将社", visibility=Club.Visibility.MEMBERS)
    member = MembershipFactory(club=club, player=PlayerFactory(name="观众")).player
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("guanzhong", password=PASSWORD)
    member.user = user
    member.save(update_fields=["user"])
    players = [MembershipFactory(club=club, player=PlayerFactory(name=n)).player
               for n in ("老张", "小李", "王姐", "阿明")]  # fmt: skip
    context, page = open_phone(browser, asgi_server.url)
    page.goto(f"{asgi_server.url}/login/?next=/clubs/{club.slug}/")
    page.get_by_label("用户名").fill("guanzhong")
    page.get_by_label("密码").fill(PASSWORD)
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    watch(page)
    page.evaluate("() => { window.__same_page = true; }")
    open_tables = page.locator("#open-tables")
    assert open_tables.locator(".table-card").count() == 0

    session = session_create(club=club, players=players, user=None, mode="single")
    open_tables.locator(".table-card").wait_for()
    # 小李 (seat 1) wins on 王姐's (seat 2) discard, 平胡 1 番 at base 1: 王姐 pays him 1
    hand_record(session=session, data=PINGHU, user=None)
    page.wait_for_function(
        "() => document.querySelector('#open-tables .seats').textContent.includes('+1')"
    )
    shots(page, "the club page shows the open table and its hand")
    session_close(session=session)
    open_tables.locator(".table-card").wait_for(state="detached")
    assert page.locator("#recent-tables .table-card").count() == 1
    assert page.evaluate("() => window.__same_page") is True
    context.close()


def test_two_phones_racing_for_the_same_hand(browser, asgi_server, shots, in_process_tasks):
    """Phones A and B both hold the table's card and both enter hand 1. A saves first: B's page
    says at once, beside its form, that another phone saved hand 1 (its form untouched). B saves
    anyway: refused (409), B sees the hand A stored and the choice — never a duplicate."""
    from clubs.models import Hand

    tournament, [table] = tournament_table(hands=4)
    phones = phones_at(browser, asgi_server.url, table, others=0)
    context_b, b = open_phone(browser, asgi_server.url)
    b.goto(f"{asgi_server.url}/t/{table.scorer_key}/")
    b.wait_for_url(f"**/sessions/{table.session_id}/**")
    watch(b)
    a = phones[0][1]
    assert b.locator("#record-stale").is_hidden()
    save_hand(a, winner=1)
    b.locator("#record-stale").wait_for()  # told, without a reload
    assert "1" in b.locator("#record-stale").inner_text()
    assert b.locator("#next-number").input_value() == "1"  # what B is entering is his
    shots(b, "phone B is told hand 1 was saved")
    b.locator("#record").screenshot(path=str(shots.folder / "record-form-told.png"))
    form = fill_hand(b, winner=2)
    with b.expect_response(lambda r: r.request.method == "POST") as answer:
        form.locator('button[type="submit"]').click()
    assert answer.value.status == 409
    b.locator(".race").wait_for()
    shots(b, "phone B sees the stored hand and the choice")
    assert Hand.objects.filter(session_id=table.session_id).count() == 1
    context_b.close()
    for context, _ in phones:
        context.close()
