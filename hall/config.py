"""The hall's configuration: TOML in, frozen typed sections out (hall/config_sections.py), every problem at once.

An unknown key (with a "did you mean"), a wrong type or a value outside its choices stops
start-up with a message naming the key. This module is where the tree imports the configuration from: the
sections are named here too.
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
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from hall.config_sections import (
    HELP_LEVELS,
    MAX_PLAYER_CARDS,
    AnnexSection,
    AuthSection,
    BallMachineSection,
    CardsSection,
    Config,
    DisplaySection,
    DrawSection,
    GamesSection,
    HallSection,
    KeypadSection,
    NetworkSection,
    PartieSpec,
    PlayersSection,
    PriceSection,
    PrinterSection,
    ReportSection,
    RulesSection,
    SalesSection,
    ScannerSection,
    ServerSection,
    SpeechSection,
)
from hall.errors import ConfigError, InvalidNumber
from hall.events import LotSpec
from hall.loto.lots import LOT_KINDS, TERMS, LotTermsError, read_terms
from hall.numbers import MAX_EUR, parse_amount, parse_int

__all__ = [
    "DEFAULT_PATHS",
    "AnnexSection",
    "HELP_LEVELS",
    "MAX_PLAYER_CARDS",
    "AuthSection",
    "BallMachineSection",
    "CardsSection",
    "Config",
    "ConfigError",
    "DisplaySection",
    "DrawSection",
    "GamesSection",
    "HallSection",
    "KeypadSection",
    "NetworkSection",
    "PartieSpec",
    "PlayersSection",
    "PriceSection",
    "PrinterSection",
    "ReportSection",
    "RulesSection",
    "SalesSection",
    "ScannerSection",
    "ServerSection",
    "SpeechSection",
    "load_config",
    "parse_config",
]

DEFAULT_PATHS = (Path("loto-hall.toml"), Path("/etc/loto-hall/config.toml"))


_SECTIONS = {f.name: f for f in dataclasses.fields(Config)}


class _Section(Protocol):
    """A section of the config: a dataclass (``_section`` reads its fields)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


T = TypeVar("T", bound=_Section)


def _type_ok(value: object, hint: Any) -> bool:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_type_ok(value, arg) for arg in typing.get_args(hint) if arg is not type(None))
    if typing.get_origin(hint) is typing.Literal:  # its type here; which value, where its table is (a lot's kind)
        return any(type(value) is type(arg) for arg in typing.get_args(hint))
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    origin = typing.get_origin(hint) or hint
    return isinstance(value, origin)


# Bounds of the integer and amount keys (hall/numbers.py reads them); other floats must only be finite.
_BOUNDS: dict[str, tuple[float, float]] = {
    "port": (0, 65535),
    "local_port": (0, 65535),
    "staff_port": (0, 65535),
    "threads": (1, 10_000),
    "baudrate": (50, 4_000_000),
    "value_eur": (0, MAX_EUR),
    "max_sockets_per_address": (1, 100_000),
    "max_public_sockets": (1, 1_000_000),
    "staff_idle_h": (0.01, 24 * 30),
    "worker_connections": (10, 1_000_000),
    "max_connections_per_address": (1, 1_000_000),
    "header_timeout_s": (0.5, 600),
    "seats_per_address": (1, 8),
    "socket_workers": (0, 16),
    "core_port": (1, 65535),
    "socket_port": (1, 65535),
    "max_cards": (1, MAX_PLAYER_CARDS),
    "ping_s": (0.5, 60),
    "rate": (0.5, 2.0),
    "flash_s": (0.5, 10),
    "pace_s": (0, 600),
    "others_s": (0, 120),
    "delay_ms": (0, 2000),
}


def _number_problem(key: str, value: object, hint: object) -> str | None:
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


def _section(cls: type[T], raw: object, where: str, problems: list[str]) -> T | None:
    if not isinstance(raw, dict):
        problems.append(f"[{where}] doit être une table")
        return None
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in raw.items():
        problem = _value_problem(fields, hints, key, value)
        if problem:
            problems.append(f"{where}.{key} : {problem}")
        elif key in fields:
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


