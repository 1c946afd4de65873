"""Rule systems as data (RULES §3): the presets and their negotiable options.

A ruleset is addressed as a preset name or ``{"preset": NAME, "options": {KEY: VALUE}}``.
Resolving one gives an immutable :class:`Ruleset` whose :meth:`Ruleset.as_dict` is its
complete, JSON-serialisable description and whose :attr:`Ruleset.fingerprint` (SHA-256 of the
canonical JSON) lets a stored hand prove which rules settled it.

Rules are pinned: a preset carries a ``version`` (changing a table adds one), and
:func:`ruleset_from_description` rebuilds the exact ruleset from a stored description without
reading today's :data:`PRESETS`, so a hand is re-settled under the rules it was recorded with.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from core.names import Name

from .bounds import MAX_AMOUNT, MAX_CAP, MAX_OPTION_AMOUNT, MAX_ROOTS, MAX_STEPS
from .errors import Collector, EngineError, Problem, is_int, join_path, path_key, shown
from .patterns import EXTRA_NAMES, PATTERN_NAMES, PATTERNS

Curve = Literal["fan", "multiple", "points"]
CURVES: tuple[str, ...] = ("fan", "multiple", "points")
CAP = "cap"  # a pattern worth the cap itself (满格): 天胡/地胡 in chengdu
#: who deals next (RULES §3.1–§3.4): 普通 the discarder / 血战 dice, or the first winner
NEXT_DEALERS = ("discarder_or_dice", "first_winner")

#: the unit of each curve, as named in API output
UNIT = {"fan": "fan", "multiple": "multiple", "points": "points"}


@dataclass(frozen=True)
class Options:
    """The toggles of RULES §3.5; defaults here are overridden per preset."""

    mode: str = "xuezhan"
    cap: int | None = None
    self_draw_bonus: str = "none"
    kong_concealed: int = 2
    kong_added: int = 1
    kong_direct: int = 1
    drizzle: bool = False
    added_kong_same_turn: bool = False
    huazhu: int | str = 16
    chajiao: str = "max"
    dead_wait_counts: bool = True
    refund_kongs: bool = True
    kong_flower_after_direct: str = "self_draw"
    daiyaojiu: bool = True
    jiangdui: bool = True
    jingoudiao: bool = False
    haidi: bool = False
    juezhang: bool = False
    horse_eats_horse: bool = False
    # the competition presets' options (RULES §3.8); see LATER_OPTIONS
    kong_transfer: str = "copy"
    chajiao_kongs: bool = True
    golden_wait: bool = False
    haidi_over_kong_discard: bool = False
    tianhu_dihu: bool = True
    false_win: int | str = "huazhu"


_CHOICES: dict[str, tuple[str, ...]] = {
    "mode": ("xuezhan", "single"),
    "self_draw_bonus": ("none", "add_one", "add_fan"),
    "chajiao": ("max", "min", "off"),
    "kong_flower_after_direct": ("self_draw", "discard"),
    "kong_transfer": ("copy", "chain_split", "refund"),
}
HUAZHU_RULES = ("cap", "chajiao_plus_fan", "not_ready")
FALSE_WIN_RULES = ("huazhu", "cap")
_COUNTS = ("kong_concealed", "kong_added", "kong_direct")
_BOOLS = tuple(f.name for f in fields(Options) if f.type == "bool")
_OPTION_ORDER = tuple(f.name for f in fields(Options))
_OPTION_KEYS = frozenset(_OPTION_ORDER)


def fixed_huazhu(options: Options) -> bool:
    """Whether a 花猪 pays a price of its own (a number, or 满格): what ``false_win: "huazhu"``
    needs."""
    return is_int(options.huazhu) or options.huazhu == "cap"


def implied_false_win(options: dict[str, Any] | Options) -> int | str:
    """The ``false_win`` a ruleset has unless it says otherwise: what a 花猪 pays where a 花猪
    has a price of its own, else a win at the cap (RULES §3.8: qq, chengdu, additive
    ``huazhu``; xuezhan9 and tfmj2024 ``cap``)."""
    huazhu = options.get("huazhu") if isinstance(options, dict) else options.huazhu
    return "huazhu" if is_int(huazhu) or huazhu == "cap" else "cap"


#: options added after descriptions were first stored, with the value each one had before it
#: existed (the rule then built in). A fingerprint hashes the description without such an
#: option where it has that value, and a stored description without it reads it so: every
#: description stored before keeps its fingerprint (``scoring.services`` checks it).
LATER_OPTIONS: dict[str, Any] = {
    "kong_transfer": "copy",
    "chajiao_kongs": True,
    "golden_wait": False,
    "haidi_over_kong_discard": False,
    "tianhu_dihu": True,
    "false_win": implied_false_win,
}


def _earlier_value(key: str, options: dict[str, Any]) -> Any:
    value = LATER_OPTIONS[key]
    return value(options) if callable(value) else value


def _check_option(key: str, value: Any, path: str, curve: str | None) -> Problem | None:
    """The problem of one option's value, if any; ``curve`` bounds the cap (RULES §5), unless
    it is not known (a description whose curve is wrong, refused for that already)."""

    def bad(expect: str) -> Problem:
        return Problem(
            "invalid_option", f"option {key!r} must be {expect}, got {shown(value)}", path
        )

    def too_high(code: str, most: int, unit: str = "base units") -> Problem:
        return Problem(code, f"option {key!r} is at most {most:,} {unit}, got {shown(value)}", path)

    if key in _CHOICES:
        if value not in _CHOICES[key]:
            return bad("one of " + ", ".join(_CHOICES[key]))
    elif key in _BOOLS:
        if not isinstance(value, bool):
            return bad("true or false")
    elif key in _COUNTS:
        if not is_int(value) or value < 0:
            return bad("a whole number ≥ 0")
        if value > MAX_OPTION_AMOUNT:
            return too_high("option_out_of_range", MAX_OPTION_AMOUNT)
    elif key == "cap":
        if value is not None and (not is_int(value) or value < 1):
            return bad("a whole number ≥ 1 or null")
        if value is not None and curve in MAX_CAP and value > MAX_CAP[curve]:
            return too_high("cap_out_of_range", MAX_CAP[curve], f"on a {curve} curve")
    elif key == "huazhu":
        if not ((is_int(value) and value >= 0) or value in HUAZHU_RULES):
            return bad('a whole number ≥ 0, "cap", "chajiao_plus_fan" or "not_ready"')
        if is_int(value) and value > MAX_OPTION_AMOUNT:
            return too_high("option_out_of_range", MAX_OPTION_AMOUNT)
    elif key == "false_win":
        # 0 would make a false win free: RULES §4.9 makes the offender pay
        if not ((is_int(value) and value >= 1) or value in FALSE_WIN_RULES):
            return bad('a whole number ≥ 1, "huazhu" or "cap"')
        if is_int(value) and value > MAX_OPTION_AMOUNT:
            return too_high("option_out_of_range", MAX_OPTION_AMOUNT)
    return None


def _check_combination(c: Collector, options: Options, path: str) -> None:
    """Options that are each valid but not together."""
    if options.false_win == "huazhu" and not fixed_huazhu(options):
        c.add(
            "invalid_option",
            f'option false_win "huazhu" (诈胡 pays what a 花猪 pays) needs a 花猪 price: huazhu '
            f'is {shown(options.huazhu)}; give false_win a number or "cap"',
            f"{path}.false_win",
        )


def _check_options(
    c: Collector, given: dict, path: str, curve: str | None, *, complete: bool = False
) -> None:
    """Every problem of an options object: unknown keys, wrong values, values out of range for
    the ruleset's curve (and, for a stored description, missing keys)."""
    for key in sorted(given, key=path_key):
        opt_path = f"{path}.{path_key(key)}"
        if key not in _OPTION_KEYS:
            c.add("unknown_option", f"unknown option {shown(key)}", opt_path)
        elif problem := _check_option(key, given[key], opt_path, curve):
            c.extend([problem])
    if complete:
        for key in sorted(_OPTION_KEYS - set(given) - set(LATER_OPTIONS)):
            c.add("missing_option", f"option {key!r} is missing", f"{path}.{key}")


