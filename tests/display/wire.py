"""A page's Socket.IO traffic as Chromium carries it (Playwright's WebSocket routes), for the page tests: what the
page sent, the connection cut and given back, a frame from the hall slipped in. The page is read from outside,
as the network sees it: nothing in the shipped scripts is there for the tests."""

from __future__ import annotations

import json

SOCKET_IO = "/socket.io/"


class Wire:
    """Route every Socket.IO connection of ``page`` through Playwright (set up before ``page.goto``)."""

    def __init__(self, page) -> None:
        self.sent: list[str] = []  # every Socket.IO frame the page sent, in order
        self.cut = False
        self.open: list[tuple] = []  # (page side, server side) of each connection still up
        page.route_web_socket(lambda url: SOCKET_IO in url, self._connect)
        page.route(lambda url: SOCKET_IO in url and "transport=polling" in url, self._poll)

    def _connect(self, ws) -> None:
        if self.cut:  # the hall is unreachable: the connection fails at once
            ws.close()
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: (self.sent.append(message), server.send(message)))
        self.open.append((ws, server))

    def _poll(self, route) -> None:  # the client falls back on long polling when the websocket fails
        if self.cut:
            route.abort()
        else:
            route.continue_()

    def emitted(self, event: str) -> int:
        """How many times the page emitted ``event`` (a Socket.IO EVENT frame: 42["event", …])."""
        return sum(1 for frame in self.sent if frame.startswith(f'42["{event}"'))

    def drop(self) -> None:
        """The network goes: every connection closes and new ones fail until ``restore``."""
        self.cut = True
        for ws, server in self.open:
            ws.close()
            server.close()
        self.open = []

    def restore(self) -> None:
        self.cut = False

    def deliver(self, event: str, data) -> None:
        """An event as if the hall had sent it now, on every open connection."""
        for ws, _ in self.open:
            ws.send("42" + json.dumps([event, data]))
