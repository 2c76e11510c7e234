"""The hall is the only judge (issue 39, item 2): seeded random evenings played through the real service — the
speaker's draws, the controllers' claims (``POST /api/claims``), the awards, ties, lots settled on the same ball,
named rows and maxi-bingos — while a phone in Chromium follows six cartons on « Mes cartons ». After every record,
for every one of its cartons, what the phone page shows is compared with the controllers' check of that carton
(the answer of ``POST /api/claims``, checked right after the page was read):
complete or not, valid now or missed and why, one to go and on which number, a maxi-bingo's prize. 0 differences."""

from __future__ import annotations

import random

import pytest

from hall.cartons.card_ids import make_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_planche
from tests.display.conftest import LiveServer, make_room
from tests.display.test_players_browser import a_phone

PHONE_CARDS = 6

READ = """() => Object.fromEntries([...document.querySelectorAll("[data-card]")].map((s) => [s.dataset.card, {
  verdict: s.dataset.verdict || "", reason: s.dataset.reason || "", one: s.dataset.oneToGo || "",
  complete: s.dataset.complete || "", prize: s.dataset.prize || "",
  status: (s.querySelector(".mc-status") || {}).textContent || ""}]))"""


def lots_of(rnd: random.Random) -> list[dict]:
    """A partie's lots: one or two quines (one maybe on a named row), zero to two double quines, a carton plein that
    is a maxi-bingo now and then."""
    lots = [{"kind": "quine", "label": "Panier garni", **({"row": rnd.randint(1, 3)} if rnd.random() < 0.3 else {})}]
    lots += [{"kind": "quine", "label": "Filet garni"}] * rnd.randint(0, 1)
    lots += [{"kind": "double_quine", "label": "Jambon"}] * rnd.randint(0, 2)
    cp = {"kind": "carton_plein", "label": "Téléviseur"}
    if rnd.random() < 0.5:
        cp.update({"within": rnd.randint(30, 55), "fallback": {"label": "Bon d'achat", "value_eur": 20}})
    return [*lots, cp]


def expected(answer: dict) -> dict:
    """What the phone must show for a carton the controller was just told ``answer`` of (``POST /api/claims``)."""
    verdict = answer["verdict"]
    if verdict not in ("valid", "missed", "incomplete"):  # no lot open
        return {"verdict": "", "reason": "", "one": "", "complete": "", "prize": ""}
    to_go = answer.get("to_go", answer["missing"] if verdict == "incomplete" else [])
    return {
        "verdict": verdict,
        "reason": answer["reason"],
        "one": str(to_go[0]) if verdict != "valid" and len(to_go) == 1 else "",
        "complete": answer["lot"]["kind"] if verdict in ("valid", "missed") else "",
        "prize": answer["prize"],
    }


@pytest.mark.parametrize("seed", [3, 11, 39])
def test_the_phone_shows_for_each_carton_what_the_controller_is_told_on_every_ball(tmp_path, browser, seed):
    rnd = random.Random(seed)
    planches = generate_planche(rnd) + generate_planche(rnd)
    cards = {make_card_id("P", i + 1): card for i, card in enumerate(planches)}
    room = make_room(tmp_path, rules={"ties": "draw_lowest"})
    room.hall.adopt_cards(CardBook(cards), role="admin")  # the evening's own cartons, two planches
    server = LiveServer(room.app)
    room.url = server.url
    h, client = room.hall, room.app.test_client()
    ctl, sp = room.headers("controller"), room.headers("speaker")
    followed = rnd.sample(sorted(cards), PHONE_CARDS)
    differences: list[tuple] = []
    compared = 0
    try:
        with a_phone(browser) as phone:
            for cid in followed:  # each printed carton's QR code, opened by the phone's camera
                phone.goto(room.url + f"/c/{cid}?k={h.card_code(cid)}")
                phone.locator(f'[data-card="{cid}"]').wait_for()

            def checked(where: str) -> None:
                """The controllers check the cartons that are shouted (most of them, every ball: those that are
                not let their turn pass); each phone carton checked is compared with what the phone showed."""
                nonlocal compared
                phone.wait_for_function(f"document.body.dataset.seq == {h.snapshot().seq}")
                shown = phone.evaluate(READ)
                for cid in sorted(cards):
                    if rnd.random() < 0.15:
                        continue
                    answer = client.post("/api/claims", json={"card_id": cid}, headers=ctl).get_json()
                    if cid in followed:
                        compared += 1
                        got = {k: v for k, v in shown[cid].items() if k != "status"}
                        if got != expected(answer):
                            p = h.evening.running
                            differences.append((where, cid, list(p.draws) if p else [], expected(answer), shown[cid]))

            for _ in range(2):  # two parties an evening
                assert client.post("/api/partie/start", json={"lots": lots_of(rnd)}, headers=sp).status_code == 201
                order = list(range(1, 91))
                rnd.shuffle(order)
                p = h.evening.running
                for n in order:
                    if p.current is None:
                        break
                    if p.held:
                        assert client.post("/api/draws/resume", headers=sp).status_code in (200, 201)
                    assert client.post("/api/draws", json={"number": n}, headers=sp).status_code == 201
                    checked(f"ball {n}")
                    while p.current is not None and p.pending:  # the next lot on the same ball (RULES L11)
                        tied = len(p.pending) > 1
                        res = client.post("/api/lots/award", json={"draw": True} if tied else {}, headers=sp)
                        assert res.status_code == 200, res.get_json()
                        checked(f"award on {n}")
                client.post("/api/partie/clear", json={"force": True}, headers=sp)
    finally:
        server.stop()
        room.hall.journal.close()
    assert compared > 300
    assert differences == [], f"{len(differences)} differences of {compared}, the first: {differences[:3]}"
