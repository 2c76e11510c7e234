"""Every socket's incoming frames bounded before any work: the core's Socket.IO server and each relay's.

What one phone could do before: python-engineio reads a WebSocket in a task of its own (simple-websocket's reader),
which never yields while bytes keep arriving, and python-socketio started a task per event; one socket writing
``42["resync"]`` as fast as it could (80 000 frames a second) left ``GET /api/state`` and the speaker's draws
unanswered for over 30 s after it had closed. Here, for one ``socketio.Server`` (Flask-SocketIO's, or a relay's):

- each connection has a budget (``FRAMES_PER_S`` a second, bursts of ``FRAME_BURST``): every WebSocket frame — text,
  binary, a fragment, a ping — is counted as simple-websocket's reader takes it from wsproto, before it is handed
  on; every Engine.IO packet of a long-polling ``POST`` (and each polling request) before Engine.IO reads the body.
  A connection over its budget is closed at once (WebSocket close 1008), nothing more of it is read, and its
  address is counted;
- an address whose sockets were cut ``HOLD_AFTER`` times within ``HOLD_WINDOW_S`` gets no new socket for ``HOLD_S``
  (Engine.IO's handshake refused, before any upgrade: ``401 {"error": "too_many_frames"}``) — but the staff's: a
  handshake carrying a staff session's cookie is let in (every device behind one access point shares its address);
- a socket's reader yields after each chunk it reads, so a busy socket shares the worker with everyone else;
- no WebSocket compression (permessage-deflate): its zlib contexts cost ~100 KB a phone, for hundred-byte events;
- events are handled in the socket's own reader, one at a time (``async_handlers=False``): no task per frame, and
  an event nobody handles costs a lookup.

The hooks are python-engineio's: its ``connect``/``disconnect`` handlers (public ``eio.on``; python-socketio's own are
called through), and the WebSocket class of its async driver (``_async["websocket"]``: simple-websocket's adapter,
given a reader that counts). ``tests/display/test_frames.py`` holds them to the versions pinned.
"""

from __future__ import annotations

import io
import logging
import socket as _socket
import threading
import time
import urllib.parse
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from wsproto import WSConnection
from wsproto.events import CloseConnection, Event
from wsproto.frame_protocol import CloseReason

from display.errors import error_body

if TYPE_CHECKING:
    import engineio
    import socketio

log = logging.getLogger("loto-hall.display")

FRAMES_PER_S = 20.0  # a phone sends a handful in its life (connect, a resync on a gap, a pong every 25 s)
FRAME_BURST = 50
HOLD_AFTER = 3  # sockets of one address cut this many times …
HOLD_WINDOW_S = 60.0  # … within this long …
HOLD_S = 60.0  # … and that address gets no new socket for this long
ADDRESSES_KEPT = 4096  # addresses remembered (the oldest forgotten first)
RECORD_SEP = b"\x1e"  # between the packets of a long-polling payload


