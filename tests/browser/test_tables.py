"""The table page on a phone (390×844, zh-CN): a scorer records a declared 血战 hand with a
kong and two winners, a shown hand typed as tiles, corrects one, deletes one and closes the
table; the totals on the page are the API's. Taps for "S1 自摸 清一色 1根" are counted."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, Hand, Role
from clubs.services.hands import hand_record
from clubs.services.sessions import session_create
from tests.browser.steps import Taps, chip_text, signed_value
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["老张", "小李", "王姐", "阿明"]  # seats 0–3 (S0 … S3)


def _setup(mode: str):
    club = ClubFactory(name="成都麻将社", visibility=Club.Visibility.MEMBERS)
    user = get_user_model().objects.create_user("jifen", password="mahjong-2026-chengdu")
    MembershipFactory(club=club, player=PlayerFactory(user=user, name="记分员"), role=Role.SCORER)
    players = [MembershipFactory(club=club, player=PlayerFactory(name=n)).player for n in NAMES]
    session = session_create(club=club, players=players, user=user, mode=mode)
    return user, session


def _login(page, session):
    page.goto(f"{page.base_url}/login/?next=/sessions/{session.pk}/")
    page.get_by_label("用户名").fill("jifen")
    page.get_by_label("密码").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(f"**/sessions/{session.pk}/**")


def totals_on_page(page, session) -> dict[int, int]:
    """Each seat card's total: its ``data-value``, which the card shows signed (+5, −3, 0)."""
    out = {}
    for seat in session.seats.all():
        out[seat.player_id] = signed_value(page.locator(f'[data-total="{seat.player_id}"]'))
    return out


def totals_of_api(user, session) -> dict[int, int]:
    body = client_for(user).get(f"/api/v1/sessions/{session.pk}/").json()
    return {p["id"]: p["total"] for p in body["totals"]["players"]}