@dataclass(frozen=True)
class PatternEntry:
    """One row of a base-pattern table.

    ``value`` is in the curve's unit (fan, multiple or points), or ``"cap"`` in a preset's
    table; ``roots_included`` is how many 根 the pattern already counts (龙七对 in qq and
    chengdu); ``option`` names the toggle that switches the pattern on, if it is optional.
    ``zh`` and ``en`` override the pattern's usual name in a preset's table (大对子 for 对对胡);
    in a ruleset both are always filled in.
    """

    code: str
    value: int | str
    roots_included: int = 0
    option: str | None = None
    zh: str | None = None
    en: str | None = None


class Extra(NamedTuple):
    """An extra (加番) of a ruleset: its code, its steps up the curve (+1 fan, ×2 or +1 point
    each) and its name."""

    code: str
    steps: int
    name: Name


@dataclass(frozen=True, eq=False)  # a preset is the object in the table: compared by identity
class Preset:
    """A rule system of the rule book (RULES §3.1–§3.4), at one version of its table."""

    name: str
    title: Name
    version: int  # changing anything below adds a version: stored hands name the one they used
    source: str
    curve: Curve
    fan_offset: int  # fan curve: value = 2 ** (fan - offset)
    table: tuple[PatternEntry, ...]
    extras: tuple[tuple[str, int], ...]  # extra code -> steps of the curve (+1 fan, x2, +1 point)
    next_dealer: str
    defaults: Options
    #: 抢杠胡 杠钱归胡家: the robbed player also pays what his added kong would have collected
    robbing_pays_kong: bool = False
    #: 黄庄加倍 / 连庄: the record's ``session`` doubles every amount (RULES §3.4)
    session_doubling: bool = False

    @cached_property
    def named_table(self) -> tuple[PatternEntry, ...]:
        """The table with every row's name filled in (shared by its rulesets)."""
        return tuple(
            replace(e, zh=e.zh or PATTERN_NAMES[e.code].zh, en=e.en or PATTERN_NAMES[e.code].en)
            for e in self.table
        )


