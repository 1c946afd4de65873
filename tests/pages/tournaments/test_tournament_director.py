"""The scorekeeper's tournament pages with Django's test client: a new tournament from the club
page, its entries, and the round desk (seat a round, enter each table's totals).

Every write goes through the page's form only; what it stored is read back from the models and
the API. The numbers of the round are worked by hand: one table, the totals +30, +10, −10, −30
in seat order (东 南 西 北) under placement points 8/4/2/0 give the players at 东, 南, 西, 北
8, 4, 2 and 0 points, in that order of the standings.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.test import Client

from clubs.models import Club, Role
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import client_for, member_login
from tournaments import selectors, services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(db) -> Club:
    return ClubFactory(slug="host", name="Host club", base=1)


@pytest.fixture
def director(host):
    return member_login(host, Role.ORGANISER, "director")


@pytest.fixture
def browser(director) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    return client


FORM = {
    "name": "春季杯",
    "slug": "",
    "is_public": "1",
    "ruleset": "",
    "base": "2",
    "mode": "single",
    "rounds": "2",
    "hands_per_table": "4",
    "placement_points": "8 4 2 0",
    "seating": "random",
    "seed": "7",
}


def errors_of(response) -> str:
    return " ".join(re.findall(r'class="error[s]?"[^>]*>(.*?)</', response.content.decode(), re.S))


# --- a new tournament ----------------------------------------------------------------------------


def test_the_club_page_offers_a_new_tournament_to_its_organisers_only(host, browser):
    assert "/clubs/host/tournaments/new/" in browser.get("/clubs/host/").content.decode()
    scorer = Client()
    scorer.force_login(member_login(host, Role.SCORER))
    assert "/clubs/host/tournaments/new/" not in scorer.get("/clubs/host/").content.decode()


def test_a_new_tournament_from_the_page(host, browser):
    page = browser.get("/clubs/host/tournaments/new/")
    assert page.status_code == 200
    answer = browser.post("/clubs/host/tournaments/new/", FORM)
    # the address is made from the name's pinyin: 春季杯 → chun-ji-bei
    assert answer.status_code == 302, errors_of(answer)
    assert answer["Location"] == "/tournaments/chun-ji-bei/entries/"
    t = Tournament.objects.get(slug="chun-ji-bei")
    assert (t.name, t.club, t.hosted, t.is_public) == ("春季杯", host, True, True)
    assert t.ruleset == host.ruleset  # the club's rules, pinned for the tournament
    assert (t.base, t.mode, t.rounds, t.hands_per_table) == (2, "single", 2, 4)
    assert (t.placement_points, t.seating, t.seed) == ([8, 4, 2, 0], "random", 7)
    assert t.status == Tournament.Status.REGISTRATION

    # a second one of the same name gets the next free address
    assert browser.post("/clubs/host/tournaments/new/", FORM)["Location"] == (
        "/tournaments/chun-ji-bei-2/entries/"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"placement_points": "1 2 3 4"}, "none above the one before"),
        ({"placement_points": "8 4 2"}, "none above the one before"),
        ({"rounds": "0"}, "greater than or equal to 1"),
        ({"name": ""}, "This field is required"),
        ({"name": "A\x0bB"}, ""),  # a control character: the readable 400 page
    ],
)
def test_a_refused_tournament_says_why_and_stores_nothing(browser, change, said):
    answer = browser.post("/clubs/host/tournaments/new/", {**FORM, **change})
    assert answer.status_code in (200, 400)
    assert said in answer.content.decode()
    assert not Tournament.objects.exists()


def test_an_address_taken_is_refused_in_words(host, browser, director):
    services.tournament_create(name="Cup", slug="cup", user=director, club=host, rounds=1)
    answer = browser.post("/clubs/host/tournaments/new/", {**FORM, "slug": "cup"})
    assert answer.status_code == 200
    assert "This address is taken" in errors_of(answer)
    assert Tournament.objects.count() == 1


def test_the_new_tournament_page_speaks_chinese(host, director):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(director)
    text = client.get("/clubs/host/tournaments/new/").content.decode()
    assert "新比赛" in text and "名次分" in text


# --- entries -------------------------------------------------------------------------------------


@pytest.fixture
def cup(host, director) -> Tournament:
    return services.tournament_create(
        name="Cup", slug="cup", user=director, club=host, rounds=2, hands_per_table=4,
        placement_points=[8, 4, 2, 0],
    )  # fmt: skip


def entered(cup) -> list[tuple[str, str]]:
    return sorted(cup.registrations.values_list("player__name", "status"))


def test_entries_of_the_club_and_guests(host, cup, browser):
    zhang = MembershipFactory(club=host, player=PlayerFactory(name="张三")).player
    url = "/tournaments/cup/entries/"
    assert browser.post(url, {"player": zhang.pk}).status_code == 302
    assert browser.post(url, {"name": "Guest One"}).status_code == 302
    assert entered(cup) == [("Guest One", "active"), ("张三", "active")]

    # a guest named as a player who exists is not taken for a new person unasked
    same = browser.post(url, {"name": "张三"})
    assert same.status_code == 200
    assert "A player of this name exists" in errors_of(same)
    assert browser.post(url, {"name": "张三", "new_player": "on"}).status_code == 302
    assert entered(cup) == [("Guest One", "active"), ("张三", "active"), ("张三", "active")]

    both = browser.post(url, {"player": zhang.pk, "name": "Someone"})
    assert "one of the two" in errors_of(both)
    again = browser.post(url, {"player": zhang.pk})
    assert "already entered" in errors_of(again)
    assert cup.registrations.count() == 3

    guest = cup.registrations.get(player__name="Guest One").player_id
    browser.post(f"{url}{guest}/", {"action": "withdraw"})
    assert ("Guest One", "withdrawn") in entered(cup)
    browser.post(f"{url}{guest}/", {"action": "return"})
    assert ("Guest One", "active") in entered(cup)
    browser.post(f"{url}{guest}/", {"action": "remove"})
    assert [n for n, _ in entered(cup)] == ["张三", "张三"]
    page = browser.get(url).content.decode()
    assert "2 entries" in page and "张三" in page


# --- the round desk ------------------------------------------------------------------------------


@pytest.fixture
def four(cup):
    for name in ("A", "B", "C", "D"):
        services.registration_create(tournament=cup, name=name)
    return cup


def seat_round(browser, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post("/tournaments/cup/desk/seat/")
    assert answer.status_code == 302


def totals(table_number: int, values: list[int]) -> dict[str, str]:
    form = {"table": str(table_number)}
    form.update({f"t{table_number}-total_{n}": str(v) for n, v in enumerate(values)})
    return form


def test_a_round_seated_and_entered_on_the_desk(
    four, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "Seat round 1" in desk
    seat_round(browser, django_capture_on_commit_callbacks)
    round_ = four.round_set.get()
    assert round_.status == Round.Status.SEATED
    seats = list(round_.tables.get().session.seats.select_related("player").order_by("number"))
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "Table 1" in desk and all(s.player.name in desk for s in seats)
    assert "Seat round 2" not in desk  # not before every table has its totals

    # totals that do not sum to zero are refused in words; nothing is stored
    refused = browser.post("/tournaments/cup/desk/", totals(1, [30, 10, -10, -20]))
    assert refused.status_code == 200
    assert "do not add up to zero" in errors_of(refused)
    assert not round_.tables.get().session.results.exists()

    with django_capture_on_commit_callbacks(execute=True):
        saved = browser.post("/tournaments/cup/desk/", totals(1, [30, 10, -10, -30]))
    assert saved.status_code == 302
    # 8/4/2/0 by place: 东 +30 first, 南 +10 second, 西 −10 third, 北 −30 fourth
    api = client_for(member_login(four.club, Role.MEMBER)).get("/api/v1/tournaments/cup/standings/")
    rows = [(r["player"], Fraction(r["placement_points"])) for r in api.json()["standings"]]
    assert rows == [(s.player_id, Fraction(p)) for s, p in zip(seats, [8, 4, 2, 0], strict=True)]
    standings = selectors.latest_standings(four)
    assert [r.player for r in standings.rows] == [s.player_id for s in seats]

    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "1 of 1 tables have their totals" in desk and "Seat round 2" in desk


def test_a_scorer_enters_totals_but_does_not_seat(
    four, host, in_process_tasks, browser, django_capture_on_commit_callbacks
):
    seat_round(browser, django_capture_on_commit_callbacks)
    scorer = Client(HTTP_ACCEPT_LANGUAGE="en")
    scorer.force_login(member_login(host, Role.SCORER))
    desk = scorer.get("/tournaments/cup/desk/").content.decode()
    assert "Save the totals" in desk and "Seat round" not in desk
    assert scorer.post("/tournaments/cup/desk/seat/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer.post("/tournaments/cup/desk/", totals(1, [5, 5, -5, -5])).status_code == 302
    assert four.round_set.count() == 1


def test_seating_too_few_players_is_refused_in_words(cup, browser, host):
    services.registration_create(tournament=cup, name="Alone")
    answer = browser.post("/tournaments/cup/desk/seat/", follow=True)
    assert "at least four players" in answer.content.decode()
    assert not cup.round_set.exists()


def test_an_entry_that_has_played_is_withdrawn_not_removed(
    four, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    seat_round(browser, django_capture_on_commit_callbacks)
    a = four.registrations.get(player__name="A")
    page = browser.get("/tournaments/cup/entries/").content.decode()
    assert 'value="remove"' not in page
    answer = browser.post(f"/tournaments/cup/entries/{a.player_id}/", {"action": "remove"},
                          follow=True)  # fmt: skip
    assert "withdraw him instead" in answer.content.decode()
    assert Registration.objects.filter(pk=a.pk).exists()


# --- check-in ------------------------------------------------------------------------------------


@pytest.fixture
def checking(host, director) -> Tournament:
    t = services.tournament_create(
        name="Cup", slug="cup", user=director, club=host, rounds=2, check_in=True
    )
    for name in ("A", "B", "C", "D", "E", "F"):
        services.registration_create(tournament=t, name=name)
    return t


def tick(browser, t, name: str, here: bool = True):
    player = t.registrations.get(player__name=name).player_id
    return browser.post(
        "/tournaments/cup/check-in/", {"player": player, "here": "1" if here else "0"}
    )


def test_a_round_seats_only_the_players_checked_in(
    checking, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    page = browser.get("/tournaments/cup/check-in/").content.decode()
    assert "0 of 6 checked in" in page
    for name in ("A", "B", "C"):
        assert tick(browser, checking, name).status_code == 302
    # three here: too few for a table, said in words, nothing seated
    refused = browser.post("/tournaments/cup/desk/seat/", follow=True).content.decode()
    assert "at least four players" in refused and not checking.round_set.exists()

    tick(browser, checking, "E")
    tick(browser, checking, "F")
    tick(browser, checking, "F", here=False)  # ticked by mistake, unticked
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "4 of 6 checked in" in desk
    seat_round(browser, django_capture_on_commit_callbacks)
    seated = checking.round_set.get().tables.get().session.seats.values_list("player__name")
    assert sorted(n for (n,) in seated) == ["A", "B", "C", "E"]  # D and F are not here
    assert checking.round_set.get().byes == []


def test_check_in_over_the_api(checking, director, host):
    """The door's scorer ticks check-in, and nothing else of an entry."""
    scorer = client_for(member_login(host, Role.SCORER))
    b = checking.registrations.get(player__name="B").player_id
    url = f"/api/v1/tournaments/cup/players/{b}/"
    answer = scorer.patch(url, {"checked_in": True}, format="json")
    assert answer.status_code == 200 and answer.json()["checked_in"] is True
    withdraw = scorer.patch(url, {"checked_in": False, "status": "withdrawn"}, format="json")
    assert withdraw.status_code == 403
    assert checking.registrations.get(player_id=b).status == "active"
    assert client_for(director).get("/api/v1/tournaments/cup/").json()["check_in"] is True


