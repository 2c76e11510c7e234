"""Captive portal: every system's connectivity check, and any name the hotspot's DNS sends to the Pi, gets the
portal page (never the answer that means "internet"); the hall's own names keep the hall's pages."""

from __future__ import annotations

import http.client

import pytest

from display.portal import own_hosts
from hall.config import Config
from hall.net.captive import PROBES, host_name, is_own_host
from tests.display.conftest import LiveServer, make_room

INTERNET_ANSWERS = ("Success", "Microsoft Connect Test", "Microsoft NCSI", "success")


@pytest.fixture
def hotspot_room(tmp_path):
    r = make_room(tmp_path, extra={"network": {"ssid": "Loto salle", "password": "quine2026"}})
    yield r
    r.hall.journal.close()


def assert_is_the_portal(status: int, body: str) -> None:
    assert status == 200  # not 204: Android would think it has internet
    assert "Ouvrir le loto" in body
    assert f'href="{Config().hall_link("controle")}"' in body  # the hall's address (no hotspot on this machine)
    for word in INTERNET_ANSWERS:  # Apple, Windows and Firefox would think they have internet
        assert word not in body


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: f"{p.system}-{p.host}{p.path}")
def test_every_system_check_gets_the_portal_page(hotspot_room, probe):
    resp = hotspot_room.app.test_client().get(probe.path, headers={"Host": probe.host})
    assert_is_the_portal(resp.status_code, resp.get_data(as_text=True))
    assert resp.headers["Cache-Control"] == "no-store"


def test_any_other_name_sent_here_by_the_dns_gets_the_portal(hotspot_room):
    client = hotspot_room.app.test_client()
    for host, path in (("www.lemonde.fr", "/"), ("example.org:80", "/some/page"), ("198.18.0.1", "/api/state")):
        resp = client.get(path, headers={"Host": host})
        assert_is_the_portal(resp.status_code, resp.get_data(as_text=True))


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "localhost:8080",
        "127.0.0.1:8080",
        "10.42.0.1:8080",
        "loto.local:8080",
        "LOTO.LOCAL",
        "[::1]:8080",
        "192.168.1.20",
    ],
)
def test_the_halls_own_names_keep_the_halls_pages(hotspot_room, host):
    client = hotspot_room.app.test_client()
    state = client.get("/api/state", headers={"Host": host})
    assert state.status_code == 200 and "draws" in state.get_json()
    page = client.get("/", headers={"Host": host}).get_data(as_text=True)
    assert 'id="board"' in page and "Ouvrir le loto" not in page


def test_the_portal_speaks_english_to_an_english_phone(hotspot_room):
    resp = hotspot_room.app.test_client().get(
        "/generate_204", headers={"Host": "connectivitycheck.gstatic.com", "Accept-Language": "en-GB,en"}
    )
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Open the loto" in body and '<html lang="en">' in body


def test_the_probe_answers_over_real_http(hotspot_room):
    server = LiveServer(hotspot_room.app)
    try:
        for probe in PROBES:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            conn.request(
                "GET", probe.path, headers={"Host": probe.host, "User-Agent": "Dalvik/2.1.0 (Linux; Android 14)"}
            )
            resp = conn.getresponse()
            assert_is_the_portal(resp.status, resp.read().decode("utf-8"))
            conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/state")
        assert conn.getresponse().status == 200
    finally:
        server.stop()


def test_own_host_rules():
    from hall.config import parse_config

    own = own_hosts(parse_config({"network": {"hostname": "loto", "url": "http://salle.example:8080/"}}), "pi4")
    assert {"localhost", "loto", "loto.local", "pi4.local", "salle.example"} <= own
    assert host_name("[fe80::1]:8080") == "fe80::1" and host_name("Loto.Local:8080") == "loto.local"
    assert is_own_host("10.42.0.1", own, "198.18.0.1") and not is_own_host("198.18.0.1", own, "198.18.0.1")
    assert not is_own_host("captive.apple.com", own, "198.18.0.1")
