"""Tournament standings: placement points, byes and the tiebreak chain, in plain Python.

No Django import: the Celery task loads rounds, tables, results, byes and drop-outs from the
database, calls :func:`compute_standings` and stores the tuple it returns as a snapshot. Keeping
the arithmetic here lets it be tested and benchmarked without a database.

Rules as implemented (issue 6):

* **Placement points** per table, by table score, highest first. Players tied on table score
  share the points of the places they span, exactly (``fractions.Fraction``): two tied for 1st
  with (4, 2, 1, 0) get (4 + 2) / 2 = 3 each.
* **Byes** are explicit ``(round, player)`` pairs: a player missing from a round is not given a
  bye here, because drop-outs and late entries also miss rounds and the Django side knows which
  is which. A bye scores ``rules.bye_points`` placement points and ``rules.bye_table_score``
  table score; it is neither a first place nor a table (not in ``rounds_played``, not a
  candidate for the best single table score).
* **Tiebreak chain**, each criterion higher-is-better, applied in the configured order:

  - ``placement_points``: total placement points, byes included;
  - ``table_score``: total table score, byes included;
  - ``first_places``: tables finished first; a shared first counts as a first place for every
    player sharing it (they did not finish below anyone);
  - ``best_table_score``: best single table score; a player without a table ranks below any
    score;
  - ``head_to_head``: among the players still tied at that point of the chain, at every table
    where two of them met, +1 for each tied opponent placed below, -1 for each placed above
    (0 for a tie at that table); compare the sums. It is computed per tied group, never over
    the whole field, so it costs nothing when no one is tied.

  Codes may come in any order and any subset, each at most once. Players still tied after the
  whole chain share the rank (1, 2, 2, 4) and are listed by player id.
* **Withdrawn** players keep their results and are ranked like everyone else; ``withdrawn`` only
  flags them so the caller can decide what to show.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

from tournaments.errors import TournamentError

__all__ = [
    "DEFAULT_PLACEMENT_POINTS",
    "DEFAULT_TIEBREAKS",
    "TABLE_SIZE",
    "TIEBREAKS",
    "RoundEntry",
    "Standing",
    "StandingsError",
    "StandingsRules",
    "TableResult",
    "compute_standings",
    "mean_placement_points",
    "placement_points",
]

TABLE_SIZE = 4
DEFAULT_PLACEMENT_POINTS: tuple[int, ...] = (4, 2, 1, 0)
DEFAULT_TIEBREAKS: tuple[str, ...] = (
    "placement_points",
    "table_score",
    "first_places",
    "best_table_score",
    "head_to_head",
)
TIEBREAKS = frozenset(DEFAULT_TIEBREAKS)


class StandingsError(TournamentError):
    """Bad input to the standings; ``code`` is stable for the API, ``message`` is for people."""


@dataclass(frozen=True)
class TableResult:
    """One table of one round: ``scores`` holds ``(player_id, table score)`` in seat order."""

    round: int
    table: int
    scores: tuple[tuple[int, int], ...]


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True as a score or an id is always a caller bug.
    return isinstance(value, int) and not isinstance(value, bool)


def _is_rational(value: object) -> bool:
    # Floats are refused rather than converted: Fraction(0.1) is not one tenth, and shared
    # points must stay exact for ties in the standings to be real ties.
    return isinstance(value, Rational) and not isinstance(value, bool)


def mean_placement_points(points: Sequence[Fraction | int] = DEFAULT_PLACEMENT_POINTS) -> Fraction:
    """The customary bye score: the average placement points of a table (7/4 for 4/2/1/0)."""
    return Fraction(sum(points, Fraction(0)), len(points))


@dataclass(frozen=True)
class StandingsRules:
    placement_points: tuple[Fraction | int, ...] = DEFAULT_PLACEMENT_POINTS
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    bye_points: Fraction = Fraction(7, 4)
    bye_table_score: int = 0

    def __post_init__(self) -> None:
        # Checked on construction so a bad tournament setting fails where it is read, not in
        # the middle of a recompute. Lists are accepted and stored as tuples (hashable).
        points = self.placement_points
        if isinstance(points, str | bytes) or not isinstance(points, Iterable):
            raise StandingsError(
                "invalid_placement_points", "placement points must be a sequence of numbers"
            )
        points = tuple(points)
        if len(points) != TABLE_SIZE or not all(_is_rational(p) for p in points):
            raise StandingsError(
                "invalid_placement_points",
                f"placement points must be {TABLE_SIZE} integers or fractions, got {points!r}",
            )
        object.__setattr__(self, "placement_points", points)

        tiebreaks = self.tiebreaks
        if isinstance(tiebreaks, str):
            # A lone string would otherwise be read one character at a time.
            tiebreaks = (tiebreaks,)
        tiebreaks = tuple(tiebreaks)
        for code in tiebreaks:
            if code not in TIEBREAKS:
                known = ", ".join(DEFAULT_TIEBREAKS)
                raise StandingsError(
                    "unknown_tiebreak", f"unknown tiebreak {code!r} (known: {known})"
                )
        if len(set(tiebreaks)) != len(tiebreaks):
            raise StandingsError(
                "duplicate_tiebreak", f"a tiebreak appears twice in {list(tiebreaks)!r}"
            )
        object.__setattr__(self, "tiebreaks", tiebreaks)

        if not _is_rational(self.bye_points):
            raise StandingsError(
                "invalid_bye_score",
                f"bye points must be an integer or a fraction, got {self.bye_points!r}",
            )
        object.__setattr__(self, "bye_points", Fraction(self.bye_points))
        if not _is_int(self.bye_table_score):
            raise StandingsError(
                "invalid_bye_score",
                f"bye table score must be an integer, got {self.bye_table_score!r}",
            )


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round of one player: a table played (``bye`` false) or a bye (``table`` None)."""

    round: int
    table: int | None
    table_score: int
    placement_points: Fraction
    place: Fraction | None  # average of the places spanned: 3/2 when sharing 1st and 2nd
    bye: bool


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: int
    placement_points: Fraction
    table_score: int
    first_places: int
    best_table_score: int | None
    head_to_head: int  # from the tied group it was used in, else 0
    rounds_played: int  # tables played; byes are counted apart
    byes: int
    withdrawn: bool
    rounds: tuple[RoundEntry, ...]
    shared: bool  # the rank is shared with at least one other player


