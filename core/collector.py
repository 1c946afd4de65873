"""Python's cycle collector held off for a batch that makes no cycles.

A batch such as ``standings_compute`` reads some hundred thousand rows into tuples and builds
as many small results; each allocation counts towards the collector's next pass, and its full
passes walk every object still alive — the rows just read among them — to find cycles that
tuples of numbers and strings cannot form. At 10,000 players those passes were a quarter of
the batch's CPU (issue 25). :func:`collector_paused` holds the collector off for the batch and
lets it run again after (on any exit): what the batch left behind is collected as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off inside, back on after if it was on (a nested pause, or a
    process that runs with it off, is left as it was)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
