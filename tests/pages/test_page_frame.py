"""Every page's frame (its head's links, the site's header and footer, the scripts at the end)
is drawn once per process for each language and either state, signed in or not, with the
visitor's name, CSRF token and address put in per request (``pages.templatetags.frame``); the
table page's body is kept drawn for the visitors who see it alike (``pages.tables.views``).
Nothing drawn once is another visitor's: each page holds its own visitor's name, token and
address, the same page as the templates draw it; the browser session is kept in the cache
(``cached_db``) and signing out still ends it."""

from __future__ import annotations

import re

import pytest
from django.http import HttpResponse
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import Club, Role
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import login, member_login

pytestmark = pytest.mark.django_db

TOKENS = re.compile(r'(?:name="csrfmiddlewaretoken" value="|data-csrf=")([^"]*)"')


def secrets_of(body: str) -> set[str]:
    """The CSRF secrets of every token on a page (each token is the secret masked afresh)."""
    return {_unmask_cipher_token(t) for t in TOKENS.findall(body)}


def without_tokens(body: str) -> str:
    return TOKENS.sub("", body)


def test_each_visitor_has_his_own_name_token_and_address_in_the_frame():
    club = ClubFactory(visibility=Club.Visibility.PUBLIC)
    path = reverse("page-club", args=[club.slug])
    pages = {}
    for name in ("alice", "bob"):
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(login(name))
        body = client.get(path + f"?who={name}").content.decode()
        pages[name] = body
        assert f'<span class="who">{name}</span>' in body
        assert f'name="next" type="hidden" value="{path}?who={name}"' in body
        # every form's token, the frame's and the body's, is his browser's
        assert secrets_of(body) == {client.cookies["csrftoken"].value}
    assert "bob" not in pages["alice"] and "alice" not in pages["bob"]
    assert secrets_of(pages["alice"]) != secrets_of(pages["bob"])
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="en").get(path + '?q=<b>"x"&y').content.decode()
    assert 'class="who"' not in anonymous and "Sign in" in anonymous
    # the address as the request has it (a query's <, > and " arrive %-encoded), & escaped
    assert re.search(r'name="next" type="hidden" value="[^"]*\?q=%3Cb%3E%22x%22&amp;y"', anonymous)
    assert "frame-" not in anonymous and "frame-" not in pages["alice"]  # no mark left


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_frame_drawn_once_is_the_frame_the_templates_draw(signed_in, language):
    club = ClubFactory(visibility=Club.Visibility.PUBLIC)
    table = TableSessionFactory(club=club)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if signed_in:
        client.force_login(member_login(club, Role.SCORER, "frame-reader"))
    player = table.seats.get(number=0).player
    for path in (
        reverse("page-club", args=[club.slug]),
        reverse("page-session", args=[table.pk]),
        reverse("page-club-ranking", args=[club.slug]),
        reverse("page-club-ranking", args=[club.slug]) + "?min=x",  # a bad query: 400
        reverse("page-player", args=[player.pk]),
    ):
        kept = client.get(path).content.decode()
        with override_settings(DEBUG=True):  # development: every part drawn by its template
            drawn = client.get(path).content.decode()
        assert without_tokens(kept) == without_tokens(drawn)


def test_signing_out_ends_the_browser_session_kept_in_the_cache():
    club = ClubFactory(visibility=Club.Visibility.PUBLIC)
    path = reverse("page-club", args=[club.slug])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(login("leaver"))
    assert '<span class="who">leaver</span>' in client.get(path).content.decode()
    cookie = client.cookies["sessionid"].value
    assert client.post(reverse("logout")).status_code == 302
    replayed = Client(HTTP_ACCEPT_LANGUAGE="en")
    replayed.cookies["sessionid"] = cookie  # the old cookie, kept by someone
    body = replayed.get(path).content.decode()
    assert "leaver" not in body and "Sign in" in body


def test_the_table_body_kept_for_a_scorer_is_not_shown_to_others():
    club = ClubFactory(visibility=Club.Visibility.PUBLIC)
    table = TableSessionFactory(club=club)
    path = reverse("page-session", args=[table.pk])
    scorers = []
    for name in ("scorer-a", "scorer-b"):
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(member_login(club, Role.SCORER, name))
        scorers.append(client)
    first = scorers[0].get(path).content.decode()
    second = scorers[1].get(path).content.decode()  # the body kept for the first
    for client, body in zip(scorers, (first, second), strict=True):
        assert 'id="record"' in body and "Close the table" in body
        assert secrets_of(body) == {client.cookies["csrftoken"].value}
    assert "scorer-b" not in second.replace('<span class="who">scorer-b</span>', "")
    member = Client(HTTP_ACCEPT_LANGUAGE="en")
    member.force_login(member_login(club, Role.MEMBER, "onlooker"))
    for client in (member, Client(HTTP_ACCEPT_LANGUAGE="en")):
        body = client.get(path).content.decode()
        assert 'id="record"' not in body and "Close the table" not in body
        assert "csrf-mark-of-the-request" not in body and "csrf-token-of-the-request" not in body


