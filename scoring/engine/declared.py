"""Declared hands (RULES §6): a winner, or a player at the draw, recorded by what the hand was
instead of by its tiles.

A declaration names the facts tiles would show — the base pattern the engine would report,
the roots, the hand-shape extras — and this module turns them into the same hand *signature*
the evaluator computes from tiles (``evaluate.py``), so a declared hand is valued by the one
valuation there is (:func:`~.evaluate.value_signature`, memoised per ruleset), never by a
second table. A declaration the ruleset cannot produce is refused with a path and a code.

The declaration menu (:func:`declaration_menu`) lists what a ruleset lets a scorer declare:
its base patterns with their values and roots range, its hand-shape extras, the situation
flags that matter under it, and the three declarations of the draw.

Record format (inside a hand record, ``settle/parse.py``)::

    # a winner, in place of "concealed" (melds optional; 金钩钓 needs the four melds listed)
    {"seat": 1, "declared": {"pattern": "qingyise", "roots": 1, "extras": ["jingoudiao"]},
     "melds": [...]}
    # a player at the draw, in place of {"concealed", "melds"}
    {"declared": "huazhu"} | {"declared": "not_ready"}
    {"declared": "ready", "wait": {"pattern": "duiduihu", "roots": 0, "extras": []}}

``roots`` (default 0) counts every four-of-a-kind of the whole hand as tiles would, the
player's own kongs included; ``extras`` (default none) are the hand-shape extras a ruleset
counts as a step rather than as a pattern (``Ruleset.pattern_extras``).

The winning tile. A declared value never depends on the winning tile: the pattern, the roots
and the extras are declared, and the situation flags are the event's. So a win event whose
winners are all declared may leave its ``tile`` out (or null), and the engine simply has no
tile to count (``wins[i].tile`` is then null, and the tile-copy check counts one tile fewer).
A shown winner still needs it (``winning_tile_missing``), also beside a declared one on the
same discard (一炮多响). The rules that involve the tile:

* 绝张 (``last_copy``) and 海底 (``last_tile``) are the scorer's flags, valued as declared;
  the engine does not check them against the tiles in either case, so they work without it.
* 抢杠 (``robbing_kong``) robs the added kong of the winning tile: without the tile, that tile
  is the one of the discarder's added kong right before the win (the kong robbed, then
  cancelled); a 抢杠 without the tile and without that kong is refused
  (``robbing_kong_tile_missing``), since nothing then says which kong was robbed
  (``settle.refusals.robbed_kongs``).
* 杠上花, 杠上炮, 天胡 and 地胡 are checked against the events, not the tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.names import Name

from .bounds import MAX_ROOTS
from .errors import Collector, Problem, is_int, shown
from .evaluate import SINGLE_WAIT_BIT, Valuation, value_signature
from .lru import CACHE_SIZE, LRU
from .melds import Meld, MeldGroup
from .patterns import EXTRA_NAMES, PATTERN_NAMES, PATTERNS, SITUATION_BIT, SITUATIONS, Fact
from .rulesets import Ruleset, resolve_ruleset

#: what a player at the draw may be declared
DRAW_DECLARATIONS: dict[str, Name] = {
    "huazhu": Name("花猪", "Flower pig (three suits)"),
    "not_ready": Name("未下叫", "Not ready"),
    "ready": Name("下叫", "Ready (with the wait 查叫 uses)"),
}
#: the situation flag a pattern needs (天胡 / 地胡 are the scorer's flags, RULES §2)
PATTERN_SITUATION = {"tianhu": "heavenly", "dihu": "earthly"}
#: the hand-shape facts each extra of ``Ruleset.pattern_extras`` adds to a declaration
EXTRA_FACTS = {
    "jingoudiao": Fact.FOUR_MELDS | Fact.TRIPLETS,
    "golden_wait": Fact.TRIPLETS | Fact.SINGLE_WAIT,
    "daiyaojiu": Fact.TERMINALS,
    "jiangdui": Fact.TRIPLETS | Fact.ONLY_258,
}
#: the 七对 patterns and the 龙 row that takes over each of them once it holds a root
LONG_ROW = {"qidui": "longqidui", "qingqidui": "qinglongqidui"}
#: flags that change who pays or what a kong's money does even where they add no step
_PAYMENT_FLAGS = ("kong_flower", "kong_discard", "robbing_kong")

_DECLARATION_FIELDS = frozenset(("pattern", "roots", "extras"))


@dataclass(frozen=True)
class Declaration:
    """What a declared hand was: its base pattern, its roots, its hand-shape extras."""

    pattern: str
    roots: int = 0
    extras: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"pattern": self.pattern, "roots": self.roots, "extras": list(self.extras)}


# --- the menu -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PatternChoice:
    """A base pattern a winner may be declared with under one ruleset.

    ``value`` is the pattern's total in the ruleset's unit at ``min_roots`` (its row value, or
    more where a root is needed), ``paid`` what each payer pays for it at base 1 on a discard
    win (cap applied); every root beyond ``min_roots`` adds ``root_steps`` steps of the curve.
    ``situation`` names the flag the pattern needs (天胡 ``heavenly``, 地胡 ``earthly``);
    ``melds`` is 4 where the pattern needs the four melds listed (金钩钓), else 0; ``wait``
    says whether a ready player at the draw may be declared waiting on it."""

    code: str
    name: Name
    value: int
    paid: int
    min_roots: int
    max_roots: int
    situation: str | None = None
    melds: int = 0
    wait: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name.as_dict(),
            "value": self.value,
            "paid": self.paid,
            "min_roots": self.min_roots,
            "max_roots": self.max_roots,
            "situation": self.situation,
            "melds": self.melds,
            "wait": self.wait,
        }


@dataclass(frozen=True)
class ExtraChoice:
    """A hand-shape extra a declaration may list (one step of the curve each)."""

    code: str
    name: Name
    steps: int
    melds: int = 0  # 4: needs the four melds listed (金钩钓)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name.as_dict(),
            "steps": self.steps,
            "melds": self.melds,
        }


@dataclass(frozen=True)
class SituationChoice:
    """A situation flag of a win event that matters under the ruleset: ``steps`` of the curve
    it adds (0 where it only changes who pays, or where it makes a pattern: 天胡, 地胡)."""

    code: str
    name: Name
    steps: int

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name.as_dict(), "steps": self.steps}


@dataclass(frozen=True)
class DrawChoice:
    """A declaration of a player still in the hand at the draw."""

    code: str
    name: Name
    needs_wait: bool

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name.as_dict(), "needs_wait": self.needs_wait}


@dataclass(frozen=True)
class DeclarationMenu:
    """What a scorer may declare under one ruleset (options included)."""

    ruleset: str  # the fingerprint
    preset: str
    unit: str
    root_steps: int
    patterns: tuple[PatternChoice, ...]
    extras: tuple[ExtraChoice, ...]
    situations: tuple[SituationChoice, ...]
    draw: tuple[DrawChoice, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "preset": self.preset,
            "unit": self.unit,
            "root_steps": self.root_steps,
            "patterns": [p.as_dict() for p in self.patterns],
            "extras": [e.as_dict() for e in self.extras],
            "situations": [s.as_dict() for s in self.situations],
            "draw": [d.as_dict() for d in self.draw],
        }


def roots_range(r: Ruleset, code: str) -> tuple[int, int]:
    """The roots a declaration of this pattern may give under ``r`` (RULES §6)."""
    needs = PATTERNS[code].needs
    if needs & Fact.SEVEN_PAIRS:
        if needs & Fact.ROOT:
            return 1, 3
        codes = {e.code for e in r.table}
        return (0, 0) if LONG_ROW.get(code) in codes else (0, 3)
    if code in PATTERN_SITUATION:
        return 0, 3  # fourteen concealed tiles: at most three fours
    return 0, MAX_ROOTS


#: menus by ruleset fingerprint
_MENUS: LRU[str, DeclarationMenu] = LRU(CACHE_SIZE)


def declaration_menu(ruleset: Any = None) -> DeclarationMenu:
    """The declaration menu of a ruleset (a spec or a :class:`Ruleset`): the base patterns a
    winner may be declared with, the extras, the situation flags and the draw declarations."""
    r = resolve_ruleset(ruleset)
    menu = _MENUS.get(r.fingerprint)
    if menu is not None:
        return menu
    patterns = []
    for e in r.table:
        low, high = roots_range(r, e.code)
        flag = PATTERN_SITUATION.get(e.code)
        v = value_signature(r, _signature(Declaration(e.code, low), NO_MELD_GROUP, flag))
        patterns.append(
            PatternChoice(
                code=e.code,
                name=Name(e.zh, e.en),
                value=v.total,
                paid=v.value,
                min_roots=low,
                max_roots=high,
                situation=flag,
                melds=4 if e.code == "jingoudiao" else 0,
                wait=flag is None,
            )
        )
    extras = tuple(
        ExtraChoice(code, PATTERN_NAMES[code], 1, 4 if code == "jingoudiao" else 0)
        for code in r.pattern_extras
    )
    steps = r.extra_steps
    table = {e.code for e in r.table}
    situations = []
    for code, element in SITUATIONS.items():
        n = steps.get(element, 0)
        if n or code in _PAYMENT_FLAGS or element in table:
            name = EXTRA_NAMES.get(element) or PATTERN_NAMES[element]
            situations.append(SituationChoice(code, name, n))
    draw = tuple(
        DrawChoice(code, name, code == "ready") for code, name in DRAW_DECLARATIONS.items()
    )
    menu = DeclarationMenu(
        ruleset=r.fingerprint,
        preset=r.preset,
        unit=r.unit,
        root_steps=steps.get("gen", 0),
        patterns=tuple(patterns),
        extras=extras,
        situations=tuple(situations),
        draw=draw,
    )
    _MENUS.put(r.fingerprint, menu)
    return menu


# --- reading and valuing a declaration ---------------------------------------------------------

NO_MELD_GROUP = MeldGroup.of(())


def parse_declaration(c: Collector, data: Any, path: str) -> Declaration | None:
    """A declaration ``{pattern, roots, extras}`` from its JSON form (shape and codes only; what
    the ruleset allows is :func:`value_declaration`'s)."""
    if not isinstance(data, dict):
        c.add("invalid_declaration", "a declaration is {pattern, roots, extras}", path)
        return None
    before = c.found
    c.unknown_fields(data, _DECLARATION_FIELDS, path)
    pattern = data.get("pattern")
    if not isinstance(pattern, str):
        c.add("invalid_declaration", "pattern is a pattern code", f"{path}.pattern")
    elif pattern not in PATTERNS:
        c.add(
            "unknown_pattern",
            f"unknown pattern {shown(pattern)}; patterns are {', '.join(PATTERNS)}",
            f"{path}.pattern",
        )
    roots = data.get("roots", 0)
    if not is_int(roots) or not 0 <= roots <= MAX_ROOTS:
        c.add(
            "invalid_roots",
            f"roots is a whole number from 0 to {MAX_ROOTS}, got {shown(roots)}",
            f"{path}.roots",
        )
    extras = data.get("extras", [])
    if extras is None:
        extras = []
    if not isinstance(extras, list) or not all(isinstance(x, str) for x in extras):
        c.add("invalid_extras", "extras is a list of extra codes", f"{path}.extras")
        extras = []
    elif len(extras) > len(EXTRA_FACTS):
        c.add("invalid_extras", f"extras lists at most {len(EXTRA_FACTS)} codes", f"{path}.extras")
        extras = []
    for i, x in enumerate(extras):
        if x not in EXTRA_FACTS:
            c.add(
                "unknown_extra",
                f"unknown extra {shown(x)}; extras are {', '.join(EXTRA_FACTS)}",
                f"{path}.extras[{i}]",
            )
        elif x in extras[:i]:
            c.add("duplicate_extra", f"{x} is listed twice", f"{path}.extras[{i}]")
    if c.found > before:
        return None
    return Declaration(pattern, roots, tuple(extras))


def _signature(
    d: Declaration,
    melds: MeldGroup,
    flag: str | None = None,
    *,
    self_draw: bool = False,
    situation: int = 0,
    roots: int | None = None,
) -> int:
    """The hand signature (``evaluate.py``) of a declaration: the facts its pattern needs, the
    facts of its extras and of its listed melds, its roots (``roots``: the ones that count,
    where not all of them do) and how it was won."""
    if roots is None:
        roots = d.roots
    facts = PATTERNS[d.pattern].needs
    for x in d.extras:
        facts |= EXTRA_FACTS[x]
    if melds.count == 4:
        facts |= Fact.FOUR_MELDS
    if facts & Fact.FOUR_MELDS:
        # four melds and a pair: every set a triplet, won on the pair's second tile (单钓)
        facts |= Fact.TRIPLETS | Fact.SINGLE_WAIT
    if flag is not None:
        situation |= SITUATION_BIT[flag]
    if facts & Fact.SINGLE_WAIT:
        situation |= SINGLE_WAIT_BIT
    sig = roots << 8 | self_draw << 12 | situation << 13
    if facts & Fact.SEVEN_PAIRS:
        sig |= 1 << 4
    else:  # one standard split: all triplets or not, terminals or not (shapes.py)
        sig |= 1 << (2 * bool(facts & Fact.TRIPLETS) + bool(facts & Fact.TERMINALS))
    if facts & Fact.ONE_SUIT:
        sig |= 1 << 5
    if facts & Fact.ONLY_258:
        sig |= 1 << 6
    if facts & Fact.FOUR_MELDS:
        sig |= 1 << 7
    return sig


def _name(r: Ruleset, code: str) -> str:
    for e in r.table:
        if e.code == code:
            return f"{e.zh} {code}"
    return f"{PATTERN_NAMES[code].zh} {code}"


def value_declaration(
    r: Ruleset,
    d: Declaration,
    path: str,
    *,
    melds: Sequence[Meld] = (),
    kongs: int = 0,
    self_draw: bool = False,
    situation: frozenset[str] = frozenset(),
    void: int | None = None,
    wait: bool = False,
) -> tuple[Valuation | None, list[Problem]]:
    """A declaration valued under ``r`` as tiles with those facts would be, or the problems
    that make it one the ruleset cannot produce (each with a path and a code).

    ``melds`` are the melds the record lists for the player (possibly none), ``kongs`` the
    kongs he made in the record's events; ``self_draw`` and ``situation`` how the win was made
    (their own refusals are the caller's, as for tiles); ``wait``: the declaration is a ready
    player's wait at the draw (a discard win without situational extras).
    """
    problems: list[Problem] = []

    def refuse(code: str, message: str, where: str = "") -> None:
        problems.append(Problem(code, message, f"{path}.{where}" if where else path))

    table = {e.code for e in r.table}
    code = d.pattern
    needs = PATTERNS[code].needs
    if code not in table:
        why = "the preset has no row for it, or its option is off"
        if code in r.pattern_extras:
            why = "it is an extra under these rules: list it in extras"
        refuse(
            "pattern_not_in_ruleset",
            f"{code} ({PATTERN_NAMES[code].zh}) is not a pattern of {r.preset}: {why}",
            "pattern",
        )
        return None, problems
    if wait and code in PATTERN_SITUATION:
        refuse(
            "invalid_wait_pattern",
            f"a wait is valued as a discard win without situations: {code} cannot be one",
            "pattern",
        )
        return None, problems
    low, high = roots_range(r, code)
    if d.roots < low or d.roots > high:
        if code in LONG_ROW and d.roots and LONG_ROW[code] in table:
            refuse(
                "seven_pairs_with_roots",
                f"seven pairs with a four of a kind is {LONG_ROW[code]} under {r.preset}: "
                f"declare {_name(r, LONG_ROW[code])}",
                "roots",
            )
        elif needs & Fact.ROOT and d.roots < low:
            refuse("long_seven_pairs_without_root", f"{code} holds at least one root", "roots")
        else:
            refuse(
                "roots_out_of_range", f"{code} has {low} to {high} roots, got {d.roots}", "roots"
            )
    for i, x in enumerate(d.extras):
        if x not in r.pattern_extras:
            why = (
                "declare it as the pattern"
                if x in table
                else f"{r.preset} does not count it (or its option is off)"
            )
            refuse(
                "extra_not_in_ruleset",
                f"{x} ({PATTERN_NAMES[x].zh}) is not an extra under {r.preset}: {why}",
                f"extras[{i}]",
            )
    mg = MeldGroup.of(tuple(melds))
    facts = needs
    for x in d.extras:
        facts |= EXTRA_FACTS.get(x, 0)
    if needs & Fact.SEVEN_PAIRS and (melds or kongs):
        refuse(
            "seven_pairs_with_melds",
            "七对 is fourteen concealed tiles: no melds and no kongs",
            "pattern",
        )
    if facts & Fact.FOUR_MELDS and mg.count != 4:
        refuse(
            "jingoudiao_without_melds",
            "金钩钓 needs the player's four melds listed in his melds",
            "pattern" if code == "jingoudiao" else "extras",
        )
    if code in PATTERN_SITUATION and PATTERN_SITUATION[code] not in situation:
        refuse(
            "pattern_needs_situation",
            f"{code} ({PATTERN_NAMES[code].zh}) is declared with the "
            f"{PATTERN_SITUATION[code]!r} situation flag of its win",
            "pattern",
        )
    if code in PATTERN_SITUATION and melds:
        refuse("pattern_with_melds", f"{code} is won before any claim: no melds", "pattern")
    held = max(kongs, mg.kongs)
    if d.roots < held:
        refuse(
            "roots_below_kongs",
            f"roots count the player's own kongs: he has {held}, the declaration says {d.roots}",
            "roots",
        )
    _refuse_melds(refuse, facts, mg, melds, void)
    if problems:
        return None, problems
    bits = 0
    for flag in situation:
        bits |= SITUATION_BIT[flag]
    counted_roots = d.roots
    if wait and not r.options.chajiao_kongs:
        counted_roots -= held  # 查叫 without kong roots (RULES §3.8 ``chajiao_kongs``)
    sig = _signature(d, mg, self_draw=self_draw, situation=0 if wait else bits, roots=counted_roots)
    v = r.memo.get(sig)
    if v is None:
        v = r.memo[sig] = value_signature(r, sig)
    if v.pattern != code:
        refuse(
            "pattern_mismatch",
            f"tiles with these facts are reported as {_name(r, v.pattern)} under {r.preset}: "
            f"declare {v.pattern}",
            "pattern",
        )
    counted = {line.code for line in v.lines if line.code in r.pattern_extras}
    for x in d.extras:
        if x in r.pattern_extras and x not in counted:
            refuse(
                "extra_impossible",
                f"{x} ({PATTERN_NAMES[x].zh}) cannot be part of a {code} hand",
                "extras",
            )
    for x in sorted(counted - set(d.extras)):
        refuse(
            "extra_missing",
            f"a hand with these facts counts {x} ({PATTERN_NAMES[x].zh}): list it in extras",
            "extras",
        )
    return (None if problems else v), problems


def _refuse_melds(refuse, facts: int, mg: MeldGroup, melds: Sequence[Meld], void) -> None:
    """Listed melds that contradict the declared facts (or 缺一门)."""
    if not melds:
        return
    if mg.suits == 7:
        refuse("three_suits", "the melds hold three suits: no win (缺一门)", "pattern")
    elif void is not None and mg.suits >> void & 1:
        refuse("declared_void_suit", "the melds hold the player's declared void suit", "pattern")
    if facts & Fact.ONE_SUIT and mg.suits.bit_count() > 1:
        refuse("declaration_conflict", "a one-suit pattern with melds of two suits", "pattern")
    if facts & Fact.TERMINALS and any(m.tile % 9 not in (0, 8) for m in melds):
        refuse("declaration_conflict", "every set holds a 1 or a 9: a meld does not", "pattern")
    if facts & Fact.ONLY_258 and any(m.tile % 9 not in (1, 4, 7) for m in melds):
        refuse("declaration_conflict", "every tile is a 2, 5 or 8: a meld is not", "pattern")


__all__ = [
    "DRAW_DECLARATIONS",
    "Declaration",
    "DeclarationMenu",
    "DrawChoice",
    "ExtraChoice",
    "PatternChoice",
    "SituationChoice",
    "declaration_menu",
    "parse_declaration",
    "roots_range",
    "value_declaration",
]
