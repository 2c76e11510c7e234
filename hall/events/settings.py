"""The evening as /admin and the console set it: the programme, a role's PIN (hashed), the players' phones'
help, the calling of the balls; and the calling's moments (a ball said again, the voice tested, the count shown)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hall.events.partie import LotSpec


@dataclass(frozen=True, slots=True)
class ProgrammePartie:
    lots: tuple[LotSpec, ...]
    consolation: str = "Lot de consolation"


@dataclass(frozen=True, slots=True)
class ProgrammeEdited:
    """The programme from partie ``first`` on, as edited on /admin (the config file stays the default)."""

    type: ClassVar[str] = "programme:edited"
    first: int
    parties: tuple[ProgrammePartie, ...]


@dataclass(frozen=True, slots=True)
class PinChanged:
    """A role's PIN changed on /admin: only a salted hash is kept, never the PIN."""

    type: ClassVar[str] = "auth:pin_changed"
    role: str
    salt: str
    digest: str
    iterations: int


@dataclass(frozen=True, slots=True)
class PlayersSet:
    """How much the players' phones help (« Mes cartons », [players]), changed on /admin for every phone at once."""

    type: ClassVar[str] = "players:set"
    help: str
    one_to_go: bool
    phone_call: bool
    max_cards: int


@dataclass(frozen=True, slots=True)
class CallingSet:
    """How the hall calls its balls, changed on /admin (INTERFACE §11): the flash mode, the nicknames (on, and the
    hall's own table: ``(n, text)``), the speaker's pace for some parties (``(partie, seconds)``, 0: none)."""

    type: ClassVar[str] = "calling:set"
    flash: bool
    nicknames_on: bool
    nicknames: tuple[tuple[int, str], ...]
    pace: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True, slots=True)
class BallRepeated:
    """The speaker had the last ball said again (« je n'ai pas entendu »): the projector says and shows it."""

    type: ClassVar[str] = "draw:ball_repeated"
    number: int


@dataclass(frozen=True, slots=True)
class VoiceTested:
    """« Tester la voix » on /admin or the console: the projector says a test phrase and reports if it spoke."""

    type: ClassVar[str] = "speech:tested"


PREFLIGHT_CHECKS = (
    "storage",
    "space",
    "clock",
    "printer",
    "ball_machine",
    "keypad",
    "voice",
    "relays",
    "wifi",
    "certificate",
)  # the pre-flight's checks, in the order a person fixes them (hall/app/preflight.py)
PREFLIGHT_DETAIL_CHARS = 300


@dataclass(frozen=True, slots=True)
class PreflightRun:
    """The pre-flight before the doors open, run on /admin: each check's key, whether it passed (``None``: advice)
    and what was seen, as the admin read it."""

    type: ClassVar[str] = "preflight:run"
    checks: tuple[tuple[str, bool | None, str], ...]


SETUP_SET = "set"  # what the record keeps of a secret answer (a PIN, the Wi-Fi's password): never the secret
SETUP_ANSWER_CHARS = 200


@dataclass(frozen=True, slots=True)
class SetupAnswered:
    """A step of the first start answered on the phone (or a device's step re-run from /admin): each value written
    into the hall's configuration, ``("section.key", value)``, a secret as ``SETUP_SET`` (never the PIN)."""

    type: ClassVar[str] = "setup:answered"
    step: str
    answers: tuple[tuple[str, str], ...]
    again: bool = False  # re-run from /admin after setup closed (a device changed)


@dataclass(frozen=True, slots=True)
class CountShown:
    """The speaker put the ball count on the projector during a break (``shown``), or took it off."""

    type: ClassVar[str] = "stats:count_shown"
    shown: bool