def _value_problem(
    fields: dict[str, dataclasses.Field[typing.Any]], hints: dict[str, typing.Any], key: str, value: object
) -> str | None:
    """What is wrong with ``key = value`` in a section whose fields are ``fields`` (the first problem), or None."""
    if key not in fields:
        near = difflib.get_close_matches(key, fields, n=1)
        return "clé inconnue" + (f" (vouliez-vous dire « {near[0]} » ?)" if near else "")
    if not _type_ok(value, hints[key]):
        return f"{value!r} n'est pas du type {getattr(hints[key], '__name__', hints[key])}"
    number_problem = _number_problem(key, value, hints[key])
    if number_problem:
        return number_problem
    f = fields[key]
    choices = f.metadata.get("choices")
    if choices and value not in choices:
        return f"{value!r} n'est pas l'une des valeurs {', '.join(choices)}"
    return f.metadata["check"](value) if "check" in f.metadata else None


def _programme(raw: object, problems: list[str]) -> tuple[PartieSpec, ...]:
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
            plain = {k: v for k, v in lot.items() if k not in TERMS} if isinstance(lot, dict) else lot
            spec = _section(LotSpec, plain, f"{where}.lots[{j}]", problems)
            if spec is not None and spec.kind not in LOT_KINDS:
                problems.append(
                    f"{where}.lots[{j}].kind : {spec.kind!r} n'est pas {', '.join(LOT_KINDS[:-1])} ou {LOT_KINDS[-1]}"
                )
            elif spec is not None:
                try:  # a named row, a ball limit and its fallback (RULES L20–L21), as /admin reads them
                    lots.append(dataclasses.replace(spec, **read_terms(spec.kind, lot)))
                except LotTermsError as exc:
                    problems.append(f"{where}.lots[{j}] : {exc.why}")
        if not partie.get("lots"):
            problems.append(f"{where}.lots : au moins un lot est nécessaire")
        consolation = partie.get("consolation", "Lot de consolation")
        if not isinstance(consolation, str):
            problems.append(f"{where}.consolation : doit être un texte")
            consolation = ""
        out.append(PartieSpec(tuple(lots), consolation))
    return tuple(out)


def _sales(raw: object, problems: list[str]) -> SalesSection:
    if not isinstance(raw, dict):
        problems.append("[sales] doit être une table")
        return SalesSection()
    prices = raw.get("price", None)
    tiers = []
    for j, tier in enumerate(prices or [], start=1):
        spec = _section(PriceSection, tier, f"sales.price[{j}]", problems)
        if spec is not None and (spec.cards < 1 or spec.eur < 0 or round(spec.eur * 100) != spec.eur * 100):
            problems.append(f"sales.price[{j}] : cards ≥ 1 et eur ≥ 0, au centime")
        elif spec is not None and round(spec.eur * 100) >= 2000 * spec.cards:  # hall.cartons.sales.STAKE_LIMIT_CENTS
            problems.append(
                f"sales.price[{j}] : {spec.eur / spec.cards:.2f} € le carton ; loto traditionnel : mises "
                "« inférieures à 20 euros » (code de la sécurité intérieure, art. L322-4)"
            )
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
    ports = [("port", server.port)]
    if server.staff_port and not server.tls:
        ports.append(("staff_port", server.staff_port))
    if server.message_queue:
        relays = max(1, server.socket_workers)  # relay i listens on socket_port + i (hall/app/relays.py)
        ports.append(("core_port", server.core_port))
        ports += [("socket_port" + (f" + {i}" if i else ""), server.socket_port + i) for i in range(relays)]
        if server.socket_port + relays - 1 > 65535:
            problems.append(f"server.socket_port : {server.socket_port} + {relays} relais dépasse 65535")
        if server.tls and server.local_port:
            ports.append(("local_port", server.local_port))
    if len(ports) > 1:
        taken: dict[int, str] = {}
        for name, port in ports:
            if port in taken:
                problems.append(f"server.{name} : {port} est déjà server.{taken[port]}")
            taken.setdefault(port, name)
    return problems


# C0, DEL and C1: a newline or an escape means something else in every file, command, page or printer they reach
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _control_problems(value: object, where: str, problems: list[str]) -> None:
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


def load_config(
    path: str | os.PathLike | None = None,
    overrides: dict | None = None,
    trust: Callable[[os.stat_result], list[str]] | None = None,
) -> Config:
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
