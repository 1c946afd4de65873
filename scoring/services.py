"""The rules as a service: ruleset snapshots, the rules a snapshot pinned, settling a hand,
and a hand valued or its waits found (the calculator's).

The engine is pure Python (``scoring.engine``); these functions put it behind the project's
plain errors (``core.errors.Invalid``) for the apps above, which know nothing of the engine's
error type. The engine's vocabulary that pages show (its names of patterns, extras and
reasons, its presets and options) is read through here too: the pages import no engine
module (an import-linter contract).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from core.errors import Invalid
from scoring.engine import (
    EXTRA_NAMES,
    PATTERN_NAMES,
    PRESETS,
    DeclarationMenu,
    EngineError,
    Evaluation,
    Options,
    Ruleset,
    evaluate,
    option_schema,
    parse_waiting_hand,
    parse_winning_hand,
    readiness,
    resolve_ruleset,
    ruleset_from_description,
)
from scoring.engine import declaration_menu as engine_declaration_menu
from scoring.engine.evaluate import Line, Valuation
from scoring.engine.lru import CACHE_SIZE, LRU
from scoring.engine.options import OPTION_SPECS, OptionSpec, asked_options, said_options
from scoring.engine.rulesets import DEFAULT_PRESET
from scoring.engine.settle import (
    BETTOR_LABELS,
    FalseWin,
    HandRecord,
    Kong,
    Payment,
    Settlement,
    SettlementSummary,
    Win,
    WinResult,
    session_multiplier,
    settle,
    stored_record,
)
from scoring.engine.settle.record import Event
from scoring.engine.settle.result import REASON_NAMES
from scoring.engine.tiles import tile_name
from scoring.models import RulesetSnapshot

__all__ = [
    # the services
    "declaration_menu", "hand_settle", "hand_value", "hand_waits", "pinned_ruleset",
    "ruleset_rebuild", "ruleset_resolve", "ruleset_snapshot_get_or_create", "same_rules",
    # what the pages name and offer, as the engine declares it (read here, not from the engine)
    "DEFAULT_PRESET", "EXTRA_NAMES", "OPTION_SPECS", "PATTERN_NAMES", "PRESETS", "OptionSpec",
    "Options", "REASON_NAMES", "asked_options", "option_schema", "said_options",
    # the typed settled hand and its parts, as pages read and word it
    "BETTOR_LABELS", "Evaluation", "Event", "FalseWin", "HandRecord", "Kong", "Line", "Payment",
    "Settlement", "SettlementSummary", "Valuation", "Win", "WinResult", "session_multiplier",
    "tile_name",
]  # fmt: skip

#: the rules snapshots pinned, by fingerprint: rebuilt from a description once per process
_PINNED: LRU[str, Ruleset] = LRU(CACHE_SIZE)


def ruleset_resolve(spec: Any, path: str = "ruleset") -> Ruleset:
    """The ruleset of a spec (a preset name or ``{"preset", "options"}``), as today's presets
    define it; Invalid with the engine's problems otherwise."""
    try:
        return resolve_ruleset(spec, path)
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e


def ruleset_snapshot_get_or_create(*, spec: Any, path: str = "ruleset") -> RulesetSnapshot:
    """The snapshot of a ruleset spec, shared by every session playing identical rules: the
    complete description it resolves to today, pinned."""
    r = ruleset_resolve(spec, path)
    snapshot, _ = RulesetSnapshot.objects.get_or_create(
        fingerprint=r.fingerprint,
        defaults={"preset": r.preset, "spec": r.to_spec(), "description": r.as_dict()},
    )
    return snapshot


def pinned_ruleset(snapshot: RulesetSnapshot) -> Ruleset:
    """The rules a snapshot pinned, rebuilt from its stored description — never from today's
    preset tables, so a hand recorded under them is re-settled the same way forever.

    Rebuilt once per process and kept by the snapshot's fingerprint, so recording a hand does
    not check and hash the description again."""
    ruleset = _PINNED.get(snapshot.fingerprint)
    if ruleset is None:
        ruleset = ruleset_from_description(snapshot.description)
        if ruleset.fingerprint != snapshot.fingerprint:  # pragma: no cover - a corrupt row
            raise ValueError(f"ruleset snapshot {snapshot.pk} does not match its fingerprint")
        _PINNED.put(snapshot.fingerprint, ruleset)
    return ruleset


def pinned_by_fingerprint(fingerprint: str) -> Ruleset:
    """The rules pinned under a fingerprint (a stored hand keeps its rules' fingerprint):
    :func:`pinned_ruleset` of its snapshot, with no query once it is kept in this process."""
    ruleset = _PINNED.get(fingerprint)
    if ruleset is None:
        ruleset = pinned_ruleset(RulesetSnapshot.objects.get(fingerprint=fingerprint))
    return ruleset


