"""factory_boy factories for the clubs models (logins, players, clubs, sessions)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import Club, Membership, Player, Role, Seat, TableSession
from scoring.services import ruleset_snapshot_get_or_create


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pass-word-123")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    visibility = Club.Visibility.PUBLIC
    ruleset = factory.LazyFunction(lambda: ruleset_snapshot_get_or_create(spec="qq"))


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    role = Role.MEMBER


class TableSessionFactory(factory.django.DjangoModelFactory):
    """An open session with four members of the club seated (seats 0–3), in 普通 mode (a hand
    ends at the first win), so that a one-win record is a finished hand (RULES §4.10); pass
    ``mode="xuezhan"`` for 血战到底."""

    class Meta:
        model = TableSession
        skip_postgeneration_save = True

    club = factory.SubFactory(ClubFactory)
    started_at = factory.LazyFunction(timezone.now)
    ruleset = factory.LazyAttribute(lambda s: s.club.ruleset)
    base = 1
    mode = TableSession.Mode.SINGLE

    @factory.post_generation
    def seated(self, create, players, **kwargs):
        if not create:
            return
        players = players or [MembershipFactory(club=self.club).player for _ in range(4)]
        for n, p in enumerate(players):
            Seat.objects.create(session=self, number=n, player=p)


def member(club: Club, role: str = Role.MEMBER, username: str | None = None):
    """A login with a player holding ``role`` in ``club``."""
    user = UserFactory(username=username) if username else UserFactory()
    player = PlayerFactory(user=user, name=user.username)
    MembershipFactory(club=club, player=player, role=role)
    return user
