"""The hall's configuration: TOML in, frozen typed sections out, every problem reported at once.

An unknown key (with a "did you mean"), a wrong type or a value outside its choices stops
start-up with a message naming the key. Units are in the names (``debounce_s``).
Hardware sections are optional: without one, that device is simply absent.
"""
from __future__ import annotations

import dataclasses
import difflib
import os
import re
import tomllib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hall.errors import ConfigError, InvalidNumber
from hall.events import LotSpec
from hall.lots import DEFAULT_LOTS, LOT_KINDS
from hall.net import address
from hall.net import values as NV
from hall.numbers import MAX_EUR, parse_amount, parse_int
from hall.programme import PIN_DIGITS, is_pin

DEFAULT_PATHS = (Path("loto-hall.toml"), Path("/etc/loto-hall/config.toml"))


def _choices(*values: str, default: str) -> Any:
    return field(default=default, metadata={"choices": values})


def _checked(default: str, check: Callable[[str], str | None]) -> Any:
    """A field whose value ``check`` accepts (None) or refuses (the reason)."""
    return field(default=default, metadata={"check": check})


@dataclass(frozen=True, slots=True)
class HallSection:
    name: str = "Loto"
    data_dir: str = "./data"
    language: str = _choices("fr", "en", default="fr")
    timezone: str = "Europe/Paris"
    prices: str = ""          # shown on the projector between parties, e.g. "1 carton 3 € · 6 cartons 15 €"
    logo: str = ""            # the association's logo (PNG or JPEG path), printed on each carton
    evening: str = ""         # the evening's name, printed on each carton (e.g. "Grand loto du 14 février")


@dataclass(frozen=True, slots=True)
class ServerSection:
    host: str = "0.0.0.0"
    port: int = 8080
    tls: bool = False          # serve HTTPS (phone cameras need it); certificate made in data_dir on first start
    local_port: int = 8081     # with tls: plain HTTP on 127.0.0.1 only, for the projector kiosk on the Pi (0: none)
    threads: int = 400        # only with LOTO_HALL_SERVER=gthread (debugging): one thread per connection
    worker_connections: int = 4000      # gevent: connections served at once (each a greenlet, not a thread)
    header_timeout_s: float = 5.0       # a request's headers (and an idle keep-alive) must arrive within this
    max_sockets_per_address: int = 16   # anonymous Socket.IO connections from one address (phones, projectors)
    max_public_sockets: int = 3000      # anonymous Socket.IO connections overall; staff are never refused
    max_connections_per_address: int = 256   # open TCP connections from one address (gevent server)
    staff_idle_h: float = 12.0          # a staff session (cookie or token) ends after this long unused
    # More phones than one process (INTERFACE §10, docs/install-pi.md): with a queue and workers, nginx takes
    # host:port, the core listens on 127.0.0.1:core_port, the workers carrying the phones' sockets on socket_port.
    message_queue: str = _checked("", NV.queue_problem)     # "redis://127.0.0.1:6379/0"; empty: one process
    socket_workers: int = 0             # processes carrying the public sockets on this machine (with message_queue)
    core_port: int = 8089               # the core behind the front (127.0.0.1 only)
    socket_port: int = 8090             # the workers' shared port
    socket_host: str = _checked("127.0.0.1", NV.listen_problem)   # a laptop's workers: its address on the hall's network
    socket_peers: list = field(default_factory=list, metadata={"check": NV.peer_problem})   # "10.42.0.20:8090": a laptop's workers
    core_url: str = _checked("", NV.core_url_problem)      # a laptop's workers: the Pi's hall, "http://10.42.0.1:8080"
    ping_s: float = 2.0                 # a phone hears the hall this often (a beat; a relay's ping): « hors ligne » after 4.5 s


@dataclass(frozen=True, slots=True)
class CardsSection:
    columns: str = _choices("1-9", "1-10", default="1-9")
    every_column: bool = False   # "série de 6": 1–3 numbers in every column (RULES L3)


@dataclass(frozen=True, slots=True)
class RulesSection:
    last_number: bool = True
    ties: str = _choices("draw_lowest", "draw_highest", "share", "physical_lowest", "physical_highest",
                         default="draw_lowest")   # physical_*: tokens drawn in the hall, the speaker types them
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


def _pin() -> Any:
    return _checked("", _pin_problem)


@dataclass(frozen=True, slots=True)
class AuthSection:
    speaker_pin: str = _pin()
    controller_pin: str = _pin()
    desk_pin: str = _pin()
    admin_pin: str = _pin()


@dataclass(frozen=True, slots=True)
class BallMachineSection:
    port: str
    baudrate: int = 9600
    protocol: str = _choices("lines", "stx", default="lines")
    pattern: str = r"^\D*(\d{1,2})\D*$"
    debounce_s: float = 2.0
    confirm: bool = False    # auto-read balls wait for the speaker's confirmation


