"""The table page under the competition presets (issue 16): a hand with a 杠上杠 chain and a
false win (诈胡) entered on the form, stored with the payments worked out by hand from RULES
§3.6–3.8, §4.4 and §4.9; the hand's page says them in words, in Chinese and English; the
engine's refusals of the new record parts are shown beside their field; the declared entry
offers each preset's own patterns and extras (``scoring.engine.declaration_menu``)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Hand, Role
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_create
from tests.clubs.factories import ClubFactory
from tests.helpers import ascii_colons, member_login

pytestmark = pytest.mark.django_db

NAMES = ["老张", "小李", "王姐", "阿明"]  # S0 … S3


def table(preset: str):
    """A 血战 table under ``preset``, base 1, four named players, and its scorer."""
    club = ClubFactory(visibility=Club.Visibility.MEMBERS)
    scorer = member_login(club, Role.SCORER)
    players = [player_create(club=club, name=n).player for n in NAMES]
    session = session_create(club=club, players=players, user=scorer, mode="xuezhan",
                             ruleset=preset)  # fmt: skip
    return session, scorer


def client(user, lang: str = "en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(user)
    return c


def post_hand(c: Client, session, number: int, **fields):
    return c.post(reverse("page-session", args=[session.pk]), {"number": str(number), **fields})


def paid(hand: Hand) -> list[tuple[str, str, int, str]]:
    """The stored settlement's payments, in order, as (payer, payee, amount, reason)."""
    return [(p["payer"], p["payee"], p["amount"], p["reason"]) for p in hand.settlement["payments"]]


# S0 暗杠 5万, 杠上杠 暗杠 6万 on its replacement, S0's discard won by S1 (杠上炮); S2 诈胡 after
# that; S3 自摸 对对胡; S2 清一色 1根 on S0's discard.
TFMJ_HAND = {
    "dealer": "0",
    "k1_seat": "0", "k1_kind": "concealed", "k1_rank": "5", "k1_suit": "m",
    "k2_seat": "0", "k2_kind": "concealed", "k2_rank": "6", "k2_suit": "m",
    "k2_on_replacement": "1",
    "w1_seat": "1", "w1_from": "0", "w1_pattern": "pinghu", "w1_situation": ["kong_discard"],
    "f1_seat": "2", "f1_after": "1",
    "w2_seat": "3", "w2_from": "self", "w2_pattern": "duiduihu",
    "w3_seat": "2", "w3_from": "0", "w3_pattern": "qingyise", "w3_roots": "1",
}  # fmt: skip


def test_a_tfmj2024_hand_with_a_kong_chain_and_a_false_win_pays_as_worked_by_hand():
    """tfmj2024 (RULES §3.6, §3.8; base 1, cap 3 fan, value 2^fan, self-draw +1 after the cap):

    - S0 暗杠 5万: 2 from each of S1, S2, S3 (income 6); S0's 暗杠 6万 on its replacement
      (杠上杠): 2 from each again (6 more).
    - S1 wins S0's discard, 杠上炮: 平胡 0 fan + 杠上炮 1 = 1 fan → 2, paid by S0. 呼叫转移
      ``chain_split`` (§4.4): the chain is the 6万 kong and the 5万 kong it was declared on,
      6 + 6 = 12, one winner: S0 hands S1 all 12.
    - S2 诈胡 (§4.9, ``false_win: cap``): the cap, 3 fan → 8, to each other player still in —
      S0 and S3 (S1 has won): 16. S2 made no kong: nothing to return.
    - S3 自摸 对对胡: 1 fan → 2, + 1 after the cap = 3 from each of S0 and S2.
    - S2 清一色 1根 on S0's discard: 2 + 1 = 3 fan (the cap, not over it) → 8.

    Nets: S0 +12 − 2 − 12 + 8 − 3 − 8 = −5; S1 −4 + 2 + 12 = +10; S2 −4 − 16 − 3 + 8 = −15;
    S3 −4 + 8 + 6 = +10; sum 0."""
    session, scorer = table("tfmj2024")
    response = post_hand(client(scorer), session, 1, **TFMJ_HAND)
    assert response.status_code == 302, response.content.decode()[-3000:]
    hand = Hand.objects.get(session=session, number=1)
    record = hand.record["events"]
    assert [e["type"] for e in record] == ["kong", "kong", "win", "false_win", "win", "win"]
    assert record[1]["on_replacement"] is True and "on_replacement" not in record[0]
    assert sorted(paid(hand)) == sorted([
        ("S1", "S0", 2, "kong_concealed"), ("S2", "S0", 2, "kong_concealed"),
        ("S3", "S0", 2, "kong_concealed"),
        ("S1", "S0", 2, "kong_concealed"), ("S2", "S0", 2, "kong_concealed"),
        ("S3", "S0", 2, "kong_concealed"),
        ("S0", "S1", 2, "win"), ("S0", "S1", 12, "kong_transfer"),
        ("S2", "S0", 8, "false_win"), ("S2", "S3", 8, "false_win"),
        ("S0", "S3", 3, "self_draw"), ("S2", "S3", 3, "self_draw"),
        ("S0", "S2", 8, "win"),
    ])  # fmt: skip
    assert hand.settlement["totals"]["seats"] == [-5, 10, -15, 10]


