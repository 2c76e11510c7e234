"""The words of the tombola's sections that the scripts ask for (``common.js`` ``t``): its preparation on /admin, its
sale at /caisse, its draw on the speaker's console. Merged into ``display.page_words.JS_STRINGS``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

TOMBOLA_STRINGS = {
    "tb_check": _l(
        "Frais et lots achetés : %(spent)s € pour %(issued)s € de billets émis, soit %(percent)s "
        "(plafond : %(limit)s €, %(share)s)."
    ),
    "tb_over": _l(
        "Attention : les frais et les lots achetés dépassent %(share)s de la valeur des billets émis (%(over)s € de "
        "trop). Réduisez les frais ou les lots achetés, ou émettez plus de billets."
    ),
    "tb_within": _l("Les frais restent sous le plafond : la tombola est conforme."),
    "tb_no_check": _l(
        "Le contrôle des frais (au plus 15 %) s'affiche dès que le prix, les billets et les lots sont saisis."
    ),
    "tb_donated": _l("donné"),
    "tb_bought": _l("acheté"),
    "tb_saved": _l("Tombola enregistrée : %(tickets)s billets à %(price)s €."),
    "tb_ch_ask": _l(
        "Fribourg : au-delà de CHF 50 000 d'enjeux, la tombola est demandée à la Préfecture (pas seulement annoncée)."
    ),
    "tb_state": _l("%(sold)s billets vendus sur %(tickets)s (%(takings)s €)."),
    "tb_sold": _l("Billets n° %(numbers)s vendus à %(buyer)s (%(eur)s €) : ils s'impriment."),
    "tb_to": _l("à"),
    "tb_carnets": _l("carnets de %(n)s"),
    "tb_total": _l("À encaisser : %(eur)s €"),
    "tb_pay_especes": _l("Espèces"),
    "tb_pay_carte": _l("Carte"),
    "tb_pay_cheque": _l("Chèque"),
    "tb_closed": _l("La vente est close : %(sold)s billets vendus."),
    "tb_drawn": _l("Lot n° %(lot)s (%(label)s) : billet n° %(ticket)s"),
    "tb_next": _l("Lot suivant : n° %(lot)s, %(label)s."),
    "tb_all_drawn": _l("Tous les lots sont tirés."),
    "tb_list_printed": _l("La liste des gagnants part à l'imprimante."),
    "tb_collected": _l("Tombola — à remettre : %(lot)s"),
    "tb_collected_detail": _l("Lot n° %(n)s, contre le billet n° %(ticket)s"),
    "tb_not_prepared": _l("Aucune tombola n'est préparée : l'administrateur la prépare sur /admin."),
}
