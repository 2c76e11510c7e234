"""How many phones: anonymous Socket.IO connections capped per address and overall, staff never refused.

A phone or a projector connects without a role; a laptop opening 400 sockets must not take the room of
the others, nor the hall's. Staff sockets (speaker, controllers, desk, admin: a valid session or token)
are never counted nor refused, so the speaker's console and the controllers always get through.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass
class SocketCaps:
    """Counts of anonymous sockets by address; ``admit`` says why one more is refused (or ``None``)."""

    per_address: int = 16
    overall: int = 3000
    _by_address: dict[str, int] = field(default_factory=dict)
    _sids: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def public(self) -> int:
        """How many anonymous sockets are open."""
        return len(self._sids)

    def admit(self, sid: str, address: str) -> str | None:
        """Count the anonymous socket ``sid`` from ``address``; returns the refusal code instead when full."""
        with self._lock:
            if sid in self._sids:
                return None
            if len(self._sids) >= self.overall:
                return "too_many_sockets"
            if self._by_address.get(address, 0) >= self.per_address:
                return "too_many_sockets_from_address"
            self._by_address[address] = self._by_address.get(address, 0) + 1
            self._sids[sid] = address
            return None

    def address(self, sid: str) -> str | None:
        """The address an anonymous socket was counted for (``None``: staff, or gone)."""
        return self._sids.get(sid)

    def release(self, sid: str) -> None:
        """Forget ``sid`` (a disconnect); unknown sids (staff, refused) are ignored."""
        with self._lock:
            address = self._sids.pop(sid, None)
            if address is None:
                return
            left = self._by_address.get(address, 1) - 1
            if left > 0:
                self._by_address[address] = left
            else:
                self._by_address.pop(address, None)
