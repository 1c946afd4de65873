"""A whole club evening on phones (390×844, zh-CN), through the pages alone.

The organiser signs up, creates the club, adds five players and invites a scorer; the scorer, on
his own phone, joins through the link, opens a 血战 table with a 叫马 bettor, records a declared
hand (a kong, two winners on one discard, a draw), a hand shown with the tile picker's taps,
corrects the first hand and closes the table. The totals the table page shows are the API's, and
the evening's 结算 shows the same nets and the transfers that settle them. The database is only
read, to check.

Rules: ``qq`` (the new club's default), base 1, value = 2^(fan − 1) (RULES §3.1). Seats: S0 张三
(东), S1 李四, S2 王五, S3 赵六; the bettor 钱七 follows the seat his tile's rank counts to from
the dealer (1 the dealer, 2 the next, 3 opposite, 4 the one before, RULES §4.7).

Hand 1, declared, 张三 deals; 钱七 draws 2条 → the seat after the dealer, 李四:
- 赵六 暗杠 5万: 2 from each of the three others → 赵六 +6; 张三, 李四, 王五 −2; 钱七 follows
  李四: pays 赵六 2.
- 张三 discards, 李四 wins 清一色 (3 fan → 4) and 王五 对对胡 (2 fan → 2), 一炮多响: 张三 pays
  4 + 2; 钱七 takes 4 from 张三 with 李四.
- The wall runs out with 张三 and 赵六 still in: 赵六 is ready on 平胡 with his kong as one root
  (2 fan → 2), 张三 is not ready: 查叫, 张三 pays 赵六 2; 赵六 keeps his kong (he is ready).
  Nets: 张三 −2 −4 −2 −2 −4 = −14, 李四 −2 +4 = +2, 王五 −2 +2 = 0, 赵六 +6 +2 +2 = +10,
  钱七 −2 +4 = +2 (sum 0).

Hand 2, shown by tapping tiles, 李四 deals; 钱七 draws 4条 → the seat before the dealer, 张三:
- 王五 wins on 李四's discard with 123m 456m 789m 11p 23p + 4p: 平胡, 1 fan → 1.
- 张三 自摸 123s 456s 789s 234s 5s + 5s: 清一色, 3 fan → 4 from 李四 and from 赵六 (王五 is
  out); 钱七 follows 张三: 4 more from each of them.
- 赵六 wins on 李四's discard with 222p 555p 777p 999p 3m + 3m: 对对胡, 2 fan → 2.
  Nets: 张三 +8, 李四 −1 −4 −4 −2 = −11, 王五 +1, 赵六 −4 −4 +2 = −6, 钱七 +8 (sum 0).

Correction of hand 1: 王五's hand was a 清对 (4 fan → 8): 张三 pays 8 instead of 2, so hand 1
nets 张三 −20, 李四 +2, 王五 +6, 赵六 +10, 钱七 +2.

Table totals: 张三 −12, 李四 −9, 王五 +7, 赵六 +4, 钱七 +10. No part of these five sums to zero
by itself (−12 and −9 match no sum of 7, 4 and 10 but all of it), so the fewest transfers that
settle the evening are 5 − 1 = 4.
"""

from __future__ import annotations

import re

import pytest

from clubs.models import Club, Hand, Membership, Role, TableSession
from tests.browser.steps import Taps, chip, chip_text, open_phone, signed_value

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七"]
PASSWORD = "mahjong-2026-chengdu"
EXPECTED = {"张三": -12, "李四": -9, "王五": 7, "赵六": 4, "钱七": 10}


def tap_tiles(picker, tiles: str) -> None:
    """Tap each tile of compact notation ("123m44p") on the picker's palette."""
    for digits, suit in re.findall(r"(\d+)([mps])", tiles):
        for d in digits:
            picker.locator(f'.tp-palette [data-tile="{d}{suit}"]').click()


def page_totals(page) -> dict[str, int]:
    """The seats' and bettors' totals as the table page shows them, by name: each total's
    ``data-value`` (a plain integer), which its text shows signed (+5, −3, 0)."""
    out = {}
    for li in page.locator("ol.seat-grid li.seat-card").all():
        out[li.locator(".name").inner_text()] = signed_value(li.locator(".total"))
    for li in page.locator("ul.bettors li").all():
        out[li.locator(".name").inner_text()] = signed_value(li.locator(".num"))
    return out


def api_totals(page, session_id: int) -> dict[str, int]:
    """``GET /api/v1/sessions/<id>/`` with the page's own session cookie."""
    answer = page.request.get(f"{page.base_url}/api/v1/sessions/{session_id}/")
    assert answer.status == 200
    totals = answer.json()["totals"]
    return {t["name"]: t["total"] for t in totals["players"] + totals["bettors"]}


