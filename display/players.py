"""« Mes cartons » (INTERFACE §9): a player's own paper cartons followed on their phone.

The pages ``/mes-cartons``, ``/c/{card_id}`` (a printed carton's QR code) and ``/s/{code}`` (a sale's QR code on
/caisse) are one page; the phone keeps its list in the browser (no account, no name) and marks its cartons itself
from the public events of §5, so a fan-out worker serves it unchanged. The hall answers two requests:
``POST /api/players/cards`` (the grids of the cartons a phone follows) and ``POST /api/players/call`` (a
« Quine ! » sent to the speaker's console). Both are bounded and refused before any work: a crowd of phones must
never stop the speaker, so linking reads the immutable card book without the hall's lock and takes it once, for a
few set lookups (bench/bench_players.py measures it).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import OrderedDict, deque

from flask import Blueprint, jsonify, request

from display import auth as A
from display import holders, views
from display.current import hall
from display.errors import error_body
from display.limits import field, json_body
from display.page_words import js_strings
from display.pages import render_page
from display.qrcode_svg import qr_response
from display.services import services
from hall import LOT_KINDS, MAX_CARD_CODE_TEXT, MAX_CARD_TEXT, display_card_id, kinds_table
from hall.config import HELP_LEVELS
from hall.refusal import Code, Rejected

bp = Blueprint("players", __name__)

LINKS_PER_MINUTE = 30  # linking requests one address makes (a plaque of 12 scanned one by one: 12)
LINKS_PER_SECOND = 30  # linking requests the hall serves, all phones together (~6 ms each on a Pi 4 core)
BUSY_WAIT_S = (2.0, 60.0)  # a phone turned away comes back after a random wait in this range, the longer the queue
CALLS_EVERY_S = 20.0  # one « Quine ! » call a carton in this many seconds (an address: 3 at once, then the same)
ADDRESSES_KEPT = 4096  # addresses remembered by a budget (the oldest is forgotten first)
FOLLOWS_PER_S = 10.0  # asks for followed cartons one address makes (a relay asks for a batch of new keys at a time)


class Budget:
    """A token bucket per key (an address, a carton): ``rate`` a second, ``burst`` at once. Bounded memory."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self._rate, self._burst, self._clock = rate, burst, clock
        self._lock = threading.Lock()
        self._keys: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> float:
        """0 when ``key`` may act now (one token spent), else the seconds to wait."""
        now = self._clock()
        with self._lock:
            tokens, at = self._keys.pop(key, (self._burst, now))
            tokens = min(self._burst, tokens + (now - at) * self._rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self._rate
            self._keys[key] = (tokens - 1 if wait == 0 else tokens, now)
            while len(self._keys) > ADDRESSES_KEPT:
                self._keys.popitem(last=False)
        return wait

    def give_back(self, key: str) -> None:
        """The token ``key`` just spent, returned (what it paid for did not happen)."""
        with self._lock:
            found = self._keys.get(key)
            if found is not None:
                self._keys[key] = (min(self._burst, found[0] + 1), found[1])


class LinkGate:
    """The hall's door for linking, in front of the web app, in fair shares: a phone's link first spends its own
    address's budget (``LINKS_PER_MINUTE``: over it, ``429 too_many_links``), and only a link its address may make
    spends the hall's (``LINKS_PER_SECOND`` for all phones together: beyond it, ``429 hall_busy`` with a random
    ``retry_after`` that grows with the crowd turned away, and the address's token back). One address looping can
    thus take at most its own share of the hall's links, never the others'. Both answers come before Flask reads
    the request, so a hall of phones scanning at once keeps the speaker's share of the Pi's one core. The page waits
    and tries again by itself, saying so in its own words; the body's ``message`` is the catalogue's sentence in
    French (no request, so no reader's language, exists this early)."""

    PATHS = ("/api/players/cards",)
    SPENT = "loto.link_spent"  # set in the environ of a link the door let in: its address's token is spent

    def __init__(self, app, rate: float = LINKS_PER_SECOND, clock=time.monotonic):
        self._app = app
        self._clock = clock
        self._turned: deque[float] = deque()  # when phones were turned away, the last minute's
        self._lock = threading.Lock()
        self.links = Budget(LINKS_PER_MINUTE / 60, LINKS_PER_MINUTE, lambda: self._clock())  # per address
        self.set_rate(rate)

    def set_rate(self, rate: float) -> None:
        """Links served a second, all phones together (a faster machine may serve more)."""
        self._rate = rate
        self._budget = Budget(rate, rate, lambda: self._clock())

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") not in self.PATHS:
            return self._app(environ, start_response)
        address = environ.get("REMOTE_ADDR") or "?"
        wait = self.links.take(address)
        if wait:  # its own budget: the hall's is not touched
            return _refuse(start_response, "too_many_links", int(wait) + 1)
        if not self._budget.take("hall"):
            environ[self.SPENT] = True
            return self._app(environ, start_response)
        self.links.give_back(address)  # turned away by the crowd, not by its own budget
        now = self._clock()
        with self._lock:
            while self._turned and now - self._turned[0] >= 60:
                self._turned.popleft()
            self._turned.append(now)
            queue_s = len(self._turned) / self._rate
        low, high = BUSY_WAIT_S
        return _refuse(start_response, "hall_busy", int(low + random.random() * min(high - low, queue_s)) + 1)


def _refuse(start_response, code: str, retry: int) -> list[bytes]:
    body = json.dumps(error_body(code, {"retry_after": retry})).encode()
    start_response(
        "429 Too Many Requests",
        [
            ("Content-Type", "application/json"),
            ("Retry-After", str(retry)),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
        ],
    )
    return [body]


def _budgets() -> dict[str, Budget]:
    return services().player_budgets


def budgets(gate: LinkGate) -> dict[str, Budget]:
    """An app's budgets of « Mes cartons »: links (the door's, per address), « Quine ! » calls and cartons shown."""
    return {
        "links": gate.links,
        "calls": Budget(1 / CALLS_EVERY_S, 3),
        "cards": Budget(1 / CALLS_EVERY_S, 1),
        "follows": Budget(FOLLOWS_PER_S, 2 * FOLLOWS_PER_S),  # a relay's asks (display/cartons.py), per address
    }


def _spend(budget: str, key: str, code: Code) -> None:
    wait = _budgets()[budget].take(key)
    if wait:
        raise Rejected(code, retry_after=int(wait) + 1)


def _address() -> str:
    return request.remote_addr or "?"


# ---- the page ----------------------------------------------------------------------------------------------


def _page(link: list[dict] | None = None, link_error: str | None = None, status: int = 200):
    h = hall()
    boot = {
        "columns": h.config.cards.columns,
        "kinds": list(LOT_KINDS),
        "lot_kinds": kinds_table(),
        "link": link or [],
        "link_error": link_error,
        "socket_path": services().public_socket_path,
    }  # a hall with relays: there
    return render_page(
        "mes_cartons.html", "mes-cartons", js_strings(), boot=boot, status=status, hall_name=h.config.hall.name
    )


@bp.get("/mes-cartons")
def mes_cartons():
    return _page()


@bp.get("/c/<path:card_id>")
def link_card(card_id: str):
    """A printed carton's QR code (``?k=`` its code): the page adds that carton to the phone's list (the page reads
    it); without the code the page asks for it, and shows nothing of the carton."""
    return _page(link=[{"card_id": card_id[:MAX_CARD_TEXT], "code": request.args.get("k", "")[:MAX_CARD_CODE_TEXT]}])


@bp.get("/s/<code>")
def link_sale(code: str):
    """A sale's QR code on /caisse: every carton of that sale, for that sale only (an unguessable code)."""
    try:
        _spend("links", _address(), "too_many_links")
    except Rejected as exc:
        return _page(link_error=exc.code, status=429)
    try:
        cards = list(hall().sale_cards(code[:40]))
    except Rejected:
        return _page(link_error="unknown_sale", status=404)
    return _page(link=[{"card_id": cid, "code": hall().card_code(cid)} for cid in cards])  # the sale's code proves it


@bp.get("/s/<code>/qr.svg")
def sale_qr(code: str):
    """The sale's QR code as /caisse shows it: the hall's address of ``/s/{code}``."""
    try:
        hall().sale_cards(code[:40])
    except Rejected:
        raise Rejected("unknown_sale") from None
    url = hall().config.hall_link(f"s/{code}")
    return qr_response(url, border=4, headers={"X-Link-Url": url})  # made once per sale, with its ETag


# ---- the API ----------------------------------------------------------------------------------------------


@bp.post("/api/players/cards")
def players_cards():
    """``{"card_ids": [text…]}`` (at most ``max_cards``) → each carton's grid, or why not (INTERFACE §9)."""
    h = hall()
    players = h.players()
    if players.help == "off":
        raise Rejected("players_off")
    if not request.environ.get(LinkGate.SPENT):  # the door spent it (always, in the app create_app builds)
        _spend("links", _address(), "too_many_links")
    asked = holders.items(json_body().get("card_ids"), players.max_cards)  # the body's 64 KiB bound their length
    cards: list[dict] = []
    refused: list[dict] = []
    seen: set[str] = set()
    for (_text, code), linked in zip(asked, h.link_cards([text for text, _ in asked])):
        if (linked.grid is not None or linked.refusal == "unsold_card") and not holders.holds(h, linked.card_id, code):
            # neither the grid nor whether it was sold, to a phone that does not show it holds the paper
            refused.append({"card_id": linked.card_id, "text": linked.text[:40], "error": "bad_card_code"})
            continue
        if linked.grid is not None:
            if linked.card_id not in seen:
                seen.add(linked.card_id)
                cards.append(
                    {
                        "card_id": linked.card_id,
                        "display_id": display_card_id(linked.card_id),
                        "rows": [list(row) for row in linked.grid],
                        "code": h.card_code(linked.card_id),
                        "follow": h.follow_key(linked.card_id),  # its verdicts, on the socket (display/cartons.py)
                    }
                )
            continue
        item: dict[str, object] = {"card_id": linked.card_id, "text": linked.text[:40], "error": linked.refusal}
        if linked.refusal == "unknown_card":
            item["suggestions"] = list(linked.suggestions)
        refused.append(item)
    return jsonify({"cards": cards, "refused": refused})


@bp.post("/api/players/call")
def players_call():
    """« Quine ! » from a phone: the speaker's console hears which carton and on which ball; 202, else why not."""
    h = hall()
    snap = h.snapshot()
    if snap.players.help == "off" or not snap.players.phone_call:
        raise Rejected("phone_call_off")
    data = json_body()
    text, code = field(data, "card_id", str), field(data, "code", str, required=False, default="")
    if len(text) > MAX_CARD_TEXT:
        raise Rejected("bad_field", field="card_id")
    _spend("calls", _address(), "too_many_calls")
    linked = h.link_cards([text])[0]
    if (linked.grid is not None or linked.refusal == "unsold_card") and not holders.holds(h, linked.card_id, code):
        raise Rejected("bad_card_code", card_id=linked.card_id[:40])
    if linked.grid is None:
        raise Rejected(linked.refusal or "unknown_card", card_id=linked.card_id[:40])
    p = snap.running
    lot = p.lots[p.current] if p is not None and p.current is not None else None
    verdict = h.verdict_now(linked.card_id)  # the controllers' own check (its rows paid by kind), never journalled
    if p is None or lot is None or verdict is None or verdict.kind != "valid":
        raise Rejected("not_complete", card_id=linked.card_id)
    _spend("cards", linked.card_id, "too_many_calls")  # one call a carton, whatever phone makes it
    h.notify(
        "players:call",
        {
            "card_id": linked.card_id,
            "ball": p.last,
            "index": len(p.draws),
            "lot": {"kind": lot.kind, "label": lot.label},
            "partie": p.number,
        },
    )
    return jsonify({"card_id": linked.card_id, "ball": p.last}), 202


@bp.post("/api/admin/players")
def set_players():
    """The hall's help to the phones, changed on /admin for every phone at once (journalled)."""
    role = A.require_right("edit_players")
    data = json_body()
    now = hall().players()
    given = {k: v for k, v in data.items() if v is not None}  # a null is a field left out, as everywhere
    help_level = given.get("help", now.help)
    if not isinstance(help_level, str) or help_level not in HELP_LEVELS:
        raise Rejected("bad_field", field="help")
    record = hall().set_players(
        role=role,
        help=help_level,
        one_to_go=given.get("one_to_go", now.one_to_go),
        phone_call=given.get("phone_call", now.phone_call),
        max_cards=given.get("max_cards", now.max_cards),
    )
    return jsonify({**views.players(record.event), "seq": record.seq})
