"""Refusals at the web's edge: every one is a 4xx ``{"error": CODE, "message": TEXT}``, never a 500.

One catalogue for the whole house. A refusal is ``hall.refusal.Rejected(code, **detail)`` whoever raises
it (the loto core, the mini-games, the web); its status and its sentence for people are declared ONCE, here, by
the area that owns the code, and a second declaration of the same ``area/code`` is refused at import
(``DuplicateCode``): two parts can no longer give one code two sentences. The wire carries the code without
its area (INTERFACE §4).

To declare a new code, in the catalogue module of its area (``display/errors.py`` for the loto, core and web;
``display/rooms/messages.py`` and each game's module for the rooms; ``display/tournament/messages.py`` for the
tournament)::

    declare("loto", {
        "already_drawn": (409, _l("Le %(number)s est déjà sorti.")),   # HTTP status, French sentence
    })

then raise ``Rejected("already_drawn", number=13)`` (``Rejected("rooms/…")`` for another area), and translate the
sentence in ``translations/en/LC_MESSAGES/`` (``display/translations/README.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from flask import jsonify
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

from hall.refusal import LOTO, Rejected

Sentence: TypeAlias = LazyString | str  # a sentence for people, said in the current locale by str()


class DuplicateCode(Exception):
    """A code declared a second time in its area (or an area's shown details declared twice)."""


@dataclass(frozen=True, slots=True)
class Declared:
    """A code's HTTP status and its French sentence (a Flask-Babel lazy string, ``%(name)s`` filled by detail)."""

    status: int
    text: Sentence


_CODES: dict[str, Declared] = {}
_SHOWN: dict[str, tuple[str, ...]] = {}
_FIELDS: dict[str, Mapping[str, Sentence]] = {}  # how an area's sentences name a refused field (never "ns")
UNKNOWN_STATUS = 409  # a code nobody declared (a test keeps every raised code declared)


def declare(area: str, codes: Mapping[str, tuple[int, Sentence]], *, shown: tuple[str, ...] | None = None) -> None:
    """Declare ``area``'s refusal codes, each with its status and its sentence; ``shown``: the only details its
    refusals tell a client (every JSON-safe one when not said). Refuses a code already declared in ``area``."""
    twice = sorted(code for code in codes if f"{area}/{code}" in _CODES)
    if twice:
        raise DuplicateCode(f"{area}: {', '.join(twice)} déjà déclaré(s)")
    if shown is not None:
        if area in _SHOWN:
            raise DuplicateCode(f"{area}: les détails montrés sont déjà déclarés")
        _SHOWN[area] = tuple(shown)
    for code, (status, text) in codes.items():
        if "/" in code or not 400 <= status < 600:
            raise ValueError(f"{area}/{code}: un code sans « / », un statut HTTP d'erreur ({status})")
        _CODES[f"{area}/{code}"] = Declared(status, text)


def name_fields(area: str, names: Mapping[str, Sentence]) -> None:
    """The words ``area``'s sentences use for a refused ``field`` (a captain reads « Nord–Sud », never "ns")."""
    if area in _FIELDS:
        raise DuplicateCode(f"{area}: les noms des champs sont déjà déclarés")
    _FIELDS[area] = dict(names)


def _split(code: str) -> tuple[str, str]:
    """``("rooms", "bad_name")`` for ``"rooms/bad_name"``; a code without an area is the loto's."""
    area, _, public = code.rpartition("/")
    return area or LOTO, public


def declared(code: str) -> Declared | None:
    area, public = _split(code)
    return _CODES.get(f"{area}/{public}")


def public_codes() -> list[str]:
    """Every code a client may read in ``error`` (the areas' codes, without their area)."""
    return sorted({key.rpartition("/")[2] for key in _CODES})


def status_of(code: str) -> int:
    """The HTTP status of a refusal code (``"area/code"``, or a loto code)."""
    found = declared(code)
    return UNKNOWN_STATUS if found is None else found.status


def _shown(code: str, detail: Mapping[str, object] | None) -> dict[str, object]:
    keep = _SHOWN.get(_split(code)[0])
    return {k: v for k, v in (detail or {}).items() if keep is None or k in keep}


def message_of(code: str, detail: Mapping[str, object] | None = None) -> str:
    """The sentence for people, in the current locale, filled with ``detail`` where it can be (a list is said
    with commas)."""
    found = declared(code)
    if found is None:
        return str(declared("bad_request").text) + f" ({_split(code)[1]})"  # type: ignore[union-attr]
    template = str(found.text)
    if "%(" not in template:
        return template
    values = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in (detail or {}).items()}
    names = _FIELDS.get(_split(code)[0], {})
    field = values.get("field")
    if isinstance(field, str) and field in names:
        values["field"] = str(names[field])
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template.split("%(")[0].rstrip(" :«")


