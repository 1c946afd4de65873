"""Page fuzzing: every route of ``pages.urls`` (found by walking the resolver, as
``test_page_matrix.py`` does, so a new page is fuzzed at once), with random ids, slugs, days
and tokens in its path, random query strings (the keys the pages read and random ones; huge,
unicode, percent-garbage and bad-date values; a key repeated), a random ``Accept-Language``
and a random language cookie, by GET and by POST with random values for the fields the page's
own forms name, anonymously and signed in (an organiser of the demo club).

What a page may answer (decided here, the README's "Pages" says the same):

* 200 — the page, in HTML (a share card's ``card.svg`` in SVG);
* 302 — to sign in, or on after a form's success;
* 400 — a request Django itself refuses (too many fields in the query, a bad ``Host``);
* 403 — signed in without the role the page needs;
* 404 — no such object, or none the visitor may see (also a day that is no date);
* 405 — a GET of an action, a POST to a page without a form;
* 409 — a hand whose number another phone saved first (the table page, saying what it holds);

and never a 5xx. Every answer but a 302 or a 405's empty body is HTML (or the card's SVG).

Each request runs in a savepoint rolled back after it: every case sees the same world
(``tests/world.py``). Bounded: ``FUZZ_PAGE_EXAMPLES`` (default 6) cases per route, method and
identity, with the seed of ``FUZZ_SEED`` (``tests/core/test_api_fuzz.py``); the test prints its
counts and fails listing each distinct failure with its request and the traceback.
"""

from __future__ import annotations

import os
import random
import re
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings as settings_module
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

import pages.urls
from clubs.models import Role
from tests.world import World, build_world

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_PAGE_EXAMPLES", "6"))
_SEED = os.environ.get("FUZZ_SEED", "15")
SEED = random.randrange(2**32) if _SEED == "random" else int(_SEED)

ALLOWED = {200, 302, 400, 403, 404, 405, 409}
#: routes whose page is an image: a 200 there is SVG
SVG_ROUTES = {
    "page-club-evening-card",
    "page-player-card",
    "page-hand-card",
    "page-tournament-card",
}
PNG_ROUTES = {f"{name}-png" for name in SVG_ROUTES} | {"app-icon"}
JSON_ROUTES = {"app-manifest": "application/manifest+json"}
#: the live pages' event stream: a stream when it opens, its refusals in the API's JSON shape
STREAM_ROUTES = {"live-events"}
#: the service worker's script
SCRIPT_ROUTES = {"app-service-worker"}
#: the table page's queue: its answers and refusals in JSON (a sign-in asked for, or a table not
#: found, as the table page answers them)
QUEUE_ROUTES = {"page-hand-send"}

#: the query keys the pages read (and the API's, which a visitor may paste)
QUERY_KEYS = ("q", "next", "saved", "club", "x", "show", "refresh", "cards", "year", "preset",
              "hand", "win", "self_draw", "period", "from", "to", "min_sessions", "sort",
              "order", "page", "page_size", "format", "tournament", "date", "day", "lang",
              "language", "channel", "lastEventId", "key", "all")  # fmt: skip
BAD_DATES = ("2026-02-30", "2026-13-01", "0000-01-01", "9999-12-31", "1899-12-31", "2026-1-1",
             "20260101", "yesterday", "-1", "2026-02-29T25:61")  # fmt: skip
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",)),  # a lone surrogate cannot travel in a URL
    max_size=40,
)
#: values the pages know, or that look like them
WORDS = ("csv", "json", "asc", "desc", "month", "year", "all", "custom", "1", "0", "true",
         "rate", "total", "sessions", "hands", "qq", "chengdu", "chengdu-teahouse",
         "fuzz-private", "/admin/", "https://example.com/", "//evil.example",
         "javascript:alert(1)", "²", "٣", "１２", "table-1", "club-1", "tournament-1",
         "table-1:3", "table-1:-1,club-1:x")  # fmt: skip
VALUES = st.one_of(
    TEXT,
    st.sampled_from(BAD_DATES),
    st.sampled_from(WORDS),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(("x" * 10_000, "9" * 5_000, "血战到底" * 500)),
)
ACCEPT_LANGUAGES = ("zh-hans", "zh-Hans", "zh-CN,zh;q=0.9,en;q=0.8", "en-US,en;q=0.5", "en",
                    "fr", "*", "", ";q=", "zh-hant", "zh", "x" * 10_000, "en;q=abc",
                    "en;q=1e400", ",,,", "zh-Hans-CN-x-" + "a" * 300)  # fmt: skip
