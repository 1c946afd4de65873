"""A player's statistics worked out by hand from the evening of ``stats_scenario`` (qq, base 1):
the figures, the bases they rest on, pattern counts, head-to-head, periods and tournaments."""

from __future__ import annotations

import pytest
from django.db import connection

from ratings.api.stats import PlayerStatsSerializer
from ratings.services import session_refresh
from tests.helpers import assert_shape, client_for
from tests.ratings.generate import generated_club
from tests.ratings.stats_scenario import HAND_DECLARED, evening, members, play, tournament_table

pytestmark = pytest.mark.django_db


def stats(player, query: str = "", user=None) -> dict:
    response = client_for(user).get(f"/api/v1/players/{player.pk}/stats/{query}")
    assert response.status_code == 200, response.json()
    data = response.json()
    assert_shape(data, PlayerStatsSerializer())
    return data


@pytest.fixture
def ev():
    return evening()


def test_scores_rest_on_every_session_entered_totals_included(ev):
    data = stats(ev.a)
    assert data["player"] == {"id": ev.a.pk, "name": "A"}
    assert data["scope"] == {
        "kind": "club", "club": None, "tournament": None, "first_day": None, "last_day": None,
        "clubs": [{"slug": "teahouse", "name": "Teahouse"}],
    }  # fmt: skip
    # A: session 1 +5 (hands: −12 +16 +1), 2nd behind D's +31; session 2 +20 entered, 1st;
    # session 3 −1 (he paid B's 平胡), 4th (E and C level on 0 share 2nd)
    assert data["scores"] == {
        "basis": "sessions", "sessions": 3, "total_score": 24, "average_score": 8.0,
        "places": [1, 1, 0, 1], "place_rates": [0.3333, 0.3333, 0.0, 0.3333],
    }  # fmt: skip


def test_the_basis_of_each_group(ev):
    # three sessions, one of entered totals; sessions 1 and 3 have 3 + 1 = 4 hands, of which
    # hand 3 of session 1 was declared. A won once, in that declared hand.
    assert stats(ev.a)["basis"] == {
        "sessions": 3, "entered_sessions": 1, "sessions_with_hands": 2, "hands": 4,
        "shown_hands": 3, "declared_hands": 1, "wins": 1, "shown_wins": 0, "declared_wins": 1,
    }  # fmt: skip


def test_hand_figures_of_the_player_who_paid_most(ev):
    hands = stats(ev.a)["hands"]
    assert hands == {
        "basis": "hands",
        # one win (hand 3, 2nd to win) in 4 hands; no self-draw
        "wins": 1, "win_rate": 0.25, "self_draws": 0, "self_draw_rate": 0.0,
        # 点炮: his 4p won by S1 and S2 at once is one (一炮多响), his 9p after the kong one,
        # his 4p of session 3 one: 3 in 4 hands
        "deal_ins": 3, "deal_in_rate": 0.75,
        # 被自摸: D's 清一色 (hand 1) and B's 对对胡 (hand 3)
        "self_drawn_against": 2, "self_drawn_against_rate": 0.5,
        "win_order": {"first": 0, "second": 1, "third": 0},
        # 暗杠 5m (hand 2) and 弯杠 7s (hand 3); 杠钱: −2 for D's 暗杠, +6, +3 = 7, the 6 he
        # handed on to C by 呼叫转移 counted apart
        "kongs": {"concealed": 1, "direct": 0, "added": 1, "total": 2, "net": 7},
        "kong_transfer": {"paid": 6, "received": 0},
        # D, not ready at the draw of hand 2, paid him his wait: 平胡 + 1 根 = 2
        "chajiao": {"paid": 0, "received": 2},
        "huazhu": 0,
    }  # fmt: skip


