"""``manage.py demo``: the admin login, idempotence, the production guard."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_history(monkeypatch):
    """The login is all these tests look at: the demo club without its months of evenings
    (``DEMO_DAYS=0``; tests/clubs/test_demo_history.py runs them)."""
    monkeypatch.setenv("DEMO_DAYS", "0")


def run_demo(*args, **kwargs) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out, **kwargs)
    return out.getvalue()


def test_demo_creates_admin_and_prints_login(client):
    output = run_demo()
    assert "username: admin" in output
    assert "password: xuezhan-admin" in output
    user = get_user_model().objects.get(username="admin")
    assert user.is_superuser and user.is_staff and user.is_active
    assert client.login(username="admin", password="xuezhan-admin")
    assert client.get("/admin/").status_code == 200


def test_demo_is_idempotent():
    first = run_demo()
    token = Token.objects.get(user__username="admin").key
    second = run_demo()
    User = get_user_model()
    assert User.objects.filter(username="admin").count() == 1
    assert User.objects.count() == 1
    assert Token.objects.get(user__username="admin").key == token
    assert "Created" in first and "Updated" in second
    assert f"API token: {token}" in second


def test_demo_resets_the_demo_password():
    run_demo()
    user = get_user_model().objects.get(username="admin")
    user.set_password("changed")
    user.save()
    run_demo()
    user.refresh_from_db()
    assert user.check_password("xuezhan-admin")


def test_demo_custom_credentials():
    output = run_demo("--username", "boss", "--password", "s3cret-pass")
    assert "username: boss" in output
    assert get_user_model().objects.get(username="boss").check_password("s3cret-pass")


def test_demo_refuses_in_production(settings):
    settings.PRODUCTION = True
    with pytest.raises(CommandError):
        run_demo()
    run_demo("--force")
