"""Xuezhan on a phone's home screen: the web app manifest in the visitor's language, and its
icons at the sizes it names, drawn by the server."""

from __future__ import annotations

import json
import struct

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("lang", "name"), [("zh-hans", "血战记分"), ("en", "Xuezhan")])
def test_the_manifest_names_the_app_in_the_visitors_language(lang, name):
    answer = Client(HTTP_ACCEPT_LANGUAGE=lang).get("/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    body = json.loads(answer.content)
    assert body["short_name"] == name and body["lang"] == lang
    assert (body["display"], body["start_url"], body["scope"]) == ("standalone", "/", "/")
    for icon in body["icons"]:
        png = Client().get(icon["src"])
        size = int(icon["sizes"].split("x")[0])
        assert png["Content-Type"] == "image/png"
        assert struct.unpack(">II", png.content[16:24]) == (size, size)
    assert Client().get("/icons/icon-64.png").status_code == 404  # only the sizes named


def test_every_page_links_the_manifest():
    page = Client().get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'rel="apple-touch-icon" href="/icons/icon-180.png"' in page
