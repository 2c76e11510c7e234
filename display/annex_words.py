"""The salle annexe's words for the page scripts (RULES L23): the projector's « Quine en salle annexe », the
speaker's console's link and its « continuer sans la salle annexe ». Added to the one table of the pages' words
(``display/page_words.py``); French first, English in ``translations/en/LC_MESSAGES/messages.po``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from display.page_words import JS_STRINGS

JS_STRINGS.update(
    {
        "annex_claim": _l("Quine en salle annexe"),
        "annex_claim_sub": _l("%(room)s — vérification en cours"),
        "annex_rooms": _l("Salles annexes"),
        "annex_online": _l("%(room)s : en ligne"),
        "annex_offline": _l("%(room)s : liaison perdue, le tirage attend (vue il y a %(s)s s)"),
        "annex_never": _l("%(room)s : pas encore reliée"),
        "annex_going_on": _l("%(room)s : le tirage continue sans elle"),
        "annex_go_on": _l("Continuer sans la salle annexe"),
    }
)