# -- placement ---------------------------------------------------------------------------------


def _tie_spans(ordered_scores: Sequence[int]) -> list[tuple[int, int]]:
    """For scores sorted highest first, the (first, last) position of each one's tie group."""
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(ordered_scores)
    for i in range(1, n + 1):
        if i == n or ordered_scores[i] != ordered_scores[start]:
            spans.extend([(start, i - 1)] * (i - start))
            start = i
    return spans


def _share(points: Sequence[Fraction], first: int, last: int) -> Fraction:
    return sum(points[first : last + 1], Fraction(0)) / (last - first + 1)


def placement_points(
    scores: Sequence[tuple[int, int]],
    points: Sequence[Fraction | int] = DEFAULT_PLACEMENT_POINTS,
) -> dict[int, Fraction]:
    """Placement points of each player at one table, ties sharing the places they span.

    ``scores`` is ``(player_id, table score)`` per seat; there must be one per entry of
    ``points``. The zero-sum rule of a table result is checked by :func:`compute_standings`,
    not here, so this can rank any set of scores.
    """
    if len(scores) != len(points):
        raise StandingsError(
            "table_size", f"{len(scores)} scores for {len(points)} placement points"
        )
    if not all(_is_rational(p) for p in points):
        raise StandingsError(
            "invalid_placement_points", f"placement points must be exact numbers, got {points!r}"
        )
    exact = [Fraction(p) for p in points]
    for player, score in scores:
        if not _is_int(score):
            raise StandingsError(
                "score_not_integer", f"player {player}: table score {score!r} is not an integer"
            )
    if len({player for player, _ in scores}) != len(scores):
        raise StandingsError("player_twice_at_table", "a player appears twice at the table")
    ordered = sorted(scores, key=lambda seat: seat[1], reverse=True)
    spans = _tie_spans([score for _, score in ordered])
    return {
        player: _share(exact, first, last)
        for (player, _), (first, last) in zip(ordered, spans, strict=True)
    }


