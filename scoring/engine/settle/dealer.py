"""Who deals next (RULES §3.1–§3.4), which seat a 叫马 tile counts to (§4.7), and the session's
doubling of a hand (§3.4 黄庄加倍, 连庄)."""

from __future__ import annotations

from ..tiles import rank_of
from .record import HandRecord, Win


def bettor_seat(dealer: int, tile: int) -> int:
    """Counting from the dealer in play order by the tile's rank: 1 dealer, 2 next, …"""
    return (dealer + rank_of(tile) - 1) % 4


def session_multiplier(rec: HandRecord) -> int:
    """Cross-hand doubling where the preset has it (xuezhan9): 黄庄加倍 per drawn hand before,
    连庄 from the dealer's third hand in a row."""
    if not rec.ruleset.session_doubling:
        return 1
    mult = 1 << rec.draws_before
    if rec.dealer_streak >= 2:
        mult <<= rec.dealer_streak - 1
    return mult


def next_dealer(rec: HandRecord, first_win: Win | None) -> int | None:
    """The next hand's dealer, from the first win of this one (None: dice decide)."""
    w = first_win
    if rec.ruleset.next_dealer == "discarder_or_dice":
        if rec.mode == "xuezhan":
            return None  # 血战: dice decide; the scorer enters the next dealer
        if w is None:
            return rec.dealer
        return w.winners[0].seat if w.from_ is None else w.from_
    if w is None:
        return rec.dealer
    if len(w.winners) > 1:
        return w.from_  # 一炮多响: the discarder deals
    return w.winners[0].seat
