"""Which role a PIN opens: the config's PINs (or generated ones) and the PINs changed on /admin.

A PIN changed on /admin is journalled as a PBKDF2 hash (``hall/loto/programme.py``), which costs ~0.1 s of processor
on a Pi per comparison. Checking every login that way let one client looping logins hold the event loop
(measured: ``GET /api/state`` went from 2 ms to 176–648 ms). So each PIN is compared through a fast keyed check — an
HMAC of the web secret, like the sessions' PIN fingerprints — made when the PIN is set (config, or the /admin
change that this process journals) and kept in ``pin_checks.json`` (mode 0600) with the hash it stands for.
PBKDF2 only runs for a role whose check is missing (the file lost): in gevent's pool of real threads
(``offload``, set by the composition root), once per attempt for each such role, until its first success
restores the check. Every role is compared on every attempt (no early exit), so timing names none.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TypeVar

from display.sessions import read_json, write_json
from hall import Offload, pin_matches
from hall.events import PinChanged
from hall.rights import ROLES

log = logging.getLogger("loto-hall.display")

PINS_FILE = "pins.json"
CHECKS_FILE = "pin_checks.json"
MAX_PIN_CHARS = 64  # longer is refused before any work
T = TypeVar("T")


def _inline(fn: Callable[[], T]) -> T:
    return fn()


def load_pins(config, data_dir: Path) -> dict[str, str]:
    """role → PIN: the config's ``[auth]`` PINs; an empty one is generated once and kept in ``pins.json``."""
    path = data_dir / PINS_FILE
    try:
        generated = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        generated = {}
    pins, made = {}, False
    for role in ROLES:
        pin = str(getattr(config.auth, f"{role}_pin", "") or "").strip()
        if not pin:
            pin = str(generated.get(role) or "")
            if not pin:
                pin, made = f"{secrets.randbelow(10**6):06d}", True
                generated[role] = pin
            log.warning("PIN %s non configuré : PIN généré, affiché sur /admin (fichier %s)", role, path)
        pins[role] = pin
    if made:
        write_json(path, generated)
    seen: dict[str, str] = {}
    for role, pin in pins.items():
        if pin in seen:
            log.warning("PIN partagé par %s et %s : il ouvre le rôle %s seulement", seen[pin], role, seen[pin])
        seen.setdefault(pin, role)
    return pins


class PinBook:
    """role → PIN, compared in constant time through keyed checks; ``offload`` runs the rare PBKDF2."""

    def __init__(
        self,
        pins: dict[str, str],
        secret: bytes,
        data_dir: Path,
        changed: Callable[[], Mapping[str, PinChanged]] | None = None,
    ):
        self.pins = pins
        self.changed = changed or (lambda: {})  # role → PinChanged: PINs changed on /admin (journalled hashes)
        self.offload: Offload = _inline
        self._secret = secret
        self._lock = threading.Lock()
        self._path = Path(data_dir) / CHECKS_FILE
        self._configured = {role: self._check(role, pin) for role, pin in pins.items()}
        raw = read_json(self._path)
        self._changed_checks: dict[str, dict[str, str]] = {
            role: entry
            for role, entry in raw.items()
            if role in ROLES
            and isinstance(entry, dict)
            and isinstance(entry.get("of"), str)
            and isinstance(entry.get("check"), str)
        }

    def _check(self, role: str, pin: str) -> str:
        return hmac.new(self._secret, f"pin:{role}:{pin}".encode(), hashlib.sha256).hexdigest()

    def state(self, role: str) -> str:
        """What ``role``'s PIN is now, as a value that changes with it (never shown: known consoles mark it)."""
        changed = self.changed().get(role)
        return f"h:{changed.digest}" if changed else f"c:{self.pins[role]}"

    def remember(self, role: str, pin: str, changed: PinChanged) -> None:
        """Keep the fast check of ``role``'s new ``pin`` (just journalled as ``changed``)."""
        with self._lock:
            self._changed_checks[role] = {"of": changed.digest, "check": self._check(role, pin)}
            try:
                write_json(self._path, self._changed_checks)
            except OSError as exc:
                log.error("contrôle rapide du PIN non enregistré (%s) : %s", self._path, exc)

    def role_for(self, pin: object, roles: Collection[str] = ROLES) -> str | None:
        """The first role (in ``ROLES`` order) among ``roles`` that ``pin`` opens, or ``None``."""
        if not isinstance(pin, str) or not 0 < len(pin) <= MAX_PIN_CHARS:
            return None
        changed = self.changed()
        opened, slow = set(), []
        for role in ROLES:
            if role not in roles:
                continue
            if role in changed:
                entry = self._changed_checks.get(role)
                if entry is None or not hmac.compare_digest(entry["of"], changed[role].digest):
                    slow.append(role)
                    continue
                expected = entry["check"]
            else:
                expected = self._configured[role]
            if hmac.compare_digest(self._check(role, pin), expected):
                opened.add(role)
        if slow:
            matched = self.offload(lambda: [role for role in slow if pin_matches(changed[role], pin)])
            for role in matched:
                self.remember(role, pin, changed[role])
            opened.update(matched)
        return next((role for role in ROLES if role in opened), None)
