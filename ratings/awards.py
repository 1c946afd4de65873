"""Awards (奖项) of a club's period: named rules over the players' figures, in plain Python.

Each award is one :class:`Award` in :data:`AWARDS`: a stable ``code``, its name and description
as ``Name(zh, en)`` data, the unit of its figure, and the rule that picks its winners from a
list of :class:`PlayerFigures`. The figures are counted by ``ratings.facts`` and added up by the
Django side (``ratings.awards_selectors``); nothing here reads the database, so every rule is
tested on figures written by hand (``tests/ratings/test_awards.py``).

The common decisions, where a club could decide otherwise:

* **Ties share the award**: every player level on the winning figure wins it.
* **Nobody wins an award nobody earned**: 清一色之王 needs at least one 清一色, 大赢家 a total
  above zero; an award without winners is still listed (a page says "nobody yet").
* **清一色之王 counts the whole 清 family**: every base pattern that needs one suit (清一色,
  清对, 清七对, 清幺九, 清龙七对), read from the engine's pattern table, not listed here by hand.
  七对达人 likewise counts every seven-pairs pattern (七对, 龙七对, 清七对, 清龙七对).
* **铁壁 needs** :data:`IRON_WALL_MIN_HANDS` **hands**: over a handful of hands anyone can have
  dealt in nothing. Its figure is 点炮 per hand; the fewest wins, zero included.
* **杠神 counts every kong**: concealed, direct (明杠 on a discard) and added (弯杠).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from core.names import Name
from scoring.engine.patterns import PATTERNS, Fact

#: 铁壁 is only for players with at least this many hands in the period (about three evenings
#: of 16–20 hands): fewer, and a clean sheet says more about luck than about care
IRON_WALL_MIN_HANDS = 50

#: the base patterns of one suit only (清一色 and its family), from the engine's table
ONE_SUIT_PATTERNS = frozenset(code for code, p in PATTERNS.items() if p.needs & Fact.ONE_SUIT)
#: the seven-pairs patterns (七对 and its family)
SEVEN_PAIRS_PATTERNS = frozenset(code for code, p in PATTERNS.items() if p.needs & Fact.SEVEN_PAIRS)


class HandRef(NamedTuple):
    """Where a hand is: its session and its number there (what a page links to)."""

    session_id: int
    hand_number: int


@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures over a club's period: what every award rule reads."""

    player_id: int
    name: str
    sessions: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    first_wins: int = 0
    kongs: int = 0
    total: int = 0
    biggest_hand: int = 0  # the largest value of one of his wins (0: he did not win)
    biggest_hand_at: HandRef | None = None  # where that win was
    pattern_counts: dict[str, int] = field(default_factory=dict)  # wins by base pattern

    def patterns(self, codes: frozenset[str]) -> int:
        """His wins with one of these base patterns."""
        return sum(n for code, n in self.pattern_counts.items() if code in codes)


class Winner(NamedTuple):
    """A winner of an award: the player, his figure, and for a one-hand award its hand."""

    player_id: int
    name: str
    value: int | float
    hand: HandRef | None = None


#: a rule: the players' figures in, the winners out (every tied player; none: nobody earned it)
Rule = Callable[[Sequence[PlayerFigures]], list[Winner]]


@dataclass(frozen=True)
class Award:
    """A named award: its code (stable for clients), its names, the unit of its figure, and
    the rule that picks its winners."""

    code: str
    name: Name
    description: Name
    unit: str  # the figure's unit, a code (see UNITS)
    rule: Rule

    def winners(self, players: Sequence[PlayerFigures]) -> list[Winner]:
        return self.rule(players)


#: the units of award figures, with their names
UNITS: dict[str, Name] = {
    "wins": Name("次胡牌", "wins"),
    "kongs": Name("个杠", "kongs"),
    "deal_ins": Name("次点炮", "deal-ins"),
    "deal_ins_per_hand": Name("点炮/局", "deal-ins per hand"),
    "self_draws": Name("次自摸", "self-draws"),
    "sessions": Name("场", "sessions"),
    "points": Name("分", "points"),
}


def _in_order(winners: list[Winner]) -> list[Winner]:
    """Tied winners in a stable order: by name, then player id."""
    return sorted(winners, key=lambda w: (w.name, w.player_id))


