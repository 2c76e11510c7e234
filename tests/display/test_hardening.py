"""Issue #12 through the API: no single request can blind the screens, stall the lock or lose a carton."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest

from display.limits import SocketJSON, depth_ok
from display.login_guard import EVERYONE_FAILS, LoginGuard
from display.sessions import SessionTable
from hall.cartons.card_ids import make_card_id
from hall.config import parse_config
from hall.errors import ConfigError, JournalError
from hall.events import LotSpec
from tests.display.conftest import PINS, make_room
from tests.helpers import refused


def strict_json(resp) -> object:
    """Parse as a browser would: NaN/Infinity are not JSON."""
    return json.loads(resp.get_data(as_text=True), parse_constant=lambda name: pytest.fail(f"{name} in JSON"))


# ------------------------------------------------------------------ 2. NaN never blinds the screens
@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_nan_lot_value_is_refused_at_the_api(room, client, value):
    raw = '{"lots": [{"kind": "quine", "label": "Panier", "value_eur": %s}]}' % value
    resp = client.post("/api/partie/start", data=raw, content_type="application/json", headers=room.headers("speaker"))
    refused(resp, 400, "bad_json")
    assert room.hall.evening.running is None


@pytest.mark.parametrize("value", [-1, 10**9, "12", True])
def test_a_lot_value_must_be_a_finite_amount(room, client, value):
    resp = client.post(
        "/api/partie/start", json={"lots": [{"kind": "quine", "value_eur": value}]}, headers=room.headers("speaker")
    )
    assert resp.status_code == 422 and resp.get_json()["error"] in ("bad_field", "bad_lot")
    assert room.hall.evening.running is None


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_nan_lot_value_is_a_config_error(value):
    text = f'[[programme.partie]]\nlots = [{{kind = "quine", label = "x", value_eur = {value}}}]\n'
    import tomllib

    with pytest.raises(ConfigError, match="value_eur"):
        parse_config(tomllib.loads(text))


def test_a_nan_that_reaches_the_hall_is_never_journalled_and_every_answer_stays_strict_json(room, client):
    """Past the API's own check (a caller inside the program), the journal refuses a NaN whole: nothing is written,
    no partie starts, and the screens still read strict JSON; Socket.IO packets go through the strict encoder."""
    before = room.hall.journal.last_seq
    with pytest.raises(JournalError, match="cannot be stored"):
        room.hall.start_partie(lots=(LotSpec("quine", "Panier", float("nan")),), role="speaker")
    assert room.hall.journal.last_seq == before and room.hall.evening.running is None
    strict_json(client.get("/api/state"))
    strict_json(client.get("/api/speaker/state", headers=room.headers("speaker")))
    assert json.loads(SocketJSON.dumps({"v": float("inf"), "w": [float("nan")]})) == {"v": None, "w": [None]}
    assert room.socketio.server.packet_class.json is SocketJSON  # every Socket.IO packet goes through it


# ------------------------------------------------------------------ numbers: one notion of a digit
@pytest.mark.parametrize("count", ["²", "٣", "３", "3.0", -3, 3.5, True, "", "1e3", 20001])
def test_generate_counts_are_ascii_digits_in_bounds(room, client, count):
    resp = client.post("/api/cards/generate", json={"count": count}, headers=room.headers("admin"))
    body = refused(resp, 422, "bad_field")
    assert body["field"] == "count"
    assert len(room.hall.book) == 3


def test_generate_takes_a_digit_text(room, client):
    resp = client.post("/api/cards/generate", json={"count": "3", "series": "B"}, headers=room.headers("admin"))
    assert resp.status_code == 201 and resp.get_json()["added"] == 3


@pytest.mark.parametrize("bad", ["-1-1", "1-1", "-abc", "abc-", "a--b"])
def test_card_ids_start_and_end_with_a_letter_or_digit(room, client, bad):
    csv_text = f"card_id,row1,row2,row3\n{bad},4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n"
    refused(client.post("/api/cards/import", data=csv_text.encode(), headers=room.headers("admin")), 422, "bad_cards")
    refused(client.post("/api/claims", json={"card_id": bad}, headers=room.headers("controller")), 422, "bad_card_id")


def test_generated_and_free_form_ids_still_pass(room, client):
    csv_text = (
        "card_id,row1,row2,row3\nA-00412K,4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n"
        "table-7,4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n12,4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n"
    )
    assert client.post("/api/cards/import", data=csv_text.encode(), headers=room.headers("admin")).status_code == 201


# ------------------------------------------------------------------ 3. a range is counted before expansion
def test_a_huge_range_is_refused_before_any_work(room, client):
    room.hall.start_partie(role="speaker")
    huge = f"{make_card_id('A', 0)}..{make_card_id('A', 2_000_000)}"
    body = refused(
        client.post("/api/cards/sold", json={"ranges": huge}, headers=room.headers("desk")), 422, "range_too_large"
    )
    assert body["count"] == 2_000_001 and body["limit"] == 3
    # many small parts add up too
    parts = ",".join(f"{make_card_id('A', 1)}..{make_card_id('A', 2)}" for _ in range(3))
    refused(
        client.post("/api/cards/sold", json={"ranges": parts}, headers=room.headers("desk")), 422, "range_too_large"
    )
    assert client.post("/api/draws", json={"number": 7}, headers=room.headers("speaker")).status_code == 201
    ok = client.post(
        "/api/cards/sold",
        json={"ranges": f"{make_card_id('A', 1)}..{make_card_id('A', 3)}"},
        headers=room.headers("desk"),
    )
    assert ok.status_code == 200 and ok.get_json()["count"] == 3


# ------------------------------------------------------------------ 8. deep JSON, huge headers → 4xx
@pytest.mark.parametrize("path", ["/api/login", "/api/draws", "/api/partie/start", "/api/cards/sold"])
def test_thirty_thousand_nested_arrays_are_a_400(room, client, path):
    deep = "[" * 30000 + "]" * 30000
    for raw in (deep, '{"pin": %s}' % deep):
        resp = client.post(path, data=raw, content_type="application/json", headers=room.headers("admin"))
        refused(resp, 400, "bad_json")


def test_depth_scan_skips_brackets_inside_strings():
    assert depth_ok(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert not depth_ok(b"[" * 40)
    assert depth_ok('{"a": "\\"[[["}')


def test_a_200_kb_csv_header_is_refused_not_a_500(room, client):
    header = "card_id," + "x" * 200_000 + "\n"
    resp = client.post("/api/cards/import", data=header.encode(), headers=room.headers("admin"))
    assert resp.status_code in (413, 422) and resp.get_json()["error"] in ("bad_cards", "too_large")
    assert len(room.hall.book) == 3


def test_a_json_body_over_64_kib_is_a_413(room, client):
    resp = client.post("/api/login", data=json.dumps({"pin": "1" * 70_000}), content_type="application/json")
    refused(resp, 413, "too_large")


# ------------------------------------------------------------------ 1. a retried draw is applied once
def test_a_retried_draw_answers_the_first_result(room, client):
    sp = room.headers("speaker")
    room.hall.start_partie(role="speaker")
    first = client.post("/api/draws", json={"number": 12, "request_id": "console-0001"}, headers=sp)
    again = client.post("/api/draws", json={"number": 12, "request_id": "console-0001"}, headers=sp)
    assert first.status_code == again.status_code == 201 and first.get_json() == again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert room.hall.evening.running.draws == [12]
    by_header = client.post("/api/draws", json={"number": 13}, headers={**sp, "Idempotency-Key": "console-0002"})
    assert by_header.status_code == 201
    refused(
        client.post("/api/draws", json={"number": 14}, headers={**sp, "Idempotency-Key": "console-0002"}),
        409,
        "request_id_reused",
    )
    refused(client.post("/api/draws", json={"number": 15, "request_id": "x"}, headers=sp), 422, "bad_field")
    assert room.hall.evening.running.draws == [12, 13]


def test_a_refused_draw_replays_its_refusal(room, client):
    sp = room.headers("speaker")
    refused(client.post("/api/draws", json={"number": 12, "request_id": "console-0003"}, headers=sp), 423, "no_partie")
    room.hall.start_partie(role="speaker")
    refused(client.post("/api/draws", json={"number": 12, "request_id": "console-0003"}, headers=sp), 423, "no_partie")
    assert client.post("/api/draws", json={"number": 12, "request_id": "console-0004"}, headers=sp).status_code == 201


# ------------------------------------------------------------------ 5. sessions can be ended
def test_logout_ends_the_token_and_the_cookie(room):
    c = room.app.test_client()
    body = c.post("/api/login", json={"pin": PINS["speaker_pin"]}).get_json()
    bearer = {"Authorization": f"Bearer {body['token']}"}
    assert c.get("/api/me").get_json()["role"] == "speaker"
    assert c.get("/api/me", headers=bearer).get_json()["role"] == "speaker"
    c.post("/api/logout", headers=bearer)
    refused(c.get("/api/speaker/state", headers=bearer), 401, "bad_token")
    assert c.get("/api/me").get_json()["role"] is None


def test_a_pin_change_ends_sessions_a_plain_restart_keeps_them(tmp_path):
    room = make_room(tmp_path)
    token = room.token("speaker")
    room.hall.journal.close()
    same = make_room(tmp_path)  # a restart (watchdog): the open console keeps working
    assert (
        same.app.test_client().get("/api/me", headers={"Authorization": f"Bearer {token}"}).get_json()["role"]
        == "speaker"
    )
    same.hall.journal.close()
    changed = make_room(tmp_path, extra={"auth": {"speaker_pin": "567890"}})
    resp = changed.app.test_client().get("/api/speaker/state", headers={"Authorization": f"Bearer {token}"})
    refused(resp, 401, "bad_token")
    changed.hall.journal.close()


def test_an_idle_session_ends_and_use_keeps_it_alive(tmp_path):
    now = [1000.0]
    table = SessionTable(tmp_path, {"speaker": "f"}, idle_s=3600, clock=lambda: now[0])
    sid = table.open("speaker")
    now[0] += 3000
    assert table.role(sid) == "speaker"  # sliding: used, so it lives another hour
    now[0] += 3000
    assert table.role(sid) == "speaker"
    now[0] += 3601
    assert table.role(sid) is None
    assert SessionTable(tmp_path, {"speaker": "f"}, idle_s=3600, clock=lambda: now[0]).role(sid) is None


def test_a_forged_or_old_cookie_is_refused(room):
    c = room.app.test_client()
    with c.session_transaction() as s:
        s["role"] = "admin"  # signed with the right key, but no server-side session
        s["csrf"] = "x"
    assert c.get("/api/me").get_json()["role"] is None
    refused(c.get("/api/admin"), 401, "unauthorized")


def test_the_session_cookie_is_secure_under_tls(tmp_path):
    from tests.display.conftest import make_app

    room = make_room(tmp_path)
    config = parse_config({"hall": {"data_dir": str(tmp_path)}, "auth": dict(PINS), "server": {"tls": True}})
    app, _ = make_app(room.hall, config)
    resp = app.test_client().post("/api/login", json={"pin": PINS["speaker_pin"]})
    cookie = resp.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie
    assert (
        "Secure" not in room.app.test_client().post("/api/login", json={"pin": PINS["desk_pin"]}).headers["Set-Cookie"]
    )
    room.hall.journal.close()


# ------------------------------------------------------------------ 7. PIN guessing, for every address together
def test_pin_failures_from_many_addresses_hold_strangers_and_survive_a_restart(tmp_path, caplog):
    room = make_room(tmp_path)
    caplog.set_level(logging.WARNING, "loto-hall.display")
    limit = EVERYONE_FAILS[0]
    for i in range(limit):
        c = room.app.test_client()
        c.environ_base["REMOTE_ADDR"] = f"10.0.0.{i + 1}"
        refused(c.post("/api/login", json={"pin": f"{i:06d}"}), 401, "bad_pin")
    other = room.app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.1.1"
    refused(other.post("/api/login", json={"pin": PINS["speaker_pin"]}), 429, "too_many_attempts")
    logged = caplog.text
    assert "10.0.0.7" in logged and "000006" not in logged and PINS["speaker_pin"] not in logged
    room.hall.journal.close()
    again = make_room(tmp_path)  # a restart does not reset the count
    refused(again.app.test_client().post("/api/login", json={"pin": PINS["speaker_pin"]}), 429, "too_many_attempts")
    again.hall.journal.close()


def test_attempts_during_a_hold_do_not_extend_it(tmp_path):
    now = [0.0]
    guard = LoginGuard(tmp_path, clock=lambda: now[0])
    limit, window = EVERYONE_FAILS
    for i in range(limit):
        guard.failed(f"10.0.0.{i}", None, checked_all=True)
    assert guard.stranger_wait("10.0.9.9") > 0
    now[0] += window + 1  # attempts meanwhile were refused unchecked, uncounted
    assert guard.stranger_wait("10.0.9.9") == 0  # so the real speaker's right PIN is checked now


def test_generated_pins_are_not_in_the_log(tmp_path, caplog):
    from display.pins import load_pins

    caplog.set_level(logging.INFO)
    pins = load_pins(parse_config({"hall": {"data_dir": str(tmp_path)}}), tmp_path)
    assert all(pin not in caplog.text for pin in pins.values())


# ------------------------------------------------------------------ 6. formulas never reach a spreadsheet
def test_report_csv_cells_never_start_a_formula(room, client):
    from hall.spreadsheet import safe_cell

    h = room.hall
    h.start_partie(role="speaker")
    from hall.events import ClaimChecked
    from hall.refusal import Rejected

    for bad in ('=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "\tx"):
        if bad != "\tx":  # (a tab around an ID is typing noise: "\tx" is carton "x")
            with pytest.raises(Rejected):  # refused by the hall itself now, whatever the source
                h.check_claim(bad, role="controller")
        # … but a journal written before the gate holds such checks: the report still makes them harmless
        h.journal.append_all([ClaimChecked(bad, "unknown_card", 0, "quine", None)], "controller", "2026-01-01T20:00:00")
    text = client.get("/api/report.csv", headers=room.headers("admin")).get_data(as_text=True)
    import csv

    assert text.startswith("\ufeff")
    cells = [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";") for cell in row]
    numbers = re.compile(r"-?\d+(,\d+)?")  # amounts are numbers (a negative balance), never text
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not numbers.fullmatch(c)]
    assert '\'=HYPERLINK("http://x")' in cells
    assert safe_cell(-5) == -5 and safe_cell("A-00001N") == "A-00001N"
