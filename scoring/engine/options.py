"""The ruleset options (RULES §3.5, §3.8), each declared once: its key, its type and the values
it takes, its default in each preset, the RULES section it implements and its words.

An option is one :class:`OptionSpec` in :data:`DECLARED`, plus the rule that reads it
(``r.options.<key>`` in the engine). Everything else is read from here: the engine's
:class:`~.rulesets.Options` and its checks (:func:`check_value`), the presets' defaults,
``GET /api/v1/rulesets/`` (:func:`~.rulesets.option_schema`), the forms where an organiser
changes options, the club's agreed sentences and the rules pages.

The words are the option's own, in Chinese and in English (``Name``): what it is called
(``name``) and means (``meaning``); for each named value (:class:`Value`) what the value is
called, the sentence a club agrees on at the table (``said``: a value without one says
nothing) and how a form offers it (``asked``). A number is said by ``said_amount`` (``%(n)s``,
and any option's key: ``%(kong_added)s``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from core.names import Name

from .bounds import MAX_CAP, MAX_OPTION_AMOUNT
from .errors import Problem, is_int, shown
from .patterns import EXTRA_NAMES, PATTERN_NAMES

#: a choice among words; yes or no; a whole number (which may also take words, or null)
Kind = Literal["choice", "flag", "number"]


@dataclass(frozen=True)
class Value:
    """One value of an option with its words: what it is called on the rules pages, the
    sentence it says among a ruleset's words (``None``: it says nothing) and its choice on a
    form."""

    value: Any
    name: Name | None = None
    said: Name | None = None
    asked: Name | None = None


@dataclass(frozen=True)
class Asked:
    """How a form asks for an option (only an option with one is on the forms)."""

    label: Name
    help: Name | None = None


class _Always:
    """The ``earlier`` of an option that was in the first descriptions ever stored."""

    def __repr__(self) -> str:
        return "ALWAYS"


ALWAYS: Any = _Always()


@dataclass(frozen=True, eq=False)
class OptionSpec:
    """One option of a ruleset, declared once.

    ``default`` is its value in every preset that ``presets`` does not name (changing either
    changes that preset's rules: add a ``version`` to it). A choice takes
    exactly the ``values``; a number is a whole number ≥ ``minimum`` (at most
    :data:`~.bounds.MAX_OPTION_AMOUNT`, or, ``in_curve_unit``, the curve's cap of RULES §5), or
    one of the ``values`` that are words, or null where ``nullable``. ``switches``: a yes/no
    option that switches the pattern or extra of its own code (its name is that element's).
    ``earlier``: for an option added after descriptions were first stored, the value it had
    before it existed (or a function of the other options giving it); see
    :data:`~.rulesets.LATER_OPTIONS`.
    """

    key: str
    kind: Kind
    name: Name
    meaning: Name
    rules: str
    default: Any
    presets: Mapping[str, Any] = field(default_factory=dict)
    values: tuple[Value, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    in_curve_unit: bool = False
    amount: Name | None = None
    said_amount: Name | None = None
    switches: Literal["pattern", "extra"] | None = None
    asked: Asked | None = None
    earlier: Any = ALWAYS

    def default_in(self, preset: str) -> Any:
        """Its value in a preset that keeps it at what that preset says."""
        return self.presets.get(preset, self.default)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """The words a number also takes (``huazhu``: ``cap`` …), or a choice's values."""
        return tuple(v.value for v in self.values if isinstance(v.value, str))

    def value(self, value: Any) -> Value | None:
        """The named value that is ``value`` (``True`` is not the number 1)."""
        return next((v for v in self.values if same(v.value, value)), None)

    def check(self, value: Any, path: str, curve: str | None) -> Problem | None:
        """The problem of a value of this option, if any; ``curve`` bounds a number in its
        unit (RULES §5), unless it is not known (a description whose curve is refused for
        that already)."""
        if self.kind == "choice":
            if value not in self.words:
                return self._bad(value, path, "one of " + ", ".join(self.words))
        elif self.kind == "flag":
            if not isinstance(value, bool):
                return self._bad(value, path, "true or false")
        elif value is None and self.nullable:
            pass
        elif not ((is_int(value) and value >= (self.minimum or 0)) or value in self.words):
            return self._bad(value, path, self._expected("a whole number ≥"))
        elif is_int(value):
            if not self.in_curve_unit and value > MAX_OPTION_AMOUNT:
                return self._too_high(value, path, "option_out_of_range", MAX_OPTION_AMOUNT)
            if self.in_curve_unit and curve in MAX_CAP and value > MAX_CAP[curve]:
                unit = f"on a {curve} curve"
                return self._too_high(value, path, "cap_out_of_range", MAX_CAP[curve], unit)
        return None

    def _expected(self, number: str) -> str:
        """What a number option takes, in one phrase: ``a whole number ≥ 1, "huazhu" or
        "cap"``."""
        parts = [f"{number} {self.minimum or 0}", *(f'"{w}"' for w in self.words)]
        if self.nullable:
            parts.append("null")
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]

    def _bad(self, value: Any, path: str, expect: str) -> Problem:
        message = f"option {self.key!r} must be {expect}, got {shown(value)}"
        return Problem("invalid_option", message, path)

    def _too_high(
        self, value: Any, path: str, code: str, most: int, unit: str = "base units"
    ) -> Problem:
        message = f"option {self.key!r} is at most {most:,} {unit}, got {shown(value)}"
        return Problem(code, message, path)

    def schema(self, presets: Mapping[str, str]) -> dict[str, Any]:
        """What ``GET /api/v1/rulesets/`` says of it beside each preset's default: the values
        it takes (``allowed``, as the first rulesets endpoint wrote them), a number's bounds
        (``maximum`` per preset, ``presets`` naming each preset's curve), its type, its names,
        its named values and its RULES section."""
        minimum: int | None = None
        maximum: dict[str, int] | None = None
        if self.kind == "choice":
            allowed: Any = list(self.words)
        elif self.kind == "flag":
            allowed = "boolean"
        else:
            allowed = self._expected("integer >=")
            minimum = self.minimum or 0
            maximum = {
                name: MAX_CAP[curve] if self.in_curve_unit else MAX_OPTION_AMOUNT
                for name, curve in presets.items()
            }
        return {
            "key": self.key,
            "type": {"flag": "boolean", "number": "integer"}.get(self.kind, self.kind),
            "allowed": allowed,
            "minimum": minimum,
            "maximum": maximum,
            "nullable": self.nullable,
            "name": self.name.as_dict(),
            "meaning": self.meaning.as_dict(),
            "values": [
                {"value": v.value, **v.name.as_dict()} for v in self.values if v.name is not None
            ],
            "rules": self.rules,
        }


def same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b  # (True is not the option value 1)


def implied_false_win(options: Mapping[str, Any] | Any) -> int | str:
    """The ``false_win`` a ruleset has unless it says otherwise: what a 花猪 pays where a 花猪
    has a price of its own, else a win at the cap (RULES §3.8: qq, chengdu, additive
    ``huazhu``; xuezhan9 and tfmj2024 ``cap``)."""
    huazhu = options.get("huazhu") if isinstance(options, Mapping) else options.huazhu
    return "huazhu" if is_int(huazhu) or huazhu == "cap" else "cap"


def _element(
    key: str, rules: str, default: bool, presets: Mapping[str, Any] | None = None
) -> OptionSpec:
    """A yes/no option that switches the pattern or extra of its own code (带幺九, 海底 …):
    called by the engine's name of that element."""
    pattern = key in PATTERN_NAMES
    element = PATTERN_NAMES[key] if pattern else EXTRA_NAMES[key]
    meaning = (
        Name(
            "是否计这个番型（番表里没有这一行时加一番）",
            "Whether this pattern is scored (where the table has no row for it: one step)",
        )
        if pattern
        else Name("是否计这个加番", "Whether this extra is scored")
    )
    return OptionSpec(
        key,
        "flag",
        Name(element.zh, f"{element.en} ({element.zh})"),
        meaning,
        rules,
        default,
        presets or {},
        switches="pattern" if pattern else "extra",
    )


_SELF_DRAW_WIN = Name("按自摸算", "as a self-draw")
_FROM_EACH = Name("每家 %(n)s", "%(n)s from each")
_TO_EACH = Name("每家 %(n)s", "%(n)s to each")
_PAID_BY_EACH = Name(
    "开杠时由每位未胡的玩家当即支付，以底计", "Paid at once by each player still in, in base units"
)
_THE_CAP = Name("满格", "the cap (满格)")
#: the presets that do not score 带幺九 and 将对
_NOT_IN_COMPETITION = ("chengdu", "xuezhan9", "tfmj2024", "sbr")

#: every option, in the order of a ruleset's description
DECLARED: tuple[OptionSpec, ...] = (
    OptionSpec(
        "mode",
        "choice",
        Name("玩法", "Mode"),
        Name(
            "一局何时结束：三家胡牌为止（血战到底），或第一家胡牌就结束（普通）；每桌可以另选",
            "When a hand ends: once three players have won (血战到底), or at the first win "
            "(普通); a table may choose its own",
        ),
        "§3.5",
        "xuezhan",
        values=(
            Value(
                "xuezhan",
                Name("血战到底", "Blood battle (血战到底)"),
                said=Name(
                    "血战到底：一局打到三家胡牌为止",
                    "Blood battle (血战到底): the hand goes on until three players have won",
                ),
            ),
            Value(
                "single",
                Name("普通", "One win (普通)"),
                said=Name(
                    "普通（一家胡牌即结束）", "One win (普通): the hand ends at the first win"
                ),
            ),
        ),
    ),
    OptionSpec(
        "cap",
        "number",
        Name("封顶", "Cap (封顶)"),
        Name(
            "一次胡牌最多算多少，以本规则的单位计", "The most a win counts, in the rules’ own unit"
        ),
        "§3.5",
        None,
        {"chengdu": 8, "xuezhan9": 9, "tfmj2024": 3, "sbr": 3},
        values=(Value(None, Name("不封顶", "No cap"), said=Name("不封顶", "No cap")),),
        minimum=1,
        nullable=True,
        in_curve_unit=True,
        said_amount=Name("封顶 %(n)s", "Capped at %(n)s"),
        asked=Asked(
            Name("封顶", "Cap (封顶)"),
            Name(
                "按这套规则自己的单位：番、倍或分。留空：不封顶。",
                "In the rules’ own unit: fan, multiple or points. Empty: no cap.",
            ),
        ),
    ),
    OptionSpec(
        "self_draw_bonus",
        "choice",
        Name("自摸加成", "Self-draw bonus (自摸)"),
        Name(
            "自摸加什么：不加，封顶后每家多付 1（加底），或封顶前再加一番（加番）",
            "What a self-drawn win adds: nothing, 1 to each payment after the cap (加底), or "
            "one more step before it (加番)",
        ),
        "§3.5",
        "none",
        {"chengdu": "add_one", "xuezhan9": "add_fan", "tfmj2024": "add_one", "sbr": "add_one"},
        values=(
            Value("none", Name("无", "none"), said=Name("自摸不加", "Self-draw (自摸): no bonus")),
            Value(
                "add_one",
                Name("封顶后加 1（加底）", "+1 after the cap (加底)"),
                said=Name("自摸加底（每家多付 1）", "Self-draw (自摸): +1 to each payment (加底)"),
            ),
            Value(
                "add_fan",
                Name("加一番（加番）", "one more step (加番)"),
                said=Name("自摸加番", "Self-draw (自摸): one more step (加番)"),
            ),
        ),
    ),
    OptionSpec(
        "kong_concealed",
        "number",
        Name("暗杠", "Concealed kong (暗杠)"),
        _PAID_BY_EACH,
        "§3.5",
        2,
        amount=_FROM_EACH,
        # the three kongs in one sentence, said where all three are known
        said_amount=Name(
            "杠：暗杠每家 %(kong_concealed)s，弯杠每家 %(kong_added)s，直杠由点杠者付 "
            "%(kong_direct)s",
            "Kongs: concealed (暗杠) %(kong_concealed)s from each, added (弯杠) %(kong_added)s "
            "from each, on a discard (直杠) %(kong_direct)s from the discarder",
        ),
    ),
    OptionSpec(
        "kong_added",
        "number",
        Name("弯杠", "Added kong (弯杠)"),
        _PAID_BY_EACH,
        "§3.5",
        1,
        amount=_FROM_EACH,
    ),
    OptionSpec(
        "kong_direct",
        "number",
        Name("直杠", "Kong on a discard (直杠)"),
        Name(
            "开杠时由被杠的点杠者当即支付，以底计",
            "Paid at once by the player whose discard was konged, in base units",
        ),
        "§3.5",
        1,
        {"chengdu": 2, "xuezhan9": 2, "tfmj2024": 2, "sbr": 2},
        amount=Name("点杠者付 %(n)s", "%(n)s from the discarder"),
    ),
    OptionSpec(
        "drizzle",
        "flag",
        Name("下毛毛雨", "Drizzle (下毛毛雨)"),
        Name(
            "直杠时其他每位未胡的玩家也各付 1",
            "A kong on a discard also takes 1 from each other player still in",
        ),
        "§3.5",
        False,
        values=(
            Value(
                True,
                said=Name(
                    "下雨：直杠另收其他每家 1",
                    "Drizzle (下雨): a kong on a discard also takes 1 from each other player",
                ),
            ),
        ),
    ),
    OptionSpec(
        "added_kong_same_turn",
        "flag",
        Name("弯杠须当轮开", "Added kong only on its turn"),
        Name(
            "弯杠若不在摸到那张牌的当轮开，就不收钱",
            "An added kong declared later than the turn its tile was drawn pays nothing",
        ),
        "§3.5",
        False,
        {"tfmj2024": True, "sbr": True},
        values=(
            Value(
                True,
                said=Name(
                    "弯杠须在摸到那张牌的当轮开，过后再开不收钱",
                    "Added kong (弯杠): declared later than the turn its tile was drawn, it "
                    "pays nothing",
                ),
            ),
        ),
    ),
    OptionSpec(
        "huazhu",
        "number",
        Name("花猪", "Flower pig (花猪)"),
        Name(
            "流局时，手里有三门牌的玩家赔给每位未胡且不是花猪的玩家多少",
            "At the draw, what a player holding three suits pays each player still in who is "
            "not a flower pig",
        ),
        "§3.5",
        16,
        {
            "chengdu": "cap",
            "xuezhan9": "chajiao_plus_fan",
            "tfmj2024": "not_ready",
            "sbr": "not_ready",
        },  # fmt: skip
        values=(
            Value(
                "cap",
                _THE_CAP,
                said=Name("花猪赔满格", "A flower pig (花猪) pays the cap (满格)"),
                asked=Name("满格", "The cap (满格)"),
            ),
            Value(
                "chajiao_plus_fan",
                Name("查叫再加一番", "ready check + 1 fan"),
                said=Name(
                    "花猪按查叫再加一番赔",
                    "A flower pig (花猪) pays the ready check’s (查叫) value plus one fan",
                ),
                asked=Name(
                    "每位听牌玩家的查叫番数再加一番",
                    "Each ready player’s value at the ready check (查叫), one fan more",
                ),
            ),
            Value(
                "not_ready",
                Name("按未听牌算", "counts as not ready"),
                said=Name(
                    "花猪按未听牌赔", "A flower pig (花猪) pays as a player who is not ready"
                ),
                asked=Name(
                    "没有固定赔付：按未听牌的玩家处理",
                    "Nothing fixed: he pays as a player who is not ready",
                ),
            ),
        ),
        minimum=0,
        amount=_TO_EACH,
        said_amount=Name("花猪赔每家 %(n)s", "A flower pig (花猪) pays %(n)s to each"),
        asked=Asked(
            Name(
                "流局时花猪付给每位未胡的玩家",
                "A flower pig (花猪) at the draw pays each player still in",
            )
        ),
    ),
    OptionSpec(
        "chajiao",
        "choice",
        Name("查叫", "Ready check (查叫)"),
        Name(
            "流局时，未听牌的玩家按听牌者最大（赔大）或最小（赔小）的叫赔给每位听牌者",
            "At the draw, a player who is not ready pays each ready player the value of his "
            "best (赔大) or his smallest (赔小) wait",
        ),
        "§3.5",
        "max",
        {"additive": "min"},
        values=(
            Value(
                "max",
                Name("赔大叫", "best wait (赔大叫)"),
                said=Name("查叫赔大叫", "Ready check (查叫): the best wait (赔大叫)"),
            ),
            Value(
                "min",
                Name("赔小叫", "smallest wait (赔小叫)"),
                said=Name("查叫赔小叫", "Ready check (查叫): the smallest wait (赔小叫)"),
            ),
            Value("off", Name("无", "none"), said=Name("不查叫", "No ready check (查叫)")),
        ),
    ),
    OptionSpec(
        "dead_wait_counts",
        "flag",
        Name("死叫算叫", "Dead wait counts (死叫算叫)"),
        Name(
            "所听的牌都已现在别处，仍算听牌",
            "A wait whose copies are all in sight elsewhere still counts as ready",
        ),
        "§3.5",
        True,
        values=(
            Value(
                False,
                said=Name(
                    "死叫不算叫：所听的牌已无剩余，不算听牌",
                    "Dead waits (死叫): a wait with no copy left does not count as ready",
                ),
            ),
        ),
    ),
    OptionSpec(
        "refund_kongs",
        "flag",
        Name("退税", "Kong refunds (退税)"),
        Name(
            "流局时，未听牌的玩家退还所收的杠钱",
            "At the draw, the players who are not ready return their kong income",
        ),
        "§3.5",
        True,
        values=(
            Value(True, said=Name("退税", "Kong refunds (退税): on")),
            Value(False, said=Name("不退税", "Kong refunds (退税): off")),
        ),
    ),
    OptionSpec(
        "kong_flower_after_direct",
        "choice",
        Name("引杠杠上花", "Kong flower after a kong on a discard (引杠杠上花)"),
        Name(
            "直杠后杠上开花：按自摸算，或按点炮算、由被杠的那家付",
            "A win on the replacement tile after a kong on a discard: paid as a self-draw, or "
            "as a discard win by the player whose discard was konged",
        ),
        "§3.5",
        "self_draw",
        {"additive": "discard"},
        values=(
            Value("self_draw", _SELF_DRAW_WIN),
            Value(
                "discard",
                Name("按点炮算", "as a discard win"),
                said=Name(
                    "引杠杠上花按点炮算，由被杠的那家付",
                    "A win on the replacement tile after a kong on a discard (引杠杠上花) is "
                    "paid as a discard win, by the player whose discard was konged",
                ),
            ),
        ),
    ),
    _element("daiyaojiu", "§3.5", True, dict.fromkeys(_NOT_IN_COMPETITION, False)),
    _element("jiangdui", "§3.5", True, dict.fromkeys(_NOT_IN_COMPETITION, False)),
    _element("jingoudiao", "§3.5", False, {"xuezhan9": True, "tfmj2024": True}),
    _element("haidi", "§3.5", False, {"xuezhan9": True, "tfmj2024": True, "sbr": True}),
    _element("juezhang", "§3.5", False),
    OptionSpec(
        "horse_eats_horse",
        "flag",
        Name("马吃马", "Horse eats horse (马吃马)"),
        Name(
            "叫马之间：买付钱一方的马，也赔给买收钱一方的每个马",
            "Between bettors (叫马): each bettor on the payer’s seat also pays each bettor on "
            "the payee’s seat",
        ),
        "§3.5",
        False,
        values=(
            Value(
                True,
                said=Name("叫马之间马吃马", "Horse eats horse (马吃马) between bettors (叫马)"),
            ),
        ),
    ),
    # the competition presets' options (RULES §3.8), added after descriptions were first stored
    OptionSpec(
        "kong_transfer",
        "choice",
        Name("呼叫转移", "Kong transfer (呼叫转移)"),
        Name(
            "杠后打出的牌被胡（杠上炮）时，这一杠的杠钱怎么处理",
            "What becomes of a kong’s income when the discard right after it is won on (杠上炮)",
        ),
        "§3.8, §4.4",
        "copy",
        {"tfmj2024": "chain_split", "sbr": "refund"},
        values=(
            Value(
                "copy",
                Name("每位胡家一整份", "a full copy to each winner"),
                said=Name(
                    "呼叫转移：杠后打出的牌被胡，杠钱转给胡家；一炮多响每家都得一整份",
                    "Kong transfer (呼叫转移): the kong’s income goes to the winner of the "
                    "discard after it; each of several winners gets a full copy",
                ),
                asked=Name(
                    "转给胡牌的人（呼叫转移；每位胡牌的人各得全部）",
                    "Handed to the winner (呼叫转移; each winner gets it all)",
                ),
            ),
            Value(
                "chain_split",
                Name("整串杠，平分", "the whole chain, split"),
                said=Name(
                    "呼叫转移：整串杠（杠上杠）的杠钱都转给胡家，一炮多响时平分",
                    "Kong transfer (呼叫转移): the income of the whole chain of kongs (杠上杠) "
                    "goes to the winners, split between several",
                ),
                asked=Name(
                    "连同它之前连着的杠（杠上杠）一起转出，胡牌的人平分",
                    "Handed on with the kongs it was made on (杠上杠), shared among the winners",
                ),
            ),
            Value(
                "refund",
                Name("改为退还", "refunded instead"),
                said=Name(
                    "杠上炮：不转移杠钱；点炮者把最近一杠收的钱退还给付钱的人",
                    "Win on the discard after a kong (杠上炮): no transfer; the discarder "
                    "returns his last kong’s income to those who paid it",
                ),
                asked=Name("退还给付杠钱的人", "Given back to those who paid it"),
            ),
        ),
        asked=Asked(
            Name("杠上炮时的杠钱", "A win on the discard after a kong (杠上炮): the kong’s money")
        ),
        earlier="copy",
    ),
    OptionSpec(
        "chajiao_kongs",
        "flag",
        Name("查叫时杠算根", "Kongs as roots at the ready check"),
        Name(
            "查叫算听牌者的牌时，他的杠算不算根；手里的四张相同的牌总算根",
            "Whether a ready player’s kongs count as roots when his ready check (查叫) is "
            "valued; four of a kind in the hand always count",
        ),
        "§3.8",
        True,
        {"sbr": False},
        # the usual value (true) says nothing
        values=(
            Value(
                False,
                said=Name(
                    "查叫：听牌的牌按不计杠为根来算",
                    "Ready check (查叫): a ready hand is valued without its kongs as roots",
                ),
            ),
        ),
        asked=Asked(Name("查叫时杠算根", "Kongs count as roots in the ready check (查叫)")),
        earlier=True,
    ),
    OptionSpec(
        "golden_wait",
        "flag",
        Name("单钓", "Golden Wait (单钓)"),
        Name(
            "对对胡单钓将牌胡牌加一番，不论碰杠了几组",
            "+1 step for an all-triplets hand won on its pair tile, whatever the number of melds",
        ),
        "§3.8",
        False,
        {"sbr": True},
        values=(
            Value(
                True,
                said=Name(
                    "单钓：对对胡单钓将牌胡牌，加一番",
                    "Golden Wait (单钓): +1 step for an all-triplets hand won on its pair tile",
                ),
            ),
        ),
        asked=Asked(
            Name(
                "单钓：全是刻子、单钓将牌胡牌，多加一番（倍数制为×2）",
                "Golden wait (单钓): all pungs won on the pair, one more step",
            )
        ),
        earlier=False,
    ),
    OptionSpec(
        "haidi_over_kong_discard",
        "flag",
        Name("海底优先于杠上炮", "Last tile (海底) before 杠上炮"),
        Name(
            "海底点炮时以海底代替杠上炮：不加杠上炮的番，杠钱既不转移也不退还",
            "On a discard win off the last tile, 海底 replaces 杠上炮: no 杠上炮 step, and the "
            "kong’s income is neither transferred nor refunded",
        ),
        "§3.8",
        False,
        {"sbr": True},
        values=(
            Value(
                True,
                said=Name(
                    "海底点炮：以海底代替杠上炮，杠钱不动",
                    "A discard win off the last tile: the last tile (海底) replaces the win "
                    "after a kong (杠上炮), and the kong’s income stays",
                ),
            ),
        ),
        asked=Asked(
            Name(
                "海底点炮时只算海底，不算杠上炮",
                "On the last tile’s discard, the last-tile win (海底) replaces the kong’s "
                "discard (杠上炮)",
            )
        ),
        earlier=False,
    ),
    OptionSpec(
        "tianhu_dihu",
        "flag",
        Name("天胡、地胡", "Heavenly and earthly hands (天胡, 地胡)"),
        Name(
            "天胡、地胡是否按番型计；不计时按牌型本身算",
            "Whether 天胡 and 地胡 score as patterns; if not, the hand is valued by its shape",
        ),
        "§3.8",
        True,
        {"tfmj2024": False},
        values=(
            Value(
                True,
                said=Name(
                    "天胡、地胡按番型计",
                    "Heavenly and earthly hands (天胡, 地胡) are scored as patterns",
                ),
            ),
            Value(
                False,
                said=Name(
                    "天胡、地胡不计：按牌型本身算",
                    "Heavenly and earthly hands (天胡, 地胡) are not scored: the hand counts as "
                    "it is",
                ),
            ),
        ),
        asked=Asked(
            Name("天胡、地胡算番型", "Heavenly and earthly wins (天胡, 地胡) score as patterns")
        ),
        earlier=True,
    ),
    OptionSpec(
        "false_win",
        "number",
        Name("诈胡", "False win (诈胡)"),
        Name(
            "诈胡者赔给其他每位未胡的玩家多少；他还要退还所收的杠钱",
            "What a false win costs the offender, to each other player still in; he also "
            "returns his kong income",
        ),
        "§3.8, §4.9",
        "huazhu",
        {"xuezhan9": "cap", "tfmj2024": "cap", "sbr": 8},
        values=(
            Value(
                "huazhu",
                Name("按花猪赔", "what a flower pig pays"),
                said=Name(
                    "诈胡：按花猪的赔法，赔给其他每位未胡的玩家",
                    "A false win (诈胡) costs what a flower pig (花猪) pays, to each other "
                    "player still in",
                ),
                asked=Name("花猪的赔付额", "What a flower pig pays"),
            ),
            Value(
                "cap",
                _THE_CAP,
                said=Name(
                    "诈胡：赔满格给其他每位未胡的玩家",
                    "A false win (诈胡) costs the cap (满格) to each other player still in",
                ),
                asked=Name("封顶胡牌的数额", "A win at the cap"),
            ),
        ),
        # 0 would make a false win free: RULES §4.9 makes the offender pay
        minimum=1,
        amount=_TO_EACH,
        said_amount=Name(
            "诈胡：赔 %(n)s 给其他每位未胡的玩家",
            "A false win (诈胡) costs %(n)s to each other player still in",
        ),
        asked=Asked(Name("诈胡付给每位未胡的玩家", "A false win (诈胡) pays each player still in")),
        earlier=implied_false_win,
    ),
)

#: the order a ruleset's words say its options in (the rest after them, in their own order);
#: a yes/no option that switches an element is said with the others, where the first is
SAID_ORDER = (
    "mode", "cap", "self_draw_bonus", "kong_concealed", "kong_added", "kong_direct", "drizzle",
    "added_kong_same_turn", "kong_transfer", "huazhu", "chajiao", "chajiao_kongs",
    "dead_wait_counts", "refund_kongs", "daiyaojiu", "jiangdui", "jingoudiao", "haidi",
    "juezhang", "golden_wait", "haidi_over_kong_discard", "tianhu_dihu",
    "kong_flower_after_direct", "false_win", "horse_eats_horse",
)  # fmt: skip
#: the order a form asks for its options in (the rest after them, in their own order)
ASKED_ORDER = (
    "cap", "kong_transfer", "huazhu", "false_win", "chajiao_kongs", "golden_wait",
    "haidi_over_kong_discard", "tianhu_dihu",
)  # fmt: skip

#: every option by key, in the order of :data:`DECLARED` (and then of :func:`declare`)
OPTION_SPECS: dict[str, OptionSpec] = {spec.key: spec for spec in DECLARED}


def in_order(order: tuple[str, ...]) -> list[OptionSpec]:
    """Every option, those ``order`` names first in its order, then the rest."""
    first = [OPTION_SPECS[key] for key in order if key in OPTION_SPECS]
    return first + [spec for spec in OPTION_SPECS.values() if spec.key not in order]


def said_options() -> list[OptionSpec]:
    return in_order(SAID_ORDER)


def asked_options() -> list[OptionSpec]:
    """The options the forms ask for, in their order."""
    return [spec for spec in in_order(ASKED_ORDER) if spec.asked is not None]