def test_huazhu_chajiao_and_transfers_of_the_others(ev):
    b, c, d = (stats(p)["hands"] for p in (ev.b, ev.c, ev.d))
    # B held three suits at the draw of hand 2; 直杠 3p in hand 3 (+1) after paying 2 for
    # each 暗杠 and 1 for A's 弯杠: 1 − 2 − 2 − 1 = −4
    assert b["huazhu"] == 1
    assert b["kongs"] == {"concealed": 0, "direct": 1, "added": 0, "total": 1, "net": -4}
    # C won on A's discard after A's 暗杠: the kong's 6 came to him
    assert c["kong_transfer"] == {"paid": 0, "received": 6}
    # C won three times, 1st (hand 2), 2nd (hand 1, with B on one discard) and 3rd (hand 3)
    assert c["win_order"] == {"first": 1, "second": 1, "third": 1}
    assert (c["wins"], c["win_rate"], c["self_draw_rate"]) == (3, 0.75, 0.0)
    # D paid A 查叫 2; D's 暗杠 9s: +6, then −2 for A's 暗杠 and −1 for A's 弯杠
    assert d["chajiao"] == {"paid": 2, "received": 0}
    assert d["kongs"]["net"] == 3
    # B: 3 wins in 4 hands, one of them self-drawn
    assert (b["wins"], b["self_draws"], b["self_draw_rate"]) == (3, 1, 0.3333)


def test_win_values_patterns_and_roots(ev):
    c = stats(ev.c)["win_values"]
    # C: 平胡 1 (hand 1), 平胡 + 杠上炮 2 (hand 2), declared 清一色 4 (hand 3): 7 in 3 wins
    assert (c["basis"], c["wins"], c["total"], c["average"]) == ("wins", 3, 7, 2.3333)
    assert c["patterns"] == [
        {"code": "pinghu", "zh": "平胡", "en": "Basic win", "wins": 2, "shown": 2},
        {"code": "qingyise", "zh": "清一色", "en": "Pure one suit", "wins": 1, "shown": 0},
    ]
    assert c["roots"] == {"0": 3}
    session = ev.sessions[0].pk
    assert c["biggest"] == {
        "amount": 4, "pattern": "qingyise", "zh": "清一色", "en": "Pure one suit", "roots": 0,
        "self_draw": False, "verified": False, "session": session, "hand": 3,
        "started_at": c["biggest"]["started_at"],
        "day": "2025-03-01",  # 12:00 UTC is 20:00 in Chengdu, the same evening
    }  # fmt: skip
    # D's one win: 清一色 + the root of his 暗杠 9s, self-drawn: 4 fan → 8 from each payer
    d = stats(ev.d)["win_values"]
    assert d["biggest"]["amount"] == 8 and d["biggest"]["self_draw"] is True
    assert (d["roots"], d["patterns"][0]["code"]) == ({"1": 1}, "qingyise")
    # B: 平胡 (hand 1), declared 对对胡 + 1 根 (hand 3), 平胡 (session 3): roots 0, 1, 0
    b = stats(ev.b)["win_values"]
    assert b["roots"] == {"0": 2, "1": 1}
    assert [(p["code"], p["wins"], p["shown"]) for p in b["patterns"]] == [
        ("pinghu", 2, 2),
        ("duiduihu", 1, 0),
    ]


def test_a_pattern_takes_the_name_its_preset_gives_it(ev):
    # chengdu calls 对对胡 大对子 (RULES §3.2): G's declared 对对胡 there counts by that name
    f, g, h = members(ev.club, "F", "G", "H")
    later = ev.sessions[2].started_at
    play(ev.club, [f, g, h, ev.e], later, [HAND_DECLARED], ruleset="chengdu")
    [pattern] = [p for p in stats(g)["win_values"]["patterns"] if p["code"] == "duiduihu"]
    assert (pattern["zh"], pattern["en"], pattern["wins"]) == ("大对子", "All pungs", 1)
    # B has one under qq (对对胡) and now one under chengdu: the presets disagree, so the
    # pattern's usual name
    play(ev.club, [f, ev.b, h, ev.e], later, [HAND_DECLARED], ruleset="chengdu")
    [pattern] = [p for p in stats(ev.b)["win_values"]["patterns"] if p["code"] == "duiduihu"]
    assert (pattern["zh"], pattern["wins"]) == ("对对胡", 2)


