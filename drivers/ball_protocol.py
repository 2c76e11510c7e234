"""Ball-machine framing and parsing (INTERFACE §3): bytes in, frozen values out, no I/O, no clock of its own.

Two protocols: ``lines`` (a ball per line ended by CR, LF or CRLF, the number captured by a configurable
regular expression) and ``stx`` (frames ``STX digits ETX``). The reader thread feeds whatever bytes
arrive, in chunks of any size; the parser keeps the partial frame between calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hall import InvalidNumber, parse_number

DEFAULT_PATTERN = r"^\D*(\d{1,2})\D*$"
MAX_FRAME = 64  # bytes; a "line" longer than this is noise on the wire, not a ball
STX, ETX = 0x02, 0x03
_EOL = b"\r\n"


@dataclass(frozen=True, slots=True)
class Ball:
    """A well-formed read of ball ``number`` (1–90); ``raw`` is the frame as it came, for the logs."""

    number: int
    raw: bytes


@dataclass(frozen=True, slots=True)
class Garbage:
    """A read that is not a ball: ``reason`` is ``no_match``, ``out_of_range``, ``too_long`` or ``truncated``."""

    raw: bytes
    reason: str


Reading = Ball | Garbage


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """The ``lines`` pattern compiled in ASCII mode; raises ``ValueError`` naming the bad pattern."""
    try:
        return re.compile(pattern, re.ASCII)
    except re.error as exc:
        raise ValueError(f"ball_machine.pattern : expression régulière invalide {pattern!r} ({exc})") from None


def _number(text: str, raw: bytes) -> Reading:
    try:
        return Ball(parse_number(text), raw)
    except InvalidNumber:
        return Garbage(raw, "out_of_range")


class LineParser:
    """The ``lines`` protocol: ``feed(bytes) -> [Reading]``; blank lines (the LF of a CRLF) are skipped."""

    def __init__(self, pattern: str = DEFAULT_PATTERN, max_frame: int = MAX_FRAME):
        self._re = compile_pattern(pattern)
        self._max = max_frame
        self._buf = bytearray()
        self._overflow = False  # inside a line already reported as too long: drop until its end

    def feed(self, data: bytes) -> list[Reading]:
        out: list[Reading] = []
        for byte in data:
            if byte in _EOL:
                if self._overflow:
                    self._overflow = False
                elif self._buf:
                    out.append(self._parse(bytes(self._buf)))
                self._buf.clear()
            elif self._overflow:
                continue
            elif len(self._buf) >= self._max:
                out.append(Garbage(bytes(self._buf), "too_long"))
                self._buf.clear()
                self._overflow = True
            else:
                self._buf.append(byte)
        return out

    def flush(self) -> list[Reading]:
        """The partial line left when the device went away, reported as ``truncated`` (never drawn)."""
        out: list[Reading] = [Garbage(bytes(self._buf), "truncated")] if self._buf else []
        self._buf.clear()
        self._overflow = False
        return out

    def _parse(self, raw: bytes) -> Reading:
        text = raw.decode("latin-1")
        m = self._re.search(text)
        if m is None:
            return Garbage(raw, "no_match")
        captured = m.group(1) if self._re.groups else m.group(0)
        if captured is None:
            return Garbage(raw, "no_match")
        return _number(captured.strip(), raw)


class StxParser:
    """The ``stx`` protocol: ``STX digits ETX``; bytes between frames are noise, CR/LF/space there are ignored."""

    def __init__(self, max_frame: int = MAX_FRAME):
        self._max = max_frame
        self._frame: bytearray | None = None  # None: between frames
        self._noise = bytearray()

    def feed(self, data: bytes) -> list[Reading]:
        out: list[Reading] = []
        for byte in data:
            if byte == STX:
                self._report_noise(out)
                if self._frame is not None:
                    out.append(Garbage(bytes([STX]) + bytes(self._frame), "truncated"))
                self._frame = bytearray()
            elif self._frame is None:
                if byte not in b"\r\n ":
                    self._noise.append(byte)
                    if len(self._noise) >= self._max:
                        self._report_noise(out)
            elif byte == ETX:
                raw = bytes([STX]) + bytes(self._frame) + bytes([ETX])
                text = self._frame.decode("latin-1").strip()
                self._frame = None
                out.append(_number(text, raw) if text.isascii() and text.isdigit() else Garbage(raw, "no_match"))
            elif len(self._frame) >= self._max:
                out.append(Garbage(bytes([STX]) + bytes(self._frame), "too_long"))
                self._frame = None
            else:
                self._frame.append(byte)
        return out

    def flush(self) -> list[Reading]:
        out: list[Reading] = []
        self._report_noise(out)
        if self._frame is not None:
            out.append(Garbage(bytes([STX]) + bytes(self._frame), "truncated"))
        self._frame = None
        return out

    def _report_noise(self, out: list[Reading]) -> None:
        if self._noise:
            out.append(Garbage(bytes(self._noise), "no_match"))
            self._noise.clear()


def make_parser(protocol: str = "lines", pattern: str = DEFAULT_PATTERN) -> LineParser | StxParser:
    """The parser for a ``[ball_machine] protocol``; raises ``ValueError`` for an unknown one."""
    if protocol == "lines":
        return LineParser(pattern)
    if protocol == "stx":
        return StxParser()
    raise ValueError(f"ball_machine.protocol : protocole inconnu {protocol!r} (lines ou stx)")


def frame(number: int, protocol: str = "lines", prefix: bytes = b"") -> bytes:
    """The bytes a machine sends for ``number`` (what the simulator writes)."""
    digits = str(number).encode("ascii")
    if protocol == "stx":
        return bytes([STX]) + digits + bytes([ETX])
    return prefix + digits + b"\r\n"


class Debouncer:
    """The same number read again within ``window_s`` of its previous read is the same ball (sliding window)."""

    def __init__(self, window_s: float):
        self._window = window_s
        self._last: tuple[int, float] | None = None

    def is_new(self, number: int, now: float) -> bool:
        """Whether this read is a new ball; a repeat extends the window (a ball lying on the reader)."""
        last = self._last
        self._last = (number, now)
        return last is None or last[0] != number or now - last[1] >= self._window