P = PatternEntry

PRESETS: dict[str, Preset] = {
    "qq": Preset(
        name="qq",
        title=Name("QQ游戏 四川麻将 / 血战场", "QQ Game Sichuan mahjong (blood battle)"),
        version=1,
        source="seeds 000 §二–§五, 001",
        curve="fan",
        fan_offset=1,
        table=(
            P("pinghu", 1),
            P("duiduihu", 2),
            P("qingyise", 3),
            P("daiyaojiu", 3, option="daiyaojiu"),
            P("qidui", 3),
            P("qingdui", 4),
            P("jiangdui", 4, option="jiangdui"),
            P("longqidui", 5, roots_included=1),
            P("qingqidui", 5),
            P("qingyaojiu", 5, option="daiyaojiu"),
            P("tianhu", 6),
            P("dihu", 6),
            P("qinglongqidui", 6, roots_included=1),
        ),
        extras=(("gen", 1), ("gangshanghua", 1), ("gangshangpao", 1)),
        next_dealer="discarder_or_dice",
        defaults=Options(),
    ),
    "chengdu": Preset(
        name="chengdu",
        title=Name("成都麻将 格/倍", "Chengdu multiples (ge/bei)"),
        version=1,
        source="seeds 002, 003, 000 牌型术语",
        curve="multiple",
        fan_offset=0,
        table=(
            P("pinghu", 1),
            P("duiduihu", 2, zh="大对子"),
            P("qingyise", 4),
            P("qidui", 4, zh="暗七对"),
            P("qingdui", 8, zh="清大对"),
            P("longqidui", 8, roots_included=1),
            P("qingqidui", 16),
            P("qinglongqidui", 32, roots_included=1),
            P("tianhu", CAP),
            P("dihu", CAP),
            P("jingoudiao", 4, option="jingoudiao"),
            P("daiyaojiu", 4, option="daiyaojiu", zh="带幺"),
            P("qingyaojiu", 16, option="daiyaojiu", zh="清带幺"),
            P("jiangdui", 16, option="jiangdui"),
        ),
        extras=(("gen", 1), ("gangshanghua", 1), ("gangshangpao", 1), ("qiangganghu", 1)),
        next_dealer="first_winner",
        defaults=Options(
            cap=8,
            self_draw_bonus="add_one",
            kong_direct=2,
            huazhu="cap",
            daiyaojiu=False,
            jiangdui=False,
        ),
    ),
    "additive": Preset(
        name="additive",
        title=Name("加分制 (分)", "Additive points"),
        version=1,
        source="seed 004",
        curve="points",
        fan_offset=0,
        table=(
            P("pinghu", 1),
            P("duiduihu", 2),
            P("qingyise", 3),
            P("daiyaojiu", 3, option="daiyaojiu", zh="幺九"),
            P("qidui", 3),
            # 龙七对 is 七对 plus its roots, each counted as 根 (seed 004: 双龙七对 = 3 + 2)
            P("longqidui", 3),
            # hands that are two listed patterns at once take the highest listed one (3)
            P("qingqidui", 3),
            P("qingyaojiu", 3, option="daiyaojiu"),
            P("qinglongqidui", 3),
            P("qingdui", 4),
            P("jiangdui", 4, option="jiangdui"),
            P("tianhu", 8),
            P("dihu", 8),
        ),
        extras=(("gen", 1), ("gangshanghua", 2), ("qiangganghu", 1)),
        next_dealer="first_winner",
        defaults=Options(chajiao="min", kong_flower_after_direct="discard"),
    ),
    "xuezhan9": Preset(
        name="xuezhan9",
        title=Name("血战到底 9番封顶", "Blood battle, capped at 9 fan"),
        version=1,
        source="seed 000 篇四",
        curve="fan",
        fan_offset=0,
        # fan add up (对 2, 清 3, 七对 4); the table lists the sums so one row counts
        table=(
            P("pinghu", 0),
            P("duiduihu", 2, zh="大对子"),
            P("qingyise", 3),
            P("qidui", 4),
            P("qingdui", 5, zh="清大对"),
            P("longqidui", 4),
            P("qingqidui", 7),
            P("qinglongqidui", 7),
            P("tianhu", 9),
            P("dihu", 9),
        ),
        extras=(
            ("gen", 1),
            ("gangshanghua", 1),
            ("gangshangpao", 1),
            ("qiangganghu", 1),
            ("haidi", 1),
        ),
        next_dealer="first_winner",
        defaults=Options(
            cap=9,
            self_draw_bonus="add_fan",
            kong_direct=2,
            huazhu="chajiao_plus_fan",
            daiyaojiu=False,
            jiangdui=False,
            jingoudiao=True,
            haidi=True,
            false_win="cap",
        ),
        robbing_pays_kong=True,
        session_doubling=True,
    ),
    "tfmj2024": Preset(
        name="tfmj2024",
        title=Name(
            "四川麻将竞赛规则 T/TFMJ 01—2024", "Sichuan mahjong competition rules T/TFMJ 01—2024"
        ),
        version=1,
        source=(
            "T/TFMJ 01—2024 Table 1, §10.1–10.2, as the open-source EllanServer/MahjongEngine "
            "implements it (the standard's own text was not available)"
        ),
        curve="fan",
        fan_offset=0,
        # fans do not multiply: 清一色 raises the base to 2 (清对 = 清七对 = 2), and one row
        # counts; a one-suit seven pairs reports 七对, listed after 清一色
        table=(
            P("pinghu", 0),
            P("duiduihu", 1),
            P("qingyise", 2),
            P("qidui", 2),
            # not in the standard (``tianhu_dihu`` off); a club that turns them on gets the cap
            P("tianhu", CAP, option="tianhu_dihu"),
            P("dihu", CAP, option="tianhu_dihu"),
        ),
        extras=(
            ("gen", 1),
            ("gangshanghua", 1),
            ("gangshangpao", 1),
            ("qiangganghu", 1),
            ("haidi", 1),
        ),
        next_dealer="first_winner",
        defaults=Options(
            cap=3,
            self_draw_bonus="add_one",
            kong_direct=2,
            added_kong_same_turn=True,
            huazhu="not_ready",
            daiyaojiu=False,
            jiangdui=False,
            jingoudiao=True,
            haidi=True,
            kong_transfer="chain_split",
            tianhu_dihu=False,
            false_win="cap",
        ),
    ),
    "sbr": Preset(
        name="sbr",
        title=Name("血战到底 国际规则 (SBR)", "Sichuan Bloody Rules (SBR)"),
        version=1,
        source="Sichuan Bloody Rules, Novikov's published English rulebook (MIL and online play)",
        curve="fan",
        fan_offset=0,
        # fans add: 清 2 + 对 1 = 清对 3, 清 2 + 七对 2 = 清七对 4
        table=(
            P("pinghu", 0),
            P("duiduihu", 1),
            P("qingyise", 2),
            P("qidui", 2),
            P("qingdui", 3),
            P("qingqidui", 4),
            P("tianhu", CAP, option="tianhu_dihu"),
            P("dihu", CAP, option="tianhu_dihu"),
        ),
        extras=(
            ("gen", 1),
            ("gangshanghua", 1),
            ("gangshangpao", 1),
            ("qiangganghu", 1),
            ("haidi", 1),
        ),
        next_dealer="first_winner",
        defaults=Options(
            cap=3,
            self_draw_bonus="add_one",
            kong_direct=2,
            added_kong_same_turn=True,
            huazhu="not_ready",
            daiyaojiu=False,
            jiangdui=False,
            haidi=True,
            kong_transfer="refund",
            chajiao_kongs=False,
            golden_wait=True,
            haidi_over_kong_discard=True,
            false_win=8,
        ),
    ),
}
DEFAULT_PRESET = "qq"

