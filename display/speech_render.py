"""The hall's voice as files (INTERFACE §11): each ball and each sentence of the claim ritual rendered once by
Debian's ``espeak-ng`` into a WAV under the data folder, or the hall's own recordings made on /admin.

A clip is named by what it says (the voice, the speed and the words hashed), so a nickname edited on /admin makes
a new clip and the old one is never served again; the cache is pruned when it grows past ``MAX_CACHED``. Every
file is written whole (temporary file, fsync, rename, fsync of the folder): a power cut leaves the old clip or
the new one. Leading and trailing silence is cut (the first sound starts within 10 ms of the clip).

A clip is made by the render queue (``display/speech_queue.py``: two renders at once, one per clip in flight, the
clips a screen waits for first, a bounded wait); espeak-ng runs as a child process of the queue's worker
(cooperative under gevent); trimming and writing run through ``offload`` (under gevent, its pool of real threads:
the composition root sets it), so no connection waits for an fsync.
"""

from __future__ import annotations

import array
import hashlib
import io
import logging
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from display.speech_queue import AHEAD, ASKED, WAIT_S, Busy, Job, RenderQueue
from hall import Offload, write_file

log = logging.getLogger("loto-hall.speech")

FOLDER = "voix"
CACHE, RECORDED = "cache", "enregistrements"
MAX_CACHED = 800  # clips kept (90 balls × a few tables of nicknames and speeds, the ritual)
KEEP_CACHED = 500
ESPEAK_VOICES = {"fr-FR": "fr-fr", "fr-BE": "fr-be", "fr-CH": "fr-ch", "recorded": "fr-fr"}
BASE_WPM = 175  # espeak-ng's own speed: [speech] rate 1.0
SILENCE = 300  # |sample| at or under this (16-bit) is silence (-40 dBFS)
KEEP_SILENCE_S = 0.01
RENDER_TIMEOUT_S = 10.0
# a recording: a WAV the page made (PCM 16-bit, mono or stereo), one number said, bounded
MAX_RECORDING_BYTES = 1024 * 1024
MAX_RECORDING_S = 6.0
MIN_RECORDING_S = 0.2


def trimmed(wav: bytes) -> bytes:
    """The 16-bit PCM WAV ``wav`` without its leading and trailing silence (10 ms kept each side); unchanged
    when it is not 16-bit PCM. ``wave.Error`` when it is no WAV."""
    with wave.open(io.BytesIO(wav)) as reader:
        params = reader.getparams()
        frames = reader.readframes(params.nframes)
    if params.sampwidth != 2:
        return wav
    samples = array.array("h")
    samples.frombytes(frames)
    if sys.byteorder == "big":
        samples.byteswap()
    channels = params.nchannels
    loud = [i for i in range(0, len(samples), channels * 8) if abs(samples[i]) > SILENCE]  # every 8th frame
    if not loud:
        return wav
    keep = int(KEEP_SILENCE_S * params.framerate) * channels
    start = max(0, loud[0] - keep - channels * 8)
    end = min(len(samples), loud[-1] + keep + channels * 8)
    start -= start % channels
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(channels)
        writer.setsampwidth(2)
        writer.setframerate(params.framerate)
        writer.writeframes(frames[start * 2 : end * 2])
    return out.getvalue()


def recording_problem(data: bytes) -> str | None:
    """Why ``data`` is not a recording the hall keeps (a PCM 16-bit WAV of 0.2 to 6 s), or ``None``."""
    if len(data) > MAX_RECORDING_BYTES:
        return "size"
    try:
        with wave.open(io.BytesIO(data)) as reader:
            p = reader.getparams()
            frames = reader.readframes(p.nframes)
    except (wave.Error, EOFError, ValueError, RuntimeError, struct.error):  # what a crafted header raises
        return "format"
    if p.sampwidth != 2 or p.nchannels not in (1, 2) or not 8000 <= p.framerate <= 48000:
        return "format"
    seconds = p.nframes / p.framerate
    if len(frames) != p.nframes * p.nchannels * 2 or not MIN_RECORDING_S <= seconds <= MAX_RECORDING_S:
        return "length"
    samples = array.array("h")
    samples.frombytes(frames)
    if max((abs(s) for s in samples[::64]), default=0) <= SILENCE:
        return "silence"
    return None


T = TypeVar("T")


def _speed(rate: float) -> int:
    """espeak-ng's words a minute for the ``[speech] rate`` (1.0: its own 175), within what it says clearly."""
    return max(80, min(450, round(BASE_WPM * rate)))


def _inline(fn: Callable[[], T]) -> T:
    return fn()