@dataclass(frozen=True, slots=True)
class KeypadSection:
    device: str
    keys: dict = field(default_factory=dict)   # action → key name override, see README


@dataclass(frozen=True, slots=True)
class ScannerSection:
    device: str


@dataclass(frozen=True, slots=True)
class PrinterSection:
    url: str = ""
    profile: str = "TM-T20II"


@dataclass(frozen=True, slots=True)
class SpeechSection:
    enabled: bool = False
    rate: float = 0.9
    nicknames: bool = False


@dataclass(frozen=True, slots=True)
class NetworkSection:
    """Every value is checked against where root writes it (hall/net/values.py, docs/install-pi.md §6)."""
    ssid: str = _checked("", NV.ssid_problem)   # the hall's Wi-Fi; with it the projector shows the Wi-Fi QR code
    password: str = _checked("", NV.password_problem)   # WPA2: 8 to 63 printable ASCII (empty: an open network)
    country: str = _checked("FR", NV.country_problem)   # regulatory domain: without it the AP transmits nothing
    hostname: str = _checked("loto", NV.hostname_problem)       # announced over mDNS as <hostname>.local
    interface: str = _checked("wlan0", NV.interface_problem)    # the Wi-Fi interface of `loto-hall network hotspot`
    address: str = _checked("10.42.0.1", NV.ipv4_problem)   # the Pi on its hotspot (NetworkManager's shared default)
    portal_address: str = _checked("198.18.0.1", NV.ipv4_problem)   # the DNS answer for every other name (see docs)
    url: str = _checked("", NV.url_problem)     # what the second QR code opens; empty: http://<address>:<port>/


@dataclass(frozen=True, slots=True)
class PriceSection:
    cards: int
    eur: float


@dataclass(frozen=True, slots=True)
class SalesSection:
    required: bool = False               # a carton plays only if sold through the desk, from the first partie
    lot_value_limit_eur: float = 0.0     # the hall's own cap on a lot's value, flagged in the editor (0: none; not the law)
    price: tuple[PriceSection, ...] = (PriceSection(1, 3.0), PriceSection(6, 15.0), PriceSection(12, 25.0))


@dataclass(frozen=True, slots=True)
class GamesSection:
    bot_delay_s: float = 1.5      # pause before a bot's move, so that the hall can follow it (0 in tests)
    takeover_s: float = 30.0      # a phone silent this long on its turn is played by a bot until it returns
    enabled: list | None = None   # the mini-games the speaker may open (None: every game the hall has; the admin can switch one off)
    max_rooms: int = 12           # rooms open at once
    max_audience: int = 200       # screens and phones following one room
    seats_per_address: int = 2    # seats one address (one phone) may take at one table: no squatting a table


HELP_LEVELS = ("off", "board", "tap", "auto")    # [players] help: none, the board only, tap to mark, marked alone
MAX_PLAYER_CARDS = 48                            # the most [players] max_cards may allow


@dataclass(frozen=True, slots=True)
class PlayersSection:
    """« Mes cartons »: the players' phones following their own paper cartons (INTERFACE §9)."""
    help: str = _choices(*HELP_LEVELS, default="auto")
    one_to_go: bool = True        # "plus qu'un : 47" on a carton one number from the lot being played
    phone_call: bool = False      # a « Quine ! » button sending a call to the speaker's console
    max_cards: int = 24           # cartons one phone follows


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
    network: NetworkSection = NetworkSection()
    sales: SalesSection = SalesSection()
    games: GamesSection = GamesSection()
    players: PlayersSection = PlayersSection()

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
        return address.hall_url(url=net.url, hotspot_ssid=net.ssid, hotspot_address=net.address,
                                hostname=net.hostname, port=self.server.port, tls=self.server.tls,
                                listen=self.server.host)

    def hall_link(self, path: str) -> str:
        """``path`` at the hall's address, as every QR code and printed link gives it (``c/A-00412B``…)."""
        return address.link(self.hall_url, path)


_SECTIONS = {f.name: f for f in dataclasses.fields(Config)}


def _type_ok(value: Any, hint: Any) -> bool:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_type_ok(value, arg) for arg in typing.get_args(hint) if arg is not type(None))
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    origin = typing.get_origin(hint) or hint
    return isinstance(value, origin)


