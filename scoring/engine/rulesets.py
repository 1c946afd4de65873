"""Rule systems as data (RULES §3): four presets and their negotiable options.

A ruleset is addressed as a preset name or ``{"preset": NAME, "options": {KEY: VALUE}}``.
Resolving one gives an immutable :class:`Ruleset` whose :meth:`Ruleset.as_dict` is a complete,
JSON-serialisable description and whose :attr:`Ruleset.fingerprint` (SHA-256 of the canonical
JSON) lets a stored hand prove which rules settled it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from .errors import Collector, EngineError, Problem
from .patterns import EXTRA_NAMES, PATTERN_NAMES

Curve = Literal["fan", "multiple", "points"]
CAP = "cap"  # a pattern worth the cap itself (满格): 天胡/地胡 in chengdu

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


_CHOICES: dict[str, tuple[str, ...]] = {
    "mode": ("xuezhan", "single"),
    "self_draw_bonus": ("none", "add_one", "add_fan"),
    "chajiao": ("max", "min", "off"),
    "kong_flower_after_direct": ("self_draw", "discard"),
}
_COUNTS = ("kong_concealed", "kong_added", "kong_direct")
_BOOLS = tuple(f.name for f in fields(Options) if f.type == "bool")


def _check_option(key: str, value: Any, path: str) -> Problem | None:
    def bad(expect: str) -> Problem:
        return Problem("invalid_option", f"option {key!r} must be {expect}, got {value!r}", path)

    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if key in _CHOICES:
        if value not in _CHOICES[key]:
            return bad("one of " + ", ".join(_CHOICES[key]))
    elif key in _BOOLS:
        if not isinstance(value, bool):
            return bad("true or false")
    elif key in _COUNTS:
        if not is_int(value) or value < 0:
            return bad("a whole number ≥ 0")
    elif key == "cap":
        if value is not None and (not is_int(value) or value < 1):
            return bad("a whole number ≥ 1 or null")
    elif key == "huazhu" and not (
        (is_int(value) and value >= 0) or value in ("cap", "chajiao_plus_fan")
    ):
        return bad('a whole number ≥ 0, "cap" or "chajiao_plus_fan"')
    return None


@dataclass(frozen=True)
class PatternEntry:
    """One row of a preset's base-pattern table.

    ``value`` is in the curve's unit (fan, multiple or points), or ``"cap"``;
    ``roots_included`` is how many 根 the pattern already counts (龙七对 in qq and chengdu).
    ``option`` names the toggle that switches the pattern on, if it is optional.
    """

    code: str
    value: int | str
    roots_included: int = 0
    option: str | None = None
    zh: str | None = None


@dataclass(frozen=True)
class Preset:
    name: str
    title_zh: str
    title_en: str
    source: str
    curve: Curve
    fan_offset: int  # fan curve: value = 2 ** (fan - offset)
    table: tuple[PatternEntry, ...]
    extras: tuple[tuple[str, int], ...]  # extra code -> steps of the curve (+1 fan, x2, +1 point)
    next_dealer: str
    defaults: Options
    #: 抢杠胡 杠钱归胡家: the robbed player also pays what his added kong would have collected
    robbing_pays_kong: bool = False


P = PatternEntry

PRESETS: dict[str, Preset] = {
    "qq": Preset(
        name="qq",
        title_zh="QQ游戏 四川麻将 / 血战场",
        title_en="QQ Game Sichuan mahjong (blood battle)",
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
        title_zh="成都麻将 格/倍",
        title_en="Chengdu multiples (ge/bei)",
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
        title_zh="加分制 (分)",
        title_en="Additive points",
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
        title_zh="血战到底 9番封顶",
        title_en="Blood battle, capped at 9 fan",
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
        ),
        robbing_pays_kong=True,
    ),
}
DEFAULT_PRESET = "qq"

#: optional elements and the toggle that switches each on
OPTIONAL_EXTRAS = {"haidi": "haidi", "juezhang": "juezhang"}
#: optional patterns that become a one-step extra where a preset's table has no row for them
OPTIONAL_PATTERNS = {"daiyaojiu": "daiyaojiu", "jiangdui": "jiangdui", "jingoudiao": "jingoudiao"}


@dataclass(frozen=True)
class Ruleset:
    """A preset with its options resolved: everything needed to value and settle a hand."""

    preset: str
    options: Options
    curve: Curve
    fan_offset: int
    #: enabled base patterns, in table order (later = rarer); values resolved (no "cap")
    table: tuple[PatternEntry, ...]
    #: enabled extras: code -> steps of the curve
    extras: tuple[tuple[str, int], ...]
    #: optional patterns the table has no row for, scored as one extra step when they apply
    pattern_extras: tuple[str, ...]
    next_dealer: str
    robbing_pays_kong: bool
    fingerprint: str = field(compare=False)
    # memos of valuations, filled as hands are seen (see evaluate.py): by hand signature, and
    # for hands without melds by their three suit infos and flags
    memo: dict = field(default_factory=dict, compare=False, repr=False, hash=False)
    hands: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

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

    def as_dict(self) -> dict[str, Any]:
        """The complete description (what the fingerprint hashes)."""
        return _describe(self)

    def to_spec(self) -> dict[str, Any]:
        """The smallest spec that resolves to this ruleset again."""
        defaults = PRESETS[self.preset].defaults
        changed = {
            f.name: getattr(self.options, f.name)
            for f in fields(Options)
            if getattr(self.options, f.name) != getattr(defaults, f.name)
        }
        return {"preset": self.preset, "options": changed}


def _describe(r: Ruleset) -> dict[str, Any]:
    preset = PRESETS[r.preset]
    return {
        "preset": r.preset,
        "title": {"zh": preset.title_zh, "en": preset.title_en},
        "source": preset.source,
        "curve": r.curve,
        "unit": r.unit,
        "fan_offset": r.fan_offset,
        "patterns": [
            {
                "code": e.code,
                "zh": e.zh or PATTERN_NAMES[e.code].zh,
                "en": PATTERN_NAMES[e.code].en,
                "value": e.value,
                "roots_included": e.roots_included,
                "option": e.option,
            }
            for e in r.table
        ],
        "extras": [
            {"code": c, "zh": EXTRA_NAMES[c].zh, "en": EXTRA_NAMES[c].en, "steps": s}
            for c, s in r.extras
        ],
        "pattern_extras": list(r.pattern_extras),
        "next_dealer": r.next_dealer,
        "robbing_pays_kong": r.robbing_pays_kong,
        "session_multipliers": r.preset == "xuezhan9",
        "options": asdict(r.options),
    }


def _build(preset: Preset, options: Options) -> Ruleset:
    def enabled(option: str | None) -> bool:
        return option is None or getattr(options, option)

    cap_value = options.cap if options.cap is not None else 32
    table = tuple(
        replace(e, value=cap_value if e.value == CAP else e.value)
        for e in preset.table
        if enabled(e.option)
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
    r = Ruleset(
        preset=preset.name,
        options=options,
        curve=preset.curve,
        fan_offset=preset.fan_offset,
        table=table,
        extras=tuple(extras),
        pattern_extras=pattern_extras,
        next_dealer=preset.next_dealer,
        robbing_pays_kong=preset.robbing_pays_kong,
        fingerprint="",
    )
    canonical = json.dumps(_describe(r), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    object.__setattr__(r, "fingerprint", hashlib.sha256(canonical.encode()).hexdigest())
    return r


_CACHE: dict[tuple[str, Options], Ruleset] = {}


def get_ruleset(preset: str = DEFAULT_PRESET, **options: Any) -> Ruleset:
    """Resolve a preset with option overrides (validated)."""
    return resolve_ruleset({"preset": preset, "options": options})


def resolve_ruleset(spec: Any = None, path: str = "ruleset") -> Ruleset:
    """A ruleset from its spec: None (the default preset), a preset name, or a dict."""
    if isinstance(spec, Ruleset):
        return spec
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str) and spec in _BY_NAME:
        return _BY_NAME[spec]
    if isinstance(spec, str):
        name, given = spec, {}
        name_path = path
    elif isinstance(spec, dict):
        unknown = sorted(set(spec) - {"preset", "options"})
        if unknown:
            raise EngineError(
                "unknown_field", f"unknown ruleset field {unknown[0]!r}", f"{path}.{unknown[0]}"
            )
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
    if name not in PRESETS:
        raise EngineError(
            "unknown_preset",
            f"unknown preset {name!r}; presets are {', '.join(PRESETS)}",
            name_path,
        )
    known = {f.name for f in fields(Options)}
    c = Collector()
    for key in sorted(given):
        opt_path = f"{path}.options.{key}"
        if key not in known:
            c.add("unknown_option", f"unknown option {key!r}", opt_path)
        elif problem := _check_option(key, given[key], opt_path):
            c.extend([problem])
    c.raise_if_any()
    options = replace(PRESETS[name].defaults, **given)
    cache_key = (name, options)
    ruleset = _CACHE.get(cache_key)
    if ruleset is None:
        ruleset = _CACHE[cache_key] = _build(PRESETS[name], options)
    return ruleset


_BY_NAME: dict[str, Ruleset] = {name: resolve_ruleset({"preset": name}) for name in PRESETS}


def option_schema() -> list[dict[str, Any]]:
    """Every toggle with its allowed values and per-preset defaults, for clients to show."""
    out = []
    for f in fields(Options):
        if f.name in _CHOICES:
            allowed: Any = list(_CHOICES[f.name])
        elif f.name in _BOOLS:
            allowed = "boolean"
        elif f.name in _COUNTS:
            allowed = "integer >= 0"
        elif f.name == "cap":
            allowed = "integer >= 1 or null"
        else:
            allowed = 'integer >= 0, "cap" or "chajiao_plus_fan"'
        out.append(
            {
                "key": f.name,
                "allowed": allowed,
                "defaults": {n: getattr(p.defaults, f.name) for n, p in PRESETS.items()},
            }
        )
    return out
