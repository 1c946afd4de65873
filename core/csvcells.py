"""Cells of a CSV file the project writes: never a formula a spreadsheet would run.

OWASP's rule for CSV injection: a cell beginning with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is a formula to Excel, LibreOffice and Sheets (``=HYPERLINK(...)`` in a
player's name, in a standings file a public club lets anyone download). Such a text cell is
written with a leading apostrophe, which spreadsheets show as text and hide. A number stays a
number: a score of -20 (an int, or a string that is nothing but a number such as a decimal
``"-1.50"``) is written as it is, so the file still adds up.
"""

from __future__ import annotations

import re
from typing import Any

#: what makes a cell a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: a plain number, written by a serializer as text (a Decimal): no formula
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell no spreadsheet runs."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def safe_row(row: dict[str, Any]) -> dict[str, Any]:
    return {key: safe_cell(value) for key, value in row.items()}


def formula_problem(text: str) -> str | None:
    """Why a name read from a CSV file may not be stored as it is (it would be a formula in
    every file the club exports later), or None."""
    if text.startswith(FORMULA_START):
        return "a name may not begin with = + - @ (a spreadsheet would run it as a formula)"
    return None
