"""The hand calculator: choose a preset, pick tiles, see the engine's pattern and value, or the
waits of a hand one tile short. It is also the tile picker's own page.

With JavaScript the picker asks the engine as the tiles are tapped; without it the form is sent
(GET) and the page shows the engine's answer, computed by the same engine functions that the API
calls (no rule is computed here).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from core.errors import Invalid
from pages.words import explanation, name_text
from scoring.services import DEFAULT_PRESET, PATTERN_NAMES, PRESETS, hand_value, hand_waits

#: why a hand is not a win (the engine's reason codes), in words
NOT_WIN = {
    "three_suits": _("three suits in the hand (缺一门: at most two)"),
    "declared_void_suit": _("the declared void suit is in the hand"),
    "not_a_winning_shape": _("not a winning shape"),
}
MAX_TEXT = 80  # a hand in notation is at most 14 digits and their suit marks, with spaces


def calculator(request: HttpRequest) -> HttpResponse:
    preset = request.GET.get("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        preset = DEFAULT_PRESET
    hand = request.GET.get("hand", "")[:MAX_TEXT]
    winning = request.GET.get("win", "")[:MAX_TEXT]
    self_draw = request.GET.get("self_draw") == "1"
    context: dict[str, Any] = {
        "presets": [(name, name_text(p.title)) for name, p in PRESETS.items()],
        "preset": preset,
        "hand": hand,
        "winning": winning,
        "self_draw": self_draw,
        "answer": answer(preset, hand, winning, self_draw) if hand.strip() else None,
    }
    return render(request, "pages/tiles/calculator.html", context)


def answer(preset: str, hand: str, winning: str, self_draw: bool) -> dict[str, Any]:
    """The engine's answer for the form sent without JavaScript: a win with a winning tile,
    else the waits of the hand; or the engine's refusals, in its own words."""
    try:
        if winning.strip():
            result = hand_value(preset, concealed=hand, winning_tile=winning, self_draw=self_draw)
            if not result.win or result.valuation is None:
                return {"kind": "not_win", "reason": NOT_WIN.get(result.reason, result.reason)}
            v = result.valuation
            return {
                "kind": "win",
                "pattern": name_text(v.lines[0]),
                "value": v.value,
                "expression": explanation(v),
            }
        result = hand_waits(preset, concealed=hand)
    except Invalid as e:
        return {"kind": "errors", "errors": [p["message"] for p in e.problems]}
    waits = [
        {"tile": w["tile"], "pattern": name_text(PATTERN_NAMES[w["pattern"]]), "value": w["value"]}
        for w in result["waits"]
    ]
    return {**result, "kind": "waits", "waits": waits}
