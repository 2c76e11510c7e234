"""Before the first ball: the admin's tiers, programme and cartons on /admin, the projector between parties, the
door's sales on /caisse and a sale voided on /admin, a player's phone following its two printed cartons."""

from __future__ import annotations

from tests.display.conftest import answer
from tests.display.whole_evening.stage import (
    HALL_NAME,
    IDS,
    NBSP,
    Evening,
    card,
    cards_csv,
    expect,
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
