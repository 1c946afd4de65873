"""叫马 bettors (RULES §4.7): each follows every payment of the seat his tile bound him to."""

from __future__ import annotations

from collections.abc import Sequence

from .record import BETTOR_LABELS, SEAT_LABELS, Bettor
from .result import Payment


def with_bettors(
    payments: list[Payment], bettors: Sequence[Bettor], horse_eats_horse: bool
) -> list[Payment]:
    """Each seat payment followed by the 叫马 payments that mirror it.

    For a payment from A to the bettor's seat B, A pays the bettor the same; for a payment
    from B, the bettor pays the same. 马吃马 (``horse_eats_horse``): each bettor bound to the
    payer also pays each bettor bound to the payee the same amount.
    """
    if not bettors:
        return payments
    out: list[Payment] = []
    for p in payments:
        k = len(out)
        out.append(p)
        payer, payee = SEAT_LABELS.index(p.payer), SEAT_LABELS.index(p.payee)
        for b, bettor in enumerate(bettors):
            if bettor.seat == payee:
                out.append(Payment(p.payer, BETTOR_LABELS[b], p.amount, "bettor", p.event, k))
            if bettor.seat == payer:
                out.append(Payment(BETTOR_LABELS[b], p.payee, p.amount, "bettor", p.event, k))
        if horse_eats_horse:
            for b, giver in enumerate(bettors):
                for c, taker in enumerate(bettors):
                    if giver.seat == payer and taker.seat == payee:
                        out.append(
                            Payment(
                                BETTOR_LABELS[b], BETTOR_LABELS[c], p.amount, "bettor", p.event, k
                            )
                        )
    return out
