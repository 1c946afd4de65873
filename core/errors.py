"""The project's own errors: what a service refuses, in plain Python.

Services, Celery tasks, management commands and the admin raise and catch these; only
``core.http`` knows what HTTP calls them. Each carries its problems in the API's one error
shape, ``{"path", "code", "message"}``: ``path`` locates the offending input (dotted keys and
``[i]`` for list indices, ``""`` for the request as a whole), ``code`` is stable for clients,
``message`` is for people.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ErrorItem = dict[str, str]


#: an answer lists at most this many problems, the last one then saying how many more there
#: were (the engine keeps to the same number, ``scoring.engine.bounds.MAX_PROBLEMS``)
MAX_PROBLEMS = 100


def problem(path: str, code: str, message: str) -> ErrorItem:
    """One error item."""
    return {"path": str(path), "code": str(code), "message": str(message)}


def listed(items: list[ErrorItem]) -> list[ErrorItem]:
    """The problems an answer lists: all of them up to ``MAX_PROBLEMS``, else the first ones and
    a last saying how many more (a list of 10,000 bad items is not answered 10,000 times)."""
    if len(items) <= MAX_PROBLEMS:
        return items
    more = len(items) - (MAX_PROBLEMS - 1)
    return [
        *items[: MAX_PROBLEMS - 1],
        problem("", "too_many_errors", f"{more} more problems not shown"),
    ]


def _rebuild(cls: type[ServiceError], problems: list[ErrorItem]) -> ServiceError:
    error = cls.__new__(cls)
    ServiceError.__init__(error, problems)
    return error


class ServiceError(Exception):
    """A refusal with one or more problems. ``status`` is the HTTP status it answers."""

    status = 400
    default_code = "invalid"

    def __init__(self, problems: Iterable[Mapping[str, Any]]) -> None:
        items = [
            problem(p.get("path", ""), p.get("code", self.default_code), p.get("message", ""))
            for p in problems
        ]
        if not items:
            items = [problem("", self.default_code, "invalid request")]
        self.problems: list[ErrorItem] = items
        super().__init__(items[0]["message"])

    @classmethod
    def single(cls, path: str, code: str, message: str) -> ServiceError:
        return _rebuild(cls, [problem(path, code, message)])

    @property
    def code(self) -> str:
        return self.problems[0]["code"]

    @property
    def message(self) -> str:
        return self.problems[0]["message"]

    def __reduce__(self):
        # Celery and multiprocessing carry errors across processes: keep every problem.
        return (_rebuild, (type(self), self.problems))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.problems!r})"


class Invalid(ServiceError):
    """The input is wrong: every problem found, each with its path (400)."""


class Conflict(ServiceError):
    """The request conflicts with the current state: a hand number taken, a closed session (409)."""

    status = 409
    default_code = "conflict"

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__([problem(path, code, message)])


class NotFound(ServiceError):
    """No such thing, or none the caller may see (404)."""

    status = 404
    default_code = "not_found"

    def __init__(self, message: str = "Not found.", code: str = "not_found", path: str = ""):
        super().__init__([problem(path, code, message)])


class PermissionDenied(ServiceError):
    """Logged in, but without the role the action needs (403)."""

    status = 403
    default_code = "permission_denied"

    def __init__(self, message: str = "You do not have permission to perform this action."):
        super().__init__([problem("", self.default_code, message)])


class NotAuthenticated(ServiceError):
    """The action needs a login (401)."""

    status = 401
    default_code = "not_authenticated"

    def __init__(self, message: str = "Authentication credentials were not provided."):
        super().__init__([problem("", self.default_code, message)])
