"""The rules pages: the presets with what each is for and their options side by side, and one
preset in full (its value curve, cap, tables of patterns and extras, and every option).

Public, and read from the engine alone (``pages.rules.book``): no query, no login needed.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from pages.rules.book import comparison, preset_lines, preset_page


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    context = {"presets": preset_lines(), "comparison": comparison()}
    return render(request, "pages/rules/index.html", context)


@require_safe
def rules_preset(request: HttpRequest, preset: str) -> HttpResponse:
    page = preset_page(preset)
    if page is None:
        raise Http404
    return render(request, "pages/rules/preset.html", {"rules": page})
