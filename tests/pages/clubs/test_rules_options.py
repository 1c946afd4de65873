"""The competition presets and their options where an organiser chooses rules (issue 16): a
new club, the club's rules, a table. Each option has its widget, filled in with what the chosen
rules say (RULES §3.8); the ruleset stored is the preset and what differs from it; the engine's
refusals are shown under the option they name, never a 500."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from clubs.models import Club, Role, TableSession
from clubs.services.clubs import club_create
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.helpers import login, member_login

pytestmark = pytest.mark.django_db


def client_as(user, lang: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


#: what the options' fields say for tfmj2024 as RULES §3.6 and §3.8 list it (cap 3, 呼叫转移
#: chain_split, 花猪 not_ready, 诈胡 a win at the cap, kongs as roots at 查叫, no 单钓, 海底 and
#: 杠上炮 both, no 天胡/地胡)
TFMJ_FIELDS = {
    "opt_cap": "3", "opt_kong_transfer": "chain_split", "opt_huazhu": "not_ready",
    "opt_false_win": "cap", "opt_chajiao_kongs": "on", "opt_for": "tfmj2024",
}  # fmt: skip
#: sbr (§3.7, §3.8): refund, 诈胡 8, kongs no roots at 查叫, 单钓, 海底 over 杠上炮, 天胡/地胡 on
SBR_FIELDS = {
    "opt_cap": "3", "opt_kong_transfer": "refund", "opt_huazhu": "not_ready",
    "opt_false_win": "amount", "opt_false_win_amount": "8", "opt_golden_wait": "on",
    "opt_haidi_over_kong_discard": "on", "opt_tianhu_dihu": "on", "opt_for": "sbr",
}  # fmt: skip


def new_club(preset: str, **fields) -> dict:
    return {"name": "Cup club", "slug": "cup-club", "visibility": "public", "ruleset": preset,
            "base": "1", "unit_label": "分", "time_zone": "Asia/Shanghai", **fields}  # fmt: skip


def test_the_new_club_form_offers_both_competition_presets_and_every_new_option():
    body = client_as(login()).get("/clubs/new/").content.decode()
    for preset in ("tfmj2024", "sbr"):
        assert f'name="ruleset" value="{preset}"' in body
    # a select for 呼叫转移, number-or-choice for 花猪 and 诈胡 (with not_ready), checkboxes
    assert re.search(r'<select name="opt_kong_transfer"[^>]*>', body)
    for mode in ("copy", "chain_split", "refund"):
        assert f'<option value="{mode}"' in body
    assert '<option value="not_ready"' in body
    assert (
        re.search(r'<select name="opt_false_win"', body) and 'name="opt_false_win_amount"' in body
    )
    for key in ("chajiao_kongs", "golden_wait", "haidi_over_kong_discard", "tianhu_dihu"):
        assert f'type="checkbox" name="opt_{key}"' in body
    # folded, filled in with the default preset's values (qq: 花猪 16, 诈胡 what a 花猪 pays)
    assert '<details class="rules-options" id="rules-options"' in body
    assert re.search(r'<option value="amount" selected>', body)
    assert 'name="opt_huazhu_amount" value="16"' in body
    # every preset's values, for the script that fills them in when another preset is tapped
    box = re.search(r'data-rules-options="([^"]+)"', body).group(1)
    choices = json.loads(html.unescape(box))
    assert (
        choices["sbr"]["opt_false_win"] == "amount" and choices["sbr"]["opt_false_win_amount"] == 8
    )
    assert choices["tfmj2024"]["opt_kong_transfer"] == "chain_split"
    assert choices["tfmj2024"]["opt_tianhu_dihu"] is False


def test_a_club_on_a_competition_preset_as_it_is_stores_the_bare_preset():
    user = login()
    response = client_as(user).post("/clubs/new/", new_club("tfmj2024", **TFMJ_FIELDS))
    assert response.status_code == 302
    club = Club.objects.get(slug="cup-club")
    assert club.ruleset.spec == {"preset": "tfmj2024", "options": {}}


def test_a_club_on_sbr_with_the_common_cap_of_4_stores_that_option_only():
    """RULES §3.7: ``cap: 4`` is sbr's common variant."""
    response = client_as(login()).post(
        "/clubs/new/", new_club("sbr", **{**SBR_FIELDS, "opt_cap": "4"})
    )
    assert response.status_code == 302
    club = Club.objects.get(slug="cup-club")
    assert club.ruleset.spec == {"preset": "sbr", "options": {"cap": 4}}
    assert club.ruleset.description["options"]["cap"] == 4


