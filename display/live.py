"""What a socket is told on connect and on ``resync``: the snapshot for its role (INTERFACE §5).

The shaping is in ``display/views.py``; here only which snapshot each role gets.
"""
from __future__ import annotations

from display import views
from hall.ports import HallPort
from hall.rights import may

PUBLIC, STAFF, SPEAKER = views.PUBLIC, views.STAFF, views.SPEAKER


def projector_state(hall: HallPort) -> dict:
    """``GET /api/state``: the public state, plus the hall's name and, between parties, the next one."""
    return views.projector_state(hall.snapshot())


def staff_state(hall: HallPort, role: str | None, translate: views.Translate | None = None) -> dict:
    """The snapshot a socket gets: the speaker's superset for the speaker and admin, else the public state."""
    if may(role, "speaker_state"):
        return views.speaker_state(hall.speaker_snapshot(), translate or views.french_detail)
    return projector_state(hall)