#: optional elements and the toggle that switches each on
OPTIONAL_EXTRAS = {"haidi": "haidi", "juezhang": "juezhang"}
#: optional patterns that become a one-step extra where a preset's table has no row for them
OPTIONAL_PATTERNS = {
    "daiyaojiu": "daiyaojiu",
    "jiangdui": "jiangdui",
    "jingoudiao": "jingoudiao",
    "golden_wait": "golden_wait",
}
#: rows that need an option whatever the preset's table says (天胡/地胡, RULES §3.8)
PATTERN_OPTIONS = {"tianhu": "tianhu_dihu", "dihu": "tianhu_dihu"}


@dataclass(frozen=True)
class Ruleset:
    """A preset at one version with its options resolved: everything needed to value and
    settle a hand, and nothing read from elsewhere (see :func:`ruleset_from_description`)."""

    preset: str
    version: int
    title: Name
    source: str
    options: Options
    #: the preset's own option values at this version (what ``to_spec`` leaves out)
    defaults: Options
    curve: Curve
    fan_offset: int
    #: enabled base patterns, in table order (later = rarer); values resolved (no "cap")
    table: tuple[PatternEntry, ...]
    #: enabled extras with their steps of the curve
    extras: tuple[Extra, ...]
    #: optional patterns the table has no row for, scored as one extra step when they apply
    pattern_extras: tuple[str, ...]
    next_dealer: str
    robbing_pays_kong: bool
    session_doubling: bool
    # memos of valuations, filled as hands are seen (see evaluate.py): by hand signature, and
    # for hands without melds by their three suit infos and flags
    memo: dict = field(default_factory=dict, compare=False, repr=False, hash=False)
    hands: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 of the canonical JSON of the complete description (as :func:`_hashed`
        writes it): what a stored hand keeps to prove which rules settled it."""
        return hashlib.sha256(_canonical(_hashed(self.as_dict())).encode()).hexdigest()

    @cached_property
    def extra_steps(self) -> dict[str, int]:
        """Extra code -> steps of the curve, for the evaluator."""
        return {e.code: e.steps for e in self.extras}

    @property
    def cap(self) -> int | None:
        return self.options.cap

    @property
    def unit(self) -> str:
        return UNIT[self.curve]

    @property
    def mode(self) -> str:
        return self.options.mode

    def step(self, total: int, steps: int) -> int:
        """``total`` moved ``steps`` steps up the curve: +1 fan, ×2 or +1 point each."""
        return total * (1 << steps) if self.curve == "multiple" else total + steps

    def value_of(self, total: int) -> int:
        """Payment per payer at base 1 for a total in the curve's unit (no cap, no bonus)."""
        if self.curve == "fan":
            return 1 << max(total - self.fan_offset, 0)
        return total

    def capped_value(self, total: int) -> tuple[int, bool]:
        cap = self.options.cap
        if cap is not None and total > cap:
            return self.value_of(cap), True
        return self.value_of(total), False

    def cap_value(self) -> int:
        """满格: the value of the cap; 32 when there is none (RULES §3.5 ``huazhu``)."""
        return self.value_of(self.options.cap) if self.options.cap is not None else 32

    def false_win_value(self) -> int:
        """What a 诈胡 costs the offender, to each other player still in, at base 1 (RULES §4.9,
        §3.8 ``false_win``): a number, what a 花猪 pays (a number or 满格), or a win at the cap."""
        rule = self.options.false_win
        if is_int(rule):
            return rule
        if rule == "huazhu" and is_int(self.options.huazhu):
            return self.options.huazhu
        return self.cap_value()

    def as_dict(self) -> dict[str, Any]:
        """The complete description (what the fingerprint hashes, and what
        :func:`ruleset_from_description` rebuilds the ruleset from)."""
        return {
            "preset": self.preset,
            "version": self.version,
            "title": self.title.as_dict(),
            "source": self.source,
            "curve": self.curve,
            "unit": self.unit,
            "fan_offset": self.fan_offset,
            "patterns": [
                {
                    "code": e.code,
                    "zh": e.zh,
                    "en": e.en,
                    "value": e.value,
                    "roots_included": e.roots_included,
                    "option": e.option,
                }
                for e in self.table
            ],
            "extras": [
                {"code": e.code, "zh": e.name.zh, "en": e.name.en, "steps": e.steps}
                for e in self.extras
            ],
            "pattern_extras": list(self.pattern_extras),
            "next_dealer": self.next_dealer,
            "robbing_pays_kong": self.robbing_pays_kong,
            # (the API's name for it since the first rulesets endpoint)
            "session_multipliers": self.session_doubling,
            "options": _options_dict(self.options),
            "defaults": _options_dict(self.defaults),
        }

    def to_spec(self) -> dict[str, Any]:
        """The smallest spec naming these options (against this ruleset's preset version)."""
        changed = {
            f.name: getattr(self.options, f.name)
            for f in fields(Options)
            if getattr(self.options, f.name) != getattr(self.defaults, f.name)
        }
        # where the preset's 诈胡 follows its 花猪, a spec without false_win resolves to the
        # one its huazhu implies (resolve_ruleset): named whenever that is not this one
        if (
            "false_win" not in changed
            and self.defaults.false_win == implied_false_win(self.defaults)
            and self.options.false_win != implied_false_win(self.options)
        ):
            changed["false_win"] = self.options.false_win
        return {"preset": self.preset, "options": changed}


