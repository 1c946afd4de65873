"""A settled hand in plain words (pages.words): every sentence worked out by hand from RULES.md.

The settlements are the engine's own (scoring.engine.settle), as ``POST /api/v1/engine/settle``
answers them and ``Hand.settlement`` stores them; pages.words only writes them out.
"""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from clubs.models import Hand
from pages.words import hand_words, words_of_view
from scoring.engine.settle import settle
from scoring.services import ruleset_snapshot_get_or_create

SEATS = {0: "老张", 1: "老李", 2: "老王", 3: "小刘"}

#: qq, base 2: S1 self-draws 1112345678999m on 9m. 清一色 3 fan + 1 根 (all four 9万) = 4 fan;
#: value 2^(4−1) = 8 at base 1, × base 2 = 16 from each of the three others (no self-draw bonus)
SELF_DRAWN_FLUSH = {
    "ruleset": "qq", "base": 2, "dealer": 0, "mode": "single",
    "events": [{"type": "win", "from": None, "tile": "9m", "situation": [],
                "winners": [{"seat": 1, "concealed": "1112345678999m"}]}],
}  # fmt: skip

#: qq, base 1: S2 暗杠 9s (2 from each of S0, S1, S3), then S1 wins on S2's next discard 5m
#: (杠上炮): 清对 4 fan + 杠上炮 1 = 5 fan → 2^4 = 16; 呼叫转移 (copy): S2 hands S1 the kong's
#: income, 3 × 2 = 6
KONG_DISCARD = {
    "ruleset": "qq", "base": 1, "dealer": 0, "mode": "single",
    "events": [
        {"type": "kong", "seat": 2, "kind": "concealed", "tile": "9s"},
        {"type": "win", "from": 2, "tile": "5m", "situation": ["kong_discard"],
         "winners": [{"seat": 1, "concealed": "1112223334445m"}]},
    ],
}  # fmt: skip

#: qq, base 1, a draw (血战): S3 暗杠 9m (2 from each of S0, S1, S2); S1 self-draws 平胡 on 4s
#: (1 fan → 1, from S0, S2, S3). At the draw S0 is ready (22p…34p waits 2p/5p: 平胡 → 1),
#: S2 holds three suits (花猪: 16 to each non-花猪 player still in, S0 and S3), S3 is not ready:
#: 查叫 1 to S0 (S2 is 花猪, so he is not paid and does not pay 查叫), and 退税: S3 returns his
#: kong income, 2 to each of S0, S1, S2 (S1 won since, he is refunded all the same)
DRAW = {
    "ruleset": "qq", "base": 1, "dealer": 0,
    "events": [
        {"type": "kong", "seat": 3, "kind": "concealed", "tile": "9m"},
        {"type": "win", "from": None, "tile": "4s", "situation": [],
         "winners": [{"seat": 1, "concealed": "123p456p789p99p23s"}]},
    ],
    "draw": {"hands": {
        "0": {"concealed": "234m567m22p678p34p"},
        "2": {"concealed": "123m456p789s2345s"},
        "3": {"concealed": "1357m2468m13p",
              "melds": [{"kind": "kong", "tile": "9m", "concealed": True}]},
    }},
}  # fmt: skip

#: qq, base 1: a bettor draws 2s: rank 2 from the dealer (S0) is S1 (RULES §4.7). S3 暗杠 9s (2 from
#: S0, S1, S2; the bettor pays as S1 does), S1 wins 清对 on S2's 5m (4 fan → 8; the bettor is
#: paid 8 by S2 as S1 is)
BETTOR = {
    "ruleset": "qq", "base": 1, "dealer": 0, "mode": "single",
    "events": [
        {"type": "kong", "seat": 3, "kind": "concealed", "tile": "9s"},
        {"type": "win", "from": 2, "tile": "5m", "situation": [],
         "winners": [{"seat": 1, "concealed": "1112223334445m"}]},
    ],
    "bettors": [{"name": "阿坤", "tile": "2s"}],
}  # fmt: skip


def words(record, lang="zh-hans"):
    with translation.override(lang):
        return hand_words(settle(record), seats=SEATS)


def texts(record, lang="zh-hans"):
    return [s.text for s in words(record, lang).sentences]


def test_a_self_drawn_full_flush_with_a_root_at_base_2():
    assert texts(SELF_DRAWN_FLUSH) == [
        f"S{s} {SEATS[s]} 付 S1 老李 16：自摸，清一色 3番 + 1根 = 4番 → 8 × 底分 2 = 16"
        for s in (0, 2, 3)
    ]
    assert texts(SELF_DRAWN_FLUSH, "en")[0] == (
        "S0 老张 pays S1 老李 16: 自摸 (Self-drawn win), "
        "清一色 (Pure one suit) 3 fan + 1 root = 4 fan → 8 × base 2 = 16"
    )
    table = words(SELF_DRAWN_FLUSH).table
    assert [row.net for row in table.rows] == [-16, 48, -16, -16]
    assert table.rows[0].paid == (0, 16, 0, 0)
    assert table.total == 0


def test_a_kong_then_a_win_on_its_discard_moves_the_kong_money():
    assert texts(KONG_DISCARD) == [
        "S0 老张 付 S2 老王 2：暗杠 9条",
        "S1 老李 付 S2 老王 2：暗杠 9条",
        "S3 小刘 付 S2 老王 2：暗杠 9条",
        "S2 老王 付 S1 老李 16：清对 4番 + 杠上炮 1番 = 5番 → 16",
        "S2 老王 付 S1 老李 6：呼叫转移",
    ]
    assert texts(KONG_DISCARD, "en")[4] == (
        "S2 老王 pays S1 老李 6: 呼叫转移 (Kong money handed to the winner)"
    )
    # S1: −2 (kong) + 16 + 6 = +20; S2: +6 − 22 = −16; S0 and S3 −2
    table = words(KONG_DISCARD).table
    assert [row.net for row in table.rows] == [-2, 20, -16, -2]
    assert table.total == 0


