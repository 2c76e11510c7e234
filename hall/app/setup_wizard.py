"""The first start (INTERFACE §12): a hall with no configuration anywhere is set up from a phone, step by step.

The hall writes its own configuration, ``loto-hall.toml`` in its data folder, through ``hall/record/durable.py``,
each answer checked by the same reader that reads it at start-up (``parse_config``) before a byte is written: an
answer refused changes nothing. ``setup.json`` beside it keeps which steps are done and whether setup has closed
(for good: a hall set up is never offered to the room's phones again). The code that opens ``/setup`` is made at
each start and shown only on the projector; a few wrong codes make a new one, so it cannot be guessed from a phone.
"""

from __future__ import annotations

import json
import secrets
import threading
import tomllib
from pathlib import Path
from typing import Any, Protocol

from hall.config import Config, ConfigError, parse_config
from hall.record.durable import write_file, write_json
from hall.refusal import Rejected

OWN_CONFIG = "loto-hall.toml"  # the configuration the hall owns, in its data folder
PROGRESS = "setup.json"
STEPS = ("salle", "soiree", "imprimante", "codes", "wifi", "boules", "voix", "ecran")
OPTIONAL = frozenset({"boules"})  # a hall may draw by hand: no ball machine
WRONG_CODES = 5  # wrong codes before the projector shows a new one
PIN_LENGTH = 8
DEVICE_STEPS = ("imprimante", "boules", "voix")  # re-run from /admin for a device changed after setup closed
SET = "set"  # a secret answer as the record keeps it (hall/events/settings.py SETUP_SET)


class Hotspot(Protocol):
    """The setup Wi-Fi (hall/app/setup_hotspot.py), closed with setup."""

    ssid: str
    address: str | None

    def close_soon(self) -> None: ...
    def base_url(self, port: int, tls: bool) -> str | None: ...


def _secret(section: str, key: str) -> bool:
    return (section == "auth" and key.endswith("_pin")) or key in ("password", "token", "secret")


