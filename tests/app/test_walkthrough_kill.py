"""The whole partie of the walk-through survives a SIGKILL at any point: restarted, it ends exactly as an
uninterrupted run (same draws, verdicts, winners, tie-break, vouchers)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.hall.test_partie import BOOK

pytestmark = pytest.mark.slow  # a hall killed at random points and replayed: see pytest --durations

RUNNER = textwrap.dedent("""
    import random, sys
    from hall.cartons.cardbook import CardBook
    from hall.config import parse_config
    from hall.refusal import Rejected
    from hall.record.journal import Journal
    from hall.door.service import Hall
    from tests.app.test_walkthrough_kill import STEPS, PRIMARY, open_hall

    hall = open_hall(sys.argv[1])
    done = sum(1 for r in hall.journal.records() if r.type in PRIMARY)
    for i, (command, arg) in enumerate(STEPS[done:], start=done):
        hall._claims.rng = random.Random(f"step:{i}")      # the same tie-break whichever run reaches this step
        if command == "start":
            hall.start_partie(role="speaker")
        elif command == "draw":
            hall.draw(arg, role="speaker")
        elif command == "announce":
            hall.announce_claim(role="speaker")
        elif command == "resume":
            hall.resume(role="speaker")
        elif command == "check":
            hall.check_claim(arg, role="controller")
        elif command == "award":
            hall.award(role="speaker")
        elif command == "clear":
            hall.clear(role="speaker")
        print(i, flush=True)
""")

PRIMARY = {
    "partie:started",
    "draw:ball_drawn",
    "claim:announced",
    "draw:resumed",
    "claim:checked",
    "lot:awarded",
    "partie:cleared",
}
STEPS = (
    [("start", None)]
    + [("draw", n) for n in (5, 15, 26, 36, 41, 60)]
    + [("check", "S")]
    + [("draw", n) for n in (9, 21, 45, 66, 84, 1, 11, 22, 33, 40, 4, 13, 37, 52, 2, 12, 23, 34)]
    + [
        ("announce", None),
        ("check", "R"),
        ("resume", None),
        ("draw", 80),
        ("check", "P"),
        ("check", "Q"),
        ("award", None),
        ("check", "P"),
        ("check", "Q"),
        ("award", None),
        ("resume", None),
    ]
    + [("draw", n) for n in (18, 29, 58, 74, 3, 14, 25, 35, 90)]
    + [("check", "P"), ("check", "Q"), ("award", None), ("clear", None)]
)


def open_hall(path) -> Hall:
    return Hall(parse_config({}), Journal(path), CardBook(BOOK), voucher_secret=b"k" * 32)


def run_to_end(path, kill_after: list[int]) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    kills = list(kill_after)
    while True:
        child = subprocess.Popen([sys.executable, "-c", RUNNER, str(path)], stdout=subprocess.PIPE, text=True, env=env)
        target = kills.pop(0) if kills else None
        last = None
        for line in child.stdout:
            last = int(line)
            if target is not None and last >= target:
                os.kill(child.pid, signal.SIGKILL)
                break
        child.stdout.close()
        code = child.wait()
        if target is None:
            assert code == 0, f"runner failed with {code}"
            return


def test_walkthrough_survives_kills_at_random_points(tmp_path):
    reference = tmp_path / "reference.sqlite"
    run_to_end(reference, [])
    expected = open_hall(reference).evening.snapshot()
    rnd = random.Random(11)
    for attempt in range(3):
        path = tmp_path / f"killed-{attempt}.sqlite"
        kill_points = sorted(rnd.sample(range(len(STEPS)), 5))
        run_to_end(path, kill_points)
        got = open_hall(path).evening.snapshot()
        assert got == expected, f"kills after steps {kill_points} changed the evening"
    # the quine's tie on ball 80 (winner and consolation), the double quine's tie on the same ball (RULES L12a: the
    # rows just paid for the quine count only against quines), and P's carton plein
    assert expected["parties"][0]["cleared"] and len(expected["vouchers"]) == 5
