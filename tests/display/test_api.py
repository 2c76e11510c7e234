"""The HTTP API (INTERFACE §4) with Flask's test client: shapes, codes, roles, and bad input → 4xx with a message."""

from __future__ import annotations

import pytest

from hall.refusal import Rejected
from hall.requests import DeviceTestRequested, DrawRequested
from tests.display.conftest import A1, A2, A3, PINS, TIE_DRAWS
from tests.helpers import refused


def test_public_state_before_anything(client):
    state = client.get("/api/state").get_json()
    assert state["partie"] is None and state["draws"] == [] and state["last"] is None
    assert state["status"] == "waiting" and state["seq"] == 0
    assert state["next_partie"]["lots"][0] == {"kind": "quine", "label": "Panier garni", "value_eur": None}


def test_login_gives_a_role_and_a_token(client):
    body = client.post("/api/login", json={"pin": PINS["speaker_pin"]}).get_json()
    assert body["role"] == "speaker" and body["token"]
    me = client.get("/api/me", headers={"Authorization": f"Bearer {body['token']}"}).get_json()
    assert me["role"] == "speaker"
    refused(client.post("/api/login", json={"pin": "000000"}), 401, "bad_pin")


def test_pin_attempts_are_rate_limited(client):
    for _ in range(5):
        refused(client.post("/api/login", json={"pin": "000000"}), 401, "bad_pin")
    resp = client.post("/api/login", json={"pin": PINS["admin_pin"]})
    body = refused(resp, 429, "too_many_attempts")
    assert body["retry_after"] > 0 and resp.headers["Retry-After"]


def test_a_whole_partie_through_the_api(room, client):
    sp, ctl = room.headers("speaker"), room.headers("controller")
    resp = client.post("/api/partie/start", headers=sp)
    assert resp.status_code == 201 and resp.get_json()["number"] == 1
    for i, n in enumerate(TIE_DRAWS):
        resp = client.post("/api/draws", json={"number": n}, headers=sp)
        assert resp.status_code == 201
        assert resp.get_json() == {"number": n, "index": i, "seq": i + 2}
    state = client.get("/api/state").get_json()
    assert state["draws"] == TIE_DRAWS and state["last"] == 80 and state["status"] == "playing"
    assert state["partie"]["current_lot"] == 0 and state["partie"]["lots"][0]["status"] == "open"

    verdict = client.post("/api/claims", json={"card_id": A3}, headers=ctl).get_json()
    assert verdict["verdict"] == "incomplete" and verdict["missing"]
    verdict = client.post("/api/claims", json={"card_id": A1.lower()}, headers=ctl).get_json()
    assert {k: verdict[k] for k in ("verdict", "card_id", "rows", "complete_rows", "last", "checked_before")} == {
        "verdict": "valid",
        "card_id": A1,
        "rows": [0],
        "complete_rows": [0],
        "last": 80,
        "checked_before": [],
    }
    assert verdict["lot"]["kind"] == "quine" and verdict["card"]["last"] == 80 and len(verdict["card"]["grid"]) == 3
    again = client.post("/api/claims", json={"card_id": A1}, headers=ctl).get_json()
    assert again["checked_before"][0]["verdict"] == "valid"
    client.post("/api/claims", json={"card_id": A2}, headers=ctl)
    refused(client.post("/api/draws", json={"number": 1}, headers=sp), 423, "claims_pending")

    award = client.post("/api/lots/award", headers=sp).get_json()
    assert award["winner"] in (A1, A2) and len(award["tie_break"]) == 2
    assert award["consolation"] == [c for c in (A1, A2) if c != award["winner"]] and len(award["vouchers"]) == 2
    desk = room.headers("desk")
    code = award["vouchers"][0]
    assert client.post(f"/api/vouchers/{code}/redeem", headers=desk).get_json()["redeemed"] is True
    refused(client.post(f"/api/vouchers/{code}/redeem", headers=desk), 409, "already_redeemed")
    refused(client.post("/api/vouchers/00009-AAAAAAAA/redeem", headers=desk), 404, "unknown_voucher")
    assert client.post(f"/api/vouchers/{code}/reprint", headers=desk).status_code == 202

    refused(client.post("/api/draws/undo", headers=sp), 409, "undo_after_award")
    refused(client.post("/api/partie/clear", headers=sp), 409, "lots_remaining")
    cleared = client.post("/api/partie/clear", json={"force": True}, headers=sp).get_json()
    assert cleared["status"] == "cleared"
    assert client.get("/api/state").get_json()["status"] == "waiting"
    assert client.post("/api/claims", json={"card_id": A1}, headers=ctl).get_json()["verdict"] == "closed"


