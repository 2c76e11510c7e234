"""What a socket is told on connect and on ``resync``: the snapshot for its role (INTERFACE §5).

The shaping is in ``display/views/``; here only which snapshot each role gets. The public state is shaped once
per change of the hall and kept (``GET /api/state``, every phone's connect and ``resync``, each relay's fetch), and
so are its two encodings, each made the first time it is asked after a change: the HTTP body (``jsonify``'s bytes)
and the socket's ``state`` event (its Socket.IO packet and WebSocket frame, ``display/broadcast.py``). A crowd asking
it — 128 sockets writing ``resync`` within their frame budget, phones polling ``/api/state`` — costs a snapshot, a
comparison and a write each: it once cost a JSON encoding each, and took ``/api/state`` p99 to ~500 ms.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TypeVar, cast

from display import views
from hall.ports import HallPort
from hall.rights import may

PUBLIC, STAFF, SPEAKER = views.PUBLIC, views.STAFF, views.SPEAKER
T = TypeVar("T")

_shaped: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # hall → (what the state depends on, PublicState)
_lock = threading.Lock()
_setup: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # hall → whether its first start is still open


class PublicState:
    """The public state at one change of the hall, and its encodings, each made once (shared: never change them)."""

    __slots__ = ("state", "_encoded", "_lock")

    def __init__(self, state: dict):
        self.state = state
        self._encoded: dict[str, object] = {}
        self._lock = threading.Lock()

    def encoded(self, kind: str, make: Callable[[dict], T]) -> T:
        """``make(state)`` the first time ``kind`` is asked for this state, the same object after."""
        found = self._encoded.get(kind)
        if found is None:
            with self._lock:
                found = self._encoded.get(kind)
                if found is None:
                    found = self._encoded[kind] = make(self.state)
        return cast(T, found)


def watch_setup(hall: HallPort, is_open: Callable[[], bool]) -> None:
    """``hall``'s state says ``"setup": is_open()`` (INTERFACE §12: the first start, on a phone)."""
    _setup[hall] = is_open


def public_state(hall: HallPort) -> PublicState:
    """The public state (``GET /api/state``: plus the hall's name and, between parties, the next one, and whether
    the hall is still in its first start), shaped once per change."""
    snap = hall.snapshot()
    setup = hall in _setup and _setup[hall]()
    key = (snap.seq, snap.parties_played, snap.hall_name, snap.prices, snap.wifi, snap.players, setup, snap.rooms)
    kept = _shaped.get(hall)
    if kept is not None and kept[0] == key:
        return kept[1]
    shaped = PublicState({**views.projector_state(snap), "setup": setup})
    with _lock:
        _shaped[hall] = (key, shaped)
    return shaped


def projector_state(hall: HallPort) -> dict:
    """``GET /api/state``'s document (shared: never change it, copy it)."""
    return public_state(hall).state


def staff_state(hall: HallPort, role: str | None, translate: views.Translate | None = None) -> dict:
    """The snapshot a socket gets: the speaker's superset for the speaker and admin, else the public state."""
    if may(role, "speaker_state"):
        return views.speaker_state(hall.speaker_snapshot(), translate or views.french_detail)
    return projector_state(hall)
