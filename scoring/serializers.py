"""Input and output shapes of the stateless engine endpoints (documentation and schema).

The engine parses its own input, so every refusal carries its code and a path into the JSON;
these serializers describe the shapes for the OpenAPI schema. Outputs are the engine's own
``as_dict()``, written out as they are (``tests/scoring/test_engine_api.py`` checks that each
answer has exactly the fields declared here).
"""

from __future__ import annotations

from rest_framework import serializers

from scoring.engine import SITUATIONS
from scoring.engine.bounds import MAX_BASE
from scoring.engine.settle import REASON_NAMES, SETTLEMENT_FORMAT


class MeldSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["pung", "kong"])
    tile = serializers.CharField(help_text='one tile, e.g. "5p" or "5筒"')
    concealed = serializers.BooleanField(default=False, help_text="暗杠 (concealed kong)")


class RulesetField(serializers.JSONField):
    """A preset name ("qq", "chengdu", "additive", "xuezhan9") or {"preset", "options"}."""


class EvaluateInputSerializer(serializers.Serializer):
    ruleset = RulesetField(required=False, help_text='preset name or {"preset", "options"}')
    concealed = serializers.CharField(help_text="concealed tiles before the winning tile")
    melds = MeldSerializer(many=True, required=False)
    winning_tile = serializers.CharField()
    self_draw = serializers.BooleanField(default=False)
    situation = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SITUATIONS)), required=False
    )
    declared_void = serializers.ChoiceField(
        choices=["m", "p", "s"], required=False, allow_null=True
    )


class LineSerializer(serializers.Serializer):
    code = serializers.CharField()
    zh = serializers.CharField()
    en = serializers.CharField()
    fan = serializers.IntegerField(required=False, help_text="fan presets: fan of this line")
    multiple = serializers.IntegerField(
        required=False, help_text="chengdu: the base multiple, then a factor per extra (×2)"
    )
    points = serializers.IntegerField(required=False, help_text="additive: points of this line")
    value = serializers.IntegerField(
        required=False, help_text="self-draw bonus added to the value after the cap"
    )


class EvaluateOutputSerializer(serializers.Serializer):
    win = serializers.BooleanField()
    reason = serializers.CharField(required=False, help_text="why the hand is not a win")
    pattern = serializers.CharField(required=False)
    patterns = serializers.ListField(child=serializers.CharField(), required=False)
    roots = serializers.IntegerField()
    fan = serializers.IntegerField(allow_null=True, required=False)
    unit = serializers.CharField(required=False)
    total = serializers.IntegerField(required=False)
    value = serializers.IntegerField(required=False)
    capped = serializers.BooleanField(required=False)
    lines = LineSerializer(many=True, required=False)
    ruleset = serializers.CharField(required=False, help_text="fingerprint of the ruleset")


class WaitsInputSerializer(serializers.Serializer):
    ruleset = RulesetField(required=False)
    concealed = serializers.CharField(help_text="13 effective tiles with the melds")
    melds = MeldSerializer(many=True, required=False)
    declared_void = serializers.ChoiceField(
        choices=["m", "p", "s"], required=False, allow_null=True
    )
    visible = serializers.CharField(
        required=False, help_text="tiles seen elsewhere (discards, others' melds), for 死叫/绝张"
    )


class WaitSerializer(serializers.Serializer):
    tile = serializers.CharField()
    pattern = serializers.CharField()
    roots = serializers.IntegerField()
    fan = serializers.IntegerField(allow_null=True)
    value = serializers.IntegerField()
    self_draw_value = serializers.IntegerField()
    remaining = serializers.IntegerField(allow_null=True)
    dead = serializers.BooleanField()


class WaitsOutputSerializer(serializers.Serializer):
    ready = serializers.BooleanField()
    huazhu = serializers.BooleanField()
    waits = WaitSerializer(many=True)
    chajiao_value = serializers.IntegerField(allow_null=True)
    ruleset = serializers.CharField()


# --- rulesets ----------------------------------------------------------------------------------


class NameSerializer(serializers.Serializer):
    zh = serializers.CharField()
    en = serializers.CharField()


class PatternRowSerializer(serializers.Serializer):
    code = serializers.CharField()
    zh = serializers.CharField()
    en = serializers.CharField()
    value = serializers.IntegerField(help_text="in the curve's unit: fan, multiple or points")
    roots_included = serializers.IntegerField(help_text="根 the pattern already counts")
    option = serializers.CharField(allow_null=True, help_text="the toggle that switches it on")


class ExtraRowSerializer(serializers.Serializer):
    code = serializers.CharField()
    zh = serializers.CharField()
    en = serializers.CharField()
    steps = serializers.IntegerField(help_text="steps of the curve: +1 fan, ×2 or +1 point each")


