"""On a phone (390×844, zh-CN): a scorer of a tfmj2024 table enters a hand with a 杠上杠 chain
and a false win (诈胡), sees a refusal beside the box it names, fixes it, and reads the hand's
payments; an organiser chooses sbr for a new club and sees its options filled in.

The hand is tests/pages/tables/test_competition_hands.py's TFMJ_HAND (worked by hand there): nets
老张 −5, 小李 +10, 王姐 −15, 阿明 +10."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, Hand, Role
from clubs.services.sessions import session_create
from tests.browser.steps import chip, chip_text
from tests.browser.test_clubs import sign_up
from tests.browser.test_tables import totals_of_api, totals_on_page
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["老张", "小李", "王姐", "阿明"]  # S0 … S3


def _setup():
    club = ClubFactory(name="竞赛麻将社", visibility=Club.Visibility.MEMBERS)
    user = get_user_model().objects.create_user("jifen", password="mahjong-2026-chengdu")
    MembershipFactory(club=club, player=PlayerFactory(user=user, name="记分员"), role=Role.SCORER)
    players = [MembershipFactory(club=club, player=PlayerFactory(name=n)).player for n in NAMES]
    session = session_create(club=club, players=players, user=user, mode="xuezhan",
                             ruleset="tfmj2024")  # fmt: skip
    return user, session


def _login(page, session):
    page.goto(f"{page.base_url}/login/?next=/sessions/{session.pk}/")
    page.get_by_label("用户名").fill("jifen")
    page.get_by_label("密码").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(f"**/sessions/{session.pk}/**")


def _kong(kongs, n: int, seat: str, rank: str, suit: str) -> None:
    kongs.locator(chip_selector(f"k{n}_seat", seat)).click()
    kongs.locator(chip_selector(f"k{n}_kind", "concealed")).click()
    kongs.locator(chip_selector(f"k{n}_rank", rank)).click()
    kongs.locator(chip_selector(f"k{n}_suit", suit)).click()


def chip_selector(name: str, value: str) -> str:
    return f'label.chip:has(input[name="{name}"][value="{value}"])'


def test_a_scorer_enters_a_kong_chain_and_a_false_win_on_a_phone(phone, shots):
    user, session = _setup()
    page = phone
    _login(page, session)
    # the new parts are folded: the form of a typical hand is no longer than before
    assert page.locator("#false-wins").get_attribute("open") is None
    assert page.locator('input[name="k1_on_replacement"]').count() == 0  # kong 1: no box
    shots(page, "the table")
    chip(page, "dealer", "0").click()
    kongs = page.locator("#kongs")
    kongs.locator("> summary").click()
    _kong(kongs, 1, "0", "5", "m")
    kongs.locator("details.kong").first.locator("> summary").click()
    _kong(kongs, 2, "0", "6", "m")
    # 杠上杠: ticked on kong 2 … but kong 2 entered for 小李 by mistake first
    kongs.locator(chip_selector("k2_seat", "1")).click()
    kongs.locator(chip_selector("k2_on_replacement", "1")).click()
    kongs.screenshot(path=str(shots.folder / "kongs-with-the-box.png"))
    w1 = page.locator("#winner-1")
    chip_text(w1, "小李").click()
    w1.locator(chip_selector("w1_from", "0")).click()
    chip_text(w1, "平胡").click()
    chip_text(w1, "杠上炮").click()
    fouls = page.locator("#false-wins")
    fouls.locator("> summary").click()
    fouls.locator(chip_selector("f1_seat", "2")).click()
    fouls.locator("#f1_after").select_option("1")
    fouls.screenshot(path=str(shots.folder / "false-win-row.png"))
    w2 = page.locator("#winner-2")
    w2.locator("> summary").click()
    w2.locator(chip_selector("w2_seat", "3")).click()
    w2.locator(chip_selector("w2_from", "self")).click()
    chip_text(w2, "对对胡").click()
    w3 = page.locator("#winner-3")
    w3.locator("> summary").click()
    w3.locator(chip_selector("w3_seat", "2")).click()
    w3.locator(chip_selector("w3_from", "0")).click()
    chip_text(w3, "清一色").click()
    w3.locator(chip_selector("w3_roots", "1")).click()
    shots(page, "hand filled in")
    page.get_by_role("button", name="保存本局").click()
    page.wait_for_load_state()

    # refused: 杠上杠 after another player's kong, said beside kong 2's box, all kept
    assert not Hand.objects.exists()
    box = page.locator(".row.replacement.has-error")
    assert box.count() == 1 and box.locator("small.error").count() == 1
    assert page.locator('input[name="k2_on_replacement"]').is_checked()
    assert page.locator("#record .errors").first.is_visible()
    shots(page, "refused beside the box")
    top = page.locator("#record").bounding_box()
    page.screenshot(path=str(shots.folder / "refused-top-of-the-form.png"),
                    clip={"x": 0, "y": top["y"], "width": 390, "height": 640})  # fmt: skip
    box.scroll_into_view_if_needed()
    page.locator("#kongs").screenshot(path=str(shots.folder / "the-refusal-beside-the-box.png"))
    page.locator("#kongs").locator(chip_selector("k2_seat", "0")).click()
    page.get_by_role("button", name="保存本局").click()
    page.wait_for_url("**saved=1**")
    shots(page, "hand saved")
    hand = Hand.objects.get(session=session, number=1)
    assert hand.settlement["totals"]["seats"] == [-5, 10, -15, 10]
    assert totals_on_page(page, session) == totals_of_api(user, session)
    saved = page.locator("#saved")
    assert saved.locator('li[data-reason="false_win"]').count() == 2
    assert saved.locator('li[data-reason="kong_transfer"]').inner_text().endswith("呼叫转移")
    assert "杠上杠" in saved.locator('li[data-reason="kong_concealed"]').nth(3).inner_text()
    saved.screenshot(path=str(shots.folder / "saved-payments.png"))
    # the sheet's row says the false win too
    assert "诈胡" in page.locator("table.liushui td.what").first.inner_text()

    page.goto(f"{page.base_url}/sessions/{session.pk}/hands/1/")
    wins = page.locator("ul.list.wins li").all_inner_texts()
    assert [w.split("：")[0].split(":")[0] for w in wins] == ["小李", "王姐", "阿明", "王姐"]
    assert "诈胡" in wins[1] and "8" in wins[1]
    shots(page, "hand page")
    page.locator(".hand-payments").screenshot(path=str(shots.folder / "hand-payments.png"))


def test_an_organiser_chooses_sbr_and_its_options_follow(phone, shots):
    page = phone
    sign_up(page, "zuzhi")
    page.goto(page.base_url + "/clubs/new/")
    page.get_by_label("俱乐部名称").fill("国际规则俱乐部")
    page.locator('input[name="ruleset"][value="sbr"]').check()
    fold = page.locator("#rules-options")
    fold.locator("> summary").click()
    # sbr's own values: 杠上炮 refund, 花猪 not ready, 诈胡 8 (its amount shown), 单钓 on
    assert page.locator("#id_opt_kong_transfer").input_value() == "refund"
    assert page.locator("#id_opt_huazhu").input_value() == "not_ready"
    assert page.locator("#id_opt_false_win").input_value() == "amount"
    assert page.locator("#id_opt_false_win_amount").input_value() == "8"
    assert page.locator("#id_opt_false_win_amount").is_visible()
    assert not page.locator("#id_opt_huazhu_amount").is_visible()  # not_ready takes none
    assert page.locator("#id_opt_golden_wait").is_checked()
    assert not page.locator("#id_opt_chajiao_kongs").is_checked()
    assert page.locator("#id_opt_for").input_value() == "sbr"
    # the common variant: cap 4 (RULES §3.7)
    page.locator("#id_opt_cap").fill("4")
    fold.screenshot(path=str(shots.folder / "sbr-options.png"))
    shots(page, "sbr chosen")
    # tapping tfmj2024 fills in its own values
    page.locator('input[name="ruleset"][value="tfmj2024"]').check()
    assert page.locator("#id_opt_kong_transfer").input_value() == "chain_split"
    assert page.locator("#id_opt_cap").input_value() == "3"
    assert not page.locator("#id_opt_false_win_amount").is_visible()  # a win at the cap
    page.locator('input[name="ruleset"][value="sbr"]').check()
    page.locator("#id_opt_cap").fill("4")
    page.get_by_role("button", name="创建俱乐部").click()
    page.wait_for_url("**/clubs/*/")
    club = Club.objects.get(name="国际规则俱乐部")
    assert club.ruleset.spec == {"preset": "sbr", "options": {"cap": 4}}
    shots(page, "club on sbr")