def test_draw_refusals_have_their_codes(room, client):
    sp = room.headers("speaker")
    refused(client.post("/api/draws", json={"number": 5}, headers=sp), 423, "no_partie")
    client.post("/api/partie/start", headers=sp)
    client.post("/api/draws", json={"number": 5}, headers=sp)
    refused(client.post("/api/draws", json={"number": 5}, headers=sp), 409, "already_drawn")
    for bad in (0, 91, "4a", None, 4.5, True, [], {}):
        refused(client.post("/api/draws", json={"number": bad}, headers=sp), 422, "out_of_range")
    refused(client.post("/api/draws", json={}, headers=sp), 422, "bad_field")
    client.post("/api/claims/announce", headers=sp)
    refused(client.post("/api/draws", json={"number": 6}, headers=sp), 423, "locked")
    assert client.post("/api/draws/resume", headers=sp).status_code == 200
    undo = client.post("/api/draws/undo", headers=sp).get_json()
    assert undo["number"] == 5
    refused(client.post("/api/draws/undo", headers=sp), 409, "nothing_to_undo")
    refused(client.post("/api/partie/start", headers=sp), 409, "partie_running")


def test_start_with_lots_of_the_speakers_choice(room, client):
    sp = room.headers("speaker")
    refused(client.post("/api/partie/start", json={"lots": [{"kind": "bingo"}]}, headers=sp), 422, "bad_lot")
    refused(client.post("/api/partie/start", json={"lots": "quine"}, headers=sp), 422, "bad_lot")
    client.post("/api/partie/start", json={"lots": [{"kind": "carton_plein", "label": "Télévision"}]}, headers=sp)
    lots = client.get("/api/state").get_json()["partie"]["lots"]
    assert [(lot["kind"], lot["label"]) for lot in lots] == [("carton_plein", "Télévision")]


@pytest.mark.parametrize(
    "method,path,role",
    [
        ("post", "/api/draws", "controller"),
        ("post", "/api/partie/start", "desk"),
        ("post", "/api/lots/award", "controller"),
        ("post", "/api/claims", "desk"),
        ("post", "/api/vouchers/00001-AAAAAAAA/redeem", "speaker"),
        ("post", "/api/cards/import", "speaker"),
        ("get", "/api/admin", "desk"),
        ("get", "/api/speaker/state", "controller"),
    ],
)
def test_wrong_roles_are_forbidden_and_no_role_is_unauthorized(room, client, method, path, role):
    refused(getattr(client, method)(path, json={}, headers=room.headers(role)), 403, "forbidden")
    refused(getattr(client, method)(path, json={}), 401, "unauthorized")
    refused(getattr(client, method)(path, json={}, headers={"Authorization": "Bearer forged"}), 401, "bad_token")
    refused(getattr(client, method)(path, json={}, headers={"Authorization": "Basic eDp5"}), 401, "bad_token")


def test_cookie_sessions_need_the_csrf_token(room, client):
    login = client.post("/api/login", json={"pin": PINS["speaker_pin"]}).get_json()
    refused(client.post("/api/partie/start"), 403, "csrf")
    refused(client.post("/api/partie/start", headers={"X-CSRF-Token": "wrong"}), 403, "csrf")
    assert client.post("/api/partie/start", headers={"X-CSRF-Token": login["csrf"]}).status_code == 201
    client.post("/api/logout", headers={"X-CSRF-Token": login["csrf"]})
    refused(client.post("/api/draws", json={"number": 3}), 401, "unauthorized")


