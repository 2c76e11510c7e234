"""An evening the treasurer's papers are read on: cartons whose IDs look like numbers, buyers with long and
Polish names, a voided sale and an unpaid reservation, a lot carried by « Démarquez » and won in the next partie,
a bike never won, a money lot flagged — played through a real Hall, whatever order the next partie plays its lots
in (RULES L19 is the "lines" engineer's: this evening wins the lots as they come)."""

from __future__ import annotations

import random
from pathlib import Path

from display import views
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.door.service import Hall
from hall.loto.programme import parse_parties
from hall.record.journal import Journal

POLISH = "Łukasz Wałęsa"
LONG = "Marie-Amélie de La Roche-Vendôme-Sautern"  # 40 characters
assert len(LONG) == 40
NUMBER_LIKE_IDS = ("000123", "0042", "12E3")
ROWS = {"quine": 1, "double_quine": 2, "carton_plein": 3}
PROGRAMME = [
    {
        "lots": [
            {"kind": "quine", "label": "Panier garni", "value_eur": 40, "sponsor": "Boulangerie Morel"},
            {"kind": "double_quine", "label": "Jambon", "value_eur": 35},
            {"kind": "carton_plein", "label": "Vélo", "value_eur": 899},
        ]
    },
    {
        "lots": [
            {"kind": "quine", "label": "50 € en espèces"},  # a prize in money: flagged on /admin
            {"kind": "carton_plein", "label": "Filet garni", "value_eur": 25},
        ]
    },
]
RECEIPTS = 300 + 600 + 600  # the paid sales: the voided one and the reservation are out
GIVEN = 4000 + 3500  # the basket (partie 1) and the ham, carried and won in partie 2
KEPT = 89900 + 2500  # the bike and the net, never won: kept for another loto


def open_hall(folder: Path, language: str = "fr", auth: dict | None = None) -> Hall:
    folder.mkdir(parents=True, exist_ok=True)
    generated = generate_cards(16, seed="treasurer", series="L")
    ids = list(NUMBER_LIKE_IDS) + [cid for cid, _ in generated[len(NUMBER_LIKE_IDS) :]]
    cards = {cid: card for cid, (_, card) in zip(ids, generated)}
    config = parse_config(
        {
            "hall": {
                "name": "Comité des fêtes de Saint-Étienne-de-Saint-Geoirs",
                "data_dir": str(folder),
                "language": language,
            },
            "auth": auth or {},
        }
    )
    return Hall(
        config, Journal(folder / "journal.sqlite"), CardBook(cards), voucher_secret=b"k" * 32, rng=random.Random(3)
    )


def win_current(hall: Hall, card_id: str) -> dict:
    """Draw what ``card_id`` needs for the partie's open lot (one, two or three rows), check it, award it."""
    p = hall.evening.running
    if p.held:  # the draw waits for the speaker after an award (docs L11a): she goes on
        hall.resume(role="speaker")
    lot = p.current_lot
    for row in hall.book.get(card_id).rows[: ROWS[lot.kind]]:
        for n in row:
            if n not in p.draws:
                hall.draw(n, role="speaker")
    verdict = views.verdict(hall.check_claim(card_id, role="controller"))
    assert verdict["verdict"] == "valid", verdict
    return views.award(hall.award(role="speaker"))


def play(folder: Path, language: str = "fr", auth: dict | None = None) -> Hall:
    h = open_hall(folder, language, auth)
    ids = list(h.book)
    h.sell([ids[0]], role="desk", payment="especes", cents=300, buyer=POLISH, seller="Anne")
    h.sell([ids[1], ids[2]], role="desk", payment="carte", cents=600, buyer=LONG, seller="Jean-Baptiste Grégoire")
    voided = h.sell([ids[3]], role="desk", payment="cheque", cents=300, seller="Anne").event
    h.void_sale(voided.sale_id, role="admin")
    h.sell([ids[4]], role="desk", payment="especes", cents=300, paid=False, buyer="Mme Dupont")
    h.sell([ids[5], ids[6]], role="desk", payment="especes", cents=600, seller="Anne")
    h.edit_programme(parse_parties(PROGRAMME), role="admin")
    h.start_partie(role="speaker")
    win_current(h, ids[0])  # the basket, to Łukasz Wałęsa's carton 000123
    h.clear(role="speaker", force=True, carry=True)  # the ham and the bike are promised to partie 2
    h.start_partie(role="speaker")
    fresh = iter(ids[1:3] + ids[5:])
    while h.evening.running.current_lot.kind != "carton_plein":
        win_current(h, next(fresh))  # the ham (carried) and, where it plays first, the money quine
    h.clear(role="speaker", force=True)  # the bike and the net are not given: kept
    return h
