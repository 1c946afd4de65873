"""Deciding whether a hand wins and what it is worth (RULES §2–§3).

The hot path (:func:`evaluate_key`) packs the hand into one integer, reads the reachable split
facts from the suit tables, and reduces the hand to a *signature*: facts, seven pairs, one suit,
all 2/5/8, golden hook, roots, self-draw and situation flags. Everything a preset says about the
hand's value depends on the signature alone, so each ruleset memoises one :class:`Valuation`
(with its explanation lines) per signature.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from .errors import Collector, EngineError, Problem, shown
from .lru import LRU
from .melds import NO_MELDS, Meld, MeldGroup, parse_melds
from .patterns import EXTRA_NAMES, PATTERN_NAMES, SITUATION_BIT, SITUATIONS, Fact, qualifying
from .rulesets import Ruleset, resolve_ruleset
from .shapes import (
    COMBINE,
    FOUR_BITS,
    INFO_258,
    INFO_EVEN,
    INFO_FOURS,
    INFO_SUITS,
    NON_258_BITS,
    SUIT_FACTS,
    SUIT_INFO,
    SUIT_MASK,
    TILE_BIT,
    combine_info,
    hand_key,
    suit_joins,
)
from .tiles import parse_suit, parse_tile, parse_tiles, tile_name

THREE_SUITS = "three_suits"
DECLARED_VOID_SUIT = "declared_void_suit"
NOT_A_WINNING_SHAPE = "not_a_winning_shape"

_HEAVENLY = SITUATION_BIT["heavenly"]
_EARTHLY = SITUATION_BIT["earthly"]
#: a situation bit of the engine's own, past the scorer's flags: 单钓, the concealed tiles
#: before the win held one copy of the winning tile. Set only under ``golden_wait`` (see
#: :func:`single_wait`), so other rulesets' memos are not split by it.
SINGLE_WAIT_BIT = 1 << len(SITUATIONS)
# A hand signature: bits 0-3 the reachable split facts (shapes.py), 4 seven pairs, 5 one suit,
# 6 only 2/5/8, 7 four melds, 8-11 roots, 12 self-draw, 13 on the situation flags (and 单钓).
# Facts as plain ints: readings() runs for every new signature.
_STANDARD, _TRIPLETS, _TERMINALS, _SEVEN_PAIRS = (
    int(f) for f in (Fact.STANDARD, Fact.TRIPLETS, Fact.TERMINALS, Fact.SEVEN_PAIRS)
)
#: signature bits that are facts of the whole hand, whichever way it is read
_WHOLE_HAND_FACTS = tuple(
    (bits, int(fact))
    for bits, fact in (
        (1 << 5, Fact.ONE_SUIT),
        (1 << 6, Fact.ONLY_258),
        (1 << 7, Fact.FOUR_MELDS),
        (15 << 8, Fact.ROOT),
        (_HEAVENLY << 13, Fact.HEAVENLY),
        (_EARTHLY << 13, Fact.EARTHLY),
        (SINGLE_WAIT_BIT << 13, Fact.SINGLE_WAIT),
    )
)


@dataclass(frozen=True)
class Line:
    """One scoring element of the explanation, checkable by hand."""

    code: str
    zh: str
    en: str
    op: str  # "base", "add" (+n in the unit), "times" (×n), "bonus" (+n to the value), "cap"
    amount: int

    def as_dict(self, unit: str) -> dict[str, Any]:
        # The first line is the base pattern; in the multiple curve later lines are factors
        # (×2), elsewhere additions; the after-cap self-draw bonus adds to the value itself.
        key = "value" if self.op == "bonus" else unit
        return {"code": self.code, "zh": self.zh, "en": self.en, key: self.amount}


@dataclass(frozen=True)
class Valuation:
    """What a winning hand is worth under one ruleset."""

    pattern: str
    patterns: tuple[str, ...]
    roots: int
    total: int  # in the curve's unit (fan, multiple, points), before the cap
    value: int  # what each payer pays at base 1: cap and self-draw bonus included
    capped: bool
    lines: tuple[Line, ...]
    unit: str

    def as_dict(self, r: Ruleset) -> dict[str, Any]:
        """The valuation as the API shows it (fan only in fan presets)."""
        return {
            "pattern": self.pattern,
            "patterns": list(self.patterns),
            "roots": self.roots,
            "fan": self.total if r.curve == "fan" else None,
            "unit": r.unit,
            "total": self.total,
            "value": self.value,
            "capped": self.capped,
            "lines": [dict(line) for line in self.rendered_lines],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], r: Ruleset) -> Valuation:
        """The valuation :meth:`as_dict` wrote under ``r`` (a stored win carries it). A line's
        ``op`` is not written: the first line is the base pattern, a line giving ``value``
        the after-cap bonus, ``cap`` the cap, any other an extra step of ``r``'s curve (as
        :func:`_lines` makes them).

        A club's wins are worth the same few valuations again and again: one read from the
        same form (everything read from it is in the key) is the one read before."""
        unit = d["unit"]
        extra_op = "times" if r.curve == "multiple" else "add"
        # fmt: off
        key = (
            extra_op, unit, d["pattern"], tuple(d["patterns"]), d["roots"], d["total"],
            d["value"], d["capped"],
            *[(line["code"], line["zh"], line["en"], line.get("value", _ABSENT),
               line.get(unit, _ABSENT)) for line in d["lines"]],
        )
        # fmt: on
        kept = _READ_BACK.get(key)
        if kept is None:
            kept = cls._read(d, unit, extra_op)
            _READ_BACK.put(key, kept)
        return kept

    @classmethod
    def _read(cls, d: Mapping[str, Any], unit: str, extra_op: str) -> Valuation:
        lines = []
        for i, line in enumerate(d["lines"]):
            code = line["code"]
            if i == 0:
                op = "base"
            elif "value" in line:
                op = "bonus"
            elif code == "cap":
                op = "cap"
            else:
                op = extra_op
            amount = line["value"] if op == "bonus" else line[unit]
            lines.append(Line(code, line["zh"], line["en"], op, amount))
        return cls(
            pattern=d["pattern"],
            patterns=tuple(d["patterns"]),
            roots=d["roots"],
            total=d["total"],
            value=d["value"],
            capped=d["capped"],
            lines=tuple(lines),
            unit=unit,
        )

    @cached_property
    def rendered_lines(self) -> list[dict[str, Any]]:
        """Lines as JSON; valuations are shared through the memo, so this is built once."""
        return [line.as_dict(self.unit) for line in self.lines]


#: the valuations read back from stored forms (:meth:`Valuation.from_dict`), by what each was
#: read from; at most this many (a club's hands have a few dozen valuations between them)
READ_BACK_SIZE = 1024
_READ_BACK: LRU[tuple, Valuation] = LRU(READ_BACK_SIZE)
_ABSENT = object()  # (a line's field not written, in a key)


def readings(sig: int) -> list[int]:
    """The facts (:class:`~.patterns.Fact`) of every reading of a hand signature: each standard
    split it allows (all triplets or not, terminals or not), and 七对."""
    whole = 0
    for bits, fact in _WHOLE_HAND_FACTS:
        if sig & bits:
            whole |= fact
    out = []
    for split in range(4):  # split fact bit 2*t + y (shapes.py)
        if sig >> split & 1:
            triplets = _TRIPLETS if split & 2 else 0
            terminals = _TERMINALS if split & 1 else 0
            out.append(whole | _STANDARD | triplets | terminals)
    if sig & INFO_EVEN:
        out.append(whole | _SEVEN_PAIRS)
    return out


def value_signature(r: Ruleset, sig: int) -> Valuation:
    """Value a hand signature under a ruleset (slow path, memoised by :func:`evaluate_key`)."""
    roots = sig >> 8 & 15
    self_draw = bool(sig >> 12 & 1)
    situation = sig >> 13
    groups = [qualifying(facts) for facts in readings(sig)]
    extras = r.extra_steps
    situational = [
        (SITUATIONS[name], extras[SITUATIONS[name]])
        for name, bit in SITUATION_BIT.items()
        if situation & bit and SITUATIONS[name] in extras
    ]
    add_fan = self_draw and r.options.self_draw_bonus == "add_fan"
    best = None
    for codes in groups:
        counted = [c for c in r.pattern_extras if c in codes]
        for index, entry in enumerate(r.table):
            if entry.code not in codes:
                continue
            pattern_extras = _without_stacked(entry.code, counted)
            gen = max(roots - entry.roots_included, 0)
            steps = gen * extras.get("gen", 0) + sum(s for _, s in situational)
            steps += len(pattern_extras) + add_fan
            total = r.step(entry.value, steps)
            rank = (total, index)
            if best is None or rank > best[0]:
                best = (rank, entry, gen, pattern_extras)
    (total, _), entry, gen, pattern_extras = best
    value, capped = r.capped_value(total)
    bonus = self_draw and r.options.self_draw_bonus == "add_one"
    lines = _lines(r, entry, gen, situational, pattern_extras, add_fan, bonus, capped)
    # order of the other qualifying patterns: by table value, then rarer first; extras last
    enabled = {e.code: i for i, e in enumerate(r.table)} | dict.fromkeys(r.pattern_extras, -1)
    others = sorted(
        (c for c in set().union(*groups) if c in enabled and c != entry.code),
        key=lambda c: (-_plain_value(r, c), -enabled[c]),
    )
    return Valuation(
        pattern=entry.code,
        patterns=(entry.code, *others),
        roots=roots,
        total=total,
        value=value + bonus,
        capped=capped,
        lines=tuple(lines),
        unit=r.unit,
    )


def _without_stacked(pattern: str, extras: list[str]) -> list[str]:
    """The pattern extras a reading counts with its base pattern: 单钓 does not stack with
    金钩钓, as a row or as an extra (a hand that is both counts one step, RULES §3.8)."""
    if "golden_wait" in extras and (pattern == "jingoudiao" or "jingoudiao" in extras):
        return [c for c in extras if c != "golden_wait"]
    return extras


def single_wait(r: Ruleset, key: int, tile: int) -> int:
    """:data:`SINGLE_WAIT_BIT` where the ruleset counts 单钓 and the concealed tiles before the
    win (hand key ``key``) hold exactly one copy of the winning tile, else 0. Whether the
    hand is all triplets, with that tile as its pair, is the pattern's own condition."""
    if r.options.golden_wait and key >> 3 * tile & 7 == 1:
        return SINGLE_WAIT_BIT
    return 0