def error_body(code: str, detail: Mapping[str, object] | None = None) -> dict:
    """The JSON body of a refusal: its public code, its sentence, and the JSON-safe details its area shows."""
    shown = _shown(code, detail)
    body: dict[str, object] = {"error": _split(code)[1], "message": message_of(code, shown)}
    for key, value in shown.items():
        if isinstance(value, (str, int, float, bool, type(None), list)) and key not in body:
            body[key] = value
    return body


def refusal_response(exc: Rejected):
    """A refusal as the API answers it, whoever raised it (``Retry-After`` with a wait)."""
    resp = jsonify(error_body(exc.key, exc.detail))
    if exc.code in ("too_many_attempts", "too_many_enrol_attempts") or "retry_after" in exc.detail:
        resp.headers["Retry-After"] = str(exc.detail.get("retry_after", 60))
    return resp, status_of(exc.key)


# The loto's codes, its core's and its web's. 423 "Locked": the hall is in a state where this cannot happen now.
declare(
    LOTO,
    {
        "bad_json": (400, _l("La requête n'est pas un objet JSON valide.")),
        "bad_request": (400, _l("Requête incorrecte.")),
        "bad_field": (422, _l("Champ « %(field)s » manquant ou incorrect.")),
        "unauthorized": (401, _l("Connexion nécessaire : entrez votre code PIN.")),
        "bad_pin": (401, _l("Code PIN incorrect.")),
        "bad_token": (401, _l("Session expirée ou jeton invalide : reconnectez-vous.")),
        "forbidden": (403, _l("Votre rôle ne permet pas cette action.")),
        "csrf": (403, _l("Jeton de sécurité absent ou faux : rechargez la page.")),
        "not_found": (404, _l("Cette adresse n'existe pas.")),
        "unknown_voucher": (404, _l("Bon inconnu ou falsifié.")),
        "unknown_card": (404, _l("Carton inconnu.")),
        "method_not_allowed": (405, _l("Méthode non permise sur cette adresse.")),
        "already_drawn": (409, _l("Le %(number)s est déjà sorti.")),
        "partie_running": (409, _l("Une partie est déjà en cours.")),
        "evening_closed": (
            409,
            _l(
                "La soirée est clôturée : plus de boule, de partie ni de vente ce soir. La suivante commence après "
                "« loto-hall evening new »."
            ),
        ),
        "nothing_to_close": (409, _l("Aucune partie jouée ce soir : rien à clôturer.")),
        "nothing_to_undo": (409, _l("Aucun numéro à annuler.")),
        "already_undone": (409, _l("Le dernier numéro vient déjà d'être annulé.")),
        "undo_after_award": (409, _l("Impossible d'annuler : un lot a été attribué sur ce numéro.")),
        "not_paused": (409, _l("Le tirage n'est pas arrêté.")),
        "no_valid_claim": (409, _l("Aucun carton gagnant vérifié sur le dernier numéro.")),
        "lots_remaining": (409, _l("Il reste des lots à jouer dans cette partie.")),
        "already_redeemed": (
            409,
            _l("Ce bon a déjà été échangé, à %(time)s : %(lot)s, partie %(partie)s, carton %(card)s."),
        ),
        "nothing_proposed": (409, _l("Aucune boule en attente de confirmation.")),
        "request_id_reused": (409, _l("Cet identifiant de requête a déjà servi pour un autre numéro.")),
        "too_large": (413, _l("Requête trop volumineuse.")),
        "nothing_to_carry": (409, _l("Tous les lots sont gagnés : il n'y a rien à reporter.")),
        "bad_tie_choice": (422, _l("Choisissez soit les numéros tirés dans la salle, soit le partage du lot.")),
        "no_tie": (422, _l("Un seul carton gagnant : il n'y a pas d'égalité à départager.")),
        "bad_tie_break": (422, _l("Numéros du tirage au sort incomplets ou donnés deux fois.")),
        "tie_numbers_needed": (422, _l("Tapez le numéro tiré par chaque carton à égalité.")),
        "tie_number_out_of_range": (
            422,
            _l("Numéro tiré invalide pour le carton %(card_id)s : il faut un nombre de 1 à 90."),
        ),
        "tie_numbers_equal": (422, _l("Deux cartons ont le même numéro : faites retirer.")),
        "out_of_range": (422, _l("Numéro invalide : il faut un nombre de 1 à 90.")),
        "bad_lot": (422, _l("Lot incorrect : le type doit être quine, double quine ou carton plein.")),
        "bad_lot_row": (
            422,
            _l("Ligne imposée refusée (%(where)s) : seule une quine nomme sa ligne, 1, 2 ou 3 (de haut en bas)."),
        ),
        "bad_lot_within": (
            422,
            _l(
                "Maxi-bingo refusé (%(where)s) : un carton plein en 15 à 90 boules, avec un lot de "
                "repli (libellé de 1 à 200 caractères, valeur de 0 à 100 000 €)."
            ),
        ),
        "not_a_valid_claim": (422, _l("Un carton du groupe n'a pas de quine validée sur ce numéro.")),
        "card_in_two_groups": (422, _l("Un carton ne peut appartenir qu'à un seul joueur.")),
        "bad_card_id": (422, _l("Numéro de carton manquant ou illisible.")),
        "bad_cards": (422, _l("Fichier de cartons refusé.")),
        "bad_ranges": (422, _l("Plage de cartons incorrecte.")),
        "range_too_large": (422, _l("Trop de cartons d'un coup (%(limit)s au plus) : vérifiez la plage.")),
        "no_partie": (423, _l("Aucune partie en cours : démarrez une partie.")),
        "locked": (423, _l("Tirage arrêté : vérification en cours.")),
        "held": (
            423,
            _l(
                "Lot attribué : le tirage est arrêté. Reprenez-le (+ ou « Reprendre le tirage ») avant la "
                "boule suivante."
            ),
        ),
        "partie_finished": (423, _l("Tous les lots de la partie sont attribués : faites démarquer.")),
        "claims_pending": (423, _l("Un carton gagnant attend son lot : attribuez-le d'abord.")),
        "too_many_attempts": (429, _l("Trop d'essais de code PIN : réessayez dans %(retry_after)s secondes.")),
        "too_many_consoles": (
            409,
            _l(
                "Déjà %(max)s consoles connectées avec ce rôle, toutes utilisées ces dernières "
                "minutes : l'administrateur en termine une sur /admin (Consoles connectées)."
            ),
        ),
        "enrol_code_wrong": (
            401,
            _l("Code d'ajout inconnu, déjà utilisé ou expiré : demandez-en un nouveau sur une console connectée."),
        ),
        "too_many_enrol_attempts": (
            429,
            _l("Trop de codes d'ajout faux depuis cet appareil : réessayez dans %(retry_after)s secondes."),
        ),
        "unknown_console": (404, _l("Cette console n'est plus connectée.")),
        "tls_required": (
            403,
            _l(
                "Les codes de l'équipe ne passent jamais en clair sur le Wi-Fi de la salle : ouvrez "
                "la page chiffrée %(url)s"
            ),
        ),
        "too_many_sockets": (429, _l("Trop d'écrans connectés : réessayez dans un moment.")),
        "too_many_sockets_from_address": (429, _l("Trop de connexions depuis cet appareil : fermez des onglets.")),
        "too_many_frames": (
            429,
            _l("Trop de messages envoyés par cet appareil : réessayez dans %(retry_after)s secondes."),
        ),
        "internal": (500, _l("Erreur interne : l'opération n'a pas été faite.")),
        "label_control_character": (
            422,
            _l(
                "Libellé refusé (%(where)s) : il contient un caractère de contrôle, que "
                "l'imprimante des bons prendrait pour une commande."
            ),
        ),
        "already_sold": (409, _l("Déjà vendu : %(names)s. Rien n'a été vendu.")),
        "unknown_sale": (404, _l("Vente inconnue.")),
        "sale_voided": (409, _l("Cette vente est déjà annulée.")),
        "sale_has_winner": (409, _l("Impossible d'annuler : le carton %(names)s de cette vente a gagné.")),
        "already_paid": (409, _l("Cette réservation est déjà payée.")),
        "bad_payment": (422, _l("Paiement incorrect : espèces, carte ou chèque.")),
        "bad_amount": (422, _l("Montant incorrect : un nombre d'euros, au centime (par exemple 15 ou 12,50).")),
        "bad_range": (422, _l("Plage de cartons illisible %(part)s : %(why)s")),
        "no_cards": (422, _l("Aucun carton : scannez ou tapez un numéro de carton.")),
        "bad_partie": (422, _l("Numéro de partie incorrect.")),
        "bad_name": (422, _l("Nom de l'acheteur ou du vendeur refusé : %(max)s caractères au plus, en texte.")),
        "bad_programme": (422, _l("Programme refusé : %(where)s, %(why)s")),
        "bad_new_pin": (422, _l("Un code PIN a de 6 à 12 chiffres.")),
        "pin_taken": (409, _l("Ce code PIN est déjà celui d'un autre rôle : choisissez-en un autre.")),
        "json_required": (415, _l("Requête refusée : le code PIN s'envoie en JSON (Content-Type: application/json).")),
        "foreign_host": (421, _l("Adresse inconnue de la salle : ouvrez la page par l'adresse du code QR.")),
        "unavailable": (503, _l("La salle redémarre : reconnexion dans un instant.")),  # nginx, the core restarting
        "stake_too_high": (
            422,
            _l(
                "Refusé : %(eur)s le carton. Loto traditionnel : les mises sont « inférieures à 20 "
                "euros » (article L322-4 du code de la sécurité intérieure)."
            ),
        ),
        "bad_prices": (422, _l("Tarifs refusés : %(where)s, %(why)s")),
        "sold_by_caisse": (
            409,
            _l(
                "La caisse enregistre les ventes : les cartons se vendent à la caisse. Seul "
                "l'administrateur peut encore marquer des cartons à la main, et le rapport le dit."
            ),
        ),
        "held_by_sale": (
            409,
            _l(
                "Les cartons %(names)s appartiennent à la vente n° %(numbers)s : pour les rendre "
                "invendus, l'administrateur annule la vente."
            ),
        ),
        "tie_method_fixed": (
            409,
            _l(
                "La façon de départager cette égalité est déjà annoncée à la salle : pour en "
                "changer, donnez la raison (elle est notée au journal)."
            ),
        ),
        "tie_direction_fixed": (
            422,
            _l(
                "La règle des égalités est celle de la soirée ([rules] ties), annoncée avant la "
                "première partie : elle ne change pas pour un lot."
            ),
        ),
        # the planches of a series the book lacks are refused in words on /admin (never a tab of raw JSON)
        "no_cards_to_print": (
            404,
            _l("Aucun carton à imprimer pour « %(what)s » : les séries du carnet sont %(known)s."),
        ),
    },
)
# a sale naming cartons the book does not hold: a bad request there (INTERFACE §8), not a missing page
declare("sales", {"unknown_card": (422, _l("Carton inconnu."))})

