"""A tournament created and changed: its rules, its finals, its confirmation rule."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.text import slugify

from clubs.models import Club, ConfirmationRule, TableSession
from clubs.services.clubs import club_create
from clubs.services.confirmations import sessions_rule_set
from clubs.tasks import follow_session
from core.errors import Conflict, Invalid, problem
from core.text import clean_line
from scoring.services import ruleset_snapshot_get_or_create
from tournaments.models import (
    SubstituteCounts,
    Table,
    Tournament,
)
from tournaments.standings import DEFAULT_PLACEMENT_POINTS, DEFAULT_TIEBREAKS, TIEBREAKS

from .locks import _freeze
from .standings import standings_request

# --- a tournament and its rules ---------------------------------------------------------------


#: fields that shape the schedule or the scoring: fixed once the first round is seated
RULE_FIELDS = frozenset({"ruleset", "base", "mode", "hands_per_table", "seating", "seed", "rounds"})


def _check_rules(fields: dict[str, Any]) -> list[dict[str, str]]:
    problems = []
    for key in ("placement_points", "tiebreaks"):
        if key in fields and fields[key] is None:
            problems.append(problem(key, "null", "give a value; leave the field out to keep it"))
    points = fields.get("placement_points")
    if points is not None and (
        not isinstance(points, list)
        or len(points) != 4
        or any(type(p) is not int for p in points)
        or any(a < b for a, b in zip(points, points[1:], strict=False))
    ):
        message = "four whole numbers for 1st to 4th, none above the one before"
        problems.append(problem("placement_points", "invalid_points", message))
    tiebreaks = fields.get("tiebreaks")
    if tiebreaks is not None:
        if not isinstance(tiebreaks, list) or len(set(tiebreaks)) != len(tiebreaks):
            problems.append(problem("tiebreaks", "invalid", "a list of distinct tiebreak codes"))
        else:
            for i, code in enumerate(tiebreaks):
                if code not in TIEBREAKS:
                    message = f"unknown tiebreak {code!r}; known: {', '.join(DEFAULT_TIEBREAKS)}"
                    problems.append(problem(f"tiebreaks[{i}]", "unknown_tiebreak", message))
    return problems


#: how many players a final may have
FINALS_SIZES = (0, 4, 8, 16)
#: settings of the finals: fixed once the first final round is seated
FINALS_FIELDS = frozenset({"finals_players", "finals_rounds", "finals_carry", "consolation"})


def _check_finals(rounds: int, players: int, final_rounds: int) -> list[dict[str, str]]:
    problems = []
    if players not in FINALS_SIZES:
        message = "the top 4, 8 or 16 play the finals (0: no finals)"
        problems.append(problem("finals_players", "invalid_finals_players", message))
    elif players and (type(final_rounds) is not int or not 1 <= final_rounds < rounds):
        message = "at least one final round, and at least one round before the finals"
        problems.append(problem("finals_rounds", "invalid_finals_rounds", message))
    return problems


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    user,
    rounds: int,
    club: Club | None = None,
    ruleset: Any = None,
    base: int = 1,
    mode: str = TableSession.Mode.XUEZHAN,
    hands_per_table: int = 8,
    placement_points: list[int] | None = None,
    tiebreaks: list[str] | None = None,
    seating: str = Tournament.Seating.BALANCED,
    seed: int = 0,
    bye_points: Decimal | None = None,
    bye_table_score: int = 0,
    is_public: bool = True,
    check_in: bool = False,
    round_minutes: int | None = None,
    hide_last_rounds: int = 0,
    approve_gate: bool = False,
    substitute_counts: str = SubstituteCounts.REGISTERED,
    finals_players: int = 0,
    finals_rounds: int = 1,
    finals_carry: bool = True,
    consolation: bool = True,
    confirmation_rule: str = "",
) -> Tournament:
    """A new tournament in registration. Without a host club it gets a club of its own
    (owned by its creator), so its tables are table sessions like any club's."""
    clean_line(name, "name")
    given = {"placement_points": placement_points, "tiebreaks": tiebreaks}
    problems = _check_rules({k: v for k, v in given.items() if v is not None})
    if type(hide_last_rounds) is not int or not 0 <= hide_last_rounds < rounds:
        message = "fewer rounds than the tournament has (0: none hidden)"
        problems.append(problem("hide_last_rounds", "invalid_hidden_rounds", message))
    problems += _check_finals(rounds, finals_players, finals_rounds)
    problems += _check_confirmation_rule(confirmation_rule)
    if problems:
        raise Invalid(problems)
    hosted = club is not None
    if club is None:
        visibility = Club.Visibility.PUBLIC if is_public else Club.Visibility.MEMBERS
        club = club_create(
            name=name, slug=slugify(f"t-{slug}")[:60], user=user, visibility=visibility,
            ruleset=ruleset, base=base,
        )  # fmt: skip
    snapshot = club.ruleset if ruleset is None else ruleset_snapshot_get_or_create(spec=ruleset)
    try:
        with transaction.atomic():
            return Tournament.objects.create(
                name=name, slug=slug, club=club, hosted=hosted, ruleset=snapshot, base=base,
                mode=mode, rounds=rounds, hands_per_table=hands_per_table,
                placement_points=placement_points or list(DEFAULT_PLACEMENT_POINTS),
                tiebreaks=tiebreaks or list(DEFAULT_TIEBREAKS), seating=seating, seed=seed,
                bye_points=bye_points, bye_table_score=bye_table_score, is_public=is_public,
                check_in=check_in, round_minutes=round_minutes,
                hide_last_rounds=hide_last_rounds, approve_gate=approve_gate, created_by=user,
                substitute_counts=substitute_counts, finals_players=finals_players,
                finals_rounds=finals_rounds, finals_carry=finals_carry, consolation=consolation,
                confirmation_rule=confirmation_rule,
            )  # fmt: skip
    except IntegrityError as e:
        raise Conflict("slug_taken", f"the slug {slug!r} is taken") from e


