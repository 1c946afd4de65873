"""Xuezhan on a phone's home screen: the web app manifest (name, icons, language, standalone)
and its icons, drawn by the server from one SVG (``pages.cards.png``) at the sizes phones ask
for."""

from __future__ import annotations

import json
from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from pages.cards.png import png_of

#: the icon sizes served (Android's 192 and 512, iOS's 180)
ICON_SIZES = (180, 192, 512)
THEME, BACKGROUND = "#b3261e", "#fafaf7"


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": _("Xuezhan — Sichuan mahjong scores"),
        "short_name": _("Xuezhan"),
        "description": _("Club evenings and tournaments of Sichuan mahjong, every hand checked."),
        "lang": get_language() or "zh-hans",
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": reverse("app-icon", args=[size]), "sizes": f"{size}x{size}",
             "type": "image/png", "purpose": "any"}
            for size in ICON_SIZES
        ],
    }  # fmt: skip
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )


ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" \
viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="{theme}"/>\
<rect x="136" y="76" width="240" height="320" rx="36" fill="#fffdf4" stroke="#7a1a14" \
stroke-width="10"/><text x="256" y="312" text-anchor="middle" font-size="200" \
font-weight="700" font-family="Noto Sans CJK SC, sans-serif" fill="{theme}">血</text>\
<text x="256" y="470" text-anchor="middle" font-size="56" font-weight="700" \
font-family="Noto Sans CJK SC, sans-serif" fill="#fff">血战</text></svg>"""


@require_safe
@cache_control(max_age=7 * 24 * 3600)
def icon(request: HttpRequest, size: int) -> HttpResponse:
    if size not in ICON_SIZES:
        raise Http404
    return HttpResponse(png_of(ICON_SVG.format(size=size, theme=THEME)), content_type="image/png")


#: the service worker's script (served from the site's root: its scope is every page), after
#: the queue's, which it shares with the pages
WORKER = [Path(__file__).resolve().parents[1] / "static" / "pages" / name
          for name in ("queue-db.js", "sw.js")]  # fmt: skip


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker that keeps the table pages usable with no connection
    (``pages/static/pages/sw.js``), never cached by the browser's HTTP cache (a new version
    must reach the phones)."""
    script = b"\n".join(path.read_bytes() for path in WORKER)
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