def _plain_value(r: Ruleset, code: str) -> int:
    for e in r.table:
        if e.code == code:
            return e.value
    return -1


def _lines(r, entry, gen, situational, pattern_extras, add_fan, bonus, capped) -> list[Line]:
    extra_op = "times" if r.curve == "multiple" else "add"

    # the names the ruleset pins for its extras; optional patterns and 自摸 by their codes
    names = {e.code: e.name for e in r.extras}

    def extra(code: str, steps: int) -> Line:
        name = names.get(code) or EXTRA_NAMES.get(code) or PATTERN_NAMES[code]
        return Line(
            code, name.zh, name.en, extra_op, r.step(1, steps) if r.curve == "multiple" else steps
        )

    zh, en = entry.zh, entry.en
    if entry.roots_included:
        zh += f"（含{entry.roots_included}根）"
        en += f" (includes {entry.roots_included} root)"
    lines = [Line(entry.code, zh, en, "base", entry.value)]
    gen_steps = r.extra_steps.get("gen", 0)
    lines += [extra("gen", gen_steps) for _ in range(gen)]
    lines += [extra(code, steps) for code, steps in situational]
    lines += [extra(code, 1) for code in pattern_extras]
    if add_fan:
        lines.append(extra("zimo", 1))
    if capped:
        lines.append(Line("cap", "封顶", "Cap", "cap", r.options.cap))
    if bonus:
        lines.append(Line("zimo", "自摸加底", "Self-draw bonus", "bonus", 1))
    return lines


