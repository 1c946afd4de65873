"""Waits and readiness (下叫 / 听牌), 查叫 values and 花猪 (RULES §2, §4.6).

A 13-effective-tile hand is ready when some tile completes it. Candidates come from the suit
tables: a tile can only complete suit ``s`` if the suit with it splits into sets (+ pair) and
the other suits already do, so only a handful of full evaluations run per hand.

:func:`readiness`, the checked public path (the waits API, the tile picker, the command), checks
the copies on packed counts (tile by tile only to name a refusal) and values each wait once, as
a discard win and a self-draw side by side (evaluate.evaluate_concealed_waits /
evaluate_melded_waits); ``tests/scoring/engine/test_readiness_reference.py`` holds it to trying
every tile the long way.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from functools import partial
from typing import Any, NamedTuple

from .errors import Collector, EngineError, Problem
from .evaluate import (
    Valuation,
    check_copies,
    evaluate_completions,
    evaluate_concealed_waits,
    evaluate_key,
    evaluate_melded_waits,
    single_wait,
)
from .melds import NO_MELDS, Meld, MeldGroup, parse_melds
from .rulesets import Ruleset, resolve_ruleset
from .shapes import (
    ODD_BITS,
    SUIT_FACTS,
    SUIT_MASK,
    TILE_BIT,
    copies_within_four,
    hand_key,
    suit_completions,
)
from .tiles import parse_suit, parse_tiles, tile_name


class Wait(NamedTuple):
    """One tile the hand is waiting on, with what a win on it would be worth.

    (Immutable records are NamedTuples on the engine's hot paths: cheaper to build.)
    """

    tile: int
    valuation: Valuation  # as a discard win without situational extras (what 查叫 uses)
    self_draw_value: int
    remaining: int | None  # unseen copies, when visible tiles were given
    dead: bool  # 死叫: every remaining copy is already visible

    def as_dict(self, r: Ruleset) -> dict[str, Any]:
        v = self.valuation
        return {
            "tile": tile_name(self.tile),
            "pattern": v.pattern,
            "roots": v.roots,
            "fan": v.total if r.curve == "fan" else None,
            "value": v.value,
            "self_draw_value": self.self_draw_value,
            "remaining": self.remaining,
            "dead": self.dead,
        }


class Readiness(NamedTuple):
    """Whether a waiting hand is ready, on what, and what it collects at 查叫."""

    ready: bool
    huazhu: bool  # 花猪: three suits, or holding the declared void suit
    waits: tuple[Wait, ...]
    chajiao_value: int | None  # per the ruleset's 赔大/赔小; None when not ready or 查叫 off
    ruleset: Ruleset

    def as_dict(self) -> dict[str, Any]:
        return {
            "ready": self.ready,
            "huazhu": self.huazhu,
            "waits": [w.as_dict(self.ruleset) for w in self.waits],
            "chajiao_value": self.chajiao_value,
        }


# Wait(...) and Readiness(...) without their keyword handling: the fields in order, as a
# tuple, in half the time (readiness builds one answer and several waits per hand)
_new_wait = partial(tuple.__new__, Wait)
_new_readiness = partial(tuple.__new__, Readiness)


def is_huazhu(key: int, melds: MeldGroup, void: int | None) -> bool:
    suits = (
        (1 if key & SUIT_MASK else 0)
        | (2 if key >> 27 & SUIT_MASK else 0)
        | (4 if key >> 54 else 0)
    ) | melds.suits
    return suits == 7 or (void is not None and bool(suits >> void & 1))


_COMPLETIONS: tuple[dict[int, tuple[int, ...]], ...] = ({}, {}, {})


def _completions(suit: int, suit_key: int) -> tuple[int, ...]:
    """Tiles of ``suit`` that make this suit key splittable (memoised per key)."""
    cache = _COMPLETIONS[suit]
    out = cache.get(suit_key)
    if out is None:
        out = cache[suit_key] = tuple(suit * 9 + r for r in suit_completions(suit_key))
    return out


def winning_tiles(key: int, n_tiles: int, melds: MeldGroup = NO_MELDS) -> list[int]:
    """Every tile that gives a complete shape (standard or seven pairs), owned copies < 4."""
    km = key & SUIT_MASK
    kp = key >> 27 & SUIT_MASK
    ks = key >> 54
    cm = km in SUIT_FACTS
    cp = kp in SUIT_FACTS
    cs = ks in SUIT_FACTS
    # a tile can only join a suit already present (alone it is neither in a set nor a pair),
    # and only when the other two suits split already
    out: list[int] = []
    if km and cp and cs:
        out += _completions(0, km)
    if kp and cm and cs:
        out += _completions(1, kp)
    if ks and cm and cp:
        out += _completions(2, ks)
    if melds.count:
        owned = key + melds.key
        return [t for t in out if owned >> (3 * t) & 7 < 4]
    if n_tiles == 13:
        odd = key & ODD_BITS
        if odd and not odd & (odd - 1):
            single = odd.bit_length() // 3
            if single not in out:
                out.append(single)
                out.sort()
    return out


def wait_valuations(
    key: int, n_tiles: int, r: Ruleset, melds: MeldGroup = NO_MELDS, void: int | None = None
) -> list[tuple[int, Valuation]]:
    """The hot path: each winning tile of a waiting hand with its discard-win valuation."""
    tiles = winning_tiles(key, n_tiles, melds)
    if not melds.count:
        return evaluate_completions(key, n_tiles, r, tiles, void)
    out = []
    for t in tiles:
        single = single_wait(r, key, t)
        v = evaluate_key(key + TILE_BIT[t], n_tiles + 1, r, melds, False, single, void)
        if v.__class__ is not str:
            out.append((t, v))
    return out


def chajiao_melds(r: Ruleset, melds: MeldGroup) -> MeldGroup:
    """The melds as 查叫 values a ready hand with them: with their kongs as roots, or not
    (``chajiao_kongs: false``, sbr; four of a tile held in hand still count, RULES §3.8)."""
    return melds if r.options.chajiao_kongs else melds.kongs_not_roots()


def chajiao_pick(
    r: Ruleset, waits: Iterable[tuple[int, Valuation]], dead: Container[int] = ()
) -> Valuation | None:
    """The wait 查叫 values a ready hand by (RULES §4.6b), the one decision every caller uses.

    ``waits`` are (tile, discard-win valuation) pairs as :func:`wait_valuations` gives them;
    ``dead`` the tiles whose every copy is already visible (死叫). Only waits that count are
    considered: all of them under 死叫算叫 (``dead_wait_counts``), else the live ones. Under
    赔小 (``chajiao: "min"``) the smallest counts, otherwise the best (赔大; also under ``off``,
    where nothing is paid but a rule that measures a hand by its 查叫 wait, xuezhan9's 花猪
    ``chajiao_plus_fan``, still does). None: no wait counts, the hand is not ready. On equal
    values the first wait in tile order is the pick.
    """
    o = r.options
    smallest = o.chajiao == "min"
    skip_dead = not o.dead_wait_counts
    pick = None
    for t, v in waits:
        if skip_dead and t in dead:
            continue
        if pick is None or (v.value < pick.value if smallest else v.value > pick.value):
            pick = v
    return pick


def chajiao_owed(r: Ruleset, pick: Valuation | None) -> int | None:
    """What each not-ready player pays this hand at 查叫, at base 1: the value of its
    :func:`chajiao_pick`; None when it is not ready, or when 查叫 is off (then nothing is paid
    and no 查叫 value is reported, in readiness as at a draw)."""
    if pick is None or r.options.chajiao == "off":
        return None
    return pick.value


def chajiao_value(
    key: int, n_tiles: int, r: Ruleset, melds: MeldGroup = NO_MELDS, void: int | None = None
) -> int | None:
    """查叫 value at base 1 of a waiting hand given as a hand key (no tile seen elsewhere, so
    no wait is dead); None if not ready or 查叫 is off."""
    waits = wait_valuations(key, n_tiles, r, chajiao_melds(r, melds), void)
    return chajiao_owed(r, chajiao_pick(r, waits)) if waits else None


def readiness(
    concealed: Iterable[int],
    ruleset: Any = None,
    melds: tuple[Meld, ...] = (),
    declared_void: int | None = None,
    visible: Iterable[int] = (),
) -> Readiness:
    """Waits of a 13-effective-tile hand; ``visible`` tiles (seen elsewhere) mark 死叫 waits."""
    r = resolve_ruleset(ruleset)
    concealed = tuple(concealed)
    n_concealed = len(concealed)
    n = n_concealed + 3 * len(melds)
    if n != 13:
        raise EngineError(
            "wrong_tile_count",
            f"a waiting hand has 13 effective tiles (concealed + 3 per meld), this one has {n}",
            "concealed",
        )
    if melds:
        melds = tuple(melds)
        mg = MeldGroup.of(melds)
    else:
        mg = NO_MELDS
    key = hand_key(concealed)
    # every copy at the table in one key, checked at once: the hand's, its melds' and, when
    # given, those seen elsewhere (remaining copies are reported only then)
    counted = key + mg.key
    n_counted = n_concealed + 3 * mg.count + mg.kongs
    visible_given = bool(visible)
    if visible_given:
        visible = tuple(visible)
        counted += hand_key(visible)
        n_counted += len(visible)
    if not copies_within_four(counted, n_counted):
        problems = copy_problems(concealed, tuple(melds), tuple(visible))
        if problems:
            raise EngineError.many(problems)
    if is_huazhu(key, mg, declared_void):
        return Readiness(False, True, (), None, r)
    # each wait once: as 查叫 values it (a discard win), and as a self-draw (kongs are roots)
    if mg.count:
        found = evaluate_melded_waits(key, r, mg, chajiao_melds(r, mg), declared_void)
    else:
        found = evaluate_concealed_waits(key, r, declared_void)
    if visible_given:
        waits = tuple(
            [
                _new_wait((t, v, sd.value, remaining, remaining <= 0))
                for t, v, sd in found
                for remaining in (4 - (counted >> 3 * t & 7),)
            ]
        )
        dead = {w.tile for w in waits if w.dead}
    else:
        waits = tuple([_new_wait((t, v, sd.value, None, False)) for t, v, sd in found])
        dead = ()
    pick = chajiao_pick(r, [(t, v) for t, v, _ in found], dead)
    return _new_readiness((pick is not None, False, waits, chajiao_owed(r, pick), r))


def copy_problems(
    concealed: tuple[int, ...], melds: tuple[Meld, ...], visible: tuple[int, ...]
) -> list[Problem]:
    """Tiles held, or held and seen elsewhere, more than four times: what readiness refuses.

    Counted tile by tile (only once a hand has been found to hold too many): packed 3-bit
    counts carry past seven (two kongs of one tile are eight copies, which a key reads as none
    of it and one of the next), and each problem names its tile and count.
    """
    held: dict[int, int] = {}
    for t in concealed:
        held[t] = held.get(t, 0) + 1
    for m in melds:
        held[m.tile] = held.get(m.tile, 0) + m.size
    problems = check_copies(held, "concealed")
    seen: dict[int, int] = {}
    for t in visible:
        seen[t] = seen.get(t, 0) + 1
    problems += check_copies({t: held.get(t, 0) + n_seen for t, n_seen in seen.items()}, "visible")
    return problems


def parse_waiting_hand(data: Any) -> tuple[tuple[int, ...], tuple[Meld, ...], int | None, tuple]:
    """(concealed, melds, declared void, visible tiles) from the JSON of a waits request."""
    if not isinstance(data, dict):
        raise EngineError("invalid_hand", "a hand is an object", "")
    c = Collector()
    concealed = c.attempt(parse_tiles, data.get("concealed", ""), "concealed", default=())
    melds = parse_melds(c, data.get("melds"), "melds")
    void = c.attempt(parse_suit, data.get("declared_void"), "declared_void")
    visible = c.attempt(parse_tiles, data.get("visible") or "", "visible", default=())
    c.raise_if_any()
    return concealed, melds, void, visible