# Bounds of the integer and amount keys (hall/numbers.py reads them); other floats must only be finite.
_BOUNDS: dict[str, tuple[float, float]] = {
    "port": (0, 65535), "local_port": (0, 65535), "threads": (1, 10_000), "baudrate": (50, 4_000_000),
    "value_eur": (0, MAX_EUR), "max_sockets_per_address": (1, 100_000), "max_public_sockets": (1, 1_000_000),
    "staff_idle_h": (0.01, 24 * 30), "worker_connections": (10, 1_000_000),
    "max_connections_per_address": (1, 1_000_000), "header_timeout_s": (0.5, 600),
    "seats_per_address": (1, 8), "socket_workers": (0, 16), "core_port": (1, 65535), "socket_port": (1, 65535),
    "max_cards": (1, MAX_PLAYER_CARDS), "ping_s": (0.5, 60),
}


def _number_problem(key: str, value: Any, hint: Any) -> str | None:
    """What is wrong with a numeric config value (NaN, infinity, out of its bounds), or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    low, high = _BOUNDS.get(key, (-1e12, 1e12))
    try:
        if isinstance(value, int) and hint in (int, int | None):
            parse_int(value, int(low), int(high), key)
        else:
            parse_amount(value, low, high, key)
    except InvalidNumber as exc:
        return str(exc)
    return None


def _section(cls: type, raw: Any, where: str, problems: list[str]) -> Any:
    if not isinstance(raw, dict):
        problems.append(f"[{where}] doit être une table")
        return None
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in raw.items():
        if key not in fields:
            near = difflib.get_close_matches(key, fields, n=1)
            hint = f" (vouliez-vous dire « {near[0]} » ?)" if near else ""
            problems.append(f"{where}.{key} : clé inconnue{hint}")
            continue
        f = fields[key]
        if not _type_ok(value, hints[key]):
            problems.append(f"{where}.{key} : {value!r} n'est pas du type {getattr(hints[key], '__name__', hints[key])}")
            continue
        number_problem = _number_problem(key, value, hints[key])
        if number_problem:
            problems.append(f"{where}.{key} : {number_problem}")
            continue
        choices = f.metadata.get("choices")
        if choices and value not in choices:
            problems.append(f"{where}.{key} : {value!r} n'est pas l'une des valeurs {', '.join(choices)}")
            continue
        refused = f.metadata["check"](value) if "check" in f.metadata else None
        if refused:
            problems.append(f"{where}.{key} : {refused}")
            continue
        values[key] = float(value) if hints[key] in (float, float | None) and value is not None else value
    for name, f in fields.items():
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and name not in raw:
            problems.append(f"{where}.{name} : clé obligatoire absente")
    if len(values) != len([k for k in raw if k in fields]):
        return None
    try:
        return cls(**values)
    except TypeError:
        return None


def _programme(raw: Any, problems: list[str]) -> tuple[PartieSpec, ...]:
    if not isinstance(raw, dict) or set(raw) - {"partie"}:
        extra = sorted(set(raw) - {"partie"}) if isinstance(raw, dict) else []
        problems.append(f"programme : seule la liste [[programme.partie]] est attendue ({', '.join(extra) or 'type'})")
        return ()
    parties = raw.get("partie", [])
    out = []
    for i, partie in enumerate(parties, start=1):
        where = f"programme.partie[{i}]"
        if not isinstance(partie, dict):
            problems.append(f"{where} : doit être une table")
            continue
        for key in set(partie) - {"lots", "consolation"}:
            problems.append(f"{where}.{key} : clé inconnue (attendu : lots, consolation)")
        lots = []
        for j, lot in enumerate(partie.get("lots", []), start=1):
            spec = _section(LotSpec, lot, f"{where}.lots[{j}]", problems)
            if spec is not None and spec.kind not in LOT_KINDS:
                problems.append(f"{where}.lots[{j}].kind : {spec.kind!r} n'est pas {', '.join(LOT_KINDS[:-1])} ou {LOT_KINDS[-1]}")
            elif spec is not None:
                lots.append(spec)
        if not partie.get("lots"):
            problems.append(f"{where}.lots : au moins un lot est nécessaire")
        consolation = partie.get("consolation", "Lot de consolation")
        if not isinstance(consolation, str):
            problems.append(f"{where}.consolation : doit être un texte")
            consolation = ""
        out.append(PartieSpec(tuple(lots), consolation))
    return tuple(out)


def _sales(raw: Any, problems: list[str]) -> SalesSection:
    if not isinstance(raw, dict):
        problems.append("[sales] doit être une table")
        return SalesSection()
    prices = raw.get("price", None)
    tiers = []
    for j, tier in enumerate(prices or [], start=1):
        spec = _section(PriceSection, tier, f"sales.price[{j}]", problems)
        if spec is not None and (spec.cards < 1 or spec.eur < 0 or round(spec.eur * 100) != spec.eur * 100):
            problems.append(f"sales.price[{j}] : cards ≥ 1 et eur ≥ 0, au centime")
        elif spec is not None and round(spec.eur * 100) >= 2000 * spec.cards:    # hall.sales.STAKE_LIMIT_CENTS
            problems.append(f"sales.price[{j}] : {spec.eur / spec.cards:.2f} € le carton ; loto traditionnel : mises "
                            "« inférieures à 20 euros » (code de la sécurité intérieure, art. L322-4)")
        elif spec is not None:
            tiers.append(spec)
    if prices is not None and not isinstance(prices, list):
        problems.append("sales.price : une liste [[sales.price]] est attendue")
    section = _section(SalesSection, {k: v for k, v in raw.items() if k != "price"}, "sales", problems)
    if section is None:
        return SalesSection()
    return dataclasses.replace(section, price=tuple(tiers)) if prices is not None else section


def _server_problems(server: ServerSection) -> list[str]:
    """What the server's keys say together: workers need a queue, and no two listeners on one port."""
    problems = []
    if server.socket_workers and not server.message_queue:
        problems.append("server.socket_workers : il faut aussi server.message_queue (« redis://127.0.0.1:6379/0 »)")
    if server.message_queue and not server.socket_workers and not server.socket_peers:
        problems.append("server.message_queue : il faut des relais (server.socket_workers, ou server.socket_peers)")
    if server.message_queue:
        ports = [("port", server.port), ("core_port", server.core_port), ("socket_port", server.socket_port)]
        if server.tls and server.local_port:
            ports.append(("local_port", server.local_port))
        taken: dict[int, str] = {}
        for name, port in ports:
            if port in taken:
                problems.append(f"server.{name} : {port} est déjà server.{taken[port]}")
            taken.setdefault(port, name)
    return problems