def _options_dict(options: Options) -> dict[str, Any]:
    return {key: getattr(options, key) for key in _OPTION_ORDER}


def _hashed(description: dict[str, Any]) -> dict[str, Any]:
    """The description as its fingerprint hashes it: without each later option (see
    :data:`LATER_OPTIONS`) that has the value it had before it existed, so a description
    stored before it existed and the same rules described today hash alike."""
    out = dict(description)
    for key in ("options", "defaults"):
        given = description.get(key)
        if isinstance(given, dict):
            out[key] = {
                k: v
                for k, v in given.items()
                if not (k in LATER_OPTIONS and _same(v, _earlier_value(k, given)))
            }
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b  # (True is not the option value 1)


def _read_options(given: dict[str, Any]) -> Options:
    """The options of a checked description; a later option left out has its earlier value."""
    later = {k: _earlier_value(k, given) for k in LATER_OPTIONS if k not in given}
    return Options(**given, **later)


def _cap_total(curve: str, fan_offset: int, cap: int | None) -> int:
    """The total of a 满格 row (``CAP``): the cap, or where there is none the total worth 32
    (32 multiples or points; on a fan curve 5 fan, 2^5 = 32, past its offset)."""
    if cap is not None:
        return cap
    return 5 + fan_offset if curve == "fan" else 32


def _canonical(description: dict[str, Any]) -> str:
    return json.dumps(
        description, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )


