"""Errors raised by the rules engine.

Every refusal carries a stable ``code`` (what), a ``message`` in English (why) and a ``path``
into the submitted data (where), so the API can answer in the project's one error shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input."""

    code: str
    message: str
    path: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class EngineError(ValueError):
    """Input the engine refuses; holds one or more problems."""

    def __init__(self, code: str, message: str, path: str = "", *, position: int | None = None):
        super().__init__(message)
        self.problems: list[Problem] = [Problem(code, message, path)]
        self.position = position

    @classmethod
    def many(cls, problems: list[Problem]) -> EngineError:
        err = cls(problems[0].code, problems[0].message, problems[0].path)
        err.problems = list(problems)
        return err

    @property
    def code(self) -> str:
        return self.problems[0].code

    @property
    def path(self) -> str:
        return self.problems[0].path

    def at(self, prefix: str) -> EngineError:
        """The same error with every path placed under ``prefix``."""
        moved = [Problem(p.code, p.message, join_path(prefix, p.path)) for p in self.problems]
        err = EngineError.many(moved)
        err.position = self.position
        return err

    def as_dicts(self) -> list[dict[str, str]]:
        return [p.as_dict() for p in self.problems]


def is_int(v: Any) -> bool:
    """A whole number in JSON (``true`` is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


class Collector:
    """The problems found while reading one input: every parser of the engine reports them all
    at once (a scorer fixes a record in one go), never only the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def __len__(self) -> int:
        return len(self.problems)

    def add(self, code: str, message: str, path: str) -> None:
        self.problems.append(Problem(code, message, path))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.problems.extend(problems)

    def unknown_fields(self, data: dict, allowed: Iterable[str], path: str) -> None:
        """A misspelt key is an error, never ignored (RULES §5)."""
        if data.keys() <= set(allowed):
            return
        for key in sorted(set(data) - set(allowed)):
            self.add("unknown_field", f"unknown field {key!r}", join_path(path, key))

    def attempt(self, fn: Callable[..., T], *args: Any, default: Any = None) -> T | Any:
        """``fn(*args)``, or ``default`` with the refusal's problems collected."""
        try:
            return fn(*args)
        except EngineError as e:
            self.problems.extend(e.problems)
            return default

    def raise_if_any(self) -> None:
        if self.problems:
            raise EngineError.many(self.problems)


def join_path(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path:
        return prefix
    if path.startswith("["):
        return prefix + path
    return f"{prefix}.{path}"
