"""The HID barcode scanner at the controllers' desk: each scan becomes a claim check.

A USB scanner is a keyboard that types the code then Enter. Read with evdev and grabbed, its
keycodes are turned into characters with a fixed US table, so the host's layout (AZERTY) plays no
part: a US-configured scanner's ``1`` is KEY_1 whatever the console thinks KEY_1 means.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from evdev import InputEvent, ecodes

from drivers.keypad import EvdevReader, InputDevice
from drivers.reconnect import Backoff
from hall import MAX_CARD_TEXT
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.snapshots import ClaimResult, notice

log = logging.getLogger("loto-hall.drivers")

MAX_SCAN = MAX_CARD_TEXT  # characters (the URL form of a carton's QR included); longer is a stuck key, not a carton
SCAN_GAP_S = 0.5  # a scanner types a code in a burst; a longer gap starts a new code

_US_PAIRS = {  # keycode name → (plain, with Shift)
    **{f"KEY_{c}": (c.lower(), c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
    **{f"KEY_{d}": (d, s) for d, s in zip("1234567890", "!@#$%^&*()")},
    **{f"KEY_KP{d}": (str(d), str(d)) for d in range(10)},
    "KEY_MINUS": ("-", "_"),
    "KEY_EQUAL": ("=", "+"),
    "KEY_LEFTBRACE": ("[", "{"),
    "KEY_RIGHTBRACE": ("]", "}"),
    "KEY_SEMICOLON": (";", ":"),
    "KEY_APOSTROPHE": ("'", '"'),
    "KEY_GRAVE": ("`", "~"),
    "KEY_BACKSLASH": ("\\", "|"),
    "KEY_COMMA": (",", "<"),
    "KEY_DOT": (".", ">"),
    "KEY_SLASH": ("/", "?"),
    "KEY_SPACE": (" ", " "),
    "KEY_KPMINUS": ("-", "-"),
    "KEY_KPPLUS": ("+", "+"),
    "KEY_KPASTERISK": ("*", "*"),
    "KEY_KPSLASH": ("/", "/"),
    "KEY_KPDOT": (".", "."),
}
US_KEYS: dict[int, tuple[str, str]] = {ecodes.ecodes[name]: pair for name, pair in _US_PAIRS.items()}
SHIFT_KEYS = frozenset({ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT})
END_KEYS = frozenset({ecodes.KEY_ENTER, ecodes.KEY_KPENTER, ecodes.KEY_TAB})  # the scanner's suffix
IGNORED_KEYS = frozenset(
    {
        ecodes.KEY_CAPSLOCK,
        ecodes.KEY_NUMLOCK,
        ecodes.KEY_LEFTCTRL,
        ecodes.KEY_RIGHTCTRL,
        ecodes.KEY_LEFTALT,
        ecodes.KEY_RIGHTALT,
    }
)


@dataclass(frozen=True, slots=True)
class Scan:
    """One scanned code; ``clean`` is False when a key outside the table was typed (shown as ``?``)."""

    text: str
    clean: bool = True


class ScanDecoder:
    """Key events in, ``Scan`` values out (at the end key); pure, timed by the events' own timestamps."""

    def __init__(self, gap_s: float = SCAN_GAP_S):
        self._gap = gap_s
        self._chars: list[str] = []
        self._clean = True
        self._shift = 0
        self._last_at: float | None = None

    def feed(self, event: InputEvent) -> Scan | None:
        """The finished ``Scan`` when this event ends one, else ``None``."""
        if event.type != ecodes.EV_KEY:
            return None
        if event.code in SHIFT_KEYS:
            self._shift = max(0, self._shift + (1 if event.value == 1 else -1 if event.value == 0 else 0))
            return None
        if event.value != 1 or event.code in IGNORED_KEYS:
            return None
        at = event.sec + event.usec / 1e6
        if self._last_at is not None and at - self._last_at > self._gap and self._chars:
            log.info("scanner: partial code dropped after a pause: %r", "".join(self._chars))
            self._reset()
        self._last_at = at
        if event.code in END_KEYS:
            scan = Scan("".join(self._chars).strip(), self._clean) if self._chars else None
            self._reset()
            return scan
        pair = US_KEYS.get(event.code)
        if len(self._chars) < MAX_SCAN:
            self._chars.append("?" if pair is None else pair[1 if self._shift else 0])
        else:
            self._clean = False
        if pair is None:
            self._clean = False
        return None

    def feed_all(self, events) -> list[Scan]:
        return [s for s in (self.feed(e) for e in events) if s is not None]

    def _reset(self) -> None:
        self._chars = []
        self._clean = True


def apply_scan(hall: HallPort, scan: Scan, source: str = "scanner") -> ClaimResult | None:
    """Check the scanned carton for the controllers' desk; the verdict, or ``None`` when the scan was unreadable."""
    if not scan.clean or not scan.text:
        log.warning("%s: unreadable scan raw=%r", source, scan.text)
        hall.tell(notice("scanner:unreadable", "unreadable", source=source, raw=scan.text))
        return None
    try:
        verdict = hall.card_scanned(scan.text)
    except Rejected as exc:
        log.info("%s: scan %r refused code=%s", source, scan.text, exc.code)
        hall.tell(notice("scanner:refused", exc.code, source=source, raw=scan.text))
        return None
    log.info("%s: carton %s checked verdict=%s", source, scan.text, verdict.verdict)
    return verdict


class ScannerReader(EvdevReader):
    """The barcode scanner on ``section.device``; each scan is a claim check as the controllers' desk."""

    name = "scanner"
    hall: HallPort

    def __init__(
        self,
        hall: HallPort,
        section,
        *,
        opener: Callable[[str], InputDevice] | None = None,
        backoff: Backoff | None = None,
    ):
        super().__init__(hall, section.device, opener=opener, backoff=backoff)
        self.decoder = ScanDecoder()

    def on_event(self, event: InputEvent) -> None:
        scan = self.decoder.feed(event)
        if scan is not None:
            apply_scan(self.hall, scan)

    def _lost(self) -> None:
        self.decoder = ScanDecoder()
