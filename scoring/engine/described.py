"""Pinned rules: the exact ruleset a stored description (:meth:`.Ruleset.as_dict`) describes,
rebuilt from the description alone (RULES §3), every problem of it collected."""

from __future__ import annotations

import hashlib
from typing import Any

from core.names import Name

from . import rulesets
from .bounds import MAX_AMOUNT, MAX_CAP, MAX_ROOTS, MAX_STEPS
from .errors import Collector, EngineError, is_int, join_path, shown
from .patterns import EXTRA_NAMES, PATTERNS
from .rulesets import (
    CURVES,
    NEXT_DEALERS,
    OPTIONAL_PATTERNS,
    Extra,
    PatternEntry,
    Ruleset,
    _canonical,
    _check_options,
    _flags,
    _hashed,
    _read_options,
)

_DESCRIPTION_KEYS = (
    "preset", "version", "title", "source", "curve", "unit", "fan_offset", "patterns", "extras",
    "pattern_extras", "next_dealer", "robbing_pays_kong", "session_multipliers", "options",
    "defaults",
)  # fmt: skip
_PATTERN_KEYS = ("code", "zh", "en", "value", "roots_included", "option")
_EXTRA_KEYS = ("code", "zh", "en", "steps")


def ruleset_from_description(description: Any, path: str = "") -> Ruleset:
    """The exact ruleset a stored description (:meth:`Ruleset.as_dict`) describes.

    It is rebuilt from the description alone, never from today's :data:`PRESETS`: a hand is
    re-settled under the rules it was recorded with, whatever the preset tables say now. The
    description is checked (an ``EngineError`` with a path and a code for each problem), must
    describe itself exactly (its derived parts such as ``unit`` agree), and its fingerprint is
    recomputed: ``ruleset_from_description(r.as_dict())`` has ``r``'s fingerprint, description
    and valuations. Rebuilt rulesets are kept by fingerprint in a bounded cache.
    """
    if not isinstance(description, dict):
        raise EngineError("invalid_description", "a ruleset description is an object", path)
    try:
        # (UTF-8 refuses a lone surrogate: a UnicodeEncodeError, which is a ValueError)
        _canonical(description).encode()
    except (TypeError, ValueError, RecursionError) as e:
        raise EngineError(
            "invalid_description", f"a ruleset description is plain JSON: {e}", path
        ) from e
    hashed = _hashed(description)
    fingerprint = hashlib.sha256(_canonical(hashed).encode()).hexdigest()
    ruleset = rulesets._DESCRIBED.get(fingerprint)
    if ruleset is None:
        ruleset = _rebuild(description, path)
        rebuilt = _hashed(ruleset.as_dict())
        for key in _DESCRIPTION_KEYS:
            if _canonical(rebuilt[key]) != _canonical(hashed[key]):
                raise EngineError(
                    "inconsistent_description",
                    f"{key} does not agree with the rest of the description",
                    join_path(path, key),
                )
        rulesets._DESCRIBED.put(fingerprint, ruleset)
    return ruleset