def test_the_check_in_page_speaks_chinese(checking, director):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(director)
    text = client.get("/tournaments/cup/check-in/").content.decode()
    assert "6 人中已签到 0 人" in text and "签到" in text


@pytest.mark.parametrize("player", ["", "abc", "-1", "99999999999999999999", "٣"])
def test_a_check_in_of_no_entry_is_a_404(checking, browser, player):
    answer = browser.post("/tournaments/cup/check-in/", {"player": player, "here": "1"})
    assert answer.status_code == 404
    assert not checking.registrations.filter(checked_in=True).exists()


def test_the_tiebreak_chain_is_chosen_and_ordered_on_the_page(browser):
    """Table score first, then placement points, then nothing: the chain is those two."""
    chain = {"tiebreak_0": "table_score", "tiebreak_1": "placement_points", "tiebreak_2": "",
             "tiebreak_3": "", "tiebreak_4": ""}  # fmt: skip
    answer = browser.post("/clubs/host/tournaments/new/", {**FORM, **chain})
    assert answer.status_code == 302, errors_of(answer)
    assert Tournament.objects.get().tiebreaks == ["table_score", "placement_points"]
    twice = browser.post(
        "/clubs/host/tournaments/new/", {**FORM, **chain, "tiebreak_2": "table_score"}
    )
    assert "Each criterion once" in errors_of(twice)
    none = {f"tiebreak_{i}": "" for i in range(5)}
    assert "at least the first" in errors_of(browser.post("/clubs/host/tournaments/new/",
                                                          {**FORM, **none}))  # fmt: skip
    assert Tournament.objects.count() == 1


