"""The error base of the tournament arithmetic (seating, standings): plain Python, no Django.

Each error carries a ``code`` that API clients may rely on (``pin_conflict``, ``not_zero_sum``)
and a ``message`` for people. The Django side turns them into its own errors; Celery may carry
them across processes first, so they survive ``pickle`` and ``copy`` with both intact.
"""

from __future__ import annotations

from typing import Any


class TournamentError(ValueError):
    """Inputs the tournament rules cannot work with: a seating that cannot be made, a table
    result that does not add up. ``code`` is stable for API clients, ``message`` is for people.

    A ``ValueError``, because the inputs are wrong and retrying them cannot help.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # The default rebuilds an exception from ``args`` (the message alone), which loses the
        # code or fails outright; pickle and copy both go through here.
        return (type(self), (self.code, self.message))