def _build(preset: Preset, options: Options) -> Ruleset:
    def enabled(option: str | None) -> bool:
        return option is None or getattr(options, option)

    cap_total = _cap_total(preset.curve, preset.fan_offset, options.cap)
    table = tuple(
        replace(e, value=cap_total) if e.value == CAP else e
        for e in preset.named_table
        if enabled(e.option) and enabled(PATTERN_OPTIONS.get(e.code))
    )
    listed = {e.code for e in preset.table}
    extras = [(c, s) for c, s in preset.extras if s and enabled(OPTIONAL_EXTRAS.get(c))]
    for code, option in OPTIONAL_EXTRAS.items():
        if getattr(options, option) and code not in dict(preset.extras):
            extras.append((code, 1))
    pattern_extras = tuple(
        code
        for code, option in OPTIONAL_PATTERNS.items()
        if getattr(options, option) and code not in listed
    )
    return Ruleset(
        preset=preset.name,
        version=preset.version,
        title=preset.title,
        source=preset.source,
        options=options,
        defaults=preset.defaults,
        curve=preset.curve,
        fan_offset=preset.fan_offset,
        table=table,
        extras=tuple(Extra(c, s, EXTRA_NAMES[c]) for c, s in extras),
        pattern_extras=pattern_extras,
        next_dealer=preset.next_dealer,
        robbing_pays_kong=preset.robbing_pays_kong,
        session_doubling=preset.session_doubling,
    )


K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A bounded, thread-safe map that forgets the entry used longest ago: what a stranger
    sends (20,000 distinct ``cap`` values) cannot grow memory without bound."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CACHE_SIZE = 256
#: rulesets by (preset, options); each keeps its valuation memos while it is in here
_RESOLVED: LRU[tuple[Preset, Options], Ruleset] = LRU(CACHE_SIZE)
#: rulesets rebuilt from stored descriptions, by fingerprint
_DESCRIBED: LRU[str, Ruleset] = LRU(CACHE_SIZE)


def get_ruleset(preset: str = DEFAULT_PRESET, **options: Any) -> Ruleset:
    """Resolve a preset with option overrides (validated)."""
    return resolve_ruleset({"preset": preset, "options": options})


_SPEC_FIELDS = frozenset(("preset", "options"))


def resolve_ruleset(spec: Any = None, path: str = "ruleset") -> Ruleset:
    """A ruleset from its spec: None (the default preset), a preset name, a dict, or a
    :class:`Ruleset` (a pinned one, e.g. from :func:`ruleset_from_description`), as is."""
    if isinstance(spec, Ruleset):
        return spec
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str):
        named = _BY_NAME.get(spec)
        if named is not None and PRESETS.get(spec) is named[0]:
            return named[1]
        name, given = spec, {}
        name_path = path
    elif isinstance(spec, dict):
        c = Collector()
        c.unknown_fields(spec, _SPEC_FIELDS, path)
        c.raise_if_any()
        name = spec.get("preset", DEFAULT_PRESET)
        given = spec.get("options", {})
        if given is None:
            given = {}
        name_path = f"{path}.preset"
        if not isinstance(given, dict):
            raise EngineError("invalid_options", "options must be an object", f"{path}.options")
    else:
        raise EngineError(
            "invalid_ruleset", "a ruleset is a preset name or {preset, options}", path
        )
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise EngineError(
            "unknown_preset",
            f"unknown preset {shown(name)}; presets are {', '.join(PRESETS)}",
            name_path,
        )
    c = Collector()
    _check_options(c, given, f"{path}.options", preset.curve)
    c.raise_if_any()
    options = replace(preset.defaults, **given)
    if "false_win" not in given and preset.defaults.false_win == implied_false_win(preset.defaults):
        # a preset whose 诈胡 follows its 花猪 keeps following it when the 花猪 is changed
        options = replace(options, false_win=implied_false_win(options))
    _check_combination(c, options, f"{path}.options")
    c.raise_if_any()
    key = (preset, options)
    ruleset = _RESOLVED.get(key)
    if ruleset is None:
        ruleset = _build(preset, options)
        _RESOLVED.put(key, ruleset)
    return ruleset


#: each preset with its defaults, resolved once: a name is the common spec
_BY_NAME: dict[str, tuple[Preset, Ruleset]] = {
    name: (preset, _build(preset, preset.defaults)) for name, preset in PRESETS.items()
}


# --- pinned rules: a ruleset from its stored description ---------------------------------

_DESCRIPTION_KEYS = (
    "preset", "version", "title", "source", "curve", "unit", "fan_offset", "patterns", "extras",
    "pattern_extras", "next_dealer", "robbing_pays_kong", "session_multipliers", "options",
    "defaults",
)  # fmt: skip
_PATTERN_KEYS = ("code", "zh", "en", "value", "roots_included", "option")
_EXTRA_KEYS = ("code", "zh", "en", "steps")


