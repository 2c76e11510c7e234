"""The treasurer's evening in Chromium (issue 21): /admin programme with values and donors → /speaker « Démarrer la
partie » → draws, a win → the report's PDF and CSV carry the values and donors and the balance is right; démarquez
with lots carried → the next partie started from the console plays them first.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from display import views
from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page, served
from tests.display.test_caisse_browser import folder  # noqa: F401  (fixture)
from tests.display.test_sales_api import sales_room
from tests.display.test_treasurer_api import french_csv, pdf_text

LOTS = [("Panier garni", "40", "Boulangerie Morel"), ("Jambon", "42", ""), ("Vélo", "189,90", "")]


@pytest.fixture
def evening(tmp_path):
    from hall.app.paper.report_pdf import write_report_pdf
    from tests.display.conftest import make_app

    (tmp_path / "hall").mkdir()
    room = sales_room(tmp_path / "hall")
    room.app, room.socketio = make_app(room.hall, room.config, documents={"report_pdf": write_report_pdf})
    with served(room):
        yield room


def download(room, path: str) -> bytes:
    request = urllib.request.Request(room.url + path, headers=room.headers("admin"))
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read()


def test_the_values_and_donors_typed_on_admin_reach_the_report_through_the_speaker_s_console(browser, evening, folder):  # noqa: F811
    h = evening.hall
    ids = list(h.book)
    h.sell(ids[:12], role="desk", payment="carte", seller="Anne")  # 25 €
    h.sell(ids[12:18], role="desk", payment="especes", seller="Marc")  # 15 €
    admin_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    speaker_ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    try:
        admin = admin_ctx.new_page()
        admin.set_default_timeout(10_000)
        login_page(admin, evening.url + "/admin", PINS["admin_pin"])
        first = admin.locator(".programme-editor .partie").first
        expect(first.locator(".lot")).to_have_count(3)
        for i, (label, value, sponsor) in enumerate(LOTS):
            first.locator(".lot input.label").nth(i).fill(label)
            first.locator(".lot input.value").nth(i).fill(value)
            first.locator(".lot input.sponsor").nth(i).fill(sponsor)
        admin.click("#save-programme")
        expect(admin.locator("#programme-msg")).to_contain_text("à partir de la partie 1")
        expect(admin.locator(".programme-editor .partie").first.locator(".partie-head")).not_to_contain_text("jouée")

        speaker = speaker_ctx.new_page()
        speaker.set_default_timeout(10_000)
        login_page(speaker, evening.url + "/speaker", PINS["speaker_pin"])
        expect(speaker.locator("#lots-editor li")).to_have_count(3)
        expect(speaker.locator("#lots-editor li").nth(0)).to_contain_text("40,00 €")
        expect(speaker.locator("#lots-editor li input").nth(2)).to_have_value("Vélo")
        shoot(speaker, str(folder / "speaker-1280x720-lots-du-programme.png"))
        speaker.click("#start")  # « Démarrer la partie »
        expect(speaker.locator("#sp-lot")).to_have_text("Quine — Panier garni")
        lots = h.evening.running.lots
        assert [(lot.label, lot.value_eur, lot.sponsor) for lot in lots] == [
            ("Panier garni", 40.0, "Boulangerie Morel"),
            ("Jambon", 42.0, ""),
            ("Vélo", 189.9, ""),
        ]
        admin.reload()
        expect(admin.locator(".programme-editor .partie").first).to_contain_text("en cours")  # not "jouée" yet

        # draws and a win: the first row of a sold carton, checked by a controller, awarded from the console
        winner = ids[0]
        for n in h.book.get(winner).rows[0]:
            h.draw(n, role="speaker")
        assert views.verdict(h.check_claim(winner, role="controller"))["verdict"] == "valid"
        expect(speaker.locator("#award")).to_be_enabled()
        speaker.click("#award")
        expect(speaker.locator("#award-result")).to_contain_text("Lot attribué au carton")
        expect(speaker.locator("#sp-lot")).to_have_text("Double quine — Jambon")

        # démarquez with two lots unwon: carried, then played in partie 2 where their kind plays (RULES L19)
        speaker.click("#clear")
        expect(speaker.locator("#clear-dialog")).to_be_visible()
        speaker.click('#clear-choices li[data-n="1"]')  # démarquer et reporter ces lots
        expect(speaker.locator("#start-box")).to_be_visible()
        expect(speaker.locator("#lots-editor li .lot-line input")).to_have_count(5)
        fields = speaker.locator("#lots-editor li .lot-line input")
        labels = [fields.nth(i).input_value() or fields.nth(i).get_attribute("placeholder") for i in range(5)]
        assert labels == ["Quine", "Jambon", "Double quine", "Vélo", "Carton plein"]  # each where its kind plays
        # a lot with no label of its own shows its kind greyed, the field left empty (an English hall reads "One line")
        assert [fields.nth(i).input_value() for i in (0, 2, 4)] == ["", "", ""]
        speaker.click("#start")
        expect(speaker.locator("#sp-lot")).to_have_text("Quine")
        played = [lot.spec for lot in h.evening.running.lots]
        assert [played[1], played[3]] == [lot.spec for lot in lots[1:]]
    finally:
        admin_ctx.close()
        speaker_ctx.close()

    # the report: values and donors; the lots given apart from those not given (a carried lot counted once, in
    # partie 2 where it is played), the balance = receipts − the lots given that were bought
    text = pdf_text(download(evening, "/api/report.pdf"))
    for expected in (
        "Panier garni",
        "Boulangerie Morel",
        "40,00 €",
        "42,00 €",
        "189,90 €",
        "Recette totale",
        "reporté à la partie 2",
        "reporté de la partie 1",
    ):
        assert expected in text, expected
    rows = french_csv(download(evening, "/api/report.csv").decode("utf-8"))
    given = [(r["partie"], r["libellé"], r["détail"], r["montant (€)"]) for r in rows if r["rubrique"] == "lot donné"]
    assert given == [("1", "Panier garni", "donateur Boulangerie Morel", "40,00")]
    kept = [(r["partie"], r["libellé"], r["montant (€)"]) for r in rows if r["rubrique"] == "lot non donné"]
    assert [k for k in kept if k[2]] == [("2", "Jambon", "42,00"), ("2", "Vélo", "189,90")]  # partie 2's own: no value
    balance = {r["libellé"]: r["montant (€)"] for r in rows if r["rubrique"] == "solde"}
    assert balance == {
        "recette totale": "40,00",
        "valeur des lots donnés": "40,00",
        "dont lots offerts": "40,00",
        "dont lots achetés": "0,00",
        "solde": "40,00",
        "lots non donnés (gardés)": "231,90",
    }
    assert not [r for r in rows if r["rubrique"] == "lot changé à la console"]


def test_prices_edited_on_admin_reach_the_door_and_the_projector_with_the_hall_s_tie_rule(browser, evening, folder):  # noqa: F811
    import json

    from hall.record.evenings import SUMMARY_FILE, archive_dir

    past = archive_dir(evening.config.data_dir) / "2026-11-14_20h00"  # an evening archived last week
    past.mkdir(parents=True)
    (past / SUMMARY_FILE).write_text(
        json.dumps(
            {
                "hall_name": "Foyer rural",
                "first_at": "2026-11-14T19:00:00+00:00",
                "last_at": "2026-11-14T22:40:00+00:00",
                "parties": 8,
                "cards_sold": 214,
                "receipts_cents": 61250,
                "lots_declared_cents": 52750,
                "lots_bought_cents": 41250,
                "balance_cents": 20000,
            }
        ),
        encoding="utf-8",
    )
    (past / "rapport.pdf").write_bytes(b"%PDF-1.4 last week")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    try:
        admin = ctx.new_page()
        admin.set_default_timeout(10_000)
        login_page(admin, evening.url + "/admin", PINS["admin_pin"])
        expect(admin.locator("#tiers tr")).to_have_count(4)  # the header and three tiers
        expect(admin.locator("#evenings tr[data-evening]")).to_have_count(1)
        expect(admin.locator("#evenings")).to_contain_text("612,50 €")
        expect(admin.locator("#evenings")).to_contain_text("200,00 €")
        admin.locator("#tiers input.tier-eur").nth(1).fill("120")  # 6 cartons for 120 €: 20 € each
        expect(admin.locator("#tiers tr.over-law")).to_have_count(1)
        admin.click("#save-tiers")
        expect(admin.locator("#admin-alert")).to_contain_text("inférieures à 20 euros")
        admin.locator("#tiers input.tier-eur").nth(1).fill("14,50")
        admin.click("#add-tier")
        admin.locator("#tiers input.tier-cards").nth(3).fill("24")
        admin.locator("#tiers input.tier-eur").nth(3).fill("45")
        admin.click("#save-tiers")
        expect(admin.locator("#tiers-msg")).to_contain_text("dès la prochaine vente")
        expect(admin.locator("#tiers tr")).to_have_count(5)
        admin.locator("#prices-panel").scroll_into_view_if_needed()
        shoot(admin, str(folder / "admin-tarifs.png"))
        admin.locator("#evenings-panel").scroll_into_view_if_needed()
        shoot(admin, str(folder / "admin-soirees-passees.png"))
        assert [(t.cards, t.cents) for t in evening.hall.price_tiers()] == [(1, 300), (6, 1450), (12, 2500), (24, 4500)]
        desk = ctx.new_page()
        desk.set_viewport_size({"width": 360, "height": 640})
        desk.goto(evening.url + "/caisse")  # the admin's session opens the door too
        expect(desk.locator("#tiers")).to_have_text(
            "Tarifs : 1 carton 3,00 € · 6 cartons 14,50 € · 12 cartons 25,00 € · 24 cartons 45,00 €"
        )
        desk.fill("#cards", "A-1..A-6")
        desk.click("#add-form button[type=submit]")
        expect(desk.locator("#amount")).to_have_value("14,50")
        shoot(desk, str(folder / "caisse-telephone-tarifs.png"))
        for width, height in ((1920, 1080), (1280, 720)):
            projector = ctx.new_page()
            projector.set_viewport_size({"width": width, "height": height})
            projector.goto(evening.url + "/")
            expect(projector.locator("#between-ties")).to_have_text(
                "Égalité : tirage au sort, le plus petit numéro gagne"
            )
            expect(projector.locator("#between-prices")).to_contain_text("6 cartons 14,50 €")
            box = projector.locator("#between-ties").bounding_box()
            assert box["y"] + box["height"] <= height  # on the screen, not below it
            shoot(projector, str(folder / f"projector-{width}x{height}-between-tarifs-egalite.png"))
            projector.close()
    finally:
        ctx.close()


def test_the_tie_dialog_says_the_hall_s_rule_and_offers_no_direction(browser, live, folder):  # noqa: F811
    from tests.display.conftest import play_to_tie

    play_to_tie(live)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        login_page(page, live.url + "/speaker", PINS["speaker_pin"])
        expect(page.locator("#pending li")).to_have_count(2)
        page.click("#award")
        expect(page.locator("#tie-hall-rule")).to_have_text("Règle de la soirée : le plus petit numéro gagne")
        expect(page.locator("#tie-choices li")).to_have_text(
            [
                "1 Tirage par l'ordinateur, affiché",
                "2 Tirage à la main dans la salle (taper les numéros)",
                "3 Partager le lot",
            ]
        )
        shoot(page, str(folder / "speaker-1280x720-tie-rule.png"))
        page.click('#tie-choices li[data-n="1"]')
        expect(page.locator("#award-result")).to_contain_text("le plus petit numéro gagne")
        assert live.hall.evening.partie.lots[0].award.tie_mode == "draw_lowest"
    finally:
        ctx.close()