def test_each_new_option_reaches_the_ruleset():
    fields = {**SBR_FIELDS, "opt_kong_transfer": "chain_split", "opt_false_win_amount": "16",
              "opt_chajiao_kongs": "on"}  # fmt: skip
    del fields["opt_golden_wait"], fields["opt_tianhu_dihu"]
    response = client_as(login()).post("/clubs/new/", new_club("sbr", **fields))
    assert response.status_code == 302
    options = Club.objects.get(slug="cup-club").ruleset.spec["options"]
    assert options == {"kong_transfer": "chain_split", "false_win": 16, "chajiao_kongs": True,
                       "golden_wait": False, "tianhu_dihu": False}  # fmt: skip


def test_a_false_win_paid_as_a_flower_pig_needs_a_flower_pig_price_in_words():
    """RULES §3.8: ``false_win: "huazhu"`` only where ``huazhu`` is a number or ``cap``. qq's 诈胡
    follows its 花猪 (16); turning the 花猪 into ``not_ready`` with 诈胡 still "what a flower pig
    pays" is refused by the engine (``invalid_option``), under the 诈胡 field, in words; nothing
    is created. The same under tfmj2024 (花猪 not_ready) when 诈胡 is set to it."""
    client = client_as(login())
    qq = {"opt_cap": "", "opt_kong_transfer": "copy", "opt_huazhu": "not_ready",
          "opt_false_win": "huazhu", "opt_chajiao_kongs": "on", "opt_tianhu_dihu": "on",
          "opt_for": "qq"}  # fmt: skip
    for preset, fields in (("qq", qq), ("tfmj2024", {**TFMJ_FIELDS, "opt_false_win": "huazhu"})):
        response = client.post("/clubs/new/", new_club(preset, **fields))
        assert response.status_code == 200
        body = response.content.decode()
        field = body[body.index('<select name="opt_false_win"') :]
        field = field[: field.index("</div>")]
        assert "A false win can pay what a flower pig pays only where a flower pig pays" in field
        assert 'value="huazhu" selected' in field  # kept as chosen
        assert "<details" in body and 'class="rules-options" open' in body
    zh = client_as(login(), "zh-hans").post("/clubs/new/", new_club("qq", **qq))
    assert zh.status_code == 200
    assert not Club.objects.filter(slug="cup-club").exists()


def test_an_amount_chosen_needs_its_number_and_a_cap_its_bounds():
    client = client_as(login())
    body = client.post(
        "/clubs/new/", new_club("sbr", **{**SBR_FIELDS, "opt_false_win_amount": ""})
    ).content.decode()
    assert "Give the amount." in body
    # a fan cap is at most 30 (RULES §5): the engine's cap_out_of_range, under the cap
    body = client.post(
        "/clubs/new/", new_club("sbr", **{**SBR_FIELDS, "opt_cap": "31"})
    ).content.decode()
    cap = body[body.index('name="opt_cap"') :]
    assert "This cap is higher than these rules allow." in cap[: cap.index("</div>")]
    assert not Club.objects.exists()


def test_options_sent_for_other_rules_are_shown_again_with_the_rules_chosen():
    """Without the script, tapping sbr after the form showed qq's options sends qq's values
    (``opt_for`` qq): the form says so and shows sbr's own values, nothing is created."""
    client = client_as(login())
    qq_values = {"opt_cap": "", "opt_kong_transfer": "copy", "opt_huazhu": "amount",
                 "opt_huazhu_amount": "16", "opt_false_win": "huazhu", "opt_chajiao_kongs": "on",
                 "opt_tianhu_dihu": "on", "opt_for": "qq"}  # fmt: skip
    response = client.post("/clubs/new/", new_club("sbr", **qq_values))
    assert response.status_code == 200
    body = response.content.decode()
    assert "The options below now show what the rules you chose say" in body
    assert '<option value="refund" selected>' in body
    assert 'name="opt_false_win_amount" value="8"' in body
    assert 'name="opt_for" value="sbr"' in body
    assert not Club.objects.exists()


def test_a_form_without_options_takes_the_rules_as_they_are():
    response = client_as(login()).post("/clubs/new/", new_club("sbr"))
    assert response.status_code == 302
    assert Club.objects.get(slug="cup-club").ruleset.spec == {"preset": "sbr", "options": {}}


def checked(page: str) -> str:
    """The rules radio that is checked."""
    radio = re.search(r'<input type="radio" name="ruleset" value="(\w*)"[^>]* checked>', page)
    return radio.group(1)


