"""Demo data for ``manage.py demo``: a public Chengdu club with eight players and three tables.

:func:`demo_club_create` builds it through the services, so every hand is validated and
settled by the engine exactly as a scorer's would be. It is idempotent: when the demo club's
slug exists nothing is created.

The hands (Chengdu rules, 血战到底, base 1) are written as a scorer submits them: the engine's
hand record without ``ruleset``/``base``/``mode``, which the session supplies. Together they
show 暗杠, 直杠 and 弯杠, 一炮多响, 杠上花, a drawn hand (流局) with 查花猪 and 查叫, and
叫马 bettors. Each record respects the wall: never more than four copies of a tile, bettors'
tiles included.

:func:`demo_history_create` then gives the club its months of club evenings
(``clubs.demo_history``), once: when the club has no history yet (also a demo club made before
the history existed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clubs import demo_history
from clubs.models import Club, Player, TableSession
from clubs.services.clubs import club_create, player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create
from core.demo import DemoReport, each_task_once

SLUG = "chengdu-teahouse"
NAME = "成都茶馆麻将社"
RULESET = "chengdu"
#: the eight players; the first is the admin login's player and owns the club
PLAYERS = ("张伟", "李娜", "王芳", "刘洋", "陈静", "杨磊", "赵敏", "黄勇")
#: a 叫马 bettor who is not a player of the service
GUEST = "老王"


def kong(seat: int, kind: str, tile: str, source: int | None = None) -> dict[str, Any]:
    event = {"type": "kong", "seat": seat, "kind": kind, "tile": tile}
    if source is not None:
        event["from"] = source
    return event


def win(source: int | None, tile: str, *winners: dict[str, Any], situation=()) -> dict[str, Any]:
    return {
        "type": "win",
        "from": source,
        "tile": tile,
        "situation": list(situation),
        "winners": list(winners),
    }


def hand(seat: int | None, concealed: str, *melds: tuple[str, str, bool]) -> dict[str, Any]:
    """A winner (``seat`` given) or a hand shown at the draw (``seat`` None)."""
    shown: dict[str, Any] = {
        "concealed": concealed,
        "melds": [{"kind": k, "tile": t, "concealed": c} for k, t, c in melds],
    }
    return shown if seat is None else {"seat": seat, **shown}


# --- table 1 (closed): 暗杠, 直杠 + 一炮多响, 弯杠 + 流局 with 花猪 and 查叫 ----------------------

TABLE_ONE = [
    {  # S2 暗杠 9s; S1 自摸 平胡; S3 清一色 on S0's discard; S2 wins on S0's 9p
        "dealer": 0,
        "events": [
            kong(2, "concealed", "9s"),
            win(None, "6m", hand(1, "234m456m78m22p333p")),
            win(0, "4s", hand(3, "11s234s567s888s23s")),
            win(0, "9p", hand(2, "123p456p78p55p", ("kong", "9s", True))),
        ],
    },
    {  # S0 直杠 5p on S3's discard; 一炮多响: S1's 7s won by S2 and S3; S0 自摸
        "dealer": 1,
        "events": [
            kong(0, "direct", "5p", 3),
            win(1, "7s", hand(2, "123m456m789m66s89s"), hand(3, "111p234p678p99p56s")),
            win(None, "3s", hand(0, "12s456s789s22s", ("kong", "5p", False))),
        ],
    },
    {  # S1 弯杠 2m; S3 wins on S0's 6p; the wall runs out: S0 花猪 pays the cap to S1 and
        # S2, S2 is not ready and pays S1 查叫; S1 keeps his kong income
        "dealer": 1,
        "events": [
            kong(1, "added", "2m"),
            win(0, "6p", hand(3, "123p567p888p33p45p")),
        ],
        "draw": {
            "hands": {
                "0": hand(None, "456m999p789s1122s"),
                "1": hand(None, "345m678m99m11p", ("kong", "2m", False)),
                "2": hand(None, "1357m4689m1357s9s"),
            }
        },
    },
]

# --- table 2 (closed), with two 叫马 bettors: a player and a guest ------------------------------


def table_two(bettor: str) -> list[dict[str, Any]]:
    return [
        {  # S2 直杠 8m on S0's discard; S1 on S3's 2s, S0 自摸, S3 on S2's 7s
            "dealer": 0,
            "events": [
                kong(2, "direct", "8m", 0),
                win(3, "2s", hand(1, "345s678s999p11p22s")),
                win(None, "5p", hand(0, "234m567m11m345p46p")),
                win(2, "7s", hand(3, "123m456m567s11s89s")),
            ],
            "bettors": [{"name": GUEST, "tile": "2p"}, {"name": bettor, "tile": "5m"}],
        },
        {  # S0 wins on S3's 1m; S2 暗杠 3s and 杠上花 清一色; 流局: S3 pays S1 查叫
            "dealer": 1,
            "events": [
                win(3, "1m", hand(0, "23m456m789m555p66p")),
                kong(2, "concealed", "3s"),
                win(
                    None,
                    "6s",
                    hand(2, "11s45s678s789s", ("kong", "3s", True)),
                    situation=["kong_flower"],
                ),
            ],
            "draw": {
                "hands": {
                    "1": hand(None, "123m345m678m99m67p"),
                    "3": hand(None, "1248p99p125789s5s"),
                }
            },
            "bettors": [{"name": GUEST, "tile": "9s"}, {"name": bettor, "tile": "4p"}],
        },
    ]


# --- table 3 (open): two hands so far ----------------------------------------------------------

TABLE_THREE = [
    {  # S2 on S0's 8p; S3 自摸 清七对 (capped); S1 on S0's 3s
        "dealer": 0,
        "events": [
            win(0, "8p", hand(2, "111p222s345s66p79p")),
            win(None, "9m", hand(3, "112233445566m9m")),
            win(0, "3s", hand(1, "777m888m99s456s33s")),
        ],
    },
    {  # S0 自摸; S1 and S2 each win on S3's discards
        "dealer": 2,
        "events": [
            win(None, "5m", hand(0, "123m46m789m111p99p")),
            win(3, "2s", hand(1, "34s567s111s888p99s")),
            win(3, "6p", hand(2, "45p123p777p22s333s")),
        ],
    },
]


@dataclass
class DemoSummary:
    club: Club | None
    players: int = 0
    sessions: int = 0
    hands: int = 0
    payments: int = 0

    def __str__(self) -> str:
        if self.club is None:
            return "Demo club already present: nothing added."
        return (
            f"Created demo club {self.club.name} ({self.club.slug}): {self.players} players, "
            f"{self.sessions} sessions, {self.hands} hands, {self.payments} payments."
        )


def _owner_player(user, name: str) -> Player:
    player = getattr(user, "player", None)
    return player or Player.objects.create(name=name, user=user)


def _play(session: TableSession, hands: list[dict[str, Any]], user, summary) -> None:
    for data in hands:
        recorded = hand_record(session=session, data=data, user=user)
        summary.hands += 1
        summary.payments += len(recorded.payments)


@transaction.atomic
def demo_club_create(*, username: str) -> DemoSummary:
    """The demo club, its eight players and three tables; nothing when it already exists."""
    if Club.objects.filter(slug=SLUG).exists():
        return DemoSummary(club=None)
    user = get_user_model().objects.get(username=username)
    owner = _owner_player(user, PLAYERS[0])  # club_create makes the login's player its owner
    club = club_create(name=NAME, slug=SLUG, user=user, ruleset=RULESET, base=1)
    players = [owner]
    for name in PLAYERS[1:]:
        players.append(player_create(club=club, name=name).player)
    summary = DemoSummary(club=club, players=len(players))
    now = timezone.now().replace(second=0, microsecond=0)

    def table(seated, started_at, notes, bettors=None) -> TableSession:
        summary.sessions += 1
        return session_create(
            club=club,
            players=seated,
            user=user,
            started_at=started_at,
            notes=notes,
            bettors=bettors,
        )

    one = table(players[:4], now - timedelta(days=2, hours=5), "下午场")
    _play(one, TABLE_ONE, user, summary)
    session_close(session=one)

    bettor = players[0]
    two = table(
        players[4:],
        now - timedelta(days=1, hours=3),
        "晚场, 两位叫马",
        bettors=[{"player": bettor}, {"guest_name": GUEST}],
    )
    _play(two, table_two(bettor.name), user, summary)
    session_close(session=two)

    three = table(
        [players[0], players[2], players[4], players[6]],
        now - timedelta(hours=1),
        "今天的局 (进行中)",
    )
    _play(three, TABLE_THREE, user, summary)
    return summary


@transaction.atomic
def demo_history_create(*, username: str, days: int = demo_history.DAYS):
    """The demo club's evenings of the last ``days`` days (``clubs.demo_history``); None
    when there is no demo club, or it has its history already."""
    club = Club.objects.filter(slug=SLUG).first()
    if club is None or days <= 0 or demo_history.has_history(club):
        return None
    user = get_user_model().objects.get(username=username)
    with each_task_once():  # each table's refresh once, not once per hand
        return demo_history.history_create(club=club, user=user, days=days)


def build_demo(*, username: str) -> DemoReport:
    """``manage.py demo``'s step for this app (see ``core.demo``): the club, then its history
    (``DEMO_DAYS`` days of evenings, default 100; 0: none)."""
    summary = demo_club_create(username=username)
    days = int(os.environ.get("DEMO_DAYS", demo_history.DAYS))
    history = demo_history_create(username=username, days=days)
    slug = summary.club.slug if summary.club else SLUG
    links = (
        ("club page", f"/clubs/{slug}/"),
        ("ranking", f"/clubs/{slug}/ranking/"),
        ("club API", f"/api/v1/clubs/{slug}/"),
        ("ranking API", f"/api/v1/clubs/{slug}/ranking/"),
        ("awards API", f"/api/v1/clubs/{slug}/awards/"),
    )
    message = str(summary) if history is None else f"{summary}\n{history}"
    created = summary.club is not None or history is not None
    return DemoReport(message, created=created, links=links)
