"""What the live tests and the live bench share: a tournament table with its phones, a hand
saved through the form, and a watch each page keeps of when it showed what."""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model

from clubs.services.clubs import club_create
from clubs.services.sessions import session_guest_link
from tests.browser.steps import open_phone
from tournaments import services
from tournaments.models import Round, Table, Tournament

PASSWORD = "mahjong-2026-chengdu"
NAMES = ["老张", "小李", "王姐", "阿明"]
HALL = {"width": 1920, "height": 1080}

#: kept by each watched page: when (its Date.now()) it first showed n hands on its score
#: sheet, and when its projector board or live tables changed (the text it then showed)
WATCH = """() => {
  window.__seen = window.__seen || {};
  window.__changes = window.__changes || [];
  window.__loaded = window.__loaded || Date.now();
  const part = () => document.getElementById("proj-board") || document.getElementById("main");
  let last = part() ? part().textContent : "";
  const look = () => {
    const n = document.querySelectorAll("#sheet tr.hand").length;
    if (!(n in window.__seen)) { window.__seen[n] = Date.now(); }
    const text = part() ? part().textContent : "";
    if (text !== last) { last = text; window.__changes.push([Date.now(), text]); }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
                                                     characterData: true});
  look();
}"""


class AsgiServer:
    """The whole site under uvicorn, in a thread of this process, as ``make run`` serves it:
    pages, the API, static files (whitenoise) and the live pages' event streams, which
    pytest-django's ``live_server`` (a WSGI server) cannot hold open. It reads the test
    database, so a test that uses it commits what it writes (``transaction=True``)."""

    def __init__(self) -> None:
        import threading
        import time

        import uvicorn

        from config.asgi import application
        from tests.processes import free_port

        port = free_port()
        config = uvicorn.Config(
            application, host="127.0.0.1", port=port, log_level="warning",
            lifespan="off", timeout_graceful_shutdown=1,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="asgi-server")
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the ASGI server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        from django.db import connection

        self.server.should_exit = True
        self.thread.join(timeout=5)
        # the server's threads keep their database connections: ended here, so the test
        # database can be dropped
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


def tournament_table(hands: int = 4, tables: int = 1) -> tuple[Tournament, list[Table]]:
    """A public tournament of one round, ``tables`` tables of four (NAMES first), seated."""
    owner = get_user_model().objects.create_user("director", password=PASSWORD)
    club = club_create(name="成都茶馆", slug="teahouse", user=owner)
    tournament = services.tournament_create(
        name="春季杯", slug="spring-cup", user=owner, club=club, rounds=1,
        hands_per_table=hands, mode="single", seating="random",
    )  # fmt: skip
    names = NAMES + [f"选手{i}" for i in range(4 * tables - 4)]
    for name in names:
        services.registration_create(tournament=tournament, name=name, new_player=True)
    round_ = services.round_start(tournament=tournament)  # seated on commit, in this process
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED
    return tournament, services.table_cards(round_=round_)


def phones_at(browser, base_url: str, table: Table, others: int = 3):
    """Phone A with the table's card (it records), and ``others`` phones with its players'
    link (they follow): [(context, page)], A first, each on the table's page and watched."""
    key = session_guest_link(session=table.session)
    phones = [open_phone(browser, base_url)]
    phones[0][1].goto(f"{base_url}/t/{table.scorer_key}/")
    for _ in range(others):
        context, page = open_phone(browser, base_url)
        page.goto(f"{base_url}/g/{key}/")
        phones.append((context, page))
    for _, page in phones:
        page.wait_for_url(f"**/sessions/{table.session_id}/**")
        watch(page)
    return phones


def watch(page) -> None:
    page.evaluate(WATCH)
    page.wait_for_selector('#live-follow[data-state="on"]')


def fill_hand(page, winner: int = 1):
    """Tap a declared hand into the page's hand form: seat ``winner`` 自摸 平胡 (when the form
    asks who deals: seat 0). Returns the form."""
    form = page.locator("form.hand-form")
    dealer = form.locator('label.chip:has(input[name="dealer"][value="0"])')
    if dealer.count() and not dealer.locator("input").is_checked():
        dealer.click()
    form.locator(f'label.chip:has(input[name="w1_seat"][value="{winner}"])').click()
    form.locator('label.chip:has(input[name="w1_from"][value="self"])').click()
    form.locator('label.chip:has(input[name="w1_pattern"][value="pinghu"])').click()
    return form


def save_hand(page, winner: int = 1) -> tuple[float, float]:
    """Phone A saves the next hand (:func:`fill_hand`). Returns when (epoch ms) it was sent and
    when the server's answer arrived (the others may show it in between: the event leaves as
    the hand commits)."""
    form = fill_hand(page, winner)
    number = form.locator('input[name="number"]').input_value()
    sent = time.time() * 1000
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        form.locator('button[type="submit"]').click()
    assert answer.value.status == 302, answer.value.status  # stored; the table shows it

    answered = time.time() * 1000
    page.wait_for_url(f"**saved={number}#*")
    page.wait_for_load_state()
    return sent, answered


def seen_at(page, hands: int, timeout: float = 10_000) -> float:
    """When (epoch ms) ``page`` first showed ``hands`` hands on its score sheet, waiting for
    it; the page must not have been reloaded (its watch would be gone)."""
    page.wait_for_function(f"() => window.__seen && window.__seen[{hands}]", timeout=timeout)
    return page.evaluate(f"() => window.__seen[{hands}]")


def changed_after(page, since: float, has: str, timeout: float = 10_000) -> float:
    """When (epoch ms) ``page``'s board first showed text with ``has`` after ``since``."""
    page.wait_for_function(
        "([since, has]) => (window.__changes || []).some(([t, text]) => t >= since"
        " && text.includes(has))",
        arg=[since, has], timeout=timeout,
    )  # fmt: skip
    return page.evaluate(
        "([since, has]) => window.__changes.find(([t, text]) => t >= since"
        " && text.includes(has))[0]",
        [since, has],
    )