def test_the_hand_page_says_the_false_win_and_the_kong_chain_in_english_and_chinese():
    session, scorer = table("tfmj2024")
    assert post_hand(client(scorer), session, 1, **TFMJ_HAND).status_code == 302
    url = reverse("page-hand", args=[session.pk, 1])
    en = client(scorer, "en").get(url).content.decode()
    # the false win among the wins, in the order they happened, with what it cost
    wins = en[en.index('class="list wins"') :]
    wins = wins[: wins.index("</ul>")]
    assert "王姐: 诈胡 (False win), pays 8 to each player still in" in wins
    assert wins.index("小李: ") < wins.index("王姐: 诈胡") < wins.index("阿明: ")
    # the payments: the false win, and the kong made on the replacement tile marked 杠上杠
    assert "S2 王姐 pays S0 老张 8: 诈胡 (False win)" in en
    assert "S2 王姐 pays S3 阿明 8: 诈胡 (False win)" in en
    assert en.count(
        "pays S0 老张 2: 暗杠 (Concealed kong) 6m, 杠上杠 (Kong on a kong&#x27;s replacement tile)"
    ) == 3  # fmt: skip
    assert en.count("pays S0 老张 2: 暗杠 (Concealed kong) 5m<") == 3  # the first: no mark
    zh = client(scorer, "zh-hans").get(url).content.decode()
    assert "王姐：诈胡，付给每位未胡的玩家 8" in zh
    assert "S2 王姐 付 S0 老张 8：诈胡" in zh
    assert zh.count("付 S0 老张 2：暗杠 6万，杠上杠") == 3
    assert ascii_colons(zh) == []
    # the table's sheet says it too
    sheet = client(scorer, "zh-hans").get(reverse("page-session", args=[session.pk]))
    assert "王姐：诈胡，付给每位未胡的玩家 8" in sheet.content.decode()


