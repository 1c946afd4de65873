"""A tournament's tables at the desk: private links and table cards, disputes and the approve
gate."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from clubs.models import TableSession
from core.errors import Conflict, Invalid
from core.text import clean_text
from tournaments import selectors
from tournaments.models import (
    Registration,
    Round,
    Table,
    Tournament,
)

from .standings import standings_request

# --- private links -------------------------------------------------------------------------------


def private_keys(*, tournament: Tournament) -> None:
    """Give every entry without one its private link's key (256 bits, as an invitation's)."""
    for entry in tournament.registrations.filter(private_key=None):
        Registration.objects.filter(pk=entry.pk, private_key=None).update(
            private_key=secrets.token_urlsafe(32)
        )


def private_key_renew(*, registration: Registration) -> Registration:
    """A new private link for an entry; the old one stops working (a slip lost)."""
    registration.private_key = secrets.token_urlsafe(32)
    registration.save(update_fields=["private_key"])
    return registration


# --- table cards ---------------------------------------------------------------------------------


def table_cards(*, round_: Round) -> list[Table]:
    """The round's tables, each with its table card's key (made for a table that has none, 256
    bits): the card's QR opens the table for whoever holds it, no login, until the round
    locks. A round already locked has no card."""
    for table in round_.tables.filter(scorer_key=None, session__lock_code=""):
        Table.objects.filter(pk=table.pk, scorer_key=None).update(
            scorer_key=secrets.token_urlsafe(32)
        )
    return list(round_.tables.select_related("session").order_by("number"))


# --- disputes -------------------------------------------------------------------------------------


@transaction.atomic
def table_dispute(*, table: Table, words: str) -> Table:
    """Mark a table disputed for the referee (a scorer at the desk): what is disputed, in
    words. A disputed table is not approved until the referee resolves it."""
    if not isinstance(words, str) or not words.strip():
        raise Invalid.single("words", "reason_required", "say what is disputed")
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.disputed_at = timezone.now()
    table.dispute = clean_text(words.strip(), "words")[:200]
    table.dispute_resolution = ""
    table.save(update_fields=["disputed_at", "dispute", "dispute_resolution"])
    return table


@transaction.atomic
def table_dispute_resolve(*, table: Table, words: str) -> Table:
    """The referee resolves a dispute, saying how (a correction is made on the table as
    usual); the dispute and its resolution stay in the record."""
    if not isinstance(words, str) or not words.strip():
        raise Invalid.single("words", "reason_required", "say how it was resolved")
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.disputed_at is None:
        raise Conflict("not_disputed", f"table {table.number} is not disputed")
    table.disputed_at = None
    table.dispute_resolution = clean_text(words.strip(), "words")[:200]
    table.save(update_fields=["disputed_at", "dispute_resolution"])
    return table


# --- the approve gate -----------------------------------------------------------------------------


@transaction.atomic
def table_approve(*, table: Table, user) -> Table:
    """The scorekeeper approves a done table as it is now: where the tournament has an
    approve gate, it counts from now on (a later change to it needs approving again)."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    if not selectors.table_has_result(table):
        raise Conflict("table_not_done", f"table {table.number} has no result yet")
    if table.disputed_at is not None:
        message = f"table {table.number} is disputed: the referee resolves it first"
        raise Conflict("table_disputed", message)
    table.approved_version = TableSession.objects.get(pk=table.session_id).data_version
    table.approved_by = user
    table.approved_at = timezone.now()
    table.save(update_fields=["approved_version", "approved_by", "approved_at"])
    standings_request(tournament_id=tournament.pk, force=True)
    return table