#: stored settlements read back, the ones used last kept (about 5 KB a hand): after each write
#: a table's page and its statistics read every hand of the table again, and only the hand
#: written is read from its form
SETTLED_CACHE_SIZE = 2048
_SETTLED: LRU[tuple, Settlement] = LRU(SETTLED_CACHE_SIZE)


def stored_settlements_forget() -> None:
    """Forget every stored settlement read back in this process (a test's database, emptied
    with its ids started again, holds other hands under the same ids)."""
    _SETTLED.clear()


def stored_settlement(
    *,
    record: Mapping[str, Any],
    settlement: Mapping[str, Any],
    ruleset: Ruleset,
    version: Hashable | None = None,
) -> Settlement:
    """A stored hand's settlement, typed: its stored form read back with its record under
    the rules that settled it (``Settlement.from_dict``, any stored format; the record by
    ``stored_record``, as ``HandRecord.from_dict`` reads it without checking it again);
    nothing is settled again. What was stored was settled: a form that does not read is a
    corrupt row (``ValueError``, or the engine's ``EngineError``), never a scorer's mistake.

    ``version`` names this state of the hand, whatever else it is (its id, revision and last
    change: ``clubs.selectors.settled_hand``): given, the settlement read is kept under it
    and the rules' fingerprint, and read once."""
    key = None if version is None else (version, ruleset.fingerprint)
    if key is not None and (kept := _SETTLED.get(key)) is not None:
        return kept
    # the record was checked when it was stored: read straight (the same record)
    settled = Settlement.from_dict(settlement, stored_record(record, ruleset))
    if key is not None:
        _SETTLED.put(key, settled)
    return settled


def stored_summary(
    *, record: Mapping[str, Any], settlement: Mapping[str, Any]
) -> SettlementSummary:
    """A stored hand's settlement at a glance (its nets, its bettors' names, its wins and
    false wins, drawn or not, shown or not), typed, read from its stored forms: what
    :func:`stored_settlement`'s ``summary()`` says, without reading the record or building
    the rest (a table's 流水 sheet reads every hand of the table so). A form that does not
    read is a corrupt row (``ValueError``, ``KeyError``)."""
    return SettlementSummary.from_dict(settlement, record)


def ruleset_rebuild(description: Any, path: str = "description") -> Ruleset:
    """The ruleset a stored description describes (a snapshot brought from elsewhere, say an
    imported club's), rebuilt from it alone; Invalid with the engine's problems otherwise."""
    try:
        return ruleset_from_description(description, path)
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e


def same_rules(spec: Any, snapshot: RulesetSnapshot) -> bool:
    """Whether a spec names the snapshot's rules (a hand may repeat its session's ruleset)."""
    if spec == snapshot.spec:
        return True
    try:
        return resolve_ruleset(spec).fingerprint == snapshot.fingerprint
    except EngineError:
        return False


def hand_settle(*, snapshot: RulesetSnapshot, record: dict[str, Any]) -> Settlement:
    """Validate a hand record under the rules a snapshot pinned and compute its payouts.

    ``record`` is the engine's hand record without its ``ruleset``; Invalid lists every
    problem with its path into the record.
    """
    try:
        return settle({**record, "ruleset": pinned_ruleset(snapshot)})
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e


def declaration_menu(ruleset: Ruleset | RulesetSnapshot | Any) -> DeclarationMenu:
    """What a scorer may declare under a ruleset (RULES §6): its base patterns with their
    values and roots, its hand-shape extras, the situation flags and the draw declarations.

    ``ruleset`` is a :class:`Ruleset`, a snapshot (its pinned rules: what a session records
    under) or a spec (a preset name or ``{"preset", "options"}``); Invalid for a bad spec."""
    if isinstance(ruleset, RulesetSnapshot):
        ruleset = pinned_ruleset(ruleset)
    try:
        return engine_declaration_menu(ruleset)
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e


def hand_value(preset: Any, *, concealed: str, winning_tile: str, self_draw: bool) -> Evaluation:
    """A winning hand in notation valued under a ruleset spec (the calculator's question):
    the engine's typed evaluation; Invalid with the engine's problems for a hand it cannot
    read."""
    try:
        data = {"concealed": concealed, "winning_tile": winning_tile, "self_draw": self_draw}
        return evaluate(parse_winning_hand(data), resolve_ruleset(preset))
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e


def hand_waits(preset: Any, *, concealed: str) -> dict:
    """A hand one tile short in notation under a ruleset spec: its waits with their values
    and 查叫 (the engine's readiness as a dict); Invalid for a hand it cannot read."""
    try:
        tiles, melds, void, visible = parse_waiting_hand({"concealed": concealed})
        return readiness(tiles, resolve_ruleset(preset), melds, void, visible).as_dict()
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e
