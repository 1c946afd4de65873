"""A hand record (RULES §4): the ordered list of what happened at one table in one hand."""

from __future__ import annotations

from dataclasses import dataclass

from ..bounds import MAX_BETTORS
from ..declared import Declaration
from ..melds import Meld
from ..rulesets import Ruleset

KONG_KINDS = ("concealed", "direct", "added")
MODES = ("xuezhan", "single")

SEAT_LABELS = ("S0", "S1", "S2", "S3")
BETTOR_LABELS = tuple(f"B{i}" for i in range(MAX_BETTORS))


def seat_label(seat: int) -> str:
    return SEAT_LABELS[seat]


@dataclass(frozen=True)
class Kong:
    """A kong event (刮风下雨): 暗杠 concealed, 直杠 direct (on ``from_``'s discard), 弯杠 added."""

    index: int
    seat: int
    kind: str
    tile: int
    from_: int | None = None
    same_turn: bool = True  # a 弯杠 declared on the turn its tile was drawn
    #: 杠上杠: declared on the replacement tile of the same player's kong right before it
    on_replacement: bool = False


@dataclass(frozen=True)
class Winner:
    """A winner of a win event: shown (his concealed tiles and melds) or declared (what his
    hand was, RULES §6; melds listed or not)."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    declared: Declaration | None = None


@dataclass(frozen=True)
class Win:
    """A win event: one self-draw (``from_`` None) or one discard won by one or more (一炮多响)."""

    index: int
    from_: int | None
    tile: int | None  # None: not recorded (every winner declared, RULES §6)
    situation: frozenset[str]
    winners: tuple[Winner, ...]


@dataclass(frozen=True)
class FalseWin:
    """A 诈胡 (false win, RULES §4.9): ``seat`` declared a win his tiles did not make. He pays,
    returns his kong income, and stays in the hand."""

    index: int
    seat: int


Event = Kong | Win | FalseWin


@dataclass(frozen=True)
class Shown:
    """A player still in the hand when the wall runs out: the tiles he shows, or what he was
    declared (RULES §6: ``huazhu``, ``not_ready``, or ``ready`` with the ``wait`` 查叫 uses)."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    declared: str | None = None
    wait: Declaration | None = None


@dataclass(frozen=True)
class Bettor:
    """叫马: a person beyond the four, bound to the seat his tile counts to from the dealer."""

    name: str
    tile: int
    seat: int


@dataclass(frozen=True)
class HandRecord:
    """One hand as recorded: its rules, stake and dealer, the events in the order they
    happened, the hands shown at a draw (流局), the 叫马 bettors and the session so far."""

    ruleset: Ruleset
    base: int
    mode: str
    dealer: int
    declared_void: tuple[int | None, ...]
    events: tuple[Event, ...]
    draw: tuple[Shown, ...] | None
    bettors: tuple[Bettor, ...]
    draws_before: int = 0
    dealer_streak: int = 0
