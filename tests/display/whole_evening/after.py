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


# ---------------------------------------------------------------------------------------------- the report
def report_agrees(ev: Evening) -> None:
    """The report downloaded from /admin as the treasurer opens it — the PDF's text (pdftotext), the CSV (Python's
    csv, « ; »), the workbook (openpyxl) — says what happened: the takings by payment with the voided sale and the
    reservation paid, the lots given with their cartons, the Vélo carried once, the Cafetière kept, the vouchers."""
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
    expect(admin.locator("#takings")).to_contain_text("0 carton vendu")
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
