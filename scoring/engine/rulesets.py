"""Rule systems as data (RULES §3): the presets and their negotiable options (each option
declared once in :mod:`.options`, with its default in each preset).

A ruleset is addressed as a preset name or ``{"preset": NAME, "options": {KEY: VALUE}}``.
Resolving one gives an immutable :class:`Ruleset` whose :meth:`Ruleset.as_dict` is its
complete, JSON-serialisable description and whose :attr:`Ruleset.fingerprint` (SHA-256 of the
canonical JSON) lets a stored hand prove which rules settled it.

Rules are pinned: a preset carries a ``version`` (changing a table adds one), and
:func:`.described.ruleset_from_description` rebuilds the exact ruleset from a stored
description without reading today's :data:`PRESETS`, so a hand is re-settled under the rules
it was recorded with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, make_dataclass, replace
from functools import cached_property
from typing import Any, Literal, NamedTuple

from core.names import Name

from .errors import Collector, EngineError, is_int, path_key, shown
from .lru import CACHE_SIZE, LRU
from .options import ALWAYS, OPTION_SPECS, OptionSpec, implied_false_win
from .patterns import EXTRA_NAMES, PATTERN_NAMES

Curve = Literal["fan", "multiple", "points"]
CURVES: tuple[str, ...] = ("fan", "multiple", "points")
CAP = "cap"  # a pattern worth the cap itself (满格): 天胡/地胡 in chengdu
#: who deals next (RULES §3.1–§3.4): 普通 the discarder / 血战 dice, or the first winner
NEXT_DEALERS = ("discarder_or_dice", "first_winner")

#: the unit of each curve, as named in API output
UNIT = {"fan": "fan", "multiple": "multiple", "points": "points"}


def _options_class() -> type:
    """The class of a ruleset's option values: a frozen dataclass with a field per declared
    option (:data:`~.options.OPTION_SPECS`), its default the option's own."""
    cls = make_dataclass(
        "Options",
        [(s.key, Any, field(default=s.default)) for s in OPTION_SPECS.values()],
        frozen=True,
    )
    cls.__module__ = __name__
    cls.__doc__ = "The toggles of RULES §3.5 and §3.8, one field per declared option."
    return cls


#: a ruleset's option values (one field per option of :data:`~.options.OPTION_SPECS`)
Options = _options_class()


def _flags() -> tuple[str, ...]:
    return tuple(key for key, spec in OPTION_SPECS.items() if spec.kind == "flag")


def fixed_huazhu(options: Options) -> bool:
    """Whether a 花猪 pays a price of its own (a number, or 满格): what ``false_win: "huazhu"``
    needs."""
    return is_int(options.huazhu) or options.huazhu == "cap"


#: options added after descriptions were first stored, with the value each one had before it
#: existed (the rule then built in; its ``earlier``). A fingerprint hashes the description
#: without such an option where it has that value, and a stored description without it reads
#: it so: every description stored before keeps its fingerprint (``scoring.services`` checks
#: it).
LATER_OPTIONS: dict[str, Any] = {}


def _later_options() -> None:
    LATER_OPTIONS.clear()
    LATER_OPTIONS.update(
        {key: spec.earlier for key, spec in OPTION_SPECS.items() if spec.earlier is not ALWAYS}
    )


_later_options()


def _earlier_value(key: str, options: dict[str, Any]) -> Any:
    value = LATER_OPTIONS[key]
    return value(options) if callable(value) else value


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
        spec = OPTION_SPECS.get(key)
        if spec is None:
            c.add("unknown_option", f"unknown option {shown(key)}", opt_path)
        elif problem := spec.check(given[key], opt_path, curve):
            c.extend([problem])
    if complete:
        for key in sorted(set(OPTION_SPECS) - set(given) - set(LATER_OPTIONS)):
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
    #: 抢杠胡 杠钱归胡家: the robbed player also pays what his added kong would have collected
    robbing_pays_kong: bool = False
    #: 黄庄加倍 / 连庄: the record's ``session`` doubles every amount (RULES §3.4)
    session_doubling: bool = False
    #: its options' values, each option's own for this preset unless given (RULES §3.5,
    #: §3.8: :data:`~.options.OPTION_SPECS`; a changed one there adds a version here too)
    defaults: Options = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.defaults is None:
            object.__setattr__(self, "defaults", preset_defaults(self.name))

    @cached_property
    def named_table(self) -> tuple[PatternEntry, ...]:
        """The table with every row's name filled in (shared by its rulesets)."""
        return tuple(
            replace(e, zh=e.zh or PATTERN_NAMES[e.code].zh, en=e.en or PATTERN_NAMES[e.code].en)
            for e in self.table
        )