_get_facts = SUIT_FACTS.get
_COMBINE_FLAT = tuple(COMBINE[a][b] for a in range(16) for b in range(16))
_NON_258 = NON_258_BITS
_get_info = SUIT_INFO.get


def _value_concealed(
    r: Ruleset, a: int, b: int, c: int, n_tiles: int, self_draw: bool, situation: int
) -> Valuation | str:
    """Value a hand without melds from its three suit infos (memoised by ``evaluate_key``)."""
    info = combine_info(combine_info(a, b), c)
    sig = (
        (info & (15 | INFO_EVEN | INFO_258))
        | ((info >> INFO_SUITS & 3) == 1) << 5
        | (info >> INFO_FOURS & 7) << 8
    )
    if n_tiles != 14:
        sig &= ~INFO_EVEN  # seven pairs needs all fourteen tiles concealed
    if not sig & (15 | INFO_EVEN):
        return NOT_A_WINNING_SHAPE
    sig |= self_draw << 12 | situation << 13
    v = r.memo.get(sig)
    if v is None:
        v = r.memo[sig] = value_signature(r, sig)
    return v


#: signature bit 5 (one suit only) by the mask of suits present
_SINGLE_SUIT = tuple(32 if s in (1, 2, 4) else 0 for s in range(8))


def evaluate_key(
    key: int,
    n_tiles: int,
    r: Ruleset,
    melds: MeldGroup = NO_MELDS,
    self_draw: bool = False,
    situation: int = 0,
    void: int | None = None,
) -> Valuation | str:
    """The hot path: a 14-tile hand as a hand key → its valuation, or why it does not win.

    ``n_tiles`` counts the concealed tiles with the winning tile; input is assumed valid.
    """
    km = key & SUIT_MASK
    kp = key >> 27 & SUIT_MASK
    ks = key >> 54
    if not melds.count:
        suits = (km and 1) | (kp and 2) | (ks and 4)
        if suits == 7:
            return THREE_SUITS
        if void is not None and suits >> void & 1:
            return DECLARED_VOID_SUIT
        a = _get_info(km)
        b = _get_info(kp)
        c = _get_info(ks)
        if a is None or b is None or c is None:
            return NOT_A_WINNING_SHAPE
        # everything else depends on the three suit infos and the flags: one memo look-up
        hand = ((a << 16 | b) << 16 | c) << 10 | (n_tiles == 14) << 9 | self_draw << 8 | situation
        v = r.hands.get(hand)
        if v is None:
            v = r.hands[hand] = _value_concealed(r, a, b, c, n_tiles, self_draw, situation)
        return v
    else:
        suits = (km and 1) | (kp and 2) | (ks and 4) | melds.suits
        if suits == 7:
            return THREE_SUITS
        if void is not None and suits >> void & 1:
            return DECLARED_VOID_SUIT
        a = _get_facts(km)
        b = _get_facts(kp)
        c = _get_facts(ks)
        if a is None or b is None or c is None:
            return NOT_A_WINNING_SHAPE  # seven pairs never has melds
        roots = (key & FOUR_BITS).bit_count() + melds.kongs + (key & melds.pung_bits).bit_count()
        sig = (
            _COMBINE_FLAT[_COMBINE_FLAT[_COMBINE_FLAT[a << 4 | b] << 4 | c] << 4 | melds.facts]
            | _SINGLE_SUIT[suits]
            | (not key & _NON_258 and melds.all258) << 6
            | (melds.count == 4) << 7
            | roots << 8
            | self_draw << 12
            | situation << 13
        )
    v = r.memo.get(sig)
    if v is None:
        v = r.memo[sig] = value_signature(r, sig)
    return v


