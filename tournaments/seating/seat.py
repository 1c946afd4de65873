"""seat_round: one round of a tournament, by any method, with its byes, pins and quality.

``balanced`` plans every remaining round at once (the standings do not matter, so a whole
event can be laid out to avoid repeats; seating round by round with earlier rounds frozen
paints itself into a corner on tight events) and serves it a round at a time. The plan comes
back with each call and is used as is while it still fits; when someone drops out, arrives late
or is pinned it is planned again from the history, and a plan that repeats pairs is planned
again each round in case the rounds now frozen allow better. A design (constructions.py) starts
the plan when one fits; the search (search.py) does the rest.

``swiss`` seats by the standings, round by round, starting from the greedy reference and
swapping players out of repeated pairs, as few places as possible. ``random`` draws a seeded
order and then seats like swiss on it, so a draw never puts a pair together again when that can
be avoided. Byes go to those with the fewest so far (then the lowest standing in swiss, the
seed otherwise); a search may hand a bye to another player just as due for one if that avoids
a repeat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from .assign import PlaceCounts, place_plan, place_round
from .constructions import construct
from .model import METHODS, RoundSeating, SeatingError, SeatingResult
from .quality import bye_counts, meetings, quality
from .reference import greedy_swiss
from .search import Schedule, fill_groups
from .timing import TIME_LIMIT_S, TimeLimit

#: Search budgets, counted in moves tried, not in seconds, so that a seating depends only on
#: its inputs. Annealing tries about 600,000 moves a second here and the tabu descent evaluates
#: about a million swaps a second. A plan that reaches its lower bound (0 repeats, mostly) stops
#: at once; a tight one (32 x 10, 17 x 5 with fair byes) spends its budget: a thousand moves per
#: player-round, at most half a million (under a second). Going higher buys nothing measurable.
PLAN_MOVES = 500_000
PLAN_DESCENT = 30_000
MOVES_PER_SEAT = 1_000
#: A swiss (or random) round: a budget per player, at most ROUND_EVALS.
ROUND_EVALS = 400_000
EVALS_PER_PLAYER = 4_000
#: Plans longer than this many player-rounds are cut and rolled forward each round instead.
PLAN_SIZE = 20_000


def _rng(seed: int, *parts: object) -> random.Random:
    # A str seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    return random.Random(":".join(["xuezhan-seating", str(seed), *map(str, parts)]))


def _check(method: str, players: Sequence[int], pinned: Mapping[int, int] | None) -> dict[int, int]:
    if method not in METHODS:
        raise SeatingError("unknown_method", f"method must be one of {', '.join(METHODS)}")
    if len(set(players)) != len(players):
        raise SeatingError("duplicate_players", "a player is listed twice")
    if len(players) < 4:
        raise SeatingError("too_few_players", "at least four active players are needed")
    active = set(players)
    pins = {p: t for p, t in (pinned or {}).items() if p in active}
    tables = len(players) // 4
    for p, t in pins.items():
        if not 1 <= t <= tables:
            raise SeatingError(
                "pin_conflict", f"player {p} is pinned to table {t}, but there are {tables} tables"
            )
    for t, k in Counter(pins.values()).items():
        if k > 4:
            raise SeatingError("pin_conflict", f"{k} players are pinned to table {t}")
    return pins


def choose_byes(
    players: Sequence[int],
    count: int,
    byes: Counter[int],
    pins: Mapping[int, int],
    tiebreak: Callable[[int], float],
) -> list[int]:
    """Who sits out: never a pinned player while someone else can, then whoever has sat out
    least, then by ``tiebreak`` (lowest standing in swiss, the seed otherwise)."""
    if not count:
        return []
    order = sorted(players, key=lambda p: (p in pins, byes[p], tiebreak(p)))
    return order[:count]


def _pair_counts(history: Sequence[RoundSeating], index: Mapping[int, int]) -> dict[int, int]:
    n = len(index)
    pairs: dict[int, int] = {}
    for (a, b), m in meetings(history).items():
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None:
            key = i * n + j if i < j else j * n + i
            pairs[key] = m
    return pairs


def _repeat_bound(n: int, playing_rounds: Sequence[int], pairs: Mapping[int, int]) -> int:
    """A lower bound on the repeats among n players who play these many rounds each (history
    included): nobody can meet more than n - 1 different players."""
    excess = sum(max(0, 3 * k - (n - 1)) for k in playing_rounds)
    return max((excess + 1) // 2, sum(m - 1 for m in pairs.values() if m > 1))


# --- balanced --------------------------------------------------------------------------------
def _plan_fits(
    plan: Sequence[RoundSeating], players: Sequence[int], pins: Mapping[int, int], needed: int
) -> tuple[bool, bool]:
    """(groups fit, numbers fit): same players and table count, pinned players together at one
    table apart from other pins, no avoidable bye for a pinned player; then pins at their
    numbers."""
    if len(plan) < needed:
        return False, False
    everyone = sorted(players)
    tables, nbyes = divmod(len(players), 4)
    numbers_ok = True
    for rnd in plan[:needed]:
        if len(rnd.tables) != tables or len(rnd.byes) != nbyes:
            return False, False
        if sorted(rnd.players()) != everyone or any(len(t.players) != 4 for t in rnd.tables):
            return False, False
        if sorted(t.number for t in rnd.tables) != list(range(1, tables + 1)):
            return False, False
        seen: dict[int, int] = {}
        for t in rnd.tables:
            labels = {pins[p] for p in t.players if p in pins}
            if len(labels) > 1 or any(lab in seen for lab in labels):
                return False, False
            for lab in labels:
                seen[lab] = t.number
                numbers_ok &= lab == t.number
        if any(p in pins for p in rnd.byes) and any(
            p not in pins for t in rnd.tables for p in t.players
        ):
            return False, False
    return True, numbers_ok


def _renumber(
    plan: Sequence[RoundSeating],
    history: Sequence[RoundSeating],
    pins: Mapping[int, int],
    rng: random.Random,
) -> list[RoundSeating]:
    counts = PlaceCounts(history)
    return [
        place_round([list(t.players) for t in rnd.tables], rnd.byes, pins, counts, rng)
        for rnd in plan
    ]


def _plan_balanced(
    players: Sequence[int],
    history: Sequence[RoundSeating],
    rounds: int,
    pins: Mapping[int, int],
    rng: random.Random,
    limit: TimeLimit,
) -> tuple[list[RoundSeating], int]:
    """Every remaining round at once; returns the plan and its event repeats (active players)."""
    n = len(players)
    tables, nbyes = divmod(n, 4)
    index = {p: i for i, p in enumerate(players)}
    labels = [pins.get(p, 0) for p in players]
    pairs = _pair_counts(history, index)
    limit.check()

    # Byes first, rotating through the plan as if each planned round had been played.
    byes_so_far = bye_counts(history)
    bye_base = [byes_so_far[p] for p in players]
    bye_rounds: list[list[int]] = []
    for _ in range(rounds):
        limit.check()
        draw = {p: rng.random() for p in players}
        out = choose_byes(players, nbyes, byes_so_far, pins, draw.__getitem__)
        byes_so_far.update(out)
        bye_rounds.append(out)
    played_before = Counter(p for rnd in history for t in rnd.tables for p in t.players)
    # Bye moves may hand the plan's byes to other players, so the bound counts everyone as
    # sitting out as often as anyone does now.
    most_out = max(Counter(p for b in bye_rounds for p in b).values(), default=0)
    playing = [played_before[p] + rounds - most_out for p in players]

    history_rounds = len(history) + rounds
    schedule = Schedule(
        n, pairs, labels, rng, max_meetings=history_rounds, bye_base=bye_base, limit=limit
    )
    designed: list[list[tuple[int, int, int, int]]] = []
    blocks = Counter(labels[i] for i in range(n) if labels[i])
    if not pairs and not nbyes and all(k == 1 for k in blocks.values()):
        # Pinned players go to the design's points that never meet; the rest are shuffled.
        pinned_first = [p for p in players if p in pins] + [p for p in players if p not in pins]
        rest = pinned_first[len(pins) :]
        rng.shuffle(rest)
        points = [index[p] for p in pinned_first[: len(pins)] + rest]
        designed = [
            [tuple(points[x] for x in t) for t in rnd]  # type: ignore[misc]
            for rnd in construct(n, rounds, rng, keep_apart=len(pins))
        ]
    for r in range(rounds):
        limit.check()
        if r < len(designed):
            schedule.add_round([list(t) for t in designed[r]])
            continue
        out = {index[p] for p in bye_rounds[r]}
        seeds: dict[int, list[int]] = {}
        for lab in sorted(blocks):
            members = [i for i in range(n) if labels[i] == lab and i not in out]
            if members:
                seeds[len(seeds)] = members
        order = [i for i in range(n) if i not in out and not labels[i]]
        rng.shuffle(order)
        schedule.add_round(
            fill_groups(schedule.rows, order, seeds, tables, limit=limit), sorted(out)
        )

    bound = _repeat_bound(n, playing, pairs)
    # Steepest descent first: it clears the scattered repeats of an easy plan in a few hundred
    # moves; annealing is for what is left of a tight one.
    size = MOVES_PER_SEAT * n * rounds
    schedule.tabu_search(max_evals=min(PLAN_DESCENT, size), limit=limit, target_repeats=bound)
    schedule.anneal(moves=min(PLAN_MOVES, size), limit=limit, target_repeats=bound)

    plan = place_plan(
        [
            ([[players[i] for i in g] for g in groups], [players[i] for i in out])
            for groups, out in zip(schedule.rounds, schedule.byes, strict=True)
        ],
        pins,
        history,
        rng,
        limit,
    )
    return plan, schedule.repeats


def _balanced(
    players: Sequence[int],
    history: Sequence[RoundSeating],
    total_rounds: int,
    pins: Mapping[int, int],
    plan: Sequence[RoundSeating] | None,
    seed: int,
    limit: TimeLimit,
) -> tuple[RoundSeating, list[RoundSeating]]:
    n = len(players)
    remaining = max(1, total_rounds - len(history))
    needed = max(1, min(remaining, PLAN_SIZE // n))
    rng = _rng(seed, "balanced", len(history) + 1)
    kept: list[RoundSeating] | None = None
    if plan:
        try:
            groups_fit, numbers_fit = _plan_fits(plan, players, pins, needed)
        except (AttributeError, TypeError, ValueError):  # not a plan this package made
            groups_fit = numbers_fit = False
        if groups_fit:
            kept = list(plan[:needed])
            if not numbers_fit:
                kept = _renumber(kept, history, pins, rng)
    if kept is not None:
        index = {p: i for i, p in enumerate(players)}
        repeats = sum(m - 1 for m in _pair_counts([*history, *kept], index).values() if m > 1)
        past = sum(m - 1 for m in _pair_counts(history, index).values() if m > 1)
        if repeats == past:
            return kept[0], kept[1:]
        # The plan repeats pairs (tight event, or a history that changed): a fresh plan from
        # where the event stands now may do better; keep the old one unless it does.
        fresh, fresh_repeats = _plan_balanced(sorted(players), history, needed, pins, rng, limit)
        if fresh_repeats < repeats:
            kept = fresh
        return kept[0], kept[1:]
    fresh, _ = _plan_balanced(sorted(players), history, needed, pins, rng, limit)
    return fresh[0], fresh[1:]


# --- swiss and random --------------------------------------------------------------------------
def _by_order(
    order: Sequence[int],
    history: Sequence[RoundSeating],
    pins: Mapping[int, int],
    byes: Sequence[int],
    rng: random.Random,
    limit: TimeLimit,
    start: list[list[int]] | None = None,
) -> tuple[list[list[int]], list[int], int]:
    """Groups for the players of ``order``, each as close to its place in the order as repeats
    allow, ``byes`` sitting out unless handing a bye to another player just as due for one
    avoids a repeat. Returns the groups in table order, the byes and the round's new repeats."""
    out = set(byes)
    playing = [p for p in order if p not in out]
    everyone = playing + list(byes)  # indices: the playing in order, then those sitting out
    n = len(playing)
    tables = n // 4
    index = {p: i for i, p in enumerate(everyone)}
    labels = [pins.get(p, 0) for p in everyone]
    pairs = _pair_counts(history, index)
    # Where each player's place asks them to sit; sitting out counts as the table past the last.
    ideal = [i // 4 for i in range(n)] + [tables] * len(byes)
    so_far = bye_counts(history)
    limit.check()
    schedule = Schedule(
        len(everyone), pairs, labels, rng, max_meetings=len(history) + 1, ideal=ideal,
        bye_base=[so_far[p] for p in everyone], limit=limit,
    )  # fmt: skip
    before = schedule.repeats
    if start is None:
        # Players pinned together seed a table at the place of the best-ranked of them.
        blocks: dict[int, list[int]] = {}
        for i in range(n):
            if labels[i]:
                blocks.setdefault(labels[i], []).append(i)
        wanted = sorted((ideal[members[0]], lab) for lab, members in blocks.items())
        places: list[int] = []
        for want, _lab in wanted:
            places.append(max(want, places[-1] + 1 if places else 0))
        for k in range(len(places) - 1, -1, -1):  # push back inside the room if pushed past it
            places[k] = min(places[k], tables - (len(places) - k))
        seeds = {g: blocks[lab] for g, (_w, lab) in zip(places, wanted, strict=True)}
        free = [i for i in range(n) if not labels[i]]
        groups = fill_groups(schedule.rows, free, seeds, tables, limit=limit)
    else:
        groups = [[index[p] for p in g] for g in start]
    schedule.add_round(groups, range(n, len(everyone)))
    budget = min(ROUND_EVALS, EVALS_PER_PLAYER * n)
    # One round: the aim is no new repeat at all.
    schedule.tabu_search(max_evals=budget, limit=limit, target_repeats=before)
    schedule.settle(max_evals=budget, limit=limit)
    groups = [[everyone[i] for i in g] for g in schedule.rounds[0]]
    return groups, [everyone[i] for i in schedule.byes[0]], schedule.repeats - before


def _swiss(
    standings: Sequence[int],
    history: Sequence[RoundSeating],
    pins: Mapping[int, int],
    seed: int,
    limit: TimeLimit,
) -> RoundSeating:
    rng = _rng(seed, "swiss", len(history) + 1)
    rank = {p: i for i, p in enumerate(standings)}
    byes = choose_byes(standings, len(standings) % 4, bye_counts(history), pins, lambda p: -rank[p])
    groups, byes, repeats = _by_order(standings, history, pins, byes, rng, limit)
    if repeats:
        # The reference gives its byes to the last players, which may differ from ours; if it
        # does better, start again from its tables with our byes swapped in.
        ref = greedy_swiss(standings, history)
        limit.check()
        ref_repeats = quality(history, ref).repeated_pairs_round
        if ref_repeats < repeats and not pins:
            swap_in = iter(p for p in ref.byes if p not in byes)
            start = [[next(swap_in) if p in byes else p for p in t.players] for t in ref.tables]
            again, again_byes, again_repeats = _by_order(
                standings, history, pins, byes, rng, limit, start=start
            )
            if again_repeats < repeats:
                groups, byes = again, again_byes
    limit.check()
    return place_round(groups, byes, pins, PlaceCounts(history), rng, ranked=True, limit=limit)


def _random(
    players: Sequence[int],
    history: Sequence[RoundSeating],
    pins: Mapping[int, int],
    seed: int,
    limit: TimeLimit,
) -> RoundSeating:
    rng = _rng(seed, "random", len(history) + 1)
    order = sorted(players)
    rng.shuffle(order)
    place = {p: i for i, p in enumerate(order)}
    byes = choose_byes(order, len(order) % 4, bye_counts(history), pins, place.__getitem__)
    groups, byes, _ = _by_order(order, history, pins, byes, rng, limit)
    limit.check()
    return place_round(groups, byes, pins, PlaceCounts(history), rng, limit=limit)


def seat_round(
    *,
    method: str,
    players: Sequence[int],
    history: Sequence[RoundSeating],
    total_rounds: int,
    seed: int,
    pinned: Mapping[int, int] | None = None,
    plan: Sequence[RoundSeating] | None = None,
    time_limit: float = TIME_LIMIT_S,
) -> SeatingResult:
    """Seat the next round (round number ``len(history) + 1``).

    ``players``: the active players this round; for swiss in current standings order, leader
    first. ``history``: earlier rounds (may mention players who dropped out). ``pinned``: player
    -> table number, a hard constraint. ``plan``: the plan returned last time (balanced); used as
    is when it still fits (same player set, pins respected, enough rounds left), otherwise
    re-planned from the history. With no rounds left by ``total_rounds``, one extra round is
    seated as if it were the last.

    The same inputs always give the same seating. Seating that takes longer than
    ``time_limit`` seconds raises ``SeatingError("seating_timeout", …)`` instead.
    """
    limit = TimeLimit(time_limit)
    players = list(players)
    history = list(history)
    pins = _check(method, players, pinned)
    rest: list[RoundSeating] = []
    if method == "balanced":
        rnd, rest = _balanced(players, history, total_rounds, pins, plan, seed, limit)
    elif method == "swiss" and history:
        rnd = _swiss(players, history, pins, seed, limit)
    else:
        # Swiss round 1 has no standings to go by: it is drawn like a random round.
        rnd = _random(players, history, pins, seed, limit)
    # The searches look at the clock only now and then; a round that ran over its limit in
    # between is refused all the same, so the limit means one thing.
    limit.check()
    return SeatingResult(
        round=rnd, plan=tuple(rest), quality=quality(history, rnd, pinned=pins.keys())
    )
