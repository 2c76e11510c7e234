"""A hall listening on 127.0.0.1 only gives its QR codes the LAN address, where nothing answers (issue 32, item 8):
/admin and ``loto-hall serve`` say so, and how to fix it; a hall listening on the network, or with its own
``[network] url`` (a proxy in front), is not warned."""

from __future__ import annotations

import logging

import pytest

from hall.net import address
from tests.display.conftest import PINS, make_room


@pytest.mark.parametrize(
    "listen, url, warned",
    [
        ("127.0.0.1", "", True),
        ("localhost", "", True),
        ("::1", "", True),
        ("127.0.0.1", "https://loto.example/", False),
        ("0.0.0.0", "", False),
        ("192.168.1.20", "", False),
    ],
)
def test_which_halls_cannot_be_reached(listen, url, warned):
    assert address.phones_cannot_reach(listen=listen, url=url) is warned


@pytest.mark.parametrize("lang, words", [("fr", "que sur cette machine"), ("en", "listens on this machine only")])
def test_admin_says_the_qr_codes_lead_nowhere(tmp_path, lang, words):
    room = make_room(tmp_path, extra={"server": {"host": "127.0.0.1"}})
    client = room.app.test_client()
    client.post("/api/login", json={"pin": PINS["admin_pin"]})
    page = client.get(f"/admin?lang={lang}").get_data(as_text=True)
    assert words in page and room.config.hall_url in page and "host = &#34;0.0.0.0&#34;" in page
    assert words in " ".join(client.get(f"/api/network?lang={lang}").get_json()["warnings"])
    room.hall.journal.close()


def test_admin_says_nothing_for_a_hall_on_the_network(tmp_path):
    room = make_room(tmp_path, extra={"server": {"host": "0.0.0.0"}})
    client = room.app.test_client()
    client.post("/api/login", json={"pin": PINS["admin_pin"]})
    assert "que sur cette machine" not in client.get("/admin").get_data(as_text=True)
    room.hall.journal.close()


def test_serve_warns_at_start(tmp_path, monkeypatch, capfd):
    """``loto-hall serve`` with host = 127.0.0.1 logs the warning before serving (the server itself not started)."""
    import argparse

    from hall.app import serve as serve_module

    config_file = tmp_path / "loto.toml"
    config_file.write_text(f'[hall]\ndata_dir = "{tmp_path}"\n[server]\nhost = "127.0.0.1"\n', encoding="utf-8")
    monkeypatch.setattr(serve_module, "run_gunicorn", lambda *a, **k: 0)
    monkeypatch.setenv(serve_module.SERVER_ENV, "gunicorn")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    args = argparse.Namespace(config=str(config_file), data_dir=None, demo=False, interval=None)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        assert serve_module.serve(args) == 0  # its log goes to stderr (logging.basicConfig, as under systemd)
    finally:  # basicConfig's handler writes to this test's captured stderr: later tests' threads must not log there
        root.handlers[:] = handlers
        root.setLevel(level)
    err = capfd.readouterr().err
    assert "WARNING" in err and "n'écoute que sur cette machine" in err, err
