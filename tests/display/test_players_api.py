"""« Mes cartons » at the API (INTERFACE §9): the hall's help changed on /admin (journalled, for every phone at
once, on the public socket), the per-address bounds refused before any work, linking that never waits for the
hall's lock on a near miss, the phone's call reaching the speaker's console with its ball."""

from __future__ import annotations

import threading

import pytest

from display.players import Budget
from display.services import services_of
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.display.conftest import A1, A2, make_room
from tests.display.test_sockets import close, connect, receive


@pytest.fixture
def calling(tmp_path):
    room = make_room(tmp_path, extra={"players": {"phone_call": True}})
    yield room
    room.hall.journal.close()


def test_the_help_is_set_on_admin_journalled_and_kept(tmp_path, room, client):
    res = client.post("/api/admin/players", json={"help": "tap", "one_to_go": False}, headers=room.headers("admin"))
    assert res.status_code == 200 and res.get_json()["help"] == "tap"
    assert client.get("/api/state").get_json()["players"] == {
        "help": "tap",
        "one_to_go": False,
        "phone_call": False,
        "max_cards": 24,
    }
    assert client.post("/api/admin/players", json={"help": "auto"}, headers=room.headers("speaker")).status_code == 403
    assert client.post("/api/admin/players", json={"help": "all"}, headers=room.headers("admin")).status_code == 422
    assert client.post("/api/admin/players", json={"max_cards": 49}, headers=room.headers("admin")).status_code == 422
    assert (
        client.post("/api/admin/players", json={"one_to_go": "yes"}, headers=room.headers("admin")).status_code == 422
    )
    assert [r.type for r in room.hall.journal.records()].count("players:set") == 1
    room.hall.journal.close()
    again = Hall(room.config, Journal(tmp_path / "journal.sqlite"), room.hall.book, voucher_secret=b"k" * 32)
    assert again.snapshot().players.help == "tap" and again.snapshot().players.one_to_go is False
    again.journal.close()


def test_the_config_sets_the_help_and_refuses_what_it_cannot_be(tmp_path):
    from hall.config import ConfigError, parse_config

    assert parse_config({"players": {"help": "board", "max_cards": 12}}).players.max_cards == 12
    for bad in ({"help": "all"}, {"max_cards": 0}, {"max_cards": 49}, {"phone_call": "yes"}):
        with pytest.raises(ConfigError):
            parse_config({"players": bad})


def test_every_phone_hears_the_change_on_the_public_socket(live):
    phone = connect(live)
    try:
        name, state = receive(phone, "state")
        assert state["players"]["help"] == "auto"
        live.hall.set_players(role="admin", help="board", one_to_go=True, phone_call=False, max_cards=24)
        name, ev = receive(phone, "players")
        assert ev == {"help": "board", "one_to_go": True, "phone_call": False, "max_cards": 24, "seq": state["seq"] + 1}
    finally:
        close(phone)


def test_linking_is_bounded_per_address_before_any_work(room, client):
    services_of(room.app).link_gate.set_rate(1e6)  # the whole hall's door wide open: one address only
    for _ in range(30):
        assert client.post("/api/players/cards", json={"card_ids": [A1]}).status_code == 200
    res = client.post("/api/players/cards", json={"card_ids": [A1]})
    assert (res.status_code, res.get_json()["error"]) == (429, "too_many_links")
    other = room.app.test_client()
    ok = other.post("/api/players/cards", json={"card_ids": [A1]}, environ_base={"REMOTE_ADDR": "10.42.0.77"})
    assert ok.status_code == 200  # another phone is not held back


def test_a_crowd_is_turned_away_at_the_door_before_flask_reads_a_byte(room, client):
    """Beyond the hall's links a second, all phones together: 429 hall_busy with a wait, whatever the body."""
    now = [0.0]
    services_of(room.app).link_gate._clock = lambda: now[0]
    services_of(room.app).link_gate.set_rate(5)
    answers = [
        client.post(
            "/api/players/cards",
            data=b"not even JSON",
            content_type="application/json",
            environ_base={"REMOTE_ADDR": f"10.42.1.{i}"},
        )
        for i in range(8)
    ]
    assert [a.status_code for a in answers] == [400] * 5 + [429] * 3
    busy = answers[-1].get_json()
    assert busy["error"] == "hall_busy" and 2 <= busy["retry_after"] <= 61 and answers[-1].headers["Retry-After"]
    assert client.post("/api/draws", json={"number": 4}, headers=room.headers("speaker")).status_code != 429
    now[0] += 1.0  # a second later, five more come in
    assert client.post("/api/players/cards", json={"card_ids": [A1]}).status_code == 200


def test_one_address_looping_cannot_take_the_other_phones_share_of_the_door(room, client):
    """Fair shares: an attacker's address looping 100 links a second for 20 s spends the hall's links only for what
    its own budget allows (30, then one every 2 s); the 20 phones of other addresses that link meanwhile all get
    their cartons at the first try (before: 2 of 20 within 20 s, the others turned away as ``hall_busy``)."""
    gate = services_of(room.app).link_gate
    now = [0.0]
    gate._clock = lambda: now[0]
    served = {"attacker": 0, "phones": 0}
    statuses: list[int] = []
    for step in range(200):  # 20 s in steps of 0.1 s
        now[0] = step / 10
        for _ in range(10):
            res = client.post("/api/players/cards", json={"card_ids": [A1]}, environ_base={"REMOTE_ADDR": "10.0.0.66"})
            served["attacker"] += res.status_code == 200
        if step % 10 == 5:  # a phone every second
            res = client.post(
                "/api/players/cards", json={"card_ids": [A1]}, environ_base={"REMOTE_ADDR": f"10.0.1.{step // 10}"}
            )
            statuses.append(res.status_code)
    assert statuses == [200] * 20, statuses
    assert served["attacker"] <= 30 + 20 / 2 + 1