def ruleset_from_description(description: Any, path: str = "") -> Ruleset:
    """The exact ruleset a stored description (:meth:`Ruleset.as_dict`) describes.

    It is rebuilt from the description alone, never from today's :data:`PRESETS`: a hand is
    re-settled under the rules it was recorded with, whatever the preset tables say now. The
    description is checked (an ``EngineError`` with a path and a code for each problem), must
    describe itself exactly (its derived parts such as ``unit`` agree), and its fingerprint is
    recomputed: ``ruleset_from_description(r.as_dict())`` has ``r``'s fingerprint, description
    and valuations. Rebuilt rulesets are kept by fingerprint in a bounded cache.
    """
    if not isinstance(description, dict):
        raise EngineError("invalid_description", "a ruleset description is an object", path)
    try:
        # (UTF-8 refuses a lone surrogate: a UnicodeEncodeError, which is a ValueError)
        _canonical(description).encode()
    except (TypeError, ValueError, RecursionError) as e:
        raise EngineError(
            "invalid_description", f"a ruleset description is plain JSON: {e}", path
        ) from e
    hashed = _hashed(description)
    fingerprint = hashlib.sha256(_canonical(hashed).encode()).hexdigest()
    ruleset = _DESCRIBED.get(fingerprint)
    if ruleset is None:
        ruleset = _rebuild(description, path)
        rebuilt = _hashed(ruleset.as_dict())
        for key in _DESCRIPTION_KEYS:
            if _canonical(rebuilt[key]) != _canonical(hashed[key]):
                raise EngineError(
                    "inconsistent_description",
                    f"{key} does not agree with the rest of the description",
                    join_path(path, key),
                )
        _DESCRIBED.put(fingerprint, ruleset)
    return ruleset