def test_bad_input_is_a_4xx_with_a_message(room, client):
    sp = room.headers("speaker")
    client.post("/api/partie/start", headers=sp)
    refused(client.get("/api/nowhere"), 404, "not_found")
    assert client.get("/nowhere").status_code == 404 and "Cette adresse" in client.get("/nowhere").get_data(True)
    refused(client.delete("/api/state"), 405, "method_not_allowed")
    refused(client.post("/api/draws", data="{not json", headers=sp), 400, "bad_json")
    refused(
        client.post("/api/draws", data="[1, 2]", headers={**sp, "Content-Type": "application/json"}), 400, "bad_json"
    )
    refused(client.post("/api/draws", data=b"\xff\xfe", headers=sp), 400, "bad_json")
    refused(client.post("/api/draws", data="x" * (100 * 1024), headers=sp), 413, "too_large")
    refused(
        client.post("/api/cards/import", data="x" * (5 * 1024 * 1024), headers=room.headers("admin")), 413, "too_large"
    )
    refused(client.post("/api/claims", json={"card_id": 12}, headers=room.headers("controller")), 422, "bad_field")
    refused(client.post("/api/claims", json={"card_id": "  "}, headers=room.headers("controller")), 422, "bad_card_id")
    refused(
        client.post("/api/claims", json={"card_id": "A" * 100}, headers=room.headers("controller")), 422, "bad_card_id"
    )
    refused(client.post("/api/login", json={"pin": [PINS["speaker_pin"]]}), 401, "bad_pin")
    refused(client.post("/api/partie/clear", json={"force": "yes"}, headers=sp), 422, "bad_field")
    refused(client.get("/api/cards/ZZZ", headers=sp), 404, "unknown_card")


def test_nothing_a_client_sends_gives_a_500(room, client):
    headers = [{}, room.headers("admin")]
    bodies = [
        None,
        "",
        "null",
        "{}",
        "[]",
        '{"number": "x"}',
        '{"card_id": null}',
        '{"lots": [null]}',
        '{"count": -1}',
        '{"count": "ten"}',
        '{"ranges": "A-1..B-2"}',
        '{"pin": 1}',
        "\x00\x01",
        '{"force": 1}',
    ]
    paths = [
        "/api/login",
        "/api/partie/start",
        "/api/draws",
        "/api/draws/undo",
        "/api/draws/confirm",
        "/api/draws/reject",
        "/api/draws/resume",
        "/api/claims/announce",
        "/api/claims",
        "/api/lots/award",
        "/api/partie/clear",
        "/api/vouchers/x/redeem",
        "/api/vouchers/x/reprint",
        "/api/cards/sold",
        "/api/cards/import",
        "/api/cards/generate",
        "/api/devices/toaster/test",
    ]
    for h in headers:
        for path in paths:
            for body in bodies:
                resp = client.post(path, data=body, headers={**h, "Content-Type": "application/json"})
                assert resp.status_code < 500, (path, body, resp.get_json())
                if resp.status_code >= 400:
                    assert resp.get_json()["message"]


def test_cartons_import_generate_and_sold_ranges(room, client):
    admin = room.headers("admin")
    csv_text = "card_id,row1,row2,row3\nB-1,4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n"
    resp = client.post("/api/cards/import", data=csv_text.encode(), headers={**admin, "Content-Type": "text/csv"})
    assert resp.status_code == 201 and resp.get_json()["total"] == 4
    bad = "card_id,row1,row2,row3\nB-2,1 2 3 4 5,9 21 45 66 84,18 29 58 74 90\n"
    body = refused(client.post("/api/cards/import", data=bad, headers=admin), 422, "bad_cards")
    assert body["errors"][0][0] == 2
    dup = refused(client.post("/api/cards/import", data=csv_text, headers=admin), 422, "bad_cards")
    assert "existe déjà" in dup["errors"][0][1]
    resp = client.post("/api/cards/generate", json={"count": 12, "series": "C", "seed": "x"}, headers=admin)
    assert resp.status_code == 201 and resp.get_json()["total"] == 16
    assert (room.config.data_dir / "cards.csv").exists()
    first, last = sorted(cid for cid in room.hall.book if cid.startswith("C-"))[::11]
    sold = client.post(
        "/api/cards/sold", json={"ranges": f"{first}..{last}", "sold": False}, headers=room.headers("desk")
    ).get_json()
    assert sold["count"] == 12 and not room.hall.may_play(first)
    refused(
        client.post("/api/cards/sold", json={"ranges": "nonsense..x"}, headers=room.headers("desk")), 422, "bad_ranges"
    )
    assert client.get("/api/cards.csv", headers=admin).get_data(True).startswith("card_id")