def _club_with_players(preset="qq"):
    owner = login("owner1")
    club = club_create(name="Teahouse", slug="teahouse", user=owner, ruleset=preset)
    players = [MembershipFactory(club=club, player=PlayerFactory(name=f"P{i}")).player
               for i in range(4)]  # fmt: skip
    return club, owner, players


def table_form(players, **extra):
    data = {f"seat_{n}": str(p.pk) for n, p in enumerate(players)}
    data.update({"base": "1", "mode": "xuezhan", "ruleset": ""})
    data.update(extra)
    return data


def test_a_table_may_play_a_competition_preset_with_an_option_changed():
    club, _owner, players = _club_with_players()
    scorer = member_login(club, Role.SCORER)
    page = client_as(scorer).get("/clubs/teahouse/tables/new/").content.decode()
    assert 'name="ruleset" value="tfmj2024"' in page and 'name="ruleset" value="sbr"' in page
    fields = {**SBR_FIELDS, "opt_cap": "4"}
    response = client_as(scorer).post("/clubs/teahouse/tables/new/",
                                      table_form(players, ruleset="sbr", **fields))  # fmt: skip
    assert response.status_code == 302
    session = TableSession.objects.get(club=club)
    assert session.ruleset.spec == {"preset": "sbr", "options": {"cap": 4}}


def test_the_clubs_own_rules_with_an_option_changed_keep_the_clubs_other_options():
    """A club on sbr with cap 4; a table on the club's rules with 诈胡 16: sbr, cap 4 and 诈胡
    16. The club's rules untouched: the club's own snapshot."""
    owner = login("owner2")
    club = club_create(name="Cup", slug="cup", user=owner,
                       ruleset={"preset": "sbr", "options": {"cap": 4}})  # fmt: skip
    players = [MembershipFactory(club=club, player=PlayerFactory(name=f"Q{i}")).player
               for i in range(4)]  # fmt: skip
    client = client_as(owner)
    page = client.get("/clubs/cup/tables/new/").content.decode()
    assert 'name="opt_cap" value="4"' in page
    assert '<input type="hidden" name="opt_for" id="id_opt_for">' in page  # the club's rules: ""
    club_values = {**SBR_FIELDS, "opt_cap": "4", "opt_for": ""}
    client.post("/clubs/cup/tables/new/", table_form(players, **club_values))
    client.post("/clubs/cup/tables/new/",
                table_form(players, **{**club_values, "opt_false_win_amount": "16"}))  # fmt: skip
    first, second = TableSession.objects.filter(club=club).order_by("pk")
    assert first.ruleset_id == club.ruleset_id
    assert second.ruleset.spec == {"preset": "sbr", "options": {"cap": 4, "false_win": 16}}


def test_an_organiser_changes_the_clubs_rules_to_tfmj2024():
    club, owner, _players = _club_with_players()
    organiser = member_login(club, Role.ORGANISER)
    club_page = client_as(organiser).get("/clubs/teahouse/").content.decode()
    assert "/clubs/teahouse/rules/change/" in club_page
    scorer_page = client_as(member_login(club, Role.SCORER)).get("/clubs/teahouse/").content
    assert b"/rules/change/" not in scorer_page
    page = client_as(organiser).get("/clubs/teahouse/rules/change/").content.decode()
    assert checked(page) == "qq"
    response = client_as(organiser).post("/clubs/teahouse/rules/change/",
                                         {"ruleset": "tfmj2024", **TFMJ_FIELDS})  # fmt: skip
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.ruleset.spec == {"preset": "tfmj2024", "options": {}}
    # sent again unchanged: nothing changes, and the page says so
    same = {"ruleset": "tfmj2024", **TFMJ_FIELDS}
    again = client_as(organiser).post("/clubs/teahouse/rules/change/", same, follow=True)
    assert "The club&#x27;s rules are unchanged." in again.content.decode()


def test_the_club_rules_page_starts_from_what_the_club_plays():
    owner = login("owner3")
    club_create(
        name="Cup", slug="cup", user=owner, ruleset={"preset": "sbr", "options": {"cap": 4}}
    )
    page = client_as(owner).get("/clubs/cup/rules/change/").content.decode()
    assert checked(page) == "sbr"
    assert 'name="opt_cap" value="4"' in page
    # the other presets start from their own values
    choices = json.loads(html.unescape(re.search(r'data-rules-options="([^"]+)"', page).group(1)))
    assert choices["sbr"]["opt_cap"] == 4 and choices["tfmj2024"]["opt_cap"] == 3
