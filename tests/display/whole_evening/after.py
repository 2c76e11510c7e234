"""After the last partie: the prize desk, the report as the treasurer opens it, the journal verified, and the next
evening on the pages left open."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import openpyxl

from tests.display.whole_evening.stage import IDS, NBSP, Evening, expect, pdf_text, shown

FINGERPRINT = r"Empreinte du journal : ((?:[0-9A-F]{4} ){4}[0-9A-F]{4}) \(enregistrement n° (\d+)"


# ---------------------------------------------------------------------------------------------- the prize desk
def prize_desk_hands_the_panier_over(ev: Evening) -> None:
    """The prize desk types the quine's voucher: « À remettre : Panier garni »; typed again, « déjà échangé »
    with when and which lot."""
    desk = ev.open("lots")
    code = ev.noted["voucher_quine"][0]
    desk.fill("#code", code)
    desk.press("#code", "Enter")
    result = desk.locator("#result")
    expect(result).to_have_class("result good")
    expect(result).to_contain_text("À remettre : Panier garni")
    expect(result).to_contain_text(f"Partie 1 — carton {shown(IDS['P'])}")
    ev.shot("bon-remis", "lots")
    desk.fill("#code", code.lower().replace("-", ""))  # typed as people type it
    desk.press("#code", "Enter")
    expect(result).to_have_class("result warn")
    expect(result).to_contain_text("Ce bon a déjà été échangé, à ")
    expect(result).to_contain_text("Panier garni, partie 1")
    ev.shot("deja-echange", "lots")


def prize_desk_hands_the_tombola_lot_over(ev: Evening) -> None:
    """The champagne's winner brings her ticket to the prize desk: its printed code typed, the lot it is owed shown
    (« Lot n° 1 : Bouteille de champagne »), « Remettre le lot »; typed again, already handed over; a ticket that won
    nothing is told so (RULES L24)."""
    desk, codes = ev["lots"], ev.noted["tombola_codes"]
    first, second = ev.noted["tombola_wins"]
    result = desk.locator("#result")
    desk.fill("#code", codes[first].lower())  # typed as people type it
    desk.press("#code", "Enter")
    expect(result).to_contain_text(f"Billet de tombola n°\u00a0{first}")
    expect(result).to_contain_text("Lot n°\u00a01\u00a0: Bouteille de champagne")
    desk.click("#hand-lot")
    expect(result).to_contain_text("Lot remis\u00a0: n°\u00a01, Bouteille de champagne")
    ev.shot("tombola-lot-remis", "lots")
    desk.fill("#code", codes[first])
    desk.press("#code", "Enter")
    expect(result).to_have_attribute("data-error", "already_collected")
    expect(result).to_contain_text(f"Le lot du billet n°\u00a0{first} est déjà remis.")
    loser = min(set(codes) - {first, second})
    desk.fill("#code", codes[loser])
    desk.press("#code", "Enter")
    expect(result).to_have_attribute("data-error", "no_lot")
    expect(result).to_contain_text(f"Le billet n°\u00a0{loser} n'a pas gagné de lot.")


# ---------------------------------------------------------------------------------------------- the buvette's Z
def buvette_closes_with_the_stock_counted(ev: Evening) -> None:
    """At the close the admin counts the buvette's stock on /admin: one coffee missing (48 expected, 47 counted),
    the beers right; the Z journalled with the gap, the count the stock from then on."""
    admin = ev["admin"]
    admin.reload()
    rows = admin.locator("#buvette-count tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("48")
    admin.get_by_label("Compté : Café").fill("47")
    admin.get_by_label("Compté : Bière").fill("22")
    expect(rows.nth(0).locator("td.bv-gap")).to_have_text("\u22121")
    admin.click("#buvette-close")
    expect(admin.locator("#buvette-msg")).to_have_text(
        "Z n° 1 : 6,00 € de recette — écarts de stock : Café \u22121, Bière 0"
    )
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("47")
    (z,) = ev.printed("Z n° 1")  # the Z printed at the close, then journalled as printed
    assert "6,00" in z, z
    ev.settled()  # the report next holds the Z's printing: its fingerprint is the journal's last


# ---------------------------------------------------------------------------------------------- the report
def report_agrees(ev: Evening) -> None:
    """The report downloaded from /admin as the treasurer opens it — the PDF's text (pdftotext), the CSV (Python's
    csv, « ; »), the workbook (openpyxl) — says what happened: the takings by payment with the voided sale and the
    reservation paid, the lots given with their cartons, the Vélo carried once, the Cafetière kept, the vouchers; the
    evening's three accounts side by side (cartons, tombola, buvette) with the buvette's stock gap, the tax page
    filled from them."""
    admin = ev["admin"]
    fingerprint = admin.locator("#journal-fingerprint")
    pdf = pdf_text(ev.download("admin", "a[href='/api/report.pdf']"), ev.root, "rapport.pdf")
    said = " ".join(pdf.split())
    for words in (
        "Recette totale 19,00 €",
        "dont espèces 8,00 €",
        "dont carte bancaire 8,00 €",
        "dont chèques 3,00 €",
        "Valeur totale des lots 289,00 €",
        "dont lots offerts (donateurs) 40,00 €",
        "Lots non donnés ce soir (gardés pour un autre loto, ou encore à jouer) : 1, valeur 60,00 €",
        "Łukasz Wałęsa",
        "reporté à la partie 2",
        "reporté de la partie 1",
        "annulée 3,00 €",
        "Carton plein « Cafetière » non gagné : gardé pour un autre",
    ):
        assert words in said, words
    for code in (
        ev.noted["voucher_quine"] + ev.noted["voucher_double"] + ev.noted["voucher_tie"] + ev.noted["voucher_velo"]
    ):
        assert code in said, code
    on_paper = re.search(FINGERPRINT, said)
    assert on_paper, said[-400:]
    ev.noted["fingerprint"] = on_paper.group(1)  # /admin shows the same, kept up to date
    expect(fingerprint).to_contain_text(
        on_paper.group(1).replace(" ", NBSP) + f" (enregistrement n° {on_paper.group(2)},"
    )

    rows = list(
        csv.reader(io.StringIO(ev.download("admin", "a[href='/api/report.csv']").decode("utf-8-sig")), delimiter=";")
    )
    head = rows[0]
    lines = [dict(zip(head, row)) for row in rows[1:]]
    euros = lambda text: Decimal(text.replace(",", ".") or "0")  # noqa: E731
    sales = [r for r in lines if r["rubrique"] == "vente"]
    assert sum(euros(r["montant (€)"]) for r in sales) == Decimal("19.00")  # the takings, over the sale rows
    voided = next(r for r in sales if r["état"] == "annulée")
    assert (voided["carton"], voided["montant (€)"], voided["détail"]) == (
        IDS["V"],
        "0,00",
        "non compté dans la recette : 3,00",
    )
    given = {(r["libellé"], r["carton"]): euros(r["montant (€)"]) for r in lines if r["rubrique"] == "lot donné"}
    assert given == {
        ("Panier garni", IDS["P"]): 40,
        ("Jambon", IDS["P"]): 35,
        ("Filet garni", IDS["U"]): 25,
        ("Vélo", IDS["C"]): 189,
    }
    kept = [(r["libellé"], r["montant (€)"]) for r in lines if r["rubrique"] == "lot non donné"]
    assert kept == [("Cafetière", "60,00")]
    handed = {r["code"]: r["état"] for r in lines if r["rubrique"] == "bon"}
    assert handed.pop(ev.noted["voucher_quine"][0]) == "remis" and set(handed.values()) == {"non remis"}

    # the evening's three accounts side by side (issue 44): the cartons, the tombola, the buvette, and the total
    accounts = {
        r["libellé"]: (euros(r["montant (€)"]), r["détail"]) for r in lines if r["rubrique"] == "comptes de la soirée"
    }
    assert list(accounts) == ["Cartons", "Tombola", "Buvette", "Total de la soirée"], accounts
    assert accounts["Cartons"][1].startswith("Recette 19,00 Frais ")
    cartons_costs = euros(accounts["Cartons"][1].split("Frais ")[1])
    assert accounts["Tombola"] == (Decimal(14 - 29), "Recette 14,00 Frais 29,00")  # 7 tickets; 4 € + 25 € lot bought
    assert accounts["Buvette"] == (Decimal(6 - 30), "Recette 6,00 Frais 30,00")  # the free coffee: no takings
    total, costs = accounts["Total de la soirée"][0], euros(accounts["Total de la soirée"][1].split("Frais ")[1])
    assert total == accounts["Cartons"][0] + Decimal(-15 - 24) and costs == cartons_costs + 59
    assert accounts["Total de la soirée"][1].startswith("Recette 39,00 ")
    bar = [(r["libellé"], r["montant (€)"], r["détail"]) for r in lines if r["rubrique"] == "buvette"]
    assert ("Achats de la buvette (boissons, nourriture)", "30,00", "") in bar
    assert ("Écart de stock compté (hors solde)", "-1,00", "Z 1 · Café : 48 → 47 (-1)") in bar
    tombola = [(r["libellé"], r["montant (€)"]) for r in lines if r["rubrique"] == "tombola"]
    assert ("Frais (lots achetés compris)", "29,00") in tombola
    second = ev.noted["tombola_wins"][1]  # the champagne handed over at the prize desk, the fruit not yet
    unclaimed = [r["détail"] for r in lines if r["rubrique"] == "tombola" and r["libellé"] == "Lot non retiré"]
    assert unclaimed == [f"2. Corbeille de fruits — n° {second}"], lines
    for words in (
        "Comptes de la soirée",
        "Achats de la buvette (boissons, nourriture) 30,00 €",
        "Buvette : ventes (hors offert) tenue par loto-hall 6,00 €",
        "Tombola : billets vendus tenue par loto-hall 14,00 €",
        "Autres recettes (entrées, dons…) non tenues par loto-hall à compléter",
    ):
        assert words in said, words

    book = openpyxl.load_workbook(io.BytesIO(ev.download("admin", "a[href='/api/report.xlsx']")))
    sheet = book["Ventes"]
    names = [c.value for c in sheet[1]]
    sold = [dict(zip(names, (c.value for c in row))) for row in sheet.iter_rows(min_row=2)]
    assert sum(r["Encaissé"] for r in sold) == 19 and [r["Cartons"] for r in sold][1] == IDS["V"]
    assert "€" in sheet.cell(row=2, column=names.index("Encaissé") + 1).number_format
    winners = [(r[0].value, r[1].value, r[4].value) for r in book["Gagnants"].iter_rows(min_row=2)]
    assert winners == [(1, 1, IDS["P"]), (1, 2, IDS["P"]), (2, 1, IDS["U"]), (2, 2, IDS["C"])]
    assert all(isinstance(card_id, str) for _, _, card_id in winners)  # carton IDs as text
    assert [r[3].value for r in book["Lots non donnés"].iter_rows(min_row=2)] == ["Cafetière"]
    assert {"Comptes de la soirée", "Tombola", "Buvette"} <= set(book.sheetnames)


def journal_verifies(ev: Evening) -> None:
    """``loto-hall verify`` while the hall serves: the chain intact, the fingerprint /admin and the report show."""
    done = ev.cli("verify", "--config", str(ev.config))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "chaîne intacte" in done.stdout and f"Empreinte : {ev.noted['fingerprint']}" in done.stdout, done.stdout


# ---------------------------------------------------------------------------------------------- the next evening
def a_new_evening(ev: Evening) -> None:
    """The evening archived, service stopped (``loto-hall evening new``), the hall started again: the pages still
    open come back by themselves to an evening that keeps the hall's tiers and programme and shows nothing of the
    last one — no ball, no takings, no winner, no checks; last week's voucher is no longer one; /admin lists the
    archived evening, whose journal still verifies against the fingerprint noted tonight."""
    ev.stop()
    expect(ev["phone"].locator("#mc-net")).to_be_visible()  # « Hors ligne : reconnexion… »
    done = ev.cli("evening", "new", "--config", str(ev.config))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "soirée archivée" in done.stdout, done.stdout
    ev.start()
    screen, phone, speaker, desk, admin = ev["projector"], ev["phone"], ev["speaker"], ev["caisse"], ev["admin"]
    expect(phone.locator("#mc-net")).to_be_hidden()
    expect(screen.locator("#between-title")).to_have_text("Prochaine partie : n° 1")
    expect(screen.locator("#between-lots li")).to_have_text(
        ["Quine — Panier garni", "Double quine — Jambon", "Carton plein — Vélo"]
    )
    expect(screen.locator("#between-prices")).to_have_text("1 carton 3,00 € · 3 cartons 8,00 €")
    expect(screen.locator("#last")).to_be_empty()
    expect(phone.locator("#mc-next-title")).to_have_text("Prochaine partie : n° 1")
    expect(phone.locator("[data-marked]")).to_have_count(0)
    expect(phone.locator(".mc-won, .mc-status.won")).to_have_count(0)
    expect(phone.locator("#mc-news")).to_be_empty()  # « Démarquez ! » was last week's
    expect(speaker.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    expect(speaker.locator("#checks li")).to_have_text(["Aucune vérification"])
    expect(speaker.locator("#award-result")).to_be_hidden()
    expect(desk.locator("#totals")).to_contain_text("0 carton vendu")
    expect(desk.locator("#totals")).to_contain_text("Recette : 0,00 €")
    expect(desk.locator("#recent li")).to_have_count(0)
    expect(desk.locator("#result")).to_be_hidden()  # last week's sale banner gone
    expect(desk.locator("#tiers")).to_have_text("Tarifs : 1 carton 3,00 € · 3 cartons 8,00 €")
    expect(desk.locator("#tombola-sell")).to_be_hidden()  # last week's tombola is not tonight's: nothing to sell
    expect(speaker.locator("#tombola-draw")).to_be_hidden()
    expect(admin.locator("#takings")).to_contain_text("0 carton vendu")
    expect(admin.locator("#tb-auth-number")).to_have_value("")  # last week's arrêté is not tonight's tombola
    expect(admin.locator("#tombola-pdf")).to_be_hidden()
    expect(admin.locator("#cards-count")).to_contain_text(f"{len(IDS)} cartons ; ventes non enregistrées")
    expect(admin.locator("#journal-fingerprint")).not_to_contain_text(ev.noted["fingerprint"].replace(" ", NBSP))
    expect(admin.locator("#tiers .tier-eur")).to_have_count(2)
    expect(admin.locator("#evenings tr[data-evening]")).to_have_count(1)
    archived = admin.locator("#evenings tr[data-evening]")
    expect(archived).to_contain_text("19,00 €")
    expect(archived.locator(".record")).to_contain_text("✓ intact")
    lots = ev["lots"]
    lots.fill("#code", ev.noted["voucher_double"][0])
    lots.press("#code", "Enter")
    expect(lots.locator("#result")).to_have_class("result bad")
    ev.shot("nouvelle-soiree", "projector")
    ev.shot("nouvelle-soiree", "admin")
    ev.shot("nouvelle-soiree", "speaker")
    ev.shot("nouvelle-soiree", "caisse")
    ev.shot("nouvelle-soiree", "phone")
    name = archived.get_attribute("data-evening")
    done = ev.cli("verify", "--config", str(ev.config), "--evening", name, "--fingerprint", ev.noted["fingerprint"])
    assert done.returncode == 0, done.stdout + done.stderr
