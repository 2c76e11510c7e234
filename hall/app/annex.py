"""``loto-hall serve --annex-of URL --room NAME --code CODE``: a salle annexe (RULES L23, INTERFACE §12).

A follower, not a second hall: no journal, no draw, no card book of its own. It enrols once with the main hall
(the code buys a token, kept in the data folder, so a restart needs no new code), follows its draw over the
hall's own network, and serves its own screen, its « Quine ! » and its loudspeaker's clips (``display/annex.py``).

Served by gunicorn's thread worker, one process: an annex carries its screen or two and the claim button (its
phones follow their cartons at the main hall), and the follower's Socket.IO client and beat are plain threads —
no monkey-patching under them. A main hall that refuses the code stops the annex with the refusal's message
(exit 2); one that does not answer yet is asked again, every few seconds, until it does.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from gunicorn.app.base import BaseApplication

from display.annex_link import Link, MainAway, MainRefused, call
from hall import write_json
from hall.config import AnnexSection, Config

if TYPE_CHECKING:
    from flask import Flask

    from display.annex import Annex
    from drivers.annex_keys import AnnexKeysReader

log = logging.getLogger("loto-hall")

ENROL_RETRY_S = 3.0
TOKEN_FILE = "annex.json"
THREADS = 64  # a screen's socket, its clips fetched three at a time, claims, the phones' redirects


def annex_section(args: argparse.Namespace, config: Config) -> AnnexSection | None:
    """The annex's settings: the command line's over the config's ``[annex]``; None when this is no annex."""
    base = config.annex or AnnexSection()
    given = {
        key: value
        for key, value in (
            ("of", getattr(args, "annex_of", None)),
            ("room", getattr(args, "room", None)),
            ("code", getattr(args, "code", None)),
        )
        if value
    }
    section = replace(base, **given)
    return section if section.of else None


def problems(section: AnnexSection) -> list[str]:
    """What stops this annex from starting (the same checks as the config file's)."""
    from hall.config_sections import _annex_room, _annex_url

    found = []
    if section.keys:
        try:
            from drivers.annex_keys import build_claim_keys

            build_claim_keys(section.keys)
        except ValueError as exc:
            found.extend(str(exc).splitlines())
        except ImportError:  # evdev is the "pi" extra: the keypad left unread (said when it would start)
            pass
    if (why := _annex_url(section.of)) is not None:
        found.append(f"--annex-of {section.of!r} : {why}")
    if not section.room:
        found.append("--room : le nom de la salle annexe manque")
    elif (why := _annex_room(section.room)) is not None:
        found.append(f"--room : {why}")
    return found


