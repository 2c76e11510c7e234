"""The words of the staff's door that the pages' scripts ask for (``common.js`` ``t``): the live consoles on /admin,
the seller at the caisse, the carton's code on « Mes cartons ». Merged into ``display.page_words.JS_STRINGS``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

DOOR_STRINGS = {
    "consoles_now": _l("à l'instant"),
    "consoles_minutes": _l("il y a %(n)s min"),
    "consoles_hours": _l("il y a %(n)s h"),
    "consoles_end": _l("Terminer"),
    "consoles_forget": _l("Terminer et oublier"),
    "consoles_forget_ask": _l("Terminer cette console et l'oublier ?"),
    "consoles_self": _l("cette console"),
    "consoles_unnamed": _l("sans prénom"),
    "consoles_ended": _l("Console terminée : elle retape son code PIN."),
    "consoles_forgotten": _l("Console terminée et oubliée : elle redevient inconnue (code PIN ou code d'ajout)."),
    "seller_is": _l("Vendeur : %(name)s"),
    "seller_unnamed": _l("cette tablette (sans prénom)"),
    "mc_refused_bad_card_code": _l("Carton %(card)s : tapez aussi le code imprimé sous son QR code."),
}
