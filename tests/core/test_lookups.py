"""``field__any_of=ids`` (core.lookups) finds what ``field__in=ids`` finds, with the ids as one
parameter on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Player, Seat, TableSession
from tests.ratings.generate import generated_club

pytestmark = pytest.mark.django_db


def test_any_of_finds_what_in_finds_on_fields_and_foreign_keys_through_joins():
    gen = generated_club(players=12, sessions=30)
    some = gen.session_ids[::3] + [10**12]  # and an id nobody has
    for queryset, lookup in (
        (TableSession.objects, "pk"),
        (Seat.objects, "session_id"),
        (Seat.objects, "session__id"),
        (Player.objects, "seats__session_id"),
    ):
        found = sorted(queryset.filter(**{f"{lookup}__any_of": some}).values_list("pk", flat=True))
        assert found == sorted(
            queryset.filter(**{f"{lookup}__in": some}).values_list("pk", flat=True)
        )
        assert found  # something to compare
    assert not Seat.objects.filter(session_id__any_of=[]).exists()


def test_any_of_sends_the_ids_as_one_parameter():
    if connection.vendor != "postgresql":
        pytest.skip("an IN list elsewhere")
    with CaptureQueriesContext(connection) as queries:
        list(TableSession.objects.filter(pk__any_of=list(range(1, 2001))))
    (sql,) = [q["sql"] for q in queries.captured_queries]
    assert "= ANY(" in sql and " IN (" not in sql
