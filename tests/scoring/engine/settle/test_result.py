"""The settlement's own vocabulary: every payment reason has a Name (ARCHITECTURE "Names have
names"), in the order RULES §4 pays them."""

from __future__ import annotations

from core.names import Name
from scoring.engine.settle import REASON_NAMES


def test_every_reason_code_has_a_chinese_and_an_english_name():
    assert list(REASON_NAMES) == [
        "kong_concealed",  # §4.1 暗杠
        "kong_direct",  # 直杠
        "kong_added",  # 弯杠
        "win",  # §4.2 a discard win (and 引杠杠上花 paid by the konged player)
        "self_draw",  # §4.3 自摸
        "kong_transfer",  # §4.4 呼叫转移
        "kong_to_winner",  # §3.4 杠钱归胡家
        "huazhu",  # §4.6a 查花猪
        "chajiao",  # §4.6b 查叫
        "kong_refund",  # §4.6c 退税
        "kong_return",  # §4.4 杠上炮 refund, §4.9 a false win's kong money
        "false_win",  # §4.9 诈胡
        "bettor",  # §4.7 叫马
    ]
    for name in REASON_NAMES.values():
        assert isinstance(name, Name) and name.zh and name.en
    assert REASON_NAMES["kong_transfer"].zh == "呼叫转移"
    assert REASON_NAMES["kong_refund"].as_dict() == {
        "zh": "退税",
        "en": "Kong money returned at the draw",
    }
