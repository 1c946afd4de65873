"""Share cards as PNG (WeChat and most chat apps take no SVG): the evening, a hand, a player's
season and a tournament's standings, each drawn by the server from its SVG with the CJK fonts
the machine has, with a QR code back to its page.

The evening is ``test_share_cards.py``'s (worked by hand there): 小李 +25, hand 2 his declared
自摸 清一色 1根 worth 8 from each of the three others. The tournament: four players at one
table, totals +30, +10, −10, −30 under 4/2/1/0 — A 4, B 2, C 1, D 0.

Each PNG is saved under ``tests/artifacts/png_cards/``: look at them (Chinese glyphs, not boxes).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

import pytest
from django.core.cache import cache
from django.urls import reverse

from clubs.selectors import session_day
from pages.cards.png import MAX_SVG_BYTES, CardTooLarge, png_of
from tests.helpers import login
from tests.pages.cards.test_share_cards import evening as evening  # noqa: F401, F811 - the fixture
from tests.pages.cards.test_share_cards import get, texts
from tournaments import services

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "png_cards"
#: a card's PNG stays below this (a 1080 × 1350 card of text: some 100 KB)
MAX_PNG_BYTES = 1024 * 1024


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG's header (IHDR)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def saved(name: str, response) -> bytes:
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    data = response.content
    assert png_size(data) == (1080, 1350) and len(data) < MAX_PNG_BYTES
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.png").write_bytes(data)
    return data


def test_each_card_is_a_png_of_its_svg(evening):  # noqa: F811
    club, session, member, players = evening
    day = session_day(session).isoformat()
    cards = {
        "evening": reverse("page-club-evening-card", args=[club.slug, day]),
        "hand": reverse("page-hand-card", args=[session.pk, 2]),
        "player": reverse("page-player-card", args=[players[1].pk]) + f"?year={day[:4]}",
    }
    for name, url in cards.items():
        svg = get(member, url)
        lines = texts(svg)
        assert "小李" in " ".join(lines), name
        assert b"<path" in svg.content  # the QR code back to its page
        saved(name, get(member, url.replace("card.svg", "card.png")))
    hand = texts(get(member, cards["hand"]))
    # hand 2: 小李 +24 (8 from each of the three others), each of them −8, and its words
    nets = {
        hand[i]: hand[i + 1]
        for i, t in enumerate(hand[:-1])
        if t in ("老张", "小李", "王姐", "阿明")
    }
    assert nets == {"老张": "−8", "小李": "+24", "王姐": "−8", "阿明": "−8"}
    assert any("清一色" in t for t in hand)


def test_the_tournament_card_says_the_standings(
    in_process_tasks, django_capture_on_commit_callbacks
):
    owner = login("card-director")
    t = services.tournament_create(name="Card cup", slug="card-cup", user=owner, rounds=1,
                                   hands_per_table=1, placement_points=[4, 2, 1, 0])  # fmt: skip
    for name in "ABCD":
        services.registration_create(tournament=t, name=name)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = services.round_start(tournament=t)
    table = round_.tables.get()
    seats = table.session.seats.select_related("player")
    totals = dict(zip("ABCD", [30, 10, -10, -30], strict=True))
    scores = [{"player": s.player_id, "score": totals[s.player.name]} for s in seats]
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result_enter(table=table, scores=scores, user=owner)
    lines = texts(get(None, reverse("page-tournament-card", args=["card-cup"]), "en"))
    assert "Final standings" in lines
    ranks = [(t, lines[i + 1]) for i, t in enumerate(lines) if t[:2] in ("1.", "2.", "3.", "4.")]
    assert ranks == [("1. A", "4"), ("2. B", "2"), ("3. C", "1"), ("4. D", "0")]
    saved("tournament", get(None, reverse("page-tournament-card-png", args=["card-cup"]), "en"))


def test_a_card_is_drawn_once_per_content_and_bounded():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120"><text x="10" y="80" '
        'font-size="60" font-family="Noto Sans CJK SC">血战到底</text></svg>'
    )
    key = "card-png:" + hashlib.sha256(svg.encode()).hexdigest()
    cache.delete(key)
    first = png_of(svg)
    assert cache.get(key) == first and png_of(svg) == first
    # the glyphs are drawn: the text's PNG holds more ink than the same card without it
    blank = png_of(svg.replace("血战到底", ""))
    assert _ink(first) > _ink(blank) + 500
    with pytest.raises(CardTooLarge):
        png_of("<svg>" + "x" * MAX_SVG_BYTES + "</svg>")


def _ink(png: bytes) -> int:
    """How many bytes of the decoded image are not transparent black (8-bit RGBA, the
    renderer's output): a rough count of what was drawn."""
    width, height = png_size(png)
    data, at = b"", 8
    while at < len(png):
        length = struct.unpack(">I", png[at : at + 4])[0]
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(data)
    return sum(1 for b in raw if b) - height  # (each row's filter byte may be non-zero)