def evaluate_completions(
    key: int, n_tiles: int, r: Ruleset, tiles: list[int], void: int | None = None
) -> list[tuple[int, Valuation]]:
    """The waits hot path: a waiting hand without melds completed by each of ``tiles``, as a
    discard win, with the valuation of each that wins.

    This is :func:`evaluate_key`'s concealed branch with what the candidates share worked out
    once: each joins a suit the hand already holds (waits.winning_tiles), so the suits (three,
    or the declared void) are the waiting hand's own, and so is the memo key but for the info
    of the suit the tile joins.
    """
    suit_keys = (key & SUIT_MASK, key >> 27 & SUIT_MASK, key >> 54)
    km, kp, ks = suit_keys
    suits = (km and 1) | (kp and 2) | (ks and 4)
    if suits == 7 or (void is not None and suits >> void & 1):
        return []
    a, b, c = _get_info(km), _get_info(kp), _get_info(ks)
    flags = (n_tiles == 13) << 9  # fourteen concealed tiles with the winning one: 七对 possible
    # the memo key (see evaluate_key) without the info of suit 0, 1 or 2; None where one of
    # the other two suits cannot be part of a win
    partial = (
        None if b is None or c is None else (b << 16 | c) << 10 | flags,
        None if a is None or c is None else (a << 32 | c) << 10 | flags,
        None if a is None or b is None else (a << 32 | b << 16) << 10 | flags,
    )
    memo = r.hands
    golden = r.options.golden_wait
    out = []
    for t in tiles:
        suit = _SUIT_OF[t]
        rest = partial[suit]
        info = _get_info(suit_keys[suit] + _RANK_BIT[t])
        if rest is None or info is None:
            continue
        single = single_wait(r, key, t) if golden else 0
        hand = rest | info << _INFO_SHIFT[suit] | single
        v = memo.get(hand)
        if v is None:
            infos = [a, b, c]
            infos[suit] = info
            v = memo[hand] = _value_concealed(r, *infos, n_tiles + 1, False, single)
        if v.__class__ is not str:
            out.append((t, v))
    return out


