"""Template helpers of the tile picker: data attributes as JSON, and the engine's names."""

from __future__ import annotations

import json
from typing import Any

from django import template

from pages.words import name_text
from scoring.services import EXTRA_NAMES, PATTERN_NAMES

register = template.Library()


@register.filter
def tiles_json(value: Any) -> str:
    """A value as JSON for a data attribute (autoescaped by the template); a ruleset snapshot
    or anything with a ``spec`` gives its spec, ``None`` gives ``null``."""
    spec = getattr(value, "spec", None)
    if spec is not None:
        value = spec
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@register.simple_tag
def engine_names_json() -> str:
    """Every pattern and extra code with its engine name in the page's language, as JSON."""
    names = {code: name_text(n) for code, n in {**EXTRA_NAMES, **PATTERN_NAMES}.items()}
    return json.dumps(names, ensure_ascii=False, separators=(",", ":"))