@dataclass(frozen=True, slots=True)
class _Placing:
    points: Fraction
    scaled: int  # points * _Prepared.scale, so totals are summed as ints
    place: Fraction
    rank_key: int  # first position of the tie group: equal for players tied at the table
    first: bool


class _Prepared:
    """Rules turned into lookup tables once per computation."""

    __slots__ = ("scale", "placings", "bye_scaled")

    def __init__(self, rules: StandingsRules) -> None:
        points = [Fraction(p) for p in rules.placement_points]
        # With scores sorted highest first, a table's tie pattern is which neighbours are
        # equal: 2**(TABLE_SIZE-1) patterns, each computed once here instead of per table.
        patterns: dict[tuple[bool, ...], list[tuple[Fraction, int, int]]] = {}
        for mask in range(2 ** (TABLE_SIZE - 1)):
            ties = tuple(bool(mask >> i & 1) for i in range(TABLE_SIZE - 1))
            fake_scores = [0]
            for tied in ties:
                fake_scores.append(fake_scores[-1] - (0 if tied else 1))
            patterns[ties] = [
                (_share(points, first, last), first, last)
                for first, last in _tie_spans(fake_scores)
            ]
        # Summing Fractions is the slow part of a naive loop. Scaled by the lcm of every
        # denominator that can occur (each share, and the bye), all points become integers
        # that add cheaply and exactly; the totals are turned back into Fractions at the end.
        denominators = {share.denominator for shares in patterns.values() for share, _, _ in shares}
        self.scale = math.lcm(rules.bye_points.denominator, *denominators)
        self.bye_scaled = int(rules.bye_points * self.scale)
        self.placings: dict[tuple[bool, ...], tuple[_Placing, ...]] = {
            ties: tuple(
                _Placing(
                    points=share,
                    scaled=int(share * self.scale),
                    place=Fraction(first + last + 2, 2),
                    rank_key=first,
                    first=first == 0,
                )
                for share, first, last in shares
            )
            for ties, shares in patterns.items()
        }


# -- accumulation ------------------------------------------------------------------------------


class _Tally:
    """Mutable running totals of one player, frozen into a Standing at the end."""

    __slots__ = (
        "player",
        "scaled_points",
        "table_score",
        "first_places",
        "best",
        "played",
        "byes",
        "entries",
        "tables",
        "head_to_head",
    )

    def __init__(self, player: int) -> None:
        self.player = player
        self.scaled_points = 0
        self.table_score = 0
        self.first_places = 0
        self.best: int | None = None
        self.played = 0
        self.byes = 0
        self.entries: list[RoundEntry] = []
        # (index into the seated-table list, this player's rank_key there), for head-to-head
        self.tables: list[tuple[int, int]] = []
        self.head_to_head = 0


