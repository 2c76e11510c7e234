"""The hall's seal on what goes through the queue (INTERFACE §10): a relay believes only the core, the core only its relays.

Redis on loopback answers any local account (the kiosk's too), and on the hall's network anyone with its password:
one ``PUBLISH loto-hall:public`` with ``seq`` 1 000 000 000 used to make every relay drop the real draws, and a forged
``emit`` showed the phones a ball never drawn. So:

- every message the core publishes, the beat key it writes and each relay's report are **sealed**: an HMAC-SHA256
  with the hall's queue key over the exact bytes (a domain prefix per use, so that a report is never taken for a
  message), its 64 hex digits before the JSON. The key is ``queue.key`` in the data folder (32 random bytes, mode
  0600, the hall's user's only), made by the program before the core and the relays start; a relay on a second
  machine reads a copy of the Pi's (``docs/install-pi.md``) and never makes one;
- the listener reads bytes (an invalid UTF-8 message used to end its listening), and whatever is not sealed with the
  key is refused, counted and logged once per burst (``Refusals``); it is not « heard » either: a relay holding
  another key than the core's is found deaf, said on the console, instead of forwarding nothing in silence;
- a sealed message is also **fresh**: each carries the core's run (``r``, random at each start of the core) and its
  number in that run (``k``, increasing); a relay takes a run only once the core itself says it is its own (the
  ``X-Loto-Queue-Run`` header of ``GET /api/state``, fetched from the core), and in a run only a ``k`` above the last
  one: an old message replayed, of this run or of an earlier one, is refused;
- what a message says of ``seq`` is checked against the core before it is believed: a jump is answered with the core's
  own state (``display/relay.py``), and the relay stands at the core's ``seq``, never at the one announced.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("loto-hall.relay")

KEY_FILE = "queue.key"  # in the data folder, beside web.key and voucher.key
KEY_MIN_BYTES = 32
MAC_CHARS = 64  # HMAC-SHA256, in hex
RUN_HEADER = "X-Loto-Queue-Run"  # the core's run, on its GET /api/state

PUBLIC = b"loto-hall:public\n"  # the channel's messages
BEAT = b"loto-hall:beat\n"  # the beat key
REPORT = b"loto-hall:relays\n"  # a relay's report

REFUSED_QUIET_S = 10.0  # a burst of refusals ends after this long without one
CONFIRM_AGAIN_S = 1.0  # a run the core did not confirm is not asked about again for this long


class KeyMissing(Exception):
    """The queue key is absent or unreadable (a second machine's relays without the Pi's copy)."""


def read_key(data_dir: Path) -> bytes:
    """The hall's queue key, as made by the program (``hall/app/cluster.py``); ``KeyMissing`` when it is not there."""
    path = Path(data_dir) / KEY_FILE
    try:
        key = path.read_bytes()
    except OSError as exc:
        raise KeyMissing(f"{path} : {exc.strerror or exc}") from None
    if len(key) < KEY_MIN_BYTES:
        raise KeyMissing(f"{path} : {len(key)} octets, il en faut {KEY_MIN_BYTES}")
    return key


def _mac(key: bytes, domain: bytes, body: bytes) -> bytes:
    return hmac.new(key, domain + body, hashlib.sha256).hexdigest().encode()


def seal(key: bytes, domain: bytes, text: str) -> bytes:
    """``text`` sealed for ``domain``: the MAC's hex digits, then the text's UTF-8 bytes as they are."""
    body = text.encode()
    return _mac(key, domain, body) + body


def unseal(key: bytes, domain: bytes, raw: object) -> str | None:
    """The text sealed in ``raw`` with ``key`` for ``domain``, or ``None`` (unsealed, another key, cut…); never raises."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    if not isinstance(raw, (bytes, bytearray)) or len(raw) <= MAC_CHARS:
        return None
    mac, body = bytes(raw[:MAC_CHARS]), bytes(raw[MAC_CHARS:])
    if not hmac.compare_digest(mac, _mac(key, domain, body)):
        return None
    try:
        return body.decode()
    except UnicodeDecodeError:
        return None


def unseal_json(key: bytes, domain: bytes, raw: object) -> dict | None:
    """The JSON object sealed in ``raw``, or ``None``."""
    text = unseal(key, domain, raw)
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def stamped(run: str, k: int, text: str) -> str:
    """A message's JSON text (an object holding at least its ``t``) with the core's run and its number put first."""
    return f'{{"r":{json.dumps(run)},"k":{k},{text[1:]}'


class Refusals:
    """Messages refused, counted by reason and logged once per burst: the first at once, the burst's count when the
    next burst begins (a stranger's flood writes one line, not one per message)."""

    def __init__(self, who: str, clock: Callable[[], float] = time.monotonic, quiet_s: float = REFUSED_QUIET_S):
        self.who, self._clock, self.quiet_s = who, clock, quiet_s
        self.total = 0
        self.by_reason: Counter[str] = Counter()
        self._last = float("-inf")
        self._burst = 0

    def count(self, reason: str) -> None:
        now = self._clock()
        self.total += 1
        self.by_reason[reason] += 1
        if now - self._last > self.quiet_s:
            before = f" (la rafale précédente : {self._burst})" if self._burst else ""
            log.warning(
                "%s : message de la file refusé (%s) : ni scellé par la clé de la salle, ni frais ; les suivants "
                "sont comptés%s",
                self.who,
                reason,
                before,
            )
            self._burst = 0
        self._burst += 1
        self._last = now


class Freshness:
    """Which of the core's runs a relay takes messages from, and the last number it took in it.

    ``confirm(run)`` asks the core whether ``run`` is its own (a fetch of its state: ``display/relay.py``); it is
    called for a run the relay does not hold yet, at most every ``CONFIRM_AGAIN_S`` after one the core denied."""

    def __init__(self, confirm: Callable[[str], bool], clock: Callable[[], float] = time.monotonic):
        self._confirm, self._clock = confirm, clock
        self.run: str | None = None
        self.k = 0
        self._denied_at = float("-inf")

    def refusal(self, message: dict) -> str | None:
        """Why ``message`` (sealed) is not taken — ``"run"`` or ``"replay"`` — or ``None``: taken (its ``k`` kept)."""
        run, k = message.get("r"), message.get("k")
        if not isinstance(run, str) or not isinstance(k, int) or isinstance(k, bool):
            return "unstamped"
        if run != self.run:
            if self._clock() - self._denied_at < CONFIRM_AGAIN_S:
                return "run"  # a stranger's replays of an old run cost the core one fetch a second at most
            if not self._confirm(run):
                self._denied_at = self._clock()
                return "run"
            self.run, self.k = run, 0  # the core restarted: its numbers start again
        if k <= self.k:
            return "replay"
        self.k = k
        return None
