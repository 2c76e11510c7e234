"""The hall's configuration, section by section: frozen typed dataclasses, their defaults, their choices and the
check each checked key passes (hall/config.py reads the TOML into them and reports every problem at once).

Units are in the names (``debounce_s``). Hardware sections are optional: without one, that device is simply absent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hall.events import LotSpec
from hall.loto.lots import DEFAULT_LOTS
from hall.loto.programme import PIN_DIGITS, is_pin
from hall.net import address
from hall.net import values as NV


def _choices(*values: str, default: str) -> str:
    return field(default=default, metadata={"choices": values})


def _checked(default: str, check: Callable[[str], str | None]) -> str:
    """A field whose value ``check`` accepts (None) or refuses (the reason)."""
    return field(default=default, metadata={"check": check})


@dataclass(frozen=True, slots=True)
class HallSection:
    name: str = "Loto"
    data_dir: str = "./data"
    language: str = _choices("fr", "en", default="fr")
    timezone: str = "Europe/Paris"
    prices: str = ""  # shown on the projector between parties, e.g. "1 carton 3 € · 6 cartons 15 €"
    logo: str = ""  # the association's logo (PNG or JPEG path), printed on each carton
    evening: str = ""  # the evening's name, printed on each carton (e.g. "Grand loto du 14 février")
    hearing_loop: bool = False  # the hall has a hearing loop (boucle magnétique): its pictogram on the projector


@dataclass(frozen=True, slots=True)
class ServerSection:
    host: str = "0.0.0.0"
    port: int = 8080
    tls: bool = False  # serve HTTPS (phone cameras need it); certificate made in data_dir on first start
    local_port: int = 8081  # with tls: plain HTTP on 127.0.0.1 only, for the projector kiosk on the Pi (0: none)
    # without tls: the staff's pages and logins over HTTPS on this port with the hall's own certificate, the phones
    # staying on plain HTTP (docs/install-pi.md « Les pages de l'équipe en HTTPS »); 0: none (PINs in clear)
    staff_port: int = 8443
    threads: int = 400  # only with LOTO_HALL_SERVER=gthread (debugging): one thread per connection
    worker_connections: int = 4000  # gevent: connections served at once (each a greenlet, not a thread)
    header_timeout_s: float = 5.0  # a request's headers (and an idle keep-alive) must arrive within this
    max_sockets_per_address: int = 16  # anonymous Socket.IO connections from one address (phones, projectors)
    max_public_sockets: int = 3000  # anonymous Socket.IO connections overall; staff are never refused
    max_connections_per_address: int = 256  # open TCP connections from one address (gevent server)
    staff_idle_h: float = 12.0  # a staff session (cookie or token) ends after this long unused
    # More phones than one process (INTERFACE §10, docs/install-pi.md): with a queue and workers, nginx takes
    # host:port, the core listens on 127.0.0.1:core_port, the workers carrying the phones' sockets on socket_port.
    message_queue: str = _checked("", NV.queue_problem)  # "redis://127.0.0.1:6379/0"; empty: one process
    socket_workers: int = 0  # processes carrying the public sockets on this machine (with message_queue)
    core_port: int = 8089  # the core behind the front (127.0.0.1 only)
    socket_port: int = 8090  # the first relay's port; relay i listens on socket_port + i
    socket_host: str = _checked("127.0.0.1", NV.listen_problem)  # a laptop's workers: its address on the hall's network
    socket_peers: list = field(
        default_factory=list, metadata={"check": NV.peer_problem}
    )  # "10.42.0.20:8090": a laptop's workers
    core_url: str = _checked("", NV.core_url_problem)  # a laptop's workers: the Pi's hall, "http://10.42.0.1:8080"
    ping_s: float = (
        2.0  # a phone hears the hall (or its relay) this often, a beat if nothing else: « hors ligne » after 4.5 s
    )


@dataclass(frozen=True, slots=True)
class CardsSection:
    columns: str = _choices("1-9", "1-10", default="1-9")
    every_column: bool = False  # "série de 6": 1–3 numbers in every column (RULES L3)


@dataclass(frozen=True, slots=True)
class RulesSection:
    last_number: bool = True
    ties: str = _choices(
        "draw_lowest", "draw_highest", "share", "physical_lowest", "physical_highest", default="draw_lowest"
    )  # physical_*: tokens drawn in the hall, the speaker types them
    false_claim: str = _choices("resume", "cancel_card", default="resume")


@dataclass(frozen=True, slots=True)
class PartieSpec:
    lots: tuple[LotSpec, ...]
    consolation: str = "Lot de consolation"


def _pin_problem(value: str) -> str | None:
    """Empty (a PIN generated once, shown on /admin) or 6 to 12 digits: a shorter PIN is guessed."""
    if value.strip() == "" or is_pin(value.strip()):
        return None
    low, high = PIN_DIGITS
    return f"un code PIN a de {low} à {high} chiffres (0 à 9), ou vide pour un PIN généré"


def _pin() -> str:
    return _checked("", _pin_problem)


@dataclass(frozen=True, slots=True)
class AuthSection:
    speaker_pin: str = _pin()
    controller_pin: str = _pin()
    desk_pin: str = _pin()
    admin_pin: str = _pin()
    buvette_pin: str = _pin()  # the buvette's till /buvette (RULES L25)


@dataclass(frozen=True, slots=True)
class BallMachineSection:
    port: str
    baudrate: int = 9600
    protocol: str = _choices("lines", "stx", default="lines")
    pattern: str = r"^\D*(\d{1,2})\D*$"
    debounce_s: float = 2.0
    confirm: bool = False  # auto-read balls wait for the speaker's confirmation


@dataclass(frozen=True, slots=True)
class KeypadSection:
    device: str
    keys: dict = field(default_factory=dict)  # action → key name override, see README


@dataclass(frozen=True, slots=True)
class ScannerSection:
    device: str


@dataclass(frozen=True, slots=True)
class PrinterSection:
    url: str = ""
    profile: str = "TM-T20II"


@dataclass(frozen=True, slots=True)
class ReportSection:
    """The evening's record on paper (docs/record.md)."""

    ticket_each_partie: bool = False  # the board's copy (ESC/POS) printed by itself at each partie's end