def _check_table(result: TableResult, tallies: dict[int, _Tally]) -> None:
    where = f"round {result.round} table {result.table}"
    if not _is_int(result.round) or result.round < 1:
        raise StandingsError("invalid_round", f"{where}: round must be a positive integer")
    if not _is_int(result.table) or result.table < 1:
        raise StandingsError("invalid_table", f"{where}: table must be a positive integer")
    scores = result.scores
    if len(scores) != TABLE_SIZE:
        raise StandingsError(
            "table_size", f"{where}: {len(scores)} players, a table seats {TABLE_SIZE}"
        )
    total = 0
    seen: set[int] = set()
    for seat in scores:
        try:
            player, score = seat
        except (TypeError, ValueError):
            raise StandingsError(
                "invalid_seat", f"{where}: {seat!r} is not (player, score)"
            ) from None
        if player not in tallies:
            raise StandingsError("unknown_player", f"{where}: player {player!r} is not registered")
        if player in seen:
            raise StandingsError(
                "player_twice_at_table", f"{where}: player {player} is seated twice"
            )
        seen.add(player)
        if not _is_int(score):
            raise StandingsError(
                "score_not_integer", f"{where}: table score {score!r} is not an integer"
            )
        total += score
    if total != 0:
        raise StandingsError("not_zero_sum", f"{where}: table scores sum to {total}, not 0")


def compute_standings(
    *,
    players: Iterable[int],
    results: Iterable[TableResult],
    byes: Iterable[tuple[int, int]] = (),
    rules: StandingsRules = StandingsRules(),  # noqa: B008 - frozen, so sharing it is safe
    withdrawn: Iterable[int] = (),
) -> tuple[Standing, ...]:
    """Standings of every registered player, best first.

    ``players`` are the registered ids (withdrawn ones included), ``results`` the tables with a
    result, ``byes`` the ``(round, player)`` pairs that score the bye score. The output does not
    depend on the order of any input. Raises :class:`StandingsError` on inconsistent input.
    """
    prepared = _Prepared(rules)
    tallies: dict[int, _Tally] = {}
    for player in players:
        if not _is_int(player):
            raise StandingsError("invalid_player", f"player id {player!r} is not an integer")
        if player in tallies:
            raise StandingsError("duplicate_player", f"player {player} is registered twice")
        tallies[player] = _Tally(player)
    withdrawn_set = set(withdrawn)
    for player in withdrawn_set:
        if player not in tallies:
            raise StandingsError("unknown_player", f"withdrawn player {player!r} is not registered")

    # Where each player sits in each round: a second seat in the same round is an error.
    seated: dict[tuple[int, int], int | None] = {}
    # Per seated table, player -> rank_key, read only by head-to-head.
    table_ranks: list[dict[int, int]] = []
    tables_seen: set[tuple[int, int]] = set()
    placings = prepared.placings
    ties_of = _ties_of

    for result in results:
        _check_table(result, tallies)
        rnd, number = result.round, result.table
        if (rnd, number) in tables_seen:
            raise StandingsError("duplicate_table", f"round {rnd} table {number} has two results")
        tables_seen.add((rnd, number))
        ordered = sorted(result.scores, key=_score_of, reverse=True)
        ranks: dict[int, int] = {}
        index = len(table_ranks)
        for (player, score), placing in zip(ordered, placings[ties_of(ordered)], strict=True):
            key = (rnd, player)
            if key in seated:
                other = seated[key]
                raise StandingsError(
                    "player_twice_in_round",
                    f"round {rnd}: player {player} is at table {other} and table {number}",
                )
            seated[key] = number
            tally = tallies[player]
            tally.scaled_points += placing.scaled
            tally.table_score += score
            if placing.first:
                tally.first_places += 1
            if tally.best is None or score > tally.best:
                tally.best = score
            tally.played += 1
            tally.entries.append(
                RoundEntry(rnd, number, score, placing.points, placing.place, False)
            )
            tally.tables.append((index, placing.rank_key))
            ranks[player] = placing.rank_key
        table_ranks.append(ranks)

    bye_scaled = prepared.bye_scaled
    bye_points = rules.bye_points
    bye_score = rules.bye_table_score
    for bye in byes:
        try:
            rnd, player = bye
        except (TypeError, ValueError):
            raise StandingsError("invalid_bye", f"bye {bye!r} is not (round, player)") from None
        if not _is_int(rnd) or rnd < 1:
            raise StandingsError("invalid_round", f"bye {bye!r}: round must be a positive integer")
        if player not in tallies:
            raise StandingsError(
                "unknown_player", f"bye in round {rnd}: player {player!r} is not registered"
            )
        key = (rnd, player)
        if key in seated:
            other = seated[key]
            where = "a second bye" if other is None else f"a bye and table {other}"
            raise StandingsError(
                "player_twice_in_round", f"round {rnd}: player {player} has {where}"
            )
        seated[key] = None
        tally = tallies[player]
        tally.scaled_points += bye_scaled
        tally.table_score += bye_score
        tally.byes += 1
        tally.entries.append(RoundEntry(rnd, None, bye_score, bye_points, None, True))

    # Sorted by id first: the stable sorts below then leave full ties in id order.
    field_ = sorted(tallies.values(), key=_player_of)
    groups = _break_ties(field_, rules.tiebreaks, table_ranks)

    scale = prepared.scale
    standings: list[Standing] = []
    position = 1
    for group in groups:
        shared = len(group) > 1
        for tally in group:
            entries = tally.entries
            if len(entries) > 1:
                entries.sort(key=_round_of)
            standings.append(
                Standing(
                    rank=position,
                    player=tally.player,
                    placement_points=Fraction(tally.scaled_points, scale),
                    table_score=tally.table_score,
                    first_places=tally.first_places,
                    best_table_score=tally.best,
                    head_to_head=tally.head_to_head,
                    rounds_played=tally.played,
                    byes=tally.byes,
                    withdrawn=tally.player in withdrawn_set,
                    rounds=tuple(entries),
                    shared=shared,
                )
            )
        position += len(group)
    return tuple(standings)


