"""The one error base of seating and standings (``tournaments.errors``): plain Python.

Celery carries a task's error from the worker to whoever reads it, so the errors must come back
from ``pickle`` (and ``copy``) as the same class with the same code and message.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from tournaments.errors import TournamentError
from tournaments.seating import SeatingError
from tournaments.standings import StandingsError

ERRORS = [
    SeatingError("pin_conflict", "player 3 is pinned to table 5, but there are 4 tables"),
    StandingsError("not_zero_sum", "round 1 table 1: table scores sum to 1, not 0"),
    TournamentError("some_code", "some message"),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize(
    "round_trip",
    [lambda e: pickle.loads(pickle.dumps(e)), copy.copy, copy.deepcopy],
    ids=["pickle", "copy", "deepcopy"],
)
def test_errors_survive_pickle_and_copy(error: TournamentError, round_trip) -> None:
    back = round_trip(error)
    assert back is not error
    assert type(back) is type(error)
    assert (back.code, back.message) == (error.code, error.message)
    assert str(back) == str(error)
    assert repr(back) == repr(error)


def test_one_base_for_seating_and_standings() -> None:
    for error in ERRORS:
        assert isinstance(error, TournamentError)
        # a ValueError, as both were before: the inputs are wrong, retrying cannot help
        assert isinstance(error, ValueError)
    # one catch for the Django side's adapters
    with pytest.raises(TournamentError) as caught:
        raise SeatingError("too_few_players", "at least four active players are needed")
    assert caught.value.code == "too_few_players"


def test_messages_are_for_people_and_repr_names_the_code() -> None:
    standings = StandingsError("not_zero_sum", "round 3 table 2: table scores sum to 9, not 0")
    # str is the message alone (standings), as before; seating's str leads with its code
    assert str(standings) == "round 3 table 2: table scores sum to 9, not 0"
    assert repr(standings) == (
        "StandingsError(code='not_zero_sum', message='round 3 table 2: table scores sum to 9, "
        "not 0')"
    )
    seating = SeatingError("pin_conflict", "5 players are pinned to table 1")
    assert str(seating) == "pin_conflict: 5 players are pinned to table 1"
    assert repr(seating) == (
        "SeatingError(code='pin_conflict', message='5 players are pinned to table 1')"
    )