class RulesetDescriptionSerializer(serializers.Serializer):
    """A ruleset's complete description: what its fingerprint hashes and a snapshot pins."""

    preset = serializers.CharField()
    version = serializers.IntegerField(
        help_text="the preset's version: a changed table is a new one"
    )
    title = NameSerializer()
    source = serializers.CharField()
    curve = serializers.ChoiceField(choices=["fan", "multiple", "points"])
    unit = serializers.CharField()
    fan_offset = serializers.IntegerField()
    patterns = PatternRowSerializer(many=True)
    extras = ExtraRowSerializer(many=True)
    pattern_extras = serializers.ListField(child=serializers.CharField())
    next_dealer = serializers.CharField()
    robbing_pays_kong = serializers.BooleanField()
    session_multipliers = serializers.BooleanField(help_text="黄庄加倍 and 连庄 across hands")
    options = serializers.DictField(help_text="every option's value (RULES §3.5)")
    defaults = serializers.DictField(help_text="the preset's own value of every option")


class DeclaredPatternSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = NameSerializer()
    value = serializers.IntegerField(help_text="total in the ruleset's unit at min_roots")
    paid = serializers.IntegerField(
        help_text="what each payer pays at base 1 for it on a discard win (cap applied)"
    )
    min_roots = serializers.IntegerField()
    max_roots = serializers.IntegerField()
    situation = serializers.CharField(
        allow_null=True, help_text="the situation flag it needs (天胡 heavenly, 地胡 earthly)"
    )
    melds = serializers.IntegerField(help_text="4: needs the four melds listed (金钩钓)")
    wait = serializers.BooleanField(help_text="may be a ready player's wait at the draw")


class DeclaredExtraSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = NameSerializer()
    steps = serializers.IntegerField()
    melds = serializers.IntegerField(help_text="4: needs the four melds listed (金钩钓)")


class DeclaredSituationSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="a situation flag of a win event")
    name = NameSerializer()
    steps = serializers.IntegerField(help_text="steps it adds (0: it changes who pays)")


class DrawDeclarationSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="huazhu, not_ready or ready")
    name = NameSerializer()
    needs_wait = serializers.BooleanField()


class DeclarationMenuSerializer(serializers.Serializer):
    """What a scorer may declare under the ruleset (RULES §6): a winner's base pattern, roots,
    extras and situation flags; a player at the draw."""

    ruleset = serializers.CharField(help_text="fingerprint")
    preset = serializers.CharField()
    unit = serializers.CharField()
    root_steps = serializers.IntegerField(help_text="steps of the curve each further root adds")
    patterns = DeclaredPatternSerializer(many=True)
    extras = DeclaredExtraSerializer(many=True)
    situations = DeclaredSituationSerializer(many=True)
    draw = DrawDeclarationSerializer(many=True)


class PresetSerializer(RulesetDescriptionSerializer):
    name = serializers.CharField()
    default = serializers.BooleanField(help_text="the preset used when none is named")
    fingerprint = serializers.CharField()
    declarations = DeclarationMenuSerializer()


class OptionValueSerializer(serializers.Serializer):
    value = serializers.JSONField(
        allow_null=True, help_text="the value as a ruleset spec gives it (null: no cap)"
    )
    zh = serializers.CharField()
    en = serializers.CharField()


class OptionSchemaSerializer(serializers.Serializer):
    """One option as the engine declares it (``scoring.engine.options``)."""

    key = serializers.CharField()
    type = serializers.ChoiceField(
        choices=["choice", "boolean", "integer"],
        help_text="a choice of values; true or false; a whole number (which may also take "
        "the words of `values`, or null where `nullable`)",
    )
    nullable = serializers.BooleanField(help_text="null is a value (no cap)")
    name = NameSerializer(help_text="what the option is called")
    meaning = NameSerializer(help_text="what it means, whatever its value")
    values = OptionValueSerializer(many=True, help_text="its named values, with their names")
    rules = serializers.CharField(help_text="the RULES sections it implements (§3.5 …)")
    allowed = serializers.JSONField(help_text="a list of values, or a description of them")
    minimum = serializers.IntegerField(
        allow_null=True, help_text="the smallest number allowed; null: not a number"
    )
    maximum = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="preset name: the largest number allowed (the cap's depends on the curve)",
    )
    defaults = serializers.DictField(help_text="preset name: its default")


class PresetListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = PresetSerializer(many=True)
    options = OptionSchemaSerializer(many=True)


class ResolveInputSerializer(serializers.Serializer):
    ruleset = RulesetField(help_text='preset name or {"preset", "options"}')


class ResolvedRulesetSerializer(RulesetDescriptionSerializer):
    spec = serializers.JSONField(help_text="the smallest spec that resolves to it again")
    fingerprint = serializers.CharField()
    declarations = DeclarationMenuSerializer()


# --- settle ------------------------------------------------------------------------------------


