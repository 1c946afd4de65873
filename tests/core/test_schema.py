import re

import pytest
import yaml
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db

URL_RE = re.compile(r"""https?://[^\s"'<>)]+""")


def test_schema_is_valid_openapi_3(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert response.status_code == 200
    spec = yaml.safe_load(response.content)
    assert spec["openapi"].startswith("3.")
    validate(spec)
    assert "/api/v1/" in spec["paths"]
    assert "/api/v1/auth/token/" in spec["paths"]


def test_schema_json(api_client):
    response = api_client.get("/api/schema/?format=json")
    assert response.status_code == 200
    validate(response.json())


def test_docs_page_uses_no_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html.lower()
    assert "/static/drf_spectacular_sidecar/" in html
    external = [u for u in URL_RE.findall(html) if not u.startswith("http://testserver")]
    assert external == []


def test_sidecar_assets_are_served(client):
    html = client.get("/api/docs/").content.decode()
    assets = re.findall(r"""(/static/drf_spectacular_sidecar/[^"']+)""", html)
    assert assets
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200, asset
        b"".join(response.streaming_content) if response.streaming else response.content
