"""What a page kept drawn in the cache depends on beside its data: the release.

A page's body kept under its data's version (``core.readcache``) names static files by their
hashed addresses and is drawn by templates: a new release may change either while the data
stays as it was, so the key of a drawn part holds :func:`release` too.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage


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
