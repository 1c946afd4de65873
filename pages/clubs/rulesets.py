"""Rulesets in words: a preset's title and its options as a club organiser reads them.

The rules themselves are the engine's (``scoring.engine``): this module only says what a
ruleset's description holds, in the visitor's language. Titles and pattern names come from the
description's own ``zh``/``en``; option words are gettext.

Two shapes of the same words: :func:`ruleset_words`, the few sentences a club agrees on at the
table (an option at its usual value says nothing), and :func:`option_words`, every option of
the description, each with its name, its value and what it means, for the rules pages. Both
read the options with ``o.get(key)``: an option the engine does not have (yet) gives no line,
and one these words do not know yet is still listed, by its key and its value as it is.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring.engine import EXTRA_NAMES, PATTERN_NAMES, PRESETS, resolve_ruleset


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
    if o.get("added_kong_same_turn"):
        words.append(
            _("Added kong (弯杠): declared later than the turn its tile was drawn, it pays nothing")
        )
    transfer = {
        "copy": _(
            "Kong transfer (呼叫转移): the kong’s income goes to the winner of the discard after "
            "it; each of several winners gets a full copy"
        ),
        "chain_split": _(
            "Kong transfer (呼叫转移): the income of the whole chain of kongs (杠上杠) goes to "
            "the winners, split between several"
        ),
        "refund": _(
            "Win on the discard after a kong (杠上炮): no transfer; the discarder returns his "
            "last kong’s income to those who paid it"
        ),
    }.get(o.get("kong_transfer"))
    if transfer:
        words.append(transfer)
    huazhu = o.get("huazhu")
    if huazhu == "cap":
        words.append(_("A flower pig (花猪) pays the cap (满格)"))
    elif huazhu == "chajiao_plus_fan":
        words.append(_("A flower pig (花猪) pays the ready check’s (查叫) value plus one fan"))
    elif huazhu == "not_ready":
        words.append(_("A flower pig (花猪) pays as a player who is not ready"))
    elif _is_number(huazhu):
        words.append(_("A flower pig (花猪) pays %(n)s to each") % {"n": huazhu})
    chajiao = {
        "max": _("Ready check (查叫): the best wait (赔大叫)"),
        "min": _("Ready check (查叫): the smallest wait (赔小叫)"),
        "off": _("No ready check (查叫)"),
    }.get(o.get("chajiao"))
    if chajiao:
        words.append(chajiao)
    if o.get("chajiao_kongs") is False:  # the usual value (true) says nothing
        words.append(_("Ready check (查叫): a ready hand is valued without its kongs as roots"))
    if o.get("dead_wait_counts") is False:
        words.append(_("Dead waits (死叫): a wait with no copy left does not count as ready"))
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
    if o.get("golden_wait"):
        words.append(_("Golden Wait (单钓): +1 step for an all-triplets hand won on its pair tile"))
    if o.get("haidi_over_kong_discard"):
        words.append(
            _(
                "A discard win off the last tile: the last tile (海底) replaces the win after a "
                "kong (杠上炮), and the kong’s income stays"
            )
        )
    tianhu = o.get("tianhu_dihu")
    if tianhu is True:
        words.append(_("Heavenly and earthly hands (天胡, 地胡) are scored as patterns"))
    elif tianhu is False:
        words.append(
            _("Heavenly and earthly hands (天胡, 地胡) are not scored: the hand counts as it is")
        )
    if o.get("kong_flower_after_direct") == "discard":
        words.append(
            _(
                "A win on the replacement tile after a kong on a discard (引杠杠上花) is paid as "
                "a discard win, by the player whose discard was konged"
            )
        )
    false_win = o.get("false_win")
    if false_win == "huazhu":
        words.append(
            _(
                "A false win (诈胡) costs what a flower pig (花猪) pays, to each other player "
                "still in"
            )
        )
    elif false_win == "cap":
        words.append(_("A false win (诈胡) costs the cap (满格) to each other player still in"))
    elif _is_number(false_win):
        words.append(
            _("A false win (诈胡) costs %(n)s to each other player still in") % {"n": false_win}
        )
    if o.get("horse_eats_horse"):
        words.append(_("Horse eats horse (马吃马) between bettors (叫马)"))
    return words


def _is_number(value: Any) -> bool:
    """A whole number of base units (``True`` is an ``int`` in Python, but not an amount)."""
    return isinstance(value, int) and not isinstance(value, bool)


class OptionWords(NamedTuple):
    """One option of a ruleset in words: what it is called, its value, what it means."""

    key: str
    label: str
    value: str
    meaning: str


#: what each option is called (an option of a pattern's or an extra's own code is called by
#: the engine's name of it; one not listed here by its key)
OPTION_LABELS = {
    "mode": gettext_lazy("Mode"),
    "cap": gettext_lazy("Cap (封顶)"),
    "self_draw_bonus": gettext_lazy("Self-draw bonus (自摸)"),
    "kong_concealed": gettext_lazy("Concealed kong (暗杠)"),
    "kong_added": gettext_lazy("Added kong (弯杠)"),
    "kong_direct": gettext_lazy("Kong on a discard (直杠)"),
    "drizzle": gettext_lazy("Drizzle (下毛毛雨)"),
    "added_kong_same_turn": gettext_lazy("Added kong only on its turn"),
    "huazhu": gettext_lazy("Flower pig (花猪)"),
    "chajiao": gettext_lazy("Ready check (查叫)"),
    "dead_wait_counts": gettext_lazy("Dead wait counts (死叫算叫)"),
    "refund_kongs": gettext_lazy("Kong refunds (退税)"),
    "kong_flower_after_direct": gettext_lazy("Kong flower after a kong on a discard (引杠杠上花)"),
    "horse_eats_horse": gettext_lazy("Horse eats horse (马吃马)"),
    "kong_transfer": gettext_lazy("Kong transfer (呼叫转移)"),
    "chajiao_kongs": gettext_lazy("Kongs as roots at the ready check"),
    "golden_wait": gettext_lazy("Golden Wait (单钓)"),
    "haidi_over_kong_discard": gettext_lazy("Last tile (海底) before 杠上炮"),
    "tianhu_dihu": gettext_lazy("Heavenly and earthly hands (天胡, 地胡)"),
    "false_win": gettext_lazy("False win (诈胡)"),
}

#: what each option means, whatever its value (RULES §3.5, §3.8)
OPTION_MEANINGS = {
    "mode": gettext_lazy(
        "When a hand ends: once three players have won (血战到底), or at the first win (普通); "
        "a table may choose its own"
    ),
    "cap": gettext_lazy("The most a win counts, in the rules’ own unit"),
    "self_draw_bonus": gettext_lazy(
        "What a self-drawn win adds: nothing, 1 to each payment after the cap (加底), or one "
        "more step before it (加番)"
    ),
    "kong_concealed": gettext_lazy("Paid at once by each player still in, in base units"),
    "kong_added": gettext_lazy("Paid at once by each player still in, in base units"),
    "kong_direct": gettext_lazy(
        "Paid at once by the player whose discard was konged, in base units"
    ),
    "drizzle": gettext_lazy("A kong on a discard also takes 1 from each other player still in"),
    "added_kong_same_turn": gettext_lazy(
        "An added kong declared later than the turn its tile was drawn pays nothing"
    ),
    "huazhu": gettext_lazy(
        "At the draw, what a player holding three suits pays each player still in who is not "
        "a flower pig"
    ),
    "chajiao": gettext_lazy(
        "At the draw, a player who is not ready pays each ready player the value of his best "
        "(赔大) or his smallest (赔小) wait"
    ),
    "dead_wait_counts": gettext_lazy(
        "A wait whose copies are all in sight elsewhere still counts as ready"
    ),
    "refund_kongs": gettext_lazy(
        "At the draw, the players who are not ready return their kong income"
    ),
    "kong_flower_after_direct": gettext_lazy(
        "A win on the replacement tile after a kong on a discard: paid as a self-draw, or as a "
        "discard win by the player whose discard was konged"
    ),
    "horse_eats_horse": gettext_lazy(
        "Between bettors (叫马): each bettor on the payer’s seat also pays each bettor on the "
        "payee’s seat"
    ),
    "kong_transfer": gettext_lazy(
        "What becomes of a kong’s income when the discard right after it is won on (杠上炮)"
    ),
    "chajiao_kongs": gettext_lazy(
        "Whether a ready player’s kongs count as roots when his ready check (查叫) is valued; "
        "four of a kind in the hand always count"
    ),
    "golden_wait": gettext_lazy(
        "+1 step for an all-triplets hand won on its pair tile, whatever the number of melds"
    ),
    "haidi_over_kong_discard": gettext_lazy(
        "On a discard win off the last tile, 海底 replaces 杠上炮: no 杠上炮 step, and the "
        "kong’s income is neither transferred nor refunded"
    ),
    "tianhu_dihu": gettext_lazy(
        "Whether 天胡 and 地胡 score as patterns; if not, the hand is valued by its shape"
    ),
    "false_win": gettext_lazy(
        "What a false win costs the offender, to each other player still in; he also returns "
        "his kong income"
    ),
}

#: the words of an option's named values
OPTION_VALUES = {
    "mode": {
        "xuezhan": gettext_lazy("Blood battle (血战到底)"),
        "single": gettext_lazy("One win (普通)"),
    },
    "self_draw_bonus": {
        "none": gettext_lazy("none"),
        "add_one": gettext_lazy("+1 after the cap (加底)"),
        "add_fan": gettext_lazy("one more step (加番)"),
    },
    "huazhu": {
        "cap": gettext_lazy("the cap (满格)"),
        "chajiao_plus_fan": gettext_lazy("ready check + 1 fan"),
        "not_ready": gettext_lazy("counts as not ready"),
    },
    "chajiao": {
        "max": gettext_lazy("best wait (赔大叫)"),
        "min": gettext_lazy("smallest wait (赔小叫)"),
        "off": gettext_lazy("none"),
    },
    "kong_flower_after_direct": {
        "self_draw": gettext_lazy("as a self-draw"),
        "discard": gettext_lazy("as a discard win"),
    },
    "kong_transfer": {
        "copy": gettext_lazy("a full copy to each winner"),
        "chain_split": gettext_lazy("the whole chain, split"),
        "refund": gettext_lazy("refunded instead"),
    },
    "false_win": {
        "huazhu": gettext_lazy("what a flower pig pays"),
        "cap": gettext_lazy("the cap (满格)"),
    },
}

#: an option whose value is a number of base units: how that number reads
AMOUNT_WORDS = {
    "kong_concealed": gettext_lazy("%(n)s from each"),
    "kong_added": gettext_lazy("%(n)s from each"),
    "kong_direct": gettext_lazy("%(n)s from the discarder"),
    "huazhu": gettext_lazy("%(n)s to each"),
    "false_win": gettext_lazy("%(n)s to each"),
}


def _element_name(key: str) -> dict[str, str] | None:
    """The engine's name of the pattern or extra an option of that code switches on."""
    name = PATTERN_NAMES.get(key) or EXTRA_NAMES.get(key)
    return name._asdict() if name is not None else None