def most(figure: Callable[[PlayerFigures], int], *, at_least: int = 1) -> Rule:
    """The rule "the largest figure wins", for a figure of at least ``at_least``."""

    def rule(players: Sequence[PlayerFigures]) -> list[Winner]:
        values = [(p, figure(p)) for p in players]
        best = max((v for _, v in values if v >= at_least), default=None)
        if best is None:
            return []
        return _in_order([Winner(p.player_id, p.name, v) for p, v in values if v == best])

    return rule


def fewest_per_hand(
    count: Callable[[PlayerFigures], int], *, min_hands: int, places: int = 4
) -> Rule:
    """The rule "the fewest ``count`` per hand wins", among players with at least
    ``min_hands`` hands. Compared as exact fractions (3/60 and 4/80 are level); the figure
    shown is the rate rounded to ``places`` decimals."""

    def rule(players: Sequence[PlayerFigures]) -> list[Winner]:
        rates = [(p, Fraction(count(p), p.hands)) for p in players if p.hands >= max(min_hands, 1)]
        if not rates:
            return []
        best = min(r for _, r in rates)
        return _in_order(
            [Winner(p.player_id, p.name, round(float(r), places)) for p, r in rates if r == best]
        )

    return rule


def biggest_hand(players: Sequence[PlayerFigures]) -> list[Winner]:
    """大满贯: the largest single win of the period, with the hand it was (each tied player with
    his own hand)."""
    best = max((p.biggest_hand for p in players if p.biggest_hand > 0), default=None)
    if best is None:
        return []
    return _in_order(
        [
            Winner(p.player_id, p.name, p.biggest_hand, p.biggest_hand_at)
            for p in players
            if p.biggest_hand == best
        ]
    )


def _award(code: str, zh: str, en: str, about_zh: str, about_en: str, unit: str, rule: Rule):
    return Award(code, Name(zh, en), Name(about_zh, about_en), unit, rule)


#: every award, in the order a page shows them
AWARDS: tuple[Award, ...] = (
    _award("grand_slam", "大满贯", "Grand slam",
           "单局最大的一次胡牌", "The biggest single win", "points", biggest_hand),
    _award("qingyise_king", "清一色之王", "King of pure suits",
           "清一色(含清对、清七对等)胡得最多", "Most wins in one suit (清一色 and its family)",
           "wins", most(lambda p: p.patterns(ONE_SUIT_PATTERNS))),
    _award("seven_pairs", "七对达人", "Seven-pairs master",
           "七对(含龙七对、清七对等)胡得最多", "Most seven-pairs wins (七对 and its family)",
           "wins", most(lambda p: p.patterns(SEVEN_PAIRS_PATTERNS))),
    _award("kong_god", "杠神", "God of kongs",
           "开杠最多(暗杠、直杠、弯杠)", "Most kongs (concealed, direct and added)",
           "kongs", most(lambda p: p.kongs)),
    _award("quick_draw", "抢跑王", "Quickest on the draw",
           "血战中第一个胡牌的次数最多", "Most often the first to win a hand",
           "wins", most(lambda p: p.first_wins)),
    _award("self_draw_king", "自摸王", "King of self-draws",
           "自摸最多", "Most self-drawn wins", "self_draws", most(lambda p: p.self_draws)),
    _award("most_wins", "胡牌王", "Most wins",
           "胡牌次数最多", "Most wins", "wins", most(lambda p: p.wins)),
    _award("top_scorer", "大赢家", "Top scorer",
           "总分最高(须为正)", "The highest total score (above zero)",
           "points", most(lambda p: p.total, at_least=1)),
    _award("iron_wall", "铁壁", "Iron wall",
           f"每局点炮最少(至少 {IRON_WALL_MIN_HANDS} 局)",
           f"Fewest deal-ins per hand (at least {IRON_WALL_MIN_HANDS} hands)",
           "deal_ins_per_hand",
           fewest_per_hand(lambda p: p.deal_ins, min_hands=IRON_WALL_MIN_HANDS)),
    _award("big_spender", "散财童子", "Generous donor",
           "点炮最多", "Most deal-ins (discards won on)", "deal_ins", most(lambda p: p.deal_ins)),
    _award("regular", "常客", "Regular",
           "打的场数最多", "Most sessions played", "sessions", most(lambda p: p.sessions)),
)  # fmt: skip

AWARDS_BY_CODE: dict[str, Award] = {a.code: a for a in AWARDS}


def awards_for(players: Sequence[PlayerFigures]) -> list[tuple[Award, list[Winner]]]:
    """Every award with its winners among ``players``."""
    return [(award, award.winners(players)) for award in AWARDS]