def _check_confirmation_rule(rule: Any) -> list:
    """A tournament's confirmation rule: one of the club's choices, or "" (the club's)."""
    if rule in ("", *ConfirmationRule.values):
        return []
    message = "shown, three, two, or empty for the club's rule"
    return [problem("confirmation_rule", "invalid_choice", message)]


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change a tournament. Its rules and schedule are fixed once a round is seated (the
    placement points and tiebreaks may still change: standings are recomputed)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    problems = _check_rules(fields)
    started = tournament.round_set.exists()
    for key in sorted(RULE_FIELDS & set(fields)):
        if started and key != "rounds":
            message = "fixed once the first round is seated"
            problems.append(problem(key, "tournament_started", message))
    hidden = fields.get("hide_last_rounds", tournament.hide_last_rounds)
    if {"hide_last_rounds", "rounds"} & set(fields) and not (
        type(hidden) is int and 0 <= hidden < fields.get("rounds", tournament.rounds)
    ):
        message = "fewer rounds than the tournament has (0: none hidden)"
        problems.append(problem("hide_last_rounds", "invalid_hidden_rounds", message))
    seated = tournament.round_set.aggregate(n=Max("number"))["n"] or 0
    finals_fields = FINALS_FIELDS & set(fields)
    if finals_fields or "rounds" in fields:
        after = {k: fields.get(k, getattr(tournament, k)) for k in ("rounds", *FINALS_FIELDS)}
        first_final = (
            after["rounds"] - after["finals_rounds"] + 1 if after["finals_players"] else None
        )
        was = tournament.first_final_round
        if (was and seated >= was) or (first_final and seated >= first_final):
            changed = [k for k in sorted(after) if after[k] != getattr(tournament, k)]
            for key in changed:
                message = "fixed once the first final round is seated"
                problems.append(problem(key, "finals_started", message))
        problems += _check_finals(after["rounds"], after["finals_players"], after["finals_rounds"])
    if "rounds" in fields and fields["rounds"] < seated:
        message = f"{seated} rounds are already seated"
        problems.append(problem("rounds", "below_seated_rounds", message))
    if "confirmation_rule" in fields:
        problems += _check_confirmation_rule(fields["confirmation_rule"])
    if problems:
        raise Invalid(problems)
    rule_changed = fields.get("confirmation_rule", tournament.confirmation_rule) != (
        tournament.confirmation_rule
    )
    if "ruleset" in fields:
        tournament.ruleset = ruleset_snapshot_get_or_create(spec=fields.pop("ruleset"))
    for key, value in fields.items():
        setattr(tournament, key, value)
    if {"rounds", "check_in"} & set(fields):
        tournament.seating_plan = []  # planned for the old number of rounds, or other players
    tournament.save()
    if rule_changed:  # its open tables count their hands again under the new rule
        sessions_rule_set(
            session_ids=Table.objects.filter(round__tournament=tournament).values_list(
                "session_id", flat=True
            ),
            rule=tournament.confirmation_rule,
        )
    if fields.get("status") == Tournament.Status.FINISHED:
        _freeze(tournament)
    if "substitute_counts" in fields:  # the substitutes' tables are rated and counted again
        for session_id in (
            Table.objects.filter(round__tournament=tournament, substitutions__isnull=False)
            .values_list("session_id", flat=True)
            .distinct()
        ):
            follow_session(session_id)
    if {"placement_points", "tiebreaks", "bye_points", "bye_table_score", "hide_last_rounds",
        "standings_revealed", "approve_gate", "substitute_counts", *FINALS_FIELDS} & set(
            fields
        ):  # fmt: skip
        standings_request(tournament_id=tournament.pk)
    return tournament
