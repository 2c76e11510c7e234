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

    ctx, page = _page(browser, size)
    try:
        login_page(page, live.url + "/caisse", PINS["desk_pin"], name="Anne")
        section = page.locator("#tombola-sell")
        expect(page.locator("#sell")).to_be_visible()
        expect(section).to_be_hidden()  # no tombola prepared: the caisse sells cartons only
        live.hall.prepare_tombola(body(), role="admin")
        page.reload()
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


@pytest.fixture
def voiced(tmp_path):
    with served(make_room(tmp_path, extra={"speech": {"enabled": True}})) as room:
        yield room


@SIZES
def test_the_speaker_draws_and_the_projector_calls_the_winner(browser, voiced, folder, size):
    h = voiced.hall
    h.prepare_tombola(body(), role="admin")
    h.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13], role="desk")
    h.sell_tombola(buyer="M. Abel", payment="carte", tickets=[40], role="desk")
    ctx, page = _page(browser, size)
    screen = ctx.new_page()
    clips: list[tuple[str, int]] = []
    screen.on("response", lambda r: clips.append((r.url, r.status)) if "/speech/tombola/" in r.url else None)
    try:
        screen.goto(voiced.url + "/tombola")
        login_page(page, voiced.url + "/speaker", PINS["speaker_pin"])
        panel = page.locator("#tombola-draw")
        expect(panel).to_be_visible()
        panel.scroll_into_view_if_needed()
        expect(page.locator("#tb-draw-next")).to_be_disabled()  # the sales are open: no draw yet
        page.click("#tb-close")
        expect(page.locator("#tb-draw-state")).to_have_text("Lot suivant : n° 1, Panier garni.")
        page.click("#tb-draw-next")  # nobody named: refused in words, nothing drawn
        expect(page.locator("#tb-draw-msg")).to_contain_text("le président et deux témoins")
        assert h.tombola().wins == ()
        page.fill("#tb-president", "Mme Leroy")
        page.fill("#tb-witness-1", "M. Petit")
        page.fill("#tb-witness-2", "Mme Blanc")
        page.fill("#tb-hand", "99")  # an unsold ticket typed by hand: refused
        page.click("#tb-draw-next")
        expect(page.locator("#tb-draw-msg")).to_contain_text("n'est pas vendu")
        page.fill("#tb-hand", "40")  # the ticket drawn from the urn by hand
        page.click("#tb-draw-next")
        winners = page.locator("#tb-winners li")
        expect(winners).to_have_count(1)
        expect(winners.nth(0)).to_have_text("Lot n° 1 (Panier garni) : billet n° 40 — M. Abel")
        last = screen.locator(".tombola-last")
        expect(last).to_contain_text("le billet n° 40", timeout=8000)  # the projector refreshes itself
        expect(screen.locator(".tombola-who")).to_contain_text("Mme Leroy")
        page.click("#tb-draw-all")  # the hall draws the rest among the sold tickets
        expect(winners).to_have_count(3)
        expect(page.locator("#tb-draw-state")).to_have_text("Tous les lots sont tirés.")
        wins = h.tombola().wins
        assert [w.ticket for w in wins][0] == 40 and sorted(w.ticket for w in wins) == [12, 13, 40]
        assert [w.source for w in wins] == ["hand", "hall", "hall"]
        expect(last).to_contain_text(f"le billet n° {wins[-1].ticket}", timeout=8000)
        assert "Roux" not in screen.content() and "Abel" not in screen.content()  # numbers only on the projector
        page.click("#tb-print-list")
        expect(page.locator("#tb-draw-msg")).to_have_text("La liste des gagnants part à l'imprimante.")
        assert h.tombola_list_owed()
        kind = "tablette" if size[0] > 500 else "telephone"
        panel.scroll_into_view_if_needed()
        shoot(page, str(folder / f"tombola-console-{kind}.png"))
        shoot(screen, str(folder / f"tombola-projecteur-{kind}.png"))
        said = [url.rsplit("/", 1)[1] for url, status in clips if status in (200, 206)]  # 206: the player's range
        assert list(dict.fromkeys(said)) == [
            f"{w.ticket}.wav" for w in wins
        ]  # the hall's voice called each winner, in order, once
        assert page.request.get(voiced.url + "/speech/tombola/99.wav").status == 404  # never an arbitrary number
    finally:
        ctx.close()


@SIZES
def test_the_prize_desk_hands_a_tombola_lot_over_against_the_winning_ticket(browser, live, folder, size):
    h = live.hall
    h.prepare_tombola(body(), role="admin")
    h.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13], role="desk")
    h.close_tombola_sales(role="speaker")
    h.draw_tombola(role="speaker", president="Mme Leroy", witnesses=["M. Petit", "Mme Blanc"], ticket=13)
    ctx, page = _page(browser, size)
    try:
        login_page(page, live.url + "/lots", PINS["desk_pin"], name="Paul")
        result = page.locator("#result")
        page.fill("#code", h.tombola_code(12))  # a ticket sold, not drawn: told so, nothing handed over
        page.press("#code", "Enter")
        expect(result).to_have_class("result bad")
        expect(result).to_contain_text("Le billet n° 12 n'a pas gagné de lot.")
        page.fill("#code", h.tombola_code(13).lower().replace("-", " "))  # typed as people type it
        page.press("#code", "Enter")
        expect(result).to_have_class("result good")
        expect(result).to_contain_text("Tombola — à remettre : Panier garni")
        expect(result).to_contain_text("Lot n° 1, contre le billet n° 13")
        assert h.tombola().collected == (0,)  # lot n° 1 journalled as handed over
        kind = "tablette" if size[0] > 500 else "telephone"
        shoot(page, str(folder / f"tombola-lots-{kind}.png"))
        page.fill("#code", h.tombola_code(13))
        page.press("#code", "Enter")
        expect(result).to_have_class("result warn")
        expect(result).to_contain_text("Le lot du billet n° 13 est déjà remis.")
        page.fill("#code", "T0013-AAAAAAAA")  # forged
        page.press("#code", "Enter")
        expect(result).to_have_class("result bad")
        expect(result).to_contain_text("Billet inconnu ou falsifié.")
    finally:
        ctx.close()
