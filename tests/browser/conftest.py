"""Browser tests: Playwright (from pip) driving Debian's Chromium at a phone's size, 390×844.

The browser is never downloaded: ``CHROMIUM`` or ``/usr/bin/chromium`` is used. Without it a
local run skips these tests and says so; under CI (``CI`` set, where ``.ci/run`` installs the
``chromium`` package) a missing browser is a failure, never a skip.

Each step's screenshot is saved under ``tests/artifacts/`` (ignored by git): look at them.

Every page runs under the site's Content-Security-Policy: a violation the browser reports (an
inline script or style attribute the policy refuses, a script from elsewhere) fails the test
that caused it.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.live_steps import AsgiServer
from tests.browser.steps import open_phone

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

# Playwright's sync API runs an event loop in this thread; the live server's database work
# happens in its own thread, the test's own ORM calls here are plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# the service worker's own requests (a table's hand form it sends) pass through the contexts'
# routes too: the offline tests drop an answer there (Chromium, an opt-in of Playwright's)
os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return path if Path(path).exists() else shutil.which("chromium")


class WatchedBrowser:
    """The browser, whose every context reports Content-Security-Policy violations."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self.violations: list[str] = []

    def __getattr__(self, name: str):
        return getattr(self._browser, name)

    def _watch(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(f"{message.location.get('url', '')}: {message.text}")

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.on("console", self._watch)
        return context


@pytest.fixture(autouse=True)
def _no_csp_violations(request) -> Iterator:
    if "browser" not in request.fixturenames:
        yield
        return
    watched = request.getfixturevalue("browser")
    watched.violations.clear()
    yield
    assert watched.violations == [], "the page broke its Content-Security-Policy"


@pytest.fixture(scope="session")
def browser() -> Iterator:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI: Chromium is missing (.ci/run installs the chromium package)")
        pytest.skip("Chromium is not installed (apt install chromium): browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield WatchedBrowser(browser)
        browser.close()


@pytest.fixture
def phone(browser, live_server) -> Iterator:
    """A fresh browser context the size of a phone, in Chinese (a Chinese phone's default)."""
    context, page = open_phone(browser, live_server.url)
    yield page
    context.close()


class Shots:
    """Numbered screenshots of one test: ``shots(page, "signed up")``."""

    def __init__(self, name: str) -> None:
        self.folder = ARTIFACTS / name
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def __call__(self, page, step: str) -> Path:
        self.count += 1
        slug = re.sub(r"[^a-z0-9]+", "-", step.lower()).strip("-")
        path = self.folder / f"{self.count:02d}-{slug}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def shots(request) -> Shots:
    return Shots(re.sub(r"[^A-Za-z0-9_]+", "_", request.node.name))


@pytest.fixture(scope="session")
def _asgi_server(django_db_setup, django_db_blocker) -> Iterator[AsgiServer]:
    with django_db_blocker.unblock():
        server = AsgiServer()
    yield server
    with django_db_blocker.unblock():
        server.stop()


@pytest.fixture
def asgi_server(_asgi_server, transactional_db) -> AsgiServer:
    """The site under its ASGI server (``AsgiServer``), for a test with live pages."""
    return _asgi_server
