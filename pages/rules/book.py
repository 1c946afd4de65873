"""The rules pages' read models: every preset of the engine, described for a visitor.

Everything here is read from the engine's public descriptions: ``scoring.engine.PRESETS`` (which
presets there are), ``resolve_ruleset(name).as_dict()`` (a preset's title, source, version,
curve, table, extras and options) and ``option_schema()`` (every option with each preset's
default). No rule here names a preset (only :data:`PURPOSES`, a line of words for each): a
preset or an option the engine adds appears on these pages by itself. The numbers are the
engine's own (``Ruleset.value_of``, ``step``, ``cap_value``); this module only puts them into
words.

A preset's description lists only what its options switch on. The rows an option would add
(带幺九 where ``daiyaojiu`` is off) are found by asking the engine for the same preset with
that one yes/no option turned the other way (:func:`switches`), so the page can show which
option switches each row and the rows that are off in this preset.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import Invalid
from pages.clubs.rulesets import (
    OptionWords,
    option_label,
    option_value,
    option_words,
    ruleset_words,
)
from pages.words import chinese, unit_amount
from scoring.services import PATTERN_NAMES, PRESETS, option_schema
from scoring.services import ruleset_resolve as resolve_ruleset

#: what each preset is for, in one line (a preset without a line here is listed without it)
PURPOSES = {
    "qq": gettext_lazy("The default: the blood battle as QQ Game plays it online; no cap"),
    "chengdu": gettext_lazy("Chengdu clubs and teahouses that count in multiples (格/倍)"),
    "additive": gettext_lazy("Tables that add points up instead of doubling them"),
    "xuezhan9": gettext_lazy(
        "Blood-battle clubs capped at 9 fan, doubling after a draw and for a dealer’s streak"
    ),
    "tfmj2024": gettext_lazy("Sanctioned Sichuan tournaments (the competition standard)"),
    "sbr": gettext_lazy("International clubs, MIL events and online play"),
}
#: fan shown on the value line of a fan curve, from the table's lowest value up
FAN_EXAMPLES = 5


@dataclass(frozen=True)
class Named:
    """A domain name in the visitor's language, and in Chinese beside it for an English reader
    (``zh`` is then the Chinese name; in Chinese it is empty)."""

    text: str
    zh: str = ""


def named(name: dict[str, str]) -> Named:
    return Named(name["zh"]) if chinese() else Named(name["en"], name["zh"])


@dataclass(frozen=True)
class PresetLine:
    """A preset on the list of presets."""

    name: str
    title: Named
    source: str
    purpose: str


@dataclass(frozen=True)
class Row:
    """A row of a preset's table of patterns or of extras: its name, what it is worth, the
    option that switches it (its key and its label; empty for a row always there) and whether
    it is scored under the preset's own options."""

    code: str
    name: Named
    worth: str
    note: str
    option: str
    option_label: str
    on: bool


@dataclass(frozen=True)
class PresetPage:
    """One preset in words: what its page shows, top to bottom."""

    name: str
    title: Named
    source: str
    version: int
    purpose: str
    unit: str
    worth: str  # the heading of the patterns' values: Fan, Multiple, Points
    value_rule: str
    examples: str
    cap: str
    patterns: tuple[Row, ...]
    extras: tuple[Row, ...]
    summary: tuple[str, ...]
    options: tuple[OptionWords, ...]


@dataclass(frozen=True)
class Comparison:
    """Every option's default in every preset: a row per option, a column per preset."""

    presets: tuple[str, ...]
    rows: tuple[tuple[str, str, tuple[str, ...]], ...]  # (key, label, a cell per preset)


def preset_lines() -> list[PresetLine]:
    """Every preset of the engine, in its order."""
    out = []
    for name in PRESETS:
        d = resolve_ruleset(name).as_dict()
        out.append(PresetLine(name, named(d["title"]), d.get("source", ""), purpose(name)))
    return out


def purpose(name: str) -> str:
    return str(PURPOSES[name]) if name in PURPOSES else ""


def comparison() -> Comparison:
    """The options' defaults side by side (``option_schema``), each in words."""
    descriptions = {name: resolve_ruleset(name).as_dict() for name in PRESETS}
    rows = []
    for option in option_schema():
        key, defaults = option["key"], option.get("defaults", {})
        cells = tuple(
            option_value(key, defaults[name], descriptions[name]) if name in defaults else "—"
            for name in PRESETS
        )
        rows.append((key, option_label(key), cells))
    return Comparison(tuple(PRESETS), tuple(rows))


