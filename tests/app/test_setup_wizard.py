"""The first start on a phone, through its API (INTERFACE §12): the projector's code opens it, each answer is
checked before a byte is written, a refusal changes nothing, and setup closes for good."""

from __future__ import annotations

import argparse
import re
import time

import pytest

from drivers.printer_sink import decode_text
from hall.app.setup_wizard import OWN_CONFIG, PROGRESS, WRONG_CODES
from hall.app.wiring import config_from_args, setup_wanted
from tests.app.setup_rig import setup_room


@pytest.fixture
def rig(tmp_path):
    r = setup_room(tmp_path)
    yield r
    r.close()


def _files(rig) -> tuple[bytes | None, bytes | None]:
    def read(name):
        path = rig.data_dir / name
        return path.read_bytes() if path.exists() else None

    return read(OWN_CONFIG), read(PROGRESS)


def _phone(rig):
    client = rig.app.test_client()
    assert client.get(f"/setup?code={rig.wizard.code}").status_code == 302
    return client


def test_setup_mode_is_in_the_state_and_the_door_needs_the_projectors_code(rig):
    client = rig.app.test_client()
    assert client.get("/api/state").get_json()["setup"] is True
    assert client.get("/setup").status_code == 403
    assert client.get("/api/setup").status_code == 403
    assert client.post("/api/setup/salle", json={"association": "A", "salle": "B"}).status_code == 403
    code = rig.wizard.code
    assert client.get("/setup?code=wrong").status_code == 403
    for _ in range(WRONG_CODES - 1):
        client.get("/setup?code=nope")
    assert rig.wizard.code != code  # enough wrong codes: the projector shows a new one
    assert client.get(f"/setup?code={code}").status_code == 403
    phone = _phone(rig)
    assert phone.get("/setup").status_code == 200
    assert phone.get("/api/setup").get_json()["done"] == []


def test_the_projector_shows_the_code_and_only_there(rig):
    client = rig.app.test_client()
    page = client.get("/").get_data(as_text=True)
    assert "<svg" in page and "Mise en route" in page
    assert rig.wizard.code not in client.get("/api/state").get_data(as_text=True)
    assert rig.wizard.code not in _phone(rig).get("/api/setup").get_data(as_text=True)


BAD = [
    ("salle", {"association": "", "salle": "Salle"}, "setup_bad_text"),
    ("salle", {"association": "x" * 81, "salle": "Salle"}, "setup_bad_text"),
    ("salle", {"association": "Comité\x07", "salle": "Salle"}, "setup_bad_answer"),
    ("salle", {"association": 3, "salle": "Salle"}, "bad_field"),
    ("soiree", {"evening": "Grand loto", "language": "de"}, "setup_bad_answer"),
    ("imprimante", {"url": "gopher://x"}, "setup_bad_answer"),
    ("imprimante", {"url": "tcp://127.0.0.1:1"}, "setup_printer"),
    ("codes", {}, "setup_needs_printer"),
    ("wifi", {"ssid": "Loto", "password": "court"}, "setup_bad_answer"),
    ("boules", {"action": "explode"}, "bad_field"),
    ("voix", {"voice": "fr-QC", "heard": True}, "bad_field"),
    ("voix", {"voice": "fr-FR", "heard": "oui"}, "bad_field"),
    ("ecran", {"seen": False}, "setup_screen"),
    ("nowhere", {}, "bad_field"),
    ("finish", {}, "setup_unfinished"),
]


@pytest.mark.parametrize(("step", "body", "error"), BAD)
def test_a_bad_answer_is_refused_and_changes_nothing(rig, step, body, error):
    phone = _phone(rig)
    assert phone.post("/api/setup/salle", json={"association": "Comité", "salle": "Salle"}).status_code == 200
    before = _files(rig)
    resp = phone.post(f"/api/setup/{step}", json=body)
    assert resp.status_code in (403, 409, 422), resp.get_json()
    assert resp.get_json()["error"] == error
    assert resp.get_json()["message"]
    assert _files(rig) == before
    assert phone.post("/api/setup/salle", data="{bad", content_type="application/json").status_code == 400