@dataclass(frozen=True, slots=True)
class SpeechSection:
    """The hall's voice (INTERFACE §11): each ball said by the projector, a WAV rendered on the Pi (espeak-ng) or the
    hall's own recordings (``recorded``, made on /admin)."""

    enabled: bool = False
    voice: str = _choices("fr-FR", "fr-BE", "fr-CH", "recorded", default="fr-FR")  # septante, huitante, nonante
    rate: float = 0.9  # speaking speed (1.0 = normal, 0.5 to 2.0)
    repeat: bool = True  # « quarante-deux… quatre, deux »
    nicknames: bool = False  # the hall's nicknames after the number (RULES §1c; the table is edited on /admin)


@dataclass(frozen=True, slots=True)
class DisplaySection:
    flash: bool = False  # hard-of-hearing players: each new ball fills the screen for flash_s (also on /admin)
    flash_s: float = 2.0  # how long the ball fills the screen (0.5 to 10 s; one flash a ball, never 3 a second)


@dataclass(frozen=True, slots=True)
class DrawSection:
    pace_s: float = 0.0  # the speaker's pace: a countdown to the next ball on the console (0: none; never draws)
    others_s: float = 15.0  # after a valid claim, « Y a-t-il d'autres gagnants ? » counts down this long


@dataclass(frozen=True, slots=True)
class NetworkSection:
    """Every value is checked against where root writes it (hall/net/values.py, docs/install-pi.md §6)."""

    ssid: str = _checked("", NV.ssid_problem)  # the hall's Wi-Fi; with it the projector shows the Wi-Fi QR code
    password: str = _checked("", NV.password_problem)  # WPA2: 8 to 63 printable ASCII (empty: an open network)
    country: str = _checked("FR", NV.country_problem)  # regulatory domain: without it the AP transmits nothing
    hostname: str = _checked("loto", NV.hostname_problem)  # announced over mDNS as <hostname>.local
    interface: str = _checked("wlan0", NV.interface_problem)  # the Wi-Fi interface of `loto-hall network hotspot`
    address: str = _checked("10.42.0.1", NV.ipv4_problem)  # the Pi on its hotspot (NetworkManager's shared default)
    portal_address: str = _checked("198.18.0.1", NV.ipv4_problem)  # the DNS answer for every other name (see docs)
    url: str = _checked("", NV.url_problem)  # what the second QR code opens; empty: http://<address>:<port>/


@dataclass(frozen=True, slots=True)
class PriceSection:
    cards: int
    eur: float


@dataclass(frozen=True, slots=True)
class SalesSection:
    required: bool = False  # a carton plays only if sold through the desk, from the first partie
    lot_value_limit_eur: float = (
        0.0  # the hall's own cap on a lot's value, flagged in the editor (0: none; not the law)
    )
    price: tuple[PriceSection, ...] = (PriceSection(1, 3.0), PriceSection(6, 15.0), PriceSection(12, 25.0))


