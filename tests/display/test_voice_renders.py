"""The hall's voice under a crowd (issue 40): the clips are made by a small pool of espeak-ng processes, one render per
clip in flight whoever asks, a screen's ask answered within a bounded time, and the 90 balls made ahead again when
/admin changes how they are said. espeak-ng is the real one, behind a wrapper that logs each process's start and end
(so the processes alive at once are counted, not guessed) and takes its time (so the asks truly overlap)."""

from __future__ import annotations

import shutil
import threading
import time
import urllib.error
import urllib.request

import pytest

from display import speech
from display.services import services_of
from display.speech_queue import POOL_SIZE
from tests.display.conftest import make_room, served
from tests.display.test_voice_api import decoded

ESPEAK = shutil.which("espeak-ng")
pytestmark = pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (apt install espeak-ng)")


class SlowEspeak:
    """An ``espeak-ng`` first on the PATH: logs « start PID TEXT » and « end PID », waits ``delay`` seconds, then
    runs the real one."""

    def __init__(self, folder, monkeypatch):
        self.log, self.delay = folder / "espeak.log", folder / "delay"
        self.delay.write_text("0.3")
        (folder / "bin").mkdir()
        wrapper = folder / "bin" / "espeak-ng"
        wrapper.write_text(
            "#!/bin/sh\n"
            f'for a in "$@"; do text="$a"; done\n'  # the text is the last argument (after "--")
            f'echo "start $$ $text" >> {self.log}\n'
            f"sleep $(cat {self.delay})\n"
            f'{ESPEAK} "$@"; rc=$?\n'
            f'echo "end $$" >> {self.log}\n'
            "exit $rc\n"
        )
        wrapper.chmod(0o755)
        monkeypatch.setenv("PATH", f"{folder / 'bin'}:/usr/bin:/bin")

    def lines(self) -> list[list[str]]:
        return [line.split(" ", 2) for line in self.log.read_text().splitlines()] if self.log.exists() else []

    def most_at_once(self) -> int:
        """The most espeak-ng processes that were alive at the same time."""
        alive = peak = 0
        for kind, *_ in self.lines():
            alive += 1 if kind == "start" else -1
            peak = max(peak, alive)
        return peak

    def texts(self) -> list[str]:
        return [rest[1] if len(rest) > 1 else "" for kind, *rest in self.lines() if kind == "start"]


@pytest.fixture
def slow(tmp_path, monkeypatch):
    return SlowEspeak(tmp_path, monkeypatch)


def speaking_room(tmp_path):
    return make_room(tmp_path / "hall", extra={"speech": {"enabled": True}})


def ask(url: str) -> tuple[int, bytes, dict]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, resp.read(), dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, err.read(), dict(err.headers)


def at_once(url: str, n: int) -> list[tuple[int, bytes, dict]]:
    """``n`` asks of ``url`` sent together, one thread each, released by one barrier."""
    barrier, answers = threading.Barrier(n), [None] * n

    def one(i: int) -> None:
        barrier.wait()
        answers[i] = ask(url)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return answers


def stop_renders(room) -> None:
    """The clips queued ahead dropped and the renders in flight ended (nothing runs once the test's folder goes)."""
    voice = services_of(room.app).voice
    voice.renders.forget_ahead()
    assert voice.renders.idle(30)


def ball_text(room, n: int) -> str:
    with room.app.test_request_context():
        return speech.ball_text(n, room.hall.calling())


def test_thirty_asks_of_a_clip_not_yet_made_start_one_render_and_get_the_same_wav(tmp_path, slow):
    with served(speaking_room(tmp_path)) as room:  # the start's renders are going on meanwhile, two at a time
        answers = at_once(f"{room.url}/speech/42.wav", 30)
        assert slow.most_at_once() <= POOL_SIZE, slow.lines()
        assert {status for status, _, _ in answers} == {200}
        assert len({body for _, body, _ in answers}) == 1  # the one file the one render made
        seconds, loudest = decoded(answers[0][1])
        assert 1.0 < seconds < 5 and loudest > 3000  # « quarante-deux… quatre, deux »
        assert slow.texts().count(ball_text(room, 42)) == 1
        stop_renders(room)
        assert len(slow.texts()) == len(set(slow.texts()))  # every clip made once, those made ahead too


def test_thirty_asks_of_thirty_clips_never_run_more_than_the_pool(tmp_path, slow):
    with served(speaking_room(tmp_path)) as room:
        paths = [f"/speech/phrase/le_{n}.wav" for n in range(1, 31)]
        barrier, answers = threading.Barrier(len(paths)), {}

        def one(path: str) -> None:
            barrier.wait()
            answers[path] = ask(room.url + path)

        threads = [threading.Thread(target=one, args=(path,)) for path in paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert slow.most_at_once() <= POOL_SIZE, slow.lines()
        for path, (status, body, headers) in answers.items():
            if status == 200:
                assert decoded(body)[1] > 3000, path
            else:  # not made within the wait: told to ask again, and made meanwhile
                assert (status, headers.get("Retry-After")) == (503, "1"), (path, status, body)
        stop_renders(room)
        for path in paths:
            status, body, _ = ask(room.url + path)
            assert status == 200 and decoded(body)[1] > 3000, path
        assert slow.most_at_once() <= POOL_SIZE
        assert len(slow.texts()) == len(set(slow.texts()))


def test_a_screen_waiting_for_a_slow_render_is_answered_in_time_and_gets_it_next(tmp_path, slow):
    slow.delay.write_text("3")
    with served(speaking_room(tmp_path)) as room:
        voice = services_of(room.app).voice
        voice.wait_s = 0.5
        started = time.monotonic()
        status, body, headers = ask(f"{room.url}/speech/77.wav")
        assert time.monotonic() - started < 2.5  # not the render's three seconds and more
        assert status == 503 and headers["Retry-After"] == "1" and b"speech_busy" in body
        voice.wait_s = 30
        status, body, _ = ask(f"{room.url}/speech/77.wav")
        assert status == 200 and decoded(body)[1] > 3000
        assert slow.texts().count(ball_text(room, 77)) == 1  # the render the first ask began
        stop_renders(room)


def test_the_ninety_balls_are_made_ahead_after_admin_changes_their_nicknames(tmp_path):
    room = speaking_room(tmp_path)
    voice = services_of(room.app).voice
    assert voice.renders.idle(120)  # the start's renders
    resp = room.app.test_client().post(
        "/api/admin/calling",
        json={"nicknames_on": True, "nicknames": {"27": "la vingt-septième", "8": "la grosse dame"}},
        headers=room.headers("admin"),
    )
    assert resp.status_code == 200
    assert voice.renders.idle(120)  # nobody asked: the hall made them itself
    texts = [ball_text(room, n) for n in range(1, 91)]
    assert "la grosse dame" in texts[7] and "la vingt-septième" in texts[26]
    spoken = room.config.speech
    assert all(voice.path_for(text, spoken.voice, spoken.rate).is_file() for text in texts)
    room.hall.journal.close()
