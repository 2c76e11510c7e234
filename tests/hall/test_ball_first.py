"""No ball waits behind another write (issue 45): every command flushes the journal under the writer's lock, and on
a Pi's SD card each flush takes milliseconds, one at a time. A ball drawn while the door's sales (or the phones'
links) queue for the writer is journalled as soon as the flush in flight is done — its wait is that flush, never the
queue — and every sale waiting is journalled and acknowledged after it, none lost.

The slow card is a real journal whose flush is held by the test (the journal's ``offload``, the same door the
program uses to run SQLite's fsync off the event loop), so the queue is built exactly, without timing."""

from __future__ import annotations

import threading
import time

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.door.service import Hall
from hall.door.writer import FirstLock
from hall.events import BallDrawn, SaleRecorded
from hall.record.journal import Journal

WAIT_S = 10.0


def until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"not within {WAIT_S} s: {what}"
        threading.Event().wait(0.002)


class HeldFlush:
    """A journal's offload whose flushes wait for the test's word once it is closed (a card that is slow now)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.open.set()
        self.held = threading.Event()

    def __call__(self, write):
        result = write()
        if not self.open.is_set():
            self.held.set()
            assert self.open.wait(WAIT_S)
        return result


def test_a_ball_drawn_while_sales_queue_is_journalled_next_and_every_sale_after_it(tmp_path):
    disk = HeldFlush()
    cards = generate_cards(12, "A", "A", "1-9", 1)
    config = parse_config({"hall": {"data_dir": str(tmp_path)}})
    h = Hall(
        config, Journal(tmp_path / "journal.sqlite", offload=disk), CardBook(dict(cards)), voucher_secret=b"k" * 32
    )
    h.start_partie(role="speaker")
    ids = [cid for cid, _ in cards]
    answers: dict[str, object] = {}

    def sell(cid: str) -> None:
        answers[cid] = h.sell([cid], role="desk", payment="especes", seller="Anne")

    def draw() -> None:
        answers["ball"] = h.draw(42, role="speaker")

    disk.open.clear()
    first = threading.Thread(target=sell, args=(ids[0],))
    first.start()
    assert disk.held.wait(WAIT_S)  # the first sale's flush is on the card, the lock held
    queued = [threading.Thread(target=sell, args=(cid,)) for cid in ids[1:]]
    for t in queued:
        t.start()
    until(lambda: h._writer._lock.waiting == (11, 0), "eleven sales waiting for the writer")
    ball = threading.Thread(target=draw)
    ball.start()
    until(lambda: h._writer._lock.waiting == (12, 1), "the ball waiting too")
    disk.open.set()
    for t in (first, *queued, ball):
        t.join(WAIT_S)
    order = [type(r.event) for r in h.journal.records() if isinstance(r.event, (SaleRecorded, BallDrawn))]
    assert order == [SaleRecorded, BallDrawn] + [SaleRecorded] * 11  # the flush it met, then the ball
    assert all(answers[cid].event.card_ids == (cid,) for cid in ids)  # every sale acknowledged, none lost
    assert answers["ball"].event.number == 42
    h.journal.close()


def test_the_lock_is_reentrant_a_waiting_ball_goes_first_and_the_others_in_their_order():
    lock = FirstLock()
    got: list[str] = []
    with lock:
        with lock:  # a keypad key's command runs a draw: the same holder again
            pass
        waiters = [threading.Thread(target=lambda n=n: (lock.acquire(), got.append(n), lock.release())) for n in "abc"]
        for i, t in enumerate(waiters):
            t.start()
            until(lambda i=i: lock.waiting == (i + 1, 0), f"{i + 1} commands waiting, in the order they came")

        def ball() -> None:
            with lock.first():
                got.append("ball")

        b = threading.Thread(target=ball)
        b.start()
        until(lambda: lock.waiting == (4, 1), "the ball waiting")
    for t in (*waiters, b):
        t.join(WAIT_S)
    assert got == ["ball", "a", "b", "c"]  # the ball first, the others in the order they came
    assert lock.acquire(timeout=0.01) and lock.waiting == (0, 0)
    lock.release()


def test_a_timed_acquire_gives_up_and_leaves_no_waiter_behind():
    lock = FirstLock()
    held = threading.Event()
    done = threading.Event()

    def hold() -> None:
        with lock:
            held.set()
            done.wait(WAIT_S)

    t = threading.Thread(target=hold)
    t.start()
    assert held.wait(WAIT_S)
    assert lock.acquire(timeout=0.05) is False and lock.acquire(blocking=False) is False
    assert lock.waiting == (0, 0)
    done.set()
    t.join(WAIT_S)
