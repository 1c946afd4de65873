"""``field__any_of=ids``: the column is one of many ids, the ids sent as one parameter.

Django writes ``field__in=ids`` as ``IN (%s, %s, …)``, a placeholder per id, and psycopg's
client-side binding (what Django uses) splits and quotes the statement one placeholder at a
time: a recompute's chunk of 1,000 sessions paid 10–20 ms a query for it, more than the
database took to answer. On PostgreSQL this lookup is ``= ANY(%s)`` with the ids as one array;
elsewhere it is ``IN``. Registered on every field by ``core.apps``; the same rows either way.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.models import Lookup


class AnyOf(Lookup):
    lookup_name = "any_of"
    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = list(self.rhs)
        if not values:  # as ``IN ()``: nothing matches, and no query is needed
            raise EmptyResultSet
        if connection.vendor == "postgresql":
            return f"{lhs} = ANY(%s)", [*lhs_params, values]
        return f"{lhs} IN ({', '.join(['%s'] * len(values))})", [*lhs_params, *values]