def test_head_to_head(ev):
    h2h = stats(ev.a)["head_to_head"]
    assert h2h == [
        # B: sessions 1, 2, 3. Net: session 1 +14 (B paid him 2 for his 暗杠 and 16 as 花猪,
        # he paid B 1 for the 4p and 4 for B's 自摸, B paid 1 for his 弯杠: 2 + 16 − 1 − 4 + 1);
        # session 3 −1. Places: 2 vs 4, 1 vs 3, 4 vs 1
        {"id": ev.b.pk, "name": "B", "sessions": 3, "net": 13, "above": 2, "below": 1,
         "level": 0},
        # C: −1 (the 4p), +2 −2 −6 (kong, win, 呼叫转移), +1 (弯杠) = −6; 2 vs 3, 1 vs 3, 4 vs 2
        {"id": ev.c.pk, "name": "C", "sessions": 3, "net": -6, "above": 2, "below": 1,
         "level": 0},
        # D: −2 −8 (kong, 自摸), +2 +2 (kong, 查叫), +1 +2 (弯杠, his win) = −3; entered
        # totals exchange nothing. 2 vs 1, 1 vs 2
        {"id": ev.d.pk, "name": "D", "sessions": 2, "net": -3, "above": 1, "below": 1,
         "level": 0},
        {"id": ev.e.pk, "name": "E", "sessions": 1, "net": 0, "above": 0, "below": 1,
         "level": 0},
    ]  # fmt: skip
    # B and C tied 3rd in session 2: level there
    c_for_b = next(o for o in stats(ev.b)["head_to_head"] if o["id"] == ev.c.pk)
    assert c_for_b["level"] == 1
    # what one receives from the other the other pays: the nets mirror
    assert next(o for o in stats(ev.b)["head_to_head"] if o["id"] == ev.a.pk)["net"] == -13


def test_a_period_is_read_in_the_clubs_time_zone(db):
    from datetime import UTC, datetime

    # 17:30 UTC on 1 March is 01:30 on 2 March in Chengdu: session 1 belongs to 2 March,
    # session 2 to the 3rd, session 3 to the 4th
    ev = evening(start=datetime(2025, 3, 1, 17, 30, tzinfo=UTC))
    data = stats(ev.a, "?from=2025-03-02&to=2025-03-02")
    assert (data["scope"]["first_day"], data["scope"]["last_day"]) == ("2025-03-02", "2025-03-02")
    assert (data["scores"]["sessions"], data["scores"]["total_score"]) == (1, 5)
    assert [s["session"] for s in data["ratings"][0]["history"]] == [ev.sessions[0].pk]
    assert stats(ev.a, "?to=2025-03-01")["scores"]["sessions"] == 0
    later = stats(ev.a, "?from=2025-03-03")
    # sessions 2 (entered, +20) and 3 (−1): one hand; head-to-head from them alone
    assert (later["scores"]["total_score"], later["basis"]["hands"]) == (19, 1)
    assert {o["name"]: o["sessions"] for o in later["head_to_head"]} == {
        "B": 2, "C": 2, "D": 1, "E": 1,
    }  # fmt: skip


def test_rating_history(ev):
    [pool] = stats(ev.a)["ratings"]
    assert pool["club"] == {"slug": "teahouse", "name": "Teahouse"}
    assert pool["tournament"] is None
    assert (pool["sessions"], pool["provisional"]) == (3, True)
    steps = pool["history"]
    assert [(s["session"], s["score"], s["place"]) for s in steps] == [
        (ev.sessions[0].pk, 5, 2), (ev.sessions[1].pk, 20, 1), (ev.sessions[2].pk, -1, 4),
    ]  # fmt: skip
    assert steps[0]["rating_before"] == 1500.0  # a new player
    for before, after in zip(steps, steps[1:], strict=False):
        assert after["rating_before"] == before["rating_after"]
    assert all(s["delta"] == pytest.approx(s["rating_after"] - s["rating_before"]) for s in steps)
    assert pool["rating"] == steps[-1]["rating_after"]
    # four equal newcomers at session 1: each is expected 1st, with a chance of one in four
    assert (steps[0]["expected_place"], steps[0]["expected_probability"]) == (1, 0.25)


