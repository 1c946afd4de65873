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
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db.models import Model
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


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


def with_token(request: HttpRequest, drawn: str) -> SafeString:
    """A part drawn with :data:`CSRF_MARK` (it was drawn by our templates, escaped), with this
    visitor's CSRF token in its place (its letters and digits)."""
    if CSRF_MARK not in drawn:
        return mark_safe(drawn)  # noqa: S308 - drawn by our templates
    return mark_safe(drawn.replace(CSRF_MARK, escape(get_token(request))))  # noqa: S308


def row_of(instance: Model) -> tuple:
    """A model row's values, as a key holds what a part shows of it: any change to the row
    makes another key."""
    return tuple(getattr(instance, f.attname) for f in instance._meta.concrete_fields)


def digest(*seen: object) -> str:
    """A short digest of what a key holds beside its version."""
    return hashlib.blake2b(repr(seen).encode(), digest_size=16).hexdigest()
