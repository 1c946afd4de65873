"""The hand form's conversion to a hand record (RULES §4–§6) and back, worked by hand.

Each case is what a scorer taps, and the record the engine should get for it.
"""

from __future__ import annotations

from django.http import QueryDict

from pages.tables.forms import (
    field_of,
    form_from_record,
    read_hand_form,
    record_from_form,
    split_winning_tile,
)


def post(**fields) -> QueryDict:
    """A POST as the browser sends it (lists for checkboxes)."""
    q = QueryDict(mutable=True)
    for key, value in fields.items():
        for v in value if isinstance(value, list) else [value]:
            q.appendlist(key, v)
    return q


def test_s1_self_draws_a_pure_one_suit_with_a_root():
    # "S1 自摸 清一色 1根": four taps; the dealer is left to the service (previous next dealer)
    record, problems = record_from_form(
        post(number="3", w1_seat="1", w1_from="self", w1_pattern="qingyise", w1_roots="1")
    )
    assert problems == []
    assert record == {
        "number": 3,
        "events": [
            {"type": "win", "from": None, "situation": [],
             "winners": [{"seat": 1,
                          "declared": {"pattern": "qingyise", "roots": 1, "extras": []}}]},
        ],
        "draw": None,
    }  # fmt: skip


def test_xuezhan_kong_then_two_winners_on_one_discard_then_a_self_draw():
    # S3 直杠 5m on S0's discard; then S0 discards and both S1 (清一色) and S2 (对对胡) win on it
    # (一炮多响: one win event, two winners, in order); then S3 self-draws a 平胡 with his kong
    # counted as a root (RULES §6: roots include one's own kongs); the kong comes first.
    record, problems = record_from_form(
        post(
            dealer="0",
            k1_seat="3", k1_kind="direct", k1_from="0", k1_tile="5m", k1_after="0",
            w1_seat="1", w1_from="0", w1_pattern="qingyise",
            w2_seat="2", w2_from="0", w2_with="1", w2_pattern="duiduihu",
            w3_seat="3", w3_from="self", w3_pattern="pinghu", w3_roots="1",
            w3_situation=["kong_flower"],
        )
    )  # fmt: skip
    assert problems == []
    declared = lambda p, r=0: {"pattern": p, "roots": r, "extras": []}  # noqa: E731
    assert record["dealer"] == 0
    assert record["events"] == [
        {"type": "kong", "seat": 3, "kind": "direct", "tile": "5m", "from": 0},
        {"type": "win", "from": 0, "situation": [],
         "winners": [{"seat": 1, "declared": declared("qingyise")},
                     {"seat": 2, "declared": declared("duiduihu")}]},
        {"type": "win", "from": None, "situation": ["kong_flower"],
         "winners": [{"seat": 3, "declared": declared("pinghu", 1)}]},
    ]  # fmt: skip
    assert record["draw"] is None


def test_a_kong_after_the_first_winner_goes_between_the_wins():
    # S2 暗杠 9s after S1 won: kong events sit where they happened (RULES §4: replayed in order)
    record, _ = record_from_form(
        post(
            w1_seat="1", w1_from="0", w1_pattern="pinghu",
            w2_seat="2", w2_from="self", w2_pattern="pinghu",
            k1_seat="2", k1_kind="concealed", k1_tile="9s", k1_after="1",
        )
    )  # fmt: skip
    kinds = [
        (e["type"], e.get("seat", e.get("winners", [{}])[0].get("seat"))) for e in record["events"]
    ]
    assert kinds == [("win", 1), ("kong", 2), ("win", 2)]
    assert "from" not in record["events"][1]  # a concealed kong has no discarder


def test_the_same_discarder_without_the_tap_is_two_wins():
    # S0 dealt into S1, and later into S2: two discards, not 一炮多响
    record, _ = record_from_form(
        post(w1_seat="1", w1_from="0", w1_pattern="pinghu",
             w2_seat="2", w2_from="0", w2_pattern="pinghu")
    )  # fmt: skip
    assert [len(e["winners"]) for e in record["events"]] == [1, 1]


def test_a_shown_winner_with_the_winning_tile_typed_last_and_his_kong_as_a_meld():
    # S3 shows 123s456s77s22m + 7s (typed last), with his 暗杠 9s tapped: the record's winner
    # is his concealed tiles before the win, the kong as a concealed meld (XUEZHAN's S3)
    record, problems = record_from_form(
        post(
            k1_seat="3", k1_kind="concealed", k1_tile="9s",
            w1_seat="3", w1_from="self", w1_tiles="123s456s77s22m7s",
        )
    )  # fmt: skip
    assert problems == []
    win = record["events"][1]
    assert win["tile"] == "7s"
    assert win["winners"] == [
        {"seat": 3, "concealed": "123s456s77s22m",
         "melds": [{"kind": "kong", "tile": "9s", "concealed": True}]},
    ]  # fmt: skip


