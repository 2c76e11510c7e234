"""Before the first ball: the admin's tiers, programme, cartons and tombola on /admin, the projector between parties,
the door's sales on /caisse (cartons, then tombola tickets printed with their stubs) and a sale voided on /admin, a
player's phone following its two printed cartons."""

from __future__ import annotations

import re

from tests.display.conftest import answer
from tests.display.whole_evening.stage import (
    HALL_NAME,
    IDS,
    NBSP,
    Evening,
    card,
    cards_csv,
    expect,
    pdf_text,
    qr_links,
)


# ---------------------------------------------------------------------------------------------- before the doors open
def admin_sets_tiers(ev: Evening) -> None:
    """The treasurer's tiers on /admin: a carton at 20 € is refused in the law's words, then 1 for 3 €, 3 for 8 €."""
    admin = ev.open("admin")
    expect(admin.locator("#tiers .tier-cards")).to_have_count(1)  # the config file's one tier
    admin.click("#add-tier")
    admin.locator("#tiers .tier-eur").nth(1).fill("20")
    expect(admin.locator("#tiers tr.over-law")).to_have_count(1)
    expect(admin.locator("#tiers-msg")).to_contain_text("20 € ou plus")
    admin.locator("#tiers .tier-cards").nth(1).fill("3")
    admin.locator("#tiers .tier-eur").nth(1).fill("8")
    expect(admin.locator("#tiers tr.over-law")).to_have_count(0)
    admin.click("#save-tiers")
    expect(admin.locator("#tiers-msg")).to_have_text(
        "Tarifs enregistrés : la caisse les propose dès la prochaine vente"
    )
    expect(admin.locator("#tiers .tier-each").nth(1)).to_have_text(f"2,67{NBSP}€")


def admin_sets_programme(ev: Evening) -> None:
    """Tonight's programme on /admin: partie 1 as the hall's default with tonight's lots; partie 2 added, its quine
    on the middle row (RULES L21), its double quine taken out."""
    admin = ev["admin"]
    first = admin.locator(".programme-editor .partie").nth(0)
    for i, (label, value, sponsor) in enumerate(
        [("Panier garni", "40", "Épicerie Morel"), ("Jambon", "35", ""), ("Vélo", "189", "")]
    ):
        lot = first.locator(".lot").nth(i)
        lot.locator(":scope > input.label").fill(label)
        lot.locator(":scope > input.value").fill(value)
        lot.locator(":scope > input.sponsor").fill(sponsor)
    admin.click("#add-partie")
    second = admin.locator(".programme-editor .partie").nth(1)
    second.locator(".lot").nth(1).locator("button").click()  # no double quine in partie 2
    expect(second.locator(".lot")).to_have_count(2)
    quine, full = second.locator(".lot").nth(0), second.locator(".lot").nth(1)
    quine.locator('[data-term="row"]').select_option("2")
    quine.locator(":scope > input.label").fill("Filet garni")
    quine.locator(":scope > input.value").fill("25")
    full.locator(":scope > input.label").fill("Cafetière")
    full.locator(":scope > input.value").fill("60")
    full.locator(":scope > input.sponsor").fill("Bar du Centre")
    second.locator(".row-buttons input").fill("Bouteille de cidre")
    admin.click("#save-programme")
    expect(admin.locator("#programme-msg")).to_have_text("Programme enregistré : il s'applique à partir de la partie 1")
    expect(admin.locator("#admin-alert")).to_be_hidden()
    ev.shot("tarifs-et-programme", "admin", full=True)