def test_a_scorer_keeps_a_xuezhan_table_on_a_phone(phone, shots):
    user, session = _setup("xuezhan")
    page = phone
    _login(page, session)
    shots(page, "the table")
    # hand 1, declared: 阿明 (S3) 暗杠 5万; 小李 (S1) 清一色 and 王姐 (S2) 对对胡 both on 老张's
    # (S0) discard (一炮多响), then 阿明 自摸 平胡 with his kong as one root
    page.locator(
        'label.chip:has(input[name="dealer"][value="0"])'
    ).click()  # dealer: the first hand asks
    w1 = page.locator("#winner-1")
    chip_text(w1, "小李").click()
    w1.locator('label.chip:has(input[name="w1_from"][value="0"])').click()
    chip_text(w1, "清一色").click()
    # the winning tile is optional (RULES §6) and folded: here the scorer knows it, 3筒
    w1.locator("details.tile-known > summary").click()
    w1.locator('label.chip:has(input[name="w1_rank"][value="3"])').click()
    w1.locator('label.chip:has(input[name="w1_suit"][value="p"])').click()
    w2 = page.locator("#winner-2")
    w2.locator("> summary").click()
    w2.locator('label.chip:has(input[name="w2_seat"][value="2"])').click()
    w2.locator('label.chip:has(input[name="w2_from"][value="0"])').click()
    w2.locator('label.chip:has(input[name="w2_with"])').click()
    chip_text(w2, "对对胡").click()
    w3 = page.locator("#winner-3")
    w3.locator("> summary").click()
    w3.locator('label.chip:has(input[name="w3_seat"][value="3"])').click()
    w3.locator('label.chip:has(input[name="w3_from"][value="self"])').click()
    chip_text(w3, "平胡").click()
    w3.locator('label.chip:has(input[name="w3_roots"][value="1"])').click()  # no tile: 自摸
    kongs = page.locator("#kongs")
    kongs.locator("> summary").click()
    kongs.locator('label.chip:has(input[name="k1_seat"][value="3"])').click()
    kongs.locator('label.chip:has(input[name="k1_kind"][value="concealed"])').click()
    kongs.locator('label.chip:has(input[name="k1_rank"][value="5"])').click()
    kongs.locator('label.chip:has(input[name="k1_suit"][value="m"])').click()
    shots(page, "declared hand filled in")
    page.locator("#winner-1").screenshot(path=str(shots.folder / "winner-1-declared.png"))
    page.get_by_role("button", name="保存本局").click()
    page.wait_for_url("**saved=1**")
    shots(page, "declared hand saved")
    hand = Hand.objects.get(session=session, number=1)
    assert hand.settlement["verified"] is False
    assert len(hand.settlement["wins"]) == 3
    assert [w["tile"] for w in hand.settlement["wins"]] == ["3p", "3p", None]
    assert page.locator("#saved ol.payments li").count() == len(hand.settlement["payments"])
    assert totals_on_page(page, session) == totals_of_api(user, session)

    # hand 2, shown: 小李 平胡 on 王姐's discard, typed as tiles with the winning tile last;
    # then 王姐 and 老张 self-draw shown hands too (血战 ends at three winners)
    page.locator(
        'label.chip:has(input[name="dealer"][value="0"])'
    ).click()  # 血战: the dice chose, say who deals
    w1 = page.locator("#winner-1")
    chip_text(w1, "小李").click()
    w1.locator('label.chip:has(input[name="w1_from"][value="2"])').click()
    w1.locator("details.tiles summary").click()
    page.fill('input[name="w1_tiles"]', "123m456m789m11p234p")
    # the field holds the hand without the winning tile: the 14th typed goes to its own field
    assert page.locator("#id_w1_tiles").input_value() == "123456789m1123p"
    assert page.locator("#id_w1_tiles_win").input_value() == "4p"
    page.wait_for_function(
        "() => document.querySelector('#winner-1 .tp-result').dataset.kind === 'win'"
    )
    assert "-1" not in w1.locator(".tp-result").inner_text()
    w2 = page.locator("#winner-2")
    w2.locator("> summary").click()
    w2.locator('label.chip:has(input[name="w2_seat"][value="2"])').click()
    w2.locator('label.chip:has(input[name="w2_from"][value="self"])').click()
    w2.locator("details.tiles summary").click()
    page.fill('input[name="w2_tiles"]', "12p456p789p11m789m3p")
    w3 = page.locator("#winner-3")
    w3.locator("> summary").click()
    w3.locator('label.chip:has(input[name="w3_seat"][value="0"])').click()
    w3.locator('label.chip:has(input[name="w3_from"][value="self"])').click()
    w3.locator("details.tiles summary").click()
    page.fill('input[name="w3_tiles"]', "33p777p222s444s66s6s")
    shots(page, "shown hand typed")
    w1.screenshot(path=str(shots.folder / "winner-1-shown.png"))  # the picker, close up
    page.get_by_role("button", name="保存本局").click()
    page.wait_for_url("**saved=2**")
    hand2 = Hand.objects.get(session=session, number=2)
    assert hand2.settlement["verified"] is True
    shots(page, "shown hand saved")
    assert totals_on_page(page, session) == totals_of_api(user, session)

    # correct hand 1: 王姐's 对对胡 was a 清对
    page.goto(f"{page.base_url}/sessions/{session.pk}/hands/1/")
    shots(page, "hand 1")
    page.get_by_role("link", name="更正本局").click()
    chip_text(page.locator("#winner-2"), "清对").click()
    page.get_by_label("更正原因").fill("王姐是清对")
    shots(page, "correcting hand 1")
    page.get_by_role("button", name="保存更正").click()
    page.wait_for_url(f"**/sessions/{session.pk}/hands/1/")
    assert "王姐是清对" in page.locator(".history").inner_text()
    shots(page, "hand 1 corrected")

    # delete hand 2 with a reason
    page.goto(f"{page.base_url}/sessions/{session.pk}/hands/2/")
    page.get_by_label("删除原因").fill("记错桌了")
    page.get_by_role("button", name="删除本局").click()
    page.wait_for_url(f"**/sessions/{session.pk}/")
    assert page.locator("tr.deleted").count() == 1
    assert totals_on_page(page, session) == totals_of_api(user, session)
    shots(page, "hand 2 deleted")

    # close the table
    page.get_by_role("button", name="结束本桌").click()
    assert page.locator(".badge.closed").count() == 1
    assert page.locator('input[name="w1_seat"]').count() == 0
    shots(page, "table closed")
    assert totals_on_page(page, session) == totals_of_api(user, session)


def test_taps_for_s1_self_draws_pure_one_suit_with_a_root(phone, shots):
    """ "S1 自摸 清一色 1根" in a 普通 table whose dealer the previous hand set."""
    user, session = _setup("single")
    page = phone
    _login(page, session)
    taps = Taps()
    w1 = page.locator("#winner-1")
    # what a typical hand needs is open, the rest folded: the form fits in two screens
    form_height = page.locator("#record").bounding_box()["height"]
    print(f"\nthe record form: {form_height:.0f} px")
    assert form_height <= 2 * 844
    taps(
        page.locator('label.chip:has(input[name="dealer"][value="0"])')
    )  # the first hand: say who deals
    taps(chip_text(w1, "小李"))
    taps(chip_text(w1, "自摸"))
    taps(chip_text(w1, "清一色"))
    taps(w1.locator('label.chip:has(input[name="w1_roots"][value="1"])'))
    # no winning tile: a declared win needs none (RULES §6)
    taps(page.get_by_role("button", name="保存本局"))
    page.wait_for_url("**saved=1**")
    shots(page, "saved")
    # 清一色 3番 + 1根 = 4番 → 2^3 = 8 from each of three: 小李 +24
    s1 = session.seats.get(number=1).player_id
    assert totals_on_page(page, session)[s1] == 24
    assert totals_on_page(page, session) == totals_of_api(user, session)
    print(f"\ntaps for 'S1 自摸 清一色 1根' (first hand, dealer chosen): {taps.count}")
    # dealer, winner, 自摸, 清一色, 1根, save
    assert taps.count <= 6