def test_a_club_evening_from_sign_up_to_settling_up(phone, browser, shots):
    # --- the organiser, on his phone -------------------------------------------------------
    org = phone
    org.goto(org.base_url + "/")
    shots(org, "home")
    org.get_by_role("link", name="注册").first.click()
    org.get_by_label("用户名").fill("laozhang")
    org.get_by_label("密码", exact=True).fill(PASSWORD)
    org.get_by_label("密码确认").fill(PASSWORD)
    shots(org, "sign up")
    org.get_by_role("button", name="创建账号").click()
    assert "laozhang" in org.locator(".site-header").inner_text()
    shots(org, "signed up")

    org.get_by_role("link", name="创建俱乐部").first.click()
    org.get_by_label("俱乐部名称").fill("成都茶馆")
    org.get_by_text("仅限会员").click()
    shots(org, "create the club")
    org.get_by_role("button", name="创建俱乐部").click()
    org.wait_for_url(re.compile(r"/clubs/cheng-du-cha-guan/$"))
    club = Club.objects.get(slug="cheng-du-cha-guan")
    assert (club.ruleset.preset, club.base, club.visibility) == ("qq", 1, "members")
    shots(org, "club page")

    org.get_by_role("link", name="牌友").click()
    for name in PLAYERS:
        org.get_by_label("名字", exact=True).fill(name)
        org.get_by_role("button", name="添加").click()
        assert f"{name} 已加入俱乐部" in org.locator(".messages").inner_text()
    assert org.locator(".list.players li").count() == 5 + 1  # and the organiser himself
    shots(org, "players added")

    org.get_by_role("link", name="成都茶馆").first.click()
    org.get_by_role("link", name="会员与角色").click()
    org.locator("#invite").get_by_label("角色").select_option("scorer")
    org.get_by_role("button", name="生成邀请").click()
    card = org.locator(".link-card")
    assert "邀请：记分员" in card.inner_text()
    assert card.locator("svg.qr-code").is_visible()
    link = card.locator(".link-url a").get_attribute("href")
    shots(org, "invitation")

    # --- the scorer, on his own phone ------------------------------------------------------
    context, page = open_phone(browser, org.base_url)
    try:
        page.goto(link)
        assert page.locator("h1").inner_text() == "加入成都茶馆"
        shots(page, "scorer opens the link")
        page.get_by_label("用户名").fill("xiaoli")
        page.get_by_label("密码", exact=True).fill("tiles-and-tea-77")
        page.get_by_label("密码确认").fill("tiles-and-tea-77")
        page.get_by_role("button", name="创建账号并加入").click()
        assert page.locator("h1").inner_text() == "成都茶馆"
        assert Membership.objects.get(player__user__username="xiaoli").role == Role.SCORER
        shots(page, "scorer joined")

        # open a table: four players in seat order and 钱七 betting
        page.get_by_role("link", name="开桌").click()
        for n, name in enumerate(PLAYERS[:4]):
            page.locator(f"#id_seat_{n}").select_option(label=name)
        page.get_by_text("叫马（可选）").click()
        page.locator("#id_bettor_player_0").select_option(label="钱七")
        shots(page, "open a table")
        page.get_by_role("button", name="开桌").click()
        session = TableSession.objects.get(club=club)
        page.wait_for_url(re.compile(rf"/sessions/{session.pk}/$"))
        assert session.mode == "xuezhan"
        assert [s.player.name for s in session.seats.order_by("number")] == PLAYERS[:4]
        shots(page, "the table")

        # hand 1, declared (see the module's docstring), every tap counted
        tap = Taps()
        tap(chip(page, "dealer", "0"))
        w1 = page.locator("#winner-1")
        tap(chip(w1, "w1_seat", "1"))
        tap(chip(w1, "w1_from", "0"))
        tap(chip_text(w1, "清一色"))
        # no winning tile: a declared win needs none (RULES §6)
        w2 = page.locator("#winner-2")
        tap(w2.locator("> summary"))
        tap(chip(w2, "w2_seat", "2"))
        tap(chip(w2, "w2_from", "0"))
        tap(w2.locator('label.chip:has(input[name="w2_with"])'))
        tap(chip_text(w2, "对对胡"))
        kongs = page.locator("#kongs")
        tap(kongs.locator("> summary"))
        tap(chip(kongs, "k1_seat", "3"))
        tap(chip(kongs, "k1_kind", "concealed"))
        tap(chip(kongs, "k1_rank", "5"))
        tap(chip(kongs, "k1_suit", "m"))
        draw = page.locator("#draw")
        tap(draw.locator("> summary"))
        tap(chip(draw, "d0_state", "not_ready"))
        tap(chip(draw, "d3_state", "ready"))
        tap.select(draw.locator('select[name="d3_pattern"]'), "pinghu")
        tap.select(draw.locator('select[name="d3_roots"]'), "1")
        bettors = page.locator("#bettors")
        tap(chip(bettors, "b0_rank", "2"))  # 钱七's tile, 2条: a rank and a suit
        tap(chip(bettors, "b0_suit", "s"))
        shots(page, "declared hand filled in")
        tap(page.get_by_role("button", name="保存本局"))
        page.wait_for_url("**saved=1**")
        print(f"\ntaps for the declared hand (kong, 一炮多响, draw, 叫马): {tap.count}")
        shots(page, "declared hand saved")
        hand1 = Hand.objects.get(session=session, number=1)
        assert hand1.settlement["verified"] is False
        assert page_totals(page) == {"张三": -14, "李四": 2, "王五": 0, "赵六": 10, "钱七": 2}
        assert page_totals(page) == api_totals(page, session.pk)
        saved = page.locator("#saved").inner_text()
        assert "清一色" in saved and "对对胡" in saved

        # hand 2, shown: every tile tapped on the picker of its winner
        tap(chip(page, "dealer", "1"))
        w1 = page.locator("#winner-1")
        chip(w1, "w1_seat", "2").click()
        chip(w1, "w1_from", "1").click()
        w1.locator("details.tiles > summary").click()
        tap_tiles(w1.locator("[data-tile-picker]"), "123m456m789m11p23p4p")
        w2 = page.locator("#winner-2")
        w2.locator("> summary").click()
        chip(w2, "w2_seat", "0").click()
        chip(w2, "w2_from", "self").click()
        w2.locator("details.tiles > summary").click()
        picker2 = w2.locator("[data-tile-picker]")
        tap_tiles(picker2, "123s456s789s234s5s5s")
        picker2.locator(".tp-result[data-kind=win]").wait_for()
        assert "清一色" in picker2.locator(".tp-result").inner_text()
        w3 = page.locator("#winner-3")
        w3.locator("> summary").click()
        chip(w3, "w3_seat", "3").click()
        chip(w3, "w3_from", "1").click()
        w3.locator("details.tiles > summary").click()
        tap_tiles(w3.locator("[data-tile-picker]"), "222p555p777p999p3m3m")
        assert page.locator('input[name="w1_tiles"]').input_value() == "123456789m1123p"
        assert page.locator('input[name="w1_tile"]').input_value() == "4p"
        assert page.locator('input[name="w3_tile"]').input_value() == "3m"
        chip(page, "b0_rank", "4").click()
        chip(page, "b0_suit", "s").click()
        w2.screenshot(path=str(shots.folder / "winner-2-tiles-tapped.png"))
        shots(page, "shown hand tapped")
        page.get_by_role("button", name="保存本局").click()
        page.wait_for_url("**saved=2**")
        shots(page, "shown hand saved")
        hand2 = Hand.objects.get(session=session, number=2)
        assert hand2.settlement["verified"] is True
        assert page_totals(page) == {"张三": -6, "李四": -9, "王五": 1, "赵六": 4, "钱七": 10}
        assert page_totals(page) == api_totals(page, session.pk)

        # correct hand 1: 王五's 对对胡 was a 清对
        page.locator("table.liushui tbody").get_by_role("link", name="1", exact=True).click()
        page.wait_for_url(f"**/sessions/{session.pk}/hands/1/")
        shots(page, "hand 1")
        page.get_by_role("link", name="更正本局").click()
        chip_text(page.locator("#winner-2"), "清对").click()
        page.get_by_label("更正原因").fill("王五是清对")
        shots(page, "correcting hand 1")
        page.get_by_role("button", name="保存更正").click()
        page.wait_for_url(f"**/sessions/{session.pk}/hands/1/")
        assert "王五是清对" in page.locator(".history").inner_text()
        shots(page, "hand 1 corrected")

        # close the table
        page.get_by_role("link", name="返回本桌").click()
        page.get_by_role("button", name="结束本桌").click()
        assert page.locator(".badge.closed").count() == 1
        shots(page, "table closed")
        assert page_totals(page) == EXPECTED
        assert page_totals(page) == api_totals(page, session.pk)
        assert TableSession.objects.get(pk=session.pk).status == TableSession.Status.CLOSED

        # the evening's 结算, from the club page
        page.goto(f"{page.base_url}/clubs/{club.slug}/")
        page.get_by_role("link", name="今日结算").click()
        shots(page, "evening")
        nets = {}
        for row in page.locator("table.nets tbody tr").all():
            cells = row.locator("td").all_inner_texts()
            name = re.sub(r"\s*(客人)?$", "", cells[0])
            nets[name] = int(cells[2].replace("+", "").replace("−", "-"))
        assert nets == EXPECTED
        transfers = page.locator(".transfers li").all_inner_texts()
        assert len(transfers) == 4
        balance = dict.fromkeys(EXPECTED, 0)
        for line in transfers:
            payer, payee, amount = re.fullmatch(r"(\S+) 付 (\S+) (\d+) 分", line).groups()
            balance[payer] -= int(amount)
            balance[payee] += int(amount)
        assert balance == EXPECTED
    except Exception:
        shots(page, "failed here")  # the page the test stopped on, to look at
        raise
    finally:
        context.close()
