"""``core.columns``: a column's value as JSON and CSV, its schema field, the sort keys, and a
table made again when its columns change. Plain rows, no database."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from rest_framework import serializers

from core.columns import Column, Sort, Table
from core.names import Name


class Who(NamedTuple):
    name: str
    rate: float | None
    scores: tuple[int, ...]
    boss: Who | None = None


def table() -> Table[Who]:
    return Table("Who", (
        Column("name", Name("名字", "Name"), kind="str", sort=Sort(ascending=True)),
        Column("rate", "Rate", kind="float", places=2, null=True, format="percent", sort=True,
               help="a rate"),
        Column("best", "Best", value=lambda w: max(w.scores), sort=Sort("top"), api=False),
        Column("scores", kind="ints", value=lambda w: list(w.scores), csv=False),
        Column("boss", value="boss.name", kind="str", null=True),
    ), csv_more=lambda w: [(f"S{i}", s) for i, s in enumerate(w.scores, 1)])  # fmt: skip


ANN = Who("Ann", 0.12345, (3, -1))
BOB = Who("Bob", None, (5,), boss=ANN)


def test_a_row_as_json_and_as_csv():
    t = table()
    assert t.data(ANN) == {"name": "Ann", "rate": 0.12, "scores": [3, -1], "boss": None}
    assert list(t.data(BOB).items()) == [
        ("name", "Bob"), ("rate", None), ("scores", [5]), ("boss", "Ann"),
    ]  # fmt: skip
    assert list(t.csv_row(ANN).items()) == [
        ("name", "Ann"), ("rate", 0.12), ("best", 3), ("boss", None), ("S1", 3), ("S2", -1),
    ]  # fmt: skip


def test_the_schema_is_made_of_the_api_columns():
    fields = table().serializer().fields
    assert list(fields) == ["name", "rate", "scores", "boss"]
    assert isinstance(fields["rate"], serializers.FloatField) and fields["rate"].allow_null
    assert fields["rate"].help_text == "a rate"
    assert isinstance(fields["scores"], serializers.ListField)
    assert fields["boss"].source == "boss.name"  # DRF reads it as the column does
    assert table().serializer.__name__ == "WhoSerializer"


def test_sort_keys_and_the_page():
    t = table()
    assert list(t.sort_keys) == ["name", "rate", "top"]
    assert t.sort_keys["top"](ANN) == 3 and t.sort_keys["rate"](ANN) == 0.12345  # exact
    assert t.ascending == frozenset({"name"})
    assert [c.key for c in t.page_columns] == ["name", "rate", "best"]
    assert [c.num for c in t.page_columns] == [False, True, True]


def test_a_table_changed_is_made_again():
    t = table()
    assert "extra" not in t.data(ANN)
    t.columns = (*t.columns, Column("extra", value=lambda w: len(w.name)))
    assert t.data(ANN)["extra"] == 3 and t["extra"].key == "extra"
    assert "extra" in t.serializer().fields and t.csv_row(ANN)["extra"] == 3


@pytest.mark.parametrize("keys", [("a", "a"), ("a", "not a key")])
def test_keys_are_distinct_identifiers(keys):
    with pytest.raises(ValueError):
        Table("Bad", tuple(Column(k) for k in keys))
