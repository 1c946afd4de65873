"""The demo club's history for ``manage.py demo``: about three months of club evenings.

Two or three tables an evening, one or two evenings a week, over the last :data:`DAYS` days
(in the club's time zone, all in the past; in a month's first days, when no evening falls in it
yet, a table earlier today, so that "this month" always has something), among the demo club's
players and six regulars more. Every table goes
through the services a scorer's phone uses (``session_create``, ``hand_record``,
``session_close``; a few tables only give their final totals, ``session_result_enter``), so
the engine validates and settles every hand, and the ratings and the statistics' lines follow
from the refresh the services queue.

The hands are drawn, with a seeded :class:`random.Random`, from :data:`TEMPLATES`: a small
library of Chengdu 血战 hand records the engine accepts (shown tiles and RULES §6 declared
hands; every kind of kong, 一炮多响, 自摸, 杠上花, 杠上炮, 抢杠, draws with 花猪 and 查叫, and
a few big hands: 清一色, 清大对, 七对, 龙七对, 清七对). Each is written for dealer S0 and
played under three transformations that keep it valid: its seats rotated so that S0 is the
hand's real dealer (the previous hand's next dealer, as the engine says), its suits permuted
and, half the time, its ranks mirrored (1↔9, 2↔8 …): a sequence stays a sequence, a pair a
pair, and no tile appears more than four times.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from clubs.models import Club, Player
from clubs.services.clubs import player_create
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create, session_result_enter

#: how far back the evenings go (``manage.py demo --days``)
DAYS = 100
#: the seed of the whole history: the same club every time
SEED = 14
#: the regulars who join the demo club's eight players for its evenings
REGULARS = ("孙强", "周丽", "吴刚", "郑霞", "冯军", "何琳")
#: how often each regular comes to an evening (the club's own players: 9 evenings in 10)
ATTENDANCE = (0.6, 0.55, 0.5, 0.45, 0.15, 0.1)
#: the notes every history table carries (how the demo knows its history is there)
NOTE = "俱乐部之夜"


# --- building records ---------------------------------------------------------------------


def kong(seat: int, kind: str, tile: str, source: int | None = None) -> dict[str, Any]:
    event = {"type": "kong", "seat": seat, "kind": kind, "tile": tile}
    if source is not None:
        event["from"] = source
    return event


def win(source: int | None, tile: str | None, *winners: dict[str, Any], situation=()):
    event = {"type": "win", "from": source, "situation": list(situation), "winners": list(winners)}
    if tile is not None:
        event["tile"] = tile
    return event


def shown(seat: int | None, concealed: str, *melds: tuple[str, str, bool]) -> dict[str, Any]:
    """A winner (``seat`` given) or a hand shown at the draw (``seat`` None)."""
    out: dict[str, Any] = {
        "concealed": concealed,
        "melds": [{"kind": k, "tile": t, "concealed": c} for k, t, c in melds],
    }
    return out if seat is None else {"seat": seat, **out}


def declared(seat: int, pattern: str, roots: int = 0) -> dict[str, Any]:
    """A declared winner (RULES §6): what the hand was, without its tiles."""
    return {"seat": seat, "declared": {"pattern": pattern, "roots": roots, "extras": []}}


def ready(pattern: str, roots: int = 0) -> dict[str, Any]:
    """A player declared ready at the draw, with the wait 查叫 values him by."""
    return {"declared": "ready", "wait": {"pattern": pattern, "roots": roots, "extras": []}}


HUAZHU = {"declared": "huazhu"}
NOT_READY = {"declared": "not_ready"}


def hand(*events: dict[str, Any], draw: dict[str, Any] | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"dealer": 0, "events": list(events)}
    if draw is not None:
        record["draw"] = {"hands": {str(seat): h for seat, h in draw.items()}}
    return record


@dataclass(frozen=True)
class Template:
    """A hand record for dealer S0 that the engine accepts (Chengdu, 血战), how often a club
    sees it (``weight``), and what it shows."""

    name: str
    weight: int
    record: dict[str, Any]


# --- the library --------------------------------------------------------------------------

TEMPLATES: tuple[Template, ...] = (
    Template("three 平胡 on discards", 6, hand(
        win(2, "3m", shown(1, "12m456m789m33p456p")),
        win(3, "7s", shown(0, "456p789p11s56s456s")),
        win(3, "5p", shown(2, "234m678m99m34p777p")),
    )),
    Template("大对子 自摸 with a pung, two 平胡", 5, hand(
        win(0, "4m", shown(1, "23m567m888p99p456p")),
        win(None, "7s", shown(3, "222p333s77s99s", ("pung", "5s", False))),
        win(2, "6m", shown(0, "111m234m45m789m55p")),
    )),
    Template("清一色 on a discard", 4, hand(
        win(1, "5s", shown(2, "123s46s789s111s99s")),
        win(None, "3m", shown(0, "12m456m789m777p88p")),
        win(1, "6p", shown(3, "234m55m45p678p999p")),
    )),
    Template("暗杠, and a win with its root", 4, hand(
        kong(1, "concealed", "5m"),
        win(3, "7p", shown(1, "123m789m88p56p", ("kong", "5m", True))),
        win(None, "4s", shown(0, "111p234p678p23s99s")),
        win(3, "9m", shown(2, "234m77m99m345s678s")),
    )),
    Template("直杠 then 杠上花", 3, hand(
        kong(3, "direct", "8p", 0),
        win(None, "3s", shown(3, "11s456s12s777s", ("kong", "8p", False)),
            situation=["kong_flower"]),
        win(0, "6m", shown(1, "234m45m789m333s55s")),
        win(0, "2p", shown(2, "11m567m999m13p456p")),
    )),
    Template("弯杠 robbed: 抢杠胡", 2, hand(
        kong(0, "added", "6s"),
        win(0, "6s", shown(2, "45s789s22m345m678m"), situation=["robbing_kong"]),
        win(None, "9p", shown(1, "11m123p456p78p999m")),
        win(3, "5p", shown(0, "234s33s55p789p", ("pung", "6s", False))),
    )),
    Template("一炮多响, then 自摸", 4, hand(
        win(0, "5m", shown(1, "34m678m222p678p99p"), shown(3, "46m789m345s567s88s")),
        win(None, "1s", shown(2, "23s456s999s11m789m")),
    )),
    Template("暗七对 自摸", 3, hand(
        win(None, "9p", shown(1, "113366m225577p9p")),
        win(2, "4s", shown(0, "567m88m23s567s999s")),
        win(2, "6p", shown(3, "44m456m789m45p888p")),
    )),
    Template("龙七对 on a discard", 2, hand(
        win(3, "8s", shown(2, "2222m55m337799s8s")),
        win(0, "6p", shown(1, "345p78p999p11s234s")),
        win(3, "5p", shown(0, "234p55p678m99m567m")),
    )),
    Template("清大对 on a discard", 2, hand(
        win(1, "7p", shown(0, "222p555p77p99p", ("pung", "3p", False))),
        win(None, "4m", shown(2, "23m567m789m11s456s")),
        win(1, "3s", shown(3, "12s345m678m99m789s")),
    )),
    Template("流局: 花猪 and 查叫, tiles shown", 3, hand(
        win(2, "9m", shown(0, "111m234m567m78m55p")),
        draw={
            1: shown(None, "1459m2468p13579s"),
            2: shown(None, "123s456s789s22p34p"),
            3: shown(None, "236789m1345679p"),
        },
    )),
    Template("暗杠, 清一色 自摸 declared; 流局 declared", 3, hand(
        kong(2, "concealed", "4s"),
        win(None, None, declared(1, "qingyise")),
        draw={0: HUAZHU, 2: ready("duiduihu", 1), 3: NOT_READY},
    )),
    Template("three wins declared: 清一色 自摸, 大对子, 平胡", 4, hand(
        win(None, None, declared(2, "qingyise")),
        win(3, None, declared(0, "duiduihu")),
        win(3, None, declared(1, "pinghu")),
    )),
    Template("暗杠 then 杠上炮 (呼叫转移)", 3, hand(
        kong(1, "concealed", "3m"),
        win(1, "8p", shown(2, "111s234s567s67p99p"), situation=["kong_discard"]),
        win(None, "5m", shown(0, "46m789m222p456p33p")),
        win(1, "9s", shown(3, "78s123s456s55m888m")),
    )),
    Template("弯杠, nobody wins: 流局 with 查叫 and 退税", 2, hand(
        kong(3, "added", "7p"),
        draw={
            0: shown(None, "123m456m789m11p23p"),
            1: shown(None, "2468m1235679s99s"),
            2: ready("pinghu"),
            3: shown(None, "1358m2469p99p", ("kong", "7p", False)),
        },
    )),
    Template("直杠, 一炮多响 with 清一色 1根, then 自摸", 2, hand(
        kong(0, "direct", "9m", 2),
        win(3, "5m", shown(0, "123m44m678m55m", ("kong", "9m", False)),
            shown(1, "46m567p888p11p234p")),
        win(None, "9s", shown(2, "78s123s456s789p33s")),
    )),
    Template("龙七对 declared, 流局 declared", 2, hand(
        win(2, None, declared(3, "longqidui", 1)),
        win(2, None, declared(1, "pinghu")),
        draw={0: ready("pinghu"), 2: NOT_READY},
    )),
    Template("暗杠, 清大对 1根 declared, 大对子 自摸, 平胡", 1, hand(
        kong(0, "concealed", "6s"),
        win(2, None, declared(0, "qingdui", 1)),
        win(None, None, declared(1, "duiduihu")),
        win(2, None, declared(3, "pinghu")),
    )),
    Template("two 自摸 and a 平胡", 5, hand(
        win(None, "2p", shown(2, "13p456p789p55m678m")),
        win(None, "7s", shown(3, "777m333s55s77s", ("pung", "1s", False))),
        win(0, "4m", shown(1, "23m99m234p567p888p")),
    )),
)  # fmt: skip

#: the rare hands, each played once in the history (so the biggest hand of all is one man's:
#: under the Chengdu cap of 8 only a capped hand self-drawn, 8 + 1, is worth 9)
SHOWCASE: tuple[Template, ...] = (
    Template("清七对 自摸", 0, hand(
        win(None, "8s", shown(3, "112233557799s8s")),
        win(0, "5m", shown(1, "34m678m222p678p99p")),
        win(0, "3p", shown(2, "12p456p789p444m66m")),
    )),
    Template("清龙七对 on a discard", 0, hand(
        win(1, "8s", shown(2, "1111s335577s99s8s")),
        win(None, "6m", shown(0, "45m123m789m222p55p")),
        win(1, "3p", shown(3, "12p456p789p44m666m")),
    )),
)  # fmt: skip


# --- transformations ----------------------------------------------------------------------

SUITS = "mps"


def _tiles(text: str, suits: dict[str, str], mirror: bool) -> str:
    """A tile string with its suits renamed and, when ``mirror``, its ranks mirrored."""
    out = []
    for ch in text:
        if ch.isdigit() and mirror:
            out.append(str(10 - int(ch)))
        else:
            out.append(suits.get(ch, ch))
    return "".join(out)


def transformed(record: dict[str, Any], *, dealer: int, suits: str, mirror: bool):
    """``record`` (dealt by S0) dealt by ``dealer``: every seat moved on by ``dealer``, the
    suits ``m p s`` renamed to ``suits`` and the ranks mirrored when ``mirror``."""
    rename = dict(zip(SUITS, suits, strict=True))

    def seat(s: int | None) -> int | None:
        return None if s is None else (s + dealer) % 4

    def tiles(text: str) -> str:
        return _tiles(text, rename, mirror)

    def player(h: dict[str, Any]) -> dict[str, Any]:
        out = dict(h)
        if "seat" in out:
            out["seat"] = seat(out["seat"])
        if "concealed" in out:
            out["concealed"] = tiles(out["concealed"])
        if "melds" in out:
            out["melds"] = [{**m, "tile": tiles(m["tile"])} for m in out["melds"]]
        return out

    events = []
    for ev in record["events"]:
        ev = dict(ev)
        if "tile" in ev:
            ev["tile"] = tiles(ev["tile"])
        if ev.get("seat") is not None:
            ev["seat"] = seat(ev["seat"])
        if "from" in ev:
            ev["from"] = seat(ev["from"])
        if "winners" in ev:
            ev["winners"] = [player(w) for w in ev["winners"]]
        events.append(ev)
    out: dict[str, Any] = {"dealer": seat(record["dealer"]), "events": events}
    if record.get("draw"):
        out["draw"] = {
            "hands": {str(seat(int(s))): player(h) for s, h in record["draw"]["hands"].items()}
        }
    return out


def variants() -> list[tuple[str, bool]]:
    """Every suit renaming with and without mirrored ranks (the transformations of a hand)."""
    perms = [a + b + c for a in SUITS for b in SUITS for c in SUITS if len({a, b, c}) == 3]
    return [(p, m) for p in perms for m in (False, True)]


# --- the evenings -------------------------------------------------------------------------


@dataclass
class HistorySummary:
    players: int = 0
    evenings: int = 0
    sessions: int = 0
    totals_only: int = 0
    hands: int = 0
    payments: int = 0

    def __str__(self) -> str:
        return (
            f"Added the demo club's history: {self.evenings} club evenings, {self.sessions} "
            f"tables ({self.totals_only} entered as totals), {self.hands} hands, "
            f"{self.payments} payments, {self.players} regulars more."
        )


def has_history(club: Club) -> bool:
    return club.sessions.filter(notes__startswith=NOTE).exists()


def _evenings(rnd: random.Random, zone: ZoneInfo, now: datetime, days: int) -> list[datetime]:
    """When each evening's tables start, oldest first: Tuesday and Friday evenings most
    weeks, a Saturday afternoon now and then, over the last ``days`` days up to yesterday.
    When none of them falls in this month (its first days), a table earlier today too, so
    that "this month" always has something to show."""
    today = now.astimezone(zone).date()
    starts = []
    for back in range(days, 0, -1):
        day = today - timedelta(days=back)
        weekday, draw = day.weekday(), rnd.random()  # one draw a day, whatever the day
        if (weekday == 1 and draw < 0.8) or (weekday == 4 and draw < 0.5):
            starts.append(datetime.combine(day, time(19, 30), zone))
        elif weekday == 5 and draw < 0.2:
            starts.append(datetime.combine(day, time(14, 0), zone))
    if not starts or starts[-1].month != today.month:
        midnight = datetime.combine(today, time(0, 0), zone)
        starts.append(now - min(timedelta(hours=3), (now - midnight) / 2))
    return starts


def _totals(rnd: random.Random) -> list[int]:
    """A table's final totals: zero-sum, in whole base units."""
    a, b, c = (rnd.randint(-40, 40) for _ in range(3))
    return [a, b, c, -(a + b + c)]


