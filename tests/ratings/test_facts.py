"""What a session's hands say about each seat (``ratings.facts``), worked out by hand.

The hands are settled by the engine under ``qq`` (base 1, 血战到底; RULES §3.1: value =
2^(fan − 1); 暗杠 2 from each player still in; 花猪 16 to each non-花猪 player still in; 查叫
the largest value), then counted; every expected figure below comes from RULES, not from a run.
"""

from __future__ import annotations

from ratings.facts import session_facts
from scoring.engine.settle import HandRecord, Settlement, settle


def kong(seat, kind, tile, source=None):
    event = {"type": "kong", "seat": seat, "kind": kind, "tile": tile}
    if source is not None:
        event["from"] = source
    return event


def win(source, tile, *winners):
    return {"type": "win", "from": source, "tile": tile, "winners": list(winners)}


def winner(seat, concealed, *kongs):
    melds = [{"kind": "kong", "tile": t, "concealed": True} for t in kongs]
    return {"seat": seat, "concealed": concealed, "melds": melds}


def settled(record: dict, ruleset: str = "qq") -> Settlement:
    return settle({"ruleset": ruleset, "base": 1, "mode": "xuezhan", **record})


#: S2 暗杠 9s (S0, S1, S3 pay 2 each: S2 +6); S1 自摸 平胡 (1 fan → 1, from S0, S2, S3);
#: S3 清一色 on S0's 4s (3 fan → 4); S2 平胡 + 1 根 (his kong) on S0's 9p (2 fan → 2).
KONG_HAND = {
    "dealer": 0,
    "events": [
        kong(2, "concealed", "9s"),
        win(None, "6m", winner(1, "234m456m78m22p333p")),
        win(0, "4s", winner(3, "11s234s567s888s23s")),
        win(0, "9p", winner(2, "123p456p78p55p", "9s")),
    ],
}

#: 一炮多响: S1 and S2 both win on S0's 5s (平胡, 1 each); then S3 自摸 清对 (4 fan → 8), paid
#: by S0 alone, the only player still in.
DOUBLE_HAND = {
    "dealer": 0,
    "events": [
        win(0, "5s", winner(1, "123m456m789m11m46s"), winner(2, "234p567p888p99p46s")),
        win(None, "5s", winner(3, "111s222s333s44s55s")),
    ],
}

#: 流局, declared (RULES §6): S0 花猪 pays 16 to each of the three others; S1 not ready pays
#: 查叫 to the ready: S2 (平胡, 1) and S3 (对对胡, 2 fan → 2).
DRAW_HAND = {
    "dealer": 0,
    "events": [],
    "draw": {
        "hands": {
            "0": {"declared": "huazhu"},
            "1": {"declared": "not_ready"},
            "2": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 0}},
            "3": {"declared": "ready", "wait": {"pattern": "duiduihu", "roots": 0}},
        }
    },
}


def facts_of(*records):
    return session_facts((n, settled(r)) for n, r in enumerate(records, start=1))


def test_a_kong_a_self_draw_and_two_discards():
    f = facts_of(KONG_HAND)
    s0, s1, s2, s3 = f.seats
    assert [s.hands for s in f.seats] == [1, 1, 1, 1]
    # S0 fed two wins (two discards) and paid one 自摸
    assert (s0.deal_ins, s0.self_drawn_against, s0.wins) == (2, 1, 0)
    assert (s1.wins, s1.self_draws, s1.first_wins, s1.win_total) == (1, 1, 1, 1)
    # S3 was second to win, S2 third; a win's value is what each payer paid for it
    assert (s3.second_wins, s3.win_max) == (1, 4)
    assert (s2.third_wins, s2.win_max, s2.kongs_concealed) == (1, 2, 1)
    # 杠钱: S2 +6, each of the three others −2
    assert [s.kong_net for s in f.seats] == [-2, -2, 6, -2]
    # what each received from each other seat, net: S0 paid S1 1, S2 2 + 2, S3 4
    assert s0.exchanged == {1: -1, 2: -4, 3: -4}
    assert s2.exchanged == {0: 4, 1: 2 - 1, 3: 2}
    assert [(w.seat, w.order, w.pattern, w.roots, w.amount) for w in f.wins] == [
        (1, 1, "pinghu", 0, 1),
        (3, 2, "qingyise", 0, 4),
        (2, 3, "pinghu", 1, 2),
    ]


def test_two_winners_on_one_discard_are_one_deal_in_and_share_their_order():
    f = facts_of(DOUBLE_HAND)
    s0, s1, s2, s3 = f.seats
    assert s0.deal_ins == 1
    assert (s1.first_wins, s2.first_wins) == (1, 1)
    assert (s3.second_wins, s3.self_draws, s3.win_max) == (1, 1, 8)
    assert s0.self_drawn_against == 1
    assert [w.pattern for w in f.wins] == ["pinghu", "pinghu", "qingdui"]


