"""Input and output shapes of the tournaments API."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.limits import BASE, SCORE
from clubs.models import ConfirmationRule, TableSession
from clubs.serializers import VisibleClubField, VisiblePlayerField
from core.columns import Column, Table
from core.names import Name
from tournaments.models import (
    Penalty,
    Registration,
    Round,
    RoundUnlock,
    SubstituteCounts,
    Substitution,
    Tournament,
)
from tournaments.readmodels import (
    ReportLine,
    RoundCell,
    RoundDetail,
    RoundProgress,
    StandingRow,
    StandingsTable,
)
from tournaments.selectors import players_visible_to
from tournaments.standings import DEFAULT_TIEBREAKS, TIEBREAKS


def fraction_text(value: Fraction) -> str:
    """A fraction as people write points: 3, 2.5, 7/3."""
    return _points_text(value.numerator, value.denominator)


@lru_cache(maxsize=4096)
def _points_text(numerator: int, denominator: int) -> str:
    if denominator == 1:
        return str(numerator)
    if 100 % denominator == 0:
        return f"{numerator / denominator:g}"
    return f"{numerator}/{denominator}"


@extend_schema_field(OpenApiTypes.STR)
class FractionField(serializers.Field):
    """Exact points, written as people write them (``fraction_text``)."""

    def to_representation(self, value: Fraction) -> str:
        return fraction_text(value)


class TournamentInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=56)
    club = VisibleClubField(
        required=False, allow_null=True, help_text="host club slug; you must organise it"
    )
    rounds = serializers.IntegerField(min_value=1, max_value=100)
    hands_per_table = serializers.IntegerField(min_value=1, max_value=100, default=8)
    ruleset = serializers.JSONField(required=False, help_text="default: the club's ruleset")
    base = serializers.IntegerField(default=1, **BASE)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, default="xuezhan")
    placement_points = serializers.JSONField(required=False, help_text="default [4, 2, 1, 0]")
    tiebreaks = serializers.JSONField(
        required=False, help_text=f"default {list(DEFAULT_TIEBREAKS)}"
    )
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, default="balanced")
    seed = serializers.IntegerField(default=0, min_value=0, max_value=2**53)
    bye_points = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True
    )
    bye_table_score = serializers.IntegerField(default=0, **SCORE)
    is_public = serializers.BooleanField(default=True)
    check_in = serializers.BooleanField(
        default=False, help_text="a round seats only the entries checked in"
    )
    round_minutes = serializers.IntegerField(
        min_value=1, max_value=600, required=False, allow_null=True, default=None,
        help_text="a round's time on the clock; null: no clock",
    )  # fmt: skip
    approve_gate = serializers.BooleanField(
        default=False, help_text="a done table counts only once the scorekeeper approved it"
    )
    hide_last_rounds = serializers.IntegerField(
        min_value=0, max_value=99, default=0,
        help_text="players see no result of the last N rounds until the standings are revealed",
    )  # fmt: skip
    substitute_counts = serializers.ChoiceField(
        choices=SubstituteCounts.choices, default="registered",
        help_text="whose result a substitute's table is (standings, ratings, statistics)",
    )  # fmt: skip
    confirmation_rule = serializers.ChoiceField(
        choices=[("", "the club's"), *ConfirmationRule.choices], default="",
        help_text="when a hand at its tables counts: shown, three or two (see the club's "
        "setting); empty: the club's rule",
    )  # fmt: skip
    finals_players = serializers.ChoiceField(
        choices=[(0, "0"), (4, "4"), (8, "8"), (16, "16")], default=0,
        help_text="the top 4, 8 or 16 play the last rounds as finals; 0: no finals",
    )  # fmt: skip
    finals_rounds = serializers.IntegerField(
        min_value=1, max_value=10, default=1, help_text="how many of the last rounds are finals"
    )
    finals_carry = serializers.BooleanField(
        default=True, help_text="finals rank by all points (true) or the finals' points alone"
    )
    consolation = serializers.BooleanField(
        default=True, help_text="the others play on at their own tables during the finals"
    )


class TournamentUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    rounds = serializers.IntegerField(min_value=1, max_value=100, required=False)
    hands_per_table = serializers.IntegerField(min_value=1, max_value=100, required=False)
    ruleset = serializers.JSONField(required=False)
    base = serializers.IntegerField(required=False, **BASE)
    mode = serializers.ChoiceField(choices=TableSession.Mode.choices, required=False)
    placement_points = serializers.JSONField(required=False)
    tiebreaks = serializers.JSONField(required=False)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**53, required=False)
    bye_points = serializers.DecimalField(
        max_digits=6, decimal_places=2, required=False, allow_null=True
    )
    bye_table_score = serializers.IntegerField(required=False, **SCORE)
    is_public = serializers.BooleanField(required=False)
    check_in = serializers.BooleanField(required=False)
    round_minutes = serializers.IntegerField(
        min_value=1, max_value=600, required=False, allow_null=True
    )
    hide_last_rounds = serializers.IntegerField(min_value=0, max_value=99, required=False)
    approve_gate = serializers.BooleanField(required=False)
    substitute_counts = serializers.ChoiceField(choices=SubstituteCounts.choices, required=False)
    confirmation_rule = serializers.ChoiceField(
        choices=[("", "the club's"), *ConfirmationRule.choices], required=False
    )
    finals_players = serializers.ChoiceField(
        choices=[(0, "0"), (4, "4"), (8, "8"), (16, "16")], required=False
    )
    finals_rounds = serializers.IntegerField(min_value=1, max_value=10, required=False)
    finals_carry = serializers.BooleanField(required=False)
    consolation = serializers.BooleanField(required=False)
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class TournamentOutSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")
    ruleset = serializers.JSONField(source="ruleset.spec")
    ruleset_fingerprint = serializers.CharField(source="ruleset.fingerprint")
    bye_points = serializers.SerializerMethodField()
    rounds_seated = serializers.IntegerField(read_only=True, default=None)
    players = serializers.IntegerField(read_only=True, default=None)

    class Meta:
        model = Tournament
        fields = ["name", "slug", "club", "hosted", "status", "is_public", "rounds",
                  "rounds_seated", "players", "hands_per_table", "ruleset", "ruleset_fingerprint",
                  "base", "mode", "placement_points", "tiebreaks", "seating", "seed",
                  "bye_points", "bye_table_score", "check_in", "round_minutes",
                  "hide_last_rounds", "standings_revealed", "approve_gate",
                  "substitute_counts", "confirmation_rule", "finals_players", "finals_rounds",
                  "finals_carry", "consolation", "created_at"]  # fmt: skip

    def get_bye_points(self, t: Tournament) -> str:
        return fraction_text(t.bye_fraction)


class EntrantField(VisiblePlayerField):
    """A player by id among those the caller sees in clubs and in tournaments."""

    visible_to = staticmethod(players_visible_to)


class RegistrationInSerializer(serializers.Serializer):
    player = EntrantField(required=False)
    name = serializers.CharField(max_length=80, required=False, default="")
    new_player = serializers.BooleanField(
        required=False, default=False, help_text="the name is someone new, not a player it matches"
    )
    seed_rating = serializers.IntegerField(required=False, allow_null=True, **SCORE)
    pinned_table = serializers.IntegerField(
        min_value=1, max_value=1_000, required=False, allow_null=True
    )


class RegistrationUpdateSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Registration.Status.choices, required=False)
    first_round = serializers.IntegerField(
        min_value=1, max_value=100, required=False,
        help_text="a late entry plays from this round on (one not seated yet)",
    )  # fmt: skip
    checked_in = serializers.BooleanField(required=False, help_text="here on the day (签到)")
    seed_rating = serializers.IntegerField(required=False, allow_null=True, **SCORE)
    pinned_table = serializers.IntegerField(
        min_value=1, max_value=1_000, required=False, allow_null=True
    )


class RegistrationOutSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Registration
        fields = ["player", "name", "club_name", "seed_rating", "status", "checked_in",
                  "first_round", "withdrawn_after", "pinned_table", "created_at"]  # fmt: skip


class RoundOutSerializer(serializers.Serializer):
    """A round with its progress (``tournaments.readmodels.RoundProgress``)."""

    number = serializers.IntegerField(source="round.number")
    status = serializers.ChoiceField(choices=Round.Status.choices, source="round.status")
    method = serializers.ChoiceField(choices=Tournament.Seating.choices, source="round.method")
    byes = serializers.ListField(child=serializers.IntegerField(), source="round.byes")
    quality = serializers.DictField(source="round.quality")
    seated_at = serializers.DateTimeField(source="round.seated_at", allow_null=True)
    task = serializers.SerializerMethodField()
    table_count = serializers.IntegerField(source="tables")
    tables_with_result = serializers.IntegerField()

    def get_task(self, p: RoundProgress | RoundDetail) -> str | None:
        return f"/api/v1/tasks/{p.round.task_id}" if p.round.task_id else None


class TableSeatOutSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField(allow_null=True, help_text="null until the table has one")


class TableOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    id = serializers.IntegerField()
    session = serializers.IntegerField(help_text="the table's session: record its hands there")
    has_result = serializers.BooleanField()
    seats = TableSeatOutSerializer(many=True, help_text="in seat order; seat 0 deals first")


class ByeOutSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()


class RoundDetailSerializer(RoundOutSerializer):
    """A round with its tables and byes (``tournaments.readmodels.RoundDetail``)."""

    tables = TableOutSerializer(many=True, source="table_rows")
    byes = ByeOutSerializer(many=True, source="bye_rows")


class ClockStartInSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=1, max_value=600, required=False, allow_null=True, default=None,
        help_text="default: the tournament's round_minutes",
    )  # fmt: skip


class ClockExtendInSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=120)
    table = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True, default=None,
        help_text="one table's number; null: every table",
    )  # fmt: skip


class ClockOutSerializer(serializers.Serializer):
    """A round's clock: when it started and when it ends, for every table and for each table
    given time of its own."""

    round = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    minutes = serializers.IntegerField()
    extra = serializers.IntegerField(help_text="minutes added for every table")
    ends_at = serializers.SerializerMethodField()
    tables = serializers.SerializerMethodField(help_text="table number → its own end")

    def get_ends_at(self, clock) -> str:
        return serializers.DateTimeField().to_representation(clock.ends_at())

    @extend_schema_field(serializers.DictField(child=serializers.DateTimeField()))
    def get_tables(self, clock) -> dict[str, str]:
        field = serializers.DateTimeField()
        return {str(n): field.to_representation(clock.ends_at(n)) for n in clock.table_extra}


class UnlockInSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, help_text="why the round is unlocked (kept)")


class ReseatInSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, help_text="why the round is seated again (kept)")


class DisputeInSerializer(serializers.Serializer):
    words = serializers.CharField(max_length=200, help_text="what is disputed, or how resolved")


class DisputeOutSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="number")
    disputed = serializers.SerializerMethodField()
    dispute = serializers.CharField()
    resolution = serializers.CharField(source="dispute_resolution")

    def get_disputed(self, table) -> bool:
        return table.disputed_at is not None


class TableCardOutSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="number")
    url = serializers.CharField(help_text="opens the table for its scorer until the round locks")


class SubstituteInSerializer(serializers.Serializer):
    absent = serializers.IntegerField(help_text="the registered player seated at the table")
    substitute = EntrantField(required=False, allow_null=True, default=None)
    name = serializers.CharField(
        max_length=80, required=False, default="", allow_blank=True,
        help_text="a new player's name, instead of substitute",
    )  # fmt: skip
    reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


class SubstitutionOutSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="table.round.number")
    table = serializers.IntegerField(source="table.number")
    absent = serializers.IntegerField(source="absent_id")
    absent_name = serializers.CharField(source="absent.name")
    substitute = serializers.IntegerField(source="substitute_id")
    substitute_name = serializers.CharField(source="substitute.name")
    made_by = serializers.CharField(source="made_by.username", default=None)

    class Meta:
        model = Substitution
        fields = ["id", "round", "table", "absent", "absent_name", "substitute",
                  "substitute_name", "reason", "made_by", "made_at"]  # fmt: skip


class PenaltyInSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="an entered player's id")
    points = serializers.IntegerField(min_value=1, max_value=1000, help_text="placement points")
    reason = serializers.ChoiceField(choices=Penalty.Reason.choices)
    words = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    round = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True, default=None,
        help_text="the round it is for; null: the tournament as a whole",
    )  # fmt: skip


class PenaltyRevokeInSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, help_text="why it is revoked (kept)")


class PenaltyOutSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    given_by = serializers.CharField(source="given_by.username", default=None)
    revoked_by = serializers.CharField(source="revoked_by.username", default=None)
    in_force = serializers.BooleanField()

    class Meta:
        model = Penalty
        fields = ["id", "player", "name", "round", "points", "reason", "words", "in_force",
                  "given_by", "given_at", "revoked_by", "revoked_at", "revoke_reason"]  # fmt: skip


class RoundUnlockOutSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    unlocked_by = serializers.CharField(source="unlocked_by.username", default=None)

    class Meta:
        model = RoundUnlock
        fields = ["round", "reason", "unlocked_by", "unlocked_at"]


class TableScoreInSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    score = serializers.IntegerField(**SCORE)


class TableResultInSerializer(serializers.Serializer):
    scores = TableScoreInSerializer(many=True)


class TaskAcceptedSerializer(serializers.Serializer):
    """The answer to a POST that starts a task (202)."""

    task = serializers.CharField(help_text="URL to poll: GET /api/v1/tasks/{id}")
    task_id = serializers.CharField()
    round = serializers.IntegerField(required=False)


# --- standings ---------------------------------------------------------------------------------


class RoundCellSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="null for a bye")
    table_score = serializers.IntegerField()
    placement_points = FractionField()
    place = FractionField(allow_null=True, help_text="shared places average: 1.5")
    bye = serializers.BooleanField()


def _round_cells(cells: tuple[RoundCell, ...]) -> list[dict[str, Any]]:
    """A row's rounds as :class:`RoundCellSerializer` writes them (written out: a thousand rows
    of ten rounds through field objects take a quarter of a second)."""
    text = fraction_text
    return [
        {"round": c.round, "table": c.table, "table_score": c.table_score,
         "placement_points": text(c.placement_points),
         "place": None if c.place is None else text(c.place), "bye": c.bye}
        for c in cells
    ]  # fmt: skip


def _round_scores(row: StandingRow) -> list[tuple[str, int | str]]:
    """The CSV's column per round: the table score, or ``bye``."""
    return [(f"R{c.round}", "bye" if c.bye else c.table_score) for c in row.rounds]


