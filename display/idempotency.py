"""Draws that a console retried are applied once: an idempotency key (``request_id`` in the body, or the
``Idempotency-Key`` header) makes a retry answer the first result instead of drawing again.

Why a key rather than refusing old requests: a console whose request timed out does not know whether the
number was drawn; with the key its retry gets the first answer (``201`` with the number and ``seq``, or the
refusal) and says so on screen, so the speaker always sees what happened. Clocks of phones and consoles
are not trusted to date a request. Results are kept in memory for ``TTL_S`` (the last ``MAX_KEYS`` keys);
after a restart a retry is a new draw, which the hall refuses with ``already_drawn`` if it went through.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import current_app, make_response, request
from flask.typing import ResponseReturnValue

from display.errors import error_body, status_of
from display.services import services
from hall.refusal import Rejected

MAX_KEYS = 1024
TTL_S = 600.0
KEY = re.compile(r"[A-Za-z0-9_.:-]{8,64}")
HEADER = "Idempotency-Key"


class Results:
    """The answers already given, by (role, key)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # keyed requests one at a time: a retry waits for the first
        self.done: OrderedDict[tuple[str, str], tuple[float, int, bytes, str]] = OrderedDict()

    def get(self, key: tuple[str, str]) -> tuple[int, bytes, str] | None:
        hit = self.done.get(key)
        if hit is None or time.monotonic() - hit[0] > TTL_S:
            return None
        return hit[1], hit[2], hit[3]

    def put(self, key: tuple[str, str], status: int, body: bytes, fingerprint: str) -> None:
        self.done[key] = (time.monotonic(), status, body, fingerprint)
        self.done.move_to_end(key)
        while len(self.done) > MAX_KEYS:
            self.done.popitem(last=False)


def request_key(data: dict) -> str | None:
    """The request's idempotency key, or None; 422 ``bad_field`` for a malformed one."""
    given = [v for v in (request.headers.get(HEADER), data.get("request_id")) if v is not None]
    if not given:
        return None
    if any(not isinstance(v, str) or not KEY.fullmatch(v) for v in given):
        raise Rejected("bad_field", field="request_id")  # a malformed key is refused, even beside a good one
    return given[0]  # the header's when both are sent


def idempotent(
    role: str, data: dict, fingerprint: str, apply: Callable[[], ResponseReturnValue]
) -> ResponseReturnValue:
    """``apply()`` once per key: a retry with the same key gets the first answer (header
    ``Idempotent-Replayed: true``); the same key with another request is a 409 ``request_id_reused``."""
    key = request_key(data)
    if key is None:
        return apply()
    results = services().idempotency
    with results.lock:
        hit = results.get((role, key))
        if hit is not None:
            status, body, seen = hit
            if seen != fingerprint:
                raise Rejected("request_id_reused")
            resp = current_app.response_class(body, status=status, mimetype="application/json")
            resp.headers["Idempotent-Replayed"] = "true"
            return resp
        try:
            resp = make_response(apply())
        except Rejected as exc:
            status = status_of(exc.key)
            body = current_app.json.dumps(error_body(exc.key, exc.detail)).encode()
            results.put((role, key), status, body, fingerprint)
            raise
        results.put((role, key), resp.status_code, resp.get_data(), fingerprint)
        return resp
