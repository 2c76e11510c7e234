"""The Wi-Fi QR code: its text escapes what the format says, a phone's reader gets the name and password back,
and the projector really shows it between parties (decoded from a screenshot with zxing-cpp)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hall.net.wifi import misread_risks, wifi_qr_payload
from tests.display.axe import shoot
from tests.display.conftest import PINS


def parse_wifi(payload: str) -> dict[str, str]:
    """A reader of the format as phones implement it (ZXing's WifiResultParser): fields ``K:value;``,
    a backslash makes the next character literal, the record ends with ``;;``."""
    assert payload.startswith("WIFI:") and payload.endswith(";;"), payload
    fields: dict[str, str] = {}
    i, body = 0, payload[len("WIFI:") : -1]
    while i < len(body):
        key, i = body[i], i + 2
        assert body[i - 1] == ":", (body, i)
        value = []
        while body[i] != ";":
            if body[i] == "\\":
                i += 1
            value.append(body[i])
            i += 1
        fields[key] = "".join(value)
        i += 1
    return fields


def test_the_payload_is_the_standard_wpa_record():
    assert wifi_qr_payload("Loto salle", "quine2026") == "WIFI:T:WPA;S:Loto salle;P:quine2026;;"


def test_every_special_character_is_escaped_by_a_backslash():
    assert (
        wifi_qr_payload('a;b,c:d\\e"f', 'p;a,s:s\\w"d')
        == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\\\e\\"f;P:p\\;a\\,s\\:s\\\\w\\"d;;'
    )


def test_an_open_network_has_no_password_field():
    assert wifi_qr_payload("Loto", "") == "WIFI:T:nopass;S:Loto;;"
    assert parse_wifi("WIFI:T:nopass;S:Loto;;") == {"T": "nopass", "S": "Loto"}


@given(ssid=st.text(min_size=1, max_size=32), password=st.text(min_size=1, max_size=63))
def test_a_reader_gets_back_the_exact_name_and_password(ssid, password):
    assert parse_wifi(wifi_qr_payload(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}


@pytest.mark.parametrize(
    "ssid,password,risks",
    [
        ("Loto salle", "quine2026", ()),
        ("Salle des fêtes", "quine2026", ("ssid_non_ascii",)),
        (" Loto", "quine2026 ", ("ssid_edge_space", "password_edge_space")),
        ("Loto;1", 'a:b,c\\d"e', ("ssid_special", "password_special")),
        ("Loto", "court", ("password_length",)),
    ],
)
def test_characters_some_phones_misread_are_named(ssid, password, risks):
    assert misread_risks(ssid, password) == risks


# ------------------------------------------------------------------------------------- on the projector, for real
TRICKY = {"ssid": "Loto; salle: 1,2", "password": 'qu\\ine"2026,ok'}


def test_the_state_carries_the_wifi_only_when_an_ssid_is_set(tmp_path):
    from tests.display.conftest import make_room

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = make_room(tmp_path / "a")
    assert plain.app.test_client().get("/api/state").get_json()["wifi"] is None
    room = make_room(tmp_path / "b", extra={"network": {"ssid": "Loto salle", "password": "quine2026"}})
    wifi = room.app.test_client().get("/api/state").get_json()["wifi"]
    assert wifi == {
        "ssid": "Loto salle",
        "password": "quine2026",
        "qr": "WIFI:T:WPA;S:Loto salle;P:quine2026;;",
        "url": room.config.hall_url,
    }  # the hall's address (no hotspot up on this machine)
    assert "10.42.0.1" not in wifi["url"] and "localhost" not in wifi["url"]
    for r in (plain, room):
        r.hall.journal.close()


def test_the_projector_shows_both_qr_codes_between_parties_and_a_phone_reads_them(context, tmp_path):
    import os
    from pathlib import Path

    import zxingcpp
    from PIL import Image
    from playwright.sync_api import expect

    from tests.display.conftest import LiveServer, make_room

    room = make_room(tmp_path, extra={"network": {**TRICKY, "url": "http://loto.local:8080/"}})
    server = LiveServer(room.app)
    try:
        page = context.new_page()
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(server.url + "/")
        expect(page.locator("#wifi-join")).to_have_text("1. Le Wi-Fi « Loto; salle: 1,2 »")
        # the network's name on one line, as it is typed (« Loto- / Comite » broke at its hyphen)
        expect(page.locator("#wifi-join .ssid")).to_have_css("white-space", "nowrap")
        # and with its quotation marks: the closing » never alone at the start of a line
        expect(page.locator("#wifi-join .nowrap")).to_have_text("« Loto; salle: 1,2 »")
        expect(page.locator("#wifi-join .nowrap")).to_have_css("white-space", "nowrap")
        expect(page.locator("#wifi-password")).to_have_text('mot de passe : qu\\ine"2026,ok')
        expect(page.locator("#page-url")).to_have_text("http://loto.local:8080/")
        keep = os.environ.get("LOTO_SCREENSHOTS") == "1"
        shot = (
            Path(__file__).resolve().parents[2] / "docs/screenshots" if keep else tmp_path
        ) / "projector-1920x1080-wifi.png"
        shoot(page, str(shot))
        codes = {c.text for c in zxingcpp.read_barcodes(Image.open(shot)) if c.format == zxingcpp.BarcodeFormat.QRCode}
        wifi = next(text for text in codes if text.startswith("WIFI:"))
        assert parse_wifi(wifi) == {"T": "WPA", "S": TRICKY["ssid"], "P": TRICKY["password"]}
        assert "http://loto.local:8080/" in codes
        for qr in ("#wifi-qr", "#page-qr"):  # big enough to scan from a few tables away
            assert page.locator(qr).bounding_box()["height"] >= 380

        room.hall.start_partie(role="speaker")  # a partie: the board, no QR code
        expect(page.locator("#wifi")).to_be_hidden()
        expect(page.locator("#board")).to_be_visible()
    finally:
        server.stop()
        room.hall.journal.close()


# ------------------------------------------------------------------------------------------------------ /admin
def _admin_room(tmp_path, network: dict):
    from hall.app.paper.table_tent import write_table_tent_pdf
    from tests.display.conftest import make_app, make_room

    room = make_room(tmp_path, extra={"network": network})
    room.app, room.socketio = make_app(room.hall, room.config, documents={"table_tent_pdf": write_table_tent_pdf})
    room.app.config["TESTING"] = True
    return room


def test_admin_warns_about_characters_some_phones_misread(tmp_path):
    room = _admin_room(tmp_path, {"ssid": "Salle des fêtes", "password": "quine;2026"})
    client = room.app.test_client()
    assert client.get("/api/network").status_code == 401
    assert client.post("/api/login", json={"pin": PINS["admin_pin"]}).status_code == 200
    page = client.get("/admin").get_data(as_text=True)
    assert "Attention : le nom du Wi-Fi a des accents" in page
    assert "Attention : le mot de passe contient ; , : \\ ou &#34;" in page
    assert 'href="/api/table-tent.pdf"' in page
    body = client.get("/api/network").get_json()
    assert body["ssid"] == "Salle des fêtes" and len(body["warnings"]) == 2
    room.hall.journal.close()


def test_admin_counts_the_sockets_connected_now(tmp_path):
    room = _admin_room(tmp_path, {"ssid": "Loto salle", "password": "quine2026"})
    admin = room.app.test_client()
    admin.post("/api/login", json={"pin": PINS["admin_pin"]})
    assert admin.get("/api/network").get_json()["connections"] == 0
    phones = [room.socketio.test_client(room.app) for _ in range(3)]
    assert all(p.is_connected() for p in phones)
    assert admin.get("/api/network").get_json()["connections"] == 3
    phones[0].disconnect()
    assert admin.get("/api/network").get_json()["connections"] == 2
    for p in phones[1:]:
        p.disconnect()
    room.hall.journal.close()


def test_the_table_tent_carries_both_codes_and_the_instructions(tmp_path):
    import pypdfium2
    import zxingcpp

    room = _admin_room(tmp_path, TRICKY)
    client = room.app.test_client()
    assert client.get("/api/table-tent.pdf").status_code == 401
    client.post("/api/login", json={"pin": PINS["admin_pin"]})
    resp = client.get("/api/table-tent.pdf")
    assert resp.status_code == 200 and resp.mimetype == "application/pdf"
    pdf = pypdfium2.PdfDocument(resp.get_data())
    assert len(pdf) == 1
    image = pdf[0].render(scale=3).to_pil()
    codes = [c.text for c in zxingcpp.read_barcodes(image)]
    assert sorted(codes) == sorted([wifi_qr_payload(**TRICKY), room.config.hall_url] * 2)  # both faces
    assert parse_wifi(codes[codes.index(wifi_qr_payload(**TRICKY))]) == {
        "T": "WPA",
        "S": TRICKY["ssid"],
        "P": TRICKY["password"],
    }
    text = pdf[0].get_textpage().get_text_range()
    assert "1. Scannez" in text and "2. Puis scannez" in text and "Gardez vos données mobiles" in text
    if __import__("os").environ.get("LOTO_SCREENSHOTS") == "1":
        from pathlib import Path

        pdf[0].render(scale=1.2).to_pil().save(Path(__file__).resolve().parents[2] / "docs/screenshots/table-tent.png")
    room.hall.journal.close()


def test_no_table_tent_without_a_wifi(tmp_path):
    room = _admin_room(tmp_path, {})
    client = room.app.test_client()
    client.post("/api/login", json={"pin": PINS["admin_pin"]})
    assert client.get("/api/table-tent.pdf").status_code == 404
    assert "Aucun Wi-Fi configuré" in client.get("/admin").get_data(as_text=True)
    room.hall.journal.close()
