"""Bounds at the web's edge: every body read with a hard cap whatever its transfer encoding, JSON parsed
with a depth limit, and every JSON the hall emits strict (no ``NaN``/``Infinity``, which browsers cannot parse).

Why read the body here: with a chunked body there is no ``Content-Length``, and Werkzeug then wraps the
server's stream in a ``LimitedStream`` that simply *ends* at ``MAX_CONTENT_LENGTH`` (a 100 000-carton CSV
was cut to 78 397 cartons and imported with a 201). We read the raw stream up to the cap plus one byte:
one byte over is a 413, never a silent cut.
"""

from __future__ import annotations

import json
import logging
import math
import re
from typing import Any, NoReturn

from flask import g, request
from flask.json.provider import DefaultJSONProvider

from hall import is_ascii_digits
from hall.refusal import Rejected

log = logging.getLogger("loto-hall.display")

MAX_JSON_BYTES = 64 * 1024  # every JSON body
MAX_UPLOAD_BYTES = 4 * 1024 * 1024  # a card CSV of ~60 000 cartons (POST /api/cards/import)
MAX_JSON_DEPTH = 32  # no body of the API nests deeper than 4
_CHUNK = 64 * 1024
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(rb"[\[\]{}]")


def read_body(limit: int) -> bytes:
    """The request body, read once (and kept for the request); raises 413 ``too_large`` beyond ``limit`` bytes."""
    cached = g.get("loto_body")
    if cached is not None:
        if len(cached) > limit:
            raise Rejected("too_large", limit=limit)
        return cached
    length = request.content_length
    if length is not None and length > limit:
        raise Rejected("too_large", limit=limit)
    environ = request.environ
    if length is None and environ.get("wsgi.input_terminated"):
        stream = environ["wsgi.input"]  # chunked: the server ends the stream; Werkzeug's wrapper would cut it
    else:
        stream = request.stream
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    if total > limit:
        raise Rejected("too_large", limit=limit)
    data = b"".join(parts)
    g.loto_body = data
    return data


def json_body(limit: int = MAX_JSON_BYTES) -> dict:
    """The request's JSON object, the one reader of every JSON API (``{}`` when empty): 413 ``too_large`` beyond
    ``limit`` bytes, 400 ``bad_json`` for bad text or anything but an object."""
    raw = read_body(limit)
    if not raw.strip():
        return {}
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise Rejected("bad_json")
    return data


def field(data: dict, name: str, kind: type | tuple, required: bool = True, default=None):
    """The field ``name`` of a JSON body, of type ``kind`` (a text of ASCII digits for an ``int``: the hall parses it);
    a missing or ``null`` optional one is ``default``; 422 ``bad_field`` otherwise."""
    value = data.get(name, default)
    if value is None and not required:
        return default
    if kind is int and isinstance(value, str) and is_ascii_digits(value.strip()):
        return value  # the hall parses number texts itself ("42"); "٣", "３", "²" are not digits here
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise Rejected("bad_field", field=name)
    return value


def depth_ok(raw: bytes | str, max_depth: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text nests arrays/objects at most ``max_depth`` deep (strings skipped), before parsing."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    depth = 0
    for m in _BRACKETS.finditer(_STRINGS.sub(b'""', data)):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > max_depth:
                return False
        else:
            depth -= 1
    return True


def parse_json(raw: bytes | str) -> object:
    """The JSON value of ``raw``; raises 400 ``bad_json`` for bad text, ``NaN``/``Infinity`` or deep nesting."""
    if not depth_ok(raw):
        raise Rejected("bad_json", why="depth")
    try:
        return json.loads(raw, parse_constant=_refuse_constant, parse_float=_number)
    except (ValueError, RecursionError):
        raise Rejected("bad_json") from None


def _number(text: str) -> float | int:
    """A JSON number written with a fraction or an exponent: an integer when it is one (``30.0`` is 30, as JSON
    Schema reads it, so a count or a ball sent as ``30.0`` is the count 30), else a float."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) <= 2**53 else value


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def finite(value: object) -> object:
    """``value`` with every non-finite float replaced by ``None`` (a journal written before the check)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def strict_dumps(obj: object, **kwargs: Any) -> str:
    """``json.dumps`` that never writes ``NaN``/``Infinity``: such a value (only possible from an old journal)
    becomes ``null`` and is logged, so one bad value can never blind the screens. ``kwargs`` are ``json.dumps``'s
    own (of every type), passed on as they are."""
    kwargs["allow_nan"] = False
    try:
        return json.dumps(obj, **kwargs)
    except ValueError:
        log.error("valeur non finie dans une réponse JSON : remplacée par null")
        return json.dumps(finite(obj), **kwargs)


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with ``allow_nan=False`` (see ``strict_dumps``) and depth-limited loading."""

    def dumps(self, obj: object, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        kwargs.setdefault("ensure_ascii", self.ensure_ascii)
        kwargs.setdefault("sort_keys", self.sort_keys)
        return strict_dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: object) -> object:
        return parse_json(s)


class SocketJSON:
    """The ``json`` module handed to Flask-SocketIO / python-socketio: strict out, depth-limited in."""

    @staticmethod
    def dumps(obj: object, **kwargs: Any) -> str:
        return strict_dumps(obj, **kwargs)

    @staticmethod
    def loads(s: str | bytes, **kwargs: object) -> object:
        if not depth_ok(s):
            raise ValueError("JSON nested too deep")
        return json.loads(s, parse_constant=_refuse_constant)