def test_the_door_words_hall_busy_from_the_one_catalogue(room, client, monkeypatch):
    """Before Flask, no reader's language: the 429's sentence is the catalogue's, in French, as every refusal's."""
    from display import errors

    monkeypatch.setitem(errors._CODES, "loto/hall_busy", errors.Declared(429, "Patientez : %(retry_after)s s."))
    services_of(room.app).link_gate.set_rate(1e-9)  # the door shut: the very first link is turned away
    busy = client.post("/api/players/cards", json={"card_ids": [A1]}, headers={"Accept-Language": "en"})
    body = busy.get_json()
    assert busy.status_code == 429 and body["message"] == f"Patientez : {body['retry_after']} s."
    assert body == errors.error_body("hall_busy", {"retry_after": body["retry_after"]})


def test_a_list_longer_than_max_cards_is_refused_whole(tmp_path):
    room = make_room(tmp_path, extra={"players": {"max_cards": 2}})
    client = room.app.test_client()
    res = client.post("/api/players/cards", json={"card_ids": [A1, A2, "A-3"]})
    assert (res.status_code, res.get_json()["error"], res.get_json()["max"]) == (422, "too_many_cards", 2)
    assert client.post("/api/players/cards", json={"card_ids": "A-1"}).status_code == 422
    assert client.post("/api/players/cards", json={"card_ids": [3]}).status_code == 422
    room.hall.journal.close()


def test_a_near_miss_is_read_without_the_halls_lock(room):
    """The speaker's lock is held (a draw being journalled): a phone's unknown carton is still answered."""
    answered = threading.Event()
    with room.hall._writer._lock:
        t = threading.Thread(target=lambda: (room.hall.link_cards([A1[:-1] + "Z"]), answered.set()))
        t.start()
        assert answered.wait(5)
    t.join()


def test_the_budget_refills_and_forgets_old_addresses():
    now = [0.0]
    b = Budget(rate=0.5, burst=2, clock=lambda: now[0])
    assert b.take("a") == 0 and b.take("a") == 0 and b.take("a") == pytest.approx(2.0)
    now[0] += 2.0
    assert b.take("a") == 0


def test_a_phone_call_reaches_the_speakers_console_with_its_ball(calling):
    from tests.display.conftest import LiveServer

    server = LiveServer(calling.app)
    calling.url = server.url
    speaker = connect(calling, "speaker")
    client = calling.app.test_client()
    try:
        h = calling.hall
        h.start_partie(role="speaker")
        for n in (4, 13, 37, 52):
            h.draw(n, role="speaker")
        code = h.card_code(A1)  # the phone shows it holds the carton
        res = client.post("/api/players/call", json={"card_id": A1, "code": code})
        assert (res.status_code, res.get_json()["error"]) == (409, "not_complete")
        h.draw(80, role="speaker")
        res = client.post("/api/players/call", json={"card_id": A1.lower().replace("-", ""), "code": code.lower()})
        assert res.status_code == 202 and res.get_json() == {"card_id": A1, "ball": 80}
        while True:
            name, data = receive(speaker)
            if name == "phone_call":
                break
        assert (data["card_id"], data["ball"], data["index"], data["lot"]["kind"]) == (A1, 80, 5, "quine")
        again = client.post("/api/players/call", json={"card_id": A1, "code": code})
        assert (again.status_code, again.get_json()["error"]) == (429, "too_many_calls")
    finally:
        close(speaker)
        server.stop()


def test_no_phone_call_unless_the_hall_opens_it(room, client):
    res = client.post("/api/players/call", json={"card_id": A1})
    assert (res.status_code, res.get_json()["error"]) == (403, "phone_call_off")


def test_a_sales_code_links_that_sale_only_while_it_stands(room, client):
    sale = client.post("/api/sales", json={"cards": [A1], "amount_eur": 3}, headers=room.headers("admin")).get_json()
    other = client.post("/api/sales", json={"cards": [A2], "amount_eur": 3}, headers=room.headers("admin")).get_json()
    code, other_code = sale["phones_url"][3:], other["phones_url"][3:]
    assert room.hall.sale_cards(code) == (A1,) and room.hall.sale_cards(other_code) == (A2,)
    forged = f"{other['sale_id']}-{code.split('-')[1]}"  # one sale's MAC on another's number
    assert client.get(f"/s/{forged}").status_code == 404
    svg = client.get(f"/s/{code}/qr.svg")
    assert svg.mimetype == "image/svg+xml" and svg.headers["X-Link-Url"] == room.config.hall_link(f"s/{code}")
    assert client.post(f"/api/sales/{sale['sale_id']}/void", json={}, headers=room.headers("admin")).status_code == 200
    assert client.get(f"/s/{code}").status_code == 404  # voided: its cartons no longer link
