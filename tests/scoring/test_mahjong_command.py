"""``manage.py mahjong``: the engine from the command line."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = StringIO()
    call_command("mahjong", *args, stdout=out)
    return out.getvalue()


def test_evaluate_prints_the_explanation():
    """11 22 33 44 55 66 77m: 清七对 16倍 in chengdu, over the 8 cap -> 8."""
    out = run("evaluate", "1122334455667m", "--winning", "7m", "--ruleset", "chengdu")
    assert "清七对" in out and "Pure seven pairs" in out
    assert "Value per payer at base 1: 8" in out
    assert "(capped)" in out


def test_evaluate_with_melds_options_and_json():
    """8888s kong + 123 567 234 77s: 清一色 4倍 ×2 (根) = 8; with cap 16 and self-draw +1 = 9."""
    out = run(
        "evaluate", "123567234s7s", "--winning", "7s", "--meld", "kong:8s", "--self-draw",
        "--ruleset", "chengdu", "--option", "cap=16", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert (data["pattern"], data["value"], data["roots"]) == ("qingyise", 9, 1)


def test_waits():
    out = run("waits", "111m46m123s66s789s")
    assert "5m" in out and "查叫 value (max): 1" in out


def test_bad_notation_is_a_command_error():
    with pytest.raises(CommandError, match=r"winning_tile: .*notation_character"):
        run("evaluate", "2344567p345789s", "--winning", "7x")
