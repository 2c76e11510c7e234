"""The salle annexe's voice: the main hall's own clips (``GET {main}/speech/…wav``), fetched once, kept in memory,
and served with the annex's ``delay_ms`` of silence before the voice (RULES L23: a room that also hears the other
room's PA through a door hears no echo — distance × 2.9 ms + 10 ms). The silence is in the clip itself, so the
projector's page and its player stay the main's, unchanged, and the screen shows the ball at once."""

from __future__ import annotations

import io
import threading
import wave

from display.annex_link import MainAway, MainRefused
from display.annex_link import fetch_bytes as _fetch

MAX_CLIP_BYTES = 2 * 1024 * 1024  # a ball's clip is ~50–150 KB; a recorded one a few hundred
MAX_DELAY_MS = 2000
CLIPS_KEPT = 512  # the 90 balls and the ritual's sentences


def delayed(clip: bytes, delay_ms: int) -> bytes:
    """``clip`` (a RIFF WAV) with ``delay_ms`` of silence before it; the clip as it is when it is no PCM WAV or
    there is no delay."""
    if delay_ms <= 0:
        return clip
    try:
        with wave.open(io.BytesIO(clip)) as src:
            params = src.getparams()
            frames = src.readframes(params.nframes)
    except (wave.Error, EOFError):
        return clip
    silent = b"\x80" if params.sampwidth == 1 else b"\x00"  # 8-bit WAV is unsigned: its silence is 128
    pad = silent * (params.sampwidth * params.nchannels * (params.framerate * delay_ms // 1000))
    out = io.BytesIO()
    with wave.open(out, "wb") as dst:
        dst.setnchannels(params.nchannels)
        dst.setsampwidth(params.sampwidth)
        dst.setframerate(params.framerate)
        dst.writeframes(pad + frames)
    return out.getvalue()


class Clips:
    """The main's clips by path, delayed for this room, fetched at most once each (a failure is asked again)."""

    def __init__(self, main_url: str, delay_ms: int):
        self.main_url = main_url.rstrip("/")
        self.delay_ms = max(0, min(MAX_DELAY_MS, delay_ms))
        self._kept: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self.version = ""  # the main's clips' version (``/api/speech`` ``clips``): a new one empties the cache

    def renew(self, version: object) -> None:
        if isinstance(version, str) and version != self.version:
            with self._lock:
                self.version = version
                self._kept.clear()

    def get(self, path: str) -> bytes | None:
        """The clip at ``path`` (``/speech/42.wav``), delayed; None when the main has none (404, speech off)."""
        kept = self._kept.get(path)
        if kept is not None:
            return kept
        try:
            clip = _fetch(self.main_url + path, MAX_CLIP_BYTES)
        except (MainAway, MainRefused):
            return None
        clip = delayed(clip, self.delay_ms)
        with self._lock:
            if len(self._kept) < CLIPS_KEPT:
                self._kept[path] = clip
        return clip
