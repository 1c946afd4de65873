"""Rulesets in words: a preset's title and its options as a club organiser reads them.

The rules themselves are the engine's (``scoring.engine``): this module only says what a
ruleset's description holds, in the visitor's language. Titles and pattern names come from the
description's own ``zh``/``en``; an option's words from its spec
(``scoring.engine.options``: its name, meaning, values and sentences, each ``Name(zh, en)``).

Two shapes of the same words: :func:`ruleset_words`, the few sentences a club agrees on at the
table (an option at its usual value says nothing), and :func:`option_words`, every option of
the description, each with its name, its value and what it means, for the rules pages. Both
read the options with ``o.get(key)``: an option the engine does not have (yet) gives no line,
and one these words do not know yet is still listed, by its key and its value as it is.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.names import Name
from scoring.services import (
    EXTRA_NAMES,
    OPTION_SPECS,
    PATTERN_NAMES,
    PRESETS,
    OptionSpec,
    said_options,
)
from scoring.services import ruleset_resolve as resolve_ruleset


def _in_chinese() -> bool:
    return (get_language() or "").startswith("zh")


def localized(name: dict[str, str]) -> str:
    """A ``{"zh", "en"}`` name in the current language."""
    return name["zh"] if _in_chinese() else name["en"]


def _unit(description: dict[str, Any], n: int) -> str:
    unit = description.get("unit") or description.get("curve")
    if unit == "fan":
        return _("%(n)s fan") % {"n": n}
    if unit == "multiple":
        return _("×%(n)s") % {"n": n}
    return _("%(n)s points") % {"n": n}


def ruleset_words(description: dict[str, Any]) -> list[str]:
    """What a ruleset's options say, one short line each (what a club agrees on at the table),
    in the order of ``SAID_ORDER``: each option's sentence for its value as its spec declares
    it (a value without one says nothing); the options that switch a pattern or an extra on
    in one line."""
    o = description.get("options", {})
    words = []
    elements_said = False
    for spec in said_options():
        if spec.switches is not None:
            if not elements_said:
                elements_said = True
                words += _also_scored(o)
        elif spec.key in o and (line := _said(spec, o, description)):
            words.append(line)
    return words


def say(name: Name) -> str:
    """A name in the current language."""
    return name.zh if _in_chinese() else name.en


def _said(spec: OptionSpec, o: dict[str, Any], description: dict[str, Any]) -> str | None:
    """An option's sentence for its value: its named value's, or its amount's."""
    value = o[spec.key]
    named = spec.value(value)
    if named is not None:
        return say(named.said) if named.said is not None else None
    if _is_number(value) and spec.said_amount is not None:
        n = _unit(description, value) if spec.in_curve_unit else value
        try:  # an amount's sentence may name other options (the three kongs in one)
            return say(spec.said_amount) % {**o, "n": n}
        except KeyError:
            return None
    return None


def _also_scored(o: dict[str, Any]) -> list[str]:
    """The patterns and extras the options switch on, in one line."""
    names = [
        localized(element._asdict())
        for spec in said_options()
        if spec.switches is not None and o.get(spec.key)
        if (element := PATTERN_NAMES.get(spec.key) or EXTRA_NAMES.get(spec.key)) is not None
    ]
    return [_("Also scored: %(list)s") % {"list": _("; ").join(names)}] if names else []


def _is_number(value: Any) -> bool:
    """A whole number of base units (``True`` is an ``int`` in Python, but not an amount)."""
    return isinstance(value, int) and not isinstance(value, bool)


class OptionWords(NamedTuple):
    """One option of a ruleset in words: what it is called, its value, what it means."""

    key: str
    label: str
    value: str
    meaning: str


def option_label(key: str) -> str:
    """What an option is called: 封顶 / Cap (封顶), 带幺九 / Terminals in every set (带幺九)
    (its spec's name; an option these words do not know by its key)."""
    spec = OPTION_SPECS.get(key)
    return say(spec.name) if spec is not None else key


def option_meaning(key: str) -> str:
    """What an option means, whatever its value ("" for one these words do not know)."""
    spec = OPTION_SPECS.get(key)
    return say(spec.meaning) if spec is not None else ""


def option_value(key: str, value: Any, description: dict[str, Any]) -> str:
    """An option's value in a few words: 3 fan, 2 from each, yes …"""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    spec = OPTION_SPECS.get(key)
    named = spec.value(value) if spec is not None else None
    if named is not None and named.name is not None:
        return say(named.name)
    if value is None:
        return _("none")
    if spec is not None and _is_number(value):
        if spec.in_curve_unit:
            return _unit(description, value)
        if spec.amount is not None:
            return say(spec.amount) % {"n": value}
    return str(value)


def option_words(description: dict[str, Any]) -> list[OptionWords]:
    """Every option of a ruleset's description, in its own order, in words."""
    return [
        OptionWords(
            key, option_label(key), option_value(key, value, description), option_meaning(key)
        )
        for key, value in description.get("options", {}).items()
    ]


def patterns_words(description: dict[str, Any]) -> str:
    """The pattern table in one line: 平胡 1 · 对对胡 2 · …"""
    rows = []
    for p in description.get("patterns", []):
        value = p["value"]
        shown = _("cap") if value == "cap" else str(value)
        rows.append(f"{localized(p)} {shown}")
    return " · ".join(rows)


class PresetChoice(NamedTuple):
    name: str
    title: str
    words: list[str]
    patterns: str
    page: str = ""  # the preset's rules page ("" for a preset the engine no longer has)


def rules_page(preset: str) -> str:
    return reverse("page-rules-preset", args=[preset]) if preset in PRESETS else ""


def preset_choices() -> list[PresetChoice]:
    """Every preset, with its default options in words."""
    out = []
    for name in PRESETS:
        d = resolve_ruleset(name).as_dict()
        out.append(
            PresetChoice(
                name, localized(d["title"]), ruleset_words(d), patterns_words(d), rules_page(name)
            )  # fmt: skip
        )
    return out


def snapshot_choice(snapshot) -> PresetChoice:
    """A pinned ruleset (a club's default) described the same way."""
    d = snapshot.description
    return PresetChoice(snapshot.preset, localized(d["title"]), ruleset_words(d), patterns_words(d),
                        rules_page(snapshot.preset))  # fmt: skip
