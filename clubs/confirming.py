"""Bridgemate's rule at a mahjong table (issue 24 §2), plain Python: whether a hand counts.

One player enters a hand (or a scorer beside the table, or a table card's holder); the others
confirm it or dispute it. Under the rule ``three`` a hand counts in totals, standings, ratings
and statistics once three players other than the one who entered it confirmed it, under ``two``
once two of them did; under ``shown`` every hand counts as it is saved and the confirmations
are only shown. Decisions (README, "Confirming a hand"):

* The player who entered (or last corrected) the hand, when he sits at the table, confirmed it
  by entering it: his seat's word does not count and he is not asked. A hand entered by someone
  who does not sit at the table (a scorer standing by, a table card) needs the same number of
  confirmations from the four: three of four, or two.
* One dispute holds the hand (under ``three`` and ``two``) until it is withdrawn (the player
  confirms after all: each seat's latest word counts) or the organiser or referee rules.
* A ruling (the hand stands as recorded, or was corrected to resolve the dispute) makes the
  hand count whatever the confirmations say.
* A correction is a new revision: the words said about the one before no longer count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: confirmations a hand needs by rule (from players other than the one who entered it)
NEEDED = {"shown": 0, "three": 3, "two": 2}

CONFIRM, DISPUTE, RULING = "confirm", "dispute", "ruling"


@dataclass(frozen=True)
class Word:
    """One word said about a revision of a hand: a seat's confirm or dispute, or a ruling."""

    seat: int | None
    verdict: str
    words: str = ""


@dataclass(frozen=True)
class HandStanding:
    """Where a hand stands under a rule: the seats that confirmed and disputed (each seat's
    latest word, the entering seat's left out), the ruling's words, and what follows."""

    rule: str
    entry_seat: int | None
    confirmed: tuple[int, ...]
    disputed: tuple[tuple[int, str], ...]  # (seat, his words)
    ruled: bool
    ruling: str

    @property
    def needed(self) -> int:
        return NEEDED.get(self.rule, 0)

    @property
    def counts(self) -> bool:
        if self.ruled or self.needed == 0:
            return True
        return not self.disputed and len(self.confirmed) >= self.needed

    @property
    def waiting(self) -> int:
        """Confirmations still missing (0 when the hand counts or only a dispute holds it)."""
        if self.counts:
            return 0
        return max(0, self.needed - len(self.confirmed))

    @property
    def held(self) -> bool:
        return not self.counts

    @property
    def is_disputed(self) -> bool:
        """A dispute no ruling has answered (shown under every rule, ``shown`` included)."""
        return bool(self.disputed) and not self.ruled

    def asks(self, seat: int) -> bool:
        """Whether this seat is one that confirms (every seat but the one who entered it)."""
        return seat != self.entry_seat


def standing(rule: str, entry_seat: int | None, words: Iterable[Word]) -> HandStanding:
    """Where a hand stands: ``words`` are those said about its current revision, oldest first."""
    latest: dict[int, Word] = {}
    ruled, ruling = False, ""
    for w in words:
        if w.verdict == RULING:
            ruled, ruling = True, w.words
        elif w.seat is not None and w.seat != entry_seat:
            latest[w.seat] = w
    confirmed = tuple(sorted(s for s, w in latest.items() if w.verdict == CONFIRM))
    disputed = tuple(sorted((s, w.words) for s, w in latest.items() if w.verdict == DISPUTE))
    return HandStanding(rule, entry_seat, confirmed, disputed, ruled, ruling)
