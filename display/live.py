"""What a socket is told on connect and on ``resync``: the snapshot for its role (INTERFACE §5).

The shaping is in ``display/views/``; here only which snapshot each role gets. The public state is shaped once
per change of the hall and kept (``GET /api/state``, every phone's connect and ``resync``, each relay's fetch): a
crowd asking it costs a snapshot and a comparison each.
"""

from __future__ import annotations

import threading
import weakref

from display import views
from hall.ports import HallPort
from hall.rights import may

PUBLIC, STAFF, SPEAKER = views.PUBLIC, views.STAFF, views.SPEAKER

_shaped: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # hall → (what the state depends on, the state)
_lock = threading.Lock()


def projector_state(hall: HallPort) -> dict:
    """``GET /api/state``: the public state, plus the hall's name and, between parties, the next one (shared: never
    change it, copy it)."""
    snap = hall.snapshot()
    key = (snap.seq, snap.parties_played, snap.hall_name, snap.prices, snap.wifi, snap.players)
    kept = _shaped.get(hall)
    if kept is not None and kept[0] == key:
        return kept[1]
    state = views.projector_state(snap)
    with _lock:
        _shaped[hall] = (key, state)
    return state


def staff_state(hall: HallPort, role: str | None, translate: views.Translate | None = None) -> dict:
    """The snapshot a socket gets: the speaker's superset for the speaker and admin, else the public state."""
    if may(role, "speaker_state"):
        return views.speaker_state(hall.speaker_snapshot(), translate or views.french_detail)
    return projector_state(hall)
