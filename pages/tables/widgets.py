"""Chip groups of the hand form, built as HTML in Python: the form has some 400 choices, and
the template language would spend most of the page's time on them.

A chip is a ``<label class="chip">`` around a radio or checkbox input (styled by site.css),
so the form submits without JavaScript and a tap anywhere on the label chooses it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from pages.templatetags.club_words import signed


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
    values, for ``multiple``); ``value_class``: each chip also has its value as a class.

    The same group is drawn on every view of a form (the same choices, mostly nothing chosen),
    so the HTML is kept, by everything it is drawn from."""
    chosen = frozenset(selected) if multiple else frozenset((selected,))
    items = tuple((str(v), str(label), str(note)) for v, label, note in choices)
    return _chips(name, items, chosen, multiple, css, chip_css, value_class)


@lru_cache(maxsize=2048)
def _chips(
    name: str,
    choices: tuple[tuple[str, str, str], ...],
    chosen: frozenset[str],
    multiple: bool,
    css: str,
    chip_css: str,
    value_class: bool,
) -> SafeString:
    kind = "checkbox" if multiple else "radio"
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


def select(name: str, choices: Iterable[tuple[str, str]], selected: str = "") -> SafeString:
    """A ``<select id=name name=name>`` of (value, label) pairs."""
    field = escape(name)
    options = "".join(
        f'<option value="{escape(value)}"{" selected" if value == selected else ""}>'
        f"{escape(label)}</option>"
        for value, label in choices
    )
    return mark_safe(f'<select id="{field}" name="{field}">{options}</select>')  # noqa: S308


def _signed_class(n: int) -> str:
    return "pos" if n > 0 else "neg" if n < 0 else ""


def _cell(net: int, run: int | None, *, deleted: bool, css: str = "num") -> str:
    """One 流水 cell: the hand's net, and below it the running total (struck out, alone, for a
    deleted hand: it no longer counts)."""
    if deleted:
        return f'<td class="{css}"><s>{signed(net)}</s></td>'
    running = "" if run is None else signed(run)
    return (
        f'<td class="{css}"><span class="{_signed_class(net)}">{signed(net)}</span>'
        f'<small class="run">{running}</small></td>'
    )


def sheet_rows(rows: Iterable[dict], *, declared_title: str, declared_mark: str,
               deleted_words: str) -> SafeString:  # fmt: skip
    """The 流水 sheet's body rows (newest first), built here for the same reason as the chips:
    40 hands × 4 seats × (net, running total) are most of the page. ``rows``: the view's
    ``{"row": SheetRow, "wins": [phrase], "url"}``; the words are the page's language
    (``deleted_words`` has a ``%(reason)s``).

    A hand is two rows: its number and numbers (a seat's, then a bettor's, each with its
    running total), then what happened across the whole width, a win a line, so the numbers'
    columns stay narrow enough for a phone."""
    title, mark = escape(declared_title), escape(declared_mark)
    parts = []
    for item in rows:
        r = item["row"]
        deleted = r.hand.is_deleted
        css = "hand" + (" deleted" if deleted else "") + ("" if r.verified else " declared")
        if deleted:
            gone = deleted_words % {"reason": r.hand.deleted_reason}
            what = f'<span class="win">{escape(gone)}</span>'
        else:
            what = "".join(f'<span class="win">{escape(w)}</span>' for w in item["wins"])
            if item.get("state"):  # held by the confirmation rule, or disputed
                what += f'<span class="badge held-mark">{escape(item["state"])}</span>'
                css += " held"
        flag = "" if r.verified else f'<abbr class="mark" title="{title}">{mark}</abbr>'
        running = r.running or (None,) * len(r.nets)
        cells = [
            _cell(int(n), run, deleted=deleted) for n, run in zip(r.nets, running, strict=True)
        ]
        b_running = r.bettor_running or (None,) * len(r.bettor_nets)
        cells += [
            _cell(int(n), run, deleted=deleted, css="num bettor")
            for n, run in zip(r.bettor_nets, b_running, strict=True)
        ]
        parts.append(
            f'<tr class="{css}"><th scope="row"><a class="hand-link" href="{escape(item["url"])}">'
            f"{r.hand.number}</a></th>{''.join(cells)}</tr>"
            f'<tr class="what-row{" deleted-what" if deleted else ""}">'
            f'<td colspan="{1 + len(cells)}" class="what"><div>{flag}<div>{what}</div></div>'
            "</td></tr>"
        )
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped or an int
