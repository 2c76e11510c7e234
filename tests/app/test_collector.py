"""The full garbage collection waits for a quiet moment of the hall (hall/app/collector.py)."""

from __future__ import annotations

import gc
import threading

from hall.app.collector import NEVER, YOUNG_THRESHOLD, QuietCollector


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_full_collection_waits_for_the_quiet_after_a_ball(make_hall):
    hall = make_hall()
    clock, runs = Clock(), []
    collector = QuietCollector(
        hall,
        quiet_s=2.0,
        min_interval_s=60.0,
        max_interval_s=900.0,
        clock=clock,
        collect=lambda: runs.append(clock.now),
    )
    clock.now += 30
    assert not collector.step()  # too soon after the last one (the start)
    hall.start_partie(role="speaker")
    clock.now += 40  # 70 s since the last, 40 s of quiet
    assert collector.step() and runs == [1070.0]
    for _ in range(60):  # a ball a second for a minute and more: never quiet
        clock.now += 1.0
        collector.activity()
        assert not collector.step()
    clock.now += 2.0  # the speaker announces: 2 s without a record
    assert collector.step() and len(runs) == 2


def test_a_draw_is_what_makes_the_hall_busy(make_hall):
    hall = make_hall()
    clock, runs = Clock(), []
    collector = QuietCollector(
        hall, quiet_s=2.0, min_interval_s=10.0, clock=clock, collect=lambda: runs.append(clock.now)
    )
    hall.start_partie(role="speaker")
    clock.now += 10
    hall.draw(17, role="speaker")  # the hall's own record, through its subscription
    assert not collector.step()
    clock.now += 2
    assert collector.step()


def test_under_a_steady_stream_it_still_collects_at_the_latest_after_max_interval(make_hall):
    clock, runs = Clock(), []
    collector = QuietCollector(
        make_hall(),
        quiet_s=2.0,
        min_interval_s=60.0,
        max_interval_s=900.0,
        clock=clock,
        collect=lambda: runs.append(clock.now),
    )
    for _ in range(1800):  # a record every half second for 15 minutes
        clock.now += 0.5
        collector.activity()
        collector.step()
    assert runs == [1900.0]


def test_start_takes_the_full_collection_off_the_counter_and_stop_gives_it_back(make_hall):
    before = gc.get_threshold()
    collected = threading.Event()
    collector = QuietCollector(make_hall(), quiet_s=0.0, min_interval_s=0.0, check_s=0.01, collect=collected.set)
    collector.start()
    try:
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, NEVER)
        assert collected.wait(5) and collector.alive()
    finally:
        collector.stop()
    assert gc.get_threshold() == before and not collector.alive()