def history_create(*, club: Club, user, days: int = DAYS, seed: int = SEED) -> HistorySummary:
    """The club's evenings of the last ``days`` days, played through the services (in the
    caller's transaction)."""
    rnd = random.Random(seed)
    summary = HistorySummary()
    regulars = []
    for name in REGULARS:
        player = club.memberships.filter(player__name=name).first()
        if player is None:
            regulars.append(player_create(club=club, name=name).player)
            summary.players += 1
        else:
            regulars.append(player.player)
    people: list[Player] = [
        m.player for m in club.memberships.select_related("player").order_by("pk")
    ]
    chance = dict(zip(REGULARS, ATTENDANCE, strict=True))
    weights = [t.weight for t in TEMPLATES]
    shapes = variants()
    now = timezone.now().replace(second=0, microsecond=0)
    zone = ZoneInfo(club.time_zone)
    starts = _evenings(rnd, zone, now, days)
    # which hands of the history (counted from its first) are the rare ones: early enough
    # that even a short history (DEMO_DAYS) of a month has them
    rare = dict(zip(rnd.sample(range(20, 120), len(SHOWCASE)), SHOWCASE, strict=True))
    for start in starts:
        tables = rnd.choice((2, 2, 3))
        # who comes tonight: the club's own players most often, the regulars less, the last
        # two now and then (their ratings stay provisional)
        present = [p for p in people if rnd.random() < chance.get(p.name, 0.9)]
        while len(present) < 4 * tables:
            missing = [p for p in people if p not in present]
            present.append(rnd.choice(missing))
        rnd.shuffle(present)
        summary.evenings += 1
        for t in range(tables):
            four = present[4 * t : 4 * t + 4]
            session = session_create(
                club=club,
                players=four,
                user=user,
                started_at=start + timedelta(minutes=5 * t),
                notes=f"{NOTE} · {t + 1}号桌",
            )
            summary.sessions += 1
            if summary.sessions % 10 == 4:  # one table in ten kept only its totals
                scores = zip(four, _totals(rnd), strict=True)
                totals = [{"player": p.pk, "total": x} for p, x in scores]
                session_result_enter(session=session, totals=totals, user=user)
                summary.totals_only += 1
            else:
                dealer = rnd.randrange(4)
                for _ in range(rnd.randint(6, 12)):
                    template = rare.get(summary.hands) or rnd.choices(TEMPLATES, weights)[0]
                    suits, mirror = rnd.choice(shapes)
                    data = transformed(template.record, dealer=dealer, suits=suits, mirror=mirror)
                    recorded = hand_record(session=session, data=data, user=user)
                    summary.hands += 1
                    summary.payments += len(recorded.payments)
                    following = recorded.hand.next_dealer
                    dealer = rnd.randrange(4) if following is None else following
            session_close(session=session)
    return summary
