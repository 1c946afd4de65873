"""A page's body kept drawn for many visitors: what its key holds beside its data's version,
and the visitor's own CSRF token put in.

A page's body kept under its data's version (``core.readcache``) names static files by their
hashed addresses and is drawn by templates: a new release may change either while the data
stays as it was, so the key of a drawn part holds :func:`release` too. It is drawn with a mark
where each visitor's CSRF token goes (:func:`with_token`), and holds nothing else of a visitor:
what he may do there is in its key.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.shortcuts import render
from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core import readcache
from pages.templatetags import frame as parts


def release() -> str:
    """A digest of this process's templates (every file under the template directories) and
    of its static files' manifest (their hashed names in production): computed once, or at
    each call in development (``DEBUG``: templates are edited while the server runs)."""
    return _release() if not settings.DEBUG else _release.__wrapped__()


@functools.cache
def _release() -> str:
    digest = hashlib.blake2b(digest_size=12)
    for directory in (d for t in settings.TEMPLATES for d in t.get("DIRS", ())):
        for path in sorted(Path(directory).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(directory)).encode())
                digest.update(path.read_bytes())
    digest.update(str(getattr(staticfiles_storage, "manifest_hash", "")).encode())
    return digest.hexdigest()


#: where a visitor's CSRF token goes in a part kept drawn for many visitors (letters and
#: hyphens: no escaping moves it)
CSRF_MARK = "csrf-mark-of-the-request"


def token(request: HttpRequest) -> str:
    """The visitor's CSRF token in this answer, masked once. Django's ``get_token`` masks the
    secret anew at each call, drawing its 32 random letters one by one (a tenth of a kept
    page's time), and a page asks for it in its frame, its body and its forms: any masking
    is accepted, so one is enough, drawn here from one call for random bytes. A visitor
    without the secret's cookie gets a new secret, drawn so too, and its cookie (as
    ``get_token`` does); a secret rotated during the request (a sign-in) is masked again."""
    secret = request.META.get("CSRF_COOKIE")
    kept = getattr(request, "_csrf_masked", None)
    if kept is not None and secret is not None and kept[0] == secret:
        return kept[1]
    if secret is None:
        secret = request.META["CSRF_COOKIE"] = _random_letters(CSRF_SECRET_LENGTH)
    # the cookie sent with the answer (a new one, or the visitor's renewed), as get_token does
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    masked = masked_secret(secret)
    request._csrf_masked = (secret, masked)  # type: ignore[attr-defined]
    return masked


_LETTERS = CSRF_ALLOWED_CHARS
_PLACE = {c: i for i, c in enumerate(_LETTERS)}
#: random bytes below this are taken (mod the letters' count, each letter equally likely)
_UNIFORM_BELOW = 256 - 256 % len(_LETTERS)


def _random_places(n: int) -> list[int]:
    """``n`` places in :data:`_LETTERS`, uniform and from the system's secure source."""
    count = len(_LETTERS)
    places: list[int] = []
    while len(places) < n:
        places += [b % count for b in secrets.token_bytes(2 * n) if b < _UNIFORM_BELOW]
    return places[:n]


def _random_letters(n: int) -> str:
    return "".join(_LETTERS[p] for p in _random_places(n))


def masked_secret(secret: str) -> str:
    """``secret`` masked as Django masks it (``django.middleware.csrf``: a random mask of as
    many letters, then each letter of the secret shifted by the mask's letter at its place,
    modulo the letters' count)."""
    count = len(_LETTERS)
    mask = _random_places(len(secret))
    cipher = "".join(_LETTERS[(_PLACE[c] + m) % count] for c, m in zip(secret, mask, strict=True))
    return "".join(_LETTERS[m] for m in mask) + cipher


def csrf(request: HttpRequest) -> dict[str, Any]:
    """Context processor, after Django's own which it replaces: ``csrf_token`` as
    :func:`token` gives it, asked only when a template shows it."""
    return {"csrf_token": SimpleLazyObject(lambda: token(request))}


