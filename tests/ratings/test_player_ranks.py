"""``ratings.ranking.player_ranks``: a player's rank in each club's all-time ranking by rating,
in one query, the same rank the ranking itself gives him."""

from __future__ import annotations

import pytest

from clubs.services.clubs import player_create
from ratings.models import Rating
from ratings.ranking import ClubRank, club_ranking, player_ranks
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.ratings.ranking_club import ALL_TIME, local, play, ranking_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def rc(django_capture_on_commit_callbacks):
    return ranking_club(django_capture_on_commit_callbacks)


def test_the_rank_is_the_rankings_own(rc, django_assert_num_queries):
    ranking = club_ranking(rc.club, ALL_TIME)  # by rating, ranks shared on ties
    for row in ranking.rows:
        with django_assert_num_queries(1):
            ranks = player_ranks(row.player_id, [rc.club.pk])
        assert ranks == {rc.club.pk: ClubRank(rc.club.pk, row.rank, len(ranking.rows))}


def test_ties_share_the_rank(rc):
    for player, rating in ((rc.ann, 1700), (rc.bob, 1600), (rc.cai, 1600), (rc.dan, 1500),
                           (rc.eve, 1400)):  # fmt: skip
        Rating.objects.filter(player=player).update(rating=rating)
    got = [player_ranks(p.pk, [rc.club.pk])[rc.club.pk].rank for p in rc.players]
    assert got == [1, 2, 2, 4, 5]
    assert [r.rank for r in club_ranking(rc.club, ALL_TIME).rows] == [1, 2, 2, 4, 5]


def test_each_club_apart_and_an_unrated_club_left_out(rc, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        other = ClubFactory()
        empty = ClubFactory()
        here = [player_create(club=other, name=n).player for n in ("W", "X", "Y")]
        MembershipFactory(club=other, player=rc.ann)
        play(other, [*here, rc.ann], local(2024, 5, 1, 20), totals=[-3, -1, 0, 4])
    ranks = player_ranks(rc.ann.pk, [rc.club.pk, other.pk, empty.pk])
    assert set(ranks) == {rc.club.pk, other.pk}
    assert (ranks[other.pk].rank, ranks[other.pk].of) == (1, 4)  # he won his one table there
    assert player_ranks(rc.ann.pk, []) == {}