LANGUAGES = st.one_of(
    st.sampled_from(ACCEPT_LANGUAGES),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60),
)


class Route(NamedTuple):
    """A route of the pages: its leaf pattern and the path parameters of the prefixes it is
    mounted under (``tournaments/<slug>/``)."""

    pattern: URLPattern
    prefix: tuple[str, ...] = ()


def routes(patterns=pages.urls.urlpatterns, prefix: tuple[str, ...] = ()):
    """(name, route) of every route of the pages."""
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from routes(p.url_patterns, prefix + tuple(p.pattern.regex.groupindex))
        elif isinstance(p, URLPattern):
            yield p.name, Route(p, prefix)


def parameters(route: Route) -> list[str]:
    return [*route.prefix, *route.pattern.pattern.regex.groupindex]


def real_values(world: World, name: str, parameter: str) -> list:
    """The real values a route's path parameter may take (which object it names, by the
    route's name and the parameter's)."""
    # a new tournament is made from its club's page: its slug is the club's
    tournament = name.startswith("page-tournament") and name != "page-tournament-new"
    if parameter == "pk":
        kind = next((kind for prefix, kind in PK_KINDS if name.startswith(prefix)), "player")
    else:
        kind = {
            "slug": "tournament" if tournament else "club",
            "day": "date",
            "token": "invitation_token",
            "number": "round" if tournament else "hand",
            "preset": "ruleset",
            "player": "registration" if tournament else None,
            "key": {"page-table-card": "table_key", "page-players-link": "guest_key"}.get(
                name, "private_key"
            ),
            "table": "table" if tournament else None,
            "size": "icon_size",
        }.get(parameter)
    assert kind is not None, f"{name}: which object does <{parameter}> name? (tests/world.py)"
    return world.names[kind]


#: what ``<int:pk>`` names, by the route's name (else a player)
PK_KINDS = (
    ("page-session", "session"),
    ("page-hand", "session"),
    ("page-member", "membership"),
    ("page-invitation", "invitation"),
    ("page-tournament-penalty", "penalty"),
    ("page-tournament-substitute", "substitution"),
)


def random_values(parameter: str):
    """Values of the parameter's shape (so that the route resolves) but random."""
    if parameter in ("slug", "preset"):
        return st.from_regex(r"[-a-zA-Z0-9_]{1,80}", fullmatch=True)
    if parameter == "day":
        return st.from_regex(r"\d{4}-\d{2}-\d{2}", fullmatch=True)
    if parameter in ("token", "key"):
        return st.text(
            st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/"),
            min_size=1,
            max_size=80,
        )
    return st.one_of(st.integers(0, 2**31), st.integers(0, 10**30))


@st.composite
def path_args(draw, world: World, name: str, pattern: Route):
    kwargs = {}
    for parameter in parameters(pattern):
        if draw(st.integers(0, 3)) < 3:  # three times in four a real object
            kwargs[parameter] = draw(st.sampled_from(real_values(world, name, parameter)))
        else:
            kwargs[parameter] = draw(random_values(parameter))
    return kwargs


@st.composite
def query_strings(draw) -> str:
    pairs = draw(
        st.lists(
            st.tuples(st.one_of(st.sampled_from(QUERY_KEYS), TEXT), VALUES),
            max_size=6,
        )
    )
    qs = urlencode(pairs)
    if draw(st.integers(0, 9)) == 7:  # percent-garbage: not UTF-8, cut escapes, bare = and &
        qs += draw(st.sampled_from(("&%ff%fe=%c0%af", "&a=%", "&&==&", "&%E8%A1=1", "&=x")))
    if draw(st.integers(0, 29)) == 7:  # more fields than Django reads: its own 400
        qs += "&" + "&".join(f"k{i}=1" for i in range(1_100))
    return qs


@dataclass
class Tally:
    route: str
    method: str
    examples: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)


def form_fields(client: Client, url: str) -> list[str]:
    """The names of the fields the page's forms have (what a POST to it sends)."""
    response = client.get(url)
    if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
        return []
    names = re.findall(r'name="([^"]+)"', response.content.decode())
    return sorted(set(names) - {"csrfmiddlewaretoken"})


