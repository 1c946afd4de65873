"""Text a person types: no control characters.

A NUL cannot be stored by PostgreSQL (the request failed with a 500), and ``\\x0b`` or ``\\x1b``
in a name made a share card invalid XML; no one types them on purpose. The rule is one: text
holds no character of Unicode's control category Cc except, in free text (reasons, notes), the
tab and the line breaks; a name or a title is one line, so it holds none at all. It is checked
at both front doors — every string of an API body (``core.parsers``) and every form field or
query value (``core.middleware.ControlCharactersMiddleware``) — and again by the services that
store names (``clean_line``), so an import or a command is held to it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from core import http  # a module: core.http imports DRF, whose settings import the parser
from core.errors import Invalid

#: the C0 controls, DEL and the C1 controls, less tab, line feed and carriage return (free
#: text keeps those)
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: ...and in one line, those three too
CONTROL_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f]")

CODE = "control_character"


def message_for(character: str) -> str:
    return f"remove the invisible control character U+{ord(character):04X}"


def strings_of(data: Any) -> Iterator[tuple[str, str]]:
    """Every string of ``data`` (parsed JSON), values and keys, with its place: a value's own
    path, or for a key the path of the object that holds it. Walks with a stack of its own."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, dict):
            for key, child in value.items():
                if isinstance(key, str):
                    yield path, key
                stack.append((child, http.join_path(path, key)))
        elif isinstance(value, list):
            stack.extend((child, http.join_path(path, i)) for i, child in enumerate(value))


def control_at(data: Any) -> tuple[str, str] | None:
    """Where a string of ``data`` (parsed JSON, a key included) holds a control character:
    (path, the character), or None."""
    for path, value in strings_of(data):
        if found := CONTROL.search(value):
            return path, found.group()
    return None


def clean_line(value: str, path: str) -> str:
    """A name or a title: refused (``Invalid``, code ``control_character``) when it holds any
    control character, line breaks and tabs included."""
    if found := CONTROL_IN_LINE.search(value):
        raise Invalid.single(path, CODE, message_for(found.group()))
    return value


def clean_text(value: str, path: str) -> str:
    """Free text (a reason, notes): refused when it holds a control character other than a tab
    or a line break."""
    if found := CONTROL.search(value):
        raise Invalid.single(path, CODE, message_for(found.group()))
    return value


class Found(NamedTuple):
    """A control character found in a form: its field, the character, the field's text."""

    field: str
    character: str
    text: str


def control_in_query(*queries) -> Found | None:
    """Where a form's or a query string's fields (Django query dicts) hold a control
    character other than a tab or a line break, or None. Files are not fields: what reads
    them checks them."""
    for query in queries:
        for key, values in query.lists():
            for text in (key, *values):
                if isinstance(text, str) and (found := CONTROL.search(text)):
                    return Found(key, found.group(), text)
    return None


def visible(text: str, limit: int = 60) -> str:
    """``text`` with each control character written out where it stands (老【U+001B】王), so a
    person sees it on any phone (a font rarely draws Unicode's control pictures); at most
    ``limit`` characters."""
    drawn = CONTROL.sub(lambda m: f"【U+{ord(m.group()):04X}】", text)
    return drawn if len(drawn) <= limit else drawn[: limit - 1] + "…"


def form_fields(request) -> list:
    """What a write sends as text fields: a form's fields, and a DELETE's query string (its
    reason); nothing of a read, whose query only filters (a JSON body is the parser's)."""
    if request.method == "DELETE":
        return [request.GET]
    content_type = request.META.get("CONTENT_TYPE", "")
    if request.method == "POST" and content_type.startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        return [request.POST]
    return []