def _tiebreak(code: str) -> Name:
    return TIEBREAKS[code].name


#: the standings' columns, declared once (``core.columns``): the API's rows and their schema,
#: the CSV (then a column per round) and the standings pages' columns of figures (their
#: heading and ``format``: ``pages.tournaments.views``) read them
STANDINGS: Table[StandingRow] = Table("StandingRow", (
    Column("rank"),
    Column("shared", kind="bool", help="the rank is shared with another player"),
    Column("player"),
    Column("name", kind="str"),
    Column("placement_points", _tiebreak("placement_points"), kind=FractionField,
           json=fraction_text, format="points", help="exact: 3, 2.5, 7/3"),
    Column("table_score", _tiebreak("table_score"), format="signed"),
    Column("first_places", _tiebreak("first_places")),
    Column("best_table_score", _tiebreak("best_table_score"), null=True,
           format="signed_or_dash"),
    Column("head_to_head", _tiebreak("head_to_head"), format="head_to_head"),
    Column("rounds_played"),
    Column("byes"),
    Column("withdrawn", kind="bool"),
    Column("penalty", _("Penalty (罚分)"), format="penalty",
           help="placement points the referee took off (placement_points is after them)"),
    Column("final_points", _("Finals (决赛)"), kind=FractionField, null=True, json=fraction_text,
           format="final", help="a finalist's placement points in the final rounds; null: "
           "not a finalist (finalists rank first)"),
    Column("rounds", kind=lambda **kw: RoundCellSerializer(many=True, **kw), json=_round_cells,
           csv=False),
), csv_more=_round_scores)  # fmt: skip
StandingRowSerializer = STANDINGS.serializer


