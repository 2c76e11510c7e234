"""The parties: partie 1's quine after a false claim and its double quine won by the same carton, followed on the
phone; « Démarquez » carrying the Vélo; the reservation paid at the break, the buvette selling and the tombola drawn
at the interval; partie 2's tie on the middle row, the carried Vélo played where its kind plays, « Démarquez » keeping
the Cafetière."""

from __future__ import annotations

import re

from tests.display.whole_evening.stage import (
    HALL_NAME,
    IDS,
    Evening,
    award,
    ball,
    balls,
    card,
    check,
    expect,
    next_card,
    pad,
    partie_starts,
    resume,
    shown,
    status_of,
)


# ---------------------------------------------------------------------------------------------- partie 1
def partie_1_quine_after_a_false_claim(ev: Evening) -> None:
    """Partie 1's quine: the phone sees its carton one short, then complete; the hall cries, the speaker stops the
    draw, a false claim first (red at /controle, « Fausse annonce » on the projector and the phone), then the
    phone's carton valid and awarded: its voucher noted for the prize desk."""
    speaker = ev.open("speaker")
    expect(speaker.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    expect(speaker.locator("#lots-editor li .lot-worth")).to_have_text(["40,00 €", "35,00 €", "189,00 €"])
    ev.open("controle")
    partie_starts(ev, 1, "Quine — Panier garni")
    phone, screen, ctl = ev["phone"], ev["projector"], ev["controle"]
    balls(ev, 4, 13, 37, 52)
    expect(card(phone, IDS["P"])).to_have_attribute("data-one-to-go", "80")
    expect(status_of(phone, IDS["P"])).to_have_text("Plus qu'un : 80")
    expect(screen.locator("#count")).to_have_text("4 numéros tirés")
    ball(ev, 80)
    expect(card(phone, IDS["P"])).to_have_attribute("data-complete", "quine")
    expect(status_of(phone, IDS["P"])).to_have_text("Quine ! Criez-le !")
    expect(phone.locator("[data-card]").first).to_have_attribute("data-card", IDS["P"])  # the best first
    ev.shot("quine-criez-le", "phone")
    pad(ev, "NumpadAdd")  # « Quine ! »: + stops the draw
    expect(ev["speaker"].locator("#sp-status")).to_contain_text("Tirage arrêté : vérification")
    expect(screen.locator("#banner-text")).to_have_text("Vérification en cours…")
    expect(ctl.locator("#ctl-checking")).to_be_visible()
    check(ev, IDS["F"], "Fausse annonce : il manque 3 numéro(s)", "bad")
    expect(screen.locator("#banner-text")).to_have_text("Fausse annonce — la partie continue")
    expect(phone.locator("#mc-news")).to_have_text("Fausse annonce — la partie continue")
    ev.shot("fausse-annonce", "controle")
    ev.shot("fausse-annonce", "projector")
    check(ev, IDS["P"], "Quine valide !", "good")
    expect(ctl.locator("#verdict-sub")).to_have_text("Quine — Panier garni · Dernier numéro : 80")
    expect(screen.locator("#banner-text")).to_have_text(f"Quine validée — carton {shown(IDS['P'])}")
    expect(screen.locator("#winners .win-card figcaption")).to_have_text([shown(IDS["P"])])  # drawn large
    expect(phone.locator("#mc-news")).to_have_text(f"Votre carton {shown(IDS['P'])} est validé : Quine — Panier garni")
    expect(ev["speaker"].locator("#pending li")).to_have_count(1)
    ev.shot("quine-valide", "controle")
    ev.shot("quine-valide", "projector")
    ev.noted["voucher_quine"] = award(ev, [IDS["P"]])
    assert len(ev.noted["voucher_quine"]) == 1
    expect(screen.locator("#banner-text")).to_have_text(f"Quine — Panier garni — gagné par le carton {shown(IDS['P'])}")
    expect(screen.locator("#lot")).to_have_text("Double quine — Jambon")
    expect(status_of(phone, IDS["P"])).to_contain_text("Gagné : Quine — Panier garni")
    expect(ctl.locator("#ctl-lot")).to_have_text("Double quine — Jambon")
    ev.shot("quine-attribuee", "speaker")
    resume(ev)


def partie_1_double_quine_by_the_same_carton(ev: Evening) -> None:
    """The winner's phone follows its carton to the next lot: one short of the double quine with its quine still
    said beside, then « Double quine ! Criez-le ! »; valid again at /controle (« Déjà vérifié 1 fois »), awarded."""
    phone, screen = ev["phone"], ev["projector"]
    balls(ev, 9, 21, 45, 66)
    expect(card(phone, IDS["P"])).to_have_attribute("data-one-to-go", "84")
    expect(status_of(phone, IDS["P"])).to_have_text("Plus qu'un : 84")
    expect(card(phone, IDS["P"]).locator(".mc-won")).to_contain_text("Gagné : Quine — Panier garni")
    ev.shot("gagne-puis-plus-qu-un", "phone")
    ball(ev, 84)
    expect(card(phone, IDS["P"])).to_have_attribute("data-complete", "double_quine")
    expect(status_of(phone, IDS["P"])).to_have_text("Double quine ! Criez-le !")
    check(ev, IDS["P"], "Double quine valide !", "good")
    expect(ev["controle"].locator("#verdict-sub")).to_have_text("Double quine — Jambon · Dernier numéro : 84")
    expect(ev["controle"].locator("#verdict-note")).to_have_text("Déjà vérifié 1 fois")
    expect(screen.locator("#banner-text")).to_have_text(f"Double quine validée — carton {shown(IDS['P'])}")
    ev.noted["voucher_double"] = award(ev, [IDS["P"]])
    expect(phone.locator("#mc-news")).to_have_text(f"Gagné ! Double quine — Jambon — votre carton {shown(IDS['P'])}")
    expect(phone.locator("#mc-news .id")).to_have_count(1)  # the ID never broken at its dash
    expect(screen.locator("#lot")).to_have_text("Carton plein — Vélo")
    expect(card(phone, IDS["P"]).locator(".mc-status")).to_contain_text(
        "Gagné : Quine — Panier garni, Double quine — Jambon"
    )
    ev.shot("double-quine", "phone")
    resume(ev)


def partie_1_demarquez_carrying_the_velo(ev: Evening) -> None:
    """« Démarquez » with the Vélo unwon (* 3): the console names it and carries it (1); the projector, the phone
    and the console show partie 2 with the Vélo where its kind plays: after the quine, before the Cafetière."""
    speaker, screen, phone = ev["speaker"], ev["projector"], ev["phone"]
    pad(ev, "NumpadMultiply", "Numpad3")
    expect(speaker.locator("#clear-lots li")).to_have_text(["Carton plein — Vélo"])
    ev.shot("demarquez-lots-restants", "speaker")
    pad(ev, "Numpad1")
    expect(speaker.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    expect(screen.locator("#banner-text")).to_have_text("Démarquez !")
    lots = ["Quine sur la ligne du milieu — Filet garni", "Carton plein — Vélo", "Carton plein — Cafetière"]
    expect(screen.locator("#between-title")).to_have_text("Prochaine partie : n° 2")
    expect(screen.locator("#between-lots li")).to_have_text(lots)
    expect(phone.locator("#mc-next-title")).to_have_text("Prochaine partie : n° 2")
    expect(phone.locator("#mc-next-lots li")).to_have_text(lots)
    expect(speaker.locator("#lots-editor li")).to_have_count(3)
    expect(speaker.locator("#lots-editor li").nth(1).locator(".lot-line input")).to_have_value("Vélo")
    ev.shot("entre-deux-parties", "projector")
    ev.shot("entre-deux-parties", "phone")


# ---------------------------------------------------------------------------------------------- the break
def reservation_paid_at_the_break(ev: Evening) -> None:
    """Łukasz Wałęsa arrives and pays his reservation by cheque at the door (« Payé », asked in the page): the
    takings count it now, on /caisse and on /admin."""
    desk, admin = ev["caisse"], ev["admin"]
    desk.locator("#recent li.reserved button").click()
    box = desk.locator("dialog#ask[open]")
    expect(box.locator("#ask-title")).to_have_text("Vente n° 3 : encaisser la réservation")
    box.locator("button[data-answer=cheque]").click()
    expect(desk.locator("#recent li.reserved")).to_have_count(0)
    expect(desk.locator("#totals")).to_contain_text("Recette : 19,00 €")
    expect(desk.locator("#totals")).not_to_contain_text("réservé")
    expect(admin.locator("#takings")).to_contain_text("7 cartons vendus")
    expect(admin.locator("#takings tr", has_text="Chèque")).to_contain_text("3,00 €")


def buvette_sells_at_the_break(ev: Evening) -> None:
    """The admin puts the buvette's products on sale (/admin); Zoé's tablet sells two beers and a coffee for 10 € in
    cash and says the change; a volunteer's coffee is free; the stock is counted down (RULES L25)."""
    admin = ev["admin"]
    admin.fill("#buvette-products", "Café ; 1 ; 50\nBière ; 2,50 ; 24")
    admin.fill("#buvette-costs", "30")
    admin.click("#buvette-save")
    expect(admin.locator("#buvette-msg")).to_have_text("Produits enregistrés.")
    expect(admin.locator("#buvette-statement")).to_contain_text("pas un logiciel de caisse certifié (NF525)")
    bar = ev.open("buvette")
    for product in ("Bière", "Bière", "Café"):
        bar.locator(f"button[data-product='{product}']").click()
    expect(bar.locator("#total")).to_have_text("Total : 6,00 €")
    bar.fill("#tendered", "10")
    expect(bar.locator("#change")).to_have_text("Rendu : 4,00 €")
    bar.click("#sell")
    expect(bar.locator("#result")).to_have_text("Ticket n° 1 : 6,00 € — rendez 4,00 €")
    bar.locator("button[data-product='Café']").click()
    bar.click("button[data-payment='free']")
    bar.click("#sell")
    expect(bar.locator("#result")).to_have_text("Ticket n° 2 : 1,00 €")
    expect(bar.locator("button[data-product='Café']")).to_contain_text("reste 48")
    expect(bar.locator("button[data-product='Bière']")).to_contain_text("reste 22")


def tombola_drawn_at_the_interval(ev: Evening) -> None:
    """The tombola's public draw at the interval (RULES L24): the projector turned to /tombola; on the console the
    speaker closes the sales, is refused a draw before the president and two witnesses are named, then draws lot 1
    among the sold tickets (the hall's randomness) and lot 2 from a ticket drawn by hand — typed once as lot 1's
    winner (refused: a ticket wins once), then another. The projector calls each winner by its number (never a
    name); the winners' list comes out of the printer; the projector goes back to the parties."""
    speaker, screen = ev["speaker"], ev["projector"]
    sold = ev.noted["tombola"]  # ticket → buyer, from the door
    screen.goto(ev.url + "/tombola")
    expect(screen.locator(".tombola-who")).to_have_text("7 billets vendus : la vente est ouverte.")
    panel, state, said = (
        speaker.locator("#tombola-draw"),
        speaker.locator("#tb-draw-state"),
        speaker.locator("#tb-draw-msg"),
    )
    expect(panel).to_be_visible()
    panel.scroll_into_view_if_needed()
    expect(state).to_have_text("7 billets vendus sur 100 (14,00 €).")
    expect(speaker.locator("#tb-draw-next")).to_be_disabled()  # the sales are open: no draw yet
    speaker.click("#tb-close")
    expect(state).to_have_text("Lot suivant : n° 1, Bouteille de champagne.")
    speaker.click("#tb-draw-next")  # nobody named yet: refused in words, nothing drawn
    expect(said).to_contain_text("le président et deux témoins")
    expect(speaker.locator("#tb-winners li")).to_have_count(0)
    speaker.fill("#tb-president", "Mme Leroy")
    speaker.fill("#tb-witness-1", "M. Petit")
    speaker.fill("#tb-witness-2", "Mme Blanc")
    speaker.click("#tb-draw-next")  # the hall draws lot 1 among the sold tickets
    winners = speaker.locator("#tb-winners li")
    expect(winners).to_have_count(1)
    drawn = winners.nth(0).text_content()
    first = int(re.search(r"billet n° (\d+)", drawn)[1])
    assert first in sold, drawn
    expect(winners.nth(0)).to_have_text(f"Lot n° 1 (Bouteille de champagne) : billet n° {first} — {sold[first]}")
    expect(state).to_have_text("Lot suivant : n° 2, Corbeille de fruits.")
    speaker.fill("#tb-hand", str(first))  # lot 1's winner drawn again from the urn: refused
    speaker.click("#tb-draw-next")
    expect(said).to_have_text(f"Le billet n° {first} a déjà gagné : un billet ne gagne qu'une fois.")
    expect(screen.locator(".tombola-last")).to_contain_text(f"le billet n° {first}", timeout=8000)  # lot 1 called
    expect(screen.locator(".tombola-who")).to_have_text("Tirage conduit par Mme Leroy, devant M. Petit et Mme Blanc.")
    ev.shot("tombola-lot-1", "projector")
    second = min(n for n in sold if n != first)
    speaker.fill("#tb-hand", str(second))
    speaker.click("#tb-draw-next")
    expect(winners).to_have_count(2)
    expect(winners.nth(1)).to_have_text(f"Lot n° 2 (Corbeille de fruits) : billet n° {second} — {sold[second]}")
    expect(state).to_have_text("Tous les lots sont tirés.")
    expect(speaker.locator("#tb-draw-next")).to_be_disabled()
    speaker.click("#tb-print-list")
    expect(said).to_have_text("La liste des gagnants part à l'imprimante.")
    winners.nth(1).scroll_into_view_if_needed()
    ev.shot("tombola-tiree", "speaker")
    (paper,) = ev.printed("LISTE DES GAGNANTS")
    paper = " ".join(paper.split())
    assert "Conduit par Mme Leroy, devant M. Petit et Mme Blanc" in paper, paper
    assert f"1. Bouteille de champagne : billet n° {first}" in paper, paper
    assert f"2. Corbeille de fruits : billet n° {second}" in paper, paper
    assert "Roux" not in paper and "Abel" not in paper and paper.count("Témoin :") == 2
    expect(screen.locator(".tombola-last")).to_contain_text(f"le billet n° {second}", timeout=8000)  # lot 2 called
    expect(screen.locator(".tombola-lots li .tombola-ticket")).to_have_text(
        [f"billet n° {first}", f"billet n° {second}"]
    )
    assert "Roux" not in screen.content() and "Abel" not in screen.content()  # numbers only on the projector
    ev.shot("tombola-gagnants", "projector")
    ev.noted["tombola_wins"] = (first, second)
    screen.goto(ev.url + "/")  # back to the parties
    screen.wait_for_selector("body[data-seq]", state="attached")
    expect(screen.locator("#between-title")).to_have_text("Prochaine partie : n° 2")


# ---------------------------------------------------------------------------------------------- partie 2
def partie_2_tie_on_the_middle_row(ev: Evening) -> None:
    """Partie 2 opens on its quine on the middle row, the carried Vélo next. Two cartons complete their middle row
    on ball 77: a controller stops the draw from the floor, both are valid, the projector shows both; the speaker
    settles the tie by hand (tokens drawn in the hall, numbers typed): the lowest wins, the other is consoled."""
    speaker, screen, ctl, phone = ev["speaker"], ev["projector"], ev["controle"], ev["phone"]
    partie_starts(ev, 2, "Quine sur la ligne du milieu — Filet garni")
    expect(screen.locator("#next-lots")).to_have_text("ensuite : Carton plein — Vélo · Carton plein — Cafetière")
    expect(card(phone, IDS["P"]).locator(".mc-won")).to_have_count(0)  # last partie's wins stay there
    expect(status_of(phone, IDS["P"])).to_be_empty()
    balls(ev, 7, 16, 34, 36, 48)
    expect(speaker.locator("#watch-count")).to_have_text("Personne ne peut crier pour l'instant")
    ball(ev, 77)
    expect(speaker.locator("#watch-count")).to_have_text("2 carton(s) peuvent crier quine")  # the speaker's watch
    next_card(ev)
    ctl.click("#announce")  # stopped from the floor
    expect(ctl.locator("#ctl-checking")).to_be_visible()
    expect(screen.locator("#banner-text")).to_have_text("Vérification en cours…")
    expect(speaker.locator("#sp-status")).to_contain_text("Tirage arrêté : vérification")
    for tied in ("T", "U"):
        check(ev, IDS[tied], "Quine valide !", "good")
    both = f"{shown(IDS['T'])}, {shown(IDS['U'])}"
    expect(screen.locator("#banner-text")).to_have_text(f"Quine : 2 cartons valides — {both}")
    expect(screen.locator("#winners .win-card figcaption")).to_have_text([shown(IDS["T"]), shown(IDS["U"])])
    expect(speaker.locator("#pending li")).to_have_count(2)
    ev.shot("egalite", "projector")
    pad(ev, "NumpadMultiply", "Numpad2")  # award: a tie, the way asked
    expect(speaker.locator("#tie-title")).to_have_text("Égalité : 2 cartons gagnants")
    expect(speaker.locator("#tie-hall-rule")).to_have_text("Règle de la soirée : le plus petit numéro gagne")
    pad(ev, "Numpad2")  # tokens drawn by hand
    expect(screen.locator("#banner-text")).to_have_text("Égalité : chaque gagnant tire un numéro auprès de l'animateur")
    speaker.locator(f"#tie-numbers input[data-card='{IDS['T']}']").fill("61")
    speaker.locator(f"#tie-numbers input[data-card='{IDS['U']}']").fill("17")
    ev.shot("egalite-numeros-tires", "speaker")
    speaker.locator("#tie-numbers button[type=submit]").click()
    result = speaker.locator("#award-result")
    expect(result).to_contain_text(f"Lot attribué au carton {shown(IDS['U'])}")
    expect(result).to_contain_text(f"Lot de consolation : {shown(IDS['T'])}")
    ev.noted["voucher_tie"] = result.locator(".voucher-code").all_text_contents()
    assert len(ev.noted["voucher_tie"]) == 2  # the winner's and the consolation's
    lines = screen.locator("#banner-lines li")
    expect(lines).to_have_text([f"Le carton {shown(IDS['T'])} tire le 61", f"Le carton {shown(IDS['U'])} tire le 17"])
    expect(screen.locator("#banner-sub")).to_have_text(
        f"Quine sur la ligne du milieu — Filet garni — gagné par le carton {shown(IDS['U'])}"
        f" · Lot de consolation : {shown(IDS['T'])}"
    )
    expect(screen.locator("#lot")).to_have_text("Carton plein — Vélo")
    ev.shot("egalite-tiree", "projector")
    resume(ev)


def partie_2_the_carried_velo_won(ev: Evening) -> None:
    """The Vélo carried from partie 1 is played as partie 2's first carton plein: a carton full, valid, awarded;
    the partie's own carton plein (the Cafetière) is open next, on the same ball: that carton, claimed again, has
    already won a carton plein (its reason said everywhere)."""
    speaker, screen = ev["speaker"], ev["projector"]
    full = [2, 11, 20, 30, 60, 3, 12, 21, 41, 61, 4, 13, 22, 42, 62]
    balls(ev, *full)
    check(ev, IDS["C"], "Carton plein valide !", "good")
    expect(ev["controle"].locator("#verdict-sub")).to_have_text("Carton plein — Vélo · Dernier numéro : 62")
    expect(screen.locator("#banner-text")).to_have_text(f"Carton plein validé — carton {shown(IDS['C'])}")
    ev.noted["voucher_velo"] = award(ev, [IDS["C"]])
    expect(screen.locator("#banner-text")).to_have_text(f"Carton plein — Vélo — gagné par le carton {shown(IDS['C'])}")
    expect(screen.locator("#lot")).to_have_text("Carton plein — Cafetière")
    expect(speaker.locator("#sp-lot")).to_have_text("Carton plein — Cafetière")
    ev.shot("velo-gagne", "projector")
    # the Cafetière opens on the same 62 (RULES L11): the Vélo's carton claims it too, and is told why it cannot
    # take a second carton plein — the reason said on /controle, the projector and its ritual (RULES L12a)
    check(ev, IDS["C"], "Déjà payé : ce carton a déjà gagné un carton plein", "warn")
    expect(screen.locator("#banner-text")).to_have_text("Déjà payé pour ce lot — la partie continue")
    expect(screen.locator("#ritual-words")).to_have_text("Ce carton a déjà gagné le carton plein.")


def partie_2_demarquez_keeping_the_cafetiere(ev: Evening) -> None:
    """« Démarquez » with the Cafetière unwon, not carried (2): it stays with the association for another loto."""
    speaker, screen = ev["speaker"], ev["projector"]
    pad(ev, "NumpadMultiply", "Numpad3")
    expect(speaker.locator("#clear-lots li")).to_have_text(["Carton plein — Cafetière"])
    pad(ev, "Numpad2")
    expect(speaker.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    expect(screen.locator("#banner-text")).to_have_text("Démarquez !")
    expect(screen.locator("#between-hall")).to_have_text(HALL_NAME)
    ev.shot("fin-des-parties", "projector")
