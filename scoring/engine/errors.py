"""Errors raised by the rules engine.

Every refusal carries a stable ``code`` (what), a ``message`` in English (why) and a ``path``
into the submitted data (where), so the API can answer in the project's one error shape. An
answer lists at most :data:`~.bounds.MAX_PROBLEMS` of them: the last one then is
``too_many_errors``, saying how many more were found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from .bounds import MAX_PROBLEMS

T = TypeVar("T")

#: the code of the last problem listed when more were found than an answer lists
TOO_MANY_ERRORS = "too_many_errors"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input."""

    code: str
    message: str
    path: str = ""

    def __post_init__(self) -> None:
        # JSON may carry a lone surrogate ("\ud800"), which UTF-8 cannot: an answer echoing
        # one would fail as it is sent. Escaped here, whichever refusal formed the text.
        for name in ("message", "path"):
            text = getattr(self, name)
            if not is_text(text):
                object.__setattr__(self, name, text.encode("utf-8", "backslashreplace").decode())

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class EngineError(ValueError):
    """Input the engine refuses; holds one or more problems.

    ``problems`` are the ones an answer lists (at most :data:`~.bounds.MAX_PROBLEMS`);
    ``omitted`` counts those found beyond them, which the last listed one
    (``too_many_errors``) reports.
    """

    def __init__(self, code: str, message: str, path: str = "", *, position: int | None = None):
        super().__init__(message)
        self.problems: list[Problem] = [Problem(code, message, path)]
        self.position = position
        self.omitted = 0

    @classmethod
    def many(cls, problems: list[Problem], omitted: int = 0) -> EngineError:
        """The error listing ``problems``, of which ``omitted`` more were found and not kept;
        past :data:`~.bounds.MAX_PROBLEMS` in all, the last one listed says how many more."""
        err = cls(problems[0].code, problems[0].message, problems[0].path)
        if len(problems) + omitted > MAX_PROBLEMS:
            listed = problems[: MAX_PROBLEMS - 1]
            err.omitted = len(problems) + omitted - len(listed)
            more = f"{err.omitted} more problems not shown"
            err.problems = [*listed, Problem(TOO_MANY_ERRORS, more, "")]
        else:
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
        err.omitted = self.omitted
        return err

    def as_dicts(self) -> list[dict[str, str]]:
        return [p.as_dict() for p in self.problems]


#: how many characters of a submitted string a message or a path repeats
ECHO = 40


def is_text(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def shown(value: Any) -> str:
    """A submitted value as a message repeats it: short, and safe whatever was sent.

    A long string is cut; an integer too long to print (Python refuses past 4,300 digits) is
    described by its size; a list or an object is named, never printed (it may be nested
    thousands deep, or be megabytes long). Strings come out as ``repr`` writes them, which
    escapes a lone surrogate.
    """
    if isinstance(value, str):
        if len(value) <= ECHO:
            return repr(value)
        return f"{value[:ECHO]!r}… ({len(value)} characters)"
    if isinstance(value, bool | float) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() <= 64:
            return repr(value)
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def path_key(key: Any) -> str:
    """A submitted object key as a step of a path: as it is when it is a short string, else
    cut (a path says where a problem is; it need not repeat a megabyte-long key) or shown."""
    if isinstance(key, str):
        return key if len(key) <= ECHO else key[:ECHO] + "…"
    return shown(key)


def is_int(v: Any) -> bool:
    """A whole number in JSON (``true`` is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


class Collector:
    """The problems found while reading one input: every parser of the engine reports them all
    at once (a scorer fixes a record in one go), never only the first.

    It keeps the first :data:`~.bounds.MAX_PROBLEMS` and counts the rest (``omitted``): a
    record with a million mistakes costs a hundred problems of memory, and its answer lists
    a hundred.
    """

    def __init__(self) -> None:
        self.problems: list[Problem] = []  # the first ones found
        self.found = 0  # every problem found, kept or not (read where a parser counts them)

    @property
    def omitted(self) -> int:
        """Problems found after the first ones: counted, not kept."""
        return self.found - len(self.problems)

    def __len__(self) -> int:
        return self.found

    def add(self, code: str, message: str, path: str) -> None:
        self.found += 1
        if self.found <= MAX_PROBLEMS:
            self.problems.append(Problem(code, message, path))

    def extend(self, problems: Iterable[Problem]) -> None:
        for p in problems:
            self.found += 1
            if self.found <= MAX_PROBLEMS:
                self.problems.append(p)

    def take(self, error: EngineError) -> None:
        """A refusal's problems, with those it found and did not list."""
        self.extend(error.problems[:-1] if error.omitted else error.problems)
        self.found += error.omitted

    def listed(self) -> list[Problem]:
        """The problems an answer lists: all of them, or the first ones and then how many
        more there were (``too_many_errors``)."""
        return EngineError.many(self.problems, self.omitted).problems if self.problems else []

    def unknown_fields(self, data: dict, allowed: Iterable[str], path: str) -> None:
        """A misspelt key is an error, never ignored (RULES §5)."""
        if not isinstance(allowed, (set, frozenset)):  # noqa: UP038 - a tuple is cheaper
            allowed = frozenset(allowed)
        if data.keys() <= allowed:
            return
        for key in sorted(data.keys() - allowed, key=path_key):
            self.add("unknown_field", f"unknown field {shown(key)}", join_path(path, path_key(key)))

    def attempt(self, fn: Callable[..., T], *args: Any, default: Any = None) -> T | Any:
        """``fn(*args)``, or ``default`` with the refusal's problems collected."""
        try:
            return fn(*args)
        except EngineError as e:
            self.take(e)
            return default

    def raise_if_any(self) -> None:
        if self.problems:  # (none kept, none omitted: the first ones are always kept)
            raise EngineError.many(self.problems, self.omitted)


def join_path(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path:
        return prefix
    if path.startswith("["):
        return prefix + path
    return f"{prefix}.{path}"