class TiebreakNameSerializer(serializers.Serializer):
    code = serializers.CharField()
    zh = serializers.CharField()
    en = serializers.CharField()


class StandingsOutSerializer(serializers.Serializer):
    """The latest standings (``tournaments.readmodels.StandingsTable``)."""

    version = serializers.IntegerField(help_text="0 before the first computation")
    computed_at = serializers.DateTimeField(allow_null=True)
    rounds_complete = serializers.IntegerField()
    tables_counted = serializers.IntegerField()
    tiebreaks = serializers.SerializerMethodField(help_text="the chain that ordered them")
    hidden_after = serializers.IntegerField(
        allow_null=True,
        help_text="while the last rounds are hidden: the last round these standings count "
        "(a director reads them whole, with this set); null: nothing hidden",
    )
    standings = StandingRowSerializer(many=True, source="rows")

    @extend_schema_field(TiebreakNameSerializer(many=True))
    def get_tiebreaks(self, table: StandingsTable) -> list[dict[str, str]]:
        return [{"code": code, **TIEBREAKS[code].name.as_dict()} for code in table.tiebreaks]

    def to_representation(self, table: StandingsTable) -> dict[str, Any]:
        # What the declared fields give (the reference, and the schema's source), written out
        # directly: a thousand rows of ten rounds through field objects take a quarter of a
        # second; the rows by their columns (``STANDINGS.data``). tests/tournaments/test_api.py
        # checks the two agree.
        computed = table.computed_at
        row = STANDINGS.data
        return {
            "version": table.version,
            "computed_at": None if computed is None else _DATETIME.to_representation(computed),
            "rounds_complete": table.rounds_complete,
            "tables_counted": table.tables_counted,
            "tiebreaks": self.get_tiebreaks(table),
            "hidden_after": table.hidden_after,
            "standings": [row(r) for r in table.rows],
        }


