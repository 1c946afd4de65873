"""A whole tournament day on pages only — no API call, no admin — from the scorekeeper's phone
(390×844, in Chinese: setting up, entries, check-in, rounds 1–3) and then his laptop (1280×800,
in English: round 4, the final, the reveal and the report).

- 18 entries: twelve players of the club, three guests typed in, three from a CSV pasted from a
  spreadsheet, where 王维 reads like the club's 王伟 (wangwei): flagged, decided "a new person".
- 17 checked in (周杰 does not come): each round four tables and one bye.
- 5 rounds, 普通 (one win a hand), two hands a table; the approve gate; the last round hidden
  from the players until revealed; the top four play round 5 as the final at table 1 (points
  carried over), the others a consolation round.
- Round 2: a player of table 2 is absent; 替补小王 plays for him (the result counts for him).
- Round 3: table 1 records its two hands on a phone without a login, opened from its printed
  table card; it is approved, then its first two seats are repaired (swapped): the table needs
  approving again.
- Round 4: table 1 is disputed, resolved by the referee, then approved; a penalty for the
  leader, then its revocation.
After every step the standings page (the director's, and the public one while hidden) shows
the ranks and placement points the API answers. A screenshot of each step is in
``tests/artifacts/``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Role, Seat
from clubs.services.clubs import club_create
from tests.browser.test_tournament_day import page_cookies
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.helpers import client_for
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["张三", "李四", "王五", "王伟", "欧阳娜娜", "赵敏", "钱多多", "孙悟", "周芷若", "吴用",
           "郑义", "冯远"]  # fmt: skip
GUESTS = ["Alexander Li", "曾小明", "黄蓉"]
CSV_ROWS = "姓名,俱乐部,种子分\n王维,重庆麻协,1600\n刘洋,,\n周杰,,\n"
ABSENT_ALL_DAY = "周杰"
SLUG = "chun-ji-bei"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TOTALS = [30, 10, -10, -30]  # every table entered by totals, in seat order

STANDINGS_JS = """() => {
  const heads = [...document.querySelectorAll('table.standings thead th')];
  const at = heads.findIndex(th => th.classList.contains('tb-placement_points'));
  return [...document.querySelectorAll('table.standings tbody tr')].map(tr =>
    [Number(tr.dataset.player), parseInt(tr.querySelector('td.rank').textContent),
     tr.children[at].textContent.trim()]);
}"""


def _club():
    owner = get_user_model().objects.create_user("director", password="mahjong-2026-chengdu")
    club = club_create(name="成都茶馆", slug="teahouse", user=owner)
    for name in MEMBERS:
        MembershipFactory(club=club, player=PlayerFactory(name=name), role=Role.MEMBER)
    return owner, club


def _open(browser, viewport, locale):
    context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1)
    context.set_default_timeout(20_000)
    return context, context.new_page()


def _api(user) -> tuple[list, int | None]:
    body = client_for(user).get(f"/api/v1/tournaments/{SLUG}/standings/").json()
    rows = [[r["player"], r["rank"], r["placement_points"]] for r in body["standings"]]
    return rows, body["hidden_after"]


def _same_as_api(page, user, live_server) -> list:
    """The standings page (as ``user`` sees it) shows what the API answers ``user``."""
    page.goto(f"{live_server.url}/tournaments/{SLUG}/standings/")
    shown = page.evaluate(STANDINGS_JS)
    api, _ = _api(user)
    assert shown == api
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    return shown


def _desk(page, live_server) -> None:
    page.goto(f"{live_server.url}/tournaments/{SLUG}/desk/")


def _seat(page, live_server, number: int, label: str) -> int:
    _desk(page, live_server)
    page.get_by_role("button", name=label).click()
    page.wait_for_load_state()
    round_ = Round.objects.get(tournament__slug=SLUG, number=number)
    assert round_.status == Round.Status.SEATED, round_.task.error
    return page.locator(".desk-table").count()


def _enter(page, number: int, save: str) -> None:
    table = page.locator(f"#table-{number}")
    for n, value in enumerate(TOTALS):
        table.locator(f"input[name='t{number}-total_{n}']").fill(str(value))
    table.get_by_role("button", name=save).click()
    page.wait_for_load_state()


def _approve(page, number: int) -> None:
    page.locator(f"#table-{number} form.approve button").click()
    page.wait_for_load_state()


def test_a_whole_tournament_day_on_pages(browser, live_server, shots, in_process_tasks):
    owner, club = _club()
    context, page = _open(browser, PHONE, "zh-CN")
    page.goto(f"{live_server.url}/login/?next=/clubs/teahouse/")
    page.get_by_label("用户名").fill("director")
    page.get_by_label("密码").fill("mahjong-2026-chengdu")
    page.get_by_role("button", name="登录").click()
    page.wait_for_url("**/clubs/teahouse/")

    # 1. the tournament, from the club page
    page.get_by_role("link", name="新比赛").click()
    page.get_by_label("比赛名称").fill("春季杯")
    page.locator("label.choice:has(input[name=mode][value=single])").click()
    page.get_by_label("轮数", exact=True).fill("5")
    page.get_by_label("每桌每轮局数").fill("2")
    page.locator("#id_hide_last_rounds").fill("1")
    page.locator("#id_finals_players").select_option("4")
    page.locator("#id_approve_gate").check()
    page.locator("#id_check_in").check()
    shots(page, "1 new tournament, finals and the approve gate")
    page.get_by_role("button", name="创建比赛").click()
    page.wait_for_url(f"**/tournaments/{SLUG}/entries/")
    t = Tournament.objects.get(slug=SLUG)
    assert (t.rounds, t.hands_per_table, t.mode, t.finals_players, t.first_final_round) == (
        5, 2, "single", 4, 5,
    )  # fmt: skip
    assert t.approve_gate and t.check_in and t.hide_last_rounds == 1 and t.consolation

    # 2. fifteen entries by hand: the club's players, then three guests
    for name in MEMBERS:
        page.locator("#id_player").select_option(label=name)
        page.get_by_role("button", name="报名", exact=True).click()
        page.wait_for_load_state()
    for name in GUESTS:
        page.get_by_label("或客人的名字").fill(name)
        page.get_by_role("button", name="报名", exact=True).click()
        page.wait_for_load_state()
    assert t.registrations.count() == 15

    # 3. three from a file: 王维 is flagged (read like the club's 王伟) and decided
    page.get_by_role("link", name="从文件批量报名（CSV）").click()
    page.locator("#csv-text").fill(CSV_ROWS)
    page.get_by_role("button", name="核对名单").click()
    page.wait_for_load_state()
    flagged = page.locator("tr.flagged")
    assert flagged.count() == 1 and "王伟" in flagged.inner_text()
    assert "1 行等待您决定" in page.content()
    shots(page, "3 entries from a file, a duplicate flagged")
    page.get_by_role("button", name="为这些选手报名").click()  # undecided: refused
    page.wait_for_load_state()
    assert "请逐一决定标出的行" in page.content() and t.registrations.count() == 15
    page.locator("#d-2").select_option("new")
    page.get_by_role("button", name="为这些选手报名").click()
    page.wait_for_url(f"**/tournaments/{SLUG}/entries/")
    assert "18 人报名" in page.locator("#entered").inner_text()
    assert "重庆麻协" in page.content()
    shots(page, "3 eighteen entries")

    # 4. check-in: everyone but 周杰
    page.goto(f"{live_server.url}/tournaments/{SLUG}/check-in/")
    for name in [*MEMBERS, *GUESTS, "王维", "刘洋"]:
        page.locator("#check-in-list li", has_text=name).first.get_by_role(
            "button", name="签到"
        ).click()
        page.wait_for_load_state()
    assert "18 人中已签到 17 人" in page.locator("#check-in").inner_text()
    shots(page, "4 seventeen checked in")

    # 5. round 1: four tables and a bye, each table entered and approved
    assert _seat(page, live_server, 1, "排第 1 轮座位") == 4
    assert page.locator("text=轮空").count() >= 1 and ABSENT_ALL_DAY not in page.content()
    assert "本轮有 0 对选手再次相遇" in page.content()
    _enter(page, 1, "保存总分")
    assert "待审核" in page.locator("#table-1").inner_text()
    _same_as_api(page, owner, live_server)
    assert page.locator("table.standings tbody tr").count() == 18
    _desk(page, live_server)
    _approve(page, 1)
    for n in (2, 3, 4):
        _enter(page, n, "保存总分")
        _approve(page, n)
    shots(page, "5 round 1 entered and approved")
    _same_as_api(page, owner, live_server)
    shots(page, "5 standings after round 1")

    # 6. round 2: a player of table 2 is absent; 替补小王 plays his seat
    _seat(page, live_server, 2, "排第 2 轮座位")
    page.locator("#table-2").get_by_role("link", name="替补").click()
    absent = page.locator("input[name=absent]").first.get_attribute("value")
    page.locator("label.choice:has(input[name=absent])").first.click()
    page.locator("#id_name").fill("替补小王")
    page.locator("#id_reason").fill("堵车")
    shots(page, "6 a substitute")
    page.get_by_role("button", name="安排替补上场").click()
    page.wait_for_url(f"**/tournaments/{SLUG}/desk/")
    assert "替补小王 替" in page.locator("#table-2").inner_text()
    for n in (1, 2, 3, 4):
        _enter(page, n, "保存总分")
        _approve(page, n)
    shown = _same_as_api(page, owner, live_server)
    # the substitute's table counts for the registered player; the substitute is not ranked
    assert int(absent) in [p for p, _, _ in shown] and len(shown) == 18
    shots(page, "6 standings after round 2")

    # 7. round 3: table 1 records its two hands from its table card (a phone, no login), is
    # approved, then its seats are repaired
    _seat(page, live_server, 3, "排第 3 轮座位")
    page.get_by_role("link", name="打印桌卡（二维码）").click()
    assert page.locator(".table-card").count() == 4
    shots(page, "7 table cards to print")
    card_url = page.locator(".table-card .slip-url").first.inner_text()
    seats = list(Seat.objects.filter(session__tournament_table__round__number=3,
                                     session__tournament_table__number=1,
                                     session__tournament_table__round__tournament=t)
                 .order_by("number").select_related("player"))  # fmt: skip
    table_phone, at_table = _open(browser, PHONE, "zh-CN")
    at_table.goto(card_url)
    w1 = at_table.locator("#winner-1")
    at_table.locator('label.chip:has(input[name="dealer"][value="0"])').click()
    w1.locator("label.chip", has_text=seats[1].player.name).first.click()
    w1.locator("label.chip", has_text="自摸").first.click()
    w1.locator("label.chip", has_text="清一色").first.click()
    at_table.get_by_role("button", name="保存本局").click()
    at_table.wait_for_url("**saved=1**")
    w1 = at_table.locator("#winner-1")
    w1.locator("label.chip", has_text=seats[2].player.name).first.click()
    w1.locator("label.chip", has_text="自摸").first.click()
    w1.locator("label.chip", has_text="平胡").first.click()
    at_table.get_by_role("button", name="保存本局").click()
    at_table.wait_for_url("**saved=2**")
    shots(at_table, "7 two hands at table 1, from its card")
    table_phone.close()

    _desk(page, live_server)
    _approve(page, 1)
    page.locator("#table-1").get_by_role("link", name="更正座位").click()
    page.locator("label.choice:has(input[name=how])").first.click()
    page.locator("#id_reason").fill("东南两家坐反了")
    page.get_by_role("button", name="更正座位").click()
    page.wait_for_load_state()
    _desk(page, live_server)
    assert "待审核" in page.locator("#table-1").inner_text()  # changed since it was approved
    shots(page, "7 repaired: to approve again")
    _approve(page, 1)
    for n in (2, 3, 4):
        _enter(page, n, "保存总分")
        _approve(page, n)
    _same_as_api(page, owner, live_server)
    shots(page, "7 standings after round 3")
    context.close()

    # --- the laptop, in English ---
    context, page = _open(browser, LAPTOP, "en-GB")
    context.add_cookies(page_cookies(live_server, owner))

    # 8. round 4, a penalty for the leader and its revocation
    _seat(page, live_server, 4, "Seat round 4")
    _enter(page, 1, "Save the totals")
    # table 1 disputes its result: marked for the referee, approved only once resolved
    table = page.locator("#table-1")
    table.locator("details.dispute > summary").click()
    table.get_by_placeholder("What is disputed").fill("South says he did not 点炮")
    table.get_by_role("button", name="Mark disputed").click()
    page.wait_for_load_state()
    assert page.locator("#table-1 form.approve").count() == 0
    assert "Disputed" in page.locator("#table-1").inner_text()
    shots(page, "8 a disputed table")
    page.locator("#table-1").get_by_placeholder("How it was resolved").fill("witnesses agree")
    page.locator("#table-1").get_by_role("button", name="Resolve").click()
    page.wait_for_load_state()
    _approve(page, 1)
    for n in (2, 3, 4):
        _enter(page, n, "Save the totals")
        _approve(page, n)
    leader = _same_as_api(page, owner, live_server)[0][0]
    page.goto(f"{live_server.url}/tournaments/{SLUG}/penalties/")
    page.locator("#id_player").select_option(str(leader))
    page.get_by_label("Placement points taken off").fill("20")
    page.get_by_label("Late").check()
    page.get_by_role("button", name="Give the penalty").click()
    page.wait_for_load_state()
    shots(page, "8 a penalty")
    after = _same_as_api(page, owner, live_server)
    assert after[0][0] != leader and "Penalty" in page.locator("table.standings thead").inner_text()
    shots(page, "8 standings with the penalty")
    page.goto(f"{live_server.url}/tournaments/{SLUG}/penalties/")
    page.get_by_placeholder("Why it is revoked").fill("the bus was late")
    page.get_by_role("button", name="Revoke").click()
    page.wait_for_load_state()
    assert _same_as_api(page, owner, live_server)[0][0] == leader

    # 9. the final: the top four at table 1, the rest in the consolation round
    top4 = [p for p, _, _ in _api(owner)[0][:4]]
    _seat(page, live_server, 5, "Seat round 5")
    final = Seat.objects.filter(session__tournament_table__round__tournament=t,
                                session__tournament_table__round__number=5,
                                session__tournament_table__number=1)  # fmt: skip
    assert sorted(final.values_list("player_id", flat=True)) == sorted(top4)
    assert "Final" in page.locator("#table-1").inner_text()
    shots(page, "9 the final seated")
    for n in range(1, page.locator(".desk-table").count() + 1):
        _enter(page, n, "Save the totals")
        _approve(page, n)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED
    director = _same_as_api(page, owner, live_server)
    assert {p for p, _, _ in director[:4]} == set(top4)  # the finalists rank first
    assert "Finals" in page.locator("table.standings thead").inner_text()

    # the players see the standings as after round 4 until they are revealed
    anonymous, public = _open(browser, LAPTOP, "en-GB")
    public.goto(f"{live_server.url}/tournaments/{SLUG}/standings/")
    assert "Hidden until the final." in public.content()
    rows, hidden_after = _api(None)
    assert hidden_after == 4 and public.evaluate(STANDINGS_JS) == rows
    shots(public, "9 hidden before the reveal")

    # 10. revealed at the prize-giving: everyone sees the final
    page.goto(f"{live_server.url}/tournaments/{SLUG}/standings/")
    page.get_by_role("button", name="Reveal the standings").click()
    page.wait_for_load_state()
    revealed = _same_as_api(public, None, live_server)
    assert revealed == director and "Hidden" not in public.content()
    shots(public, "10 the final standings")
    anonymous.close()

    # the report: standings, every round, byes, the substitute, the repair, the penalty
    page.goto(f"{live_server.url}/tournaments/{SLUG}/report/")
    text = page.content()
    assert "替补小王 played for" in text and "堵车" in text
    assert "seats repaired by director" in text and "东南两家坐反了" in text
    assert "the bus was late" in text and page.locator(".report-round").count() == 5
    assert text.count("Byes") >= 5
    shots(page, "10 the report")
    csv = page.request.get(f"{live_server.url}/tournaments/{SLUG}/report/?format=csv").text()
    assert "substitute_for" in csv.splitlines()[0] and "替补小王" in csv
    context.close()
