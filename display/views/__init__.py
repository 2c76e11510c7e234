"""Every JSON a client sees (INTERFACE §4–§5), for every audience and every socket payload, from the hall's
immutable snapshots and command results. Pure functions: called outside the hall's lock.

One face, three rooms: ``state`` (what a screen is given: the public state, the speaker's console, a carton, a
device), ``answers`` (the answers to the staff's commands: a verdict, an award, a redemption, a ball drawn) and
``socket_events`` (one event per journal record per room, the ticks, the speaker room's notices).
"""

from __future__ import annotations

from display.views.answers import award, drawn, redemption, verdict
from display.views.socket_events import NOTICE_NAMES, SHAPES, TICKS, event, notice
from display.views.state import (
    PUBLIC,
    SPEAKER,
    STAFF,
    Translate,
    card,
    carton,
    console,
    device,
    french_detail,
    lines,
    lot_ref,
    lot_terms,
    lots,
    next_partie,
    players,
    projector_state,
    proposal,
    public_card,
    public_state,
    speaker_state,
    tie_break,
)

__all__ = [
    "NOTICE_NAMES",
    "PUBLIC",
    "SHAPES",
    "SPEAKER",
    "STAFF",
    "TICKS",
    "Translate",
    "award",
    "card",
    "carton",
    "console",
    "device",
    "drawn",
    "event",
    "french_detail",
    "lines",
    "lot_ref",
    "lot_terms",
    "lots",
    "next_partie",
    "notice",
    "players",
    "projector_state",
    "proposal",
    "public_card",
    "public_state",
    "redemption",
    "speaker_state",
    "tie_break",
    "verdict",
]