# « Mes cartons »: the players' phones (INTERFACE §9)
declare(
    LOTO,
    {
        "players_off": (
            403,
            _l("Le suivi des cartons sur téléphone est fermé ce soir : suivez le tirage sur l'écran."),
        ),
        "phone_call_off": (403, _l("L'appel depuis le téléphone n'est pas ouvert ce soir : criez « Quine ! ».")),
        "too_many_cards": (422, _l("%(max)s cartons au plus par téléphone.")),
        "not_complete": (409, _l("Ce carton n'a pas le lot en jeu : pas d'appel.")),
        "too_many_links": (429, _l("Trop de demandes depuis ce téléphone : réessayez dans %(retry_after)s secondes.")),
        "too_many_calls": (
            429,
            _l("Appel déjà envoyé : réessayez dans %(retry_after)s secondes, ou criez « Quine ! »."),
        ),
        "unsold_card": (409, _l("Carton non vendu : il ne joue pas.")),
        "bad_card_code": (403, _l("Code du carton manquant ou faux : il est imprimé sous son QR code.")),
        "hall_busy": (429, _l("La salle est très demandée : vos cartons arrivent dans un moment.")),
        "too_many_follows": (
            429,
            _l("Trop de demandes de cartons suivis depuis cette adresse : réessayez dans %(retry_after)s secondes."),
        ),
    },
)
