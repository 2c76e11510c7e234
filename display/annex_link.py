"""The salle annexe's link to the main hall (RULES L23, INTERFACE §12): it follows, it never draws.

- enrolment: ``POST {main}/api/rooms/{room}/join {"code"}`` once; the token it answers is kept in the data folder
  (``annex.json``, 0600: ``hall/app/annex.py``) so that a restart needs no new code;
- the stream: the main's public Socket.IO (a python-socketio client), the same events a projector gets; a ball is
  passed on to the annex's own screens only when its ``seq`` follows the last one passed on; anything else (a gap,
  a reconnection) makes the annex fetch the main's whole state (``GET /api/state``) and hand that on instead, so a
  screen never shows a ball out of order;
- the beat: ``POST {main}/api/rooms/{room}/beat {"seq"}`` four times a second, and at once after each ball (or
  whole state) handed to the screens, Bearer token: its ``seq`` is the last one the annex has shown, its ack — the
  main draws no ball over one the annex has not shown (``423 room_behind``, RULES L23a) and refuses every ball
  while it is unheard (``423 room_offline``); its answer's ``seq`` shows a ball the stream lost (a main without
  rooms answers 404: the annex then asks its state instead, the same check);
- the link: heard from (an event, a beat answered, a state fetched) within ``LOST_S`` and the stream connected,
  else « lost »: the screens say « liaison perdue — attendez », and catch up from the main's state on its return.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from urllib.parse import quote

import socketio

log = logging.getLogger("loto-hall.annex")

LOST_S = 3.0  # nothing heard from the main this long: the link is lost (RULES L23)
BEAT_S = 0.25  # the annex beats the main this often (the main waits for a room unheard for 1 s: RULES L23a)
JUDGE_S = 0.25  # the link judged this often
GAP_GRACE_S = 0.3  # a beat's seq ahead of the stream: the event may be on its way; looked at again after this
HTTP_TIMEOUT_S = 2.0
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # the main's state (a whole evening's draws and lots) is far below


class MainRefused(Exception):
    """The main hall answered with a refusal (``status``, its JSON ``body``)."""

    def __init__(self, status: int, body: dict):
        super().__init__(f"{status} {body.get('error', '')}")
        self.status, self.body = status, body


class MainAway(Exception):
    """The main hall did not answer (the link is down, or it restarts)."""


def call(
    url: str,
    body: dict | None = None,
    token: str = "",
    timeout_s: float = HTTP_TIMEOUT_S,
    headers: dict[str, str] | None = None,
) -> dict:
    """The main's JSON answer to a GET (``body`` None) or a POST (``headers`` besides); ``MainRefused`` on a
    4xx/5xx with its body, ``MainAway`` when it does not answer."""
    headers = {"Accept": "application/json", **(headers or {})}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body, allow_nan=False).encode()
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as resp:
            answer = json.loads(resp.read(MAX_ANSWER_BYTES + 1) or b"{}")
    except urllib.error.HTTPError as exc:
        try:
            refused = json.loads(exc.read(64 * 1024) or b"{}")
        except ValueError:
            refused = {}
        raise MainRefused(exc.code, refused if isinstance(refused, dict) else {}) from None
    except (OSError, ValueError) as exc:
        raise MainAway(f"{url}: {exc}") from None
    if not isinstance(answer, dict):
        raise MainAway(f"{url}: not a JSON object")
    return answer


def fetch_bytes(url: str, limit: int, timeout_s: float = HTTP_TIMEOUT_S) -> bytes:
    """The main's bytes at ``url`` (a clip, a QR code), at most ``limit``; ``MainRefused`` / ``MainAway`` as ``call``."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as resp:
            data = resp.read(limit + 1)
    except urllib.error.HTTPError as exc:
        raise MainRefused(exc.code, {}) from None
    except OSError as exc:
        raise MainAway(f"{url}: {exc}") from None
    if len(data) > limit:
        raise MainAway(f"{url}: more than {limit} bytes")
    return data


