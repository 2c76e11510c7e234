"""Lots as lines in Debian's Chromium (RULES L20–L21, issue 32 item 1): a maxi-bingo counted down on the projector
and a phone and switched to its fallback on ball N + 1; a carton followed on « Mes cartons » through every lot of
its partie (won the quine, one short of the double quine, then complete); a quine on a named row on the projector,
the phone and /controle. Screenshots in the test's folder, or docs/screenshots with LOTO_SCREENSHOTS=1."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from tests.display.conftest import A1, A3, PINS, login_page, shown
from tests.display.test_players_browser import a_phone, card, said

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
MAXI = {
    "kind": "carton_plein",
    "label": "Téléviseur",
    "value_eur": 399,
    "within": 18,
    "fallback": {"label": "Jambon", "value_eur": 35, "sponsor": "Boucherie Roux"},
}
FULL_A1 = [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74, 90]


def shot(page, name: str, tmp_path) -> None:
    folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path
    page.screenshot(path=str(folder / name))


def follow(phone, room, card_id: str) -> None:
    phone.goto(room.url + f"/c/{card_id}?k={room.hall.card_code(card_id)}")  # the printed link, its code in it
    card(phone, card_id).wait_for()


def test_a_maxi_bingo_counted_down_on_the_projector_and_a_phone_then_its_fallback(page, live, browser, tmp_path):
    h = live.hall
    client = live.app.test_client()
    page.goto(live.url + "/")
    expect(page.locator("#between-title")).to_be_visible()
    assert client.post("/api/partie/start", json={"lots": [MAXI]}, headers=live.headers("speaker")).status_code == 201
    expect(page.locator("#banner-sub")).to_have_text("Carton plein en 18 boules — Téléviseur · sinon : Jambon")
    expect(page.locator("#lot")).to_have_text("Carton plein en 18 boules — Téléviseur")  # issue 40: the top bar says N
    expect(page.locator("#jackpot .jackpot-caption")).to_have_text("Jackpot en 18 boules")
    expect(page.locator("#jackpot .jackpot-count")).to_have_text("encore 18 boules")
    with a_phone(browser) as phone:
        follow(phone, live, A1)
        expect(phone.locator("#mc-jackpot")).to_have_text("Jackpot : encore 18 boules")
        first = [1, 2, 3, 5] + FULL_A1[:-1]  # 18 balls: A1 one short, its 90 still out
        for n in first[:-1]:
            h.draw(n, role="speaker")
        expect(page.locator("#jackpot .jackpot-count")).to_have_text("encore 1 boule")
        h.draw(first[-1], role="speaker")
        expect(page.locator("#jackpot .jackpot-count")).to_have_text("c'est la dernière boule !")
        expect(phone.locator("#mc-jackpot")).to_have_text("Jackpot : c'est la dernière boule !")
        expect(card(phone, A1)).to_have_attribute("data-one-to-go", "90")
        shot(page, "projector-1920x1080-maxi-last-ball.png", tmp_path)
        h.draw(90, role="speaker")  # ball 19 = N + 1: the fallback from now on
        expect(page.locator("#banner-text")).to_have_text("Le jackpot est perdu")
        expect(page.locator("#banner-sub")).to_have_text("Jackpot perdu : on joue pour Jambon")
        expect(page.locator("#lot")).to_have_text("Carton plein — Jambon")
        expect(page.locator("#jackpot .jackpot-count")).to_have_text("Jackpot perdu : on joue pour Jambon")
        expect(phone.locator("#mc-lot")).to_have_text("Carton plein — Jambon")
        expect(card(phone, A1)).to_have_attribute("data-complete", "carton_plein")
        assert "Carton plein ! Criez-le !" in said(card(phone, A1))
        shot(page, "projector-1920x1080-maxi-fallback.png", tmp_path)
        shot(phone, "mes-cartons-360x640-maxi-fallback.png", tmp_path)
        assert h.check_claim(A1, role="controller").verdict == "valid"
        expect(page.locator("#banner-sub")).to_have_text(
            "Carton plein — Jambon — Lot de repli (boule 19, jackpot jusqu'à 18)"
        )
        expect(phone.locator("#mc-news")).to_contain_text(f"Votre carton {shown(A1)} est validé")
        h.award(role="speaker")
        expect(page.locator("#banner-text")).to_contain_text(f"Carton plein — Jambon — gagné par le carton {shown(A1)}")
        expect(card(phone, A1)).to_contain_text("Gagné : Carton plein — Jambon")


def test_a_winner_s_phone_follows_it_to_the_next_lot_and_never_contradicts_it(live, browser, tmp_path):
    """Issue 32 item 1: D-00001K won the quine, was then one short of — and completed — the double quine, and its
    phone stayed on « Gagné : Quine »; it also kept « Fausse annonce » while its own carton was being validated."""
    h = live.hall
    h.start_partie(role="speaker")
    with a_phone(browser) as phone:
        follow(phone, live, A1)
        for n in [4, 13, 37, 52, 80]:
            h.draw(n, role="speaker")
        expect(card(phone, A1)).to_have_attribute("data-complete", "quine")
        h.announce_claim(role="controller")
        h.check_claim(A3, role="controller")  # someone else's false claim first
        expect(phone.locator("#mc-news")).to_have_text("Fausse annonce — la partie continue")
        h.check_claim(A1, role="controller")  # then our own carton, valid
        expect(phone.locator("#mc-news")).to_have_text(f"Votre carton {shown(A1)} est validé : Quine — Panier garni")
        expect(card(phone, A1).locator(".mc-status")).to_have_text(
            "Validé : Quine — Panier garni. Le lot va être attribué."
        )
        h.award(role="speaker")
        expect(card(phone, A1).locator(".mc-status")).to_contain_text("Gagné : Quine — Panier garni")
        h.resume(role="speaker")  # the draw waits after an award (docs/loto-rules.md L11a)
        for n in [9, 21, 45, 66]:  # the middle row, one short: 84
            h.draw(n, role="speaker")
        expect(card(phone, A1)).to_have_attribute("data-one-to-go", "84")
        expect(card(phone, A1).locator(".mc-status")).to_have_text("Plus qu'un : 84")
        expect(card(phone, A1).locator(".mc-won")).to_contain_text("Gagné : Quine — Panier garni")  # said beside
        shot(phone, "mes-cartons-360x640-won-then-one-to-go.png", tmp_path)
        h.draw(84, role="speaker")
        expect(card(phone, A1)).to_have_attribute("data-complete", "double_quine")
        expect(card(phone, A1).locator(".mc-status")).to_have_text("Double quine ! Criez-le !")
        phone.reload()  # the same after a reload: the state says what it won
        expect(card(phone, A1).locator(".mc-status")).to_have_text("Double quine ! Criez-le !")
        expect(card(phone, A1).locator(".mc-won")).to_contain_text("Gagné : Quine — Panier garni")


def test_a_quine_on_the_middle_row_on_the_projector_a_phone_and_controle(page, live, browser, tmp_path):
    h = live.hall
    client = live.app.test_client()
    lots = [{"kind": "quine", "label": "Panier garni", "row": 2}, {"kind": "carton_plein", "label": "Vélo"}]
    assert client.post("/api/partie/start", json={"lots": lots}, headers=live.headers("speaker")).status_code == 201
    page.goto(live.url + "/")
    expect(page.locator("#lot")).to_have_text("Quine sur la ligne du milieu — Panier garni")
    with a_phone(browser) as phone:
        follow(phone, live, A1)
        expect(phone.locator("#mc-lot")).to_have_text("Quine sur la ligne du milieu — Panier garni")
        for n in [4, 13, 37, 52, 80, 9, 21]:  # the top row complete: not this lot's
            h.draw(n, role="speaker")
        expect(phone.locator("#mc-last")).to_have_text("21")
        assert card(phone, A1).get_attribute("data-complete") is None
        assert "Criez" not in said(card(phone, A1))
        h.draw(45, role="speaker")
        h.draw(66, role="speaker")
        expect(card(phone, A1)).to_have_attribute("data-one-to-go", "84")
        ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR")
        ctl = ctx.new_page()
        login_page(ctl, live.url + "/controle", PINS["controller_pin"])
        ctl.fill("#card-id", A1)
        ctl.press("#card-id", "Enter")
        expect(ctl.locator("#verdict-line")).to_have_text("Fausse annonce : seule la ligne du milieu compte")
        expect(ctl.locator("#verdict-sub")).to_contain_text("Quine sur la ligne du milieu — Panier garni")
        expect(ctl.locator("#verdict-grid tr.row-named")).to_have_count(1)
        shot(ctl, "controle-360x640-named-row.png", tmp_path)
        ctx.close()


def test_both_terms_typed_on_admin_and_at_the_speaker_s_console(live, browser):
    """A maxi-bingo programmed on /admin; at the console, the quine put on the middle row just before the start:
    the partie plays both, and the report names the change (RULES L17a)."""
    h = live.hall
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    try:
        admin = ctx.new_page()
        login_page(admin, live.url + "/admin", PINS["admin_pin"])
        third = admin.locator(".programme-editor .partie").first.locator(".lot").nth(2)  # the carton plein
        third.locator('[data-term="within"]').fill("45")
        third.locator('[data-term="fallback_label"]').fill("Jambon")
        third.locator('[data-term="fallback_value"]').fill("35,50")
        admin.click("#save-programme")
        expect(admin.locator("#programme-msg")).to_contain_text("à partir de la partie 1")
        lot = h.partie_spec(0).lots[2]
        assert (lot.within, lot.fallback.label, lot.fallback.value_eur) == (45, "Jambon", 35.5)
        first = admin.locator(".programme-editor .partie").first.locator(".lot").nth(1)  # a double quine: no row
        assert first.locator('[data-term="row"]').count() == 0
        admin.locator(".programme-editor .partie").first.locator(".lot").nth(2).locator("[data-term='within']").fill(
            "9"
        )
        admin.click("#save-programme")  # refused: the reason at the top, in red
        expect(admin.locator("#admin-alert")).to_contain_text("Maxi-bingo refusé (partie 1, lot 3)")
        assert h.partie_spec(0).lots[2].within == 45

        speaker = ctx.new_page()
        speaker.goto(live.url + "/speaker")  # the admin's session opens every page
        speaker.wait_for_load_state("load")
        quine = speaker.locator("#lots-editor li").first
        assert quine.locator('[data-term="within"]').count() == 0  # only a maxi-bingo adds a line
        expect(speaker.locator("#lots-editor li").nth(2).locator('[data-term="within"]')).to_have_value("45")
        quine.locator("[data-choice]").select_option(label="Quine du milieu")
        speaker.click("#start")
        expect(speaker.locator("#sp-lot")).to_have_text("Quine sur la ligne du milieu — Panier garni")
        played = [lot.spec for lot in h.evening.running.lots]
        assert (played[0].row, played[2].within, played[2].fallback.label) == (2, 45, "Jambon")
        assert played[2].fallback.value_eur == 35.5  # the maxi-bingo named: kept as programmed
        assert h.records("partie:started")[-1].event.planned  # the quine's row: a change, for the report
    finally:
        ctx.close()
