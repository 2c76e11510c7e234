"""A relay's side of « Mes cartons » told by the hall (``display/cartons.py``): its phones follow their
cartons by key, and it hands them the standings the core computed, never one of its own.

- ``follow {"keys"}`` from a phone: its socket joins each key's room (``f:{key}``) and gets ``cartons`` with the
  standings the relay already holds; the keys it has not heard of are asked of the core in one batch
  (``POST /api/players/follow``, by a task of its own), and their standings go to those rooms when they come. A
  relay cannot tell a key from a stranger's guess and need not: the core names nothing for a key it never handed.
- ``cartons`` from the queue (one message per record): each standing kept (the newest by ``at``) and handed to the
  sockets in its key's room here, if any.
- a core that started again (its beat counts from 1 again) has forgotten which cartons are followed: every key a
  socket here follows is asked again, at once.
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.error
import urllib.request
from collections import OrderedDict
from typing import TYPE_CHECKING

from display.carton_keys import KEYS_PER_RELAY_ASK, KEYS_PER_SOCKET, ROOM, keys_of, room_of

if TYPE_CHECKING:
    import socketio

log = logging.getLogger("loto-hall.relay")

KEPT = 50_000  # standings a relay keeps (the newest told; a carton never followed here is told again by the core)
ASK_TIMEOUT_S = 3.0


class RelayCartons:
    """The standings a relay holds, and its asks to the core."""

    def __init__(self, sio: socketio.Server, core_url: str):
        self.sio, self.core_url = sio, core_url.rstrip("/")
        self.kept: OrderedDict[str, dict] = OrderedDict()  # key → its newest standing
        self._asking: set[str] = set()  # keys waiting for the core
        self._wanted = threading.Event()
        self._lock = threading.Lock()  # gevent's, once patched
        self.asks = 0
        self._beat_n = 0
        sio.on("follow", self._follow)
        sio.start_background_task(self._ask_forever)

    def _follow(self, sid: str, data: object = None) -> None:
        keys = keys_of(data, KEYS_PER_SOCKET)
        if keys is None:
            return
        for key in keys:
            self.sio.enter_room(sid, room_of(key))
        items = [self.kept[k] for k in keys if k in self.kept]
        if items:
            self.sio.emit("cartons", {"at": max(i["at"] for i in items), "items": items, "unknown": []}, to=sid)
        self.ask([k for k in keys if k not in self.kept])

    def ask(self, keys: list[str]) -> None:
        """Ask the core for these keys' standings (by the asking task, in batches)."""
        if not keys:
            return
        with self._lock:
            self._asking.update(keys)
        self._wanted.set()

    def news(self, message: dict) -> None:
        """A ``cartons`` message of the queue: each standing kept and handed to its room here."""
        items = message.get("items")
        if not isinstance(items, list):
            return
        rooms = self.sio.manager.rooms.get("/", {})
        for item in items:
            if not (
                isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict)
            ):
                continue
            key, payload = item
            if self._keep(key, payload) and rooms.get(room_of(key)):
                self.sio.emit("carton", payload, to=room_of(key))

    def beat(self, n: object) -> None:
        """The core's beat number: counting from 1 again, the core started again and forgot what is followed."""
        if isinstance(n, int):
            if n < self._beat_n:
                self.ask(self.followed_here())
            self._beat_n = n

    def followed_here(self) -> list[str]:
        rooms = self.sio.manager.rooms.get("/", {})
        return [
            room[len(ROOM) :] for room, members in list(rooms.items()) if room and room.startswith(ROOM) and members
        ]

    def _keep(self, key: str, payload: dict) -> bool:
        """Keep ``payload`` unless a newer standing of ``key`` is kept; whether it was."""
        at = payload.get("at")
        if not isinstance(at, int):
            return False
        with self._lock:
            known = self.kept.get(key)
            if known is not None and known["at"] > at:
                return False
            self.kept[key] = payload
            self.kept.move_to_end(key)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return True

    # ---- the asking task
    def _ask_forever(self) -> None:
        while True:
            self._wanted.wait()
            self._wanted.clear()
            while True:
                with self._lock:
                    batch = sorted(self._asking)[:KEYS_PER_RELAY_ASK]
                    self._asking.difference_update(batch)
                if not batch:
                    break
                try:
                    self._ask_core(batch)
                except Exception:  # the core restarting: those keys are asked at its next beat from 1
                    log.info("relais : cartons suivis non obtenus du cœur (%s clés)", len(batch))
                    self.sio.sleep(0.5)

    def _ask_core(self, keys: list[str]) -> None:
        body = json.dumps({"keys": keys}).encode()
        request = urllib.request.Request(
            self.core_url + "/api/players/follow",
            data=body,
            headers={"Content-Type": "application/json", "Accept": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=ASK_TIMEOUT_S) as resp:
                answer = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            if exc.code == 429:
                with self._lock:
                    self._asking.update(keys)  # asked again after its wait
                self.sio.sleep(1.0)
                self._wanted.set()
                return
            raise
        self.asks += 1
        self.news({"items": [[i["key"], i["carton"]] for i in answer.get("items", []) if isinstance(i, dict)]})
