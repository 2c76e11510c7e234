"""The tombola's pages in Chromium at a tablet's and a phone's size (issue 44): prepared on /admin with the 15 %
check live while typing and its refusals in words, sold at /caisse with its tickets printed on a real TCP printer
through the print queue, drawn from the speaker's console onto the projector. axe-core finds nothing (``shoot``
audits before each screenshot). Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` to docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page, make_room, served
from tests.hall.test_tombola import body

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = pytest.mark.parametrize("size", [(1024, 768), (360, 640)], ids=["tablet", "phone"])
pytestmark = pytest.mark.slow


@pytest.fixture
def live(tmp_path):
    with served(make_room(tmp_path)) as room:
        yield room


@pytest.fixture
def folder(tmp_path):
    out = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def _page(browser, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    return ctx, ctx.new_page()


def _fill_admin(page) -> None:
    page.fill("#tb-auth-number", "2026-117")
    page.fill("#tb-auth-date", "2026-11-02")
    page.fill("#tb-price", "2")
    page.fill("#tb-tickets", "100")
    page.fill("#tb-carnet", "10")
    page.fill("#tb-draw-at", "2026-12-07T21:30")
    page.fill("#tb-place", "Salle des fêtes de Saint-Pierre")
    page.fill("#tb-collect", "2027-01-31")
    page.fill("#tb-unclaimed", "remis au tirage de l'an prochain")
    page.fill("#tb-lots", "Panier garni ; 20 ; acheté\nJambon sec ; 35,50 ; donné\nBouteille de cidre ; 6 ; acheté")


@SIZES
def test_admin_prepares_the_tombola_with_the_15_percent_check_live(browser, live, folder, size):
    ctx, page = _page(browser, size)
    try:
        login_page(page, live.url + "/admin", PINS["admin_pin"])
        section = page.locator("#tombola-admin")
        section.scroll_into_view_if_needed()
        _fill_admin(page)
        page.fill("#tb-costs", "5")  # 5 € + 26 € of lots bought = 31 € > 15 % of 200 € (30 €)
        check = page.locator("#tombola-check")
        expect(check).to_contain_text("31,00 € pour 200,00 €")
        expect(check).to_contain_text("15,5 %")
        warning = page.locator("#tombola-warning")
        expect(warning).to_be_visible()
        expect(warning).to_contain_text("dépassent 15 %")
        expect(warning).to_contain_text("1,00 € de trop")
        name = "tombola-admin-tablette" if size[0] > 500 else "tombola-admin-telephone"
        warning.scroll_into_view_if_needed()
        shoot(page, str(folder / f"{name}.png"))
        page.fill("#tb-costs", "4")  # now exactly at the limit: no warning
        expect(check).to_contain_text("30,00 € pour 200,00 €")
        expect(warning).to_be_hidden()
        expect(check).to_contain_text("conforme")
        page.fill("#tb-auth-number", "")  # the arrêté gone: the check stays, the refusal is said
        refused = page.locator("#tombola-refused")
        expect(refused).to_contain_text("arrêté du maire")
        expect(check).to_contain_text("30,00 €")
        page.click("#tombola-save")
        expect(page.locator("#tombola-msg")).to_contain_text("arrêté du maire")
        assert live.hall.tombola().prepared is None  # refused: nothing recorded
        page.fill("#tb-auth-number", "2026-117")
        page.fill("#tb-lots", "Panier garni ; 20 ; acheté\n100 € en espèces ; 100 ; donné")
        expect(refused).to_contain_text("est de l'argent")
        page.click("#tombola-save")
        expect(page.locator("#tombola-msg")).to_contain_text("Lot n° 2 refusé")
        assert live.hall.tombola().prepared is None
        page.fill("#tb-lots", "Panier garni ; 20 ; acheté\nJambon sec ; 35,50 ; donné\nBouteille de cidre ; 6 ; acheté")
        expect(refused).to_be_hidden()
        page.click("#tombola-save")
        expect(page.locator("#tombola-msg")).to_have_text("Tombola enregistrée : 100 billets à 2,00 €.")
        p = live.hall.tombola().prepared
        assert (p.authority_number, p.price_cents, p.tickets, p.carnet, p.costs_cents) == (
            "2026-117",
            200,
            100,
            10,
            400,
        )
        assert [(lot.label, lot.value_cents, lot.donated) for lot in p.tombola_lots] == [
            ("Panier garni", 2000, False),
            ("Jambon sec", 3550, True),
            ("Bouteille de cidre", 600, False),
        ]
        pdf = page.locator("#tombola-pdf")
        expect(pdf).to_be_visible()
        assert pdf.get_attribute("href") == "/api/tombola/reglement.pdf"  # its PDF: tests/display/test_tombola_api.py
        page.reload()  # what is recorded comes back into the form
        expect(page.locator("#tb-lots")).to_have_value(
            "Panier garni ; 20,00 ; acheté\nJambon sec ; 35,50 ; donné\nBouteille de cidre ; 6,00 ; acheté"
        )
        expect(check).to_contain_text("30,00 € pour 200,00 €")
    finally:
        ctx.close()


def test_the_check_endpoint_answers_from_the_preparations_core_and_records_nothing(tmp_path):
    room = make_room(tmp_path)
    client, admin = room.app.test_client(), room.headers("admin")
    got = client.post("/api/tombola/check", json=body(), headers=admin).get_json()
    assert got["check"] == {"issued_eur": 200, "limit_eur": 30, "spent_eur": 31, "percent": 15.5, "over": True}
    assert got["warnings"] == ["over_15"] and got["refused"] is None
    got = client.post("/api/tombola/check", json=body(authorisation=None), headers=admin).get_json()
    assert got["check"]["over"] and got["refused"]["error"] == "tombola_unauthorised"
    assert "arrêté du maire" in got["refused"]["message"]
    got = client.post("/api/tombola/check", json=body(price_eur="deux"), headers=admin).get_json()
    assert got["check"] is None and got["refused"]["error"] == "bad_field"
    got = client.post("/api/tombola/check", json=body(costs_eur=4), headers=admin).get_json()
    assert not got["check"]["over"] and got["warnings"] == []
    assert room.hall.tombola().prepared is None  # a check records nothing
    assert client.post("/api/tombola/check", json=body(), headers=room.headers("desk")).status_code == 403


@pytest.fixture
def printing(live):
    """The hall's print queue on a real TCP printer (the loopback sink), as the Pi runs it."""
    from drivers.printer import EscposDevice, PrintQueue
    from drivers.printer_sink import PrinterSink

    sink = PrinterSink()
    sink.start()
    queue = PrintQueue(live.hall, EscposDevice(sink.url + "?timeout=2"), retry_initial_s=0.01, poll_s=None)
    queue.start()
    try:
        yield sink
    finally:
        queue.stop()
        sink.stop()


