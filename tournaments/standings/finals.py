"""Finals (决赛): the top players of the standings after the qualifying rounds play the last
rounds at seeded tables, and are ranked above everyone else by the finals' own rule.

* **Carry-over** (带分进决赛): a finalist's placement points are all of his points, qualifying
  and finals, and the usual tiebreak chain orders the finalists among themselves.
* **From zero** (清零): the finalists are ranked by the placement points of the final rounds
  alone, less the penalties given for those rounds; a tie there is broken by the qualifying
  standings (the better qualifier ranks first), so no place in the finals is shared.

Everyone else keeps his order (and shared places) below the finalists: the consolation group's
rounds count in his standings as any round does.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from .model import Standing


def final_points(standing: Standing, final_rounds: Collection[int]) -> Fraction:
    """The placement points a player scored in the final rounds."""
    return sum(
        (e.placement_points for e in standing.rounds if e.round in final_rounds), Fraction(0)
    )


def order_finals(
    standings: Sequence[Standing],
    *,
    finalists: Collection[int],
    final_rounds: Collection[int],
    carry: bool,
    qualifying_order: Sequence[int] = (),
    final_penalties: Mapping[int, int] | None = None,
) -> tuple[Standing, ...]:
    """``standings`` (all rounds, best first) with the finalists ranked first.

    ``qualifying_order``: the player ids in the order of the standings after the qualifying
    rounds (the finals' seeding), which breaks ties in the finals from zero; a finalist
    missing from it ranks after those in it. ``final_penalties``: placement points taken off
    each finalist for a final round (from zero only: carried-over points already count them).
    """
    if not finalists:
        return tuple(standings)
    penalties = final_penalties or {}
    seeding = {p: i for i, p in enumerate(qualifying_order)}
    points = {
        s.player: final_points(s, final_rounds) - penalties.get(s.player, 0)
        for s in standings
        if s.player in finalists
    }
    top = [s for s in standings if s.player in finalists]
    rest = [s for s in standings if s.player not in finalists]
    if carry:
        # the standings already order the finalists by all their points and the chain
        top_keys = [("final", s.rank) for s in top]
    else:
        top.sort(key=lambda s: (-points[s.player], seeding.get(s.player, len(seeding)), s.player))
        top_keys = [("final", i) for i in range(len(top))]
    keys = top_keys + [("rest", s.rank) for s in rest]
    ordered = top + rest
    out: list[Standing] = []
    for i, (s, key) in enumerate(zip(ordered, keys, strict=True)):
        first = i
        while first > 0 and keys[first - 1] == key:
            first -= 1
        shared = (first < i) or (i + 1 < len(keys) and keys[i + 1] == key)
        out.append(
            replace(
                s, rank=first + 1, shared=shared,
                final_points=points.get(s.player) if s.player in finalists else None,
            )
        )  # fmt: skip
    return tuple(out)