def test_admin_info_and_openapi(room, client):
    info = client.get("/api/admin", headers=room.headers("admin")).get_json()
    assert info["pins"]["controller"] == PINS["controller_pin"] and info["cards"] == 3
    assert info["programme"][0]["lots"][1]["label"] == "Jambon" and info["tls"] is None
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in (
        "/api/state",
        "/api/partie/start",
        "/api/draws",
        "/api/draws/undo",
        "/api/claims",
        "/api/lots/award",
        "/api/partie/clear",
        "/api/vouchers/{code}/redeem",
        "/api/login",
    ):
        assert path in doc["paths"], path
    assert "409" in doc["paths"]["/api/draws"]["post"]["responses"]
    assert client.post("/api/devices/printer/test", headers=room.headers("admin")).status_code == 202


def test_pages_are_french_first_and_english_on_request(room, client):
    assert "Reconnexion…" in client.get("/").get_data(True)
    page = client.get("/speaker").get_data(True)
    assert 'id="login-form"' in page and "Console du speaker" in page
    assert "Caller's console" in client.get("/speaker?lang=en").get_data(True)
    assert "Caller's console" in client.get("/speaker").get_data(True)  # the choice is remembered
    english = client.get("/api/nowhere", headers={"Accept-Language": "en"}).get_json()
    assert english["message"] == "No such address."
    fresh = room.app.test_client()
    assert fresh.get("/api/nowhere").get_json()["message"] == "Cette adresse n'existe pas."
    assert 'lang="en"' in fresh.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(True)


def test_static_assets_are_local_and_licensed(client):
    for path in (
        "vendor/socket.io/socket.io.esm.min.js",
        "vendor/socket.io/LICENSE",
        "vendor/barcode-detector/ponyfill.js",
        "vendor/barcode-detector/zxing-exported.js",
        "vendor/barcode-detector/LICENSE",
        "vendor/fonts/atkinson-hyperlegible-latin-700-normal.woff2",
        "vendor/fonts/LICENSE",
    ):
        resp = client.get(f"/static/{path}")
        assert resp.status_code == 200, path
        if path.endswith(".js"):  # a module script with another type is refused by the browser (nosniff)
            assert resp.mimetype in ("text/javascript", "application/javascript"), (path, resp.mimetype)
    wasm = client.get("/static/vendor/barcode-detector/zxing_reader.wasm")
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    for page in ("/", "/speaker", "/controle", "/lots", "/admin"):
        html = client.get(page).get_data(True)
        assert "http://" not in html.replace('xmlns="http://', "") and "https://" not in html, page


def test_every_refusal_code_of_the_core_has_a_status_and_a_french_message():
    import re
    from pathlib import Path

    import display.app  # noqa: F401  (every area's catalogue, as the app has it)
    from display.errors import declared

    root = Path(__file__).resolve().parents[2]
    codes = {
        code
        for folder in ("hall", "display")
        for path in (root / folder).rglob("*.py")
        for code in re.findall(r'Rejected\("([a-z_/]+)"', path.read_text())
    }
    assert "no_partie" in codes and "rooms/not_your_turn" in codes and "tournoi/bad_code" in codes
    assert sorted(code for code in codes if declared(code) is None or not str(declared(code).text)) == []


def test_award_groups_one_players_cartons(client, room):
    from tests.display.conftest import A1, A2, play_to_tie

    play_to_tie(room)
    res = client.post("/api/lots/award", json={"same_player": [[A2, A1]]}, headers=room.headers("speaker"))
    assert res.status_code == 200, res.get_json()
    assert res.get_json()["winner"] == A2 and res.get_json()["tie_break"] == []
    bad = client.post("/api/lots/award", json={"same_player": "A1"}, headers=room.headers("speaker"))
    assert bad.status_code == 422


def test_tirer_reaches_the_ball_machine_as_a_typed_request(room, client):
    """« Tirer » with nothing typed is a ``DrawRequested`` the demo's simulator matches by type (drivers/inputs.py),
    given only with the right to draw: refused at the route and at the door, it publishes nothing."""
    heard = []
    room.hall.subscribe_notices(lambda name, payload: heard.append((name, payload)))
    assert client.post("/api/draws/request", headers=room.headers("controller")).status_code == 403
    with pytest.raises(Rejected) as refused:
        room.hall.ask(DrawRequested(), role="controller")
    assert refused.value.code == "forbidden" and heard == []
    assert client.post("/api/draws/request", headers=room.headers("speaker")).status_code == 202
    assert heard == [(DrawRequested.name, DrawRequested(source="console"))]
    assert client.post("/api/devices/printer/test", headers=room.headers("admin")).status_code == 202
    assert heard[1:] == [(DeviceTestRequested.name, DeviceTestRequested(device="printer"))]
