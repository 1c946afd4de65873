"""Reading a page's HTML in tests: a table's cells as text, a link's target, an element's
text (the standard library's parser, no dependency)."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser


class _Tables(HTMLParser):
    """Every ``<table>`` of a page: its class and its rows (each cell's text, its first link)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self._stack: list[dict] = []
        self._cell: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            table = {"class": a.get("class") or "", "head": [], "rows": [], "section": "body"}
            self._stack.append(table)
            self.tables.append(table)
        elif not self._stack:
            return
        elif tag in ("thead", "tbody", "tfoot"):
            self._stack[-1]["section"] = tag
        elif tag == "tr":
            row: list[dict] = []
            t = self._stack[-1]
            (t["head"] if t["section"] == "thead" else t["rows"]).append(row)
        elif tag in ("td", "th"):
            self._cell = {"text": "", "href": None, "attrs": a}
            t = self._stack[-1]
            (t["head"] if t["section"] == "thead" else t["rows"])[-1].append(self._cell)
        elif tag == "a" and self._cell is not None and self._cell["href"] is None:
            self._cell["href"] = a.get("href")

    def handle_endtag(self, tag):
        if tag == "table" and self._stack:
            self._stack.pop()
        elif tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data


def tables(html: str, css_class: str = "") -> list[dict]:
    """The page's tables (those whose class holds ``css_class``): each with ``head`` and
    ``rows``, lists of cells ``{"text", "href", "attrs"}`` (text with its spaces squeezed)."""
    parser = _Tables()
    parser.feed(html)
    for t in parser.tables:
        for row in t["head"] + t["rows"]:
            for cell in row:
                cell["text"] = re.sub(r"\s+", " ", cell["text"]).strip()
    return [t for t in parser.tables if css_class in t["class"].split() or not css_class]


def table_text(html: str, css_class: str) -> list[list[str]]:
    """The body rows of the first table of this class, as text."""
    [t, *_] = tables(html, css_class)
    return [[c["text"] for c in row] for row in t["rows"]]


def text_of(html: str) -> str:
    """The page's text, tags dropped and spaces squeezed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body))).strip()