def test_a_declared_draw_counts_huazhu_and_chajiao_and_is_not_shown():
    f = facts_of(DRAW_HAND)
    assert [s.huazhu for s in f.seats] == [1, 0, 0, 0]
    assert [s.chajiao_paid for s in f.seats] == [0, 3, 0, 0]
    assert [s.chajiao_received for s in f.seats] == [0, 0, 1, 2]
    assert [s.shown_hands for s in f.seats] == [0, 0, 0, 0]
    assert f.wins == []


def test_figures_add_up_over_hands():
    f = facts_of(KONG_HAND, DOUBLE_HAND, DRAW_HAND)
    s0 = f.seats[0]
    assert (s0.hands, s0.shown_hands, s0.deal_ins, s0.huazhu) == (3, 2, 3, 1)
    assert [w.hand_number for w in f.wins] == [1, 1, 1, 2, 2, 2]


#: xuezhan9 (RULES §3.4, 杠钱归胡家): S2 弯杠 4p; S1 robs it (抢杠) with 123m 456m 789m 11p 234p:
#: 平胡 0 fan + 抢杠胡 1 = 1 fan → 2, S2 → S1 (win). The cancelled kong pays nothing; S2 also
#: pays S1 what it would have collected from each other player still in, 3 × 1 = 3
#: (``kong_to_winner``). No kong's income moved on: no 呼叫转移.
ROBBED_HAND = {
    "dealer": 0,
    "events": [
        kong(2, "added", "4p"),
        {"type": "win", "from": 2, "tile": "4p", "situation": ["robbing_kong"],
         "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}]},
    ],
}  # fmt: skip


def test_the_kong_money_a_robbed_player_pays_the_robber_is_not_counted_as_a_transfer():
    hand = settled(ROBBED_HAND, "xuezhan9")
    assert [(p.payer, p.payee, p.amount, p.reason) for p in hand.payments] == [
        ("S2", "S1", 2, "win"),
        ("S2", "S1", 3, "kong_to_winner"),
    ]
    f = session_facts([(1, hand)])
    assert [s.transfer_paid for s in f.seats] == [0, 0, 0, 0]
    assert [s.transfer_received for s in f.seats] == [0, 0, 0, 0]
    # nor as kong income: the kong was cancelled, it collected nothing
    assert [s.kong_net for s in f.seats] == [0, 0, 0, 0]
    assert f.seats[1].exchanged == {2: 5} and f.seats[2].exchanged == {1: -5}
    assert [s.kongs_added for s in f.seats] == [0, 0, 1, 0]


def test_a_robbed_hand_stored_before_it_had_its_own_reason_counts_the_same():
    """Format 1 (no ``format``): 杠钱归胡家 was written ``kong_transfer``; read back, the
    robbing win tells it apart, and it is not counted as 呼叫转移 either."""
    hand = settled(ROBBED_HAND, "xuezhan9")
    old = hand.as_dict()
    del old["format"]
    old["payments"] = [{**p, "reason": "kong_transfer"} if p["amount"] == 3 else p
                       for p in old["payments"]]  # fmt: skip
    read = Settlement.from_dict(old, HandRecord.from_dict(ROBBED_HAND, hand.record.ruleset))
    assert read == hand
    f = session_facts([(1, read)])
    assert [s.transfer_received for s in f.seats] == [0, 0, 0, 0]


def test_a_kong_handed_on_by_kong_transfer_is_counted_as_one():
    """qq (呼叫转移 ``copy``, RULES §4.4): S2 暗杠 9s, 2 from each of S0, S1, S3 (+6); S1 wins
    on S2's next discard 4p (杠上炮): 平胡 1 + 杠上炮 1 = 2 fan → 2, and S2 hands S1 the kong's
    income, 6 (``kong_transfer``)."""
    hand = settled(
        {"dealer": 0, "events": [
            kong(2, "concealed", "9s"),
            {"type": "win", "from": 2, "tile": "4p", "situation": ["kong_discard"],
             "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}]},
        ]}
    )  # fmt: skip
    assert ("S2", "S1", 6, "kong_transfer") in [
        (p.payer, p.payee, p.amount, p.reason) for p in hand.payments
    ]
    f = session_facts([(1, hand)])
    assert [s.transfer_paid for s in f.seats] == [0, 0, 6, 0]
    assert [s.transfer_received for s in f.seats] == [0, 6, 0, 0]
