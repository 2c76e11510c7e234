"""The words the core and the relays share about the cartons a phone follows (``cartons.py``, ``relay_cartons.py``):
a key's room, and the bounds on the keys a socket or a relay names (read before any work)."""

from __future__ import annotations

from hall import MAX_FOLLOW_KEY

KEYS_PER_SOCKET = 64  # cartons one socket may follow ([players] max_cards is 24 by default, at most 64)
KEYS_PER_RELAY_ASK = 500  # keys a relay asks the core for at once
ROOM = "f:"  # a key's room: the sockets following that carton


def room_of(key: str) -> str:
    return ROOM + key


def keys_of(data: object, limit: int) -> list[str] | None:
    """The follow keys a socket or a relay names, bounded before any work; ``None`` when it is no list of keys."""
    raw = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(raw, list) or len(raw) > limit:
        return None
    keys = [k for k in raw if isinstance(k, str) and 0 < len(k) <= MAX_FOLLOW_KEY and k.isascii()]
    return keys if len(keys) == len(raw) else None
