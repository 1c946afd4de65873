"""A small club played through the services, for the ranking and awards tests.

Club "Ranking club" (qq rules, base 1, 普通 mode so a one-win record is a whole hand, time zone
Asia/Shanghai) and five players: Ann (known in the club as "Annie"), Bob, Cai, Dan and Eve.

Sessions (local times):

* **S_a**, 2024-03-01 00:30 (in UTC still 29 February), seats Ann, Bob, Cai, Dan:
  1. Bob 平胡 on Cai's discard: Cai → Bob 1.
  2. Bob 清一色 on Cai's discard (3 fan: 2^(3−1) = 4): Cai → Bob 4.
  3. Bob 自摸 平胡: Ann, Cai, Dan → Bob 1 each.
  4. Dan 暗杠 9s (2 from each other seat), then Bob 平胡 on Cai's discard: Cai → Bob 1.

  Scores: Ann −1 −2 = −3; Bob 1 + 4 + 3 + 1 − 2 = +7; Cai −1 −4 −1 −2 −1 = −9;
  Dan −1 + 6 = +5. Places Bob 1, Dan 2, Ann 3, Cai 4.
* **S_b**, 2024-03-11 21:00, seats Eve, Cai, Bob, Dan:
  1. Cai 平胡 on Bob's discard: Bob → Cai 1.
  2. Cai 自摸: Eve, Bob, Dan → Cai 1 each.

  Scores: Eve −1, Cai +4, Bob −2, Dan −1. Places Cai 1, Eve and Dan 2 (tied), Bob 4.
* **S_d**, 2024-03-20 20:00, seats Ann, Bob, Cai, Eve, totals entered (no hands):
  Ann +10, Bob −5, Cai −5, Eve 0. Places Ann 1, Eve 2, Bob and Cai 3 (tied).
* **S_c**, 2024-04-01 00:30 (in UTC still 31 March), seats Ann, Bob, Cai, Dan:
  Bob 自摸: Ann, Cai, Dan → Bob 1 each. Outside March in the club's time zone.
* an open table on 2024-03-15 (Ann, Bob, Cai, Dan, one hand of Bob's): not finished, so
  counted nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from clubs.models import Club, Player, TableSession
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create, session_result_enter
from ratings.periods import Period
from tests.clubs.factories import ClubFactory
from tests.clubs.records import PINGHU, SELFDRAW

ZONE = ZoneInfo("Asia/Shanghai")
MARCH = Period(date(2024, 3, 1), date(2024, 3, 31), "Asia/Shanghai")
ALL_TIME = Period(zone="Asia/Shanghai")

#: S1 清一色 on S2's 8s: 111s 234s 55s 666s 79s + 8s; under qq 3 fan, worth 4 at base 1
QINGYISE = {
    "dealer": 0,
    "events": [
        {"type": "win", "from": 2, "tile": "8s", "situation": [],
         "winners": [{"seat": 1, "concealed": "1112345566679s"}]},
    ],
}  # fmt: skip
#: S3 暗杠 9s (each other seat pays him 2 under qq), then S1 平胡 on S2's 4p (S2 pays 1)
KONG_THEN_PINGHU = {
    "dealer": 0,
    "events": [{"type": "kong", "seat": 3, "kind": "concealed", "tile": "9s"},
               *PINGHU["events"]],
}  # fmt: skip


def local(*args: int) -> datetime:
    return datetime(*args, tzinfo=ZONE)


def play(
    club: Club,
    players: list[Player],
    started_at: datetime,
    hands: list[dict[str, Any]] = (),
    *,
    totals: list[int] | None = None,
    close: bool = True,
) -> TableSession:
    """A session of ``players`` (seats 0–3) with these hand records or entered totals."""
    session = session_create(
        club=club, players=players, user=None, started_at=started_at, mode="single"
    )
    for data in hands:
        hand_record(session=session, data=data, user=None)
    if totals is not None:
        results = [{"player": p.pk, "total": t} for p, t in zip(players, totals, strict=True)]
        session_result_enter(session=session, totals=results, user=None)
    if close:
        session_close(session=session)
    return session


@dataclass
class RankingClub:
    club: Club
    ann: Player
    bob: Player
    cai: Player
    dan: Player
    eve: Player
    s_a: TableSession
    s_b: TableSession
    s_d: TableSession
    s_c: TableSession

    @property
    def players(self) -> list[Player]:
        return [self.ann, self.bob, self.cai, self.dan, self.eve]


def ranking_club(capture, **club: Any) -> RankingClub:
    """The club above; ``capture`` is pytest-django's ``django_capture_on_commit_callbacks``
    (the lines and ratings are written by the task each committed change queues)."""
    with capture(execute=True):
        c = ClubFactory(name="Ranking club", **club)
        ann = player_create(club=c, name="Ann", display_name="Annie").player
        bob, cai, dan, eve = (
            player_create(club=c, name=n).player for n in ("Bob", "Cai", "Dan", "Eve")
        )
        s_a = play(
            c,
            [ann, bob, cai, dan],
            local(2024, 3, 1, 0, 30),
            [PINGHU, QINGYISE, SELFDRAW, KONG_THEN_PINGHU],
        )
        s_b = play(c, [eve, cai, bob, dan], local(2024, 3, 11, 21, 0), [PINGHU, SELFDRAW])
        play(c, [ann, bob, cai, dan], local(2024, 3, 15, 20, 0), [PINGHU], close=False)
        s_d = play(c, [ann, bob, cai, eve], local(2024, 3, 20, 20, 0), totals=[10, -5, -5, 0])
        s_c = play(c, [ann, bob, cai, dan], local(2024, 4, 1, 0, 30), [SELFDRAW])
    return RankingClub(c, ann, bob, cai, dan, eve, s_a, s_b, s_d, s_c)


def club_of_tables(tables: int, capture) -> Club:
    """A club of ``4 * tables`` players, each four at one table of 1, 2, 3 … 平胡 hands."""
    with capture(execute=True):
        club = ClubFactory()
        players = [player_create(club=club, name=f"p{i}").player for i in range(4 * tables)]
        for t in range(tables):
            seated = players[4 * t : 4 * t + 4]
            play(club, seated, local(2024, 3, 2, 20 + t), [PINGHU] * (t + 1))
    return club