@SIZES
def test_the_caisse_sells_tombola_tickets_and_prints_them(browser, live, printing, folder, size):
    from drivers.printer_sink import decode_text

    live.hall.prepare_tombola(body(), role="admin")
    ctx, page = _page(browser, size)
    try:
        login_page(page, live.url + "/caisse", PINS["desk_pin"], name="Anne")
        section = page.locator("#tombola-sell")
        expect(section).to_be_visible()
        expect(page.locator("#tb-sell-state")).to_contain_text("0 billets vendus sur 100")
        page.fill("#tb-count", "3")
        expect(page.locator("#tb-total")).to_have_text("À encaisser : 6,00 €")
        page.locator("#tb-sell").scroll_into_view_if_needed()
        page.click("#tb-sell")  # no buyer's name: refused, nothing sold
        result = page.locator("#tb-result")
        expect(result).to_contain_text("jamais « au porteur »")
        assert live.hall.tombola().sold == ()
        page.fill("#tb-buyer", "Mme Roux")
        page.click("#tb-sell")
        expect(result).to_have_text("Billets n° 1 à 3 vendus à Mme Roux (6,00 €) : ils s'impriment.")
        name = "tombola-caisse-tablette" if size[0] > 500 else "tombola-caisse-telephone"
        result.scroll_into_view_if_needed()
        shoot(page, str(folder / f"{name}.png"))
        (job,) = printing.wait_for_jobs(1)
        text = decode_text(job)
        assert all(f"N° {n}" in text for n in (1, 2, 3)) and text.count("Acheteur : Mme Roux") == 3
        assert "Tirage le 07/12/2026 à 21h30" in text and "Prix du billet : 2,00 €" in text
        assert live.hall.tombola_code(2) in text
        page.click("label:has(input[value=carnets])")
        page.fill("#tb-count", "1")
        expect(page.locator("#tb-total")).to_have_text("À encaisser : 20,00 €")  # a carnet of 10
        page.click("label:has(input[name=tb-payment][value=carte])")
        page.fill("#tb-buyer", "M. Abel")
        page.click("#tb-sell")
        expect(result).to_have_text("Billets n° 11 à 20 vendus à M. Abel (20,00 €) : ils s'impriment.")
        page.fill("#tb-numbers", "2 50")  # ticket 2 is Mme Roux's: refused by its number, nothing sold
        page.fill("#tb-buyer", "M. Durand")
        page.click("#tb-sell")
        expect(result).to_contain_text("Billet déjà vendu : 2")
        sales = live.hall.tombola().sales
        assert [(s.numbers, s.buyer, s.cents, s.payment) for s in sales] == [
            ((1, 2, 3), "Mme Roux", 600, "especes"),
            (tuple(range(11, 21)), "M. Abel", 2000, "carte"),
        ]
        printing.wait_for_jobs(2)
    finally:
        ctx.close()