class TokenStore:
    """The annex's token for one main hall and one room, kept in the data folder (0600)."""

    def __init__(self, data_dir: str | Path):
        self.path = Path(data_dir) / TOKEN_FILE

    def read(self, main_url: str, room: str) -> str:
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return ""
        if isinstance(kept, dict) and kept.get("of") == main_url and kept.get("room") == room:
            token = kept.get("token")
            return token if isinstance(token, str) else ""
        return ""  # enrolled with another hall or as another room: a new code is needed

    def write(self, main_url: str, room: str, token: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_json(self.path, {"of": main_url, "room": room, "token": token}, mode=0o600)


def enrol(main_url: str, room: str, code: str, store: TokenStore) -> str:
    """The annex's token: the one kept, else a new one for ``code``; raises ``MainRefused`` (403 ``bad_code``)
    or ``MainAway``. A main hall without rooms (404) gives no token: the annex follows its public state only."""
    token = store.read(main_url, room)
    if token:
        return token
    if not code:
        raise MainRefused(403, {"error": "bad_code", "message": "no code given (--code or [annex] code)"})
    try:
        answer = call(f"{main_url}/api/rooms/{quote(room, safe='')}/join", {"code": code})
    except MainRefused as exc:
        if exc.status == 404 and exc.body.get("error") == "not_found":
            log.warning("salle annexe : la salle principale ne connaît pas les salles (404) : suivi sans inscription")
            return ""
        raise
    given = answer.get("token")
    if not isinstance(given, str) or not given:
        raise MainAway("join: no token in the answer")
    store.write(main_url, room, given)
    return given


def token_for(section: AnnexSection, config: Config, stop: threading.Event) -> str | None:
    """The annex's token (kept, else bought with the code), asked again while the main does not answer; None when
    it refuses."""
    store = TokenStore(config.data_dir)
    main = section.of.rstrip("/")
    while not stop.is_set():
        try:
            return enrol(main, section.room, section.code, store)
        except MainRefused as exc:
            log.error(
                "salle annexe : la salle principale refuse l'inscription de « %s » (%s : %s)",
                section.room,
                exc.body.get("error", exc.status),
                exc.body.get("message", ""),
            )
            return None
        except MainAway as exc:
            log.warning("salle annexe : salle principale injoignable (%s) ; nouvel essai", exc)
            stop.wait(ENROL_RETRY_S)
    return None


class AnnexApplication(BaseApplication):
    """gunicorn configured in code: one thread worker serving the annex's app."""

    def __init__(self, config: Config, section: AnnexSection, token: str):
        self.hall_config, self.section, self.token = config, section, token
        super().__init__()

    def load_config(self) -> None:
        server = self.hall_config.server
        for key, value in {
            "bind": [f"{server.host}:{server.port}"],
            "workers": 1,
            "worker_class": "gthread",
            "threads": THREADS,
            "timeout": 30,
            "graceful_timeout": 3,
            "control_socket_disable": True,
            "proc_name": "loto-hall-annexe",
            "errorlog": "-",
            "loglevel": "info",
        }.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """In the worker: the link to the main, started, and the annex's app (its keypad read, if it has one)."""
        app, annex = build_annex(self.hall_config, self.section, self.token)
        start_annex(annex)
        keys = annex_keys(self.section, annex)
        if keys is not None:
            keys.start()
        return app


def build_annex(config: Config, section: AnnexSection, token: str) -> tuple[Flask, Annex]:
    """The annex's Flask app and its ``Annex`` (link, clips, kept claims), nothing started yet."""
    from display.annex import Annex, create_annex_app
    from display.annex_voice import Clips

    main = section.of.rstrip("/")
    link = Link(main, section.room, token, publish=lambda name, payload: None)
    annex = Annex(
        link=link, clips=Clips(main, section.delay_ms), main_url=main, room=section.room, folder=config.data_dir
    )
    app, _socketio = create_annex_app(config, annex)
    return app, annex


def start_annex(annex: Annex) -> None:
    annex.link.start()
    assert annex.kept is not None  # create_annex_app made it
    annex.kept.start()  # a claim kept while the link was lost (a restart's too) is sent once it is back


class KeysStatus:
    """Where the annex's key reader reports its device (the annex has no hall, nor a speaker's console): the log,
    once per change (``DeviceReader`` does that), and nothing else."""

    def set_device_status(
        self, device: str, status: str, *, code: str = "", params: dict[str, object] | None = None
    ) -> None:
        return None


def annex_keys(
    section: AnnexSection, annex: Annex, *, opener: Any = None, backoff: Any = None
) -> AnnexKeysReader | None:
    """The reader of ``[annex] keypad`` (a keypad or a USB push button), unstarted, each claim press going through
    the page's button's own path (``annex.press_key``); None without a keypad configured."""
    if not section.keypad:
        return None
    try:
        from drivers.annex_keys import AnnexKeysReader
    except ImportError as exc:  # evdev is the "pi" extra: the page's button still claims
        log.warning(
            "salle annexe : clavier %s non lu, evdev indisponible (%s) : installez loto-hall[pi]", section.keypad, exc
        )
        return None
    assert annex.press_key is not None  # create_annex_app made it
    return AnnexKeysReader(KeysStatus(), section.keypad, annex.press_key, section.keys, opener=opener, backoff=backoff)


def run_annex(config: Config, section: AnnexSection) -> int:
    """Enrol, then serve until SIGTERM/SIGINT; 0 on a clean stop, 2 when the main hall refuses or the settings are
    wrong."""
    found = problems(section)
    if found:
        for problem in found:
            log.error("salle annexe : %s", problem)
        return 2
    stop = threading.Event()
    previous = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        token = token_for(section, config, stop)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if token is None:
        return 0 if stop.is_set() else 2
    log.info(
        "salle annexe « %s » : suit %s ; écran sur http://%s:%s/",
        section.room,
        section.of,
        config.server.host,
        config.server.port,
    )
    AnnexApplication(config, section, token).run()
    return 0
