"""A small club evening for the statistics tests, built through the clubs services.

qq rules (the factories' club default), base 1. Four players sit as S0 A, S1 B, S2 C, S3 D.
Every amount below is worked out from RULES §3.1 (qq: value = 2^(fan − 1); 暗杠 2 from each
player still in, 直杠 1 from the discarder, 弯杠 1 from each; 花猪 16 to each non-花猪 player
still in; 查叫 赔大; 呼叫转移 ``copy``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from clubs.models import Club, Player, TableSession
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create, session_result_enter
from ratings.services import club_awards_refresh, session_refresh
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import login
from tournaments import services as tournaments
from tournaments.models import Tournament

#: session 1 of the evening: 20:00 in Chengdu on 1 March 2025 (12:00 UTC)
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def kong(seat: int, kind: str, tile: str, source: int | None = None) -> dict[str, Any]:
    event = {"type": "kong", "seat": seat, "kind": kind, "tile": tile}
    if source is not None:
        event["from"] = source
    return event


def win(source: int | None, tile: str, *winners: dict[str, Any], situation=()) -> dict[str, Any]:
    return {"type": "win", "from": source, "tile": tile, "situation": list(situation),
            "winners": list(winners)}  # fmt: skip


def shown(seat: int | None, concealed: str, *melds: tuple[str, str, bool]) -> dict[str, Any]:
    """A winner shown by tiles (``seat`` given) or a hand shown at the draw (``seat`` None)."""
    hand: dict[str, Any] = {
        "concealed": concealed,
        "melds": [{"kind": k, "tile": t, "concealed": c} for k, t, c in melds],
    }
    return hand if seat is None else {"seat": seat, **hand}


def declared(seat: int, pattern: str, roots: int = 0) -> dict[str, Any]:
    return {"seat": seat, "declared": {"pattern": pattern, "roots": roots}}


#: hand 1 (dealer S0): S3 暗杠 9s: S0, S1, S2 pay 2 each (S3 +6). S3 自摸 清一色 with the kong
#: as its root: 3 + 1 = 4 fan → 8 from each of S0, S1, S2 (S3 +24). Then S0's 4p is won by S1
#: (平胡, 1 fan → 1) and by S2 (平胡 → 1): 一炮多响, one 点炮 for S0, who pays 2.
#: S0 −2 −8 −2 = −12; S1 −2 −8 +1 = −9; S2 −2 −8 +1 = −9; S3 +6 +24 = +30.
HAND_KONG_MULTI = {
    "dealer": 0,
    "events": [
        kong(3, "concealed", "9s"),
        win(None, "6s", shown(3, "234s567s11s78s", ("kong", "9s", True))),
        win(0, "4p", shown(1, "123m456m789m11p23p"), shown(2, "345s678s222s55p35p")),
    ],
}

#: hand 2 (dealer S0): S0 暗杠 5m (+6 from S1, S2, S3); S0's next discard 9p is won by S2
#: (平胡 + 杠上炮: 2 fan → 2), and 呼叫转移 hands S2 the kong's income, 6. The wall runs out
#: with S0, S1, S3 in: S1 holds three suits (花猪) and pays 16 to each of S0 and S3; S3 is not
#: ready and pays S0 查叫: S0 waits on 5p/8p, 平胡 + his kong's root = 2 fan → 2. S0 is ready
#: and keeps his kong money (what 呼叫转移 moved is gone anyway).
#: S0 +6 −2 −6 +16 +2 = +16; S1 −2 −32 = −34; S2 −2 +2 +6 = +6; S3 −2 +16 −2 = +12.
HAND_TRANSFER_DRAW = {
    "dealer": 0,
    "events": [
        kong(0, "concealed", "5m"),
        win(0, "9p", shown(2, "123s456s789s22s78p"), situation=["kong_discard"]),
    ],
    "draw": {
        "hands": {
            "0": shown(None, "234m678m55p67p", ("kong", "5m", True)),
            "1": shown(None, "123m456p789s1112s"),
            "3": shown(None, "1379m2468p13579p"),
        }
    },
}

#: hand 3 (dealer S1), all declared: S1 直杠 3p on S2's discard (S2 pays 1); S0 弯杠 7s (S1,
#: S2, S3 pay 1 each). S1 自摸 对对胡 with his kong's root: 2 + 1 = 3 fan → 4 from each of S0,
#: S2, S3. S0 平胡 with his kong's root on S3's discard: 2 fan → 2. S2 清一色 on S3's
#: discard: 3 fan → 4.
#: S0 +3 −4 +2 = +1; S1 +1 −1 +12 = +12; S2 −1 −1 −4 +4 = −2; S3 −1 −4 −2 −4 = −11.
HAND_DECLARED = {
    "dealer": 1,
    "events": [
        kong(1, "direct", "3p", 2),
        kong(0, "added", "7s"),
        win(None, "6p", declared(1, "duiduihu", 1)),
        win(3, "2m", declared(0, "pinghu", 1)),
        win(3, "5s", declared(2, "qingyise")),
    ],
}

#: session 3's one hand (普通 mode: the hand ends at the first win): S1 (B) 平胡 on S2's (A's)
#: 4p: A pays B 1.
PINGHU = {
    "dealer": 0,
    "events": [win(2, "4p", shown(1, "123m456m789m11p23p"))],
}


@dataclass
class Evening:
    club: Club
    a: Player
    b: Player
    c: Player
    d: Player
    e: Player
    sessions: list[TableSession]


def play(
    club, players, started_at, hands=(), totals=None, mode="xuezhan", ruleset=None
) -> TableSession:
    """A closed session of ``hands`` (or of entered ``totals``), its lines written and its
    pool rated (``session_refresh``, which the outbox runs after a commit in production), and
    its club's award holders rewritten (``club_awards_refresh``, the task that refresh queues
    in turn)."""
    scorer = login()
    session = session_create(
        club=club,
        players=players,
        user=scorer,
        started_at=started_at,
        mode=mode,
        ruleset=ruleset,
    )
    for data in hands:
        hand_record(session=session, data=data, user=scorer)
    if totals is not None:
        entries = [{"player": p.pk, "total": t} for p, t in zip(players, totals, strict=True)]
        session_result_enter(session=session, totals=entries, user=scorer)
    session_close(session=session)
    session_refresh(session_id=session.pk)
    club_awards_refresh(club_id=club.pk)
    return session


def members(club: Club, *names: str) -> list[Player]:
    players = [PlayerFactory(name=n) for n in names]
    for p in players:
        MembershipFactory(club=club, player=p)
    return players


def evening(club: Club | None = None, start: datetime = START) -> Evening:
    """Session 1: A B C D, the three hands above. Session 2, a day later: A B C D, totals
    entered (A +20, B −10, C −10, D 0). Session 3, a day later: E B A C, one hand (A pays B 1).
    """
    club = club or ClubFactory(slug="teahouse", name="Teahouse")
    a, b, c, d, e = members(club, *"ABCDE")
    one = play(club, [a, b, c, d], start, [HAND_KONG_MULTI, HAND_TRANSFER_DRAW, HAND_DECLARED])
    two = play(club, [a, b, c, d], start + timedelta(days=1), totals=[20, -10, -10, 0])
    three = play(club, [e, b, a, c], start + timedelta(days=2), [PINGHU], mode="single")
    return Evening(club, a, b, c, d, e, [one, two, three])


def tournament_table(club: Club, scores: dict[Player, int], **fields: Any) -> Tournament:
    """A one-round tournament of ``club`` with these four players at its one table, which
    enters their ``scores``; the table's lines written."""
    director = login()
    t = tournaments.tournament_create(
        name="Spring Cup", slug="spring-cup", user=director, club=club, rounds=1,
        hands_per_table=1, **fields,
    )  # fmt: skip
    for p in scores:
        tournaments.registration_create(tournament=t, player=p)
    tournaments.round_seat(round_id=tournaments.round_start(tournament=t).pk)
    table = t.round_set.get().tables.get()
    tournaments.table_result_enter(
        table=table, scores=[{"player": p.pk, "score": n} for p, n in scores.items()],
        user=director,
    )  # fmt: skip
    session_refresh(session_id=table.session_id)
    return t