def _overflow(page, selector: str) -> dict:
    """How wide a scrolling wrapper's content is against the wrapper, and how it scrolls."""
    return page.locator(selector).first.evaluate(
        """el => ({scroll: el.scrollWidth, client: el.clientWidth,
                   overflow: getComputedStyle(el).overflowX,
                   shadow: getComputedStyle(el).backgroundImage})"""
    )


def _table_with_bettors(names: list[str], bettors: list[str]):
    club = ClubFactory(name="成都麻将社", visibility=Club.Visibility.MEMBERS)
    user = get_user_model().objects.create_user("jifen", password="mahjong-2026-chengdu")
    MembershipFactory(club=club, player=PlayerFactory(user=user, name="记分员"), role=Role.SCORER)
    players = [MembershipFactory(club=club, player=PlayerFactory(name=n)).player for n in names]
    session = session_create(club=club, players=players, user=user, mode="single",
                             bettors=[{"guest_name": b} for b in bettors])  # fmt: skip
    return user, session


def test_the_sheet_and_who_paid_whom_fit_a_phone_or_show_they_scroll(phone, shots):
    """Four seats and a bettor fit 390 px: the 流水 sheet (its bettor column with a running total
    too) and the hand's who-paid-whom table; the back link is a 44-px tap. Two more bettors with
    long names cannot fit: the sheet then scrolls sideways and shows a shadow at its edge."""
    user, session = _table_with_bettors(NAMES, ["老王"])
    page = phone
    _login(page, session)
    taps = Taps()
    # "S1 自摸 清一色 1根" twice (8 from each of three: 小李 +24), 老王's tile tapped each time so
    # that he follows 小李 (RULES §4.7: the rank counts from the dealer): hand 1 老张 deals, 2条
    # is the seat after him; hand 2 小李 deals (he won by self-draw), 1条 is the dealer himself
    for n, rank in ((1, "2"), (2, "1")):
        if n == 1:
            taps(page.locator('label.chip:has(input[name="dealer"][value="0"])'))
        w1 = page.locator("#winner-1")
        taps(chip_text(w1, "小李"))
        taps(chip_text(w1, "自摸"))
        taps(chip_text(w1, "清一色"))
        taps(w1.locator('label.chip:has(input[name="w1_roots"][value="1"])'))
        taps(page.locator(f'#bettors label.chip:has(input[name="b0_rank"][value="{rank}"])'))
        taps(page.locator('#bettors label.chip:has(input[name="b0_suit"][value="s"])'))
        taps(page.get_by_role("button", name="保存本局"))
        page.wait_for_url(f"**saved={n}**")
    assert Hand.objects.get(session=session, number=2).record["bettors"][0]["tile"] == "1s"
    shots(page, "two hands with a bettor")
    sheet = page.locator("table.liushui")
    sheet.screenshot(path=str(shots.folder / "sheet.png"))
    fit = _overflow(page, ".sheet .scroll")
    assert fit["scroll"] <= fit["client"], fit
    # 老王 follows 小李: +24 a hand, running +24 then +48, as the seats' columns show theirs
    runs = sheet.locator("tbody td.bettor .run").all_inner_texts()
    assert runs == ["+48", "+24"]  # newest first
    assert sheet.locator("tfoot td.bettor").inner_text() == "+48"
    assert totals_on_page(page, session) == totals_of_api(user, session)

    page.locator("table.liushui tbody").get_by_role("link", name="2", exact=True).click()
    page.wait_for_url(f"**/sessions/{session.pk}/hands/2/")
    shots(page, "hand 2")
    fit = _overflow(page, ".hand-payments .scroll")
    assert fit["scroll"] <= fit["client"], fit
    back = page.get_by_role("link", name="返回本桌").bounding_box()
    assert back["height"] >= 44, back
    page.locator(".hand-payments").screenshot(path=str(shots.folder / "who-paid-whom.png"))


def test_a_sheet_too_wide_for_the_phone_scrolls_with_a_shadow(phone, shots):
    user, session = _table_with_bettors(
        ["欧阳大伯伯", "司马小妹妹", "诸葛老先生", "上官阿姨"], ["老王", "隔壁张叔叔", "楼上李阿姨"]
    )
    hand_record(session=session, user=user, data={
        "dealer": 0,
        "events": [{"type": "win", "from": None, "winners": [
            {"seat": 1, "declared": {"pattern": "qingyise", "roots": 1}}]}],
        "bettors": [{"name": "老王", "tile": "2s"}, {"name": "隔壁张叔叔", "tile": "1m"},
                    {"name": "楼上李阿姨", "tile": "3p"}],
    })  # fmt: skip
    page = phone
    _login(page, session)
    wide = _overflow(page, ".sheet .scroll")
    assert wide["scroll"] > wide["client"]  # it cannot fit …
    assert wide["overflow"] == "auto" and wide["shadow"].count("gradient") == 4  # … it says so
    page.locator(".sheet").screenshot(path=str(shots.folder / "sheet-scrolls.png"))
    page.locator(".sheet .scroll").evaluate("el => el.scrollLeft = el.scrollWidth")
    page.locator(".sheet").screenshot(path=str(shots.folder / "sheet-scrolled-to-the-end.png"))
