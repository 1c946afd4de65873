"""``compute_standings``: the standings of a tournament from its table results and byes.

* **Placement points** per table (placement.py), ties sharing exactly.
* **Byes** are explicit ``(round, player)`` pairs: a player missing from a round is not given a
  bye here, because drop-outs and late entries also miss rounds and the Django side knows which
  is which. A bye scores ``rules.bye_points`` placement points and ``rules.bye_table_score``
  table score; it is neither a first place nor a table (not in ``rounds_played``, not a
  candidate for the best single table score).
* **Tiebreak chain**: the codes of ``rules.tiebreaks``, looked up in the registry
  (tiebreaks.py), in any order and any subset, each at most once.
* **Withdrawn** players keep their results and are ranked like everyone else; ``withdrawn`` only
  flags them so the caller can decide what to show.
* A seat whose player is **None** (a substitute's table that counts for nobody) takes its
  place at the table, so the three others' placings are as played, and is credited to nobody.
* **Penalties** are ``(player, points)`` pairs, whole placement points the referee takes off:
  a player's placement points are what his tables and byes give less his penalties (so every
  criterion that reads them, and the rank, counts them); ``penalty`` says how many.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from .model import TABLE_SIZE, RoundEntry, Standing, StandingsError, TableResult, is_int
from .placement import PlacementTable, score_of, ties_of
from .rules import StandingsRules
from .tally import Tally
from .tiebreaks import TIEBREAKS, break_ties


def _check_table(result: TableResult, tallies: dict[int, Tally]) -> None:
    where = f"round {result.round} table {result.table}"
    if not is_int(result.round) or result.round < 1:
        raise StandingsError("invalid_round", f"{where}: round must be a positive integer")
    if not is_int(result.table) or result.table < 1:
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
        if player is not None and player not in tallies:
            raise StandingsError("unknown_player", f"{where}: player {player!r} is not registered")
        if player is not None and player in seen:
            raise StandingsError(
                "player_twice_at_table", f"{where}: player {player} is seated twice"
            )
        seen.add(player)
        # (a plain int passes without the call: this runs once per seat of the event)
        if type(score) is not int and not is_int(score):
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
    penalties: Iterable[tuple[int, int]] = (),
) -> tuple[Standing, ...]:
    """Standings of every registered player, best first.

    ``players`` are the registered ids (withdrawn ones included), ``results`` the tables with a
    result, ``byes`` the ``(round, player)`` pairs that score the bye score. The output does not
    depend on the order of any input. Raises :class:`StandingsError` on inconsistent input.
    """
    prepared = PlacementTable(rules.placement_points, rules.bye_points)
    tallies: dict[int, Tally] = {}
    for player in players:
        if not is_int(player):
            raise StandingsError("invalid_player", f"player id {player!r} is not an integer")
        if player in tallies:
            raise StandingsError("duplicate_player", f"player {player} is registered twice")
        tallies[player] = Tally(player)
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

    for result in results:
        _check_table(result, tallies)
        rnd, number = result.round, result.table
        if (rnd, number) in tables_seen:
            raise StandingsError("duplicate_table", f"round {rnd} table {number} has two results")
        tables_seen.add((rnd, number))
        ordered = sorted(result.scores, key=score_of, reverse=True)
        ranks: dict[int, int] = {}
        index = len(table_ranks)
        for (player, score), placing in zip(ordered, placings[ties_of(ordered)], strict=True):
            if player is None:  # a substitute's seat that counts for nobody
                continue
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
        if not is_int(rnd) or rnd < 1:
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

    scale = prepared.scale
    for penalty in penalties:
        try:
            player, points = penalty
        except (TypeError, ValueError):
            raise StandingsError(
                "invalid_penalty", f"penalty {penalty!r} is not (player, points)"
            ) from None
        if player not in tallies:
            raise StandingsError("unknown_player", f"penalty: player {player!r} is not registered")
        if not is_int(points) or points < 1:
            message = f"penalty of player {player}: {points!r} is not a whole number ≥ 1"
            raise StandingsError("invalid_penalty", message)
        tallies[player].penalty += points
        tallies[player].scaled_points -= points * scale

    # Sorted by id first: the stable sorts below then leave full ties in id order.
    field_ = sorted(tallies.values(), key=_player_of)
    chain = tuple(TIEBREAKS[code] for code in rules.tiebreaks)
    groups = break_ties(field_, chain, table_ranks)

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
                    penalty=tally.penalty,
                )
            )
        position += len(group)
    return tuple(standings)


def _player_of(tally: Tally) -> int:
    return tally.player


def _round_of(entry: RoundEntry) -> int:
    return entry.round
