"""The simulated ball machine: a real pty that the real reader draws from; and ``serve --demo``'s inputs."""

from __future__ import annotations

import argparse
import os
import random
import threading
import time

import pytest

from drivers.ball_sim import BallSimulator, run_cli, seeded_bag
from drivers.inputs import start_inputs
from hall.config import parse_config
from hall.requests import DrawRequested

from .conftest import Watch, journal_draws


@pytest.fixture
def sims():
    made: list[BallSimulator] = []

    def make(**options) -> BallSimulator:
        sim = BallSimulator(**{"interval_s": 0.0, **options})
        made.append(sim)
        return sim

    yield make
    for sim in made:
        sim.stop()


def expected(seed: int, count: int) -> list[int]:
    return random.Random(seed).sample(range(1, 91), count)


def test_the_same_seed_gives_the_same_balls():
    bag_a, bag_b = seeded_bag(90), seeded_bag(90)
    ra, rb = random.Random(7), random.Random(7)
    a = [bag_a(ra) for _ in range(91)]
    assert a == [bag_b(rb) for _ in range(91)]
    assert sorted(a[:90]) == list(range(1, 91)) and a[90] is None


def test_seeded_balls_with_garbage_and_repeats_arrive_once_each(hall, watch, sims, start_reader, tmp_path):
    sim = sims(seed=2, count=12, garbage=0.5, repeat=0.5, link=str(tmp_path / "balls"))
    sim.open()
    start_reader(sim.path, debounce_s=2.0)
    sim.start()  # writes only once the reader holds the port
    balls = expected(2, 12)
    watch.drawn(balls[-1])
    assert journal_draws(hall) == balls == sim.sent
    refused = []
    while not watch.q.empty():
        refused.append(watch.q.get_nowait())
    assert not [r for r in refused if r[0] == "draw:refused" and r[1]["code"] == "already_drawn"]


def test_the_simulator_unplugs_and_comes_back_at_the_same_link(hall, watch, sims, start_reader, tmp_path):
    link = str(tmp_path / "balls")
    sim = sims(seed=3, count=6, link=link)
    sim.unplug_s = 0.05
    sim.open()
    start_reader(link, protocol="lines")
    thread = threading.Thread(target=sim.run, kwargs={"unplug_after": 3}, daemon=True)
    thread.start()
    balls = expected(3, 6)
    watch.drawn(balls[2])
    watch.status("ball_machine", "absent")
    watch.status("ball_machine", "ok")
    watch.drawn(balls[5])
    thread.join(5)
    assert journal_draws(hall) == balls


def test_stx_simulator(hall, watch, sims, start_reader):
    sim = sims(seed=4, count=3, protocol="stx", garbage=1.0)
    start_reader(sim.open(), protocol="stx")
    sim.start()
    watch.drawn(expected(4, 3)[-1])
    assert journal_draws(hall) == expected(4, 3)


def test_the_command_prints_the_port_then_sends_the_balls(hall, watch, start_reader, tmp_path, capsys):
    link = tmp_path / "sim-balls"
    args = argparse.Namespace(interval=0.0, seed=11, protocol="lines", garbage=0.0, repeat=0.0, link=str(link), count=4)
    start_reader(link)  # started first: the port is not there yet, the reader waits for it
    result = []
    cli = threading.Thread(target=lambda: result.append(run_cli(args)), daemon=True)
    cli.start()
    watch.drawn(expected(11, 4)[-1])
    cli.join(5)
    assert result == [0]
    out = capsys.readouterr().out.splitlines()
    assert out[0] == str(link)
    assert out[1:] == [f"boule {n}" for n in expected(11, 4)]
    assert not os.path.lexists(link)  # the machine is gone when the command ends


def test_demo_inputs_start_a_simulated_machine_and_its_reader(make_hall, tmp_path):
    hall = make_hall()
    hall.start_partie(role="speaker")
    watch = Watch(hall)
    services = start_inputs(hall, parse_config({}), demo=True, data_dir=tmp_path, interval_s=0.0)
    assert [s.name for s in services] == ["ball_machine", "ball_sim"]
    try:
        for s in services:
            s.start()
        for _ in range(5):
            watch.next(lambda n, p: n == "event" and p.type == "draw:ball_drawn")
        assert os.path.islink(tmp_path / "ball-machine.tty")
    finally:
        for s in reversed(services):
            s.stop()
    assert not any(s.alive() for s in services)
    draws = journal_draws(hall)
    assert len(draws) >= 5 and len(set(draws)) == len(draws)


def test_the_demo_machine_waits_for_the_speaker(make_hall, tmp_path):
    """Without --interval the demo's machine draws one ball each time the speaker asks (« Tirer », nothing typed)."""
    hall = make_hall()
    hall.start_partie(role="speaker")
    watch = Watch(hall)
    services = start_inputs(hall, parse_config({}), demo=True, data_dir=tmp_path, interval_s=None)
    sim = services[-1]
    try:
        for s in services:
            s.start()
        assert sim.wait_reader(5)
        assert journal_draws(hall) == []
        for expected_count in (1, 2, 3):
            hall.ask(DrawRequested(source="console"), role="speaker")
            watch.next(lambda n, p: n == "event" and p.type == "draw:ball_drawn")
            assert len(journal_draws(hall)) == expected_count
        # The machine counts a ball once written: the reader may journal it first, so wait for the count,
        # then a while more — nothing is drawn without a request.
        deadline = time.monotonic() + 5
        while len(sim.sent) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)
        assert len(sim.sent) == 3
        assert len(journal_draws(hall)) == 3
    finally:
        for s in reversed(services):
            s.stop()
    assert not any(s.alive() for s in services)