def evaluate_concealed_waits(
    key: int, r: Ruleset, void: int | None = None
) -> list[tuple[int, Valuation, Valuation]]:
    """Readiness's hot path for a waiting hand of 13 concealed tiles: every tile that completes
    it, in tile order, as (tile, valuation as a discard win, valuation as a self-draw).

    The tiles are found and valued in one pass over the suit tables: a tile joins a suit the
    hand holds (alone it is neither in a set nor a pair), :func:`~.shapes.suit_joins` lists
    where it may join each suit with that suit's info after, and the memo decides the rest;
    a tile that joins nowhere in the tables completes nothing. Both wins of a tile are memo
    look-ups beside each other, differing only in the self-draw bit.
    """
    suit_keys = (key & SUIT_MASK, key >> 27 & SUIT_MASK, key >> 54)
    km, kp, ks = suit_keys
    suits = (km and 1) | (kp and 2) | (ks and 4)
    if suits == 7 or (void is not None and suits >> void & 1):
        return []
    a, b, c = _get_info(km), _get_info(kp), _get_info(ks)
    # the memo key (see evaluate_key) without the info of suit 0, 1 or 2, for fourteen
    # concealed tiles with the winning one (七对 possible); None where another suit cannot
    # be part of a win
    partial = (
        None if b is None or c is None else (b << 16 | c) << 10 | 512,
        None if a is None or c is None else (a << 32 | c) << 10 | 512,
        None if a is None or b is None else (a << 32 | b << 16) << 10 | 512,
    )
    memo = r.hands
    golden = SINGLE_WAIT_BIT if r.options.golden_wait else 0  # 单钓, as single_wait says
    out = []
    for suit in (0, 1, 2):
        rest = partial[suit]
        if rest is None or not suit_keys[suit]:
            continue
        first = 9 * suit
        shift = _INFO_SHIFT[suit]
        for rank, info, held_one in _suit_joins(suit_keys[suit]):
            single = golden if held_one else 0
            hand = rest | info << shift | single
            v = memo.get(hand)
            if v is None:
                infos = [a, b, c]
                infos[suit] = info
                v = memo[hand] = _value_concealed(r, *infos, 14, False, single)
            if v.__class__ is str:
                continue
            drawn = hand | _SELF_DRAW_HAND_BIT
            sd = memo.get(drawn)
            if sd is None:
                infos = [a, b, c]
                infos[suit] = info
                sd = memo[drawn] = _value_concealed(r, *infos, 14, True, single)
            out.append((first + rank, v, sd))
    return out


