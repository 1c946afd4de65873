"""The replay: a hand record played through in order (RULES §4), refusing what cannot have
happened (``refusals.py``) and paying what did (``payments.py``, ``bettors.py``).

The replay keeps, per player, whether he is still in the hand, and per kong the income it
collected (for 呼叫转移 and 退税). Every payment is a transfer in whole base units, so the
settlement is zero-sum by construction; it is still proven before it is returned.
"""

from __future__ import annotations

from collections import Counter

from ..declared import value_declaration
from ..errors import Collector, Problem
from ..evaluate import (
    Valuation,
    WinningHand,
    check_situation,
    evaluate_key,
    single_wait,
    situation_bits,
    valued_situation,
)
from ..melds import MeldGroup
from ..shapes import TILE_BIT, hand_key
from ..waits import chajiao_melds, chajiao_owed, chajiao_pick, is_huazhu, wait_valuations
from . import payments, refusals
from .bettors import with_bettors
from .dealer import next_dealer, session_multiplier
from .parse import collect_record
from .record import BETTOR_LABELS, SEAT_LABELS, FalseWin, HandRecord, Kong, Shown, Win, Winner
from .result import DrawSeat, DrawWait, Settlement, WinResult


def settle(record: HandRecord | dict) -> Settlement:
    """Replay a hand record and settle it; raises EngineError listing every refusal."""
    c = Collector()
    if not isinstance(record, HandRecord):
        record = collect_record(record, c)
        # a malformed event, shown hand or bettor would only make the replay report
        # follow-on errors; anything else still lets the events tell their own problems
        # (past the problems an answer lists, there is nothing more to tell)
        if c.problems and (
            c.omitted or any(p.path.startswith(("events", "draw", "bettors")) for p in c.problems)
        ):
            c.raise_if_any()
    return Replay(record, c).run()