def recorded(sections: dict[str, dict[str, Any]], noted: dict[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """What the record keeps of an answer: ``("section.key", value)`` for each value written, a secret as « set »
    (an empty password is no secret: the record says it is empty); ``noted``: what the step saw, not written."""
    lines = [
        (f"{section}.{key}", SET if _secret(section, key) and value else _shown_value(value))
        for section, items in sections.items()
        for key, value in items.items()
    ]
    return tuple(lines + sorted((noted or {}).items()))


def _shown_value(value: object) -> str:
    return value if isinstance(value, str) else _toml_value(value)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string (no control characters)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"valeur non écrite dans la configuration : {value!r}")


def toml_text(raw: dict[str, dict[str, Any]]) -> str:
    """The TOML of a configuration made of tables of plain values (what the wizard writes)."""
    out = ["# Écrit par loto-hall (la première mise en route) : modifiable depuis /admin.\n"]
    for section, items in raw.items():
        out.append(f"\n[{section}]\n")
        out += [f"{key} = {_toml_value(value)}\n" for key, value in items.items()]
    return "".join(out)


def own_config(data_dir: str | Path) -> Path:
    return Path(data_dir) / OWN_CONFIG


def _progress(data_dir: Path) -> dict:
    try:
        found = json.loads((data_dir / PROGRESS).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def setup_closed(data_dir: str | Path) -> bool:
    return _progress(Path(data_dir)).get("closed") is True


class SetupWizard:
    """The wizard's state: the code, the phones let in, the answers written so far, the steps done."""

    def __init__(self, data_dir: str | Path, hotspot: Hotspot | None = None):
        self.data_dir = Path(data_dir)
        self.hotspot = hotspot  # « Loto-Setup », when this start brought it up
        self._lock = threading.Lock()
        self._code = secrets.token_urlsafe(12)
        self._wrong = 0
        self._phones: set[str] = set()
        path = own_config(self.data_dir)
        self.raw: dict[str, dict[str, Any]] = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        progress = _progress(self.data_dir)
        self.done: list[str] = [s for s in progress.get("done", []) if s in STEPS]
        self.closed = progress.get("closed") is True
        self.voice_test: dict | None = None  # the last voice test the phone asked the projector to play

    def ask_voice_test(self, voice: str) -> dict:
        """The projector plays the screen ball in ``voice`` (it asks for ``voice_test`` every few seconds)."""
        with self._lock:
            self._open()
            seq = (self.voice_test or {}).get("seq", 0) + 1
            self.voice_test = {"seq": seq, "voice": voice}
            return self.voice_test

    # ---- the door: the projector's code, then a phone's ticket ------------------------------------------------
    @property
    def code(self) -> str:
        """The code the projector shows (never given to a phone)."""
        return self._code

    def let_in(self, code: object) -> str:
        """A phone's ticket for the wizard, given the projector's code; refused (and counted) otherwise."""
        with self._lock:
            self._open()
            if not isinstance(code, str) or not secrets.compare_digest(code.encode()[:64], self._code.encode()):
                self._wrong += 1
                if self._wrong >= WRONG_CODES:  # the projector shows a new code: guessing starts again
                    self._code, self._wrong = secrets.token_urlsafe(12), 0
                raise Rejected("setup_bad_code")
            ticket = secrets.token_urlsafe(16)
            self._phones.add(ticket)
            return ticket

    def admitted(self, ticket: object) -> None:
        """Refuse a phone that did not come through the projector's code, or any phone once setup has closed."""
        with self._lock:
            self._open()
            if not isinstance(ticket, str) or ticket not in self._phones:
                raise Rejected("setup_no_code")

    def _open(self) -> None:
        if self.closed:
            raise Rejected("setup_closed")

    # ---- the answers ------------------------------------------------------------------------------------------
    def checked(self, sections: dict[str, dict[str, Any]]) -> Config:
        """The configuration the answers would make, read as start-up reads it; refuses (``setup_bad_answer``,
        naming every problem) before anything is written."""
        merged = {name: dict(items) for name, items in self.raw.items()}
        for name, items in sections.items():
            merged.setdefault(name, {}).update(items)
        try:
            return parse_config(merged, OWN_CONFIG)
        except ConfigError as exc:
            raise Rejected("setup_bad_answer", why=" ; ".join(exc.problems)) from None

    def answer(self, step: str, sections: dict[str, dict[str, Any]]) -> None:
        """Write ``step``'s answers into the hall's configuration (checked first), and the step as done."""
        with self._lock:
            self._open()
            self._write(sections)
            if step not in self.done:
                self.done.append(step)
            self._save()

    def rerun(self, step: str, sections: dict[str, dict[str, Any]]) -> None:
        """A device's step again from /admin (after setup closed: a printer or a ball machine changed): its
        answers written into the hall's configuration (checked first), read at the next start."""
        if step not in DEVICE_STEPS:
            raise Rejected("bad_field", field="step")
        with self._lock:
            self._write(sections)

    def _write(self, sections: dict[str, dict[str, Any]]) -> None:
        self.checked(sections)
        for name, items in sections.items():
            self.raw.setdefault(name, {}).update(items)
        mode = 0o600 if "auth" in self.raw else 0o644  # the committee's PINs are in it
        write_file(own_config(self.data_dir), toml_text(self.raw), mode=mode)

    def record_lines(
        self, sections: dict[str, dict[str, Any]], noted: dict[str, str] | None = None
    ) -> tuple[tuple[str, str], ...]:
        """What the record keeps of an answer (``recorded``): never a secret."""
        return recorded(sections, noted)

    def base_url(self, port: int, tls: bool) -> str | None:
        """The hall's address on « Loto-Setup » while it is up (the projector's QR code), else ``None``."""
        return self.hotspot.base_url(port, tls) if self.hotspot is not None else None

    def finish(self) -> None:
        """Close setup for good once every step the hall needs is answered."""
        with self._lock:
            self._open()
            missing = [s for s in STEPS if s not in self.done and s not in OPTIONAL]
            if missing:
                raise Rejected("setup_unfinished", steps=missing)
            self.closed = True
            self._phones.clear()
            self._save()
            if self.hotspot is not None:
                self.hotspot.close_soon()  # « Loto-Setup » goes down: the hall is set up

    def _save(self) -> None:
        write_json(self.data_dir / PROGRESS, {"done": self.done, "closed": self.closed})

    def view(self) -> dict:
        return {"steps": list(STEPS), "done": list(self.done), "closed": self.closed, "answers": self._shown()}

    def _shown(self) -> dict:
        """What the phone may show of the answers so far: never the PINs (shown once, when made)."""
        return {name: dict(items) for name, items in self.raw.items() if name != "auth"}

    def new_pins(self, roles: tuple[str, ...]) -> dict[str, str]:
        """One PIN per role, all different (the hall's own, never typed by a volunteer)."""
        pins: dict[str, str] = {}
        while len(pins) < len(roles):
            pin = f"{secrets.randbelow(10**PIN_LENGTH):0{PIN_LENGTH}d}"
            if pin not in pins.values():
                pins[roles[len(pins)]] = pin
        return pins
