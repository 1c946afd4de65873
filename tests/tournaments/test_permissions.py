"""Who may do what in a tournament: anonymous, a club member, a scorer, an organiser (the
director) and an organiser of another club, on every write endpoint; a private tournament is
hidden from everyone outside its club."""

from __future__ import annotations

import pytest

from clubs.models import Club, Role
from tests.clubs.factories import ClubFactory
from tests.helpers import client_for, member_login

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "member", "scorer", "organiser", "other_organiser")


@pytest.fixture
def clients(host):
    other = ClubFactory(slug="other")
    return {
        "anonymous": client_for(None),
        "member": client_for(member_login(host, Role.MEMBER)),
        "scorer": client_for(member_login(host, Role.SCORER)),
        "organiser": client_for(member_login(host, Role.ORGANISER)),
        "other_organiser": client_for(member_login(other, Role.ORGANISER)),
    }


@pytest.fixture
def seated(make_tournament, seat):
    t = make_tournament(players=4)
    table = seat(t).tables.get()
    players = list(table.session.seats.order_by("number").values_list("player_id", flat=True))
    return t, table, players


#: (method, url template, body, the least role that may do it)
WRITES = [
    ("patch", "/api/v1/tournaments/{slug}/", {"name": "New name"}, "organiser"),
    ("post", "/api/v1/tournaments/{slug}/players/", {"name": "Entrant"}, "organiser"),
    ("patch", "/api/v1/tournaments/{slug}/players/{p0}/", {"seed_rating": 1}, "organiser"),
    ("post", "/api/v1/tournaments/{slug}/rounds/1/reseat/", {"reason": "again"}, "organiser"),
    ("post", "/api/v1/tournaments/{slug}/standings/", None, "organiser"),
    ("post", "/api/v1/tables/{table}/result/", "scores", "scorer"),
]
RANK = {"member": 1, "scorer": 2, "organiser": 3}


@pytest.mark.parametrize(("method", "template", "body", "least"), WRITES)
@pytest.mark.parametrize("role", ROLES)
def test_write_matrix(clients, seated, in_process_tasks, role, method, template, body, least):
    t, table, players = seated
    url = template.format(slug=t.slug, p0=players[0], table=table.pk)
    if body == "scores":
        body = {"scores": [{"player": p, "score": s} for p, s in zip(players, [3, 1, -1, -3],
                                                                      strict=True)]}  # fmt: skip
    response = getattr(clients[role], method)(url, body, format="json")
    if role == "anonymous":
        expected = {401}
    elif role == "other_organiser" or RANK[role] < RANK[least]:
        expected = {403}
    else:
        expected = {200, 201, 202}
    assert response.status_code in expected, (role, url, response.status_code, response.json())


@pytest.mark.parametrize("role", ROLES)
def test_reads_of_a_public_tournament_are_open(clients, seated, role):
    t, table, _ = seated
    base = f"/api/v1/tournaments/{t.slug}"
    for url in (f"{base}/", f"{base}/players/", f"{base}/rounds/", f"{base}/rounds/1/",
                f"{base}/standings/", f"/api/v1/tables/{table.pk}/result/"):  # fmt: skip
        assert clients[role].get(url).status_code == 200, (role, url)


@pytest.mark.parametrize("role", ROLES)
def test_a_private_tournament_exists_only_for_its_club(clients, seated, role):
    t, table, _ = seated
    t.is_public = False
    t.save()
    Club.objects.filter(pk=t.club_id).update(visibility=Club.Visibility.MEMBERS)
    visible = role in ("member", "scorer", "organiser")
    for url in (f"/api/v1/tournaments/{t.slug}/", f"/api/v1/tournaments/{t.slug}/standings/",
                f"/api/v1/tables/{table.pk}/result/"):  # fmt: skip
        status = clients[role].get(url).status_code
        assert status == (200 if visible else 404), (role, url, status)
