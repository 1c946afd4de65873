"""Chip groups of the hand form, built as HTML in Python: the form has some 400 choices, and
the template language would spend most of the page's time on them.

A chip is a ``<label class="chip">`` around a radio or checkbox input (styled by site.css),
so the form submits without JavaScript and a tap anywhere on the label chooses it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def chips(
    name: str,
    choices: Iterable[tuple[str, str, str]],
    selected: str | Iterable[str] = "",
    *,
    multiple: bool = False,
    css: str = "chips",
    chip_css: str = "chip",
    value_class: bool = False,
) -> SafeString:
    """``choices``: (value, label, small note) triples; ``selected``: the chosen value (or
    values, for ``multiple``); ``value_class``: each chip also has its value as a class."""
    kind = "checkbox" if multiple else "radio"
    chosen = set(selected) if multiple else {selected}
    field = escape(name)
    parts = [f'<div class="{css}">']
    for value, label, note in choices:
        checked = " checked" if value in chosen else ""
        small = f" <small>{escape(note)}</small>" if note else ""
        css_of = f"{chip_css} {escape(value)}" if value_class else chip_css
        parts.append(
            f'<label class="{css_of}"><input type="{kind}" name="{field}" '
            f'value="{escape(value)}"{checked}>{escape(label)}{small}</label>'
        )
    parts.append("</div>")
    return mark_safe("".join(parts))  # noqa: S308 - every part above is escaped
