"""The « Loto-Setup » Wi-Fi of the first start (INTERFACE §12): a hall in setup mode with no address on a wired
network brings up an open access point through NetworkManager, so the phone that scans the projector's QR code can
reach ``/setup`` with nothing else in the hall; it goes down once setup has closed (the phones' own Wi-Fi, WPA2, is
``loto-hall network hotspot``'s, hall/app/hotspot.py).

Open on purpose: the projector's code (shown only in the room) is what keeps strangers out of ``/setup``, not a
password nobody has yet. The profile is made with ``nmcli connection add`` (no secret on its command line), never
saved for the next boot (``connection.autoconnect no``) and deleted when setup closes. The service user may run
these nmcli calls through polkit (``systemd/50-loto-hall.rules``). Without NetworkManager, or when nmcli refuses,
the hall says so in its log and setup goes on over the LAN: nothing here stops the hall from starting.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections.abc import Callable, Sequence

from hall.config import NetworkSection
from hall.net import address

log = logging.getLogger("loto-hall.setup")

SSID = "Loto-Setup"
PROFILE = "loto-setup"
NMCLI_TIMEOUT_S = 30.0
CLOSE_AFTER_S = 5.0  # the phone reads setup's last answer (« vers /admin ») before its Wi-Fi goes away

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess]


def _run(argv: Sequence[str]) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=NMCLI_TIMEOUT_S, check=False)


def add_command(net: NetworkSection) -> tuple[str, ...]:
    """The open access point's profile at ``[network] address`` on ``[network] interface`` (shared mode: the Pi
    gives the phones their addresses), kept for this start only."""
    return (
        "nmcli", "connection", "add", "type", "wifi", "ifname", net.interface, "con-name", PROFILE,
        "autoconnect", "no", "ssid", SSID, "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
        "ipv4.method", "shared", "ipv4.addresses", f"{net.address}/24", "ipv6.method", "disabled",
    )  # fmt: skip


class SetupHotspot:
    """The setup Wi-Fi of one start: ``open()`` once in setup mode, ``close()`` when setup closes."""

    def __init__(
        self,
        net: NetworkSection,
        *,
        runner: Runner = _run,
        lan: Callable[[], str | None] | None = None,
        close_after_s: float = CLOSE_AFTER_S,
    ):
        self.net = net
        self.ssid = SSID
        self._run = runner
        self._lan = lan or (lambda: address.lan_address())  # looked up at each call: the machine's address now
        self.close_after_s = close_after_s
        self.address: str | None = None  # the Pi's address on « Loto-Setup » while it is up
        self.problem = ""  # why it is not up (no nmcli, nmcli's own words), for the log and the projector
        self._lock = threading.Lock()

    def _nmcli(self, *argv: str) -> bool:
        try:
            done = self._run(argv)
        except (OSError, subprocess.SubprocessError) as exc:
            self.problem = f"{argv[0]} : {exc}"
            return False
        if done.returncode != 0:
            self.problem = (done.stderr or done.stdout or f"code {done.returncode}").strip()[:300]
            return False
        return True

    def open(self) -> str | None:
        """Bring « Loto-Setup » up unless the hall has an address on a wired network; its address, or ``None``."""
        with self._lock:
            if self.address is not None:
                return self.address
            wired = self._lan()
            if wired is not None:
                log.info("mise en route : la salle est sur le réseau (%s), pas de Wi-Fi « %s »", wired, SSID)
                return None
            self._nmcli("nmcli", "connection", "delete", PROFILE)  # one left by a start cut short: made again
            self.problem = ""
            if self._nmcli(*add_command(self.net)) and self._nmcli("nmcli", "connection", "up", PROFILE):
                self.address = self.net.address
                address.forget()  # the QR codes read the addresses again
                log.info("mise en route : Wi-Fi « %s » ouvert, la salle à %s", SSID, self.address)
                return self.address
            log.warning("mise en route : le Wi-Fi « %s » n'a pas pu s'ouvrir (%s)", SSID, self.problem)
            self._nmcli("nmcli", "connection", "delete", PROFILE)
            return None

    def close(self) -> None:
        """Take « Loto-Setup » down and forget it (nothing of it is left for the next boot)."""
        with self._lock:
            if self.address is None:
                return
            self._nmcli("nmcli", "connection", "down", PROFILE)
            self._nmcli("nmcli", "connection", "delete", PROFILE)
            self.address = None
            address.forget()
            log.info("mise en route terminée : Wi-Fi « %s » fermé", SSID)

    def close_soon(self) -> None:
        """``close()`` in ``close_after_s``, in a thread: the phone's last answer goes out first."""
        if self.address is None:
            return
        timer = threading.Timer(self.close_after_s, self.close)
        timer.daemon = True
        timer.start()

    def base_url(self, port: int, tls: bool) -> str | None:
        """The hall's address on « Loto-Setup » for the projector's QR code, or ``None`` while it is not up."""
        if self.address is None:
            return None
        scheme = "https" if tls else "http"
        default = (scheme, port) in (("http", 80), ("https", 443))
        return f"{scheme}://{self.address}{'' if default else f':{port}'}/"