def admin_imports_and_prints_cartons(ev: Evening) -> None:
    """The cartons' file imported on /admin (as a spreadsheet saved it), then the phone's two printed: their QR
    codes, read from the PDF as a phone's camera reads them, hold their links with their codes."""
    admin = ev["admin"]
    admin.set_input_files(
        "#import-file", files=[{"name": "cartons.csv", "mimeType": "text/csv", "buffer": cards_csv()}]
    )
    admin.click("#import")
    expect(admin.locator("#cards-msg")).to_have_text(f"+{len(IDS)} → {len(IDS)}")
    admin.fill("#print-form input[name=range]", f"{IDS['P']}..{IDS['X']}")
    pdf = ev.download("admin", "#print-form button[type=submit]")
    links = {link.split("/c/")[1].split("?")[0]: link for link in qr_links(pdf)}
    assert set(links) == {IDS["P"], IDS["X"]}, links
    assert all("?k=" in link for link in links.values()), links
    ev.noted["links"] = links


def admin_prepares_the_tombola(ev: Evening) -> None:
    """The tombola of the evening prepared on /admin (RULES L24): the maire's arrêté, 100 tickets at 2 € in carnets
    of 10, the draw's date and place, a lot bought and a lot given. The 15 % check answers while she types: 6 € of
    costs and the 25 € lot bought are over 15 % of the 200 € issued (the warning says by how much), 4 € is within;
    saved, its règlement is a PDF that says the arrêté and the lots."""
    admin = ev["admin"]
    admin.locator("#tombola-admin").scroll_into_view_if_needed()
    for field, typed in (
        ("#tb-auth-number", "2026-117"),
        ("#tb-auth-date", "2026-11-02"),
        ("#tb-price", "2"),
        ("#tb-tickets", "100"),
        ("#tb-carnet", "10"),
        ("#tb-draw-at", "2026-12-07T21:30"),
        ("#tb-place", "Salle des fêtes"),
        ("#tb-collect", "2027-01-31"),
        ("#tb-lots", "Bouteille de champagne ; 25 ; acheté\nCorbeille de fruits ; 15 ; donné"),
        ("#tb-costs", "6"),
    ):
        admin.fill(field, typed)
    check, warning = admin.locator("#tombola-check"), admin.locator("#tombola-warning")
    expect(check).to_contain_text("31,00 € pour 200,00 €")
    expect(warning).to_contain_text("dépassent 15 %")
    expect(warning).to_contain_text("1,00 € de trop")
    admin.fill("#tb-costs", "4")
    expect(check).to_contain_text("29,00 € pour 200,00 €")
    expect(check).to_contain_text("14,5 %")
    expect(check).to_contain_text("conforme")
    expect(warning).to_be_hidden()
    admin.click("#tombola-save")
    expect(admin.locator("#tombola-msg")).to_have_text("Tombola enregistrée : 100 billets à 2,00 €.")
    admin.locator("#tombola-msg").scroll_into_view_if_needed()
    ev.shot("tombola-preparee", "admin")
    reglement = " ".join(pdf_text(ev.download("admin", "#tombola-pdf"), ev.root, "reglement.pdf").split())
    for words in ("2026-117", "Bouteille de champagne", "Corbeille de fruits", HALL_NAME):
        assert words in reglement, (words, reglement[:600])


def the_projector_before_the_doors_open(ev: Evening) -> None:
    """The projector between parties: the hall's name, partie 1's lots, tonight's tiers and the tie rule."""
    screen = ev.open("projector")
    expect(screen.locator("#between-hall")).to_have_text(HALL_NAME)
    expect(screen.locator("#between-title")).to_have_text("Prochaine partie : n° 1")
    expect(screen.locator("#between-lots li")).to_have_count(3)
    expect(screen.locator("#between-lots li").nth(0)).to_contain_text("Quine — Panier garni")
    expect(screen.locator("#between-lots li").nth(2)).to_contain_text("Carton plein — Vélo")
    expect(screen.locator("#between-prices")).to_have_text("1 carton 3,00 € · 3 cartons 8,00 €")
    expect(screen.locator("#between-ties")).to_have_text("Égalité : tirage au sort, le plus petit numéro gagne")
    ev.shot("avant-la-partie", "projector")