def test_every_answer_goes_into_the_halls_own_config_and_setup_closes_for_good(rig, tmp_path):
    phone = _phone(rig)
    ok = lambda step, body: phone.post(f"/api/setup/{step}", json=body)  # noqa: E731
    assert ok("salle", {"association": "Comité des fêtes", "salle": "Salle Jean Moulin"}).status_code == 200
    assert ok("soiree", {"evening": "Grand loto du 14 février", "language": "fr"}).status_code == 200
    assert ok("imprimante", {"url": rig.sink.url}).status_code == 200
    assert "TEST IMPRIMANTE" in decode_text(rig.sink.wait_for_jobs(1)[0])
    pins = ok("codes", {}).get_json()["pins"]
    sheet = decode_text(rig.sink.wait_for_jobs(2)[1])
    assert "FICHE DES CODES" in sheet and all(pin in sheet for pin in pins.values())
    assert "pins" not in phone.get("/api/setup").get_json() and pins["admin"] not in phone.get("/api/setup").get_data(
        as_text=True
    )  # shown once
    assert ok("codes", {}).status_code == 409  # never made twice from here
    login = rig.app.test_client().post("/api/login", json={"pin": pins["admin"]})
    assert login.status_code == 200 and login.get_json()["role"] == "admin"
    assert ok("wifi", {"ssid": "Loto-Salle", "password": "quine2026"}).status_code == 200
    balls = ok("boules", {"action": "listen"}).get_json()["balls"]["balls"]
    rig.machine.drop(*balls)
    deadline = time.monotonic() + 60
    while "boules" not in phone.get("/api/setup").get_json()["done"]:
        assert time.monotonic() < deadline, phone.get("/api/setup").get_json()
        time.sleep(0.1)
    assert rig.app.test_client().get("/api/setup/projector").get_json() == {"voice_test": None}
    assert ok("voix", {"voice": "fr-BE", "action": "test"}).get_json()["voice_test"] == {"seq": 1, "voice": "fr-BE"}
    assert "voix" not in phone.get("/api/setup").get_json()["done"]  # a test is not the answer
    assert rig.app.test_client().get("/api/setup/projector").get_json()["voice_test"]["voice"] == "fr-BE"
    assert rig.app.test_client().get("/api/setup/voice/xx.wav").status_code == 404
    assert ok("voix", {"voice": "fr-BE", "heard": True}).status_code == 200
    assert ok("ecran", {"seen": True}).status_code == 200
    assert ok("finish", {}).status_code == 200
    assert phone.get("/setup").status_code == 410
    assert rig.app.test_client().get("/api/state").get_json()["setup"] is False
    for closed in ("/api/setup", "/api/setup/projector", "/api/setup/voice/fr-FR.wav"):
        assert rig.app.test_client().get(closed).status_code == 410, closed
    assert phone.post("/api/setup/salle", json={"association": "A", "salle": "B"}).status_code == 410
    text = (rig.data_dir / OWN_CONFIG).read_text(encoding="utf-8")
    assert 'name = "Comité des fêtes · Salle Jean Moulin"' in text
    assert re.search(r'port = ".*ttyUSB-loto"', text) and "baudrate = 4800" in text and 'protocol = "stx"' in text
    # the next start: the hall's own configuration read, setup mode gone
    args = argparse.Namespace(data_dir=str(rig.data_dir), config=None, demo=False, host=None, port=None)
    config = config_from_args(args)
    assert config.hall.name == "Comité des fêtes · Salle Jean Moulin"
    assert config.ball_machine.baudrate == 4800 and config.speech.voice == "fr-BE"
    assert config.auth.admin_pin == pins["admin"] and config.network.ssid == "Loto-Salle"
    assert not setup_wanted(args, config)
    blank = argparse.Namespace(data_dir=str(tmp_path / "blank"), config=None, demo=False, host=None, port=None)
    assert setup_wanted(blank, config_from_args(blank))
