"""The API's JSON parser: DRF's, bounded, so nothing a stranger sends costs more than its size.

A document nested deeper than ``JSON_MAX_DEPTH`` levels is refused (400 ``too_deep``) before
any serializer, the engine or an error path walks it recursively; so is an integer longer than
Python converts (400 ``number_too_long``), and so is text with a lone surrogate (a ``"\ud800"``
escape that is half of no character: 400 ``invalid_text``), which no answer could echo back
in UTF-8, and so is a control character in any string (400 ``control_character``,
``core.text``). The body's size is bounded before it is read
(``core.middleware.RequestBodyLimitMiddleware``).
"""

from __future__ import annotations

import codecs
import re
import sys
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

from core import http  # a module: core.http reads DRF's settings, which import this one
from core import text as text_rules
from core.errors import problem

DEFAULT_MAX_DEPTH = 32
#: the escape of a surrogate (``\ud83d\ude00`` is one emoji; ``\ud800`` alone is no text)
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: what may be the escape of a control character in JSON text (a raw one is no valid JSON):
#: a hint only, the parsed strings are then searched exactly
CONTROL_ESCAPE = re.compile(r"\\(?:[bf]|u00[0189][0-9a-fA-F]|u007[fF])|[\x7f-\x9f]")


def too_deep(limit: int) -> ParseError:
    return ParseError(f"JSON nested more than {limit} levels deep", code="too_deep")


def nesting_exceeds(data: Any, limit: int) -> bool:
    """Whether ``data`` (parsed JSON) has containers more than ``limit`` levels deep. Walks
    with a stack of its own: a deep document cannot exhaust Python's."""
    stack = [(data, 1)] if isinstance(data, dict | list) else []
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def lone_surrogate_at(data: Any) -> str | None:
    """Where a string of ``data`` (parsed JSON) is not text UTF-8 can carry: the path of the
    value, or of the object whose key it is; None when all is text."""
    return next((path for path, value in text_rules.strings_of(data) if not is_text(value)), None)


def is_text(value: str) -> bool:
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def bounded_int(digits: str) -> int:
    """``int()`` for the JSON decoder, refusing what Python refuses to convert, as a 400."""
    limit = sys.get_int_max_str_digits()
    if limit and len(digits.lstrip("-")) > limit:
        raise ParseError(f"a number has more than {limit} digits", code="number_too_long")
    return int(digits)


class JSONParser(parsers.JSONParser):
    """``application/json``, nested at most ``settings.JSON_MAX_DEPTH`` levels deep."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        limit = getattr(settings, "JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(
                text,
                parse_constant=json.strict_constant if self.strict else None,
                parse_int=bounded_int,
            )
        except RecursionError:  # deeper than the decoder itself goes
            raise too_deep(limit) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if nesting_exceeds(data, limit):
            raise too_deep(limit)
        if SURROGATE_ESCAPE.search(text) and (path := lone_surrogate_at(data)) is not None:
            message = "not text: a lone surrogate (a \\ud800–\\udfff escape, half a character)"
            raise http.ErrorItems([problem(path, "invalid_text", message)], 400)
        if CONTROL_ESCAPE.search(text) and (found := text_rules.control_at(data)) is not None:
            path, character = found
            problem_ = problem(path, text_rules.CODE, text_rules.message_for(character))
            raise http.ErrorItems([problem_], 400)
        return data
