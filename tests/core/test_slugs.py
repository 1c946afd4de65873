"""``core.slugs.free_slug``: the slug asked for, or the first ``-N`` after it that is free."""

from __future__ import annotations

import pytest

from clubs.models import Club
from clubs.selectors import free_club_slug
from tests.clubs.factories import ClubFactory
from tournaments.selectors import free_tournament_slug

pytestmark = pytest.mark.django_db


def test_the_slug_asked_for_or_the_next_free_number():
    assert free_club_slug("chengdu") == "chengdu"
    ClubFactory(slug="chengdu")
    assert free_club_slug("chengdu") == "chengdu-2"
    ClubFactory(slug="chengdu-2")
    ClubFactory(slug="chengdu-4")
    assert free_club_slug("chengdu") == "chengdu-3"  # the first gap
    assert free_club_slug("") == "club"
    assert len(free_club_slug("x" * 80)) == 56  # room for -N in the 64 characters
    assert Club.objects.count() == 3


def test_tournaments_have_their_own_addresses():
    ClubFactory(slug="spring")
    assert free_tournament_slug("spring") == "spring"  # a club's slug is not a tournament's
    assert free_tournament_slug("") == "tournament"