def option_label(key: str) -> str:
    """What an option is called: 封顶 / Cap (封顶), 带幺九 / Terminals in every set (带幺九)."""
    if key in OPTION_LABELS:
        return str(OPTION_LABELS[key])
    name = _element_name(key)
    if name is None:
        return key
    return name["zh"] if _in_chinese() else f"{name['en']} ({name['zh']})"


def option_meaning(key: str) -> str:
    """What an option means, whatever its value ("" for one these words do not know)."""
    if key in OPTION_MEANINGS:
        return str(OPTION_MEANINGS[key])
    if key in PATTERN_NAMES:
        return _("Whether this pattern is scored (where the table has no row for it: one step)")
    if key in EXTRA_NAMES:
        return _("Whether this extra is scored")
    return ""


def option_value(key: str, value: Any, description: dict[str, Any]) -> str:
    """An option's value in a few words: 3 fan, 2 from each, yes …"""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("No cap") if key == "cap" else _("none")
    if key == "cap" and _is_number(value):
        return _unit(description, value)
    named = OPTION_VALUES.get(key, {})
    if isinstance(value, str) and value in named:
        return str(named[value])
    if _is_number(value) and key in AMOUNT_WORDS:
        return str(AMOUNT_WORDS[key]) % {"n": value}
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
