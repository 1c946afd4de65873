"""Paths into a file, in the API's one notation: dotted keys and ``[i]`` list indices."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def path_of(parts: Iterable[str | int]) -> str:
    """``("sessions", 3, "hands", 2, "settlement")`` → ``sessions[3].hands[2].settlement``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def join(prefix: str, path: str) -> str:
    """A path inside the thing at ``prefix`` (an engine problem's path under a hand's record)."""
    if not path:
        return prefix
    if not prefix:
        return path
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """Where two JSON values first differ (depth first, keys in order): the path and the two
    values there; None when they are equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return join(path, key), a.get(key, "(missing)"), b.get(key, "(missing)")
            found = first_difference(a[key], b[key], join(path, key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return path, f"{len(a)} items", f"{len(b)} items"
        return None
    if a == b and type(a) is type(b):
        return None
    return path, a, b