def test_tournament_tables_stay_apart_from_club_money(ev):
    tournament_table(ev.club, {ev.a: 30, ev.b: -10, ev.c: -10, ev.d: -10})
    club = stats(ev.a)
    # the club figures do not move: 3 sessions, +24
    assert (club["scores"]["sessions"], club["scores"]["total_score"]) == (3, 24)
    assert len(club["ratings"]) == 1 and club["ratings"][0]["tournament"] is None
    assert club["tournaments"] == [{
        "tournament": {"slug": "spring-cup", "name": "Spring Cup"}, "tables": 1, "score": 30,
        "places": [1, 0, 0, 0],
    }]  # fmt: skip
    cup = stats(ev.a, "?tournament=spring-cup")
    assert cup["scope"]["kind"] == "tournament" and cup["scope"]["clubs"] == []
    assert (cup["scores"]["total_score"], cup["scores"]["places"]) == (30, [1, 0, 0, 0])
    # a table of entered totals: no hands to rest hand figures on
    basis, hands = cup["basis"], cup["hands"]
    assert (basis["sessions"], basis["hands"], hands["win_rate"]) == (1, 0, None)
    [pool] = cup["ratings"]
    assert pool["tournament"] == {"slug": "spring-cup", "name": "Spring Cup"}
    assert len(pool["history"]) == 1
    # B, C and D tied 2nd on −10: he finished above each of them
    assert {(o["name"], o["above"], o["net"]) for o in cup["head_to_head"]} == {
        ("B", 1, 0), ("C", 1, 0), ("D", 1, 0),
    }  # fmt: skip
    # one club's own tables: the same club figures
    assert stats(ev.a, "?club=teahouse")["scores"] == club["scores"]


def test_a_player_with_nothing_in_scope_has_empty_figures(ev):
    data = stats(ev.e, "?from=2030-01-01")
    assert data["scores"]["sessions"] == 0 and data["scores"]["average_score"] is None
    assert data["hands"]["win_rate"] is None and data["win_values"]["biggest"] is None
    assert data["win_values"]["roots"] == {} and data["head_to_head"] == []
    assert data["ratings"][0]["history"] == []  # the rating stands; no step in the period


def test_a_session_finished_between_the_two_head_to_head_queries(db):
    """Found by a load run: a worker wrote a session's lines between the query of the player's
    lines and the query of his opponents' at those tables (its subquery read them again), and
    the statistics answered 500 (KeyError). That session counts from the next request on; this
    one answers with what it read first."""
    g = generated_club(players=4, sessions=2)
    first, second = sorted(g.sessions, key=lambda s: (s.started_at, s.pk))
    session_refresh(session_id=first.pk)
    seen = []

    def worker_commits_meanwhile(execute, sql, params, many, context):
        if seen == ["his lines"]:  # the query after his own lines were read (and fetched)
            seen.append("the worker wrote")
            session_refresh(session_id=second.pk)
        elif not seen and '"exchanged"' in sql and "ratings_sessionline" in sql:
            seen.append("his lines")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(worker_commits_meanwhile):
        data = stats(g.regular)
    assert seen == ["his lines", "the worker wrote"]
    assert data["scores"]["sessions"] == 1  # read before the worker wrote
    assert [o["sessions"] for o in data["head_to_head"]] == [1, 1, 1]
    assert [o["sessions"] for o in stats(g.regular)["head_to_head"]] == [2, 2, 2]