class HandRecordSerializer(serializers.Serializer):
    """A hand record (RULES §4): the rules, the dealer, what happened, and 叫马 bettors."""

    ruleset = RulesetField(required=False)
    base = serializers.IntegerField(min_value=1, max_value=MAX_BASE, required=False, default=1)
    mode = serializers.ChoiceField(choices=["xuezhan", "single"], required=False)
    dealer = serializers.IntegerField(min_value=0, max_value=3, required=False, default=0)
    declared_void = serializers.JSONField(required=False, help_text="four suits or nulls")
    events = serializers.JSONField(
        help_text="kongs, wins and false wins, in order; a kong may carry on_replacement "
        "(杠上杠, RULES §4.4); a winner is shown {seat, concealed, melds} or "
        'declared {seat, "declared": {pattern, roots, extras}, melds?} (RULES §6); a win whose '
        'winners are all declared may leave out its tile; {"type": "false_win", "seat"} is a '
        "诈胡 (RULES §4.9)"
    )
    draw = serializers.JSONField(
        required=False,
        help_text='流局: {"hands": {seat: {concealed, melds}}}; a player may be declared '
        '{"declared": "huazhu" | "not_ready"} or {"declared": "ready", "wait": {pattern, '
        "roots, extras}}",
    )
    bettors = serializers.JSONField(required=False, help_text='[{"name", "tile"}]')
    session = serializers.JSONField(required=False, help_text="draws_before, dealer_streak")


class WinResultSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    seat = serializers.IntegerField()
    tile = serializers.CharField(
        allow_null=True, help_text="the winning tile; null: a declared win recorded without it"
    )
    self_draw = serializers.BooleanField()
    pattern = serializers.CharField()
    patterns = serializers.ListField(child=serializers.CharField())
    roots = serializers.IntegerField()
    fan = serializers.IntegerField(allow_null=True)
    unit = serializers.CharField()
    total = serializers.IntegerField()
    value = serializers.IntegerField()
    capped = serializers.BooleanField()
    lines = LineSerializer(many=True)
    amount = serializers.IntegerField(help_text="what each payer pays this winner for the win")
    verified = serializers.BooleanField(
        help_text="shown by his tiles; false: declared (RULES §6), valued from the declaration"
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # ``from`` is a Python keyword, so it cannot be declared as a class attribute
        fields["from"] = serializers.IntegerField(
            allow_null=True, help_text="the discarder; null for a self-draw"
        )
        return fields


class EnginePaymentSerializer(serializers.Serializer):
    payer = serializers.CharField(help_text='"S0"–"S3" (seats) or "B0"… (bettors)')
    payee = serializers.CharField()
    amount = serializers.IntegerField()
    reason = serializers.ChoiceField(
        choices=list(REASON_NAMES),
        help_text="why: " + "; ".join(f"{c} {n.zh} ({n.en})" for c, n in REASON_NAMES.items()),
    )
    event = serializers.IntegerField(allow_null=True, help_text="null: the draw stage")
    mirrors = serializers.IntegerField(
        required=False, help_text="a bettor's payment: the index of the seat payment it follows"
    )


class TotalsSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField())
    bettors = serializers.ListField(child=serializers.IntegerField())


class DrawWaitSerializer(serializers.Serializer):
    tile = serializers.CharField()
    pattern = serializers.CharField()
    value = serializers.IntegerField()
    dead = serializers.BooleanField()


class DrawSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    huazhu = serializers.BooleanField()
    ready = serializers.BooleanField()
    waits = DrawWaitSerializer(many=True)
    chajiao_value = serializers.IntegerField(allow_null=True)
    verified = serializers.BooleanField(
        help_text="shown by his tiles; false: declared huazhu, not_ready or ready (no waits)"
    )


class BoundBettorSerializer(serializers.Serializer):
    name = serializers.CharField()
    tile = serializers.CharField()
    seat = serializers.IntegerField(help_text="the seat his tile counts to from the dealer")


class SettlementSerializer(serializers.Serializer):
    format = serializers.IntegerField(
        help_text=f"the version of this form ({SETTLEMENT_FORMAT}; a form without it is 1: "
        "stored before 杠钱归胡家 had its own reason kong_to_winner, read as it)"
    )
    ruleset = serializers.CharField(help_text="fingerprint of the rules that settled it")
    preset = serializers.CharField()
    base = serializers.IntegerField()
    mode = serializers.CharField()
    dealer = serializers.IntegerField()
    multiplier = serializers.IntegerField(help_text="session doubling (黄庄加倍, 连庄)")
    wins = WinResultSerializer(many=True)
    payments = EnginePaymentSerializer(many=True)
    totals = TotalsSerializer()
    draw = DrawSeatSerializer(many=True, allow_null=True)
    bettors = BoundBettorSerializer(many=True)
    next_dealer = serializers.IntegerField(allow_null=True)
    finished = serializers.BooleanField()
    verified = serializers.BooleanField(
        help_text="false when any winner or player at the draw was declared (RULES §6)"
    )
