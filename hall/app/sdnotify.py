"""A small sender for systemd's notify protocol (``sd_notify``): READY=1, STATUS=, WATCHDOG=1, STOPPING=1.

The protocol is one datagram of ``KEY=VALUE`` lines on the AF_UNIX socket named by ``$NOTIFY_SOCKET``
(a leading ``@`` means Linux's abstract namespace). systemd keeps it stable, so a dozen lines of
stdlib replace a dependency (systemd's own MIT-0 ``notify-selfcontained-example.py`` does the same).
Without ``$NOTIFY_SOCKET`` (a terminal, a test, another init) every call is a no-op.
"""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass

log = logging.getLogger("loto-hall.app.sdnotify")

ENV_KEYS = ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")


@dataclass
class Notifier:
    """Where to send notifications, and how often systemd wants a watchdog ping (``None`` when not asked)."""

    address: str | None = None
    watchdog_usec: int | None = None

    @classmethod
    def from_env(cls, environ: dict | None = None, *, pid: int | None = None, take: bool = False) -> Notifier:
        """The notifier systemd set up for this process; ``take=True`` also removes the variables.

        Taking them keeps children from inheriting them, and keeps gunicorn's arbiter from sending its
        own premature ``READY=1`` (it does so whenever it sees ``$NOTIFY_SOCKET``).
        """
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        watchdog_usec = None
        raw_usec, raw_pid = env.get("WATCHDOG_USEC"), env.get("WATCHDOG_PID")
        pid = os.getpid() if pid is None else pid
        try:
            # sd_watchdog_enabled(): the ping is meant for us unless WATCHDOG_PID names another process.
            if raw_usec and int(raw_usec) > 0 and (not raw_pid or int(raw_pid) == pid):
                watchdog_usec = int(raw_usec)
        except ValueError:
            log.warning("WATCHDOG_USEC=%r / WATCHDOG_PID=%r illisibles : chien de garde ignoré", raw_usec, raw_pid)
        if take:
            for key in ENV_KEYS:
                env.pop(key, None)
        return cls(address, watchdog_usec)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def watchdog_interval_s(self) -> float | None:
        """How often to ping: half of ``WATCHDOG_USEC``, as systemd's documentation advises."""
        return self.watchdog_usec / 2_000_000 if self.watchdog_usec else None

    def send(self, *lines: str) -> bool:
        """Send one datagram of ``KEY=VALUE`` lines; ``False`` when disabled or when systemd is away."""
        if self.address is None:
            return False
        payload = "\n".join(lines).encode("utf-8")
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        # A socket per message, as sd_notify() does: nothing to share across gunicorn's fork.
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(payload, address)
            return True
        except OSError as exc:
            # systemd gone (shutdown) or a stale path: a notification never crashes the hall.
            log.debug("sd_notify %r vers %s : %s", payload, self.address, exc)
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self, status: str = "") -> bool:
        return self.send("STOPPING=1", *([f"STATUS={_one_line(status)}"] if status else []))


def _one_line(text: str) -> str:
    """A STATUS= value must stay on one line: the protocol splits on newlines."""
    return " ".join(text.split())
