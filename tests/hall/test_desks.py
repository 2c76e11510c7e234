"""``Hall`` is a facade over its desks: one private lock, the writer's, behind every command of every desk."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

from hall.cartons.card_ids import make_card_id
from hall.door.service import Hall
from hall.events import PriceTier
from tests.conftest import cards_from

ROOT = Path(__file__).resolve().parents[2]
A1 = make_card_id("A", 1)
CARDS = {A1: "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"}


def takes_the_writers_lock(path: Path) -> list[int]:
    """The lines of ``path`` that reach for a ``_lock`` through a ``_writer`` (``x._writer._lock``)."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "_lock"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "_writer"
    ]


def test_no_module_but_the_writer_takes_the_hall_lock():
    offenders = {
        str(p.relative_to(ROOT)): lines
        for folder in ("hall", "display", "drivers")
        for p in (ROOT / folder).rglob("*.py")
        if p != ROOT / "hall" / "door" / "writer.py"
        for lines in [takes_the_writers_lock(p)]
        if lines
    }
    assert offenders == {}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(lambda h: h.sell([A1], role="desk", payment="especes"), id="sales desk"),
        pytest.param(lambda h: h.set_prices([PriceTier(1, 300)], role="admin"), id="sales desk (tiers)"),
        pytest.param(lambda h: h.request_reprint("nope", role="desk"), id="prize desk"),
        pytest.param(lambda h: h.speaker_snapshot(), id="snapshot builder"),
        pytest.param(lambda h: h.check_claim(A1, role="controller"), id="claim desk"),
        pytest.param(lambda h: h.edit_programme([], role="admin"), id="programme desk"),
        pytest.param(lambda h: h.start_partie(role="speaker"), id="facade"),
        pytest.param(lambda h: h.set_device_status("printer", "ok"), id="writer"),
    ],
)
def test_every_desk_waits_for_the_one_lock(make_hall, command):
    """A command of any desk held while another thread is inside a command: it runs only once that one is done."""
    hall: Hall = make_hall(cards_from(CARDS))
    inside, release, done = threading.Event(), threading.Event(), threading.Event()

    def slow_subscriber(record):  # a subscriber runs under the lock: the command is still inside
        inside.set()
        release.wait(10)

    hall.subscribe(slow_subscriber)
    blocker = threading.Thread(target=lambda: hall.set_sold([A1], role="admin"))
    blocker.start()
    assert inside.wait(5)

    def run():
        try:
            command(hall)
        except Exception:
            pass  # refused or not, it must have waited its turn
        done.set()

    waiting = threading.Thread(target=run)
    waiting.start()
    assert not done.wait(0.3)  # still waiting for the lock
    release.set()
    assert done.wait(5)
    blocker.join(5)
    waiting.join(5)


def test_the_port_declares_every_public_method_of_hall_but_the_cores_own():
    """``HallPort`` is the door: a public method of ``Hall`` missing from it is one the type checker cannot guard.
    The core's own (its tests read them) stay outside; mypy checks each declared signature against ``Hall``."""
    from hall.ports import HallPort

    public = {name for name in dir(Hall) if not name.startswith("_")}
    declared = {name for name in dir(HallPort) if not name.startswith("_")}
    assert public - declared == {"journal", "book", "evening", "watch", "replace_book", "unprinted", "may_play"}
    assert declared - public == {"config"}  # an attribute set by __init__


def test_an_unsubscribed_reader_hears_nothing_after_unsubscribe_returns(make_hall):
    """Unsubscribing waits for the event being delivered, as subscribing does: once it returns, no record reaches
    the reader (a print queue stopped, a socket layer closed) from a command that was already inside."""
    hall: Hall = make_hall(cards_from(CARDS))
    inside, release, done = threading.Event(), threading.Event(), threading.Event()
    heard: list[int] = []

    def slow_subscriber(record):
        inside.set()
        release.wait(10)

    hall.subscribe(slow_subscriber)
    unsubscribe = hall.subscribe(lambda record: heard.append(record.seq))
    blocker = threading.Thread(target=lambda: hall.set_sold([A1], role="admin"))
    blocker.start()
    assert inside.wait(5)
    heard_when_returned: list[int] = []

    def run():
        unsubscribe()
        heard_when_returned.extend(heard)
        done.set()

    waiting = threading.Thread(target=run)
    waiting.start()
    assert not done.wait(0.3)  # the delivery in flight finishes first
    release.set()
    assert done.wait(5)
    blocker.join(5)
    waiting.join(5)
    assert heard == heard_when_returned == [1]
    hall.set_sold([A1], False, role="admin")
    assert heard == [1]
    unsubscribe()  # twice: nothing
