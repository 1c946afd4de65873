"""A free address for something new (a club, a tournament): the slug asked for, or the first
``-2``, ``-3`` … after it that nothing of its kind holds."""

from __future__ import annotations

from django.db.models import QuerySet

#: room left in a 64-character slug for ``-N``
SLUG_STEM = 56


def free_slug(rows: QuerySet, wanted: str, default: str) -> str:
    """``wanted`` (``default`` when empty) if none of ``rows`` has it as its ``slug``, else
    ``wanted-2``, ``wanted-3`` … (one query)."""
    wanted = wanted[:SLUG_STEM] or default
    taken = set(rows.filter(slug__startswith=wanted).values_list("slug", flat=True))
    if wanted not in taken:
        return wanted
    n = 2
    while f"{wanted}-{n}" in taken:
        n += 1
    return f"{wanted}-{n}"