class Link:
    """What the annex knows of the main hall: its last state, the ``seq`` passed on to the annex's screens, and the
    link's health. ``publish(name, payload)`` hands an event (or ``state``, or the ``annex`` notice) to the annex's
    own Socket.IO; it is called in ``seq`` order, one at a time."""

    def __init__(
        self,
        main_url: str,
        room: str,
        token: str,
        publish: Callable[[str, object], None],
        *,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.main_url, self.room, self.token = main_url.rstrip("/"), room, token
        self.publish, self._clock = publish, clock
        self._lock = threading.RLock()  # one change of what the screens were given at a time
        self.state: dict | None = None  # the main's state as last received (draws applied as they come)
        self.seq: int | None = None  # the last seq passed on to the screens
        self.heard_at = clock() - LOST_S - 1  # never heard yet: lost until the first word
        self.connected = False
        self.link = "lost"
        self.beat_path = f"/api/rooms/{quote(room, safe='')}/beat"
        self.rooms_known = True  # the main answers the beat (False: a main without rooms, its state asked instead)
        self.resyncs = 0
        self.passed = 0
        self._stopped = threading.Event()
        self._ack = threading.Event()  # a ball (or a whole state) handed to the screens: beat at once, it is the ack
        self.on_link: Callable[[str], None] = lambda link: None  # told each change of the link (the kept claims)
        self.sio = socketio.Client(reconnection=True, reconnection_delay=0.25, reconnection_delay_max=1.0)
        self.sio.on("connect", self._on_connect)
        self.sio.on("disconnect", self._on_disconnect)
        self.sio.on("*", self._on_any)

    # ---- what the annex's pages read
    def view(self) -> dict | None:
        """The main's state as last received, with the annex's own word (``annex``: room, link); None before any."""
        with self._lock:
            if self.state is None:
                return None
            return {**self.state, "annex": {"room": self.room, "link": self.link}}

    def current_kind(self) -> str | None:
        """The kind of the lot being played on the main (what a « Quine ! » in the annex claims), if any."""
        state = self.view() or {}
        partie = state.get("partie") if isinstance(state.get("partie"), dict) else None
        index = partie.get("current_lot") if partie else None
        lots = partie.get("lots") if partie else None
        if isinstance(index, int) and isinstance(lots, list) and 0 <= index < len(lots):
            lot = lots[index]
            return lot.get("kind") if isinstance(lot, dict) else None
        return None

    # ---- the stream
    def _on_connect(self) -> None:
        self.connected = True
        self._heard()

    def _on_disconnect(self, reason: object = None) -> None:
        self.connected = False

    def _on_any(self, name: str, data: object = None) -> None:
        self._heard()
        if name == "state":
            if isinstance(data, dict):
                self.take_state(data)
            return
        seq = data.get("seq") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(seq, int):
            if name != "beat":  # the main's notices (the screen's game, the speaker's count…) as they are
                self.publish(name, data)
            elif isinstance(data, dict) and isinstance(data.get("at_seq"), int):
                # looked at off the stream's thread: the events it may still bring must not wait for the check
                threading.Thread(target=self._check_at, args=(data["at_seq"],), daemon=True).start()
            return
        self.take_event(name, data)

    def take_event(self, name: str, data: dict) -> None:
        """One of the main's events: passed on if it follows the last one passed on; a gap → the whole state."""
        with self._lock:
            seq = data["seq"]
            if self.seq is not None and seq <= self.seq:
                return  # already in the state the screens hold
            if self.seq is None or seq != self.seq + 1:
                self._refetch()
                return
            self.seq = seq
            self.passed += 1
            self._apply(name, data)
            self.publish(name, data)
            self._ack.set()
        if name != "draw":
            self._refresh_soon()

    def _apply(self, name: str, data: dict) -> None:
        """A ball changes the kept state as the projector's page changes its own; other events are fetched again."""
        if self.state is None:
            return
        kept = dict(self.state, seq=data["seq"])
        number = data.get("number")
        if name == "draw" and isinstance(number, int):
            kept["draws"] = [*kept.get("draws", []), number]
            kept["last"], kept["status"] = number, "playing"
        self.state = kept

    def take_state(self, state: dict) -> None:
        """A whole state of the main (at a connection, or fetched): kept, and handed to the screens if it is ahead
        of what they hold."""
        seq = state.get("seq")
        if not isinstance(seq, int):
            return
        with self._lock:
            if self.state is None or seq >= self.state.get("seq", -1):
                self.state = state
            if self.seq is None or seq > self.seq:
                self.seq = seq
                self.resyncs += 1
                self.publish("state", self.view())
                self._ack.set()

    def _refetch(self) -> bool:
        try:
            state = call(self.main_url + "/api/state")
        except (MainAway, MainRefused) as exc:
            log.info("salle annexe : état de la salle principale non obtenu (%s)", exc)
            return False
        self._heard()
        self.take_state(state)
        return True

    def _refresh_soon(self) -> None:
        """After an event the annex does not apply itself (a partie, a verdict): the main's state fetched again, so
        that ``GET /api/state`` here says what the main's says; the screens already have the event."""
        threading.Thread(target=self._refresh, name="annex-refresh", daemon=True).start()

    def _refresh(self) -> None:
        try:
            state = call(self.main_url + "/api/state")
        except (MainAway, MainRefused):
            return
        self._heard()
        with self._lock:
            if self.state is None or state.get("seq", -1) >= self.state.get("seq", -1):
                if self.seq is not None and state.get("seq", -1) > self.seq:
                    return  # ahead of the screens: the stream's next events (or a gap) will bring it
                self.state = state

    def _check_at(self, main_seq: object) -> None:
        """The main says it stands at ``main_seq``: events lost on the way (looked at again after a moment, since
        the stream may still be bringing them) are caught up from the whole state."""
        if not isinstance(main_seq, int):
            return
        with self._lock:
            behind = self.seq is None or main_seq > self.seq
        if behind:
            self._stopped.wait(GAP_GRACE_S)
            with self._lock:
                if self.seq is None or main_seq > self.seq:
                    self._refetch()

    # ---- the beat and the link's health
    def _heard(self) -> None:
        self.heard_at = self._clock()

    def beat_once(self) -> None:
        """One beat to the main (or its state asked, a main without rooms); the link's health judged after it."""
        try:
            if self.rooms_known:
                answer = call(self.main_url + self.beat_path, {"seq": self.seq or 0}, token=self.token)
                self._heard()
                self._check_at(answer.get("seq"))
            else:
                self._heard_state()
        except MainRefused as exc:
            if exc.status == 404 and exc.body.get("error") == "not_found":
                self.rooms_known = False  # the main has no rooms: its state says as much of the link
                self._heard_state()
            else:
                self._heard()  # it answered: the link is up, the refusal is logged (a token revoked)
                log.warning("salle annexe : battement refusé par la salle principale (%s)", exc)
        except MainAway:
            pass
        self.judge()

    def _heard_state(self) -> None:
        try:
            state = call(self.main_url + "/api/state")
        except (MainAway, MainRefused):
            return
        self._heard()
        self._check_at(state.get("seq"))

    def judge(self) -> str:
        """``ok`` or ``lost`` now; a change is told to the screens (and a return catches up from the whole state)."""
        fresh = self._clock() - self.heard_at <= LOST_S
        link = "ok" if fresh and self.connected else "lost"
        if link == self.link:
            return link
        self.link = link
        if link == "lost":
            log.warning("salle annexe %s : liaison perdue avec la salle principale", self.room)
        else:
            log.info("salle annexe %s : liaison rétablie", self.room)
            self._refetch()
        self.publish("annex", {"room": self.room, "link": link})
        self.on_link(link)
        return link

    def _beat_forever(self) -> None:
        """A beat every ``BEAT_S``, and one at once when a ball was handed to the screens (the ack)."""
        while not self._stopped.is_set():
            started = self._clock()
            self._ack.clear()
            try:
                self.beat_once()
            except Exception:  # one bad beat must not stop the others
                log.exception("salle annexe : battement manqué")
            self._ack.wait(max(0.0, BEAT_S - (self._clock() - started)))

    def _judge_forever(self) -> None:
        """The link judged four times a second, apart from the beat (whose call waits up to its timeout when the
        cable is pulled): « lost » is said within ``LOST_S`` and a quarter of a second of the last word heard."""
        while not self._stopped.wait(JUDGE_S):
            try:
                self.judge()
            except Exception:
                log.exception("salle annexe : état de la liaison non jugé")

    def _stream_forever(self) -> None:
        """The main's Socket.IO, connected again and again (python-socketio retries only once it was connected)."""
        while not self._stopped.is_set():
            if not self.sio.connected:
                try:
                    self.sio.connect(self.main_url, transports=["websocket"], wait_timeout=HTTP_TIMEOUT_S)
                except Exception as exc:  # socketio.exceptions.ConnectionError: the main away
                    log.debug("salle annexe : flux de la salle principale injoignable (%s)", exc)
            self._stopped.wait(0.5)

    def start(self) -> None:
        self._refetch()
        for target, name in (
            (self._stream_forever, "annex-stream"),
            (self._beat_forever, "annex-beat"),
            (self._judge_forever, "annex-judge"),
        ):
            threading.Thread(target=target, name=name, daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()
        self._ack.set()
        try:
            self.sio.disconnect()
        except Exception:
            pass
