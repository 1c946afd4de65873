"""Settling one whole hand (RULES §3–§5): replay the record, refuse what cannot have happened,
and list who pays whom and why.

Along its seams: ``record`` (what a hand record is), ``parse`` (reading one, every refusal
collected), ``refusals`` (what cannot have happened), ``payments`` (one function per payment
rule: kongs, wins, 呼叫转移, 杠钱归胡家, 查花猪, 查叫, 退税), ``bettors`` (叫马, 马吃马),
``dealer`` (the next dealer, a 叫马 tile's seat, the session's doubling), ``result`` (the
settlement) and ``replay``, which drives them::

    from scoring.engine.settle import settle
    settle(record_dict).as_dict()   # payments, totals, draw, next dealer
"""

from .bettors import with_bettors
from .dealer import bettor_seat, next_dealer, session_multiplier
from .parse import parse_record, read_record
from .record import (
    BETTOR_LABELS,
    KONG_KINDS,
    MAX_BETTORS,
    MODES,
    SEAT_LABELS,
    Bettor,
    FalseWin,
    HandRecord,
    Kong,
    Shown,
    Win,
    Winner,
    seat_label,
)
from .replay import Replay, settle
from .result import (
    REASON_NAMES,
    SETTLEMENT_FORMAT,
    DrawSeat,
    DrawWait,
    Payment,
    Settlement,
    SettlementSummary,
    WinResult,
    WinSummary,
    upgraded_form,
)
from .stored import stored_record

__all__ = [
    "BETTOR_LABELS",
    "KONG_KINDS",
    "MAX_BETTORS",
    "MODES",
    "REASON_NAMES",
    "SEAT_LABELS",
    "SETTLEMENT_FORMAT",
    "Bettor",
    "DrawSeat",
    "DrawWait",
    "FalseWin",
    "HandRecord",
    "Kong",
    "Payment",
    "Replay",
    "Settlement",
    "SettlementSummary",
    "Shown",
    "Win",
    "WinResult",
    "WinSummary",
    "Winner",
    "bettor_seat",
    "next_dealer",
    "parse_record",
    "read_record",
    "seat_label",
    "session_multiplier",
    "settle",
    "stored_record",
    "upgraded_form",
    "with_bettors",
]
