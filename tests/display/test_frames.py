"""The frame gate's rules (display/frames.py) on a clock of our own: a connection's budget, the hold of an address cut
again and again, the pace of ``resync``; and the hooks it sets on python-engineio/python-socketio as pinned (the
floods themselves are against the real server: tests/app/test_socket_floods.py and test_relays.py)."""

from __future__ import annotations

import socketio

from display.frames import FrameBudget, FrameGate
from display.pacing import Pacer


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_holds_its_burst_then_its_rate():
    clock = Clock()
    budget = FrameBudget(20, 50, clock)
    assert all(budget.take() for _ in range(50)) and not budget.take()
    clock.now += 0.5  # ten frames' worth
    assert all(budget.take() for _ in range(10)) and not budget.take()
    assert not budget.take(5)
    clock.now += 60
    assert budget.take(50) and not budget.take()  # never more than the burst


def test_an_address_cut_three_times_within_a_minute_is_held_a_minute_and_no_other():
    clock = Clock()
    gate = FrameGate(hold_after=3, hold_window_s=60, hold_s=60, clock=clock)
    gate.cut("10.0.0.5")
    clock.now += 59
    gate.cut("10.0.0.5")
    assert not gate.held("10.0.0.5")
    clock.now += 2  # the first cut is past the window
    gate.cut("10.0.0.5")
    assert not gate.held("10.0.0.5")
    gate.cut("10.0.0.5")
    assert 59 < gate.held("10.0.0.5") <= 60 and not gate.held("10.0.0.6")
    clock.now += 60
    assert not gate.held("10.0.0.5")
    report = gate.report()
    assert report["cut"] == 4 and report["addresses"] == {"10.0.0.5": 4} and report["held"] == []


def test_resync_is_answered_at_once_then_at_most_once_a_second_with_the_newest_ask():
    clock = Clock()
    later: list = []
    pacer = Pacer(
        1.0, lambda fn, *args: later.append((fn, args)), lambda s: setattr(clock, "now", clock.now + s), clock
    )
    said: list[str] = []
    pacer.ask("a", lambda: said.append("a1"))
    pacer.ask("b", lambda: said.append("b1"))  # another socket: its own pace
    for i in range(2, 30):
        pacer.ask("a", lambda i=i: said.append(f"a{i}"))
    assert said == ["a1", "b1"] and len(later) == 1  # one waiting answer, never one task per ask
    fn, args = later.pop()
    fn(*args)
    assert said == ["a1", "b1", "a29"]
    clock.now += 0.2
    pacer.ask("a", lambda: said.append("a30"))
    pacer.forget("a")  # the socket left: its waiting answer is dropped
    fn, args = later.pop()
    fn(*args)
    assert said == ["a1", "b1", "a29"]


def test_an_addresss_sockets_share_a_few_answers_a_second_after_a_burst_and_none_is_dropped():
    """16 sockets of one address (the most it may open), each asking ``resync`` every second, and the staff's socket
    of the same address: the address gets its burst of 16 at once, then 4 answers a second in all, each socket's
    next answer in its turn; the staff's socket is paced alone; another address is not concerned."""
    clock = Clock()
    due: list[tuple[float, object, tuple]] = []  # (when, task, args): the deferred answers
    pacer = Pacer(1.0, lambda fn, key, wait: due.append((clock.now + wait, fn, (key, wait))), lambda s: None, clock)
    said: list[tuple[float, str]] = []

    def run_due() -> None:
        for task in sorted((d for d in due if d[0] <= clock.now), key=lambda d: d[0]):
            due.remove(task)
            task[1](*task[2])

    for second in range(6):
        clock.now = float(second)
        run_due()
        for n in range(16):
            pacer.ask(f"p{n}", lambda n=n: said.append((clock.now, f"p{n}")), "10.0.0.5")
        pacer.ask("staff", lambda: said.append((clock.now, "staff")))
        pacer.ask("other", lambda: said.append((clock.now, "other")), "10.0.0.6")
        clock.now += 0.999
        run_due()
    phones = [at for at, who in said if who.startswith("p")]
    assert len([at for at in phones if at < 1.0]) == 16  # the burst
    assert 4 * 5 <= len([at for at in phones if 1.0 <= at < 6.0]) <= 4 * 6  # then 4 a second, earned from the start
    assert len([1 for _, who in said if who == "staff"]) == 6 and len([1 for _, who in said if who == "other"]) == 6
    assert len(due) <= 16  # one answer waiting per socket at most: none dropped, none piled up


def test_the_gate_hooks_into_engine_io_as_pinned_and_handles_events_in_the_readers():
    for mode in ("threading", "gevent"):
        server = socketio.Server(async_mode=mode)
        before = server.eio._async["websocket"]
        FrameGate().install(server, lambda environ: "127.0.0.1")
        assert server.async_handlers is False
        assert issubclass(server.eio._async["websocket"], before) and server.eio._async["websocket"] is not before
        # python-socketio's own handlers are still called: a connect stores the environ
        assert server.eio.handlers["connect"]("sid1", {"REMOTE_ADDR": "127.0.0.1"}) is None
        assert server.environ["sid1"]["REMOTE_ADDR"] == "127.0.0.1"
