"""Refusals at the web's edge: every one is a 4xx ``{"error": CODE, "message": TEXT}``, never a 500.

``hall.errors.Rejected`` codes keep their name; each gets an HTTP status and a sentence for people
(French source strings, translated by Flask-Babel).
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

# code → HTTP status. 423 "Locked": the hall is in a state where this cannot happen now.
STATUS: dict[str, int] = {
    "bad_json": 400, "bad_request": 400, "bad_field": 422,
    "unauthorized": 401, "bad_pin": 401, "bad_token": 401,
    "forbidden": 403, "csrf": 403,
    "not_found": 404, "unknown_voucher": 404, "unknown_card": 404,
    "method_not_allowed": 405,
    "already_drawn": 409, "partie_running": 409, "nothing_to_undo": 409, "already_undone": 409,
    "undo_after_award": 409, "not_paused": 409, "no_valid_claim": 409, "lots_remaining": 409,
    "already_redeemed": 409, "nothing_proposed": 409, "request_id_reused": 409,
    "too_large": 413,
    "nothing_to_carry": 409, "bad_tie_choice": 422, "no_tie": 422, "bad_tie_break": 422, "tie_numbers_needed": 422,
    "tie_number_out_of_range": 422, "tie_numbers_equal": 422,
    "out_of_range": 422, "bad_lot": 422, "not_a_valid_claim": 422, "card_in_two_groups": 422, "bad_card_id": 422, "bad_cards": 422, "bad_ranges": 422,
    "range_too_large": 422,
    "no_partie": 423, "locked": 423, "partie_finished": 423, "claims_pending": 423,
    "too_many_attempts": 429, "too_many_sockets": 429, "too_many_sockets_from_address": 429,
}

MESSAGES = {
    "bad_json": _l("La requête n'est pas un objet JSON valide."),
    "bad_request": _l("Requête incorrecte."),
    "bad_field": _l("Champ « %(field)s » manquant ou incorrect."),
    "unauthorized": _l("Connexion nécessaire : entrez votre code PIN."),
    "bad_pin": _l("Code PIN incorrect."),
    "bad_token": _l("Session expirée ou jeton invalide : reconnectez-vous."),
    "forbidden": _l("Votre rôle ne permet pas cette action."),
    "csrf": _l("Jeton de sécurité absent ou faux : rechargez la page."),
    "not_found": _l("Cette adresse n'existe pas."),
    "method_not_allowed": _l("Méthode non permise sur cette adresse."),
    "too_large": _l("Requête trop volumineuse."),
    "too_many_sockets": _l("Trop d'écrans connectés : réessayez dans un moment."),
    "too_many_sockets_from_address": _l("Trop de connexions depuis cet appareil : fermez des onglets."),
    "too_many_attempts": _l("Trop d'essais de code PIN : réessayez dans %(retry_after)s secondes."),
    "already_drawn": _l("Le %(number)s est déjà sorti."),
    "out_of_range": _l("Numéro invalide : il faut un nombre de 1 à 90."),
    "no_partie": _l("Aucune partie en cours : démarrez une partie."),
    "locked": _l("Tirage arrêté : vérification en cours."),
    "partie_finished": _l("Tous les lots de la partie sont attribués : faites démarquer."),
    "claims_pending": _l("Un carton gagnant attend son lot : attribuez-le d'abord."),
    "partie_running": _l("Une partie est déjà en cours."),
    "bad_lot": _l("Lot incorrect : le type doit être quine, double quine ou carton plein."),
    "nothing_to_undo": _l("Aucun numéro à annuler."),
    "already_undone": _l("Le dernier numéro vient déjà d'être annulé."),
    "undo_after_award": _l("Impossible d'annuler : un lot a été attribué sur ce numéro."),
    "not_paused": _l("Le tirage n'est pas arrêté."),
    "bad_card_id": _l("Numéro de carton manquant ou illisible."),
    "no_valid_claim": _l("Aucun carton gagnant vérifié sur le dernier numéro."),
    "lots_remaining": _l("Il reste des lots à jouer dans cette partie."),
    "unknown_card": _l("Carton inconnu."),
    "unknown_voucher": _l("Bon inconnu ou falsifié."),
    "already_redeemed": _l("Ce bon a déjà été échangé."),
    "request_id_reused": _l("Cet identifiant de requête a déjà servi pour un autre numéro."),
    "nothing_proposed": _l("Aucune boule en attente de confirmation."),
    "not_a_valid_claim": _l("Un carton du groupe n'a pas de quine validée sur ce numéro."),
    "card_in_two_groups": _l("Un carton ne peut appartenir qu'à un seul joueur."),
    "nothing_to_carry": _l("Tous les lots sont gagnés : il n'y a rien à reporter."),
    "bad_tie_choice": _l("Choisissez soit les numéros tirés dans la salle, soit le partage du lot."),
    "no_tie": _l("Un seul carton gagnant : il n'y a pas d'égalité à départager."),
    "bad_tie_break": _l("Numéros du tirage au sort incomplets ou donnés deux fois."),
    "tie_numbers_needed": _l("Tapez le numéro tiré par chaque carton à égalité."),
    "tie_number_out_of_range": _l("Numéro tiré invalide pour le carton %(card_id)s : il faut un nombre de 1 à 90."),
    "tie_numbers_equal": _l("Deux cartons ont le même numéro : faites retirer."),
    "bad_cards": _l("Fichier de cartons refusé."),
    "bad_ranges": _l("Plage de cartons incorrecte."),
    "range_too_large": _l("Trop de cartons d'un coup : %(count)s demandés, %(limit)s au plus."),
    "internal": _l("Erreur interne : l'opération n'a pas été faite."),
}


def status_of(code: str) -> int:
    """The HTTP status of a refusal code (409 for a refusal this table does not know yet)."""
    return STATUS.get(code, 409)


def message_of(code: str, detail: dict | None = None) -> str:
    """The sentence for people, in the current locale, filled with ``detail`` where it can be."""
    template = MESSAGES.get(code)
    if template is None:
        return str(MESSAGES["bad_request"]) + f" ({code})"
    values = {k: v for k, v in (detail or {}).items()}
    try:
        return str(template) % values if "%(" in str(template) else str(template)
    except (KeyError, TypeError, ValueError):
        return str(template).split("%(")[0].rstrip(" :«")


class ApiError(Exception):
    """A refusal decided in ``display/`` (bad JSON, missing login…), shaped like ``Rejected``."""

    def __init__(self, code: str, status: int | None = None, /, **detail):
        super().__init__(code)
        self.code = code
        self.status = status or status_of(code)
        self.detail = detail


def error_body(code: str, detail: dict | None = None) -> dict:
    """The JSON body of a refusal; JSON-safe detail values ride along."""
    body: dict[str, object] = {"error": code, "message": message_of(code, detail)}
    for key, value in (detail or {}).items():
        if isinstance(value, (str, int, float, bool, type(None), list)) and key not in body:
            body[key] = value
    return body


# the sales desk, the programme editor, PIN changes (INTERFACE §8)
STATUS.update({
    "already_sold": 409, "unknown_sale": 404, "sale_voided": 409, "sale_has_winner": 409, "already_paid": 409,
    "bad_payment": 422, "bad_amount": 422, "bad_range": 422, "range_too_large": 422, "no_cards": 422,
    "bad_partie": 422, "bad_name": 422, "bad_programme": 422, "bad_new_pin": 422, "pin_taken": 409,
})
MESSAGES.update({
    "already_sold": _l("Déjà vendu : %(names)s. Rien n'a été vendu."),
    "unknown_sale": _l("Vente inconnue."),
    "sale_voided": _l("Cette vente est déjà annulée."),
    "sale_has_winner": _l("Impossible d'annuler : le carton %(names)s de cette vente a gagné."),
    "already_paid": _l("Cette réservation est déjà payée."),
    "bad_payment": _l("Paiement incorrect : espèces, carte ou chèque."),
    "bad_amount": _l("Montant incorrect : un nombre d'euros, au centime (par exemple 15 ou 12,50)."),
    "bad_range": _l("Plage de cartons illisible %(part)s : %(why)s"),
    "range_too_large": _l("Trop de cartons d'un coup (%(limit)s au plus) : vérifiez la plage."),
    "no_cards": _l("Aucun carton : scannez ou tapez un numéro de carton."),
    "bad_partie": _l("Numéro de partie incorrect."),
    "bad_name": _l("Nom trop long ou illisible."),
    "bad_programme": _l("Programme refusé : %(where)s, %(why)s"),
    "bad_new_pin": _l("Un code PIN a de 6 à 12 chiffres."),
    "pin_taken": _l("Ce code PIN est déjà celui d'un autre rôle : choisissez-en un autre."),
})

# logins take JSON only; a socket must name the hall itself (no DNS rebinding)
STATUS.update({"json_required": 415, "foreign_host": 421})
MESSAGES.update({
    "json_required": _l("Requête refusée : le code PIN s'envoie en JSON (Content-Type: application/json)."),
    "foreign_host": _l("Adresse inconnue de la salle : ouvrez la page par l'adresse du code QR."),
})

# the law's limit on stakes, the price tiers, the caisse's sales kept from the desk, the tie rule
STATUS.update({
    "stake_too_high": 422, "bad_prices": 422, "sold_by_caisse": 409, "held_by_sale": 409,
    "tie_direction_fixed": 422,
})
MESSAGES.update({
    "stake_too_high": _l("Refusé : %(eur)s le carton. Loto traditionnel : les mises sont « inférieures à 20 euros » "
                         "(article L322-4 du code de la sécurité intérieure)."),
    "bad_prices": _l("Tarifs refusés : %(where)s, %(why)s"),
    "sold_by_caisse": _l("La caisse enregistre les ventes : les cartons se vendent à la caisse. Seul "
                         "l'administrateur peut encore marquer des cartons à la main, et le rapport le dit."),
    "held_by_sale": _l("Les cartons %(names)s appartiennent à la vente n° %(numbers)s : pour les rendre invendus, "
                       "l'administrateur annule la vente."),
    "tie_direction_fixed": _l("La règle des égalités est celle de la soirée ([rules] ties), annoncée avant la "
                              "première partie : elle ne change pas pour un lot."),
})
# a label is printed on the vouchers, where a control byte would be a printer command
STATUS["label_control_character"] = 422
MESSAGES["label_control_character"] = _l("Libellé refusé (%(where)s) : il contient un caractère de contrôle, que "
                                         "l'imprimante des bons prendrait pour une commande.")

# « Mes cartons »: the players' phones (INTERFACE §9)
STATUS.update({"players_off": 403, "phone_call_off": 403, "too_many_cards": 422, "not_complete": 409,
               "too_many_links": 429, "too_many_calls": 429, "hall_busy": 429})
MESSAGES.update({
    "players_off": _l("Le suivi des cartons sur téléphone est fermé ce soir : suivez le tirage sur l'écran."),
    "phone_call_off": _l("L'appel depuis le téléphone n'est pas ouvert ce soir : criez « Quine ! »."),
    "too_many_cards": _l("%(max)s cartons au plus par téléphone."),
    "not_complete": _l("Ce carton n'a pas le lot en jeu : pas d'appel."),
    "too_many_links": _l("Trop de demandes depuis ce téléphone : réessayez dans %(retry_after)s secondes."),
    "too_many_calls": _l("Appel déjà envoyé : réessayez dans %(retry_after)s secondes, ou criez « Quine ! »."),
    "unsold_card": _l("Carton non vendu : il ne joue pas."),
    "hall_busy": _l("La salle est très demandée : vos cartons arrivent dans un moment."),
})