def preset_defaults(preset: str) -> Options:
    """The options of a preset as the option specs say (each one's ``default_in``)."""
    return Options(**{key: spec.default_in(preset) for key, spec in OPTION_SPECS.items()})


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
            key: getattr(self.options, key)
            for key in self.options.__dataclass_fields__
            if getattr(self.options, key) != getattr(self.defaults, key)
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
    # (the options' own fields: a ruleset made before an option was declared describes itself)
    return {key: getattr(options, key) for key in options.__dataclass_fields__}


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
def _resolved_presets() -> dict[str, tuple[Preset, Ruleset]]:
    return {name: (preset, _build(preset, preset.defaults)) for name, preset in PRESETS.items()}


_BY_NAME: dict[str, tuple[Preset, Ruleset]] = _resolved_presets()


def option_schema() -> list[dict[str, Any]]:
    """Every option as its spec declares it (:meth:`~.options.OptionSpec.schema`: the values
    it takes, its bounds, names and RULES section) with its per-preset defaults, for clients
    to show. A number's ``minimum`` is one for all presets, its ``maximum`` is per preset (the
    cap's depends on the preset's curve, RULES §5); both are null for an option that is not a
    number."""
    curves = {name: p.curve for name, p in PRESETS.items()}
    return [
        {
            **spec.schema(curves),
            "defaults": {n: getattr(p.defaults, key) for n, p in PRESETS.items()},
        }
        for key, spec in OPTION_SPECS.items()
    ]


# --- an option declared later: a plug-in rule's, or a test's -------------------------------


def declare_option(spec: OptionSpec) -> None:
    """Add an option to every ruleset: its spec is all the rest reads (the engine's checks,
    :data:`Options`, each preset's defaults, :func:`option_schema`, the forms and the words).
    An option added after descriptions were stored needs its ``earlier`` value, so that they
    keep their fingerprints. Rulesets resolved before are forgotten (they lack the option)."""
    if spec.key in OPTION_SPECS:
        raise ValueError(f"option {spec.key!r} is declared already")
    OPTION_SPECS[spec.key] = spec
    _options_changed()


@contextmanager
def option_declared(spec: OptionSpec) -> Iterator[OptionSpec]:
    """An option declared for a while (a test's own): afterwards every object is the one it
    was before (:data:`Options`, each preset and its resolved ruleset), so what was kept
    meanwhile elsewhere still compares equal."""
    global Options
    saved = Options, dict(PRESETS), dict(_BY_NAME)
    declare_option(spec)
    try:
        yield spec
    finally:
        del OPTION_SPECS[spec.key]
        Options = saved[0]
        for table, before in zip((PRESETS, _BY_NAME), saved[1:], strict=True):
            table.clear()
            table.update(before)
        _later_options()
        _RESOLVED.clear()
        _DESCRIBED.clear()


def _options_changed() -> None:
    """Rebuild what is derived from the option specs: :data:`Options`, each preset's defaults
    (a preset keeps its own value of every option it had), the later options and the
    caches."""
    global Options
    Options = _options_class()
    for name, preset in list(PRESETS.items()):
        old = preset.defaults
        values = {
            key: getattr(old, key) if hasattr(old, key) else spec.default_in(name)
            for key, spec in OPTION_SPECS.items()
        }
        PRESETS[name] = replace(preset, defaults=Options(**values))
    _later_options()
    _RESOLVED.clear()
    _DESCRIBED.clear()
    _BY_NAME.clear()
    _BY_NAME.update(_resolved_presets())
