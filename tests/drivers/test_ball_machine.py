"""The serial reader against real pseudo-terminals: balls become draws in the journal, nothing else does."""

from __future__ import annotations

import os
import random
import threading
import time

from drivers.ball_machine import BallMachineReader
from drivers.ball_protocol import frame
from drivers.reconnect import Backoff
from hall.config import BallMachineSection

from .conftest import journal_draws


def lines(*items) -> bytes:
    return b"".join(i if isinstance(i, bytes) else frame(i) for i in items)


def test_balls_become_draws_and_garbage_out_of_range_and_repeats_do_not(hall, watch, ptys, start_reader):
    pty = ptys()
    start_reader(pty.path)
    watch.status("ball_machine", "ok")  # pyserial has opened (and flushed) the port: now we may write
    pty.write(lines(12, b"ERR\r\n", b"95\r\n", b"0\r\n", 34, 12, b"\x00\xff\r\n", 77))
    watch.drawn(77)
    assert journal_draws(hall) == [12, 34, 77]
    sources = {r.event.source for r in hall.records() if r.type == "draw:ball_drawn"}
    assert sources == {"ball_machine"}


def test_unreadable_reads_are_shown_with_their_raw_bytes(hall, watch, ptys, start_reader):
    pty = ptys()
    start_reader(pty.path)
    watch.status("ball_machine", "ok")
    pty.write(b"B?\r\n91\r\n")
    first = watch.next(lambda n, p: n == "draw:refused")
    second = watch.next(lambda n, p: n == "draw:refused")
    assert (first[1]["code"], first[1]["raw"], first[1]["number"]) == ("no_match", "B?", None)
    assert (second[1]["code"], second[1]["raw"]) == ("out_of_range", "91")
    assert "message" not in first[1] and "message" not in second[1]  # a code: display/ words it


def test_a_ball_read_again_after_the_window_is_refused_as_already_drawn(hall, watch, ptys, start_reader):
    now = [100.0]
    pty = ptys()
    start_reader(pty.path, clock=lambda: now[0], debounce_s=2.0)
    watch.status("ball_machine", "ok")
    pty.write(lines(42, 42))  # read twice at once: one ball, nothing shown
    watch.drawn(42)
    now[0] += 10
    pty.write(lines(42))
    _, notice = watch.refused("already_drawn")
    assert notice["number"] == 42 and "message" not in notice
    assert journal_draws(hall) == [42]


def test_a_ball_during_a_claim_is_refused_and_shown(hall, watch, ptys, start_reader):
    pty = ptys()
    start_reader(pty.path)
    watch.status("ball_machine", "ok")
    hall.announce_claim(role="speaker")
    pty.write(lines(50))
    assert watch.refused("locked")[1]["number"] == 50
    assert journal_draws(hall) == []


def test_stx_frames_become_draws(hall, watch, ptys, start_reader):
    pty = ptys()
    start_reader(pty.path, protocol="stx")
    watch.status("ball_machine", "ok")
    pty.write(b"\x0207\x03\r\n\x02x\x03\x0288\x03")
    watch.drawn(88)
    assert journal_draws(hall) == [7, 88]


def test_confirm_mode_waits_for_the_speaker_who_may_correct_a_misread(hall, watch, ptys, start_reader):
    pty = ptys()
    start_reader(pty.path, confirm=True)
    watch.status("ball_machine", "ok")
    pty.write(lines(13))
    watch.next(lambda n, p: n == "draw:proposed" and p["number"] == 13)
    assert journal_draws(hall) == []
    hall.confirm_proposed(18, role="speaker")  # the ball in the speaker's hand says 18
    pty.write(lines(61))
    watch.next(lambda n, p: n == "draw:proposed" and p["number"] == 61)
    hall.confirm_proposed(role="speaker")
    assert journal_draws(hall) == [18, 61]


def test_unplug_and_replug_mid_partie_several_times_loses_and_doubles_nothing(
    hall, watch, ptys, start_reader, tmp_path
):
    link = str(tmp_path / "loto-balls")  # the udev SYMLINK+= of a real hall
    pty = ptys(link)
    start_reader(link)
    balls = random.Random(3).sample([n for n in range(1, 91) if n not in (2, 4, 42)], 30)
    sent: list[int] = []
    for cycle in range(5):
        watch.status("ball_machine", "ok")
        if cycle == 1:
            pty.write(lines(2))  # the rest of the ball cut by the unplug: not a 42
            watch.drawn(2)
            sent.append(2)
        for _ in range(6):
            n = balls.pop()
            pty.write(lines(n))
            watch.drawn(n)
            sent.append(n)
        if cycle == 0:
            pty.write(b"4")  # the cable is pulled in the middle of a ball
        pty.unplug()
        watch.status("ball_machine", "absent")
        os.unlink(link) if os.path.lexists(link) else None
        pty = ptys(link)  # plugged back: a new tty behind the same stable name
    watch.status("ball_machine", "ok")
    pty.write(lines(90))
    watch.drawn(90)
    assert journal_draws(hall) == sent + [90]
    assert 42 not in journal_draws(hall)


