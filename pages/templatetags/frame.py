"""The parts of every page's frame that are alike for every visitor: drawn once per process.

The site's header (who is signed in, sign in or out), its footer (the language switch), the
links in the head and the scripts at the end depend on the language, on whether the visitor
is signed in, and per request only on his name, his CSRF token and the page's address. Each is
drawn once per process for each language and either state, with marks where those go, and the
marks are replaced per request (escaped, as the template escapes them): a page's frame then
costs a few string replacements instead of a template's rendering (issue 25). Nothing of a
visitor is kept: his name, token and address are put in after the drawn part is read.

Drawn parts depend on the templates and static files only, which a process never sees change
but in development (``DEBUG``: drawn each time, as the templates are read again there).
"""

from __future__ import annotations

from django import template
from django.conf import settings
from django.template import Context
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

#: where the visitor's own values go in a drawn part (letters and hyphens: no escaping moves
#: them)
CSRF_MARK = "frame-csrf-token-of-the-request"
NAME_MARK = "frame-user-name-of-the-request"
PATH_MARK = "frame-path-of-the-request"

#: (template, language, signed in) → the part drawn with the marks
_drawn: dict[tuple[str, str, bool], str] = {}


class StandInVisitor:
    """Who the part is drawn for: signed in or not, his name a mark."""

    def __init__(self, signed_in: bool) -> None:
        self.is_authenticated = signed_in
        self.is_anonymous = not signed_in
        self.username = NAME_MARK if signed_in else ""


class StandInRequest:
    """The request as a part reads it: its address a mark."""

    def get_full_path(self) -> str:
        return PATH_MARK


@register.simple_tag(takes_context=True)
def frame_part(context: Context, name: str) -> SafeString:
    """The template ``name`` (a part of the frame: it reads ``user.is_authenticated``,
    ``user.username``, ``request.get_full_path`` and the CSRF token, nothing else of the
    request) as this visitor sees it."""
    request, user = context.get("request"), context.get("user")
    token = context.get("csrf_token")
    engine = context.template.engine
    if settings.DEBUG or request is None or user is None or not token or token == "NOTPROVIDED":
        return mark_safe(engine.get_template(name).render(context))  # noqa: S308 - a template's
    signed_in = bool(user.is_authenticated)
    key = (name, get_language() or "", signed_in)
    drawn = _drawn.get(key)
    if drawn is None:
        stand_in = Context(
            {
                "user": StandInVisitor(signed_in),
                "request": StandInRequest(),
                "csrf_token": CSRF_MARK,
            },
            autoescape=context.autoescape,
        )
        drawn = _drawn[key] = engine.get_template(name).render(stand_in)
    out = drawn.replace(CSRF_MARK, escape(str(token)))
    if signed_in:
        out = out.replace(NAME_MARK, escape(user.username))
    return mark_safe(out.replace(PATH_MARK, escape(request.get_full_path())))  # noqa: S308