# --- one preset ------------------------------------------------------------------------------


#: the parts of a description whose rows an option switches: base patterns, extras, and the
#: optional patterns a table has no row for (scored as one step, ``pattern_extras``: codes)
PARTS = ("patterns", "extras", "pattern_extras")


@dataclass(frozen=True)
class Switches:
    """Per part of a preset's description: which yes/no option switches each row (by code),
    and the rows an option would add that are off under the preset's own options (with that
    option). Codes and the engine's rows only: the words are made per request, in the
    visitor's language."""

    option: dict[str, dict[str, str]]
    off: dict[str, tuple[tuple[str, Any], ...]]


def switches(name: str) -> Switches:
    return _switches(name, PRESETS[name])


@cache  # one per preset (the object: a preset the engine replaces is asked again)
def _switches(name: str, preset: object) -> Switches:
    base = resolve_ruleset(name).as_dict()
    option: dict[str, dict[str, str]] = {part: {} for part in PARTS}
    option["patterns"] = {p["code"]: p["option"] for p in base["patterns"] if p.get("option")}
    off: dict[str, list[tuple[str, Any]]] = {part: [] for part in PARTS}
    for schema in option_schema():
        key = schema["key"]
        default = base["options"].get(key)
        if schema.get("allowed") != "boolean" or not isinstance(default, bool):
            continue
        try:
            other = resolve_ruleset({"preset": name, "options": {key: not default}}).as_dict()
        except Invalid:  # a combination the engine refuses switches nothing here
            continue
        on, without = (base, other) if default else (other, base)
        for part in PARTS:
            codes_without = {_code(row) for row in without.get(part, [])}
            for row in on.get(part, []):
                code = _code(row)
                if code in codes_without or code in option[part]:
                    continue
                option[part][code] = key
                if not default:
                    off[part].append((key, row))
    return Switches(option, {part: tuple(rows) for part, rows in off.items()})


def _code(row: Any) -> str:
    return row["code"] if isinstance(row, dict) else row


def preset_page(name: str) -> PresetPage | None:
    """A preset in words; ``None`` for a name that is no preset."""
    if name not in PRESETS:
        return None
    ruleset = resolve_ruleset(name)
    d = ruleset.as_dict()
    unit = d.get("unit") or d.get("curve")
    s = switches(name)

    def worth(value: Any) -> str:
        if value == "cap":
            return _("the cap (满格)")
        return unit_amount(value, unit) if isinstance(value, int) else str(value)

    def adds(steps: int) -> str:
        """An extra's steps up the curve: +1 fan, ×2, +1 point."""
        if d.get("curve") == "multiple":
            return "×" + str(ruleset.step(1, steps))
        return "+" + unit_amount(ruleset.step(0, steps), unit)

    def row(part: str, item: Any, on: bool, key: str | None = None) -> Row:
        code = _code(item)
        key = key or s.option[part].get(code, "")
        label = option_label(key) if key else ""
        if part == "patterns":
            return Row(code, named(item), worth(item["value"]), _roots_note(item), key, label, on)
        if part == "extras":
            return Row(code, named(item), adds(item["steps"]), "", key, label, on)
        note = _("one step where the table has no row for it")
        return Row(code, _pattern_name(code), adds(1), note, key, label, on)

    def rows(*parts: str) -> tuple[Row, ...]:
        """The rows the preset scores, then those an option of it would add."""
        scored = [row(part, item, True) for part in parts for item in d.get(part, [])]
        off = [row(part, item, False, key) for part in parts for key, item in s.off[part]]
        return tuple(scored + off)

    rule, examples = value_rule(ruleset, d)
    return PresetPage(
        name=name,
        title=named(d["title"]),
        source=d.get("source", ""),
        version=d.get("version", 1),
        purpose=purpose(name),
        unit=str(UNIT_NAMES[unit]) if unit in UNIT_NAMES else str(unit),
        worth=str(WORTH_HEADINGS[unit]) if unit in WORTH_HEADINGS else "",
        value_rule=rule,
        examples=examples,
        cap=cap_words(ruleset, d),
        patterns=rows("patterns"),
        extras=rows("extras", "pattern_extras"),
        summary=tuple(ruleset_words(d) + preset_words(d)),
        options=tuple(option_words(d)),
    )


