"""The watchdog supervisor: pings systemd only while the hall really works, and says how it is in words.

systemd restarts the service when ``WATCHDOG=1`` stops arriving for ``WatchdogSec``. A dumb timer
thread would keep pinging while the hall is wedged, so each ping is earned: every ``Service`` (device
readers, the print queue) answers ``alive()``, and the hall's one lock can be taken within a bound (a
thread stuck inside a command, a deadlock, a disk that hangs an fsync). ``STATUS=`` carries a
sentence a person reads in ``systemctl status loto-hall``: « machine à boules déconnectée ».
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hall.app.sdnotify import Notifier
from hall.ports import HallPort
from hall.snapshots import DeviceStatus, HallSnapshot

log = logging.getLogger("loto-hall.app.supervisor")

STATUS_ONLY_INTERVAL_S = 5.0  # without a watchdog, STATUS= is still refreshed this often

# device key → (French name, feminine?) so that the sentence agrees: « imprimante déconnectée ».
DEVICE_NAMES: dict[str, tuple[str, bool]] = {
    "ball_machine": ("machine à boules", True),
    "printer": ("imprimante", True),
    "keypad": ("clavier", False),
    "scanner": ("lecteur de codes", False),
    "relays": ("relais des téléphones", False),
}
_STATE_WORDS = {"absent": ("déconnecté", "déconnectée"), "degraded": ("en difficulté", "en difficulté")}


@dataclass(frozen=True, slots=True)
class Health:
    """One check's outcome: whether the watchdog may be pinged, and the sentence for ``STATUS=``."""

    ok: bool
    status: str
    problems: tuple[str, ...] = ()


def device_sentence(entry: dict) -> str | None:
    """A device's trouble in French (« machine à boules déconnectée »), or ``None`` when it is fine."""
    state = entry.get("status", "ok")
    if state == "ok":
        return None
    key = entry.get("device", "?")
    name, feminine = DEVICE_NAMES.get(key, (key.replace("_", " "), False))
    words = _STATE_WORDS.get(state)
    sentence = f"{name} {words[1] if feminine else words[0]}" if words else f"{name} : {state}"
    # STATUS= keeps the short form, with what to fix only when the device is in trouble ("printer_no_paper"),
    # not for a mere unplug: every device publishes a code (the consoles word it), which STATUS= names as it is.
    code = " ".join(filter(None, (entry.get("code"), entry.get("reason"))))  # printer_waiting printer_no_paper
    return f"{sentence} ({code})" if code and state == "degraded" else sentence


def hall_sentence(snap: HallSnapshot, devices: Iterable[DeviceStatus]) -> str:
    """Where the evening is and which devices are in trouble, on one line."""
    parts = []
    partie = snap.running
    if partie is not None:
        count = len(partie.draws)
        parts.append(f"partie {partie.number}, {count} numéro{'s' if count > 1 else ''} tiré{'s' if count > 1 else ''}")
    else:
        parts.append("en attente de partie")
    troubles = [
        s
        for s in (
            device_sentence(
                {"device": d.device, "status": d.state, "code": d.code, "reason": str(d.params.get("reason", ""))}
            )
            for d in devices
        )
        if s
    ]
    parts.append(" · ".join(troubles) if troubles else "appareils OK")
    return " — ".join(parts)


class Supervisor:
    """A thread that checks the services and the hall lock, then pings the watchdog and updates STATUS=."""

    def __init__(
        self,
        hall: HallPort,
        services: Sequence,
        notifier: Notifier,
        *,
        interval_s: float | None = None,
        lock_timeout_s: float | None = None,
    ):
        self.hall = hall
        self.services = services  # read at every check: services added later are watched too
        self.notifier = notifier
        self.interval_s = interval_s or notifier.watchdog_interval_s or STATUS_ONLY_INTERVAL_S
        self.pings = notifier.watchdog_usec is not None
        # Two missed checks in a row exceed WatchdogSec (pings come every WatchdogSec/2), so a
        # command that holds the lock a few seconds (a big card import) costs one ping, not a restart.
        self.lock_timeout_s = lock_timeout_s if lock_timeout_s is not None else self.interval_s / 2
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()
        self._last_status: str | None = None
        self._last_ok = True

    # ---- one check ---------------------------------------------------------------------------
    def check(self) -> Health:
        """Ask every service, take the hall lock within the bound, and describe the hall."""
        problems = [f"{name} arrêté" for name in _dead(self.services)]
        snap = self.hall.health(self.lock_timeout_s)
        if snap is None:
            problems.append(f"salle bloquée (verrou tenu plus de {self.lock_timeout_s:g} s)")
            return Health(False, "BLOQUÉ : " + " · ".join(problems), tuple(problems))
        try:
            sentence = hall_sentence(snap, self.hall.devices())
        except Exception as exc:  # a bug in a sentence must not stop the pings of a working hall
            log.exception("état illisible pour STATUS=")
            sentence = f"état illisible ({exc.__class__.__name__})"
        if problems:
            return Health(False, "BLOQUÉ : " + " · ".join(problems) + " — " + sentence, tuple(problems))
        return Health(True, sentence)

    def tick(self) -> Health:
        """One round: check, ping if healthy, send STATUS= when it changed; returns the health."""
        health = self.check()
        if health.ok and self.pings:
            self.notifier.watchdog()
        if health.ok != self._last_ok:
            (log.info if health.ok else log.error)("chien de garde : %s", health.status)
            self._last_ok = health.ok
        if health.status != self._last_status:
            self.notifier.status(health.status)
            self._last_status = health.status
        return health

    # ---- the thread --------------------------------------------------------------------------
    def start(self) -> None:
        """Start the thread (once); never after ``stop()``, which may come first from another thread."""
        with self._guard:
            if self._thread is not None or self._stop.is_set():
                return
            thread = threading.Thread(target=self._run, name="loto-hall-supervisor", daemon=True)
            thread.start()
            self._thread = thread

    def _run(self) -> None:
        while True:
            try:
                self.tick()
            except Exception:  # never let the supervisor die silently: no pings means a restart
                log.exception("chien de garde : vérification en échec")
            if self._stop.wait(self.interval_s):
                return

    def stop(self, timeout_s: float = 5.0) -> None:
        with self._guard:
            self._stop.set()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout_s)


def _dead(services: Iterable) -> list[str]:
    dead = []
    for service in list(services):
        name = getattr(service, "name", service.__class__.__name__)
        try:
            if not service.alive():
                dead.append(name)
        except Exception:
            log.exception("%s : alive() a échoué", name)
            dead.append(name)
    return dead
