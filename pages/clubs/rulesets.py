"""Rulesets in words: a preset's title and its options as a club organiser reads them.

The rules themselves are the engine's (``scoring.engine``): this module only says what a
ruleset's description holds, in the visitor's language. Titles and pattern names come from the
description's own ``zh``/``en``; option words are gettext.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.engine import EXTRA_NAMES, PATTERN_NAMES, PRESETS, resolve_ruleset


def localized(name: dict[str, str]) -> str:
    """A ``{"zh", "en"}`` name in the current language."""
    return name["zh"] if (get_language() or "").startswith("zh") else name["en"]


def _unit(description: dict[str, Any], n: int) -> str:
    unit = description.get("unit") or description.get("curve")
    if unit == "fan":
        return _("%(n)s fan") % {"n": n}
    if unit == "multiple":
        return _("×%(n)s") % {"n": n}
    return _("%(n)s points") % {"n": n}


def ruleset_words(description: dict[str, Any]) -> list[str]:
    """What a ruleset's options say, one short line each (what a club agrees on at the table)."""
    o = description.get("options", {})
    words = []
    mode = o.get("mode")
    if mode == "xuezhan":
        words.append(_("Blood battle (血战到底): the hand goes on until three players have won"))
    elif mode == "single":
        words.append(_("One win (普通): the hand ends at the first win"))
    if "cap" in o:
        cap = o["cap"]
        words.append(
            _("No cap")
            if cap is None
            else _("Capped at %(cap)s") % {"cap": _unit(description, cap)}
        )
    bonus = {
        "none": _("Self-draw (自摸): no bonus"),
        "add_one": _("Self-draw (自摸): +1 to each payment (加底)"),
        "add_fan": _("Self-draw (自摸): one more step (加番)"),
    }.get(o.get("self_draw_bonus"))
    if bonus:
        words.append(bonus)
    if {"kong_concealed", "kong_added", "kong_direct"} <= set(o):
        words.append(
            _(
                "Kongs: concealed (暗杠) %(c)s from each, added (弯杠) %(a)s from each, on a "
                "discard (直杠) %(d)s from the discarder"
            )
            % {"c": o["kong_concealed"], "a": o["kong_added"], "d": o["kong_direct"]}
        )
    if o.get("drizzle"):
        words.append(_("Drizzle (下雨): a kong on a discard also takes 1 from each other player"))
    huazhu = o.get("huazhu")
    if huazhu == "cap":
        words.append(_("A flower pig (花猪) pays the cap (满格)"))
    elif huazhu == "chajiao_plus_fan":
        words.append(_("A flower pig (花猪) pays the ready check’s (查叫) value plus one fan"))
    elif huazhu == "not_ready":
        words.append(_("A flower pig (花猪) pays as a player who is not ready"))
    elif isinstance(huazhu, int):
        words.append(_("A flower pig (花猪) pays %(n)s to each") % {"n": huazhu})
    chajiao = {
        "max": _("Ready check (查叫): the best wait (赔大叫)"),
        "min": _("Ready check (查叫): the smallest wait (赔小叫)"),
        "off": _("No ready check (查叫)"),
    }.get(o.get("chajiao"))
    if chajiao:
        words.append(chajiao)
    if "refund_kongs" in o:
        on = o["refund_kongs"]
        words.append(_("Kong refunds (退税): on") if on else _("Kong refunds (退税): off"))
    optional = [
        localized(names[key]._asdict())
        for key, names in (
            ("daiyaojiu", PATTERN_NAMES),
            ("jiangdui", PATTERN_NAMES),
            ("jingoudiao", PATTERN_NAMES),
            ("haidi", EXTRA_NAMES),
            ("juezhang", EXTRA_NAMES),
        )
        if o.get(key) and key in names
    ]
    if optional:
        words.append(_("Also scored: %(list)s") % {"list": _("; ").join(optional)})
    if o.get("horse_eats_horse"):
        words.append(_("Horse eats horse (马吃马) between bettors (叫马)"))
    return words


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


def preset_choices() -> list[PresetChoice]:
    """Every preset, with its default options in words."""
    out = []
    for name in PRESETS:
        d = resolve_ruleset(name).as_dict()
        out.append(PresetChoice(name, localized(d["title"]), ruleset_words(d), patterns_words(d)))
    return out


def snapshot_choice(snapshot) -> PresetChoice:
    """A pinned ruleset (a club's default) described the same way."""
    d = snapshot.description
    return PresetChoice(snapshot.preset, localized(d["title"]), ruleset_words(d), patterns_words(d))