class Replay:
    """One hand played through, event by event."""

    def __init__(self, rec: HandRecord, collector: Collector | None = None) -> None:
        self.rec = rec
        self.r = rec.ruleset
        # the problems found so far (reading the record), to which the replay adds its own
        self.c = collector if collector is not None else Collector()
        self.ledger = payments.Ledger(rec.base * session_multiplier(rec))
        self.in_hand = [True, True, True, True]
        self.kongs: list[Kong] = []  # the kongs made so far (a robbed one was never made)
        self.wins: list[WinResult] = []
        self.n_winners = 0
        self.ended = False
        self.first_win: Win | None = None
        self.cancelled = refusals.robbed_kongs(self.c, rec.events)
        self._seen: Counter | None = None
        self.by_index = {ev.index: ev for ev in rec.events}

    def others_in(self, seat: int) -> list[int]:
        return [s for s in range(4) if s != seat and self.in_hand[s]]

    def seen(self) -> Counter:
        if self._seen is None:
            self._seen = refusals.seen_tiles(self.rec, self.cancelled)
        return self._seen

    def run(self) -> Settlement:
        refusals.refuse_void_claims(self.c, self.rec)
        for ev in self.rec.events:
            path = f"events[{ev.index}]"
            if self.ended:
                refusals.hand_over(self.c, path)
            elif isinstance(ev, Kong):
                self.kong(ev, path)
            elif isinstance(ev, FalseWin):
                self.false_win(ev, path)
            else:
                self.win(ev, path)
        draw = self.draw() if self.rec.draw is not None else None
        refusals.refuse_copies(self.c, self.rec, self.cancelled, self.seen())
        self.c.raise_if_any()
        paid = with_bettors(self.ledger.payments, self.rec.bettors, self.r.options.horse_eats_horse)
        labels = (*SEAT_LABELS, *BETTOR_LABELS[: len(self.rec.bettors)])
        books = dict.fromkeys(labels, 0)
        for p in paid:
            books[p.payer] -= p.amount
            books[p.payee] += p.amount
        if sum(books.values()) != 0:  # pragma: no cover - transfers cannot create money
            raise AssertionError("settlement is not zero-sum")
        refusals.refuse_amounts(self.c, self.ledger.payments, books)
        self.c.raise_if_any()
        return Settlement(
            record=self.rec,
            wins=tuple(self.wins),
            payments=tuple(paid),
            seat_totals=tuple(books[label] for label in SEAT_LABELS),
            bettor_totals=tuple(books[label] for label in labels[4:]),
            draw=draw,
            next_dealer=next_dealer(self.rec, self.first_win),
            finished=self.ended or self.rec.draw is not None,
        )

    def kong(self, k: Kong, path: str) -> None:
        if refusals.refuse_kong(self.c, k, self.by_index.get(k.index - 1), self.in_hand, path):
            return
        if k.index not in self.cancelled:
            self.kongs.append(k)
            payments.kong_payments(self.ledger, k, self.r.options, self.others_in(k.seat))

    def false_win(self, f: FalseWin, path: str) -> None:
        """诈胡 (RULES §4.9): the offender pays the players still in and returns his kong
        income; he stays in the hand."""
        if not refusals.refuse_false_win(self.c, f, self.in_hand, path):
            payments.false_win_payments(self.ledger, f, self.r, self.others_in(f.seat))

    def transfers(self, w: Win) -> bool:
        """Whether the discard's kong money moves (呼叫转移 or the ``refund`` of 杠上炮): a
        杠上炮, unless it was the last tile and 海底 replaces it (``haidi_over_kong_discard``)."""
        return "kong_discard" in w.situation and not self.haidi_replaces(w)

    def haidi_replaces(self, w: Win) -> bool:
        """On a discard win off the last tile, 海底 replaces 杠上炮 (RULES §3.8)."""
        return valued_situation(self.r, w.situation, w.from_ is None) != w.situation

    def win(self, w: Win, path: str) -> None:
        before = self.c.found
        prev = self.by_index.get(w.index - 1)
        prev_kong = prev if isinstance(prev, Kong) else None
        refusals.refuse_win(self.c, w, self.rec, self.in_hand, self.n_winners, prev_kong, path)
        # the flags the hand is valued with: 海底 may take 杠上炮's place (checked as given)
        s = valued_situation(self.r, w.situation, w.from_ is None)
        # 引杠杠上花 valued as a discard win and paid by the player whose discard was konged
        after_direct = (
            "kong_flower" in s
            and prev_kong is not None
            and prev_kong.kind == "direct"
            and self.r.options.kong_flower_after_direct == "discard"
        )
        valued = []
        self_draw = w.from_ is None and not after_direct
        for j, x in enumerate(w.winners):
            wpath = f"{path}.winners[{j}]"
            if x.declared is not None:
                v = self.declared_win(w, x, self_draw, s, wpath, path)
                if v is not None:
                    valued.append((x.seat, v))
                continue
            hand = WinningHand(x.concealed, w.tile, x.melds, w.from_ is None, w.situation)
            refusals.refuse_winning_hand(self.c, hand, wpath, path)
            refusals.refuse_melds(self.c, x.seat, x.melds, self.kongs, f"{wpath}.melds")
            concealed = hand_key(x.concealed)
            v = evaluate_key(
                concealed + TILE_BIT[w.tile],
                len(x.concealed) + 1,
                self.r,
                MeldGroup.of(x.melds),
                self_draw,
                situation_bits(s) | single_wait(self.r, concealed, w.tile),
                self.rec.declared_void[x.seat],
            )
            if isinstance(v, str):
                self.c.add(v, f"seat {x.seat}'s hand is not a win: {v.replace('_', ' ')}", wpath)
            else:
                valued.append((x.seat, v))
        was_in = list(self.in_hand)  # who was still in when the tile was discarded
        for x in w.winners:
            self.in_hand[x.seat] = False
        self.n_winners += len(w.winners)
        if self.rec.mode == "single" or self.n_winners >= 3:
            self.ended = True
        if self.c.found > before:
            return
        self.first_win = self.first_win or w
        declared = {x.seat for x in w.winners if x.declared is not None}
        # 呼叫转移 (or its refund) where the discard follows the discarder's kong
        transfer = None
        if prev_kong is not None and self.transfers(w):
            transfer = payments.KONG_TRANSFERS[self.r.options.kong_transfer]
        for seat, v in valued:
            self.pay_win(w, seat, v, prev_kong, after_direct, seat not in declared)
            if transfer is not None and transfer.each_winner is not None:
                transfer.each_winner(self.ledger, w, seat, prev_kong)
            if w.from_ is not None and "robbing_kong" in w.situation and self.r.robbing_pays_kong:
                payments.robbed_kong_to_robber(self.ledger, w, seat, self.r.options, was_in)
        if transfer is not None and transfer.after_winners is not None:
            winners = [seat for seat, _ in valued]
            transfer.after_winners(self.ledger, w, winners, prev_kong, self.rec.events)

    def kongs_of(self, seat: int) -> int:
        """The kongs a player has made so far (a robbed one was never made)."""
        return sum(k.seat == seat for k in self.kongs)

    def declared_win(
        self, w: Win, x: Winner, self_draw: bool, valued_as: frozenset[str], wpath: str, path: str
    ) -> Valuation | None:
        """A declared winner (RULES §6): how he won checked as for tiles, his melds (if he
        lists them) against his kongs, his declaration valued by the ruleset's own tables."""
        for p in check_situation(
            w.from_ is None, w.situation, x.melds, wpath, melds_listed=bool(x.melds)
        ):
            if p.path.endswith(".situation"):
                p = Problem(p.code, p.message, f"{path}.situation")
            if (p.code, p.path) not in {(q.code, q.path) for q in self.c.problems}:
                self.c.extend([p])
        if x.melds:
            refusals.refuse_melds(self.c, x.seat, x.melds, self.kongs, f"{wpath}.melds")
        v, problems = value_declaration(
            self.r,
            x.declared,
            f"{wpath}.declared",
            melds=x.melds,
            kongs=self.kongs_of(x.seat),
            self_draw=self_draw,
            situation=valued_as,
            void=self.rec.declared_void[x.seat],
        )
        self.c.extend(problems)
        return v

    def pay_win(
        self,
        w: Win,
        seat: int,
        v: Valuation,
        prev_kong: Kong | None,
        after_direct: bool,
        verified: bool = True,
    ) -> None:
        """The win (what 杠上炮 and 抢杠 add to it: the caller's)."""
        konged = prev_kong.from_ if after_direct else None
        amount = payments.win_payments(self.ledger, w, seat, v, self.others_in(seat), konged)
        self_draw = w.from_ is None and not after_direct
        self.wins.append(WinResult(w.index, seat, w.from_, w.tile, self_draw, v, amount, verified))

    def draw(self) -> tuple[DrawSeat, ...] | None:
        """流局: every player still in shows his tiles; then 查花猪, 查叫, 退税 (RULES §4.6)."""
        still_in = [s for s in range(4) if self.in_hand[s]]
        shown = {h.seat: h for h in self.rec.draw}
        refusals.refuse_draw(self.c, shown, still_in, self.ended, self.kongs)
        if self.c.problems:  # the draw's, or an earlier event's: nothing to settle on
            return None
        seats = tuple(self.show(shown[s]) for s in still_in)
        if self.c.problems:  # a declaration the ruleset cannot produce
            return None
        payments.huazhu_payments(self.ledger, seats, self.r)
        payments.chajiao_payments(self.ledger, seats, self.r)
        if self.r.options.refund_kongs:
            payments.kong_refunds(self.ledger, seats)
        return seats

    def show(self, h: Shown) -> DrawSeat:
        """A shown hand: 花猪, or ready (下叫) on which waits (死叫 where every copy is seen),
        and what 查叫 values it by."""
        r = self.r
        if h.declared is not None:
            return self.declared_seat(h)
        key = hand_key(h.concealed)
        mg = MeldGroup.of(h.melds)
        void = self.rec.declared_void[h.seat]
        if is_huazhu(key, mg, void):
            return DrawSeat(h.seat, True, False, (), None)
        candidates = wait_valuations(key, len(h.concealed), r, chajiao_melds(r, mg), void)
        seen = self.seen()
        waits = tuple(DrawWait(t, v.pattern, v.value, seen[t] >= 4) for t, v in candidates)
        pick = chajiao_pick(r, candidates, {w.tile for w in waits if w.dead})
        return DrawSeat(h.seat, False, pick is not None, waits, chajiao_owed(r, pick), pick)

    def declared_seat(self, h: Shown) -> DrawSeat:
        """A declared player at the draw (RULES §6): 花猪, not ready, or ready on the declared
        wait, valued as a discard win without situational extras (what 查叫 uses)."""
        if h.declared == "huazhu":
            return DrawSeat(h.seat, True, False, (), None, verified=False)
        if h.declared == "not_ready":
            return DrawSeat(h.seat, False, False, (), None, verified=False)
        path = f"draw.hands.{h.seat}.wait"
        v, problems = value_declaration(
            self.r,
            h.wait,
            path,
            melds=h.melds,
            kongs=self.kongs_of(h.seat),
            void=self.rec.declared_void[h.seat],
            wait=True,
        )
        self.c.extend(problems)
        return DrawSeat(h.seat, False, True, (), chajiao_owed(self.r, v), v, verified=False)