def _rebuild(d: dict[str, Any], path: str) -> Ruleset:
    """A ruleset from a description's fields, every problem collected."""
    c = Collector()
    _check_keys(c, d, _DESCRIPTION_KEYS, path)
    c.raise_if_any()

    def at(key: str) -> str:
        return join_path(path, key)

    def text(value: Any, where: str) -> str:
        if not isinstance(value, str) or not value:
            c.add("invalid_description", "must be a non-empty string", where)
        return value

    def whole(value: Any, where: str, least: int = 0, most: int | None = None) -> int:
        if not is_int(value) or value < least:
            c.add("invalid_description", f"must be a whole number ≥ {least}", where)
        elif most is not None and value > most:
            c.add("invalid_description", f"must be a whole number from {least} to {most}", where)
        return value

    def flag(value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            c.add("invalid_description", "must be true or false", where)
        return value

    def one_of(value: Any, allowed: tuple[str, ...], where: str) -> str:
        if value not in allowed:
            c.add("invalid_description", f"must be one of {', '.join(allowed)}", where)
        return value

    def rows(value: Any, keys: tuple[str, ...], where: str) -> list[tuple[str, dict]]:
        if not isinstance(value, list):
            c.add("invalid_description", "must be a list", where)
            return []
        out = []
        for i, row in enumerate(value):
            if _check_keys(c, row, keys, f"{where}[{i}]"):
                out.append((f"{where}[{i}]", row))
        return out

    curve = d["curve"] if d["curve"] in CURVES else None  # (a wrong one is refused below)
    # a table value is in the curve's unit, bounded as a cap is (RULES §5)
    most_value = MAX_CAP.get(curve) if curve else None
    title = d["title"]
    if _check_keys(c, title, ("zh", "en"), at("title")):
        title = Name(text(title["zh"], at("title.zh")), text(title["en"], at("title.en")))
    table = []
    for where, row in rows(d["patterns"], _PATTERN_KEYS, at("patterns")):
        one_of(row["code"], tuple(PATTERNS), f"{where}.code")
        if row["option"] is not None:
            one_of(row["option"], _BOOLS, f"{where}.option")
        table.append(
            PatternEntry(
                code=row["code"],
                value=whole(row["value"], f"{where}.value", most=most_value),
                roots_included=whole(
                    row["roots_included"], f"{where}.roots_included", most=MAX_ROOTS
                ),
                option=row["option"],
                zh=text(row["zh"], f"{where}.zh"),
                en=text(row["en"], f"{where}.en"),
            )
        )
    if isinstance(d["patterns"], list):
        # every winning shape needs a row to be valued by (a row refused above counts as given)
        codes = {row.get("code") for row in d["patterns"] if _has_text(row, "code")}
        for needed in ("pinghu", "qidui"):
            if needed not in codes:
                c.add("incomplete_table", f"the table has no row for {needed}", at("patterns"))
    extras = []
    for where, row in rows(d["extras"], _EXTRA_KEYS, at("extras")):
        one_of(row["code"], tuple(EXTRA_NAMES), f"{where}.code")
        name = Name(text(row["zh"], f"{where}.zh"), text(row["en"], f"{where}.en"))
        steps = whole(row["steps"], f"{where}.steps", most=MAX_STEPS)
        extras.append(Extra(row["code"], steps, name))
    pattern_extras = d["pattern_extras"]
    if not isinstance(pattern_extras, list):
        c.add("invalid_description", "must be a list", at("pattern_extras"))
        pattern_extras = []
    for i, code in enumerate(pattern_extras):
        one_of(code, tuple(OPTIONAL_PATTERNS), at(f"pattern_extras[{i}]"))
    options = {}
    for key in ("options", "defaults"):
        if isinstance(d[key], dict):
            _check_options(c, d[key], at(key), curve, complete=True)
            options[key] = d[key]
        else:
            c.add("invalid_description", "must be an object", at(key))
    scalars = {
        "preset": text(d["preset"], at("preset")),
        "version": whole(d["version"], at("version"), least=1),
        "source": text(d["source"], at("source")),
        "curve": one_of(d["curve"], CURVES, at("curve")),
        "fan_offset": whole(d["fan_offset"], at("fan_offset"), most=MAX_CAP["fan"]),
        "next_dealer": one_of(d["next_dealer"], NEXT_DEALERS, at("next_dealer")),
        "robbing_pays_kong": flag(d["robbing_pays_kong"], at("robbing_pays_kong")),
        "session_doubling": flag(d["session_multipliers"], at("session_multipliers")),
    }
    c.raise_if_any()
    ruleset = Ruleset(
        **scalars,
        title=title,
        options=_read_options(options["options"]),
        defaults=_read_options(options["defaults"]),
        table=tuple(table),
        extras=tuple(extras),
        pattern_extras=tuple(pattern_extras),
    )
    most = largest_value(ruleset)
    if most > MAX_AMOUNT:
        raise EngineError(
            "value_out_of_range",
            f"under these rules a win may be worth up to {shown(most)} base units, more than "
            f"{MAX_AMOUNT:,} (2^53 − 1, the most a JSON number holds exactly)",
            path,
        )
    return ruleset


def largest_value(r: Ruleset) -> int:
    """An upper bound of every value ``r`` gives at base 1 (a win, 查叫, a 花猪 penalty): its
    highest table value moved up every step at once — four roots, every extra, every optional
    pattern, the self-draw step and the 花猪's one step more — capped, with the after-cap
    bonus; or a fixed 花猪 penalty, if that is more."""
    roots = MAX_ROOTS * r.extra_steps.get("gen", 0)
    steps = roots + sum(e.steps for e in r.extras if e.code != "gen") + len(r.pattern_extras) + 2
    top = max((e.value for e in r.table), default=0)
    huazhu = r.options.huazhu if is_int(r.options.huazhu) else 0
    return max(r.capped_value(r.step(top, steps))[0] + 1, r.cap_value(), huazhu)


def _has_text(row: Any, key: str) -> bool:
    """Whether ``row`` is an object whose ``key`` is a string (a code, not a list)."""
    return isinstance(row, dict) and isinstance(row.get(key), str)


def _check_keys(c: Collector, data: Any, keys: tuple[str, ...], path: str) -> bool:
    """Whether ``data`` is an object with exactly these keys (problems collected)."""
    if not isinstance(data, dict):
        c.add("invalid_description", "must be an object", path)
        return False
    c.unknown_fields(data, keys, path)
    for key in keys:
        if key not in data:
            c.add("missing_field", f"field {key!r} is missing", join_path(path, key))
    return data.keys() == set(keys)


def option_schema() -> list[dict[str, Any]]:
    """Every toggle with its allowed values, its bounds and its per-preset defaults, for
    clients to show. A number's ``minimum`` is one for all presets, its ``maximum`` is per
    preset (the cap's depends on the preset's curve, RULES §5); both are null for an option
    that is not a number."""
    out = []
    for f in fields(Options):
        minimum: int | None = None
        maximum: dict[str, int] | None = None
        if f.name in _CHOICES:
            allowed: Any = list(_CHOICES[f.name])
        elif f.name in _BOOLS:
            allowed = "boolean"
        elif f.name in _COUNTS:
            allowed = "integer >= 0"
            minimum, maximum = 0, dict.fromkeys(PRESETS, MAX_OPTION_AMOUNT)
        elif f.name == "cap":
            allowed = "integer >= 1 or null"
            minimum, maximum = 1, {n: MAX_CAP[p.curve] for n, p in PRESETS.items()}
        elif f.name == "huazhu":
            allowed = 'integer >= 0, "cap", "chajiao_plus_fan" or "not_ready"'
            minimum, maximum = 0, dict.fromkeys(PRESETS, MAX_OPTION_AMOUNT)
        else:  # false_win
            allowed = 'integer >= 1, "huazhu" or "cap"'
            minimum, maximum = 1, dict.fromkeys(PRESETS, MAX_OPTION_AMOUNT)
        out.append(
            {
                "key": f.name,
                "allowed": allowed,
                "minimum": minimum,
                "maximum": maximum,
                "defaults": {n: getattr(p.defaults, f.name) for n, p in PRESETS.items()},
            }
        )
    return out
