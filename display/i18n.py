"""French first, English available: the locale of a request and the words the page scripts need."""
from __future__ import annotations

from flask import current_app, request
from flask_babel import lazy_gettext as _l

LANGUAGES = ("fr", "en")
LANG_COOKIE = "lang"


def select_locale() -> str:
    """``?lang=`` (kept in a cookie), then that cookie, then Accept-Language, then the hall's language."""
    asked = request.args.get("lang", "")[:5].lower()
    if asked in LANGUAGES:
        return asked
    cookie = request.cookies.get(LANG_COOKIE, "")
    if cookie in LANGUAGES:
        return cookie
    default = current_app.config.get("LOTO_LANGUAGE", "fr")
    return request.accept_languages.best_match(LANGUAGES, default=default) or default


def remember_locale(response):
    """Keep a ``?lang=`` choice for the next pages (a projector reloads without its query string)."""
    asked = request.args.get("lang", "")[:5].lower()
    if asked in LANGUAGES and request.cookies.get(LANG_COOKIE) != asked:
        response.set_cookie(LANG_COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax")
    return response


# The words the page scripts show, by key; ``%(name)s`` is filled in the browser.
JS_STRINGS = {
    "reconnecting": _l("Reconnexion…"),
    "drawn_zero": _l("Aucun numéro tiré"),
    "drawn_one": _l("%(n)s numéro tiré"),
    "drawn_many": _l("%(n)s numéros tirés"),
    "partie": _l("Partie %(n)s"),
    "kind_quine": _l("Quine"),
    "kind_double_quine": _l("Double quine"),
    "kind_carton_plein": _l("Carton plein"),
    "then": _l("ensuite"),
    "checking": _l("Vérification en cours…"),
    "valid_quine": _l("Quine validée — carton %(card)s"),
    "valid_double_quine": _l("Double quine validée — carton %(card)s"),
    "valid_carton_plein": _l("Carton plein validé — carton %(card)s"),
    "false_claim": _l("Fausse annonce — la partie continue"),
    "missed_public": _l("Annonce trop tardive — la partie continue"),
    "tie_break": _l("Tirage au sort"),
    "tie_lowest_wins": _l("le plus petit numéro gagne"),
    "tie_highest_wins": _l("le plus grand numéro gagne"),
    "tie_by_hall": _l("Tirage par la salle"),
    "tie_physical": _l("Tirage à la main"),
    "valid_many": _l("%(kind)s : %(n)s cartons valides — %(cards)s"),
    "shared": _l("%(lot)s — partagé entre les cartons %(cards)s"),
    "undone": _l("%(n)s annulé"),
    "clear_carry": _l("Démarquer et reporter ces lots à la partie suivante"),
    "clear_lose": _l("Démarquer : ces lots ne seront pas joués"),
    "tie_title": _l("Égalité : %(n)s cartons gagnants"),
    "tie_choice_draw_lowest": _l("Tirage par l'ordinateur, affiché : le plus petit numéro gagne"),
    "tie_choice_draw_highest": _l("Tirage par l'ordinateur, affiché : le plus grand numéro gagne"),
    "tie_choice_physical_lowest": _l("Tirage à la main dans la salle (taper les numéros) : le plus petit gagne"),
    "tie_choice_physical_highest": _l("Tirage à la main dans la salle (taper les numéros) : le plus grand gagne"),
    "tie_choice_share": _l("Partager le lot"),
    "lot_shared": _l("Lot partagé"),
    "tie_bad_number": _l("Un numéro de 1 à 90 pour chaque carton"),
    "vouchers_title": _l("Bons d'échange :"),
    "tie_line": _l("Carton %(card)s : %(n)s"),
    "won": _l("%(lot)s — gagné par le carton %(card)s"),
    "consolation_for": _l("Lot de consolation : %(cards)s"),
    "demarquez": _l("Démarquez !"),
    "partie_starts": _l("La partie %(n)s commence"),
    "next_partie": _l("Prochaine partie : n° %(n)s"),
    "all_awarded": _l("Tous les lots sont gagnés"),
    "welcome": _l("Bienvenue"),
    "previous": _l("Précédents"),
    # speaker
    "status_playing": _l("Tirage en cours"),
    "status_checking": _l("Tirage arrêté : vérification"),
    "status_finished": _l("Tous les lots attribués : faites démarquer"),
    "status_waiting": _l("Pas de partie en cours"),
    "confirm_undo": _l("Annuler le numéro %(n)s ?"),
    "confirm_clear": _l("Démarquer maintenant ? La partie sera terminée."),
    "confirm_clear_force": _l("Il reste des lots ! Démarquer quand même ?"),
    "drawn_ok": _l("%(n)s tiré"),
    "can_claim_none": _l("Personne ne peut crier pour l'instant"),
    "can_claim": _l("%(n)s carton(s) peuvent crier %(kind)s"),
    "slept": _l("Dormeurs (ont laissé passer leur tour)"),
    "no_devices": _l("Aucun appareil branché : saisie à la main"),
    "device_ball_machine": _l("Machine à boules"),
    "device_printer": _l("Imprimante"),
    "device_keypad": _l("Pavé numérique"),
    "device_scanner": _l("Lecteur de codes"),
    "device_ok": _l("OK"),
    "device_degraded": _l("Problème"),
    "device_absent": _l("Débranché"),
    "device_unconfigured": _l("Non configuré"),
    "proposed": _l("La machine propose le %(n)s"),
    "refused_ball": _l("Boule refusée : %(n)s"),
    "award_result": _l("Lot attribué au carton %(card)s"),
    "vouchers": _l("Bons : %(codes)s"),
    "pending": _l("Cartons gagnants en attente"),
    "menu_resume": _l("Reprendre le tirage"),
    "menu_award": _l("Attribuer le lot"),
    "menu_clear": _l("Démarquez !"),
    "menu_start": _l("Démarrer la partie"),
    "menu_check": _l("Vérifier un carton (taper son numéro)"),
    "menu_announce": _l("Quelqu'un crie ! (arrêter)"),
    "menu_unavailable": _l("Pas maintenant : %(action)s"),
    "nothing_to_undo": _l("Rien à annuler."),
    "resume_blocked": _l("Un carton gagnant attend son lot : attribuez-le d'abord."),
    "no_checks": _l("Aucune vérification"),
    # verdicts (controller, speaker)
    "v_valid": _l("%(lot)s valide !"),
    "v_incomplete": _l("Fausse annonce : il manque %(n)s numéro(s)"),
    "v_missed": _l("Trop tard : le dernier numéro (%(last)s) n'est pas dans la ligne gagnante"),
    "v_missed_paid": _l("Ligne déjà payée pour un lot précédent"),
    "v_unknown_card": _l("Carton inconnu"),
    "v_typo": _l("Vérifiez le numéro : il est mal saisi (caractère de contrôle faux)"),
    "v_near": _l("Vérifiez le numéro : %(cards)s ?"),
    "check_this": _l("Vérifier %(card)s"),
    "redeem_this": _l("C'est le bon %(code)s : le remettre"),
    "v_near_code": _l("Vérifiez le code : il ressemble à un bon de la soirée"),
    "v_unsold_card": _l("Carton non vendu : refusé"),
    "v_cancelled_card": _l("Carton annulé pour cette partie"),
    "v_closed": _l("Aucun lot en jeu : vérification impossible"),
    "vs_valid": _l("Valide"),
    "vs_incomplete": _l("Fausse annonce"),
    "vs_missed": _l("Trop tard (dernier numéro absent)"),
    "vs_unknown_card": _l("Carton inconnu"),
    "vs_unsold_card": _l("Non vendu"),
    "vs_cancelled_card": _l("Annulé"),
    "vs_closed": _l("Aucun lot en jeu"),
    "already_checked": _l("Déjà vérifié %(n)s fois"),
    "next_card": _l("Carton suivant"),
    "scan_start": _l("Scanner"),
    "scan_stop": _l("Arrêter la caméra"),
    "no_camera": _l("Caméra indisponible (HTTPS nécessaire) : tapez le numéro"),
    "scanning": _l("Visez le code du carton…"),
    "row": _l("Ligne %(n)s"),
    "last_number": _l("Dernier numéro : %(n)s"),
    # desk
    "redeemed": _l("À remettre : %(lot)s"),
    "redeemed_detail": _l("Partie %(partie)s — carton %(card)s"),
    "consolation": _l("Lot de consolation"),
    "cards_count": _l("%(n)s cartons, dont %(sold)s vendus"),
    # common
    "error": _l("Erreur"),
    "network": _l("Service injoignable : réessayez"),
}


def js_strings() -> dict[str, str]:
    return {key: str(value) for key, value in JS_STRINGS.items()}
