"""What a relay asks the core over HTTP (INTERFACE §10): its public state, and with it the run it publishes under.

``GET /api/state`` (the same shape as everywhere) answers both: the state a phone is given on connect and on a gap,
and, in its ``X-Loto-Queue-Run`` header, the run of the core's queue messages (``display/relay_seal.py``): the core
itself, not a message on the queue, says which run a relay believes and which ``seq`` it stands at.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

from display.relay_seal import RUN_HEADER

FETCH_TIMEOUT_S = 3.0


class CoreUnavailable(Exception):
    """The core did not answer a fetch (restarting): the client is refused and reconnects by itself."""


def fetch(url: str) -> tuple[object, str]:
    """GET a JSON document from the core and its run header; ``CoreUnavailable`` when it does not answer, ``None``
    (the document) on 404."""
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT_S) as resp:
            return json.loads(resp.read()), resp.headers.get(RUN_HEADER, "")
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return None, ""
        raise CoreUnavailable(f"{url}: {exc.code}") from None
    except (OSError, ValueError) as exc:
        raise CoreUnavailable(f"{url}: {exc}") from None


def fetch_json(url: str) -> object:
    return fetch(url)[0]


class StateCache:
    """The public state at a ``seq`` at least the one asked, fetched from the core at most once per ``seq``; and the
    core's run, as its last answer said."""

    def __init__(self, core_url: str):
        self.core_url = core_url.rstrip("/")
        self._lock = threading.Lock()  # gevent's, once patched: the waiting clients yield
        self.state: dict | None = None
        self.run = ""  # the core's queue run, from its last answer
        self.fetches = 0

    def get(self, min_seq: int | None) -> dict:
        with self._lock:
            state = self.state
            if state is not None and (min_seq is None or state.get("seq", -1) >= min_seq):
                return state
            return self._fetch(state)

    def fresh(self) -> dict:
        """The core's state now (and its run), fetched whatever is kept."""
        with self._lock:
            return self._fetch(self.state, stale_ok=False)

    def _fetch(self, state: dict | None, stale_ok: bool = True) -> dict:
        try:
            fetched, run = fetch(self.core_url + "/api/state")
        except CoreUnavailable:
            if state is not None and stale_ok:
                return state  # stale but whole: the events that follow will show the gap
            raise
        self.fetches += 1
        if not isinstance(fetched, dict) or not isinstance(fetched.get("seq"), int):
            raise CoreUnavailable("GET /api/state: no state")
        self.run = run
        if state is None or fetched["seq"] >= state.get("seq", -1):
            self.state = state = fetched
        return state