def test_a_port_missing_at_start_is_opened_when_it_appears(hall, watch, ptys, start_reader, tmp_path):
    link = str(tmp_path / "ttyBalls")
    start_reader(link)
    _, notice = watch.status("ball_machine", "absent")
    assert (notice["code"], notice["params"]) == ("ball_machine_missing", {"path": link})
    hall.draw(5, role="speaker")  # the hall goes on: the speaker types the numbers
    pty = ptys(link)
    watch.status("ball_machine", "ok")
    pty.write(lines(6))
    watch.drawn(6)
    assert journal_draws(hall) == [5, 6]


class CountingReader(BallMachineReader):
    """Records when it tries to open the port."""

    attempts: list

    def _open(self):
        self.attempts.append(time.monotonic())
        if len(self.attempts) == 5:
            self.fifth.set()
        return super()._open()


def test_a_broken_port_degrades_once_backs_off_and_recovers(hall, watch, ptys, start_reader, tmp_path):
    not_a_tty = tmp_path / "plain-file"
    not_a_tty.write_bytes(b"")
    link = str(tmp_path / "balls")
    os.symlink(not_a_tty, link)
    CountingReader.attempts, CountingReader.fifth = [], threading.Event()
    start_reader(link, cls=CountingReader)
    _, notice = watch.status("ball_machine", "degraded")
    assert notice["code"] == "ball_machine_open" and notice["params"]["path"] == link and notice["params"]["error"]
    assert CountingReader.fifth.wait(5)
    gaps = [b - a for a, b in zip(CountingReader.attempts, CountingReader.attempts[1:])]
    assert all(g >= 0.015 for g in gaps) and gaps[-1] > gaps[0]  # backs off, never spins
    pty = ptys()
    os.unlink(link)
    os.symlink(pty.tty_path, link)
    watch.status("ball_machine", "ok")
    statuses = []
    while not watch.q.empty():
        statuses.append(watch.q.get_nowait())
    assert not [s for s in statuses if s[0] == "device:status_changed" and s[1]["status"] == "degraded"]
    pty.write(lines(33))
    watch.drawn(33)


def test_backoff_doubles_to_five_seconds_and_resets():
    b = Backoff()
    assert [b.next() for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    b.reset()
    assert b.next() == 0.5


def test_two_readers_drawing_at_once_never_double_a_ball(hall, watch, ptys, start_reader):
    a, b = ptys(), ptys()
    readers = [start_reader(a.path, debounce_s=0.0), start_reader(b.path, debounce_s=0.0, name="ball_machine_2")]
    assert all(r.connected.wait(5) for r in readers)
    order = random.Random(9).sample(range(1, 91), 90)
    stream = lines(*order)
    writers = [threading.Thread(target=p.write, args=(stream,)) for p in (a, b)]
    for w in writers:
        w.start()
    outcomes = 0
    while outcomes < 180:  # each read is drawn once or refused as already drawn
        watch.next(
            lambda n, p: (
                (n == "event" and p.type == "draw:ball_drawn") or (n == "draw:refused" and p["code"] == "already_drawn")
            )
        )
        outcomes += 1
    draws = journal_draws(hall)
    assert sorted(draws) == list(range(1, 91))


def test_stop_is_prompt_whether_reading_or_waiting(hall, watch, ptys, fast_backoff, tmp_path):
    pty = ptys()
    reading = BallMachineReader(hall, BallMachineSection(port=pty.path), backoff=fast_backoff())
    waiting = BallMachineReader(
        hall, BallMachineSection(port=str(tmp_path / "none")), backoff=Backoff(5, 5), name="other"
    )
    waiting.start()
    watch.status("other", "absent")
    reading.start()
    assert reading.connected.wait(5)
    t0 = time.monotonic()
    reading.stop()
    waiting.stop()
    assert not reading.alive() and not waiting.alive()
    assert time.monotonic() - t0 < 1.0


def test_the_keypad_and_the_machine_at_once_never_double_a_ball(hall, watch, ptys, start_reader):
    from drivers.keypad import apply_key_command
    from drivers.keypad_map import KeyCommand

    pty = ptys()
    assert start_reader(pty.path, debounce_s=0.0).connected.wait(5)
    order = random.Random(4).sample(range(1, 91), 90)
    typist = threading.Thread(target=lambda: [apply_key_command(hall, KeyCommand("draw", number=n)) for n in order])
    typist.start()
    pty.write(lines(*order))
    typist.join(10)
    outcomes = 90
    while outcomes < 180:  # the machine's reads: drawn, or refused because the keypad was first
        watch.next(
            lambda n, p: (
                (n == "event" and p.type == "draw:ball_drawn" and p.source == "ball_machine")
                or (n == "draw:refused" and p["source"] == "ball_machine")
            )
        )
        outcomes += 1
    assert sorted(journal_draws(hall)) == list(range(1, 91))
