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


def test_settle_a_record_file(tmp_path):
    """S3 暗杠 9s (2 from each of three), S1 清七对 self-draw 16 from each, S2 平胡 on S0's
    discard 1, draw: S0 花猪 pays the ready S3 16 — totals -35 / +46 / -17 / +6."""
    record = {
        "ruleset": "qq",
        "dealer": 0,
        "events": [
            {"type": "kong", "seat": 3, "kind": "concealed", "tile": "9s"},
            {"type": "win", "from": None, "tile": "8p", "situation": [],
             "winners": [{"seat": 1, "concealed": "2233445566778p", "melds": []}]},
            {"type": "win", "from": 0, "tile": "9p", "situation": [],
             "winners": [{"seat": 2, "concealed": "111m234m567m88p99p", "melds": []}]},
        ],
        "draw": {"hands": {
            "0": {"concealed": "123m456p678s1122s", "melds": []},
            "3": {"concealed": "12345678s55m",
                  "melds": [{"kind": "kong", "tile": "9s", "concealed": True}]}}},
    }  # fmt: skip
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False))
    out = run("settle", str(path))
    assert "Totals: S0 -35  S1 +46  S2 -17  S3 +6" in out
    assert "Next dealer: dice decide" in out
    data = json.loads(run("settle", str(path), "--json"))
    assert data["totals"]["seats"] == [-35, 46, -17, 6]


def test_settle_refusal_is_a_command_error(tmp_path):
    path = tmp_path / "record.json"
    path.write_text('{"dealer": 9}')
    with pytest.raises(CommandError, match=r"dealer: .*invalid_seat"):
        run("settle", str(path))


def test_settle_a_declared_record(tmp_path):
    """qq: S1 declared 自摸 清一色 with one root: 3 + 1 = 4 fan → 8 from each of three; the
    answer says it was declared."""
    record = {
        "ruleset": "qq",
        "mode": "single",
        "events": [
            {"type": "win", "from": None, "tile": "9m", "situation": [],
             "winners": [{"seat": 1, "declared": {"pattern": "qingyise", "roots": 1}}]},
        ],
    }  # fmt: skip
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = run("settle", str(path))
    assert "Win  S1 qingyise self-draw (9m): 8 from each payer [declared]" in out
    assert "Totals: S0 -8  S1 +24  S2 -8  S3 -8" in out
    assert "Not verified" in out
    data = json.loads(run("settle", str(path), "--json"))
    assert (data["verified"], data["wins"][0]["verified"]) == (False, False)


def test_declarations_lists_the_menu():
    out = run("declarations", "--ruleset", "xuezhan9")
    # xuezhan9 清一色 3 fan pays 2^3 = 8; 金钩钓 is an extra
    assert "qingyise" in out and "pays    8" in out
    assert "Extras: jingoudiao 金钩钓" in out
    data = json.loads(run("declarations", "--ruleset", "chengdu", "--option", "cap=16", "--json"))
    assert next(p for p in data["patterns"] if p["code"] == "qingqidui")["paid"] == 16