def _score_of(seat: tuple[int, int]) -> int:
    return seat[1]


def _player_of(tally: _Tally) -> int:
    return tally.player


def _round_of(entry: RoundEntry) -> int:
    return entry.round


def _ties_of(ordered: Sequence[tuple[int, int]]) -> tuple[bool, ...]:
    return tuple(ordered[i][1] == ordered[i + 1][1] for i in range(TABLE_SIZE - 1))


# -- tiebreaks ---------------------------------------------------------------------------------

_NO_TABLE = -math.inf  # below any best table score


def _global_key(code: str):
    if code == "placement_points":
        return lambda t: t.scaled_points
    if code == "table_score":
        return lambda t: t.table_score
    if code == "first_places":
        return lambda t: t.first_places
    if code == "best_table_score":
        return lambda t: _NO_TABLE if t.best is None else t.best
    raise AssertionError(code)  # StandingsRules has already refused anything else


def _head_to_head(group: list[_Tally], table_ranks: list[dict[int, int]]) -> None:
    members = {t.player for t in group}
    for tally in group:
        me = tally.player
        total = 0
        for index, my_rank in tally.tables:
            for other, their_rank in table_ranks[index].items():
                if other != me and other in members:
                    # rank_key is a position: smaller is better; equal means tied at the table
                    if their_rank > my_rank:
                        total += 1
                    elif their_rank < my_rank:
                        total -= 1
        tally.head_to_head = total


def _break_ties(
    group: list[_Tally], chain: Sequence[str], table_ranks: list[dict[int, int]]
) -> list[list[_Tally]]:
    """Split ``group`` (already in the order of the previous criteria) into ranked tie groups."""
    if len(group) <= 1 or not chain:
        return [group] if group else []
    code, rest = chain[0], chain[1:]
    if code == "head_to_head":
        _head_to_head(group, table_ranks)

        def key(t: _Tally) -> int:
            return t.head_to_head
    else:
        key = _global_key(code)
    ordered = sorted(group, key=key, reverse=True)
    out: list[list[_Tally]] = []
    start = 0
    current = key(ordered[0])
    for i in range(1, len(ordered) + 1):
        if i == len(ordered) or (value := key(ordered[i])) != current:
            out.extend(_break_ties(ordered[start:i], rest, table_ranks))
            if i < len(ordered):
                start, current = i, value
    return out