def with_token(request: HttpRequest, drawn: str) -> SafeString:
    """A part drawn with :data:`CSRF_MARK` (it was drawn by our templates, escaped), with this
    visitor's CSRF token in its place (its letters and digits)."""
    if CSRF_MARK not in drawn:
        return mark_safe(drawn)  # noqa: S308 - drawn by our templates
    return mark_safe(drawn.replace(CSRF_MARK, escape(token(request))))  # noqa: S308


def row_of(instance: Model) -> tuple:
    """A model row's values, as a key holds what a part shows of it: any change to the row
    makes another key."""
    return tuple(getattr(instance, f.attname) for f in instance._meta.concrete_fields)


def digest(*seen: object) -> str:
    """A short digest of what a key holds beside its version."""
    return hashlib.blake2b(repr(seen).encode(), digest_size=16).hexdigest()


# --- a page kept drawn: its frame too -------------------------------------------------------

#: where a page's body goes in its frame kept drawn (its ``<`` is never what a page shows of
#: its data: that is escaped)
BODY_SLOT = "<kept-page-body-slot>"
#: a page's frame drawn around :data:`BODY_SLOT` (:func:`page`)
FRAME = "page-frame-1"


def page(
    request: HttpRequest, template_name: str, context: dict[str, Any], body: str | bytes, *,
    seen: Hashable, status: int = 200,
) -> HttpResponse:  # fmt: skip
    """The page ``template_name`` (a frame: ``base.html`` and the page's own blocks around
    ``{{ main }}``) with ``body``, drawn with :data:`CSRF_MARK`, as its main. The frame is
    drawn once for the template, the language, signed in or not and ``seen`` (all else it
    shows: what its title names, its live channel's ids; ``context`` must show nothing
    more), with marks where the visitor's name, token and address go: a page whose body is
    kept costs string replacements then, not a template's rendering. With messages waiting
    for the visitor (after a form) and in development, the frame is drawn by its templates."""
    data = body if isinstance(body, bytes) else body.encode()
    mark, visitor_token = CSRF_MARK.encode(), escape(token(request)).encode()
    if settings.DEBUG or _messages_waiting(request):
        slot = mark_safe(BODY_SLOT)  # noqa: S308 - ours
        response = render(request, template_name, {**context, "main": slot}, status=status)
        drawn = response.content
    else:
        signed_in = bool(request.user.is_authenticated)
        drawn = readcache.versioned(
            FRAME, digest(template_name, seen, release()),
            lambda: _frame(template_name, context, signed_in),
            parts=(get_language(), signed_in), local=True,
        )  # fmt: skip
        if signed_in:
            drawn = drawn.replace(parts.NAME_MARK.encode(), escape(request.user.username).encode())
        drawn = drawn.replace(parts.PATH_MARK.encode(), escape(request.get_full_path()).encode())
        response = HttpResponse(status=status)
    drawn = drawn.replace(mark, visitor_token)
    response.content = drawn.replace(BODY_SLOT.encode(), data.replace(mark, visitor_token), 1)
    return response


def _frame(template_name: str, context: dict[str, Any], signed_in: bool) -> bytes:
    """The frame drawn for no visitor in particular: his name, token and address marks
    (``pages.templatetags.frame``'s stand-ins), no messages, the body's slot."""
    stand_in = {
        **context, "main": mark_safe(BODY_SLOT), "request": parts.StandInRequest(),  # noqa: S308
        "user": parts.StandInVisitor(signed_in), "csrf_token": CSRF_MARK, "messages": (),
    }  # fmt: skip
    return get_template(template_name).render(stand_in).encode()


def _messages_waiting(request: HttpRequest) -> bool:
    """Whether the visitor has messages to be shown (read, not used up)."""
    storage = getattr(request, "_messages", None)
    return storage is not None and len(storage) > 0