def test_a_draw_with_huazhu_chajiao_and_refunds():
    lines = texts(DRAW)
    assert lines[:6] == [
        "S0 老张 付 S3 小刘 2：暗杠 9万",
        "S1 老李 付 S3 小刘 2：暗杠 9万",
        "S2 老王 付 S3 小刘 2：暗杠 9万",
        "S0 老张 付 S1 老李 1：自摸，平胡 1番 → 1",
        "S2 老王 付 S1 老李 1：自摸，平胡 1番 → 1",
        "S3 小刘 付 S1 老李 1：自摸，平胡 1番 → 1",
    ]
    assert sorted(lines[6:]) == sorted([
        "S2 老王 付 S0 老张 16：查花猪",
        "S2 老王 付 S3 小刘 16：查花猪",
        "S3 小刘 付 S0 老张 1：查叫",
        "S3 小刘 付 S0 老张 2：退税",
        "S3 小刘 付 S1 老李 2：退税",
        "S3 小刘 付 S2 老王 2：退税",
    ])  # fmt: skip
    # S0: −2 −1 +16 +1 +2 = +16; S1: −2 +3 +2 = +3; S2: −2 −1 −32 +2 = −33;
    # S3: +6 −1 +16 −1 −6 = +14
    table = words(DRAW).table
    assert [row.net for row in table.rows] == [16, 3, -33, 14]
    assert table.total == 0


def test_a_bettor_follows_his_seat_in_words():
    lines = texts(BETTOR)
    assert "阿坤（叫马） 付 S3 小刘 2：叫马，跟 S1 老李，暗杠" in lines
    assert "S2 老王 付 阿坤（叫马） 8：叫马，跟 S1 老李，点炮" in lines
    en = texts(BETTOR, "en")
    assert "S2 老王 pays 阿坤 (bettor) 8: 叫马 (A bettor follows his seat), follows S1 老李, " \
        "点炮 (Win on a discard)" in en  # fmt: skip
    table = words(BETTOR).table
    assert table.labels[-1] == "阿坤（叫马）"
    # the bettor: −2 + 8 = +6, as S1: −2 + 8 = +6
    assert table.rows[4].net == table.rows[1].net == 6
    assert table.total == 0


def test_chengdu_multiples_and_the_self_draw_bonus():
    # chengdu: 清一色 ×4, 1 根 ×2 = 8 (the cap 8, not passed); 自摸加底 +1 after the cap → 9
    record = {**SELF_DRAWN_FLUSH, "ruleset": "chengdu", "base": 1}
    assert (
        texts(record)[0]
        == "S0 老张 付 S1 老李 9：自摸，清一色 4倍 × 1根 2倍 = 8倍 → 8 + 自摸加底 1 = 9"
    )


def test_without_names_a_seat_is_its_number():
    with translation.override("zh-hans"):
        out = hand_words(settle(KONG_DISCARD))
    assert out.sentences[0].text == "S0 付 S2 2：暗杠 9条"


class _Party:
    def __init__(self, name):
        self.name = name


class _Row:
    def __init__(self, payer, payee):
        self.payer, self.payee = _Party(payer), _Party(payee)


class _View:
    """A HandView's shape: the stored hand (its record without the ruleset, its settlement
    as JSON, its rules' fingerprint), and its payment rows with the parties' names."""

    def __init__(self, record):
        rules = ruleset_snapshot_get_or_create(spec=record["ruleset"])
        stored = {k: v for k, v in record.items() if k != "ruleset"}
        self.hand = Hand(
            number=1, record=stored, settlement=settle(record).as_dict(),
            ruleset_fingerprint=rules.fingerprint,
        )  # fmt: skip
        self.payments = [
            _Row(SEATS[int(p["payer"][1])], SEATS[int(p["payee"][1])])
            for p in self.hand.settlement["payments"]
        ]


@pytest.mark.django_db
def test_words_of_a_stored_hand_take_the_names_of_its_payment_rows():
    with translation.override("zh-hans"):
        out = words_of_view(_View(KONG_DISCARD))
    assert out.sentences[3].text == "S2 老王 付 S1 老李 16：清对 4番 + 杠上炮 1番 = 5番 → 16"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_include_lists_the_sentences_and_the_zero_sum(lang):
    with translation.override(lang):
        html = render_to_string(
            "pages/includes/hand_payments.html", {"words": words(KONG_DISCARD, lang)}
        )
    assert html.count('<li data-reason="kong_concealed">') == 3
    assert ("呼叫转移" in html) and ("+20" in html)
    assert ("合计（零和）" if lang == "zh-hans" else "Sum (zero-sum)") in html


def test_the_table_columns_are_short_names_with_the_full_label_beside():
    """A phone's columns: the name alone (S1 without one, a bettor by his name); the full
    label (``S1 老李``, ``阿坤（叫马）``) stays for the title."""
    table = words(BETTOR).table
    assert table.columns[1] == ("老李", "S1 老李")
    assert table.columns[-1] == ("阿坤", "阿坤（叫马）")
    assert [row.short for row in table.rows][:2] == ["老张", "老李"]
    with translation.override("zh-hans"):
        unnamed = hand_words(settle(BETTOR)).table
    assert unnamed.columns[0] == ("S0", "S0")
