"""The words of « Clore la soirée » on /admin and the speaker's console (``display/templates/_evening_close.html``,
``evening_close.js``: the two confirmations, then the evening closed, its fingerprint and where the board's copy
stands). Merged into ``display.page_words.JS_STRINGS``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

CLOSE_STRINGS = {
    "close_ask": _l("Clore la soirée ?"),
    "close_ask_text": _l(
        "Plus aucune boule, vente ni partie ensuite. La copie du bureau s'imprime avec les comptes et l'empreinte "
        "du journal."
    ),
    "close_go_on": _l("Continuer"),
    "close_type_title": _l("Dernière confirmation"),
    "close_type_label": _l("Tapez %(word)s pour clore la soirée"),
    "close_word": _l("CLORE"),
    "close_yes": _l("Clore la soirée"),
    "close_word_wrong": _l("Ce n'est pas %(word)s : la soirée reste ouverte."),
    "close_done": _l("Soirée close à %(at)s : plus aucune boule, vente ni partie."),
    "close_fp": _l("Empreinte du journal : %(fp)s (enregistrement n° %(seq)s)"),
    "close_printed": _l("Copie du bureau imprimée : à signer par le président et le trésorier."),
    "close_queued": _l("Copie du bureau en attente de l'imprimante : elle s'imprimera dès son retour."),
    "close_none": _l(
        "Aucune imprimante : la copie du bureau reste au journal ; imprimez-la depuis /admin une fois l'imprimante "
        "branchée."
    ),
}
