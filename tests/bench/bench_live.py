"""Live pages: how long after a scorer taps Save the other phones, the live tables page and the
projector show the hand (issue: the table lives on four phones; aim ≤ 1 s on loopback).

Run by ``make bench`` (never part of ``make test``). A tournament of one round, five tables of
four players, four hands a table (20 hands). At each table phone A records the hands with the
table's card; phones B, C and D follow with the players' link; the tournament's live tables page
and the projector (standings) stay open throughout. Each in its own browser context of Debian's
Chromium, the site under uvicorn in this process, as ``make run`` serves it, its events through
Redis (``LIVE_REDIS_URL``, database 9 unless set) as in production when Redis answers, else in
process. Printed, from the tap on Save (epoch milliseconds, one clock for all), median and max:

* the hand on phones B, C, D (3 × 20 observations), from phone A's answer (the hand stored:
  the aim is for this) and from the tap;
* the hand's count on the live tables page (20);
* a table's last hand in the projector's standings (5: a table counts once done);
* reference, the same run: phone A's own answer (the POST answered: what the scorer waits).

On a PostgreSQL database of its own (``BENCH_PG``; ``BENCH_DB_LIVE``, default
xuezhan_bench_live), dropped and created afresh; SQLite when PostgreSQL cannot be used.
Without Chromium it says so and measures nothing.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.postgres import bench_django  # noqa: E402

HOST = "127.0.0.1"
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_LIVE", "xuezhan_bench_live")
REDIS = os.environ.get("LIVE_REDIS_URL", f"redis://{HOST}:6379/9")
TABLES, HANDS = 5, 4
AIM_MS = 1000


def redis_answers(url: str) -> bool:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port or 6379), timeout=1).close()
    except OSError:
        return False
    return True


def figure(label: str, ms: list[float], aim: bool = False) -> str:
    text = f"  {label:<58} median {statistics.median(ms):7.0f} ms   max {max(ms):7.0f} ms"
    text += f"   ({len(ms)})"
    if aim:
        text += f"   aim ≤ {AIM_MS} ms: {'ok' if max(ms) <= AIM_MS else 'MISSED'}"
    return text


def main() -> None:
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        print("live pages: Chromium is not installed (apt install chromium): not measured")
        return
    via = "Redis" if redis_answers(REDIS) else "this process (Redis does not answer)"
    if via == "Redis":
        os.environ["LIVE_REDIS_URL"] = REDIS
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop in this thread
    with tempfile.TemporaryDirectory() as folder:
        where = bench_django(PG, DB, folder)
        from django.conf import settings

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]  # the browsers' host
        from playwright.sync_api import sync_playwright

        from tests.browser.live_steps import (
            HALL,
            AsgiServer,
            changed_after,
            phones_at,
            save_hand,
            seen_at,
            tournament_table,
            watch,
        )
        from tests.browser.steps import open_phone

        tournament, tables = tournament_table(hands=HANDS, tables=TABLES)
        server = AsgiServer()
        print(f"live pages: {where}, uvicorn in this process, events through {via}")
        phones_ms: list[float] = []
        after_save_ms: list[float] = []
        live_ms: list[float] = []
        projector_ms: list[float] = []
        own_ms: list[float] = []
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox", "--disable-dev-shm-usage"]
                )
                hall, board = open_phone(browser, server.url)
                board.set_viewport_size(HALL)
                board.goto(f"{server.url}/tournaments/{tournament.slug}/projector/?show=standings")
                watch(board)
                lap, live_tables = open_phone(browser, server.url)
                live_tables.goto(f"{server.url}/tournaments/{tournament.slug}/live/")
                watch(live_tables)
                for table in tables:
                    phones = phones_at(browser, server.url, table)
                    scorer = phones[0][1]
                    for hand in range(1, HANDS + 1):
                        sent, answered = save_hand(scorer, winner=1 + hand % 3)
                        own_ms.append(answered - sent)
                        for _, page in phones[1:]:
                            seen = seen_at(page, hand)
                            phones_ms.append(seen - sent)
                            after_save_ms.append(seen - answered)
                        count = f"{hand} / {HANDS}"
                        live_ms.append(changed_after(live_tables, sent, count) - sent)
                    projector_ms.append(changed_after(board, sent, "") - sent)
                    for context, _ in phones:
                        context.close()
                hall.close()
                lap.close()
                browser.close()
        finally:
            server.stop()
        print(figure("hand saved → phones B, C, D (from A's answer)", after_save_ms, aim=True))
        print(figure("hand → phones B, C, D (from the tap on Save)", phones_ms))
        print(figure("hand → the live tables page", live_ms, aim=True))
        print(figure("a table's last hand → the projector's standings", projector_ms))
        print(figure("  reference: phone A's own save answered", own_ms))


if __name__ == "__main__":
    main()