class Voice:
    """The clips of one hall's data folder: rendered by espeak-ng (``espeak``: its path, ``None``: absent; by
    default the one on the ``PATH`` when the hall starts)."""

    def __init__(self, data_dir: str | os.PathLike[str], espeak: str | None | bool = True, wait_s: float = WAIT_S):
        root = Path(data_dir) / FOLDER
        self.cache, self.recorded = root / CACHE, root / RECORDED
        self.espeak = shutil.which("espeak-ng") if espeak is True else espeak or None
        self.offload: Offload = _inline
        self.renders = RenderQueue()
        self.wait_s = wait_s
        self._renders = 0

    @property
    def available(self) -> bool:
        return self.espeak is not None

    def path_for(self, text: str, voice: str, rate: float) -> Path:
        """Where the clip saying ``text`` with ``voice`` at ``rate`` is kept (whether or not it is made yet)."""
        key = hashlib.sha256(f"{voice}|{_speed(rate)}|{text}".encode()).hexdigest()[:24]
        return self.cache / f"{key}.wav"

    def clip(self, text: str, voice: str, rate: float) -> Path:
        """The clip saying ``text`` with ``voice`` at ``rate``, made now if it is not cached (joining the render in
        flight when another screen asked first); raises ``Busy`` when it is not made within ``wait_s``,
        ``OSError`` when espeak-ng is absent or fails."""
        path = self.path_for(text, voice, rate)
        if not path.is_file():
            self.renders.wait(self._submit(text, voice, rate, path, ASKED), self.wait_s)
        return path

    def _submit(self, text: str, voice: str, rate: float, path: Path, priority: int) -> Job:
        def make() -> None:
            if path.is_file():  # made by a render that ended between this ask's look and its submit
                return
            raw = self._speak(text, ESPEAK_VOICES.get(voice, "fr-fr"), _speed(rate), path)
            self.offload(lambda: self._store(raw, path))

        return self.renders.submit(path.stem, make, priority)

    def _speak(self, text: str, voice: str, speed: int, path: Path) -> Path:
        """espeak-ng's own WAV of ``text``, beside ``path`` (run by the queue's worker: under gevent a cooperative
        child process, which gevent's pool of real threads cannot start)."""
        if self.espeak is None:
            raise FileNotFoundError("espeak-ng")
        self.cache.mkdir(parents=True, exist_ok=True)
        raw = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.raw.wav")
        try:
            subprocess.run(
                [self.espeak, "-v", voice, "-s", str(speed), "-w", str(raw), "--", text],
                check=True,
                timeout=RENDER_TIMEOUT_S,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        except subprocess.SubprocessError as exc:
            raw.unlink(missing_ok=True)
            raise OSError(f"espeak-ng: {exc}") from exc
        return raw

    def _store(self, raw: Path, path: Path) -> None:
        """The rendered ``raw`` clip trimmed and written whole as ``path`` (the fsync: in a real thread)."""
        try:
            data = trimmed(raw.read_bytes())
        except (wave.Error, EOFError) as exc:
            raise OSError(f"espeak-ng: {exc}") from exc
        finally:
            raw.unlink(missing_ok=True)
        write_file(path, data)
        self._renders += 1
        if self._renders % 50 == 0:
            self._prune()

    def _prune(self) -> None:
        """The oldest clips removed when the cache holds more than ``MAX_CACHED`` (they are made again if asked)."""
        try:
            clips = sorted(self.cache.glob("*.wav"), key=lambda p: p.stat().st_mtime)
        except OSError:
            return
        for old in clips[: max(0, len(clips) - KEEP_CACHED)] if len(clips) > MAX_CACHED else []:
            old.unlink(missing_ok=True)

    def ahead(self, texts: Iterable[tuple[str, str, float]]) -> list[Job]:
        """Queue every ``(text, voice, rate)`` not cached yet to be made after the clips screens ask for (the first
        ball must not wait), in place of those queued ahead for settings that changed since; their jobs."""
        self.renders.forget_ahead()
        return [
            self._submit(text, voice, rate, path, AHEAD)
            for text, voice, rate in texts
            if not (path := self.path_for(text, voice, rate)).is_file()
        ]

    def prerender(self, texts: Iterable[tuple[str, str, float]], timeout_s: float = 600.0) -> int:
        """``ahead(texts)``, waited for (``timeout_s`` at most); the count made."""
        deadline = time.monotonic() + timeout_s
        made = 0
        for job in self.ahead(texts):
            try:
                self.renders.wait(job, max(0.0, deadline - time.monotonic()))
                made += 1
            except Busy:
                continue  # dropped for newer settings, or still going: the screens' asks make it
            except OSError as exc:
                log.warning("voix : rendu impossible (%s)", exc)
                self.renders.forget_ahead()
                return made
        return made

    # ---- the hall's own recordings (voice = "recorded")
    def recording(self, n: int) -> Path | None:
        path = self.recorded / f"{n}.wav"
        return path if path.is_file() else None

    def recorded_numbers(self) -> list[int]:
        try:
            return sorted(
                int(p.stem) for p in self.recorded.glob("*.wav") if p.stem.isdigit() and 1 <= int(p.stem) <= 90
            )
        except OSError:
            return []

    def keep_recording(self, n: int, data: bytes) -> None:
        """Keep ``data`` (checked by ``recording_problem`` first) as the hall's recording of ``n``."""
        self.offload(lambda: write_file(self.recorded / f"{n}.wav", data))