def fuzz_route(world, client, name, pattern, method, fields, tally) -> None:
    signed_in = client.cookies.get(settings_module.SESSION_COOKIE_NAME)
    post_data = st.dictionaries(st.sampled_from(fields), VALUES, max_size=len(fields))
    post_data = post_data if fields else st.just({})

    @seed(SEED)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(
        kwargs=path_args(world, name, pattern),
        qs=query_strings(),
        language=LANGUAGES,
        cookie=st.one_of(st.none(), LANGUAGES),
        data=post_data,
    )
    def run(kwargs, qs, language, cookie, data):
        tally.examples += 1
        url = reverse(name, kwargs=kwargs) + ("?" + qs if qs else "")
        # each case as the first: signed in still (a POST to sign out cleared it), no cookie
        client.cookies.clear()
        if signed_in is not None:
            client.cookies[signed_in.key] = signed_in.value
        if cookie is not None:
            client.cookies[settings_module.LANGUAGE_COOKIE_NAME] = quote(cookie)
        headers = {"HTTP_ACCEPT_LANGUAGE": language}
        with transaction.atomic():
            try:
                if method == "GET":
                    response = client.get(url, **headers)
                else:
                    response = client.post(url, data, **headers)
            finally:
                transaction.set_rollback(True)
        status = response.status_code
        tally.statuses[status] += 1
        kind = response.get("Content-Type", "")
        problem = None
        if status not in ALLOWED:
            problem = f"status {status}"
        elif status == 200 and name in SVG_ROUTES:
            if not kind.startswith("image/svg+xml"):
                problem = f"a card answered {kind}"
        elif status == 200 and name in JSON_ROUTES:
            if kind != JSON_ROUTES[name]:
                problem = f"the manifest answered {kind}"
        elif name in SCRIPT_ROUTES:
            if status == 200 and not kind.startswith("text/javascript"):
                problem = f"the service worker answered {kind}"
        elif name in QUEUE_ROUTES and status in (200, 201, 400, 409):
            if not kind.startswith("application/json"):
                problem = f"the hand queue answered {status} {kind}"
        elif name in STREAM_ROUTES:
            wanted = "text/event-stream" if status == 200 else "application/json"
            if not kind.startswith(wanted):
                problem = f"the event stream answered {status} {kind}"
        elif status == 200 and name in PNG_ROUTES:
            if kind != "image/png" or not response.content.startswith(b"\x89PNG"):
                problem = f"a PNG card answered {kind}"
        elif status not in (302, 405) and not kind.startswith("text/html"):
            problem = f"status {status} answered {kind}"
        if problem is None:
            return
        exc = getattr(response, "exc_info", None)
        where = "".join(traceback.format_exception(*exc)[-4:]) if exc else ""
        key = f"{problem}: {where.strip().splitlines()[-1] if where else ''}"
        if key not in tally.failures:
            tally.failures[key] = (
                f"{method} {url[:300]} (Accept-Language {language[:60]!r}, cookie "
                f"{(cookie or '')[:60]!r}, data {str(data)[:300]})\n  {problem}\n{where}"
            )

    run()


@pytest.mark.parametrize("identity", ["anonymous", "organiser"])
def test_every_page_answers_a_stranger_in_html_never_a_500(
    identity, in_process_tasks, monkeypatch, capsys
):
    world = build_world(monkeypatch)
    client = Client(raise_request_exception=False)
    if identity == "organiser":
        client.force_login(world.logins[Role.ORGANISER])
    organiser = Client()
    organiser.force_login(world.logins[Role.ORGANISER])
    tallies = []
    for name, pattern in routes():
        real = {p: real_values(world, name, p)[0] for p in parameters(pattern)}
        fields = form_fields(organiser, reverse(name, kwargs=real))
        for method in ("GET", "POST"):
            tally = Tally(name, method)
            fuzz_route(world, client, name, pattern, method, fields, tally)
            tallies.append(tally)
    failures = [report for t in tallies for report in t.failures.values()]
    total = sum(t.examples for t in tallies)
    lines = [f"\npage fuzzing as {identity}: seed {SEED}, {EXAMPLES} cases per route and method"]
    for get, post in zip(tallies[::2], tallies[1::2], strict=True):
        cells = []
        for t in (get, post):
            statuses = " ".join(f"{s}×{n}" for s, n in sorted(t.statuses.items()))
            cells.append(f"{t.method} {t.examples} cases {len(t.failures)} failed ({statuses})")
        lines.append(f"  {get.route:<28} " + "; ".join(cells))
    lines.append(f"  {len(tallies) // 2} routes, {total} cases, {len(failures)} failures")
    with capsys.disabled():  # shown in CI's log, passing or not
        print("\n".join(lines))
    assert not failures, "\n\n".join(failures)
