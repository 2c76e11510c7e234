"""What the web app shares, as one typed object: :class:`Services`, built once by ``create_app`` (display/app.py)
before any blueprint is registered, kept under the one key ``app.extensions["loto"]``, read by :func:`services`
(the request's app) or :func:`services_of` (an app in hand: the program's wiring, the tests).

No blueprint sets anything here, so no blueprint depends on another's having been installed first; the per-app
caches (card hints, ball count, archived verdicts, idempotent answers, captains' codes) are members created with
the object. The member types are imported for the type checker only: every module that reads the object imports
this one, and this one imports none of them when the program runs (no import circle).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

if TYPE_CHECKING:
    from display.api_rooms import AnnexWeb
    from display.auth import Auth
    from display.idempotency import Results
    from display.players import Budget, LinkGate
    from display.record import ArchiveVerdicts
    from display.relay_publisher import RelayPublisher
    from display.rooms.hub import RoomsHub
    from display.sockets import LiveSockets
    from display.speech_render import Voice
    from display.stats import ArchiveReader, BallCount
    from display.tls import Certificate
    from display.tournament.code_guard import CodeGuard
    from hall.config import Config
    from hall.minigames import TournamentStore
    from hall.ports import HallPort

KEY = "loto"  # the one key of app.extensions this app uses (tests/test_architecture.py keeps it so)


@dataclass(eq=False, kw_only=True)
class Services:
    """Every service the routes, the socket handlers and the program's wiring share, one app's."""

    hall: HallPort  # the hall itself (the games' break is a hold on it: hall/holds.py)
    config: Config  # the hall's configuration as create_app got it
    auth: Auth  # PINs, sessions, tokens, the login guard, the enrolments
    voice: Voice  # the hall's voice: clips and recordings (display/speech.py)
    documents: dict[str, Callable[..., object]]  # the PDF/XLSX makers the composition root hands in, by name
    tournament: TournamentStore | None  # the OSGA day (None: its pages answer 404)
    tournament_codes: CodeGuard  # the captains' codes' budgets (this process's failures)
    tls: Certificate | None  # [server] tls: the hall's certificate
    staff_tls: Certificate | None  # the staff's HTTPS port's certificate (the wiring sets it once it listens)
    own_hosts: frozenset[str]  # the names that are the hall itself (display/portal.py)
    link_gate: LinkGate  # the door of the phones' links, in front of the web app
    player_budgets: dict[str, Budget]  # « Mes cartons »' budgets: links (the door's), calls, cards
    voice_reports: Budget  # the projector's reports of its voice (POST /api/speech/report), per address
    sockets: LiveSockets  # the hall's live connections
    rooms: RoomsHub  # the mini-game rooms' lobby, events and bots
    relay: RelayPublisher | None  # the queue to the relays (INTERFACE §10), if any
    public_socket_path: str | None  # where the audience's sockets go with relays (None: here)
    archived_draws: ArchiveReader | None = None  # the program's reader of archived journals (None: tonight only)
    record: ArchiveVerdicts  # the archived evenings' verdicts, each journal hashed once
    idempotency: Results  # the answers already given, by (role, Idempotency-Key)
    ball_count: BallCount  # the fairness count's archives read and last answer
    card_hints: tuple[int, dict] | None = None  # (card count, the card-ID fields' examples), per card book
    # the first start's wizard and devices (the program's: hall/app/setup_wizard.py, setup_devices.py; None: a hall
    # set up), and its last search for the ball machine
    setup: tuple[Any, Any] | None = None
    setup_search: Any = None  # the first start's search for the ball machine, the last one
    annex: AnnexWeb | None = None  # the salle annexe's wire: its wrong codes' budget, its links' watch (api_rooms.py)


def install(app: Flask, services: Services) -> Services:
    """Keep ``services`` as ``app``'s (once: a second install is a wiring mistake)."""
    if KEY in app.extensions:
        raise RuntimeError("the app's services are already installed")
    app.extensions[KEY] = services
    return services


def services_of(app: Flask) -> Services:
    """``app``'s services."""
    found = app.extensions[KEY]
    if not isinstance(found, Services):
        raise TypeError(f"app.extensions[{KEY!r}] is not the app's services")
    return found


def services() -> Services:
    """The services of the app serving this request."""
    return services_of(current_app)