def evaluate_melded_waits(
    key: int,
    r: Ruleset,
    melds: MeldGroup,
    chajiao_melds: MeldGroup,
    void: int | None = None,
) -> list[tuple[int, Valuation, Valuation]]:
    """Readiness's hot path for a waiting hand with melds (``key`` its concealed tiles): every
    tile that completes it, in tile order, as (tile, valuation as a discard win with
    ``chajiao_melds``, valuation as a self-draw with the ``melds`` themselves). 查叫 values the
    discard win, with ``chajiao_melds`` = ``melds`` or ``melds.kongs_not_roots()``; the
    self-draw is a real win (its kongs are roots).

    :func:`evaluate_key`'s melded branch, found and worked out in one pass as
    :func:`evaluate_concealed_waits` does: a tile joins a suit the hand holds where
    :func:`~.shapes.suit_joins` says the suit still splits into sets (seven pairs never has
    melds), the melds and the other two suits splitting too, and no fifth copy counting the
    melds'. Both signatures of a tile are built once: the two meld groups differ at most in the
    kongs counted as roots, the self-draw in its bit.
    """
    suit_keys = (key & SUIT_MASK, key >> 27 & SUIT_MASK, key >> 54)
    suits = (suit_keys[0] and 1) | (suit_keys[1] and 2) | (suit_keys[2] and 4) | melds.suits
    if suits == 7 or (void is not None and suits >> void & 1):
        return []
    memo = r.memo
    golden = SINGLE_WAIT_BIT if r.options.golden_wait else 0  # 单钓, as single_wait says
    # What every completion shares. The tile joins one suit, so the split facts of the melds
    # and the other two suits are combined once per suit it may join (None where one of those
    # suits does not split); combining facts is order-free (each reachable AND of one fact
    # per part), so this is evaluate_key's combination.
    a, b, c = _get_facts(suit_keys[0]), _get_facts(suit_keys[1]), _get_facts(suit_keys[2])
    facts = melds.facts
    others = (
        None if b is None or c is None else _COMBINE_FLAT[_COMBINE_FLAT[b << 4 | c] << 4 | facts],
        None if a is None or c is None else _COMBINE_FLAT[_COMBINE_FLAT[a << 4 | c] << 4 | facts],
        None if a is None or b is None else _COMBINE_FLAT[_COMBINE_FLAT[a << 4 | b] << 4 | facts],
    )
    fixed = _SINGLE_SUIT[suits] | (melds.count == 4) << 7
    owned = key + melds.key  # a pung with its fourth copy in hand, or a kong: no fifth copy
    pung_bits = melds.pung_bits
    all258 = melds.all258
    discard_kongs = chajiao_melds.kongs
    drawn_kongs = melds.kongs
    out = []
    for suit in (0, 1, 2):
        rest = others[suit]
        if rest is None or not suit_keys[suit]:
            continue
        first = 9 * suit
        for rank, info, held_one in _suit_joins(suit_keys[suit]):
            joined = info & 15  # the suit's split facts with the tile (0: it only pairs up)
            t = first + rank
            if not joined or owned >> 3 * t & 7 >= 4:
                continue
            k = key + TILE_BIT[t]
            roots = (k & FOUR_BITS).bit_count() + (k & pung_bits).bit_count()
            sig = (
                _COMBINE_FLAT[rest << 4 | joined]
                | fixed
                | (not k & _NON_258 and all258) << 6
                | (golden if held_one else 0) << 13
            )
            discard = sig | (roots + discard_kongs) << 8
            v = memo.get(discard)
            if v is None:
                v = memo[discard] = value_signature(r, discard)
            drawn = sig | (roots + drawn_kongs) << 8 | 1 << 12
            sd = memo.get(drawn)
            if sd is None:
                sd = memo[drawn] = value_signature(r, drawn)
            out.append((t, v, sd))
    return out