def _rebuild(d: dict[str, Any], path: str) -> Ruleset:
    """A ruleset from a description's fields, every problem collected."""
    c = Collector()
    _check_keys(c, d, _DESCRIPTION_KEYS, path)
    c.raise_if_any()

    def at(key: str) -> str:
        return join_path(path, key)

    def text(value: Any, where: str) -> str:
        if not isinstance(value, str) or not value:
            c.add("invalid_description", "must be a non-empty string", where)
        return value

    def whole(value: Any, where: str, least: int = 0, most: int | None = None) -> int:
        if not is_int(value) or value < least:
            c.add("invalid_description", f"must be a whole number ≥ {least}", where)
        elif most is not None and value > most:
            c.add("invalid_description", f"must be a whole number from {least} to {most}", where)
        return value

    def flag(value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            c.add("invalid_description", "must be true or false", where)
        return value

    def one_of(value: Any, allowed: tuple[str, ...], where: str) -> str:
        if value not in allowed:
            c.add("invalid_description", f"must be one of {', '.join(allowed)}", where)
        return value

    def rows(value: Any, keys: tuple[str, ...], where: str) -> list[tuple[str, dict]]:
        if not isinstance(value, list):
            c.add("invalid_description", "must be a list", where)
            return []
        out = []
        for i, row in enumerate(value):
            if _check_keys(c, row, keys, f"{where}[{i}]"):
                out.append((f"{where}[{i}]", row))
        return out

    curve = d["curve"] if d["curve"] in CURVES else None  # (a wrong one is refused below)
    # a table value is in the curve's unit, bounded as a cap is (RULES §5)
    most_value = MAX_CAP.get(curve) if curve else None
    title = d["title"]
    if _check_keys(c, title, ("zh", "en"), at("title")):
        title = Name(text(title["zh"], at("title.zh")), text(title["en"], at("title.en")))
    table = []
    for where, row in rows(d["patterns"], _PATTERN_KEYS, at("patterns")):
        one_of(row["code"], tuple(PATTERNS), f"{where}.code")
        if row["option"] is not None:
            one_of(row["option"], _flags(), f"{where}.option")
        table.append(
            PatternEntry(
                code=row["code"],
                value=whole(row["value"], f"{where}.value", most=most_value),
                roots_included=whole(
                    row["roots_included"], f"{where}.roots_included", most=MAX_ROOTS
                ),
                option=row["option"],
                zh=text(row["zh"], f"{where}.zh"),
                en=text(row["en"], f"{where}.en"),
            )
        )
    if isinstance(d["patterns"], list):
        # every winning shape needs a row to be valued by (a row refused above counts as given)
        codes = {row.get("code") for row in d["patterns"] if _has_text(row, "code")}
        for needed in ("pinghu", "qidui"):
            if needed not in codes:
                c.add("incomplete_table", f"the table has no row for {needed}", at("patterns"))
    extras = []
    for where, row in rows(d["extras"], _EXTRA_KEYS, at("extras")):
        one_of(row["code"], tuple(EXTRA_NAMES), f"{where}.code")
        name = Name(text(row["zh"], f"{where}.zh"), text(row["en"], f"{where}.en"))
        steps = whole(row["steps"], f"{where}.steps", most=MAX_STEPS)
        extras.append(Extra(row["code"], steps, name))
    pattern_extras = d["pattern_extras"]
    if not isinstance(pattern_extras, list):
        c.add("invalid_description", "must be a list", at("pattern_extras"))
        pattern_extras = []
    for i, code in enumerate(pattern_extras):
        one_of(code, tuple(OPTIONAL_PATTERNS), at(f"pattern_extras[{i}]"))
    options = {}
    for key in ("options", "defaults"):
        if isinstance(d[key], dict):
            _check_options(c, d[key], at(key), curve, complete=True)
            options[key] = d[key]
        else:
            c.add("invalid_description", "must be an object", at(key))
    scalars = {
        "preset": text(d["preset"], at("preset")),
        "version": whole(d["version"], at("version"), least=1),
        "source": text(d["source"], at("source")),
        "curve": one_of(d["curve"], CURVES, at("curve")),
        "fan_offset": whole(d["fan_offset"], at("fan_offset"), most=MAX_CAP["fan"]),
        "next_dealer": one_of(d["next_dealer"], NEXT_DEALERS, at("next_dealer")),
        "robbing_pays_kong": flag(d["robbing_pays_kong"], at("robbing_pays_kong")),
        "session_doubling": flag(d["session_multipliers"], at("session_multipliers")),
    }
    c.raise_if_any()
    ruleset = Ruleset(
        **scalars,
        title=title,
        options=_read_options(options["options"]),
        defaults=_read_options(options["defaults"]),
        table=tuple(table),
        extras=tuple(extras),
        pattern_extras=tuple(pattern_extras),
    )
    most = largest_value(ruleset)
    if most > MAX_AMOUNT:
        raise EngineError(
            "value_out_of_range",
            f"under these rules a win may be worth up to {shown(most)} base units, more than "
            f"{MAX_AMOUNT:,} (2^53 − 1, the most a JSON number holds exactly)",
            path,
        )
    return ruleset


def largest_value(r: Ruleset) -> int:
    """An upper bound of every value ``r`` gives at base 1 (a win, 查叫, a 花猪 penalty): its
    highest table value moved up every step at once — four roots, every extra, every optional
    pattern, the self-draw step and the 花猪's one step more — capped, with the after-cap
    bonus; or a fixed 花猪 penalty, if that is more."""
    roots = MAX_ROOTS * r.extra_steps.get("gen", 0)
    steps = roots + sum(e.steps for e in r.extras if e.code != "gen") + len(r.pattern_extras) + 2
    top = max((e.value for e in r.table), default=0)
    huazhu = r.options.huazhu if is_int(r.options.huazhu) else 0
    return max(r.capped_value(r.step(top, steps))[0] + 1, r.cap_value(), huazhu)


def _has_text(row: Any, key: str) -> bool:
    """Whether ``row`` is an object whose ``key`` is a string (a code, not a list)."""
    return isinstance(row, dict) and isinstance(row.get(key), str)


def _check_keys(c: Collector, data: Any, keys: tuple[str, ...], path: str) -> bool:
    """Whether ``data`` is an object with exactly these keys (problems collected)."""
    if not isinstance(data, dict):
        c.add("invalid_description", "must be an object", path)
        return False
    c.unknown_fields(data, keys, path)
    for key in keys:
        if key not in data:
            c.add("missing_field", f"field {key!r} is missing", join_path(path, key))
    return data.keys() == set(keys)
