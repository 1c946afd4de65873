"""CSV cells no spreadsheet runs (OWASP's CSV injection rule), numbers left as numbers."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.csvcells import formula_problem, safe_cell


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+86 138", "'+86 138"),
        ("-Eve", "'-Eve"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-", "'-"),
        ("-20", "-20"),  # a score written as text: a number, not a formula
        ("+3", "+3"),
        ("-1.50", "-1.50"),
        ("1e-3", "1e-3"),
        ("老王", "老王"),
        ("a=b", "a=b"),
        ("", ""),
        (-20, -20),
        (Decimal("-1.5"), Decimal("-1.5")),
        (None, None),
    ],
)
def test_a_cell(value, written):
    assert safe_cell(value) == written


def test_a_name_on_import():
    assert formula_problem("=cmd") and formula_problem("@x") and formula_problem("-x")
    assert formula_problem("老王") is None and formula_problem("Wang=") is None
