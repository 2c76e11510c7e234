"""A raw WebSocket client for the flood tests: Engine.IO 4 / Socket.IO 5 spoken by hand over a TCP socket bound to
a chosen loopback source address (127.0.0.x), so each test phone or attacker has an address of its own, as on the
hall's Wi-Fi. wsproto (simple-websocket's own) frames what is read; a flood writes prebuilt masked frames as fast as
the kernel takes them. Nothing sleeps to wait: reads with deadlines."""

from __future__ import annotations

import json
import socket
import time

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Message, RejectConnection, Request, TextMessage
from wsproto.extensions import PerMessageDeflate


def frame(text: str) -> bytes:
    """One masked client text frame (short payloads)."""
    data = text.encode()
    assert len(data) < 126
    mask = b"\x12\x34\x56\x78"
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


class Refused(Exception):
    """The handshake was refused: ``status`` and ``body`` say how."""

    def __init__(self, status: int, body: bytes):
        super().__init__(f"{status} {body[:200]!r}")
        self.status, self.body = status, body


class RawSocket:
    """One Socket.IO connection over WebSocket from ``source`` to ``127.0.0.1:port`` on ``path``."""

    def __init__(
        self,
        port: int,
        source: str,
        path: str = "/socket.io/",
        timeout_s: float = 5.0,
        host: str | None = None,
        deflate: bool = False,
        headers: tuple[tuple[str, str], ...] = (),
    ):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout_s, source_address=(source, 0))
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.closed = False
        self.events: list[tuple[str, object]] = []
        self.sock.sendall(
            self.ws.send(
                Request(
                    host=host or f"127.0.0.1:{port}",
                    target=f"{path}?EIO=4&transport=websocket",
                    extensions=[PerMessageDeflate()] if deflate else [],
                    extra_headers=[(k.encode(), v.encode()) for k, v in headers],
                )
            )
        )
        deadline = time.monotonic() + timeout_s
        while True:
            event = self._next_event(deadline)
            if isinstance(event, AcceptConnection):
                self.extensions = list(event.extensions)
                break
            if isinstance(event, RejectConnection):
                raise Refused(event.status_code, self._rejected_body(deadline))
        opened = self.recv_text(deadline - time.monotonic())
        assert opened is not None and opened.startswith("0"), opened
        self.send("40")

    def _rejected_body(self, deadline: float) -> bytes:
        body = b""
        try:
            while time.monotonic() < deadline:
                event = self._next_event(deadline)
                data = getattr(event, "data", None)
                if isinstance(data, (bytes, bytearray)):
                    body += bytes(data)
                if getattr(event, "body_finished", False):
                    break
        except (OSError, EOFError):
            pass
        return body

    def _next_event(self, deadline: float):
        while True:
            for event in self.ws.events():
                return event
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("nothing from the server")
            self.sock.settimeout(left)
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("closed by the server")
            self.ws.receive_data(data)

    def send(self, text: str) -> None:
        self.sock.sendall(self.ws.send(Message(data=text)))

    def emit(self, name: str, data: object = None) -> None:
        self.send("42" + json.dumps([name] if data is None else [name, data]))

    def recv_text(self, timeout_s: float) -> str | None:
        """The next Engine.IO packet (answering pings on the way); ``None`` once the server closed the socket."""
        deadline = time.monotonic() + timeout_s
        try:
            while True:
                event = self._next_event(deadline)
                if isinstance(event, CloseConnection):
                    self.closed = True
                    return None
                if isinstance(event, TextMessage):
                    if event.data == "2":
                        self.send("3")
                        continue
                    return event.data
        except (EOFError, ConnectionError):
            self.closed = True
            return None

    def next_event(self, timeout_s: float) -> tuple[str, object] | None:
        """The next Socket.IO event ``(name, data)``; ``None`` on close. A refused connect is ``("connect_error", …)``."""
        deadline = time.monotonic() + timeout_s
        while True:
            text = self.recv_text(deadline - time.monotonic())
            if text is None:
                return None
            if text.startswith("42"):
                name, *data = json.loads(text[2:])
                self.events.append((name, data[0] if data else None))
                return self.events[-1]
            if text.startswith("44"):
                return "connect_error", json.loads(text[2:])

    def wait_for(self, name: str, timeout_s: float) -> object:
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            got = self.next_event(left)
            if got is None:
                raise EOFError(f"closed before {name}")
            if got[0] == name:
                return got[1]
        raise TimeoutError(f"no {name} within {timeout_s} s")

    def flood(self, text: str, seconds: float) -> tuple[int, bool]:
        """Write ``text`` frames as fast as the kernel takes them for ``seconds``, reading nothing; returns (frames
        written, whether the server cut the connection)."""
        chunk = frame(text) * 200
        written = 0
        deadline = time.monotonic() + seconds
        self.sock.settimeout(0.2)
        while time.monotonic() < deadline:
            try:
                self.sock.sendall(chunk)
                written += 200
            except TimeoutError:
                continue  # the server reads nothing more for now: try again
            except OSError:
                return written, True
        return written, self.cut_within(0.1)

    def cut_within(self, timeout_s: float) -> bool:
        """Whether the server closed the connection within ``timeout_s`` (what it sent meanwhile is dropped)."""
        deadline = time.monotonic() + timeout_s
        try:
            while (left := deadline - time.monotonic()) > 0:
                self.sock.settimeout(left)
                if not self.sock.recv(65536):
                    return True
        except TimeoutError:
            return False
        except OSError:
            return True
        return False

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
