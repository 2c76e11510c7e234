"""Why a verdict was what it was, said the same everywhere it is read (RULES L12a, docs/loto-rules.md L12b):
the controller's verdict (``staff.js``: /controle, the speaker's checks), the players' phones (``mes_cartons.js``),
the projector's banner. A ``missed`` always says which of its reasons holds — ``late`` (complete before the last
ball: « trop tard »), ``last_not_in_rows`` (the last ball not on the rows that count), ``row_already_paid`` (the row
already paid for this kind of lot) —, a claim on rows paid for its kind alone says why it is false. The ritual's
spoken sentences of the same reasons are ``display/voice_words.py``'s ``RITUAL`` (their clips are French).
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

VERDICT_STRINGS = {
    # the controller's verdict (one line under its colour) and the speaker's list of checks
    "v_missed_late": _l("Trop tard : le %(last)s n'est pas sur ce carton"),
    "v_missed_rows": _l("Le %(last)s n'est pas sur les lignes qui comptent"),
    "v_missed_named": _l("Le %(last)s n'est pas sur la %(row)s, la seule qui compte"),
    "v_missed_paid_quine": _l("Ligne déjà payée : elle a déjà gagné une quine"),
    "v_missed_paid_double_quine": _l("Ligne déjà payée : elle a déjà gagné une double quine"),
    "v_missed_paid_carton_plein": _l("Déjà payé : ce carton a déjà gagné un carton plein"),
    "v_incomplete_paid_quine": _l("Fausse annonce : sa ligne complète a déjà gagné une quine"),
    "v_incomplete_paid_double_quine": _l("Fausse annonce : ses lignes complètes ont déjà gagné une double quine"),
    "v_incomplete_paid_carton_plein": _l("Fausse annonce : ce carton a déjà gagné un carton plein"),
    "vs_missed_late": _l("Trop tard"),
    "vs_missed_last_not_in_rows": _l("Hors des lignes qui comptent"),
    "vs_missed_row_already_paid": _l("Déjà payé"),
    # the projector's banner and the phones' news: the public never learns whose carton it was
    "missed_public_late": _l("Trop tard — la partie continue"),
    "missed_public_last_not_in_rows": _l("Pas sur les lignes qui comptent — la partie continue"),
    "missed_public_row_already_paid": _l("Déjà payé pour ce lot — la partie continue"),
    # « Mes cartons »: the carton's own standing, as the hall judges it
    "mc_missed_late": _l("Trop tard : complet avant le %(last)s, qui n'est pas sur ce carton"),
    "mc_missed_rows": _l("Complet, mais le %(last)s n'est pas sur les lignes qui comptent"),
    "mc_missed_named": _l("Complet, mais le %(last)s n'est pas sur la %(row)s"),
    "mc_missed_paid_quine": _l("Cette ligne a déjà gagné une quine : elle ne gagne pas deux fois"),
    "mc_missed_paid_double_quine": _l("Cette ligne a déjà gagné une double quine : elle ne gagne pas deux fois"),
    "mc_missed_paid_carton_plein": _l("Ce carton a déjà gagné un carton plein"),
    "mc_prize_jackpot": _l("Jackpot !"),
    "mc_prize_fallback": _l("pour le lot de repli : %(lot)s"),
    "mc_cancelled": _l("Carton annulé pour cette partie"),
}