def test_winning_tile_split_from_a_rank_run():
    assert split_winning_tile("123m456m789m11p234p") == ("123m456m789m11p23p", "4p")
    assert split_winning_tile("123m456m789m11p23p4p") == ("123m456m789m11p23p", "4p")
    assert split_winning_tile("1234567万") == ("123456万", "7m")
    assert split_winning_tile("abc") == ("abc", "")


def test_pungs_and_a_separate_winning_tile():
    record, _ = record_from_form(
        post(w1_seat="0", w1_from="2", w1_tiles="33p222s444s6s", w1_pungs="777p", w1_tile="6s")
    )
    (win,) = record["events"]
    assert win["tile"] == "6s"
    assert win["winners"][0]["melds"] == [{"kind": "pung", "tile": "7p"}]


def test_the_draw_declared_and_shown():
    # 血战: S1 won; at the wall's end S0 is 花猪, S2 is ready on 对对胡 with 1 root, S3 shows
    record, problems = record_from_form(
        post(
            w1_seat="1", w1_from="self", w1_pattern="pinghu",
            d0_state="huazhu",
            d2_state="ready", d2_pattern="duiduihu", d2_roots="1",
            d3_tiles="1357m2468m13799p",
        )
    )  # fmt: skip
    assert problems == []
    assert record["draw"] == {"hands": {
        "0": {"declared": "huazhu"},
        "2": {"declared": "ready", "wait": {"pattern": "duiduihu", "roots": 1}},
        "3": {"concealed": "1357m2468m13799p"},
    }}  # fmt: skip


def test_what_the_form_cannot_read_is_named_by_field():
    _, problems = record_from_form(
        post(
            w1_seat="1",  # no from
            w2_seat="2", w2_from="0",  # no pattern, no tiles
            k1_seat="3", k1_kind="direct",  # no discarder
            k2_kind="added",  # nobody
        )
    )  # fmt: skip
    assert [p.field for p in problems] == ["k1_from", "k2_seat", "w1_from", "w2_pattern"]


def test_a_winner_is_not_in_the_draw():
    _, problems = record_from_form(
        post(w1_seat="1", w1_from="self", w1_pattern="pinghu", d1_state="not_ready")
    )
    assert [p.field for p in problems] == ["d1_state"]


def test_an_empty_form_asks_for_a_winner_or_a_draw():
    _, problems = record_from_form(post(number="1"))
    assert [p.field for p in problems] == ["w1_seat"]


def test_bettor_tiles_by_name():
    record, _ = record_from_form(
        post(w1_seat="1", w1_from="self", w1_pattern="pinghu", b1_tile="5s"),
        bettors=["Lao Wang", "Xiao Li"],
    )
    assert record["bettors"] == [{"name": "Xiao Li", "tile": "5s"}]


def test_a_bettors_tile_tapped_as_rank_and_suit_or_typed():
    # Lao Wang taps 5 and 条; Xiao Li's was typed (the typed tile wins when both are given)
    record, problems = record_from_form(
        post(w1_seat="1", w1_from="self", w1_pattern="pinghu", b0_rank="5", b0_suit="s",
             b1_tile="7p", b1_rank="1", b1_suit="m"),
        bettors=["Lao Wang", "Xiao Li"],
    )  # fmt: skip
    assert problems == []
    assert record["bettors"] == [
        {"name": "Lao Wang", "tile": "5s"},
        {"name": "Xiao Li", "tile": "7p"},
    ]
    # back in the form, a tile is its two chips
    again = form_from_record(record, bettors=["Lao Wang", "Xiao Li"])
    assert (again["b0_rank"], again["b0_suit"], again["b1_rank"], again["b1_suit"]) == (
        "5", "s", "7", "p")  # fmt: skip
    assert "b0_tile" not in again


def test_a_record_goes_back_into_the_form_and_out_the_same():
    forms_post = dict(  # noqa: C408 - the form's field names, as keywords
        dealer="2",
        k1_seat="3", k1_kind="direct", k1_from="0", k1_tile="5m", k1_after="0",
        k2_seat="1", k2_kind="added", k2_tile="7p", k2_after="2",
        w1_seat="1", w1_from="0", w1_pattern="qingyise", w1_roots="1",
        w1_situation=["kong_discard"],
        w2_seat="2", w2_from="0", w2_with="1", w2_tiles="123m456m789m11p23p", w2_tile="4p",
        d0_state="ready", d0_pattern="pinghu", d0_roots="0",
        d3_state="not_ready",
        b0_tile="9m",
    )  # fmt: skip
    record, problems = record_from_form(post(**forms_post), bettors=["Guest"])
    assert problems == []
    again = form_from_record(record, bettors=["Guest"])
    record2, problems2 = record_from_form(post(**again), bettors=["Guest"])
    assert problems2 == []
    assert record2 == record