# ---------------------------------------------------------------------------------------------- the door
def sell(ev: Evening, cards: str, pay: str, said: str, buyer: str = "", reserved: bool = False) -> None:
    """One sale at /caisse: the cartons typed, the payment ticked (and a buyer, a reservation), « Encaisser »."""
    desk = ev["caisse"]
    desk.fill("#cards", cards)
    desk.click("#add-form button[type=submit]")
    expect(desk.locator("#basket li.trouble")).to_have_count(0)
    expect(desk.locator("#sell")).to_be_enabled()
    desk.click(f"label:has(input[value={pay}])")
    if buyer or reserved:
        desk.click("#more summary")
        desk.fill("#buyer", buyer)
        if reserved:
            desk.check("#reserved")
            expect(desk.locator("#sell")).to_contain_text("à payer")
    desk.click("#sell")
    expect(desk.locator("#result")).to_contain_text(said)


def door_sales(ev: Evening) -> None:
    """The door: tonight's tiers offered; three cartons at the 3-for-8 tier, one alone by card (voided later), one
    reserved by phone to be paid on arrival, three more by card."""
    desk = ev.open("caisse")
    expect(desk.locator("#seller")).to_have_text("Vendeur : Anne")
    expect(desk.locator("#tiers")).to_have_text("Tarifs : 1 carton 3,00 € · 3 cartons 8,00 €")
    desk.fill("#cards", f"{IDS['P']}..{IDS['F']}")
    desk.click("#add-form button[type=submit]")
    expect(desk.locator("#suggested")).to_have_text("tarif pour 3 cartons : 8,00 €")
    expect(desk.locator("#sell")).to_have_text("Encaisser 3 cartons — 8,00 €")
    desk.click("#sell")
    expect(desk.locator("#result")).to_contain_text("Vendu : 3 cartons, 8,00 €")
    expect(desk.locator("#result img[data-link]")).to_have_count(1)  # the sale's cartons on a phone
    sell(ev, IDS["V"], "carte", "Vendu : 1 carton, 3,00 €")
    sell(ev, IDS["R"], "cheque", "Réservé : 1 carton, 3,00 € à payer", buyer="Łukasz Wałęsa", reserved=True)
    sell(ev, f"{IDS['T']}..{IDS['C']}", "carte", "Vendu : 3 cartons, 8,00 €")
    expect(desk.locator("#totals")).to_contain_text("7 cartons vendus")
    expect(desk.locator("#totals")).to_contain_text("Recette : 19,00 €")
    expect(desk.locator("#totals")).to_contain_text("réservé, non payé : 1 carton, 3,00 €")
    expect(desk.locator("#recent li.reserved button")).to_have_text("Payé")
    ev.shot("ventes", "caisse", full=True)