_SELF_DRAW_HAND_BIT = 1 << 8  # the self-draw flag in the concealed memo key (evaluate_key)
_suit_joins = suit_joins
_SUIT_OF = tuple(t // 9 for t in range(27))
_RANK_BIT = tuple(1 << 3 * (t % 9) for t in range(27))  # a tile's bit within its suit key
_INFO_SHIFT = (42, 26, 10)  # where each suit's info sits in the concealed memo key


def evaluate_tiles(
    tiles,
    r: Ruleset,
    melds: MeldGroup = NO_MELDS,
    self_draw: bool = False,
    situation: int = 0,
    void: int | None = None,
) -> Valuation | str:
    """A winning hand given as tile ints (concealed tiles with the winning tile). Which tile won
    is not said, so 单钓 is counted only where ``situation`` carries :func:`single_wait`."""
    n = len(tiles)
    if n == 14:  # the usual case, unrolled: a third of the time of a loop
        t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13 = tiles
        b = TILE_BIT
        key = (
            b[t0]
            + b[t1]
            + b[t2]
            + b[t3]
            + b[t4]
            + b[t5]
            + b[t6]
            + b[t7]
            + b[t8]
            + b[t9]
            + b[t10]
            + b[t11]
            + b[t12]
            + b[t13]
        )
        if not melds.count:
            # evaluate_key's concealed branch, inlined: the call is a tenth of the time here
            km = key & SUIT_MASK
            kp = key >> 27 & SUIT_MASK
            ks = key >> 54
            suits = (km and 1) | (kp and 2) | (ks and 4)
            if suits == 7:
                return THREE_SUITS
            if void is not None and suits >> void & 1:
                return DECLARED_VOID_SUIT
            a = _get_info(km)
            b = _get_info(kp)
            c = _get_info(ks)
            if a is None or b is None or c is None:
                return NOT_A_WINNING_SHAPE
            hand = ((a << 16 | b) << 16 | c) << 10 | 512 | self_draw << 8 | situation
            v = r.hands.get(hand)
            if v is None:
                v = r.hands[hand] = _value_concealed(r, a, b, c, 14, self_draw, situation)
            return v
    else:
        key = 0
        for t in tiles:
            key += TILE_BIT[t]
    return evaluate_key(key, n, r, melds, self_draw, situation, void)


# --- the checked path: a hand as a club scorer enters it ---------------------------------


class WinningHand(NamedTuple):
    """A win as entered: concealed tiles before the winning tile, melds, and how it was won.

    (Immutable records are NamedTuples on the engine's hot paths: cheaper to build.)
    """

    concealed: tuple[int, ...]
    winning_tile: int
    melds: tuple[Meld, ...] = ()
    self_draw: bool = False
    situation: frozenset[str] = frozenset()
    declared_void: int | None = None


class Evaluation(NamedTuple):
    """The answer for one hand: a win with its valuation, or the reason it is not a win."""

    win: bool
    ruleset: Ruleset
    valuation: Valuation | None = None
    reason: str | None = None
    roots: int = 0

    @property
    def value(self) -> int:
        return self.valuation.value if self.valuation else 0

    def as_dict(self) -> dict[str, Any]:
        r = self.ruleset
        if not self.win:
            return {"win": False, "reason": self.reason, "roots": self.roots}
        return {"win": True, **self.valuation.as_dict(r), "ruleset": r.fingerprint}


def valued_situation(r: Ruleset, situation: frozenset[str], self_draw: bool) -> frozenset[str]:
    """The situation a win is valued with: a discard win off the last tile that was also a
    杠上炮 is valued as 海底 alone where ``haidi_over_kong_discard`` says so (RULES §3.7–3.8).
    The one place of that rule: ``evaluate`` and the settlement's replay both ask it."""
    if (
        r.options.haidi_over_kong_discard
        and not self_draw
        and "last_tile" in situation
        and "kong_discard" in situation
    ):
        return situation - {"kong_discard"}
    return situation


def situation_bits(flags) -> int:
    bits = 0
    for f in flags:
        bits |= SITUATION_BIT[f]
    return bits


def check_copies(counts: dict[int, int], path: str) -> list[Problem]:
    if max(counts.values(), default=0) <= 4:
        return []
    return [
        Problem(
            "too_many_copies", f"{tile_name(t)} appears {n} times; a tile has four copies", path
        )
        for t, n in sorted(counts.items())
        if n > 4
    ]


def check_winning_hand(h: WinningHand, path: str = "") -> list[Problem]:
    """Refusals of RULES §5 that concern one winning hand on its own."""
    pre = f"{path}." if path else ""
    problems = []
    n = len(h.concealed) + 3 * len(h.melds) + 1
    if n != 14:
        problems.append(
            Problem(
                "wrong_tile_count",
                f"a winning hand has 14 effective tiles (concealed + 3 per meld + the winning "
                f"tile), this one has {n}",
                f"{pre}concealed",
            )
        )
    tiles = sorted((*h.concealed, h.winning_tile))
    # sorted, so a fifth copy shows as a tile equal to the one four places before it
    over = {t for t, fifth in zip(tiles, tiles[4:], strict=False) if t == fifth}
    # meld copies are summed per tile: two melds of one tile are already six copies or more
    in_melds: dict[int, int] = {}
    for m in h.melds:
        in_melds[m.tile] = in_melds.get(m.tile, 0) + m.size
    for t, n_meld in in_melds.items():
        if tiles.count(t) + n_meld > 4:
            over.add(t)
    if over:
        counts = Counter(tiles)
        for m in h.melds:
            counts[m.tile] += m.size
        problems += check_copies({t: counts[t] for t in over}, f"{pre}concealed")
    return problems + check_situation(h.self_draw, h.situation, h.melds, path)


def check_situation(
    self_draw: bool,
    s: frozenset[str],
    melds: tuple[Meld, ...],
    path: str = "",
    *,
    melds_listed: bool = True,
) -> list[Problem]:
    """The situation flags a winning hand makes impossible on its own (RULES §5): how it was
    won and its melds. ``melds_listed`` False: a declared winner who lists no melds (RULES
    §6), whose melds are not known, so only how he won is checked."""
    pre = f"{path}." if path else ""
    problems: list[Problem] = []
    if not s:
        return problems
    has_kong = any(m.kind == "kong" for m in melds) or not melds_listed
    if "kong_flower" in s and not self_draw:
        problems.append(
            Problem(
                "kong_flower_not_self_draw",
                "杠上花 is won on one's own replacement tile (self-draw)",
                f"{pre}situation",
            )
        )
    if "kong_flower" in s and not has_kong:
        problems.append(
            Problem(
                "kong_flower_without_kong",
                "杠上花 needs a kong of the winner's own",
                f"{pre}situation",
            )
        )
    for flag in ("kong_discard", "robbing_kong"):
        if flag in s and self_draw:
            problems.append(
                Problem(
                    f"{flag}_self_draw",
                    f"{flag} is a win on another player's tile, not a self-draw",
                    f"{pre}situation",
                )
            )
    if "heavenly" in s and (not self_draw or melds):
        problems.append(
            Problem(
                "heavenly_impossible",
                "天胡 is self-drawn on the dealer's first 14 tiles, with no melds",
                f"{pre}situation",
            )
        )
    if "earthly" in s and melds:
        problems.append(
            Problem(
                "earthly_with_melds", "地胡 comes before any claim: no melds", f"{pre}situation"
            )
        )
    if "heavenly" in s and "earthly" in s:
        problems.append(
            Problem(
                "situation_conflict",
                "天胡 (dealer) and 地胡 (non-dealer) exclude each other",
                f"{pre}situation",
            )
        )
    if len(s & {"kong_flower", "kong_discard", "robbing_kong"}) > 1:
        problems.append(
            Problem(
                "situation_conflict",
                "杠上花, 杠上炮 and 抢杠 exclude each other",
                f"{pre}situation",
            )
        )
    return problems


def evaluate(hand: WinningHand, ruleset: Any = None) -> Evaluation:
    """Evaluate a checked winning hand; refuses impossible input with an EngineError."""
    r = resolve_ruleset(ruleset)
    problems = check_winning_hand(hand)
    if problems:
        raise EngineError.many(problems)
    mg = MeldGroup.of(hand.melds)
    before = hand_key(hand.concealed)
    key = before + TILE_BIT[hand.winning_tile]
    out = evaluate_key(
        key,
        len(hand.concealed) + 1,
        r,
        mg,
        hand.self_draw,
        situation_bits(valued_situation(r, hand.situation, hand.self_draw))
        | single_wait(r, before, hand.winning_tile),
        hand.declared_void,
    )
    if isinstance(out, str):
        roots = (key & FOUR_BITS).bit_count() + mg.kongs + (key & mg.pung_bits).bit_count()
        return Evaluation(win=False, ruleset=r, reason=out, roots=roots)
    return Evaluation(win=True, ruleset=r, valuation=out, roots=out.roots)


def parse_winning_hand(data: Any, path: str = "") -> WinningHand:
    """A winning hand from its JSON form; every problem found is reported at once."""
    if not isinstance(data, dict):
        raise EngineError("invalid_hand", "a hand is an object", path)
    pre = f"{path}." if path else ""
    c = Collector()
    concealed = c.attempt(parse_tiles, data.get("concealed", ""), f"{pre}concealed", default=())
    winning = c.attempt(parse_tile, data.get("winning_tile"), f"{pre}winning_tile")
    melds = parse_melds(c, data.get("melds"), f"{pre}melds")
    self_draw = data.get("self_draw", False)
    if not isinstance(self_draw, bool):
        c.add("invalid_type", "self_draw is true or false", f"{pre}self_draw")
    situation = c.attempt(parse_situation, data.get("situation"), f"{pre}situation")
    void = c.attempt(parse_suit, data.get("declared_void"), f"{pre}declared_void")
    c.raise_if_any()
    return WinningHand(
        concealed=concealed,
        winning_tile=winning,
        melds=melds,
        self_draw=self_draw,
        situation=situation,
        declared_void=void,
    )


def parse_situation(data: Any, path: str) -> frozenset[str]:
    if data is None:
        return frozenset()
    if isinstance(data, list) and len(data) > len(SITUATIONS):  # more than each flag once
        raise EngineError(
            "invalid_situation", f"situation lists at most the {len(SITUATIONS)} flags", path
        )
    if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
        raise EngineError("invalid_situation", "situation is a list of flag names", path)
    c = Collector()
    for i, x in enumerate(data):
        if x not in SITUATIONS:
            c.add(
                "unknown_situation",
                f"unknown situation flag {shown(x)}; flags are {', '.join(SITUATIONS)}",
                f"{path}[{i}]",
            )
    c.raise_if_any()
    return frozenset(data)


__all__ = [
    "Evaluation",
    "Line",
    "Valuation",
    "WinningHand",
    "evaluate",
    "evaluate_key",
    "evaluate_tiles",
    "parse_winning_hand",
    "single_wait",
    "value_signature",
]