def test_tiles_tapped_as_rank_and_suit():
    # "S3 杠 5万": seat, kind, 5, 万 — and the declared winner's tile 9条 the same way
    record, problems = record_from_form(
        post(
            k1_seat="3", k1_kind="concealed", k1_rank="5", k1_suit="m",
            w1_seat="1", w1_from="self", w1_pattern="qingyise", w1_rank="9", w1_suit="s",
        )
    )  # fmt: skip
    assert problems == []
    kong, win = record["events"]
    assert kong["tile"] == "5m"
    assert win["tile"] == "9s"
    assert form_from_record(record)["k1_rank"] == "5"
    assert form_from_record(record)["w1_suit"] == "s"


def test_a_declared_winner_without_the_winning_tile():
    """RULES §6: the declared "S1 自摸 清一色 1根" needs no tile; the win event has none."""
    record, problems = record_from_form(
        post(w1_seat="1", w1_from="self", w1_pattern="qingyise", w1_roots="1")
    )
    assert problems == []
    (win,) = record["events"]
    assert "tile" not in win
    assert win["winners"] == [{"seat": 1, "declared": {"pattern": "qingyise", "roots": 1,
                                                       "extras": []}}]  # fmt: skip


def test_only_a_whole_hand_typed_gives_its_last_tile_as_the_winning_one():
    """The tiles field holds the hand without the winning tile: 13 typed (and no winning
    tile) stay 13, for the engine to ask for the tile; 14 typed (11 with one pung) give the
    last one as the winning tile, as the tile picker does."""
    record, _ = record_from_form(post(w1_seat="1", w1_from="2", w1_tiles="123m456m789m11p23p"))
    (win,) = record["events"]
    assert "tile" not in win and win["winners"][0]["concealed"] == "123m456m789m11p23p"
    record, _ = record_from_form(post(w1_seat="1", w1_from="2", w1_tiles="123m456m789m11p234p"))
    assert record["events"][0]["tile"] == "4p"
    record, _ = record_from_form(
        post(w1_seat="0", w1_from="2", w1_tiles="33p222s444s66s6s", w1_pungs="777p")
    )
    (win,) = record["events"]
    assert (win["tile"], win["winners"][0]["concealed"]) == ("6s", "33p222s444s66s")


# --- 杠上杠 and 诈胡 (issue 16: RULES §4.4, §4.9) -------------------------------------------------


def test_a_kong_ticked_on_replacement_is_a_kong_on_the_kong_before():
    # S0 暗杠 5m, then on its replacement tile 暗杠 6m (杠上杠: the box on kong 2), then S1
    # wins on S0's discard (杠上炮): the two kongs come first, in their order, kong 2 flagged
    record, problems = record_from_form(
        post(
            dealer="0",
            k1_seat="0", k1_kind="concealed", k1_tile="5m",
            k2_seat="0", k2_kind="concealed", k2_tile="6m", k2_on_replacement="1",
            w1_seat="1", w1_from="0", w1_pattern="pinghu", w1_situation=["kong_discard"],
        )
    )  # fmt: skip
    assert problems == []
    kong, chained, win = record["events"]
    assert kong == {"type": "kong", "seat": 0, "kind": "concealed", "tile": "5m"}
    assert chained == {"type": "kong", "seat": 0, "kind": "concealed", "tile": "6m",
                       "on_replacement": True}  # fmt: skip
    assert win["situation"] == ["kong_discard"]


def test_false_wins_are_placed_like_kongs():
    # S2 诈胡 after winner 1; S3 诈胡 before the first win: each event where its "When" says
    record, problems = record_from_form(
        post(
            w1_seat="1", w1_from="0", w1_pattern="pinghu",
            w2_seat="2", w2_from="self", w2_pattern="pinghu",
            f1_seat="2", f1_after="1",
            f2_seat="3", f2_after="0",
        )
    )  # fmt: skip
    assert problems == []
    said = [
        (e["type"], e.get("seat", e.get("winners", [{}])[0].get("seat"))) for e in record["events"]
    ]
    assert said == [("false_win", 3), ("win", 1), ("false_win", 2), ("win", 2)]
    assert record["events"][0] == {"type": "false_win", "seat": 3}


