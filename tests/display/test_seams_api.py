"""Small seams of the API (issue 32, item 8): a 405 names the methods the address takes (``Allow``), and a voucher
handed over twice says when it was, and for which lot."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from display import views
from tests.display.conftest import play_to_tie


def test_a_405_carries_allow(client):
    for path, allowed in (("/api/draws", {"POST"}), ("/api/state", {"GET", "HEAD", "OPTIONS"}), ("/speaker", None)):
        resp = client.delete(path)
        assert resp.status_code == 405, path
        allow = {m.strip() for m in resp.headers.get("Allow", "").split(",") if m.strip()}
        assert allow and "DELETE" not in allow, (path, resp.headers)
        if allowed is not None:
            assert allowed <= allow, (path, allow)
    body = client.put("/api/draws").get_json()
    assert body["error"] == "method_not_allowed"


def test_a_voucher_handed_over_twice_says_when_and_for_which_lot(room, client):
    play_to_tie(room)
    code = views.award(room.hall.award(role="speaker", tie_break={"A-00001N": 3, "A-00002L": 9}))["vouchers"][0]
    assert client.post(f"/api/vouchers/{code}/redeem", headers=room.headers("desk")).status_code == 200
    again = client.post(f"/api/vouchers/{code}/redeem", headers=room.headers("desk"))
    body = again.get_json()
    at = next(r.at for r in room.hall.records() if r.type == "voucher:redeemed")
    local = dt.datetime.fromisoformat(at).astimezone(ZoneInfo("Europe/Paris")).strftime("%H:%M")
    assert again.status_code == 409 and body["error"] == "already_redeemed"
    assert body["message"] == (f"Ce bon a déjà été échangé, à {local} : Panier garni, partie 1, carton A-00001N.")
    assert (body["lot"], body["partie"], body["card"], body["at"]) == ("Panier garni", 1, "A-00001N", at)
