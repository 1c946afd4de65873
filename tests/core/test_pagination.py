import pytest

pytestmark = [pytest.mark.urls("tests.core.urls_for_tests"), pytest.mark.django_db]


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create(username=f"u{i:03d}") for i in range(7)]


def test_default_page_size_is_50(api_client, users):
    body = api_client.get("/api/test/users/").json()
    assert body["count"] == 7
    assert len(body["results"]) == 7
    assert body["next"] is None and body["previous"] is None


def test_page_size_query_param(api_client, users):
    body = api_client.get("/api/test/users/?page_size=3&page=2").json()
    assert body["count"] == 7
    assert [u["username"] for u in body["results"]] == ["u003", "u004", "u005"]
    assert "page=3" in body["next"]


def test_page_size_is_capped_at_500():
    from core.pagination import StandardPagination

    assert StandardPagination.page_size == 50
    assert StandardPagination.max_page_size == 500


def test_invalid_page_is_json_404(api_client, users, json_errors):
    response = api_client.get("/api/test/users/?page=99")
    assert response.status_code == 404
    assert json_errors(response)[0]["code"] == "not_found"
