"""The OpenAPI paths of the sales desk (INTERFACE §8), the programme editor, the PINs, the players' phones and
consoles, and the archived evenings."""

from __future__ import annotations

from display.openapi.parts import (
    BOOL,
    ERR,
    INT,
    LOT_IN,
    NULLABLE_OBJ,
    STR,
    needing,
    obj,
    op,
    path_param,
    query_param,
)
from hall import MAX_CARD_TEXT
from hall.config import MAX_PLAYER_CARDS

SALE = obj(
    cards={"type": "array", "items": STR},
    range=STR,
    amount_eur={"type": ["number", "string"]},
    payment={"enum": ["especes", "carte", "cheque"]},
    buyer=STR,
    note=STR,
    paid=BOOL,
    partie=INT,
)


def paths() -> dict:
    """The paths of the sales desk, the programme, the PINs, the players and the archived evenings."""
    return {
        "/api/sales": {
            "post": op(
                "Vendre (ou réserver) des cartons : IDs ou plage DÉBUT..FIN",
                "desk",
                SALE,
                obj(sale_id=INT, cards={"type": "array"}, amount_eur={"type": "number"}, phones_url=STR),
                "201",
                (
                    "already_sold",
                    "unknown_card",
                    "bad_range",
                    "range_too_large",
                    "bad_payment",
                    "bad_amount",
                    "stake_too_high",
                    "bad_partie",
                ),
            ),
            "get": op("Les ventes de la soirée (?buyer= filtre la pré-vente)", "desk"),
        },
        "/api/sales/price": {
            "get": op(
                "Le prix proposé de ?count=N cartons selon les tarifs",
                "desk",
                errors=("bad_field",),
                params=(
                    query_param("count", {"type": "string", "pattern": "^0*([0-9]{1,4}|10000)$"}, "0 à 10 000", True),
                ),
            )
        },
        "/api/sales/summary": {
            "get": op(
                "Cartons vendus et recette (par paiement, vendeur, partie)",
                "desk",
                ok=obj(cards_sold=INT, takings_eur=obj(total={"type": "number"}, by_payment=obj(), by_seller=obj())),
            )
        },
        "/api/sales/{sale_id}/void": {
            "post": op(
                "Annuler une vente (ses cartons redeviennent invendus)",
                "admin",
                obj(reason=STR),
                errors=("unknown_sale", "sale_voided", "sale_has_winner"),
                params=(path_param("sale_id", "numéro de la vente", "^[0-9]+$"),),
            )
        },
        "/api/sales/{sale_id}/pay": {
            "post": op(
                "Encaisser une réservation",
                "desk",
                obj(payment=STR),
                errors=("unknown_sale", "already_paid"),
                params=(path_param("sale_id", "numéro de la vente", "^[0-9]+$"),),
            )
        },
        "/api/programme": {
            "get": op("Le programme de la soirée, avec les signalements « loto traditionnel »", "admin"),
            "post": op(
                "Modifier le programme à partir de la prochaine partie",
                "admin",
                needing(
                    obj(
                        parties={
                            "type": "array",
                            "items": obj(lots={"type": "array", "items": LOT_IN}, consolation=STR),
                        }
                    ),
                    "parties",
                ),
                ok_status="201",
                errors=("bad_programme", "bad_lot_row", "bad_lot_within"),
            ),
        },
        "/api/pins": {
            "post": op(
                "Changer le PIN d'un rôle (gardé en empreinte salée)",
                "admin",
                obj(role=STR, pin=STR),
                ok_status="201",
                errors=("bad_new_pin", "pin_taken"),
            )
        },
        # the price tiers edited on /admin, past evenings
        "/api/sales/prices": {
            "get": op(
                "Les tarifs que la caisse propose (public : ils sont aussi au projecteur)",
                None,
                ok=obj(
                    tiers={"type": "array", "items": obj(cards=INT, eur={"type": "number"}, cents=INT)},
                    stake_limit_eur={"type": "number"},
                ),
            ),
            "post": op(
                "Changer les tarifs (journalisé, dès la vente suivante ; chaque carton à moins de 20 €)",
                "admin",
                needing(
                    obj(
                        tiers={
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 12,
                            "items": needing(
                                obj(
                                    cards={"type": "integer", "minimum": 1, "maximum": 10_000},
                                    eur={"type": ["number", "string"]},
                                ),
                                "cards",
                                "eur",
                            ),
                        }
                    ),
                    "tiers",
                ),
                ok_status="201",
                errors=("bad_prices", "stake_too_high"),
            ),
        },
        # « Mes cartons » (INTERFACE §9): the players' phones
        "/api/players/cards": {
            "post": op(
                "Les cartons qu'un téléphone suit (lus comme au contrôle) ; borné par adresse",
                None,
                needing(
                    obj(
                        card_ids={
                            "type": "array",
                            "minItems": 1,
                            "maxItems": MAX_PLAYER_CARDS,  # the hall's own [players] max_cards may be lower
                            "items": {"oneOf": [STR, needing(obj(card_id=STR, code=STR), "card_id")]},
                        }
                    ),
                    "card_ids",
                ),
                obj(cards={"type": "array"}, refused={"type": "array"}),
                errors=("players_off", "too_many_cards", "too_many_links", "hall_busy"),
            )
        },
        "/api/players/follow": {
            "post": op(
                "Ce que la salle dit des cartons suivis (un relais demande les clés qu'il ne connaît pas encore) : "
                "chaque clé, remise pour le code imprimé, nomme son carton ; borné par adresse",
                None,
                obj(keys={"type": "array", "maxItems": 500, "items": STR}),
                obj(
                    at=INT,
                    items={"type": "array", "items": obj(key=STR, carton=NULLABLE_OBJ)},
                    unknown={"type": "array"},
                ),
                errors=("bad_field", "too_many_follows"),
            )
        },
        "/api/players/call": {
            "post": op(
                "« Quine ! » depuis un téléphone : la console du meneur l'entend avec sa boule",
                None,
                needing(obj(card_id={"type": "string", "maxLength": MAX_CARD_TEXT}, code=STR), "card_id"),
                obj(card_id=STR, ball=INT),
                "202",
                (
                    "phone_call_off",
                    "not_complete",
                    "too_many_calls",
                    "unknown_card",
                    "unsold_card",
                    "bad_card_id",
                    "bad_card_code",
                ),
            )
        },
        # the staff's door (display/api_door.py): a new console enrolled, the live consoles
        "/api/enrolments": {
            "post": op(
                "Un code d'ajout à usage unique (5 min) pour une nouvelle console d'un rôle que "
                "l'appelant détient ; corps {role}",
                "controller",
                obj(role=STR),
                obj(code=STR, role=STR, expires_in=INT, url=STR, qr_svg=STR, roles={"type": "array"}),
                "201",
            )
        },
        "/api/enrol": {
            "post": op(
                "Une nouvelle console entre avec son code d'ajout (compté pour son adresse seule) ; corps JSON seulement",
                None,
                needing(obj(code=STR, name=STR), "code"),
                obj(role=STR, token=STR, csrf=STR, page=STR),
                errors=("enrol_code_wrong", "too_many_enrol_attempts", "json_required", "too_many_consoles"),
            )
        },
        "/api/consoles": {
            "get": op(
                "Les consoles connectées : rôle, prénom, appareil, dernière action",
                "admin",
                ok=obj(consoles={"type": "array"}, max_per_role=INT, recent_use_s=INT),
            )
        },
        "/api/consoles/{reference}/end": {
            "post": op(
                "Terminer une console ({forget: true} : elle n'est plus une console connue)",
                "admin",
                obj(forget=BOOL),
                obj(ended=STR, forgotten=BOOL),
                errors=("unknown_console",),
                params=(path_param("reference", "la référence de la session, 8 caractères hexadécimaux"),),
            )
        },
        "/api/admin/players": {
            "post": op(
                "L'aide donnée aux téléphones des joueurs (journalisée, pour tous)",
                "admin",
                obj(
                    help={"enum": ["off", "board", "tap", "auto"]},
                    one_to_go=BOOL,
                    phone_call=BOOL,
                    max_cards={"type": "integer", "minimum": 1, "maximum": MAX_PLAYER_CARDS},
                ),
                errors=("bad_field",),
            )
        },
        "/api/evenings": {"get": op("Les soirées archivées (loto-hall evening new) avec leurs totaux", "admin")},
        "/api/evenings/{name}/{filename}": {
            "get": {
                **op(
                    "Le rapport d'une soirée archivée, tel qu'il a été écrit (rapport.pdf ou rapport.csv)",
                    "admin",
                    errors=("not_found",),
                    params=(
                        path_param("name", "la soirée, ex. 2026-11-21_20h15"),
                        path_param("filename", "rapport.pdf ou rapport.csv"),
                    ),
                ),
                "responses": {
                    "200": {
                        "description": "OK",
                        "content": {"application/pdf": {"schema": STR}, "text/csv": {"schema": STR}},
                    },
                    "401": ERR,
                    "403": ERR,
                    "404": ERR,
                },
            }
        },
    }
