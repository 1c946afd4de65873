"""``core.collector.collector_paused``: the cycle collector off inside, as it was after."""

from __future__ import annotations

import gc

import pytest

from core.collector import collector_paused


@pytest.fixture(autouse=True)
def collector_restored():
    was_on = gc.isenabled()
    yield
    (gc.enable if was_on else gc.disable)()


def test_off_inside_and_on_again_after_even_when_the_batch_fails():
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), collector_paused():
        assert not gc.isenabled()
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_nested_pause_and_a_process_running_without_it_are_left_as_they_were():
    gc.enable()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer batch still runs
    assert gc.isenabled()
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
