"""The salle annexe's words (RULES L23), declared once as every area's are: its refusals (``display/errors.py``),
the main hall's page words — the projector's « Quine en salle annexe », the speaker's console's link and its
« continuer sans la salle annexe » — added to the one table of the pages' words (``display/page_words.py``), and
the annex page's own. French first, English in ``translations/en/LC_MESSAGES/messages.po``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from display.errors import declare
from display.page_words import JS_STRINGS

ANNEX = "annex"

declare(
    ANNEX,
    {
        "link_lost": (503, _l("Liaison perdue avec la salle principale : attendez, elle revient.")),
        "claim_pending": (409, _l("Une annonce de cette salle part déjà vers la salle principale.")),
        "too_many_claims": (429, _l("Annonce déjà envoyée : réessayez dans %(retry_after)s secondes.")),
        "not_enrolled": (503, _l("Cette salle annexe n'est pas inscrite auprès de la salle principale.")),
    },
)

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

# the annex page's own words (annex.js), beside the projector's (page_words.py)
ANNEX_STRINGS = {
    "annex_link_lost": _l("liaison perdue — attendez"),
    "annex_link_lost_sub": _l(
        "La salle principale attend cette salle avant la boule suivante, sauf si l'animateur continue sans elle."
    ),
    "annex_room": _l("Salle annexe « %(room)s »"),
    "annex_claim_sent": _l("Annonce envoyée : la salle principale attend."),
    "annex_claim_kept": _l(
        "Annonce gardée : la liaison est coupée, elle part vers la salle principale dès son retour. Restez là !"
    ),
    "annex_claim_delivered": _l("Annonce gardée transmise : la salle principale attend."),
}