@dataclass(frozen=True, slots=True)
class GamesSection:
    bot_delay_s: float = 1.5  # pause before a bot's move, so that the hall can follow it (0 in tests)
    takeover_s: float = 30.0  # a phone silent this long on its turn is played by a bot until it returns
    enabled: list | None = (
        None  # the mini-games the speaker may open (None: every game the hall has; the admin can switch one off)
    )
    max_rooms: int = 12  # rooms open at once
    max_audience: int = 200  # screens and phones following one room
    seats_per_address: int = 2  # seats one address (one phone) may take at one table: no squatting a table


HELP_LEVELS = ("off", "board", "tap", "auto")  # [players] help: none, the board only, tap to mark, marked alone
MAX_PLAYER_CARDS = 48  # the most [players] max_cards may allow


@dataclass(frozen=True, slots=True)
class PlayersSection:
    """« Mes cartons »: the players' phones following their own paper cartons (INTERFACE §9)."""

    help: str = _choices(*HELP_LEVELS, default="auto")
    one_to_go: bool = True  # "plus qu'un : 47" on a carton one number from the lot being played
    phone_call: bool = False  # a « Quine ! » button sending a call to the speaker's console
    max_cards: int = 24  # cartons one phone follows


def _annex_url(value: str) -> str | None:
    """The main hall's address for a salle annexe: ``http(s)://HOST[:PORT]``, nothing after it."""
    from urllib.parse import urlsplit

    if not value:
        return None
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  # raises on a port that is no number
    except ValueError:
        return "adresse invalide"
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") or parts.query:
        return "attendu http://ADRESSE:PORT de la salle principale"
    return None


def _annex_room(value: str) -> str | None:
    ok = 0 < len(value) <= 40 and value.isprintable() and value.strip() == value
    return None if ok or not value else "1 à 40 caractères imprimables, sans espace au bord"


@dataclass(frozen=True, slots=True)
class AnnexSection:
    """A salle annexe (RULES L23): this machine follows the main hall ``of`` as the room ``room``."""

    of: str = _checked("", _annex_url)  # the main hall's address on the hall's own network
    room: str = _checked("", _annex_room)  # the room's name, as the main hall enrolled it
    code: str = ""  # the one-time code /admin gave (« + Salle annexe »); the token it buys is kept in data_dir
    delay_ms: int = 0  # this room's loudspeaker delay (distance to the other PA × 2.9 ms + 10 ms), 0 to 2000
    keypad: str = ""  # a keypad or USB push button whose keys are the room's « Quine ! » (/dev/input/by-id/…-event-kbd)
    keys: dict = field(default_factory=dict)  # action → key names over drivers/annex_keys.py's map (docs/devices.md)


@dataclass(frozen=True, slots=True)
class Config:
    hall: HallSection = HallSection()
    server: ServerSection = ServerSection()
    cards: CardsSection = CardsSection()
    rules: RulesSection = RulesSection()
    programme: tuple[PartieSpec, ...] = ()
    auth: AuthSection = AuthSection()
    ball_machine: BallMachineSection | None = None
    keypad: KeypadSection | None = None
    scanner: ScannerSection | None = None
    printer: PrinterSection | None = None
    speech: SpeechSection = SpeechSection()
    report: ReportSection = ReportSection()
    display: DisplaySection = DisplaySection()
    draw: DrawSection = DrawSection()
    network: NetworkSection = NetworkSection()
    sales: SalesSection = SalesSection()
    games: GamesSection = GamesSection()
    players: PlayersSection = PlayersSection()
    annex: AnnexSection | None = None

    @property
    def data_dir(self) -> Path:
        return Path(self.hall.data_dir)

    def partie_spec(self, index: int) -> PartieSpec:
        """The programme's partie ``index`` (from 0), or the default quine → double quine → carton plein."""
        if index < len(self.programme):
            return self.programme[index]
        return PartieSpec(DEFAULT_LOTS)

    @property
    def hall_url(self) -> str:
        """The address phones open (hall/net/address.py): ``[network] url``, else the hotspot's address when the
        hotspot is up here, else this machine's LAN address, with the hall's port; never ``localhost``."""
        net = self.network
        return address.hall_url(
            url=net.url,
            hotspot_ssid=net.ssid,
            hotspot_address=net.address,
            hostname=net.hostname,
            port=self.server.port,
            tls=self.server.tls,
            listen=self.server.host,
        )

    def hall_link(self, path: str) -> str:
        """``path`` at the hall's address, as every QR code and printed link gives it (``c/A-00412B``…)."""
        return address.link(self.hall_url, path)
