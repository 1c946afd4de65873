"""What cannot have happened (RULES §5): each check adds its refusals, with a path into the
record, to the replay's :class:`~scoring.engine.errors.Collector`.

The order of events, who is still in the hand, the situation flags against the events, the
melds a winner or a shown hand lays down against the kong events, the draw, and the copies of
each tile in the whole record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from ..bounds import MAX_AMOUNT
from ..errors import Collector, Problem
from ..evaluate import WinningHand, check_winning_hand
from ..melds import Meld
from ..tiles import SUIT_ZH, SUITS, suit_of, tile_name
from .record import Event, FalseWin, HandRecord, Kong, Shown, Win
from .result import Payment


def robbed_kongs(c: Collector, events: Sequence[Event]) -> set[int]:
    """The kongs robbed by 抢杠 (RULES §4.5): cancelled, paying nothing.

    The robbed kong is the robbed player's (the win's ``from``) added kong of the winning tile.
    If it is the event right before the win it is cancelled; a record may also leave it out,
    and then whatever the robbed player konged before (another tile) stands and is paid as
    usual — he may well have added the robbed tile on the replacement of that kong.

    Any other kong of the winning tile by the robbed player cannot be: he was adding the fourth
    copy to his pung, so he held no kong of that tile (a concealed or direct kong is all four
    copies, and 抢杠 robs only an added kong), and an added kong of it made earlier would have
    been robbed then, not at this win. Refused (``robbing_kong_mismatch``).

    A declared win may leave its tile out (RULES §6): the robbed tile is then the tile of the
    robbed player's added kong right before the win, which is what 抢杠 robs. Without such a
    kong there is no telling which tile was robbed, and so which kong 抢杠 cancels or refuses:
    refused (``robbing_kong_tile_missing``), asking for the tile or the kong.
    """
    out: set[int] = set()
    for i, ev in enumerate(events):
        if not isinstance(ev, Win) or ev.from_ is None or "robbing_kong" not in ev.situation:
            continue
        prev = events[i - 1] if i else None
        robbing = isinstance(prev, Kong) and prev.seat == ev.from_ and prev.kind == "added"
        tile = ev.tile
        if tile is None:
            if not robbing:
                c.add(
                    "robbing_kong_tile_missing",
                    "抢杠 robs the added kong (弯杠) the discarder is making right before the "
                    "win: give the winning tile, or record that kong before the win",
                    f"events[{i}].tile",
                )
                continue
            tile = prev.tile
        if robbing and prev.tile == tile:
            out.add(prev.index)
        for k in events[:i]:
            if isinstance(k, Kong) and k.seat == ev.from_ and k.tile == tile and k.index not in out:
                where = "right before" if k is prev else f"at events[{k.index}], before"
                c.add(
                    "robbing_kong_mismatch",
                    f"抢杠 robs the added kong (弯杠) of {tile_name(tile)} being made right "
                    f"before the win; seat {k.seat}'s {k.kind} kong of it {where} the win "
                    "already holds all four copies",
                    f"events[{i}].situation",
                )
    return out


def hand_over(c: Collector, path: str) -> None:
    c.add(
        "hand_already_over",
        "the hand was already over (three winners, or a win in single mode)",
        path,
    )


def refuse_kong(
    c: Collector, k: Kong, prev: Event | None, in_hand: Sequence[bool], path: str
) -> bool:
    """A kong by a player who has won, or on the discard of one: refused (True). A kong
    flagged ``on_replacement`` (杠上杠) needs the same player's kong right before it (RULES
    §4.4), whatever the ruleset does with the flag."""
    if k.on_replacement and not (isinstance(prev, Kong) and prev.seat == k.seat):
        c.add(
            "on_replacement_without_kong",
            "杠上杠: a kong declared on a replacement tile follows the same player's kong "
            "right before it",
            f"{path}.on_replacement",
        )
    if not in_hand[k.seat]:
        c.add("player_already_won", "a player who has won is out of the hand", f"{path}.seat")
        return True
    if k.from_ is not None and not in_hand[k.from_]:
        c.add("discarder_already_won", "a player who has won no longer discards", f"{path}.from")
        return True
    return False


def refuse_false_win(c: Collector, f: FalseWin, in_hand: Sequence[bool], path: str) -> bool:
    """A 诈胡 by a player who has already won: refused (True)."""
    if not in_hand[f.seat]:
        c.add("player_already_won", "a player who has won is out of the hand", f"{path}.seat")
        return True
    return False


def refuse_void_claims(c: Collector, rec: HandRecord) -> None:
    """A pung or kong of a player's own declared void suit (定缺, RULES §5): that suit is
    never claimed nor konged. Kongs are refused at their events, pungs in the melds a winner
    or a player at the draw lays down (a kong meld is its event's)."""
    voids = rec.declared_void
    if not any(v is not None for v in voids):
        return

    def why(seat: int, tile: int) -> str:
        suit = voids[seat]
        return (
            f"seat {seat} declared {SUIT_ZH[suit]} ({SUITS[suit]}) void (定缺): no pung or kong "
            f"of it, got {tile_name(tile)}"
        )

    def melds(seat: int, laid, path: str) -> None:
        for k, m in enumerate(laid):
            if m.kind == "pung" and suit_of(m.tile) == voids[seat]:
                c.add("claim_in_void_suit", why(seat, m.tile), f"{path}.melds[{k}]")

    for ev in rec.events:
        path = f"events[{ev.index}]"
        if isinstance(ev, Kong) and suit_of(ev.tile) == voids[ev.seat]:
            c.add("claim_in_void_suit", why(ev.seat, ev.tile), f"{path}.tile")
        elif isinstance(ev, Win):
            for j, x in enumerate(ev.winners):
                melds(x.seat, x.melds, f"{path}.winners[{j}]")
    for h in rec.draw or ():
        melds(h.seat, h.melds, f"draw.hands.{h.seat}")


def refuse_win(
    c: Collector,
    w: Win,
    rec: HandRecord,
    in_hand: Sequence[bool],
    n_winners: int,
    prev_kong: Kong | None,
    path: str,
) -> None:
    """Who may win, how many, and the situation flags the events make impossible."""
    seats = [x.seat for x in w.winners]
    if w.from_ is not None:
        if not in_hand[w.from_]:
            c.add(
                "discarder_already_won", "a player who has won no longer discards", f"{path}.from"
            )
        if w.from_ in seats:
            c.add("discarder_is_winner", "a player cannot win on his own discard", f"{path}.from")
    for j, seat in enumerate(seats):
        if not in_hand[seat]:
            c.add(
                "player_already_won",
                "a player who has won is out of the hand",
                f"{path}.winners[{j}].seat",
            )
    if rec.mode == "xuezhan" and n_winners + len(seats) > 3:
        c.add("too_many_wins", "血战到底 ends when three players have won", path)
    s = w.situation
    at = f"{path}.situation"
    if "kong_flower" in s and not (prev_kong and prev_kong.seat in seats):
        c.add(
            "kong_flower_without_kong", "杠上花 needs the winner's own kong just before the win", at
        )
    if "kong_discard" in s and not (prev_kong and prev_kong.seat == w.from_):
        c.add(
            "kong_discard_without_kong", "杠上炮 needs the discarder's kong just before the win", at
        )
    if "heavenly" in s and (seats != [rec.dealer] or w.from_ is not None or w.index):
        c.add(
            "heavenly_impossible", "天胡 is the dealer's self-drawn win before any other event", at
        )
    if "earthly" in s and (rec.dealer in seats or w.index):
        c.add(
            "earthly_impossible",
            "地胡 is a non-dealer's win in the first go-round, before any other event",
            at,
        )


def refuse_winning_hand(c: Collector, hand: WinningHand, path: str, event_path: str) -> None:
    """The refusals of one winning hand on its own; a flag problem is the event's, reported
    once however many winners share the discard."""
    for p in check_winning_hand(hand, path):
        if p.path.endswith(".situation"):
            p = Problem(p.code, p.message, f"{event_path}.situation")
        if (p.code, p.path) not in {(q.code, q.path) for q in c.problems}:
            c.extend([p])


def refuse_melds(
    c: Collector, seat: int, melds: Sequence[Meld], kongs_made: Sequence[Kong], path: str
) -> None:
    """The kongs in a winner's or a shown hand and that player's kong events match one to one
    (matched by tile; the ``concealed`` flag of a kong meld is informative)."""
    made = [k.tile for k in kongs_made if k.seat == seat]
    laid = [m.tile for m in melds if m.kind == "kong"]
    if not made and not laid:
        return
    events, shown = Counter(made), Counter(laid)
    for t in sorted(shown - events):
        c.add(
            "meld_kong_without_event",
            f"the kong of {tile_name(t)} in seat {seat}'s melds has no kong event",
            path,
        )
    for t in sorted(events - shown):
        c.add(
            "kong_not_in_melds",
            f"seat {seat} made a kong of {tile_name(t)} that is missing from his melds",
            path,
        )


def refuse_draw(
    c: Collector,
    shown: dict[int, Shown],
    still_in: Sequence[int],
    ended: bool,
    kongs_made: Sequence[Kong],
) -> None:
    """A draw after the hand ended, a player still in who does not show his tiles, a winner
    who does, a shown hand that is not 13 effective tiles or whose kongs are not his kong
    events."""
    if ended:
        c.add("draw_after_end", "the hand was over before the wall ran out", "draw")
        return
    for s in still_in:
        if s not in shown:
            c.add(
                "draw_hand_missing",
                f"seat {s} is still in the hand and must show his tiles",
                f"draw.hands.{s}",
            )
    for s in shown:
        if s not in still_in:
            c.add("draw_hand_of_winner", f"seat {s} has already won", f"draw.hands.{s}")
    for h in shown.values():
        if h.declared is not None:  # RULES §6: only what was recorded is checked
            if h.melds:
                refuse_melds(c, h.seat, h.melds, kongs_made, f"draw.hands.{h.seat}.melds")
            continue
        n = len(h.concealed) + 3 * len(h.melds)
        if n != 13:
            c.add(
                "wrong_tile_count",
                f"a hand at the draw has 13 effective tiles, seat {h.seat}'s has {n}",
                f"draw.hands.{h.seat}.concealed",
            )
        refuse_melds(c, h.seat, h.melds, kongs_made, f"draw.hands.{h.seat}.melds")


def record_parts(rec: HandRecord, cancelled: set[int]) -> Iterator[tuple[tuple[int, ...], str]]:
    """(tiles, path) for every part of the record that shows tiles, in record order.

    A kong is seen in its owner's melds when he shows his hand, else as the event; the one
    discard that several players win on is one tile; a drawn 叫马 tile is out of play.
    """
    # (a declared player shows his kongs only where he lists his melds, RULES §6)
    showing = {h.seat for h in rec.draw or () if h.declared is None or h.melds}
    for ev in rec.events:
        if isinstance(ev, Win):
            showing.update(x.seat for x in ev.winners if x.declared is None or x.melds)
    for ev in rec.events:
        path = f"events[{ev.index}]"
        if isinstance(ev, Kong):
            if ev.seat not in showing and ev.index not in cancelled:
                yield (ev.tile,) * 4, f"{path}.tile"
            continue
        if isinstance(ev, FalseWin):  # shows no tile
            continue
        if ev.tile is not None:  # (a declared win may leave its tile out, RULES §6)
            yield (ev.tile,), f"{path}.tile"
        for j, x in enumerate(ev.winners):
            yield from _hand_parts(x.concealed, x.melds, f"{path}.winners[{j}]")
    for h in rec.draw or ():
        yield from _hand_parts(h.concealed, h.melds, f"draw.hands.{h.seat}")
    for i, b in enumerate(rec.bettors):
        yield (b.tile,), f"bettors[{i}].tile"


def _hand_parts(concealed, melds, path):
    yield concealed, f"{path}.concealed"
    for k, m in enumerate(melds):
        yield (m.tile,) * m.size, f"{path}.melds[{k}]"


def seen_tiles(rec: HandRecord, cancelled: set[int]) -> Counter:
    """Every copy the record shows: hands, melds, winning tiles, unshown kongs, 叫马 tiles."""
    tiles: list[int] = []
    for part, _ in record_parts(rec, cancelled):
        tiles += part
    return Counter(tiles)


def refuse_copies(c: Collector, rec: HandRecord, cancelled: set[int], seen: Counter) -> None:
    """A tile kind more than four times in the record: refused where its fifth copy shows."""
    if max(seen.values(), default=0) <= 4:
        return
    counts: Counter = Counter()
    reported = set()
    for tiles, path in record_parts(rec, cancelled):
        for t in tiles:
            counts[t] += 1
            if counts[t] > 4 and t not in reported:
                reported.add(t)
                c.add(
                    "too_many_copies",
                    f"more than four {tile_name(t)} in this record (a tile has four copies)",
                    path,
                )


def refuse_amounts(c: Collector, payments: Sequence[Payment], totals: dict[str, int]) -> None:
    """An amount past :data:`~..bounds.MAX_AMOUNT` (RULES §5: every amount stays exact in any
    JSON client): the first seat payment too large (a bettor's mirror one), or else the first
    total. Reachable only by the product of large bounds: base 10,000 × a value of 2^30 ×
    the session's doubling (xuezhan9: up to 2^31)."""
    for p in payments:
        if p.amount > MAX_AMOUNT:
            c.add(
                "amount_out_of_range",
                f"{p.payer} would pay {p.payee} {p.amount:,}, more than {MAX_AMOUNT:,} (2^53 − 1, "
                "the most a JSON number holds exactly): lower the base, the cap or the doubling",
                "draw" if p.event is None else f"events[{p.event}]",
            )
            return
    for label, total in totals.items():
        if abs(total) > MAX_AMOUNT:
            c.add(
                "amount_out_of_range",
                f"{label}'s total would be {total:,}, beyond ±{MAX_AMOUNT:,} (2^53 − 1, the most "
                "a JSON number holds exactly): lower the base, the cap or the doubling",
                "",
            )
            return
