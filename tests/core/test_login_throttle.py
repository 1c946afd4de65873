"""Passwords tried are throttled on the token endpoint, the pages' login and the admin's form
alike: per username from one address (``THROTTLE_LOGIN``), per username from anywhere
(``THROTTLE_LOGIN_USERNAME``) and per address (``THROTTLE_LOGIN_ADDRESS``, far higher), counted
atomically before the password is checked, in the shared cache that processes share."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from django.test import Client

from tests.core.test_celery_worker import broker_url  # noqa: F401 (fixture)
from tests.helpers import run_python

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
PASSWORD = "pl4yer-pass-word"  # the ``user`` fixture's


@pytest.fixture
def production_rates(settings):
    """The rates outside the suite's test mode (which turns throttles off)."""
    settings.THROTTLE_LOGIN = "10/min"
    settings.THROTTLE_LOGIN_USERNAME = "30/min"
    settings.THROTTLE_LOGIN_ADDRESS = "300/min"


def token_login(username: str, password: str, address: str = "127.0.0.1"):
    return Client(REMOTE_ADDR=address).post(
        TOKEN, {"username": username, "password": password}, content_type="application/json"
    )


def test_wrong_passwords_on_the_token_endpoint_are_throttled(user, production_rates, json_errors):
    assert [token_login("player", "wrong").status_code for _ in range(10)] == [400] * 10
    refused = token_login("player", "wrong")
    assert refused.status_code == 429
    assert json_errors(refused)[0]["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= 60
    # while throttled even the right password is not tried
    assert token_login("player", PASSWORD).status_code == 429
    # the same username from elsewhere, and another from here, still log in
    assert token_login("player", PASSWORD, address="10.0.0.2").status_code == 200
    assert token_login("other", "wrong").status_code == 400


def test_one_address_trying_many_usernames_is_throttled(user, production_rates, settings):
    settings.THROTTLE_LOGIN_ADDRESS = "30/min"  # the ceiling, made small enough to reach
    answers = [token_login(f"guess{i}", "wrong").status_code for i in range(31)]
    assert answers == [400] * 30 + [429]
    assert token_login("player", PASSWORD).status_code == 429
    assert token_login("player", PASSWORD, address="10.0.0.2").status_code == 200


def test_one_player_mistyping_does_not_lock_out_the_others_behind_his_address(
    user, production_rates, django_user_model
):
    """Thirty failed logins from one address refused every login from it for 60 s, correct
    passwords included: behind a proxy without NUM_PROXIES, the whole site. Now the address's
    own ceiling is far higher, and only the mistyped username waits."""
    answers = [token_login(f"guess{i % 4}", "wrong").status_code for i in range(44)]
    assert answers == [400] * 40 + [429] * 4  # each mistyped name: ten, then it waits
    assert token_login("player", PASSWORD).status_code == 200


def test_one_username_tried_from_many_addresses_is_throttled(user, production_rates):
    """Guesses spread over addresses (ten each, under the per-address limit) still meet the
    username's own limit: 30, then 429 from anywhere, the right password included."""
    answers = [
        token_login("player", "wrong", address=f"10.9.0.{i // 10}").status_code for i in range(30)
    ]
    assert answers == [400] * 30
    assert token_login("player", "wrong", address="10.9.9.9").status_code == 429
    assert token_login("player", PASSWORD, address="10.9.9.8").status_code == 429


def test_forty_tries_at_once_check_at_most_ten_passwords(
    user, production_rates, live_server, transactional_db
):
    """The count is the check: forty wrong tries sent at once (threads against a live server)
    tested twelve passwords where the limit is ten, the check and the count being apart. Every
    password checked is counted before it is, so at most ten are (the rest answer 429)."""
    import threading
    import urllib.error
    import urllib.request

    from django.contrib.auth.signals import user_login_failed

    checked: list[int] = []
    lock = threading.Lock()

    def failed(sender, credentials, request=None, **kwargs):
        with lock:
            checked.append(0 if getattr(request, "login_throttled", 0) else 1)

    user_login_failed.connect(failed, dispatch_uid="test-forty")
    start = threading.Barrier(40)
    statuses: list[int] = []

    def attempt() -> None:
        body = json.dumps({"username": "player", "password": "wrong"}).encode()
        req = urllib.request.Request(
            f"{live_server.url}{TOKEN}", data=body, method="POST",
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        start.wait()
        code = 0
        for _ in range(50):  # the test server's backlog is short: a refused connection again
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    code = r.status
            except urllib.error.HTTPError as e:
                code = e.code
            except (urllib.error.URLError, ConnectionError):
                continue
            break
        with lock:
            statuses.append(code)

    threads = [threading.Thread(target=attempt) for _ in range(40)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        user_login_failed.disconnect(dispatch_uid="test-forty")
    assert len(statuses) == 40
    assert sum(checked) <= 10, (sum(checked), sorted(statuses))
    assert statuses.count(400) == sum(checked) and statuses.count(429) == 40 - sum(checked)


def test_a_forwarded_for_header_is_not_believed_by_default(user, production_rates):
    for i in range(10):
        spoofed = Client(HTTP_X_FORWARDED_FOR=f"10.1.0.{i}")
        assert spoofed.post(TOKEN, {"username": "player", "password": "x"}).status_code == 400
    assert token_login("player", PASSWORD).status_code == 429


def test_logins_are_not_throttled_in_test_mode(user):
    assert {token_login("player", "wrong").status_code for _ in range(40)} == {400}


def test_wrong_passwords_on_the_admin_form_are_throttled(admin_user, production_rates):
    client = Client()
    page = "/admin/login/?next=/admin/"
    for _ in range(10):
        response = client.post(page, {"username": admin_user.username, "password": "wrong"})
        assert response.status_code == 200 and b"correct username" in response.content
    refused = client.post(page, {"username": admin_user.username, "password": "password"})
    assert refused.status_code == 429
    assert b"Too many failed logins; try again in " in refused.content
    assert b'name="password"' in refused.content  # the login page, to try again later
    assert "_auth_user_id" not in client.session


def test_the_login_page_answers_429_with_retry_after(user, production_rates):
    client = Client()
    for _ in range(10):
        assert (
            client.post("/login/", {"username": "player", "password": "wrong"}).status_code == 200
        )
    refused = client.post("/login/", {"username": "player", "password": PASSWORD})
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many failed logins" in refused.content.decode()


def test_the_admin_login_page_still_logs_in(admin_user, production_rates):
    client = Client()
    response = client.post("/admin/login/?next=/admin/",
                           {"username": admin_user.username, "password": "password"})  # fmt: skip
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


# Two processes, each with its own memory, fail to log in through the whole stack; the second
# finds the first one's failures (the default cache with a Redis broker is that Redis).
FAIL_LOGINS = """
import json, sys
import django
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)
username, address, times = sys.argv[1], sys.argv[2], int(sys.argv[3])
client = Client(REMOTE_ADDR=address)
print(json.dumps([
    client.post("/api/v1/auth/token/", {"username": username, "password": "x"}).status_code
    for _ in range(times)
]))
"""


def test_processes_share_one_count(tmp_path, broker_url):  # noqa: F811
    username = f"eve-{uuid.uuid4().hex[:8]}"  # counts of its own in the shared Redis
    address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(256)}"
    env = {"DJANGO_ENV": "development", "CELERY_BROKER_URL": broker_url,
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}  # fmt: skip
    answers = []
    for _ in range(2):
        result = run_python(["-c", FAIL_LOGINS, username, address, "6"], **env)
        assert result.returncode == 0, result.stderr[-2000:]
        answers += json.loads(result.stdout)
    assert answers == [400] * 10 + [429] * 2
