"""The wire contract (INTERFACE §4–§5) byte for byte: every endpoint's JSON and every socket event of a scripted
evening, compared with a golden file recorded on the code before the door into ``Hall`` was narrowed.

Regenerate (only for an intended change of the contract): ``LOTO_GOLDEN_WRITE=1 pytest tests/display/test_wire_golden.py``.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from pathlib import Path

from display.services import services_of
from hall.cartons.card_ids import make_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.display.conftest import A1, A2, A3, CARDS, PINS

GOLDEN = Path(__file__).with_name("golden_wire.json")
A4 = make_card_id("A", 4)


def _clock():
    counter = itertools.count()
    return lambda: f"2026-11-21T20:{next(counter) // 60:02d}:{next(counter) % 60:02d}.000+00:00"


def _room(tmp_path):
    from tests.display.conftest import make_app

    raw = {
        "hall": {
            "name": "Salle des fêtes de Test",
            "data_dir": str(tmp_path),
            "prices": "1 carton 3 € · 6 cartons 15 €",
        },
        "auth": dict(PINS),
        "programme": {
            "partie": [
                {
                    "lots": [
                        {"kind": "quine", "label": "Panier garni"},
                        {"kind": "double_quine", "label": "Jambon"},
                        {"kind": "carton_plein", "label": "Bon d'achat 100 €"},
                    ],
                    "consolation": "Bouteille de cidre",
                }
            ]
        },
    }
    config = parse_config(raw)
    cards = dict(CARDS)
    cards[A4] = "6 14 33 43 73 / 7 24 34 44 74 / 8 25 35 46 75"
    book = CardBook({cid: Card.parse(text) for cid, text in cards.items()})
    hall = Hall(
        config,
        Journal(tmp_path / "journal.sqlite"),
        book,
        voucher_secret=b"k" * 32,
        clock=_clock(),
        rng=random.Random(3),
    )
    app, socketio = make_app(hall, config)
    app.config["TESTING"] = True
    return hall, app, socketio


def _scrub(value, tmp: str):
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    text = text.replace(tmp, "<data_dir>")
    text = re.sub(r'"(token|csrf)": "[^"]+"', r'"\1": "<secret>"', text)
    # the journal's fingerprint hashes the login sessions' references, new at each run
    text = re.sub(
        r'"fingerprint": \{"shown": "[^"]+", "hash": "[^"]+"', '"fingerprint": {"shown": "<fp>", "hash": "<hash>"', text
    )
    text = re.sub(r'"journal": \{"partie": (\d+), "shown": "[^"]+"', r'"journal": {"partie": \1, "shown": "<fp>"', text)
    return json.loads(text)


def record_evening(tmp_path) -> list:
    """Play a scripted evening through the API with every kind of socket listening; return what went over the wire."""
    hall, app, socketio = _room(tmp_path)
    http = app.test_client()
    tokens = {}
    for role in ("speaker", "controller", "desk", "admin"):
        # a browser of its own per role: a new login in the same cookie jar ends the session before it
        tokens[role] = app.test_client().post("/api/login", json={"pin": PINS[f"{role}_pin"]}).get_json()["token"]
    http = app.test_client()  # no cookie: every call carries its Bearer token
    sockets = {
        "public": socketio.test_client(app, flask_test_client=app.test_client()),
        "controller": socketio.test_client(
            app, auth={"token": tokens["controller"]}, flask_test_client=app.test_client()
        ),
        "speaker": socketio.test_client(app, auth={"token": tokens["speaker"]}, flask_test_client=app.test_client()),
    }
    out: list = []

    def flush():
        assert services_of(app).sockets.broadcaster.wait_idle(5)  # emissions go out on their own thread
        for who, client in sockets.items():
            for got in client.get_received():
                if got["name"] != "beat":  # a liveness beat when the hall is quiet for ping_s: timing, not contract
                    out.append(["socket", who, got["name"], got["args"]])

    def call(method: str, path: str, role: str | None = None, body=None, raw: bytes | None = None):
        headers = {"Authorization": f"Bearer {tokens[role]}"} if role else {}
        kwargs = {"data": raw, "content_type": "text/csv"} if raw is not None else {"json": body}
        resp = getattr(http, method)(path, headers=headers, **kwargs)
        data = resp.get_json() if resp.is_json else resp.get_data(as_text=True)
        out.append(["http", method.upper(), path, role, resp.status_code, data])
        flush()
        return data

    flush()
    call("get", "/api/state")
    call("get", "/api/speaker/state", "speaker")
    call("post", "/api/draws", "speaker", {"number": 4})  # no partie
    call("post", "/api/partie/start", "controller", {})  # forbidden
    call("post", "/api/partie/start", "speaker", {})
    call("get", "/api/state")
    for n in (4, 5, 13):
        call("post", "/api/draws", "speaker", {"number": n})
    call("post", "/api/draws", "speaker", {"number": 13})  # already drawn
    call("post", "/api/draws", "speaker", {"number": "abc"})  # out of range
    call("post", "/api/draws/undo", "speaker")
    call("post", "/api/draws/undo", "speaker")  # twice in a row
    call("post", "/api/draws", "speaker", {"number": "13"})
    hall.propose(37, role="device")
    flush()
    call("get", "/api/speaker/state", "speaker")
    call("post", "/api/draws/reject", "speaker")
    hall.propose(36, role="device")
    flush()
    call("post", "/api/draws/confirm", "speaker", {"number": 37})  # a misread 36 that was a 37
    call("post", "/api/cards/sold", "desk", {"ranges": A4, "sold": False})
    for n in (52, 80):
        call("post", "/api/draws", "speaker", {"number": n})
    call("post", "/api/claims/announce", "controller")
    call("post", "/api/draws", "speaker", {"number": 1})  # locked
    call("post", "/api/claims", "controller", {"card_id": A3})  # incomplete
    call("post", "/api/claims", "controller", {"card_id": "Z-999"})  # unknown
    call("post", "/api/claims", "controller", {"card_id": A4})  # unsold
    call("post", "/api/draws/resume", "speaker")
    call("post", "/api/claims/announce", "speaker")
    call("post", "/api/claims", "controller", {"card_id": A1})  # valid
    call("post", "/api/claims", "speaker", {"card_id": A2.lower()})  # valid: a tie
    call("get", "/api/speaker/state", "speaker")
    call("post", "/api/partie/clear", "speaker", {"force": True})  # claims pending
    call("post", "/api/lots/award", "speaker", {})
    call("post", "/api/draws", "speaker", {"number": 9})  # held: the draw waits after an award
    call("post", "/api/draws/resume", "speaker")
    call("get", f"/api/cards/{A1}", "controller")
    call("get", "/api/cards/Z-999", "controller")
    for n in (9, 21, 45, 66, 84, 1):
        call("post", "/api/draws", "speaker", {"number": n})
    call("post", "/api/claims", "controller", {"card_id": A1})  # missed: 84 made it, 1 came after
    call("post", "/api/draws/resume", "speaker")
    call("get", "/api/speaker/state", "speaker")
    call("post", "/api/partie/clear", "speaker", {})  # lots remaining
    call("post", "/api/partie/clear", "speaker", {"force": True})
    call("get", "/api/state")
    call("get", "/api/speaker/state", "speaker")
    award = next(x for x in out if x[0] == "http" and x[2] == "/api/lots/award")
    codes = award[5]["vouchers"]
    call("post", f"/api/vouchers/{codes[0]}/redeem", "desk")
    call("post", f"/api/vouchers/{codes[0]}/redeem", "desk")  # twice
    call("post", "/api/vouchers/AAAA-BBBB/redeem", "desk")  # forged
    call("post", f"/api/vouchers/{codes[1]}/reprint", "speaker")
    call("post", "/api/cards/generate", "admin", {"count": 2, "series": "B", "seed": 7})
    call("get", "/api/cards.csv", "admin")
    call("get", "/api/admin", "admin")
    call("post", "/api/devices/printer/test", "admin")
    call("post", "/api/partie/start", "speaker", {"lots": [{"kind": "quine"}], "consolation": "Un café"})
    call("post", "/api/partie/start", "speaker", {})  # partie running
    call("get", "/api/state")
    for client in sockets.values():
        client.emit("resync")
    flush()
    for client in sockets.values():
        client.disconnect()
    hall.journal.close()
    return _scrub(out, str(tmp_path))


def test_every_endpoint_and_socket_event_is_byte_identical_to_the_golden_file(tmp_path):
    everything = record_evening(tmp_path)
    # ``console`` (the speaker room's staff-only part after each record) is new with the events strategy:
    # the golden file holds what existed before it, byte for byte; the console's updates are checked below
    got = [x for x in everything if x[:3] != ["socket", "speaker", "console"]]
    consoles = [x[3][0] for x in everything if x[:3] == ["socket", "speaker", "console"]]
    records = [
        x
        for x in everything
        if x[:2] == ["socket", "speaker"]
        and isinstance(x[3][0], dict)
        and "seq" in x[3][0]
        and x[2] not in ("state", "console")
    ]
    assert len(consoles) == len(records) > 30
    # the full console after each record (an award and its vouchers, one transaction: each sees all three)
    assert all(c["seq"] >= r[3][0]["seq"] for c, r in zip(consoles, records))
    assert consoles[-1]["seq"] == records[-1][3][0]["seq"]
    assert consoles[-1]["next_partie"] is None and consoles[-1]["pending_claims"] == []
    if os.environ.get("LOTO_GOLDEN_WRITE"):
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        # key order is part of the bytes: compare the serialised text, not only the values
        assert json.dumps(g, ensure_ascii=False) == json.dumps(w, ensure_ascii=False), (i, w[:4])
