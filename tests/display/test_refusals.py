"""One refusal type and one catalogue: each ``area/code`` declared once with its status and its sentence, the
wire keeping the public code (INTERFACE §4); two areas' codes of one name say each their own sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask_babel import lazy_gettext as _l

from display.errors import DuplicateCode, declare, declared, error_body, status_of
from hall.cartons.card_ids import make_card_id
from hall.refusal import Rejected
from tests.display.conftest import PINS

ROOT = Path(__file__).resolve().parents[2]


def test_a_code_declared_a_second_time_is_refused():
    """Two parts giving one code two sentences (the rooms' bad_name over the desk's) fail at import."""
    import display.app  # noqa: F401  (every area's catalogue, as the app has it)

    before = declared("range_too_large")
    with pytest.raises(DuplicateCode, match="range_too_large"):
        declare("loto", {"range_too_large": (422, _l("Trop de cartons d'un coup : %(count)s demandés."))})
    with pytest.raises(DuplicateCode, match="bad_name"):
        declare("rooms", {"bad_name": (422, _l("Nom refusé."))})
    assert declared("range_too_large") is before  # the first declaration stands, alone


def test_no_module_writes_a_refusal_table_of_its_own():
    """Codes reach the catalogue only through declare(): no flat table mutated at import by several modules."""
    writers = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in (ROOT / "display").rglob("*.py")
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"\b(STATUS|MESSAGES)(\.update\(|\[\"|\s*=\s*\{)", line)
    ]
    assert writers == []


def test_one_type_whoever_refuses():
    """The loto core's, the mini-games', the tournament's and the web's refusals are one type; the area is
    internal, the code on the wire is the public one."""
    from hall.minigames.lobby import Lobby, LobbySettings
    from hall.minigames.osga.tournament import Day, apply_event

    with pytest.raises(Rejected) as rooms:
        Lobby(LobbySettings()).room("ZZZZ")
    with pytest.raises(Rejected) as tournament:
        apply_event(Day(), "start", {})
    assert (rooms.value.area, rooms.value.code) == ("rooms", "unknown_room")
    assert (tournament.value.area, tournament.value.key) == ("tournoi", f"tournoi/{tournament.value.code}")
    assert Rejected("no_partie").key == "loto/no_partie"
    assert error_body("rooms/unknown_room")["error"] == "unknown_room" and status_of("rooms/unknown_room") == 404


def test_a_sale_with_a_long_buyer_name_says_the_desk_s_limit(room, client):
    """The desk keeps 80 characters of a buyer's name: its refusal says so, not the rooms' « de 1 à 20 »."""
    res = client.post(
        "/api/sales",
        json={"cards": [make_card_id("A", 1)], "amount_eur": 3, "payment": "especes", "buyer": "x" * 500},
        headers=room.headers("desk"),
    )
    body = res.get_json()
    assert res.status_code == 422 and body["error"] == "bad_name"
    assert "80" in body["message"] and "Prénom" not in body["message"] and "20" not in body["message"]
    assert room.hall.sales() == ()  # refused whole: nothing sold


def test_a_room_s_first_name_keeps_the_rooms_sentence(hall_room):
    client = hall_room.app.test_client()
    code = client.post("/api/games/rooms", json={"game": "lobo77"}, headers=hall_room.headers("speaker")).get_json()[
        "code"
    ]
    res = client.post(f"/api/games/rooms/{code}/join", json={"name": "y" * 30})
    assert res.status_code == 422 and res.get_json()["error"] == "bad_name"
    assert "20" in res.get_json()["message"]


def test_range_too_large_has_one_sentence_at_every_door(room, client):
    """The sales desk's count, a sold range, the caisse's range and the planches' range: one code, one sentence,
    filled with the limit (two texts were declared, the second silently replacing the first)."""
    desk = room.headers("desk")
    huge = f"{make_card_id('A', 1)}..{make_card_id('A', 99999)}"
    answers = [
        client.post("/api/cards/sold", json={"ranges": huge}, headers=desk),
        client.post("/api/sales", json={"range": huge, "payment": "especes"}, headers=desk),
        client.get(f"/api/cards.pdf?range={huge}", headers=room.headers("admin")),
    ]
    bodies = [a.get_json() for a in answers]
    assert [a.status_code for a in answers] == [422, 422, 422]
    assert {b["error"] for b in bodies} == {"range_too_large"}
    for body in bodies:
        assert re.fullmatch(r"Trop de cartons d'un coup \(\d+ au plus\) : vérifiez la plage\.", body["message"]), body


def _boot(html: str) -> dict:
    import json

    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', html, re.S)
    assert found, html[:300]
    return json.loads(found.group(1))


def test_every_page_forgets_a_role_whose_session_ended(room):
    """One page renderer: the rooms' phone page too shows no role and no CSRF token once the speaker's session
    is ended (its PIN changed), as the loto's and the tournament's pages do."""
    browser = room.app.test_client()
    assert browser.post("/api/login", json={"pin": PINS["speaker_pin"]}).status_code == 200
    before = {page: _boot(browser.get(page).get_data(as_text=True)) for page in ("/j", "/speaker")}
    assert all(b["role"] == "speaker" and b["csrf"] for b in before.values())
    changed = room.app.test_client().post(
        "/api/pins", json={"role": "speaker", "pin": "271828"}, headers=room.headers("admin")
    )
    assert changed.status_code == 201 and changed.get_json()["sessions_ended"] == 1
    after = {page: _boot(browser.get(page).get_data(as_text=True)) for page in ("/j", "/speaker")}
    assert all(b["role"] is None and b["csrf"] is None for b in after.values()), after
