"""The hall's beat (display/sockets.py): the public sockets hear the hall at least every ``[server] ping_s`` without
an Engine.IO ping each (500 exchanges a second for 1 000 phones at 2 s were half a Pi core): one ``beat``
``{"at_seq"}`` to every public socket when no public event went out for that long, none while balls flow."""

from __future__ import annotations

import time

import pytest
import socketio

from display import broadcast
from display.services import services_of
from tests.display.conftest import LiveServer, make_room
from tests.display.test_sockets import _recv, close, connect, receive


@pytest.fixture
def beating(tmp_path):
    """A live hall whose quiet is ``ping_s`` seconds (the factory's argument)."""
    made = []

    def make(ping_s: float):
        room = make_room(tmp_path, extra={"server": {"ping_s": ping_s}})
        room.server = LiveServer(room.app)
        room.url = room.server.url
        made.append(room)
        return room

    yield make
    for room in made:
        room.server.stop()
        room.hall.journal.close()


def beats_until(client, at_seq: int, timeout: float = 5.0) -> list[int]:
    """The ``at_seq`` of every beat the client gets, up to the first one naming ``at_seq``."""
    seen = []
    deadline = time.monotonic() + timeout
    while not seen or seen[-1] != at_seq:
        name, data = _recv(client, max(0.1, deadline - time.monotonic()), beats=True)
        if name == "beat":
            seen.append(data["at_seq"])
    return seen


def test_engine_io_pings_every_25_s_and_the_beat_keeps_the_phones_2_s_promise(beating):
    room = beating(2.0)
    assert broadcast.engine_ping_s(2.0) == 25 and broadcast.engine_ping_s(40) == 40
    assert room.socketio.server.eio.ping_interval == 25
    assert room.socketio.server.eio.ping_timeout == 10


def test_a_quiet_hall_beats_its_public_sockets_with_its_last_seq(beating):
    room = beating(0.5)
    projector, staff = connect(room), connect(room, "controller")
    receive(projector, "state")
    receive(staff, "state")
    room.hall.start_partie(role="speaker")
    room.hall.draw(7, role="speaker")
    seq = room.hall.snapshot().seq
    assert seq == 2
    started = time.monotonic()
    assert beats_until(projector, seq)[-1] == seq
    assert time.monotonic() - started < 3.0
    with pytest.raises(socketio.exceptions.TimeoutError):  # the staff's screens have their own pages' logic
        while True:
            name, _ = staff.receive(timeout=1.5)
            assert name != "beat"
    for c in (projector, staff):
        close(c)


def test_no_beat_while_the_balls_flow(beating):
    """Balls 0.2 s apart with a 1 s quiet: every public socket hears a ball, so no beat goes out until they stop."""
    room = beating(1.0)
    projector = connect(room)
    receive(projector, "state")
    h = room.hall
    h.start_partie(role="speaker")
    for n in range(1, 13):
        h.draw(n, role="speaker")
        time.sleep(0.2)  # the speaker's pace, not a wait for a thread
    last = h.snapshot().seq
    seen = beats_until(projector, last)
    assert [s for s in seen if 1 <= s < last] == [], seen
    close(projector)


def test_a_backlog_of_staff_only_jobs_does_not_starve_the_beat(beating):
    """The beat is due by the clock, not by an empty queue: 3 s of non-public work queued back to back (the
    speaker's notices, say) does not keep the phones from hearing the hall meanwhile."""
    room = beating(0.5)
    projector = connect(room)
    receive(projector, "state")
    broadcaster = services_of(room.app).sockets.broadcaster
    for _ in range(300):
        broadcaster.put(lambda: time.sleep(0.01))  # busy 10 ms each, none of them public
    name, data = receive(projector, "beat", timeout=2.0)
    assert data == {"at_seq": 0}
    assert not broadcaster.wait_idle(0)  # the backlog is still being worked through
    assert broadcaster.wait_idle(10)
    close(projector)
