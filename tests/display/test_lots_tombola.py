"""The prize desk (/lots) hands over a tombola's lot against its ticket (issue 44, RULES L24): the hall reads which
kind of code was scanned or typed (``POST /api/lots/read``, from the code's own shape), shows the lot won or the
refusal in words, and « Remettre le lot » calls ``POST /api/tombola/collect``; the lots not yet handed over are
listed with the deadline. Over HTTP, then in Chromium at a tablet's and a phone's size (axe-core before each
screenshot). Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` to docs/screenshots/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page, make_room, served
from tests.hall.test_tombola import CONDUCTED, body

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def forged(code: str) -> str:
    """``code`` with its last MAC character changed: the shape of a ticket, not a ticket of this hall."""
    return code[:-1] + ("A" if code[-1] != "A" else "B")


def drawn(h) -> None:
    """Tickets 12 and 13 to Mme Roux, 20 to M. Abel, 31 to Mme Blanc; the three lots drawn by hand to 12, 20, 13:
    ticket 31 won nothing."""
    h.prepare_tombola(body(), role="admin")
    h.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13], role="desk")
    h.sell_tombola(buyer="M. Abel", payment="carte", tickets=[20], role="desk")
    h.sell_tombola(buyer="Mme Blanc", payment="especes", tickets=[31], role="desk")
    h.close_tombola_sales(role="speaker")
    for n in (12, 20, 13):
        h.draw_tombola(role="speaker", ticket=n, **CONDUCTED)


# ------------------------------------------------------------------------------------------------ over HTTP
@pytest.fixture
def room(tmp_path):
    return make_room(tmp_path)


@pytest.fixture
def client(room):
    return room.app.test_client()


def read(client, room, code, role="desk"):
    return client.post("/api/lots/read", json={"code": code}, headers=room.headers(role))


def test_the_hall_reads_a_ticket_s_lot_and_journals_nothing(client, room):
    h = room.hall
    drawn(h)
    before = len(list(h.records()))
    got = read(client, room, " " + h.tombola_code(12).lower().replace("-", " ") + " ")  # typed loosely
    assert got.status_code == 200
    assert got.get_json() == {
        "kind": "tombola",
        "code": h.tombola_code(12),
        "ticket": 12,
        "lot": 1,
        "label": "Panier garni",
        "buyer": "Mme Roux",
        "collect_until": "2027-01-31",
        "refused": None,
    }
    assert len(list(h.records())) == before  # reading hands nothing over
    assert h.tombola().collected == ()


def test_a_voucher_s_code_is_read_as_a_voucher(client, room):
    got = read(client, room, "https://salle/bon/00042-7KQ4M2AB").get_json()
    assert got == {"kind": "voucher", "code": "00042-7KQ4M2AB"}
    # a ticket numbered 12345 is never taken for voucher 12345 (the shape a page's regex once guessed)
    assert read(client, room, "T12345-7KQ4M2AB").get_json()["kind"] == "tombola"


@pytest.mark.parametrize(
    "which,error,ticket,said",
    [
        ("forged", "unknown_code", None, "Billet inconnu ou falsifié."),
        ("loser", "no_lot", 31, "Le billet n° 31 n'a pas gagné de lot."),
        ("handed", "already_collected", 12, "Le lot du billet n° 12 est déjà remis."),
    ],
)
def test_each_refusal_is_read_in_words(client, room, which, error, ticket, said):
    h = room.hall
    drawn(h)
    h.collect_tombola_lot(h.tombola_code(12), role="desk")
    code = {"forged": forged(h.tombola_code(12)), "loser": h.tombola_code(31), "handed": h.tombola_code(12)}[which]
    got = read(client, room, code).get_json()
    assert (got["kind"], got["ticket"], got["refused"]["error"]) == ("tombola", ticket, error)
    assert got["refused"]["message"].replace("\u00a0", " ") == said


def test_before_the_draw_a_ticket_is_not_drawn_and_its_lot_not_handed(client, room):
    h = room.hall
    none = read(client, room, "T0012-AAAAAAAA").get_json()
    assert none["refused"]["error"] == "no_tombola"
    h.prepare_tombola(body(), role="admin")
    h.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12], role="desk")
    code = h.tombola_code(12)
    got = read(client, room, code).get_json()
    assert got["refused"]["error"] == "not_drawn" and "peut encore gagner (3 lots à tirer)" in got["refused"]["message"]
    res = client.post("/api/tombola/collect", json={"code": code}, headers=room.headers("desk"))
    assert (res.status_code, res.get_json()["error"]) == (409, "not_drawn")
    assert not [r for r in h.records() if r.type == "tombola:collected"]


@pytest.mark.parametrize("sent", [{}, {"code": 42}, {"code": "  "}, {"code": "T" * 201}])
def test_a_bad_read_is_refused_by_name(client, room, sent):
    res = client.post("/api/lots/read", json=sent, headers=room.headers("desk"))
    assert (res.status_code, res.get_json()["error"], res.get_json()["field"]) == (422, "bad_field", "code")


def test_only_the_prize_desk_reads(client, room):
    assert client.post("/api/lots/read", json={"code": "T0012-AAAAAAAA"}).status_code == 401
    assert read(client, room, "T0012-AAAAAAAA", role="controller").status_code == 403
    assert read(client, room, "T0012-AAAAAAAA", role="admin").status_code == 200


def test_the_english_desk_reads_the_refusal_in_english(client, room):
    drawn(room.hall)
    res = client.post(
        "/api/lots/read?lang=en", json={"code": room.hall.tombola_code(31)}, headers=room.headers("desk")
    ).get_json()
    assert res["refused"]["message"] == "Ticket 31 won no lot."


# ------------------------------------------------------------------------------------------------ in Chromium
@pytest.fixture
def live(tmp_path):
    (tmp_path / "hall").mkdir()
    with served(make_room(tmp_path / "hall")) as r:
        yield r


@pytest.fixture
def folder(tmp_path):
    out = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def typed(page, code: str) -> None:
    """A code as a barcode scanner sends it: typed into the field, then Enter."""
    page.locator("#code").press_sequentially(code)
    page.locator("#code").press("Enter")


@pytest.mark.parametrize("size", [(1024, 768), (360, 640)], ids=["tablet", "phone"])
def test_the_desk_hands_a_tombola_lot_over_against_its_ticket(browser, live, folder, size):
    h = live.hall
    drawn(h)
    name = "lots-tablette" if size[0] > 500 else "lots-telephone"
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    box = page.locator("#result")
    try:
        login_page(page, live.url + "/lots", PINS["desk_pin"])
        owed = page.locator("#tombola-lots li")
        expect(owed).to_have_count(3)
        expect(owed.nth(0)).to_contain_text("Lot n°\u00a01\u00a0: Panier garni")
        expect(owed.nth(0)).to_contain_text("billet n°\u00a012 · Mme Roux")
        expect(page.locator("#tombola-until")).to_have_text(
            "Les lots se retirent jusqu'au 31 janvier 2027. Ensuite\u00a0: remis au tirage de l'an prochain."
        )
        # a winning ticket: the lot it is owed, then « Remettre le lot »
        typed(page, h.tombola_code(12))
        expect(box).to_contain_text("Billet de tombola n°\u00a012")
        expect(box).to_contain_text("Lot n°\u00a01\u00a0: Panier garni")
        expect(box).to_contain_text("Acheteur\u00a0: Mme Roux")
        assert h.tombola().collected == ()  # read, not handed over yet
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        shoot(page, folder / f"{name}-tombola-lot.png")
        page.click("#hand-lot")
        expect(box).to_contain_text("Lot remis\u00a0: n°\u00a01, Panier garni")
        expect(owed).to_have_count(2)
        expect(owed.nth(0)).to_contain_text("Lot n°\u00a02\u00a0: Jambon sec")
        assert h.tombola().collected == (0,)
        shoot(page, folder / f"{name}-tombola-remis.png", full_page=True)
        # the same ticket again: refused in words, nothing handed twice
        typed(page, h.tombola_code(12))
        expect(box).to_have_attribute("data-error", "already_collected")
        expect(box).to_contain_text("Le lot du billet n°\u00a012 est déjà remis.")
        expect(page.locator("#hand-lot")).to_have_count(0)
        shoot(page, folder / f"{name}-tombola-deja-remis.png")
        # a ticket that won nothing
        page.fill("#code", h.tombola_code(31))
        page.click("#code-form button[type=submit]")
        expect(box).to_have_attribute("data-error", "no_lot")
        expect(box).to_contain_text("Le billet n°\u00a031 n'a pas gagné de lot.")
        # a forged code: a ticket's shape, not a ticket of this hall
        page.fill("#code", forged(h.tombola_code(20)))
        page.click("#code-form button[type=submit]")
        expect(box).to_have_attribute("data-error", "unknown_code")
        expect(box).to_contain_text("Billet de tombola")
        expect(box).to_contain_text("Billet inconnu ou falsifié.")
        shoot(page, folder / f"{name}-tombola-falsifie.png")
        assert [r.type for r in h.records()].count("tombola:collected") == 1
    finally:
        ctx.close()


def test_the_list_says_when_the_tombola_is_not_drawn_yet_and_when_every_lot_is_handed(browser, live):
    h = live.hall
    h.prepare_tombola(body(), role="admin")
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        login_page(page, live.url + "/lots?lang=en", PINS["desk_pin"])
        expect(page.locator("#tombola-lots")).to_have_text("The raffle has not been drawn yet.")
        expect(page.locator("#tombola-until")).to_contain_text("Prizes can be collected until January 31, 2027.")
        h.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13, 20], role="desk")
        typed(page, h.tombola_code(13))
        expect(page.locator("#result")).to_have_attribute("data-error", "not_drawn")
        expect(page.locator("#result")).to_contain_text("The draw is not over: ticket no. 13 may still win")
        h.close_tombola_sales(role="speaker")
        h.draw_tombola(role="speaker", every=True, **CONDUCTED)
        for n in (12, 13, 20):
            h.collect_tombola_lot(h.tombola_code(n), role="desk")
        page.reload()
        expect(page.locator("#tombola-lots")).to_have_text("Every raffle prize has been handed over.")
    finally:
        ctx.close()


def test_the_camera_reads_a_tombola_ticket_s_qr_as_printed(pw, browser_args, live, tmp_path):
    """The ticket's QR holds its code as drivers/tombola_ticket.py prints it; the camera's reading goes to the hall,
    which says it is a tombola ticket and the lot it is owed."""
    from tests.conftest import CHROMIUM
    from tests.display.media import qr_y4m

    h = live.hall
    drawn(h)
    video = qr_y4m(tmp_path / "ticket.y4m", h.tombola_code(20))
    fake = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
    b = pw.chromium.launch(
        executable_path=CHROMIUM, args=browser_args + fake + [f"--use-file-for-fake-video-capture={video}"]
    )
    try:
        ctx = b.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR")
        ctx.grant_permissions(["camera"], origin=live.url)
        page = ctx.new_page()
        login_page(page, live.url + "/lots", PINS["desk_pin"])
        page.click("#scan")
        box = page.locator("#result")
        expect(box).to_contain_text("Lot n°\u00a02\u00a0: Jambon sec", timeout=20_000)
        expect(box).to_contain_text("Billet de tombola n°\u00a020")
        page.click("#scan")  # the camera off: the lot is handed over by the button, never by the reading
        page.click("#hand-lot")
        expect(box).to_contain_text("Lot remis\u00a0: n°\u00a02, Jambon sec")
        assert h.tombola().collected == (1,)
    finally:
        b.close()