def test_a_false_win_comes_after_the_kongs_of_its_time_so_he_returns_their_money():
    """RULES §4.9: the offender returns the kong income he has collected. His kong entered with
    the same "When" (before the first win) goes before his false win."""
    record, _ = record_from_form(
        post(
            k1_seat="3", k1_kind="concealed", k1_tile="9s",
            f1_seat="3",
            w1_seat="1", w1_from="2", w1_pattern="pinghu",
        )
    )  # fmt: skip
    assert [e["type"] for e in record["events"]] == ["kong", "false_win", "win"]


def test_a_false_win_never_comes_between_a_kong_and_the_win_made_on_it():
    """A 杠上炮 win needs the discarder's kong right before it, with the 杠上杠 chain it ends
    (RULES §4.4, §5): a false win of the same "When" goes before that chain, after the other
    kongs (nothing is declared between a kong and what is done with its replacement tile)."""
    record, _ = record_from_form(
        post(
            k1_seat="3", k1_kind="concealed", k1_tile="9s",
            k2_seat="0", k2_kind="concealed", k2_tile="5m",
            k3_seat="0", k3_kind="concealed", k3_tile="6m", k3_on_replacement="1",
            f1_seat="2",
            w1_seat="1", w1_from="0", w1_pattern="pinghu", w1_situation=["kong_discard"],
        )
    )  # fmt: skip
    said = [(e["type"], e.get("tile")) for e in record["events"]]
    assert said == [("kong", "9s"), ("false_win", None), ("kong", "5m"), ("kong", "6m"),
                    ("win", None)]  # fmt: skip


def test_a_false_win_row_without_who_is_named():
    _, problems = record_from_form(
        post(w1_seat="1", w1_from="self", w1_pattern="pinghu", f2_after="1")
    )
    assert [p.field for p in problems] == ["f2_seat"]


def test_chains_and_false_wins_go_back_into_the_form_and_out_the_same():
    fields = dict(  # noqa: C408 - the form's field names, as keywords
        dealer="0",
        k1_seat="0", k1_kind="concealed", k1_tile="5m", k1_after="0",
        k2_seat="0", k2_kind="concealed", k2_tile="6m", k2_after="0", k2_on_replacement="1",
        w1_seat="1", w1_from="0", w1_pattern="pinghu", w1_situation=["kong_discard"],
        f1_seat="2", f1_after="1",
        w2_seat="3", w2_from="self", w2_pattern="duiduihu",
        f2_seat="0", f2_after="2",
        w3_seat="2", w3_from="0", w3_pattern="qingyise", w3_roots="1",
    )  # fmt: skip
    record, problems = record_from_form(post(**fields))
    assert problems == []
    again = form_from_record(record)
    assert again["k2_on_replacement"] == "1" and "k1_on_replacement" not in again
    assert (again["f1_seat"], again["f1_after"], again["f2_seat"], again["f2_after"]) == (
        "2", "1", "0", "2")  # fmt: skip
    record2, problems2 = record_from_form(post(**again))
    assert problems2 == [] and record2 == record


def test_each_part_of_the_record_is_named_by_the_row_it_came_from():
    """What the engine refuses (a path into the record) is shown beside the form's field:
    events are numbered as the record has them, not as the rows are."""
    reading = read_hand_form(
        post(
            k1_seat="3", k1_kind="concealed", k1_tile="9s", k1_after="1",
            k2_seat="1", k2_kind="concealed", k2_tile="5m", k2_on_replacement="1",
            f1_seat="2",
            w1_seat="1", w1_from="0", w1_pattern="pinghu",
            w2_seat="2", w2_from="0", w2_with="1", w2_tiles="123m456m789m11p23p", w2_tile="4p",
            d3_state="ready",
            b0_rank="5", b0_suit="s",
        ),
        bettors=["Guest"],
    )  # fmt: skip
    # events: kong 2 (S1), the false win, the win of rows 1 and 2 (一炮多响), kong 1 (S3)
    assert [e["type"] for e in reading.record["events"]] == ["kong", "false_win", "win", "kong"]
    field = lambda path: field_of(reading.places, path)  # noqa: E731
    assert field("events[0].on_replacement") == "k2_on_replacement"
    assert field("events[1].seat") == "f1_seat"
    assert field("events[2].situation") == "w1_situation"
    assert field("events[2].winners[1].concealed") == "w2_tiles"
    assert field("events[2].winners[1].melds[0]") == "w2_pungs"
    assert field("events[3].tile") == "k1_tile"
    assert field("events[3]") == "k1_"
    assert field("draw.hands.3.wait.pattern") == "d3_pattern"
    assert field("draw.hands.0") == "d0_"  # a seat the engine misses at the draw
    assert field("bettors[0].tile") == "b0_tile"
    assert field("dealer") is None and field("events") is None
