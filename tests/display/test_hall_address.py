"""One hall address for every QR code and printed link (hall/net/address.py): ``[network] url`` if set, else the
hotspot's address when the hotspot is up on this machine, else the LAN address; never ``localhost``, ``127.0.0.1``
or the hotspot's default while no hotspot carries it. Each place that prints or shows a link is checked."""

from __future__ import annotations

import io

import pypdfium2
import pytest
import zxingcpp

from hall.app.paper.sheets import write_cards_pdf
from hall.app.paper.tournament_pdf import write_sheets_pdf
from hall.config import parse_config
from hall.net import address
from tests.display.conftest import A1, make_app, make_room

NOT_THE_HALL = ("localhost", "127.0.0.1", "10.42.0.1")  # the last: the hotspot's default, not up here


def qr_texts(pdf_bytes: bytes, page: int = 0) -> list[str]:
    image = pypdfium2.PdfDocument(io.BytesIO(pdf_bytes))[page].render(scale=3).to_pil()
    return [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]


def test_the_address_order():
    lan = address.lan_address()
    assert lan is not None and lan not in NOT_THE_HALL
    args = dict(hotspot_ssid="Loto", hostname="loto", port=8080, tls=False)
    assert (
        address.hall_url(url="https://salle.example/", hotspot_address="10.42.0.1", **args) == "https://salle.example/"
    )
    assert address.hall_url(url="", hotspot_address="10.42.0.1", **args) == f"http://{lan}:8080/"  # no hotspot here
    assert address.hall_url(url="", hotspot_address=lan, **args) == f"http://{lan}:8080/"  # the hotspot is up
    assert (
        address.hall_url(url="", hotspot_address="10.42.0.1", **{**args, "tls": True, "port": 443}) == f"https://{lan}/"
    )
    assert address.link("https://salle.example/controle?x=1", "/c/A") == "https://salle.example/c/A"
    assert (
        address.hall_url(url="", hotspot_address="10.42.0.1", listen="192.168.1.20", **args)
        == "http://192.168.1.20:8080/"
    )
    for wildcard in ("0.0.0.0", "::", "127.0.0.1"):  # listening everywhere, or on loopback: not an address to give
        assert address.hall_url(url="", hotspot_address="10.42.0.1", listen=wildcard, **args) == f"http://{lan}:8080/"


@pytest.fixture
def hotspot_room(tmp_path):
    r = make_room(tmp_path, extra={"network": {"ssid": "Loto salle", "password": "quine2026"}})
    r.app, r.socketio = make_app(
        r.hall, r.config, documents={"cards_pdf": write_cards_pdf, "tournament_sheets_pdf": write_sheets_pdf}
    )
    yield r
    r.hall.journal.close()


def test_every_place_gives_the_one_address(hotspot_room):
    room, client = hotspot_room, hotspot_room.app.test_client()
    base = room.config.hall_url
    assert not any(bad in base for bad in NOT_THE_HALL)
    # the projector's loto QR between parties
    assert client.get("/api/state").get_json()["wifi"]["url"] == base
    # the printed cartons' QR: {hall}/c/{card_id}
    pdf = client.get("/api/cards.pdf?series=A&per_page=12", headers=room.headers("admin")).get_data()
    assert base + "c/" + A1 + "?k=" + room.hall.card_code(A1) in qr_texts(pdf)  # the carton's code in its link
    # the portal's links
    portal = client.get("/generate_204", headers={"Host": "connectivitycheck.gstatic.com"}).get_data(as_text=True)
    assert f'href="{base}controle"' in portal
    # the games' QR
    code = client.post("/api/games/rooms", json={"game": "lobo77"}, headers=room.headers("speaker")).get_json()["code"]
    assert client.get(f"/jeux/{code}/qr.svg").headers["X-Join-Url"] == f"{base}j/{code}"


def test_a_configured_url_wins_everywhere(tmp_path):
    room = make_room(tmp_path, extra={"network": {"url": "https://loto.salle-des-fetes.fr/"}})
    room.app, room.socketio = make_app(room.hall, room.config, documents={"cards_pdf": write_cards_pdf})
    client = room.app.test_client()
    pdf = client.get("/api/cards.pdf?series=A", headers=room.headers("admin")).get_data()
    assert "https://loto.salle-des-fetes.fr/c/" + A1 + "?k=" + room.hall.card_code(A1) in qr_texts(pdf)
    assert parse_config({"network": {"url": "https://x.fr/page"}}).hall_link("s/abc") == "https://x.fr/s/abc"
    room.hall.journal.close()