UNIT_NAMES = {
    "fan": gettext_lazy("fan (番)"),
    "multiple": gettext_lazy("multiples (倍)"),
    "points": gettext_lazy("points (分)"),
}
#: the heading of the column of what each pattern is worth, by unit
WORTH_HEADINGS = {
    "fan": gettext_lazy("Fan (番)"),
    "multiple": gettext_lazy("Multiple (倍)"),
    "points": gettext_lazy("Points (分)"),
}


NEXT_DEALER_WORDS = {
    "discarder_or_dice": gettext_lazy(
        "Next dealer: after one win (普通) its discarder, or the winner of a self-draw; in a "
        "blood battle the dice choose; after a draw the same dealer"
    ),
    "first_winner": gettext_lazy(
        "Next dealer: the first winner (after an opening win by several on one discard, its "
        "discarder); after a draw the same dealer"
    ),
}


def preset_words(d: dict[str, Any]) -> list[str]:
    """What a preset's description says beside its options: who deals next, and the rules
    the preset carries itself (杠钱归胡家, 黄庄加倍 / 连庄)."""
    words = []
    if d.get("next_dealer") in NEXT_DEALER_WORDS:
        words.append(str(NEXT_DEALER_WORDS[d["next_dealer"]]))
    if d.get("robbing_pays_kong"):
        words.append(
            _(
                "Robbing a kong (抢杠胡): the robbed player also pays the winner what his kong "
                "would have collected (杠钱归胡家)"
            )
        )
    if d.get("session_multipliers"):
        words.append(
            _(
                "Every amount doubles once for each drawn hand in a row before it (黄庄加倍), and "
                "once more for each hand of a dealer’s streak from his third on (连庄)"
            )
        )
    return words


def _pattern_name(code: str) -> Named:
    name = PATTERN_NAMES.get(code)
    return named(name._asdict()) if name is not None else Named(code)


def _roots_note(row: dict[str, Any]) -> str:
    n = row.get("roots_included") or 0
    return _("roots already counted in it: %(n)s") % {"n": n} if n else ""


def value_rule(ruleset: Any, d: dict[str, Any]) -> tuple[str, str]:
    """How a win's value is computed, in words, and (on a fan curve) what each fan pays, up to
    the cap: ``0 fan → 1 · 1 fan → 2 · …`` (the engine's ``value_of``)."""
    curve, unit = d.get("curve"), d.get("unit") or d.get("curve")
    if curve == "fan":
        offset = d.get("fan_offset", 0)
        rule = (
            _(
                "A hand’s fan: its base pattern’s, plus each extra’s. Each payer pays "
                "2^(fan − %(offset)s) × the base."
            )
            % {"offset": offset}
            if offset
            else _(
                "A hand’s fan: its base pattern’s, plus each extra’s. Each payer pays "
                "2^fan × the base."
            )
        )
        cap = d.get("options", {}).get("cap")
        low = min((p["value"] for p in d["patterns"] if isinstance(p["value"], int)), default=0)
        high = low + FAN_EXAMPLES
        if isinstance(cap, int) and not isinstance(cap, bool):
            high = min(high, cap)
        examples = " · ".join(
            f"{unit_amount(n, unit)} → {ruleset.value_of(n)}" for n in range(low, high + 1)
        )
        return rule, examples
    if curve == "multiple":
        return _(
            "A hand’s multiple: its base pattern’s, doubled for each extra. Each payer pays the "
            "multiple × the base."
        ), ""
    return _(
        "A hand’s points: its base pattern’s, plus each extra’s. Each payer pays the points × "
        "the base."
    ), ""


def cap_words(ruleset: Any, d: dict[str, Any]) -> str:
    cap = d.get("options", {}).get("cap")
    if not isinstance(cap, int) or isinstance(cap, bool):
        return _("No cap")
    unit = d.get("unit") or d.get("curve")
    return _("Capped at %(cap)s: a win is worth at most %(value)s to each payer at base 1") % {
        "cap": unit_amount(cap, unit),
        "value": ruleset.cap_value(),
    }