def test_an_earlier_round_is_unlocked_with_a_reason_corrected_and_locked_again(
    four, browser, director, in_process_tasks, django_capture_on_commit_callbacks
):
    seat_round(browser, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        browser.post("/tournaments/cup/desk/", totals(1, [30, 10, -10, -30]))
    seat_round(browser, django_capture_on_commit_callbacks)  # round 2 seated: round 1 locks
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "Earlier rounds" in desk and "Unlock to correct" in desk
    url = "/tournaments/cup/desk/rounds/1/lock/"
    refused = browser.post(url, {"action": "unlock", "reason": " "}, follow=True)
    assert "Say why, in a few words." in refused.content.decode()
    table = four.round_set.get(number=1).tables.get()
    table.session.refresh_from_db()
    assert table.session.lock_code == "round_locked"
    browser.post(url, {"action": "unlock", "reason": "West's total was misread"})
    table.session.refresh_from_db()
    assert table.session.lock_code == ""
    assert four.round_set.get(number=1).unlocks.get().reason == "West's total was misread"
    assert "Lock it again" in browser.get("/tournaments/cup/desk/").content.decode()
    browser.post(url, {"action": "lock"})
    table.session.refresh_from_db()
    assert table.session.lock_code == "round_locked"


# --- substitutes, seating again, entries from a file ----------------------------------------------


def test_a_substitute_on_the_page_and_undone(
    four, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    seat_round(browser, django_capture_on_commit_callbacks)
    table = four.round_set.get().tables.get()
    absent = table.session.seats.get(number=2).player
    url = "/tournaments/cup/rounds/1/tables/1/substitute/"
    page = browser.get(url).content.decode()
    assert "The registered player he replaces" in page and absent.name in page
    # one of the two: a club player or a new person's name
    assert "one of the two" in errors_of(browser.post(url, {"absent": absent.pk}))
    with django_capture_on_commit_callbacks(execute=True):
        made = browser.post(url, {"absent": absent.pk, "name": "Reserve", "reason": "ill"})
    assert made.status_code == 302
    assert table.session.seats.get(number=2).player.name == "Reserve"
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert f"Reserve plays for {absent.name}" in desk
    sub = table.substitutions.get()
    with django_capture_on_commit_callbacks(execute=True):
        assert browser.post(f"/tournaments/cup/substitutes/{sub.pk}/undo/").status_code == 302
    assert table.session.seats.get(number=2).player == absent


def test_a_round_seated_again_with_a_reason(
    four, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    seat_round(browser, django_capture_on_commit_callbacks)
    assert "Seat round 1 again" in browser.get("/tournaments/cup/desk/").content.decode()
    browser.post("/tournaments/cup/desk/reseat/", {"reason": ""})  # refused: no reason
    assert four.round_set.get().reseats == []
    with django_capture_on_commit_callbacks(execute=True):
        browser.post("/tournaments/cup/desk/reseat/", {"reason": "D left"})
    round_ = four.round_set.get()
    assert [r["reason"] for r in round_.reseats] == ["D left"] and round_.status == "seated"
    assert "Seated again: D left" in browser.get("/tournaments/cup/desk/").content.decode()


def test_entries_from_a_file_with_a_duplicate_decided(host, cup, browser):
    MembershipFactory(club=host, player=PlayerFactory(name="王伟"))
    rows = "姓名,俱乐部\n王维,成都\n刘洋,\n"
    url = "/tournaments/cup/entries/import/"
    preview = browser.post(url, {"csv": rows, "action": "preview"}).content.decode()
    assert "read alike (same pinyin) as 王伟" in preview and "1 row waits for a decision" in preview
    refused = browser.post(url, {"csv": rows, "action": "import"})
    assert refused.status_code == 200 and "Decide each flagged row" in errors_of(refused)
    assert not cup.registrations.exists()
    done = browser.post(url, {"csv": rows, "action": "import", "d-2": "new"})
    assert done.status_code == 302
    assert entered(cup) == [("刘洋", "active"), ("王维", "active")]


def test_the_new_tournament_page_sets_finals_substitutes_and_byes(host, browser):
    form = {**FORM, "rounds": "5", "finals_players": "8", "finals_rounds": "2",
            "finals_carry": "zero", "substitute_counts": "nobody", "bye_points": "2"}  # fmt: skip
    assert browser.post("/clubs/host/tournaments/new/", form).status_code == 302
    t = Tournament.objects.get()
    assert (t.finals_players, t.finals_rounds, t.finals_carry, t.consolation) == (
        8,
        2,
        False,
        False,
    )
    assert t.first_final_round == 4 and t.substitute_counts == "nobody" and t.bye_points == 2
    # a final of every round leaves no round to qualify in: refused under its field
    t.delete()
    refused = browser.post("/clubs/host/tournaments/new/", {**form, "finals_rounds": "5"})
    assert "before the finals" in errors_of(refused) and not Tournament.objects.exists()


def test_a_table_marked_disputed_on_the_desk_and_resolved(
    four, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    four.approve_gate = True
    four.save()
    seat_round(browser, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        browser.post("/tournaments/cup/desk/", totals(1, [30, 10, -10, -30]))
    browser.post("/tournaments/cup/desk/dispute/", {"table": "1", "words": "not 清一色"})
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "Disputed:" in desk and "not 清一色" in desk and "Approve: it counts" not in desk
    resolve = {"table": "1", "action": "resolve", "words": "the tiles were checked"}
    browser.post("/tournaments/cup/desk/dispute/", resolve)
    desk = browser.get("/tournaments/cup/desk/").content.decode()
    assert "Dispute resolved (not 清一色): the tiles were checked" in desk
    assert "Approve: it counts" in desk


def test_the_table_cards_page_prints_a_card_per_table(
    four, browser, in_process_tasks, django_capture_on_commit_callbacks
):
    seat_round(browser, django_capture_on_commit_callbacks)
    page = browser.get("/tournaments/cup/rounds/1/cards/").content.decode()
    key = four.round_set.get().tables.get().scorer_key
    assert page.count('class="slip table-card"') == 1 and f"/t/{key}/" in page and "<svg" in page


def test_an_entry_edited_seed_pin_and_first_round(cup, browser, json_errors):
    entry = services.registration_create(tournament=cup, name="Late one")
    url = f"/tournaments/cup/entries/{entry.player_id}/"
    form = {"action": "edit", "seed_rating": "1850", "pinned_table": "2", "first_round": "2"}
    assert browser.post(url, form).status_code == 302
    entry.refresh_from_db()
    assert (entry.seed_rating, entry.pinned_table, entry.first_round) == (1850, 2, 2)
    page = browser.get("/tournaments/cup/entries/").content.decode()
    assert "from round 2" in page and "always at table 2" in page
    # a round past the last is refused in words, and nothing changes
    refused = browser.post(url, {**form, "first_round": "3"}, follow=True)
    assert "An entry plays from a round not seated yet" in refused.content.decode()
    entry.refresh_from_db()
    assert entry.first_round == 2
    cleared = browser.post(url, {"action": "edit", "seed_rating": "", "pinned_table": "",
                                 "first_round": "2"})  # fmt: skip
    assert cleared.status_code == 302
    entry.refresh_from_db()
    assert (entry.seed_rating, entry.pinned_table) == (None, None)


def test_the_new_tournament_page_chooses_how_hands_are_confirmed(host, browser):
    """Bridgemate's rule for the tournament's tables, or the club's own (the default)."""
    page = browser.get("/clubs/host/tournaments/new/").content.decode()
    assert 'name="confirmation_rule" value="three"' in page
    assert browser.post("/clubs/host/tournaments/new/", FORM).status_code == 302
    assert Tournament.objects.get().confirmation_rule == ""  # as the club does
    Tournament.objects.all().delete()
    form = {**FORM, "confirmation_rule": "three"}
    assert browser.post("/clubs/host/tournaments/new/", form).status_code == 302
    assert Tournament.objects.get().confirmation_rule == "three"


def test_the_desk_links_the_disputed_hands_for_a_referee(host, browser):
    """The round desk leads the scorekeeper to the hands disputed at its tables."""
    assert browser.post("/clubs/host/tournaments/new/", FORM).status_code == 302
    cup = Tournament.objects.get()
    for i in range(4):
        services.registration_create(tournament=cup, name=f"选手{i}", new_player=True)
    services.round_seat(round_id=services.round_start(tournament=cup).pk)
    desk = browser.get(f"/tournaments/{cup.slug}/desk/").content.decode()
    assert "/clubs/host/confirmations/" in desk
