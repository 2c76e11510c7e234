"""The words of the buvette's till (``/buvette``) and of its section on /admin that the scripts ask for (``common.js``
``t``). Merged into ``display.page_words.JS_STRINGS``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

BUVETTE_STRINGS = {
    "bv_left": _l("reste %(n)s"),
    "bv_out": _l("épuisé"),
    "bv_empty": _l("Touchez un produit"),
    "bv_total": _l("Total : %(eur)s €"),
    "bv_change": _l("Rendu : %(eur)s €"),
    "bv_short": _l("Il manque %(eur)s €"),
    "bv_done": _l("Ticket n° %(n)s : %(eur)s €"),
    "bv_done_change": _l("Ticket n° %(n)s : %(eur)s € — rendez %(change)s €"),
    "bv_pay_cash": _l("Espèces"),
    "bv_pay_card": _l("Carte"),
    "bv_pay_free": _l("Offert (bénévole)"),
    "bv_remove_one": _l("Retirer un"),
    "bv_z_done": _l("Z n° %(z)s : %(eur)s € de recette"),
    "bv_no_products": _l("Aucun produit : l'administrateur les saisit sur /admin."),
    "bv_products_saved": _l("Produits enregistrés."),
    "bv_counted_of": _l("Compté : %(name)s"),
    "bv_z_gaps": _l("écarts de stock : %(gaps)s"),
}