def test_the_standings_body_kept_follows_the_tournament_and_the_visitor():
    from tests.pages.tournaments.test_standings_pages import field_of
    from tournaments.models import Tournament

    t = field_of(12, slug="kept-open")
    path = reverse("page-tournament-standings", args=[t.slug])
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="en")
    body = anonymous.get(path).content.decode()
    assert "<h1>kept-open</h1>" in body and "Entries" not in body
    assert without_tokens(anonymous.get(path).content.decode()) == without_tokens(body)
    director = Client(HTTP_ACCEPT_LANGUAGE="en")
    director.force_login(member_login(t.club, Role.ORGANISER, "kept-director"))
    directed = director.get(path).content.decode()
    assert "Entries" in directed and secrets_of(directed) == {director.cookies["csrftoken"].value}
    Tournament.objects.filter(pk=t.pk).update(name="Renamed Open")  # no new snapshot
    for client in (anonymous, director):
        body = client.get(path).content.decode()
        assert "<h1>Renamed Open</h1>" in body and "kept-open</h1>" not in body
    assert "Entries" not in anonymous.get(path).content.decode()


def test_the_token_is_masked_once_per_answer_as_django_masks_it():
    """``pages.frame.masked_secret`` masks as Django's middleware unmasks: every letter of the
    token is one Django allows, the secret comes back, and two maskings differ."""
    from django.middleware.csrf import CSRF_ALLOWED_CHARS, _get_new_csrf_string

    from pages.frame import masked_secret

    for _ in range(300):
        secret = _get_new_csrf_string()
        masked = masked_secret(secret)
        assert len(masked) == 2 * len(secret) and set(masked) <= set(CSRF_ALLOWED_CHARS)
        assert _unmask_cipher_token(masked) == secret
    assert len({masked_secret(secret) for _ in range(50)}) == 50
    club = ClubFactory(visibility=Club.Visibility.PUBLIC)
    table = TableSessionFactory(club=club)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member_login(club, Role.SCORER, "one-mask"))
    path = reverse("page-session", args=[table.pk])
    client.get(path)  # the secret's cookie, as a browser keeps it
    answers = [TOKENS.findall(client.get(path).content.decode()) for _ in range(2)]
    for tokens in answers:
        # the header's sign-out form, the hand form, the tile pickers: one token per answer
        assert len(tokens) >= 2 and len(set(tokens)) == 1
    assert answers[0][0] != answers[1][0]  # masked anew for each answer
    assert secrets_of(" ".join(f'data-csrf="{t}"' for t in answers[0] + answers[1])) == {
        client.cookies["csrftoken"].value
    }


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_kept_frames_of_the_standings_and_a_round_are_what_the_templates_draw(
    signed_in, language
):
    from tests.pages.tournaments.test_round_page import seated_field
    from tests.pages.tournaments.test_standings_pages import field_of

    standings = field_of(8, slug="framed-open")
    seated = seated_field(12, slug="framed-round")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if signed_in:
        client.force_login(member_login(seated.club, Role.ORGANISER, "framed-director"))
    for path in (
        reverse("page-tournament-standings", args=[standings.slug]),
        f"/tournaments/{seated.slug}/rounds/1/",
        f"/tournaments/{seated.slug}/rounds/1/?q=framed",
    ):
        client.get(path)
        kept = client.get(path + ("&" if "?" in path else "?") + "x=<1>").content.decode()
        with override_settings(DEBUG=True):
            drawn = client.get(path + ("&" if "?" in path else "?") + "x=<1>").content.decode()
        assert without_tokens(kept) == without_tokens(drawn)
        assert "frame-" not in kept and "csrf-mark" not in kept and "kept-page-body" not in kept
        assert ("framed-director" in kept) is signed_in


def test_a_message_waiting_is_shown_in_a_kept_page():
    """A page kept drawn draws its frame by the templates when the visitor has a message to
    read (after a form), and shows it once."""
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.http import HttpRequest

    from tests.pages.tournaments.test_standings_pages import field_of

    t = field_of(8, slug="message-open")
    path = reverse("page-tournament-standings", args=[t.slug])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.get(path)  # the frame kept
    request = HttpRequest()
    storage = CookieStorage(request)
    storage.add(constants.SUCCESS, "Totals saved for table 3.")
    response = HttpResponse()
    storage.update(response)
    client.cookies["messages"] = response.cookies["messages"].value
    shown = client.get(path).content.decode()
    assert "Totals saved for table 3." in shown and 'class="messages"' in shown
    again = client.get(path).content.decode()
    assert "Totals saved for table 3." not in again