def door_sells_tombola_tickets(ev: Evening) -> None:
    """Beside the cartons, /caisse sells the tombola: a sale without the buyer's name is refused (never « au
    porteur »), then 5 tickets to Mme Roux in cash and 2 to M. Abel by card; each sale's tickets come out of the
    printer with their stubs: the association, the draw's date, the price, the number, its signed code, the buyer."""
    desk = ev["caisse"]
    section = desk.locator("#tombola-sell")
    expect(section).to_be_visible()
    section.scroll_into_view_if_needed()
    expect(desk.locator("#tb-sell-state")).to_have_text("0 billets vendus sur 100 (0,00 €).")
    result = desk.locator("#tb-result")
    desk.fill("#tb-count", "5")
    expect(desk.locator("#tb-total")).to_have_text("À encaisser : 10,00 €")
    desk.click("#tb-sell")
    expect(result).to_contain_text("jamais « au porteur »")
    expect(desk.locator("#tb-sell-state")).to_have_text("0 billets vendus sur 100 (0,00 €).")  # nothing sold
    desk.fill("#tb-buyer", "Mme Roux")
    desk.click("#tb-sell")
    expect(result).to_have_text("Billets n° 1 à 5 vendus à Mme Roux (10,00 €) : ils s'impriment.")
    desk.fill("#tb-count", "2")
    desk.click("label:has(input[name=tb-payment][value=carte])")
    desk.fill("#tb-buyer", "M. Abel")
    desk.click("#tb-sell")
    expect(result).to_have_text("Billets n° 6, 7 vendus à M. Abel (4,00 €) : ils s'impriment.")
    expect(desk.locator("#tb-sell-state")).to_have_text("7 billets vendus sur 100 (14,00 €).")
    expect(desk.locator("#totals")).to_contain_text("Recette : 19,00 €")  # the cartons' takings apart
    result.scroll_into_view_if_needed()
    ev.shot("tombola-vendue", "caisse")
    codes = {}
    for buyer, numbers in (("Mme Roux", range(1, 6)), ("M. Abel", (6, 7))):
        (text,) = ev.printed(f"Acheteur : {buyer}")
        codes |= {int(n): code for code, n in re.findall(r"\b(T(\d{4})-[A-Z2-7]{8})\b", text)}
        assert text.count("TOMBOLA") == 2 * len(numbers) and text.count(f"Acheteur : {buyer}") == len(numbers)
        assert all(f"N° {n}" in text and re.search(rf"T{n:04d}-\w+", text) for n in numbers), text
        assert HALL_NAME in text and "Tirage le 07/12/2026 à 21h30" in text and "Prix du billet : 2,00 €" in text
        assert "Arrêté n° 2026-117 du 02/11/2026" in text and "au porteur" not in text
    assert sorted(codes) == list(range(1, 8)), codes  # each ticket's signed code, read off the paper
    ev.noted["tombola"] = {n: "Mme Roux" for n in range(1, 6)} | {6: "M. Abel", 7: "M. Abel"}
    ev.noted["tombola_codes"] = codes


def admin_voids_a_sale(ev: Evening) -> None:
    """A mistake at the door: the admin voids sale n° 2 on /admin (asked in the page); its carton goes unsold."""
    admin = ev["admin"]
    expect(admin.locator("#takings")).to_contain_text("7 cartons vendus")
    admin.click("#takings-panel summary")
    admin.locator("#sales-list li", has_text="n° 2").locator("button").click()
    answer(admin, asked="n° 2")
    expect(admin.locator("#takings")).to_contain_text("6 cartons vendus")
    expect(admin.locator("#takings")).to_contain_text("16,00 €")
    expect(admin.locator("#sales-list li.voided")).to_have_count(1)
    expect(ev["caisse"].locator("#totals")).to_contain_text("Recette : 16,00 €")  # the door's screen follows
    ev.shot("vente-annulee", "admin", full=True)


# ---------------------------------------------------------------------------------------------- the phones
def phone_follows_two_cartons(ev: Evening) -> None:
    """A player opens both her printed cartons' links on her phone (the code in each link): both are followed, and
    between parties the phone says the next partie and its lots, as the projector does."""
    phone = ev.open("phone", path=ev.reached(ev.noted["links"][IDS["P"]]).removeprefix(ev.url))
    expect(card(phone, IDS["P"])).to_be_visible()
    phone.goto(ev.reached(ev.noted["links"][IDS["X"]]))
    expect(phone.locator("[data-card]")).to_have_count(2)  # the list is kept in the browser
    expect(phone.locator(".mc-hall")).to_have_text(HALL_NAME)
    expect(phone.locator("#mc-next-title")).to_have_text("Prochaine partie : n° 1")
    expect(phone.locator("#mc-next-lots li")).to_have_text(
        ["Quine — Panier garni", "Double quine — Jambon", "Carton plein — Vélo"]
    )
    expect(phone.locator("#mc-lot")).to_have_text("Pas de partie en cours")
    ev.shot("deux-cartons", "phone")
