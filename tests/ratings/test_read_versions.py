"""A player's page version (``ratings.read_versions``): the prepared PostgreSQL statement that
reads it with the player says what the ORM's reading of the same rows says (its tables by his
seats and bettors, his tournament entries, every club of his), and moves when any of them does."""

from __future__ import annotations

import pytest

from clubs.models import Bettor
from ratings import read_versions
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.pages.tournaments.test_standings_pages import field_of
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def orm_version(player_id: int) -> str:
    return read_versions._digest(*read_versions._player_page_version_orm(player_id))


def test_the_statement_reads_what_the_orm_reads_and_moves_with_his_tables():
    home = ClubFactory(slug="home")
    him = MembershipFactory(club=home).player
    others = [MembershipFactory(club=home).player for _ in range(3)]
    seated = [TableSessionFactory(club=home, seated=[him, *others]) for _ in range(3)]
    away = ClubFactory(slug="away")  # a bettor (叫马) at a table of a club he is no member of
    betting = TableSessionFactory(club=away)
    Bettor.objects.create(session=betting, player=him)
    MembershipFactory(club=ClubFactory(slug="third"), player=him)  # a member, no table there
    cup = field_of(8, slug="cup", rounds=1)
    Registration.objects.create(tournament=cup, player=him, seed_rating=1)
    PlayerFactory()  # someone else, with nothing

    player, version = read_versions.player_with_page_version(him.pk)
    assert player.pk == him.pk and player.name == him.name
    assert version == read_versions.player_page_version(him.pk) == orm_version(him.pk)
    # four tables (three seated, one as a bettor), the tournament's club, the third club
    _, tables, _ = read_versions._player_page_version_orm(him.pk)
    assert tables.count(",") == 3

    type(betting).objects.filter(pk=betting.pk).update(data_version=7)  # a hand at his bet
    moved = read_versions.player_page_version(him.pk)
    assert moved != version and moved == orm_version(him.pk)
    type(seated[0]).objects.filter(pk=seated[0].pk).update(data_version=3)
    assert read_versions.player_page_version(him.pk) not in (version, moved)

    assert read_versions.player_with_page_version(10**9) is None