class FrameBudget:
    """A token bucket for one connection (one reader: no lock)."""

    __slots__ = ("rate", "burst", "tokens", "at", "clock")

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def take(self, n: int = 1) -> bool:
        """Spend ``n`` frames; ``False`` (nothing spent) when the budget does not hold them."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < n:
            return False
        self.tokens -= n
        return True


class FrameGate:
    """The budgets of one server's connections, the addresses cut, and the addresses held."""

    def __init__(
        self,
        rate: float = FRAMES_PER_S,
        burst: float = FRAME_BURST,
        *,
        hold_after: int = HOLD_AFTER,
        hold_window_s: float = HOLD_WINDOW_S,
        hold_s: float = HOLD_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.rate, self.burst = rate, burst
        self.hold_after, self.hold_window_s, self.hold_s = hold_after, hold_window_s, hold_s
        self._clock = clock
        self._lock = threading.Lock()
        self.cut_total = 0
        self.by_address: OrderedDict[str, int] = OrderedDict()  # address → its sockets cut, ever
        self._recent: OrderedDict[str, deque[float]] = OrderedDict()  # address → when, within the window
        self._held: dict[str, float] = {}  # address → held until
        self._polling: dict[str, FrameBudget] = {}  # Engine.IO sid → its budget (polling)

    def budget(self) -> FrameBudget:
        return FrameBudget(self.rate, self.burst, self._clock)

    def cut(self, address: str) -> None:
        """A socket of ``address`` went over its budget and was closed: count it, hold the address if it persists."""
        now = self._clock()
        with self._lock:
            self.cut_total += 1
            self.by_address[address] = self.by_address.pop(address, 0) + 1
            recent = self._recent.pop(address, None) or deque()
            self._recent[address] = recent
            recent.append(now)
            while recent and now - recent[0] > self.hold_window_s:
                recent.popleft()
            held = len(recent) >= self.hold_after and address not in self._held
            if held:
                self._held[address] = now + self.hold_s
                recent.clear()
            for kept in (self.by_address, self._recent):
                while len(kept) > ADDRESSES_KEPT:
                    kept.popitem(last=False)
        if held:
            log.warning(
                "trop de trames : les sockets de %s sont refusés %.0f s (%d coupés en %.0f s)",
                address,
                self.hold_s,
                self.hold_after,
                self.hold_window_s,
            )
        else:
            log.info("socket coupé : plus de %.0f trames par seconde depuis %s", self.rate, address)

    def held(self, address: str) -> float:
        """Seconds ``address`` is still refused new sockets (0: it is not)."""
        if not self._held:
            return 0.0
        now = self._clock()
        with self._lock:
            until = self._held.get(address)
            if until is None:
                return 0.0
            if until <= now:
                del self._held[address]
                return 0.0
            return until - now

    def report(self) -> dict:
        """``{"cut", "addresses": {address: cut}, "held": [address…]}`` (the ten addresses cut most)."""
        with self._lock:
            top = sorted(self.by_address.items(), key=lambda item: -item[1])[:10]
            now = self._clock()
            return {
                "cut": self.cut_total,
                "addresses": dict(top),
                "held": sorted(a for a, until in self._held.items() if until > now),
            }

    # ---- the hooks on one python-socketio server
    def install(
        self, sio: socketio.Server, address_of: Callable[[dict], str], staff: Callable[[dict], bool] | None = None
    ) -> None:
        """Bound every frame ``sio`` reads; ``address_of(environ)`` names the client (the front's ``X-Real-IP``);
        ``staff(environ)``: whether a handshake comes from the staff's session (the core's), let in when its address is
        held — behind an access point every console, the controllers' phones and a flooder share one address."""
        sio.async_handlers = False  # each socket's events in its own reader, one at a time
        eio = sio.eio
        base = eio._async["websocket"]
        if not (isinstance(base, type) and issubclass(base, SimpleWebSocketWSGI)):
            raise RuntimeError(
                f"frames: the Engine.IO driver's WebSocket is {base!r}, not simple-websocket's "
                "(is gevent-websocket installed? the hall uses simple-websocket)"
            )
        eio._async = {**eio._async, "websocket": _bounded_websocket(base, self, address_of, eio)}
        socketio_connect, socketio_disconnect = eio.handlers["connect"], eio.handlers["disconnect"]

        def on_connect(eio_sid: str, environ: dict) -> object:
            left = self.held(address_of(environ))
            if left and not (staff is not None and staff(environ)):
                return error_body("too_many_frames", {"retry_after": int(left) + 1})
            self._polling[eio_sid] = self.budget()
            return socketio_connect(eio_sid, environ)

        def on_disconnect(eio_sid: str, reason: object = None) -> object:
            self._polling.pop(eio_sid, None)
            return socketio_disconnect(eio_sid, reason)

        eio.on("connect", on_connect)
        eio.on("disconnect", on_disconnect)

    def polling(self, app: Callable, eio: engineio.Server, address_of: Callable[[dict], str], path: str) -> Callable:
        """A WSGI app in front of ``app`` (Engine.IO's on ``path``) counting long-polling requests and packets."""

        def gate(environ: dict, start_response: Callable) -> Iterable[bytes]:
            query = environ.get("QUERY_STRING", "")
            if (
                "transport=polling" not in query
                or "sid=" not in query
                or not environ.get("PATH_INFO", "").startswith(path)
            ):
                return app(environ, start_response)
            sid = urllib.parse.parse_qs(query).get("sid", [""])[0]
            budget = self._polling.get(sid)
            if budget is None:
                return app(environ, start_response)  # not ours (yet): Engine.IO answers it
            frames = 1
            if environ.get("REQUEST_METHOD") == "POST":
                try:
                    length = int(environ.get("CONTENT_LENGTH") or 0)
                except ValueError:
                    length = -1
                if not 0 <= length <= eio.max_http_buffer_size:
                    return app(environ, start_response)  # Engine.IO refuses it before reading
                body = environ["wsgi.input"].read(length)
                environ["wsgi.input"] = io.BytesIO(body)
                frames = body.count(RECORD_SEP) + 1
            if budget.take(frames):
                return app(environ, start_response)
            self._polling.pop(sid, None)
            self.cut(address_of(environ))
            socket = eio.sockets.pop(sid, None)
            if socket is not None:  # Engine.IO's own disconnect would wait for a GET to take what is queued
                socket.close(wait=False, abort=True)
            start_response("400 Bad Request", [("Content-Type", "text/plain")])
            return [b"too many frames"]

        return gate


def _bounded_websocket(base: type, gate: FrameGate, address_of: Callable[[dict], str], eio: engineio.Server) -> type:
    """Engine.IO's WebSocket adapter (``base``), its reader counting every frame against a fresh budget."""

    class BoundedWebSocket(base):
        def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
            # as SimpleWebSocketWSGI.__call__, with a counting reader and simple-websocket's message cap
            self.ws = _BoundedReader(
                environ,
                gate=gate,
                address=address_of(environ),
                pause=eio.sleep,
                max_message_size=eio.max_http_buffer_size,
                **self.server_args,
            )
            owner = getattr(self.app, "__self__", None)  # Engine.IO's socket (its handler is a bound method)
            if owner is not None:
                owner.direct = self.ws  # display.broadcast.fan_out writes through it
            ret = self.app(self)
            if self.ws.mode == "gunicorn":
                raise StopIteration()
            if self.ws.mode == "werkzeug":
                raise ConnectionError()
            return ret

    return BoundedWebSocket


class _BoundedReader(simple_websocket.Server):
    """simple-websocket's server side whose reader counts each frame wsproto parses, stops at the budget, and
    yields after each chunk it read."""

    def __init__(self, environ: dict, *, gate: FrameGate, address: str, pause: Callable[[float], object], **kwargs):
        self.budget, self.gate, self.address, self._pause = gate.budget(), gate, address, pause
        self.over = False
        # No permessage-deflate, which every browser offers: a ball is a hundred bytes, and each phone's zlib
        # contexts cost ~100 KB (200 MB for 2 000 phones) and a compression per phone per event.
        environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        super().__init__(environ, **kwargs)  # the handshake, then the reader starts

    def handshake(self) -> None:
        self.busy = 0  # a write under way (it may wait, and yield, half done)
        super().handshake()
        # from now on, every frame parsed is counted; Any as simple-websocket reads it as its wsproto connection,
        # which _Counted stands for
        self.ws: Any = _Counted(self.ws, self)

    def _handle_events(self) -> bool:
        self.busy += 1  # it may answer a ping or a close
        try:
            keep_going = super()._handle_events()
        finally:
            self.busy -= 1
        if self.over:
            self._cut()
            return False
        self._pause(0)
        return keep_going

    # ---- writing: Engine.IO's writer task, and a broadcast's frame written at once (display/broadcast.py)
    def send(self, data: bytes | str) -> None:
        self.busy += 1
        try:
            if isinstance(data, Framed):
                self.sock.sendall(data)  # a frame already made (the rest of one written at once)
            else:
                super().send(data)
        finally:
            self.busy -= 1

    def write_now(self, frame: bytes) -> int | None:
        """Write ``frame`` (a whole WebSocket frame) on the socket now, without waiting: how many bytes went out, or
        ``None`` when this socket cannot take it that way (a write under way, closed, or a blocking socket)."""
        raw = getattr(self.sock, "_sock", None)  # gevent's socket wraps the OS one, non-blocking
        if self.busy or not self.connected or raw is None or raw.gettimeout() != 0.0:
            return None
        try:
            return int(raw.send(frame))
        except BlockingIOError:
            return 0
        except OSError:
            return None

    def _cut(self) -> None:
        """Close at once: the 1008 if it goes without waiting (a flooder may read nothing), then both ways shut, which
        also wakes Engine.IO's writer if it was waiting to send to that peer."""
        try:
            self.sock.settimeout(0)
            self.sock.send(self.ws.send(CloseConnection(CloseReason.POLICY_VIOLATION, "too many frames")))
        except Exception:  # full, gone, or not open: nothing more to tell it
            pass
        try:
            self.sock.shutdown(_socket.SHUT_RDWR)
        except OSError:
            pass
        self.connected = False
        self.input_buffer.clear()  # what came after the budget is not handed on
        self.event.set()
        self.gate.cut(self.address)


class Framed(bytes):
    """A WebSocket frame already made, or what is left of one, for Engine.IO's writer to send as it is."""


class _Counted:
    """A wsproto connection whose ``events()`` stops, and marks its reader over, once the budget is spent."""

    def __init__(self, ws: WSConnection, reader: _BoundedReader):
        self._ws, self._reader = ws, reader

    def __getattr__(self, name: str) -> Any:  # any of wsproto's connection, as it is
        return getattr(self._ws, name)

    def events(self) -> Iterator[Event]:
        budget = self._reader.budget
        for event in self._ws.events():
            if not budget.take():
                self._reader.over = True
                return
            yield event