def test_an_sbr_false_win_gives_back_the_offenders_kong_money():
    """sbr (RULES §3.7, §3.8; cap 3 fan, ``false_win: 8``, 单钓 Golden Wait an extra):

    - S3 暗杠 9条: 2 from each of S0, S1, S2 (income 6).
    - S3 诈胡, entered with the same "When" (before the first win), so after his kong: 8 to
      each of S0, S1, S2 (24), and his kong's 6 back, 2 to each (退杠钱 ``kong_return``).
    - S1 对对胡 + 单钓 on S2's discard: 1 + 1 = 2 fan → 4.
    - S0 自摸 平胡: 0 fan → 1, + 1 after the cap = 2 from each of S2 and S3.
    - S3 清对 on S2's discard, declared with 1 root (his own kong, RULES §6): 3 + 1 = 4 fan,
      capped at 3 → 8.

    Nets: S0 −2 + 8 + 2 + 4 = +12; S1 −2 + 8 + 2 + 4 = +12; S2 −2 + 8 + 2 − 4 − 2 − 8 = −6;
    S3 +6 − 24 − 6 − 2 + 8 = −18; sum 0."""
    session, scorer = table("sbr")
    response = post_hand(
        client(scorer), session, 1, dealer="0",
        k1_seat="3", k1_kind="concealed", k1_rank="9", k1_suit="s",
        f1_seat="3",
        w1_seat="1", w1_from="2", w1_pattern="duiduihu", w1_extras=["golden_wait"],
        w2_seat="0", w2_from="self", w2_pattern="pinghu",
        w3_seat="3", w3_from="2", w3_pattern="qingdui", w3_roots="1",
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[-3000:]
    hand = Hand.objects.get(session=session, number=1)
    assert sorted(paid(hand)) == sorted([
        ("S0", "S3", 2, "kong_concealed"), ("S1", "S3", 2, "kong_concealed"),
        ("S2", "S3", 2, "kong_concealed"),
        ("S3", "S0", 8, "false_win"), ("S3", "S1", 8, "false_win"), ("S3", "S2", 8, "false_win"),
        ("S3", "S0", 2, "kong_return"), ("S3", "S1", 2, "kong_return"),
        ("S3", "S2", 2, "kong_return"),
        ("S2", "S1", 4, "win"),
        ("S2", "S0", 2, "self_draw"), ("S3", "S0", 2, "self_draw"),
        ("S2", "S3", 8, "win"),
    ])  # fmt: skip
    assert hand.settlement["totals"]["seats"] == [12, 12, -6, -18]
    url = reverse("page-hand", args=[session.pk, 1])
    en = client(scorer, "en").get(url).content.decode()
    assert (
        "阿明: 诈胡 (False win), pays 8 to each player still in, gives back 6 of kong money" in en
    )
    assert "S3 阿明 pays S0 老张 2: 退杠钱 (Kong money returned), 诈胡 (False win)" in en
    zh = client(scorer, "zh-hans").get(url).content.decode()
    assert "阿明：诈胡，付给每位未胡的玩家 8，退杠钱 6" in zh
    assert "S3 阿明 付 S0 老张 2：退杠钱，诈胡" in zh


def test_a_kong_on_replacement_after_another_players_kong_is_refused_beside_its_box():
    """杠上杠 follows the same player's kong right before it (RULES §4.4): S1's kong ticked on
    the replacement of S0's is refused (``on_replacement_without_kong``), shown beside kong
    2's box, with what was entered kept and nothing stored."""
    session, scorer = table("tfmj2024")
    fields = {**TFMJ_HAND, "k2_seat": "1"}
    response = post_hand(client(scorer), session, 1, **fields)
    assert response.status_code == 400
    body = response.content.decode()
    box = body.index('name="k2_on_replacement"')
    row = body[body.rindex('<div class="row replacement', 0, box) : body.index("</div>", box)]
    assert "has-error" in row
    assert "杠上杠 needs the same player&#x27;s kong just before" in row
    assert 'value="1" checked' in row  # kept as entered
    assert "The hand was not saved: see the marked parts of the form below." in body
    assert not Hand.objects.exists()


def test_a_false_win_by_a_player_who_has_won_is_refused_on_its_row():
    # S1 won first; a false win by S1 after winner 1 cannot be: he is out of the hand
    session, scorer = table("tfmj2024")
    response = post_hand(client(scorer), session, 1, **{**TFMJ_HAND, "f1_seat": "1"})
    assert response.status_code == 400
    body = response.content.decode()
    row = body[body.index('id="false-wins"') : body.index('id="draw"')]
    assert "This player has already won this hand." in row
    assert re.search(r'<details class="group false-wins" open id="false-wins">', body)
    assert not Hand.objects.exists()


def _chip_values(body: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)"', body)


def test_the_declared_entry_offers_each_presets_own_patterns_and_extras():
    """RULES §3.6, §3.7, §6: tfmj2024's table is 平胡, 对对胡, 清一色, 七对 (no 清对, 龙七对,
    天胡 — ``tianhu_dihu`` off), 金钩钓 an extra; sbr's adds 清对, 清七对, 天胡, 地胡, with 单钓
    an extra."""
    session, scorer = table("tfmj2024")
    body = client(scorer).get(reverse("page-session", args=[session.pk])).content.decode()
    assert _chip_values(body, "w1_pattern") == ["pinghu", "duiduihu", "qingyise", "qidui"]
    assert _chip_values(body, "w1_extras") == ["jingoudiao"]
    assert "heavenly" not in _chip_values(body, "w1_situation")
    sbr, sbr_scorer = table("sbr")
    body = client(sbr_scorer).get(reverse("page-session", args=[sbr.pk])).content.decode()
    assert _chip_values(body, "w1_pattern") == [
        "pinghu", "duiduihu", "qingyise", "qidui", "qingdui", "qingqidui", "tianhu", "dihu"
    ]  # fmt: skip
    assert _chip_values(body, "w1_extras") == ["golden_wait"]


def test_seven_pairs_with_roots_is_declared_as_such_under_tfmj2024():
    """tfmj2024 has no 龙七对 row: 七对 with a root is right (RULES §6). A 普通-like hand is
    not finished in 血战, so three winners: S1 自摸 七对 1根: 2 + 1 = 3 fan → 8, + 1 = 9 from
    each of three (27); then S2 and S3 平胡 on S0's discards: 1 each."""
    session, scorer = table("tfmj2024")
    response = post_hand(
        client(scorer), session, 1, dealer="0",
        w1_seat="1", w1_from="self", w1_pattern="qidui", w1_roots="1",
        w2_seat="2", w2_from="0", w2_pattern="pinghu",
        w3_seat="3", w3_from="0", w3_pattern="pinghu",
    )  # fmt: skip
    assert response.status_code == 302
    hand = Hand.objects.get(session=session)
    assert hand.settlement["totals"]["seats"] == [-9 - 2, 27, -9 + 1, -9 + 1]


def test_the_tile_picker_asks_the_engine_under_the_sessions_own_rules():
    """The picker holds no pattern list of its own: it sends the session's ruleset (its spec)
    and shows the engine's lines by their names, 单钓 among them. Under sbr, 111m 222m 333m
    444p 5p won on 5p: four triplets and the pair, the tiles before the win holding one 5p —
    对对胡 1 fan + 单钓 1 = 2 fan → 4 (a split into sequences would be 平胡 0, less)."""
    session, scorer = table("sbr")
    c = client(scorer)
    body = c.get(reverse("page-session", args=[session.pk])).content.decode()
    spec = re.search(r'data-ruleset="([^"]+)"', body).group(1)
    assert html.unescape(spec) == json.dumps(session.ruleset.spec, separators=(",", ":"))
    words = json.loads(re.search(r'id="tile-picker-words">(.*?)</script>', body).group(1))
    assert words["names"]["golden_wait"].startswith("单钓")
    answer = c.post(
        reverse("engine-evaluate"),
        {"ruleset": session.ruleset.spec, "concealed": "111222333m444p5p", "winning_tile": "5p"},
        content_type="application/json",
    ).json()
    assert [line["code"] for line in answer["lines"]] == ["duiduihu", "golden_wait"]
    assert answer["value"] == 4


def test_a_correction_keeps_the_void_suits_and_refuses_a_kong_of_one_beside_it():
    """A hand recorded through the API with 定缺 (S3 void in 条): the hand form cannot show the
    void suits, and a correction keeps them. A kong of 9条 by S3 is then refused (RULES §5,
    ``claim_in_void_suit``) on kong 1's row; a correction of the dealer alone is stored with
    the void suits as they were."""
    session, scorer = table("tfmj2024")
    declared = {"pattern": "pinghu", "roots": 0, "extras": []}
    hand_record(session=session, user=scorer, data={
        "dealer": 0, "declared_void": [None, None, None, "s"],
        "events": [
            {"type": "win", "from": None, "winners": [{"seat": 1, "declared": declared}]},
            {"type": "win", "from": 0, "winners": [{"seat": 2, "declared": declared}]},
            {"type": "win", "from": 0, "winners": [{"seat": 3, "declared": declared}]},
        ],
    })  # fmt: skip
    c = client(scorer)
    url = reverse("page-hand-edit", args=[session.pk, 1])
    fields = {
        "revision": "1", "dealer": "0", "reason": "the kong was forgotten",
        "w1_seat": "1", "w1_from": "self", "w1_pattern": "pinghu",
        "w2_seat": "2", "w2_from": "0", "w2_pattern": "pinghu",
        "w3_seat": "3", "w3_from": "0", "w3_pattern": "pinghu", "w3_roots": "1",
    }  # fmt: skip
    refused = c.post(url, {**fields, "k1_seat": "3", "k1_kind": "concealed", "k1_rank": "9",
                           "k1_suit": "s"})  # fmt: skip
    assert refused.status_code == 400
    body = refused.content.decode()
    kongs = body[body.index('id="kongs"') : body.index('id="false-wins"')]
    assert "A player cannot pung or kong the suit he declared void (定缺)." in kongs
    assert Hand.objects.get(session=session).revision == 1
    assert c.post(url, {**fields, "dealer": "1", "w3_roots": "0"}).status_code == 302
    hand = Hand.objects.get(session=session)
    assert (hand.revision, hand.dealer) == (2, 1)
    assert hand.record["declared_void"] == [None, None, None, "s"]
