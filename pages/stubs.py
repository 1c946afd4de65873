"""Routes named before their pages exist, so every area can link to every other (temporary)."""

from django.http import Http404, HttpRequest


def not_yet(request: HttpRequest, **kwargs):
    raise Http404
