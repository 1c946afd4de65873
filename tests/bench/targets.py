"""A figure printed beside its target: every benchmark says "ok" or "MISSED" the same way."""

from __future__ import annotations

from collections.abc import Callable


def verdict(met: bool) -> str:
    return "ok" if met else "MISSED"


def at_least(value: float, target: float, unit: str = "×") -> str:
    """``target ≥ 0.5×: ok`` — for ratios and rates, where more is better."""
    return f"target ≥ {target:g}{unit}: {verdict(value >= target)}"


def at_most(value: float, target: float, unit: str = " ms") -> str:
    """``target ≤ 30 ms: MISSED`` — for times and counts, where less is better."""
    return f"target ≤ {target:g}{unit}: {verdict(value <= target)}"


def check(label: str, met: Callable[[], bool] | bool, target_text: str) -> str:
    ok = met() if callable(met) else met
    return f"{label}   target {target_text}: {verdict(ok)}"
