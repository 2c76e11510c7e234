"""The public QR codes (``/api/wifi/qr.svg``, ``/api/wifi/page-qr.svg``, ``/s/{code}/qr.svg``) are made once per text
and served with an ``ETag``: asked again, the code is not made again; named in ``If-None-Match``, the answer is ``304``
with no body. A phone looping on them took ``GET /api/state`` from 3 to 40–50 ms median when each was rebuilt."""

from __future__ import annotations

import pytest

from display import qrcode_svg
from tests.display.conftest import A1, A2, make_room


@pytest.fixture
def wifi_room(tmp_path):
    room = make_room(
        tmp_path, extra={"network": {"ssid": "Loto salle", "password": "quine2026", "url": "http://loto.local:8080/"}}
    )
    yield room
    room.hall.journal.close()


@pytest.fixture
def made(monkeypatch):
    """How many QR codes were made (``qrcode.make`` calls), the cache emptied first."""
    import qrcode  # imported by display.qrcode_svg at its first code, not at the start

    qrcode_svg._made.cache_clear()
    calls: list[str] = []
    real = qrcode.make
    monkeypatch.setattr(qrcode, "make", lambda text, **kw: calls.append(text) or real(text, **kw))
    return calls


def test_each_public_qr_code_is_made_once_and_answered_304_when_the_browser_has_it(wifi_room, made):
    client = wifi_room.app.test_client()
    sale = client.post("/api/sales", json={"cards": [A1], "amount_eur": 3}, headers=wifi_room.headers("admin"))
    code = sale.get_json()["phones_url"][3:]
    for path in ("/api/wifi/qr.svg", "/api/wifi/page-qr.svg", f"/s/{code}/qr.svg"):
        first = client.get(path)
        assert first.status_code == 200 and first.mimetype == "image/svg+xml" and first.headers["ETag"]
        assert first.headers["Cache-Control"] == "no-cache"  # kept, asked again: a changed config shows
        again = client.get(path)
        assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
        cached = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
        assert cached.status_code == 304 and cached.data == b""
        stale = client.get(path, headers={"If-None-Match": '"not-this-one"'})
        assert stale.status_code == 200 and stale.data == first.data
    assert len(made) == 3, made  # one make per text, whatever the requests


def test_another_text_is_another_code_and_another_etag(wifi_room, made):
    client = wifi_room.app.test_client()
    codes = [
        client.post(
            "/api/sales", json={"cards": [card], "amount_eur": 3}, headers=wifi_room.headers("admin")
        ).get_json()["phones_url"][3:]
        for card in (A1, A2)
    ]
    one, two = (client.get(f"/s/{c}/qr.svg") for c in codes)
    assert one.headers["ETag"] != two.headers["ETag"] and one.data != two.data
    assert client.get(f"/s/{codes[1]}/qr.svg", headers={"If-None-Match": one.headers["ETag"]}).status_code == 200
    assert len(made) == 2