#: how a time is written (in the current time zone, as the declared field does)
_DATETIME = serializers.DateTimeField()


def standings_csv_rows(table: StandingsTable) -> list[dict[str, Any]]:
    """One flat row per player, a column per round (its table score, or ``bye``)."""
    row = STANDINGS.csv_row
    return [row(r) for r in table.rows]


#: the report's line of a player in a round, declared once (``core.columns``): the report's
#: CSV (``?format=csv``: its heading and cells, a row a line) and the report page's round
#: tables (the columns with a heading, drawn by their ``format``: ``pages.tournaments.widgets``;
#: the first of them heads each table's rows) read them. Lines: ``selectors.report_lines``.
REPORT: Table[ReportLine] = Table("ReportLine", (
    Column("round"),
    Column("table", _("Table"), null=True, format="table", help="null: a bye"),
    Column("seat", _("Seat"), kind="str", null=True, json="ESWN".__getitem__, format="wind",
           help="E, S, W or N; null: a bye"),
    Column("player"),
    Column("name", _("Player"), kind="str", format="text"),
    Column("table_score", _("Table score"), value="cell.table_score", null=True, format="score",
           help="null while the table does not count"),
    Column("placement_points", _("Placement points"), value="cell.placement_points",
           kind=FractionField, null=True, json=fraction_text, format="points",
           help="exact: 3, 2.5, 7/3; null while the table does not count"),
    Column("bye", kind="str", value=lambda line: "yes" if line.table is None else "",
           help="yes: a bye"),
    Column("substitute_for", kind="str", help="a substitute's (替补): the absent entry's name"),
), doc="One player in one round of the tournament's report.")  # fmt: skip


def report_csv_keys() -> list[str]:
    """The report's CSV heading: its columns' keys, in order."""
    return [c.key for c in REPORT.columns if c.csv]