# C0, DEL and C1: a newline or an escape means something else in every file, command, page or printer they reach
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _control_problems(value: Any, where: str, problems: list[str]) -> None:
    """One problem for each string of the document (keys included) that holds a control character."""
    if isinstance(value, str):
        found = _CONTROL.search(value)
        if found:
            problems.append(f"{where} : caractère de contrôle U+{ord(found.group()):04X} refusé")
    elif isinstance(value, dict):
        for key, item in value.items():
            name = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(key))
            _control_problems(key, f"{where}.{name} (nom de clé)" if where else f"{name} (nom de clé)", problems)
            _control_problems(item, f"{where}.{name}" if where else name, problems)
    elif isinstance(value, list):
        for i, item in enumerate(value, start=1):
            _control_problems(item, f"{where}[{i}]", problems)


def parse_config(raw: dict, source: str = "config") -> Config:
    """The ``Config`` of a parsed TOML document; raises ``ConfigError`` listing every problem."""
    problems: list[str] = []
    _control_problems(raw, "", problems)
    values: dict[str, Any] = {}
    hints = typing.get_type_hints(Config)
    for key, value in raw.items():
        if key not in _SECTIONS:
            near = difflib.get_close_matches(key, _SECTIONS, n=1)
            hint = f" (vouliez-vous dire « [{near[0]}] » ?)" if near else ""
            problems.append(f"[{key}] : section inconnue{hint}")
        elif key == "programme":
            values[key] = _programme(value, problems)
        elif key == "sales":
            values[key] = _sales(value, problems)
        else:
            cls = [a for a in typing.get_args(hints[key]) if a is not type(None)] or [hints[key]]
            section = _section(cls[0], value, key, problems)
            if isinstance(section, ServerSection):
                problems += _server_problems(section)
            if section is not None:
                values[key] = section
    if problems:
        raise ConfigError(problems, source)
    return Config(**values)


def load_config(path: str | os.PathLike | None = None, overrides: dict | None = None,
                trust: Callable[[os.stat_result], list[str]] | None = None) -> Config:
    """Read the config file (given, else ``./loto-hall.toml``, else ``/etc/loto-hall/config.toml``, else defaults);
    ``trust`` judges the opened file itself (its owner, its mode) before a byte of it is read."""
    candidates = [Path(path)] if path else [p for p in DEFAULT_PATHS if p.exists()]
    raw: dict = {}
    source = "défauts"
    if candidates:
        source = str(candidates[0])
        try:
            with open(candidates[0], "rb") as fh:
                distrust = trust(os.fstat(fh.fileno())) if trust else []
                if distrust:
                    raise ConfigError(distrust, source)
                raw = tomllib.load(fh)
        except FileNotFoundError:
            raise ConfigError([f"fichier introuvable : {candidates[0]}"], source) from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError([f"TOML invalide : {exc}"], source) from None
    for section, items in (overrides or {}).items():
        raw.setdefault(section, {}).update(items)
    return parse_config(raw, source)
