"""The ranges numbers of a club's data keep to: stored exactly, shown exactly in any JSON client,
and far beyond what any table plays."""

#: the stake of a session (底), RULES §5
BASE = {"min_value": 1, "max_value": 10_000}
#: a hand's number in its session
HAND_NUMBER = {"min_value": 1, "max_value": 10_000}
#: a total, a table score, a rating: ± a thousand million
SCORE = {"min_value": -1_000_000_000, "max_value": 1_000_000_000}
