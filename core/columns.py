"""A table's columns declared once: its heading and its cell defined together (the idea of
Tabbycat's ``utils/tables.py``), and from the same declaration its API field, its CSV cell, its
place in the schema and the key it sorts by.

A :class:`Column` says what one column is: its ``key`` (the JSON field, the CSV heading, the
sort key unless :class:`Sort` names another), its heading on a page (``label``: gettext or a
:class:`core.names.Name`; none: not on the page), how its value is read from a row, its type
for the schema (``kind``), how it is written (``places``: a float rounded in JSON and CSV;
``json``: any other writing; ``format``: the name of the page's way of drawing it) and where it
appears (``api``, ``csv``, the page when it has a label). A :class:`Table` of columns answers the
rest: a row as JSON (:meth:`Table.data`), as CSV (:meth:`Table.csv_row`), the serializer the
schema is drawn from (:attr:`Table.serializer`: its fields are the columns', read when asked, so
a column added later is in the schema too), the sort keys and the page's columns.

Fast by construction: a row is written by one function over the columns' getters, compiled
once per table (a loop over columns per row costs twice as much, and a DRF field per value ten
times); a page draws its cells from ``format`` by its own functions (``pages``: the markup is
the page's, the value the column's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, TypeVar

from django.utils.functional import Promise
from rest_framework import serializers

from core.names import Name

Row = TypeVar("Row")
#: a heading: gettext (lazy), a Name (zh, en) or plain text
Label = Promise | Name | str

#: the schema's field of each kind a column can name (a callable gives any other field)
KINDS: dict[str, Callable[..., serializers.Field]] = {
    "int": serializers.IntegerField,
    "float": serializers.FloatField,
    "str": serializers.CharField,
    "bool": serializers.BooleanField,
    "ints": lambda **kw: serializers.ListField(child=serializers.IntegerField(), **kw),
    "json": serializers.JSONField,
    "datetime": serializers.DateTimeField,
}
#: how a value of these kinds is written unless the column says otherwise (a time: ISO 8601
#: in the current time zone, as DRF's field writes it)
JSON_OF_KIND: dict[str, Callable[[Any], Any]] = {
    "datetime": serializers.DateTimeField().to_representation,
}


def _path(path: str, null: bool) -> Callable[[Any], Any]:
    """The getter of a dotted path (DRF's ``source``): None where a step is None if ``null``."""
    if not null or "." not in path:
        return attrgetter(path)
    steps = path.split(".")

    def get(row: Any) -> Any:
        for step in steps:
            row = getattr(row, step)
            if row is None:
                return None
        return row

    return get


@dataclass(frozen=True)
class Sort:
    """What a column sorts by when it is not its value (``value``), under another key
    (``key``), or smallest first when none is asked for (``ascending``: a name A→Z)."""

    key: str = ""
    value: Callable[[Any], Any] | None = None
    ascending: bool = False


@dataclass(frozen=True)
class Column(Generic[Row]):
    """One column of a table, everywhere it appears."""

    key: str
    label: Label = ""  # the page's heading; "": not on the page
    #: the exact value: a function of the row, or a dotted path (``"hand.number"``, as DRF's
    #: ``source``; with ``null``, None where a step is None); None: the row's ``key``
    value: Callable[[Row], Any] | str | None = None
    kind: str | Callable[..., serializers.Field] = "int"  # the schema's type
    places: int | None = None  # a float rounded to these places in JSON and CSV
    json: Callable[[Any], Any] | None = None  # the value as JSON (after ``places``)
    null: bool = False  # None is a value (a rate with nothing to divide by)
    help: str = ""  # the API's description of it
    about: Label = ""  # what the page's heading explains (its title)
    format: str = "int"  # how the page draws it: a name the page's cell functions know
    sort: Sort | bool = False  # True: sorts by its value under its key
    api: bool = True
    csv: bool = True

    @property
    def page(self) -> bool:
        return bool(self.label)

    @property
    def num(self) -> bool:
        """A number (right-aligned on a page)."""
        return self.kind != "str"

    @property
    def get(self) -> Callable[[Row], Any]:
        """The exact value of a row (what it sorts by unless :class:`Sort` says otherwise)."""
        if callable(self.value):
            return self.value
        return _path(self.value or self.key, self.null)

    @property
    def out(self) -> Callable[[Row], Any]:
        """The value of a row as JSON and CSV write it."""
        get, places = self.get, self.places
        json = self.json or (JSON_OF_KIND.get(self.kind) if isinstance(self.kind, str) else None)
        if places is not None:
            rounded = get

            def get(row: Row) -> Any:
                v = rounded(row)
                return None if v is None else round(v, places)

        if json is not None:
            plain = get

            def get(row: Row) -> Any:
                v = plain(row)
                return None if v is None else json(v)

        return get

    def schema_field(self) -> serializers.Field:
        make = KINDS[self.kind] if isinstance(self.kind, str) else self.kind
        options: dict[str, Any] = {"help_text": self.help} if self.help else {}
        if self.null:
            options["allow_null"] = True
        if isinstance(self.value, str) and self.value != self.key:
            options["source"] = self.value  # DRF reads it as the column does
        return make(**options)

    @property
    def sort_key(self) -> str:
        if isinstance(self.sort, Sort):
            return self.sort.key or self.key
        return self.key if self.sort else ""

    @property
    def sort_value(self) -> Callable[[Row], Any]:
        if isinstance(self.sort, Sort) and self.sort.value is not None:
            return self.sort.value
        return self.get


def _row_writer(items: list[tuple[str, Callable[[Any], Any]]]) -> Callable[[Any], dict]:
    """One function writing a row as a dict of these keys in order, each from its getter:
    compiled once (one dict display) rather than a loop over the columns per row."""
    getters = {f"_g{i}": get for i, (_, get) in enumerate(items)}
    body = ", ".join(f"{key!r}: _g{i}(row)" for i, (key, _) in enumerate(items))
    source = f"def write(row):\n    return {{{body}}}\n"
    # keys are the table's own identifiers (checked in Table), never input
    exec(compile(source, "<columns>", "exec"), getters)  # noqa: S102
    return getters["write"]


def joined(
    parts: list[Callable[[Any], str]], before: str = "", after: str = ""
) -> Callable[[Any], str]:
    """One function writing a row's text: ``before``, each part's text of the row, ``after``
    (a page's ``<tr>`` from its cells' functions), compiled once as :func:`_row_writer` is."""
    names: dict[str, Any] = {f"_p{i}": part for i, part in enumerate(parts)}
    names |= {"_before": before, "_after": after}
    calls = "".join(f"_p{i}(row), " for i in range(len(parts)))
    source = f"def write(row):\n    return ''.join((_before, {calls}_after))\n"
    exec(compile(source, "<columns>", "exec"), names)  # noqa: S102 - no input in the source
    return names["write"]


@dataclass
class Table(Generic[Row]):
    """A table's columns, in order, and what is made of them. ``csv_more``: cells a row adds
    after its columns in CSV that no column declares (a tournament's rounds, R1 … Rn)."""

    name: str  # the schema's name of a row (``RankingRow``)
    columns: tuple[Column[Row], ...]
    csv_more: Callable[[Row], Iterable[tuple[str, Any]]] | None = None
    doc: str = ""
    _derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "columns":  # a table changed (a test's column): made again when asked
            keys = [c.key for c in value]
            if len(set(keys)) != len(keys) or not all(k.isidentifier() for k in keys):
                raise ValueError(f"{self.name}: column keys are distinct identifiers: {keys}")
            self.__dict__.setdefault("_derived", {}).clear()

    def _made(self, what: str, make: Callable[[], Any]) -> Any:
        if what not in self._derived:
            self._derived[what] = make()
        return self._derived[what]

    # --- the API and CSV ---------------------------------------------------------------------

    @property
    def data(self) -> Callable[[Row], dict[str, Any]]:
        """A row as the API answers it (the API's columns, in order)."""
        return self._made(
            "data", lambda: _row_writer([(c.key, c.out) for c in self.columns if c.api])
        )

    @property
    def csv_row(self) -> Callable[[Row], dict[str, Any]]:
        """A row as a CSV line (the CSV's columns, in order, then ``csv_more``)."""

        def make() -> Callable[[Row], dict[str, Any]]:
            write = _row_writer([(c.key, c.out) for c in self.columns if c.csv])
            more = self.csv_more
            if more is None:
                return write
            return lambda row: write(row) | dict(more(row))

        return self._made("csv", make)

    def fields(self) -> dict[str, serializers.Field]:
        """The schema's field of each API column."""
        return {c.key: c.schema_field() for c in self.columns if c.api}

    @property
    def serializer(self) -> type[serializers.Serializer]:
        """The serializer of a row: its fields are the columns' (the schema's source), read
        when asked; it writes a row as :attr:`data` does."""

        def make() -> type[serializers.Serializer]:
            table = self

            class ColumnsSerializer(serializers.Serializer):
                def get_fields(self) -> dict[str, serializers.Field]:
                    return table.fields()

                def to_representation(self, row: Any) -> dict[str, Any]:
                    return table.data(row)

            ColumnsSerializer.__name__ = ColumnsSerializer.__qualname__ = f"{self.name}Serializer"
            ColumnsSerializer.__doc__ = self.doc or None
            return ColumnsSerializer

        return self._made("serializer", make)

    # --- sorting and the page ------------------------------------------------------------------

    @property
    def sort_keys(self) -> dict[str, Callable[[Row], Any]]:
        """Each sort key and what it reads of a row, in the columns' order."""
        return self._made(
            "sort_keys", lambda: {c.sort_key: c.sort_value for c in self.columns if c.sort_key}
        )

    @property
    def ascending(self) -> frozenset[str]:
        """The sort keys that sort smallest first when no order is asked for."""
        return self._made(
            "ascending",
            lambda: frozenset(
                c.sort_key for c in self.columns if isinstance(c.sort, Sort) and c.sort.ascending
            ),
        )

    @property
    def page_columns(self) -> tuple[Column[Row], ...]:
        """The columns a page shows, in order."""
        return self._made("page", lambda: tuple(c for c in self.columns if c.page))

    @property
    def columns_by_key(self) -> dict[str, Column[Row]]:
        return self._made("by_key", lambda: {c.key: c for c in self.columns})

    def __getitem__(self, key: str) -> Column[Row]:
        return self.columns_by_key[key]
