"""Labels are printed on the vouchers (issue 22, item 7): a C0 or C1 control character in a lot's label, its
sponsor or a consolation is refused with its own code at the API and in the programme editor, and changes
nothing."""

from __future__ import annotations

import pytest

from tests.helpers import refused

DRAWER = "Jambon\x1bp\x00\x19\xfa"  # ESC p: the cash drawer's pulse


@pytest.mark.parametrize("bad", [DRAWER, "Lot\x07", "Panier\ngarni", "Tab\tlot", "C1\x9b2J", "Suppr\x7f"])
def test_a_partie_started_with_a_control_character_in_a_label_is_refused(client, room, bad):
    speaker = room.headers("speaker")
    lots = [{"kind": "quine", "label": "Panier garni"}, {"kind": "double_quine", "label": bad}]
    body = refused(
        client.post("/api/partie/start", json={"lots": lots}, headers=speaker), 422, "label_control_character"
    )
    assert "lot 2" in body["message"] and "contrôle" in body["message"]
    english = client.post("/api/partie/start?lang=en", json={"lots": lots}, headers=speaker).get_json()["message"]
    assert "control character" in english and "lot 2" in english
    body = refused(
        client.post("/api/partie/start", json={"consolation": bad}, headers=speaker), 422, "label_control_character"
    )
    assert "consolation" in body["message"]
    assert client.get("/api/state").get_json()["partie"] is None  # nothing started, nothing journalled
    assert [r.type for r in room.hall.records()] == []
    lots[1]["label"] = "Jambon « de pays » — 2 kg"
    assert client.post("/api/partie/start", json={"lots": lots}, headers=speaker).status_code == 201


@pytest.mark.parametrize(
    "where, party",
    [
        ("partie 1, lot 1", {"lots": [{"kind": "quine", "label": DRAWER}]}),
        ("partie 1, lot 1", {"lots": [{"kind": "quine", "label": "Jambon", "sponsor": "Épicerie\x1b@"}]}),
        ("partie 2, lot de consolation", {"lots": [{"kind": "quine", "label": "Jambon"}], "consolation": "Cidre\r\n"}),
    ],
)
def test_the_programme_editor_refuses_a_control_character_in_a_label(client, room, where, party):
    admin = room.headers("admin")
    before = client.get("/api/programme", headers=admin).get_json()
    parties = [{"lots": [{"kind": "quine", "label": "Panier garni"}]}, party] if "partie 2" in where else [party]
    body = refused(
        client.post("/api/programme", json={"parties": parties}, headers=admin), 422, "label_control_character"
    )
    assert where in body["message"]
    assert client.get("/api/programme", headers=admin).get_json() == before


def test_the_lot_kinds_the_api_declares_and_the_pages_offer_are_the_table_s(client):
    """hall/loto/lots.py's table reaches the OpenAPI document and the pages' boot data (the console's and the admin's
    lot editors read it there), never a list of their own."""
    import json
    import re

    from hall.loto.lots import KINDS, LOT_KINDS

    doc = client.get("/api/openapi.json").get_json()
    enums = [json.loads(e) for e in re.findall(r'"kind": \{"enum": (\[[^\]]*\])', json.dumps(doc))]
    lots = [e for e in enums if set(e) & set(LOT_KINDS)]  # a lot's kind (a code's kind, voucher or tombola, is not)
    assert lots and all([k for k in e if k is not None] == list(LOT_KINDS) for e in lots)  # null: or_null's
    for page in ("/", "/speaker", "/admin", "/mes-cartons"):
        html = client.get(page).get_data(as_text=True)
        found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', html, re.S)
        assert found, page
        boot = json.loads(found.group(1))
        assert boot["kinds"] == list(LOT_KINDS), page
        assert sorted(boot["lot_kinds"]) == sorted(LOT_KINDS), page  # each kind's lines and terms: the table's
        assert {k: v["lines"] for k, v in boot["lot_kinds"].items()} == {k.kind: k.lines for k in KINDS}


def test_no_script_keeps_a_table_of_its_own_keyed_by_lot_kind():
    """The rows a lot needs were copied into mes_cartons.js (``{quine: 1, double_quine: 2, carton_plein: 3}``) and
    the check above missed it: no shipped script may key an object by a lot kind, quoted or not; the pages read
    hall/loto/lots.py's table from the boot data (``lot_kinds``) and each lot's own ``lines`` from the state."""
    import re
    from pathlib import Path

    from hall.loto.lots import LOT_KINDS

    key = re.compile(r'(?:[{,]\s*|^\s*)["\']?(' + "|".join(LOT_KINDS) + r')["\']?\s*:', re.M)
    js = Path(__file__).resolve().parents[2] / "display" / "static" / "js"
    found = {path.name: key.findall(path.read_text(encoding="utf-8")) for path in js.rglob("*.js")}
    assert not {name: keys for name, keys in found.items() if keys}
