"""The salle annexe's refusals and its page's words (RULES L23), declared once as every area's are
(``display/errors.py``)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from display.errors import declare

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

# the annex page's own words (annex.js), beside the projector's (page_words.py)
ANNEX_STRINGS = {
    "annex_link_lost": _l("liaison perdue — attendez"),
    "annex_link_lost_sub": _l(
        "La salle principale attend cette salle avant la boule suivante, sauf si l'animateur continue sans elle."
    ),
    "annex_room": _l("Salle annexe « %(room)s »"),
    "annex_claim_sent": _l("Annonce envoyée : la salle principale attend."),
}
