"""``GET /api/openapi.json``: the API described for integrators (OpenAPI 3.1)."""

from __future__ import annotations

from display import voice_words  # noqa: F401  (declares the voice's refusals, named below)
from display.errors import public_codes, status_of
from hall import LOT_KINDS, MAX_LABEL, ROWS, WITHIN
from hall.refusal import LOTO

_ERR = {"$ref": "#/components/responses/Error"}


def _op(
    summary: str,
    role: str | None,
    body: dict | None = None,
    ok: dict | None = None,
    ok_status: str = "200",
    errors: tuple[str, ...] = (),
    params: tuple[dict, ...] = (),
    media: str = "application/json",
    area: str = LOTO,
) -> dict:
    """One operation with every status it can answer: its own, the role's (401/403), a body's (400/413/422),
    and 429 for the PIN login; Socket.IO and the pages are not in this document. ``errors`` are ``area``'s codes."""
    op: dict = {
        "summary": summary,
        "responses": {
            ok_status: {
                "description": "OK",
                "content": {media: {"schema": ok or ({"type": "object"} if media == "application/json" else STR)}},
            }
        },
    }
    if params:
        op["parameters"] = list(params)
    if role:
        op["security"] = [{"bearer": []}, {"cookie": []}]
        op["x-role"] = role
        op["responses"].update({"401": _ERR, "403": _ERR})
    if body is not None:
        op["requestBody"] = {"required": False, "content": {"application/json": {"schema": body}}}
        op["responses"].update({"400": _ERR, "413": _ERR, "422": _ERR})
    for code in errors:
        op["responses"][str(status_of(f"{area}/{code}"))] = _ERR
    return op


def _path(name: str, description: str, pattern: str | None = None) -> dict:
    schema = {"type": "string", "minLength": 1, "maxLength": 64}
    if pattern:
        schema["pattern"] = pattern
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


def _query(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


def _obj(**props) -> dict:
    return {"type": "object", "properties": props}


INT, STR, BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
NULLABLE_OBJ = {"type": ["object", "null"]}
# a lot's terms (RULES L20–L21): a quine on a named row, a carton plein in N balls with its fallback
FALLBACK = {
    **_obj(
        label={"type": "string", "minLength": 1, "maxLength": MAX_LABEL},
        value_eur={"type": ["number", "string", "null"]},
        sponsor={"type": "string", "maxLength": MAX_LABEL},
    ),
    "required": ["label"],
}
TERMS = {
    "row": {"type": ["integer", "null"], "minimum": 1, "maximum": ROWS},
    "within": {"type": ["integer", "null"], "minimum": WITHIN[0], "maximum": WITHIN[1]},
    "fallback": {"oneOf": [FALLBACK, {"type": "null"}]},
}
LOT = _obj(
    kind={"enum": list(LOT_KINDS)},
    label=STR,
    status=STR,
    lines=_obj(need=INT, among={"type": "array", "items": INT}),
    **TERMS,
)
LOT_IN = _obj(
    kind={"enum": list(LOT_KINDS)},
    label=STR,
    value_eur={"type": ["number", "null"], "minimum": 0, "maximum": 1_000_000},
    sponsor=STR,
    **TERMS,
)
STATE = _obj(
    partie={
        "type": ["object", "null"],
        "properties": {
            "number": INT,
            "lots": {"type": "array", "items": LOT},
            "current_lot": {"type": ["integer", "null"]},
        },
    },
    draws={"type": "array", "items": INT},
    last={"type": ["integer", "null"]},
    status={"enum": ["waiting", "playing", "checking", "finished", "cleared"]},
    seq=INT,
    players=_obj(help={"enum": ["off", "board", "tap", "auto"]}, one_to_go=BOOL, phone_call=BOOL, max_cards=INT),
)


SALE = _obj(
    cards={"type": "array", "items": STR},
    range=STR,
    amount_eur={"type": ["number", "string"]},
    payment={"enum": ["especes", "carte", "cheque"]},
    buyer=STR,
    note=STR,
    paid=BOOL,
    partie=INT,
)
# the sales desk (INTERFACE §8), the programme editor, PIN changes
NUMBER = {"type": "number", "minimum": 0, "maximum": 600}
# the hall's voice and the ball count (INTERFACE §11); the clips themselves (/speech/…) are not under /api
VOICE_PATHS = {
    "/api/speech": {"get": _op("Ce que le projecteur lit pour annoncer : voix, surnoms, mode flash, rythme", None)},
    "/api/speech/report": {
        "post": _op(
            "Le projecteur dit s'il parle (affiché à la console avec les appareils)",
            None,
            _obj(state={"enum": ["speaks", "blocked", "failed", "off"]}, what={"type": "string", "maxLength": 24}),
            ok_status="202",
            errors=("too_many_reports",),
        )
    },
    "/api/speech/again": {
        "post": _op("Faire répéter le dernier numéro au projecteur", "speaker", errors=("nothing_to_repeat",))
    },
    "/api/speech/test": {"post": _op("Le projecteur dit sa phrase d'essai", "speaker")},
    "/api/speech/count": {
        "post": _op("Le compte des boules au projecteur pendant une pause (ou retiré)", "speaker", _obj(shown=BOOL))
    },
    "/api/admin/calling": {
        "post": _op(
            "Mode flash, surnoms (et leur table), rythme par partie ; journalisé",
            "admin",
            _obj(
                flash=BOOL,
                nicknames_on=BOOL,
                nicknames={"type": "object", "additionalProperties": {"type": "string", "maxLength": 60}},
                pace={"type": "object", "additionalProperties": NUMBER},
            ),
        )
    },
    "/api/admin/speech/recordings": {"get": _op("Les numéros que la salle a enregistrés", "admin")},
    "/api/stats/balls": {
        "get": _op(
            "Le compte des boules : chaque numéro, ce soir et les soirées archivées, et le "
            "test d'uniformité (khi-deux)",
            None,
        )
    },
}

SALES_PATHS = {
    "/api/sales": {
        "post": _op(
            "Vendre (ou réserver) des cartons : IDs ou plage DÉBUT..FIN",
            "desk",
            SALE,
            _obj(sale_id=INT, cards={"type": "array"}, amount_eur={"type": "number"}, phones_url=STR),
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
        "get": _op("Les ventes de la soirée (?buyer= filtre la pré-vente)", "desk"),
    },
    "/api/sales/price": {
        "get": _op(
            "Le prix proposé de ?count=N cartons selon les tarifs",
            "desk",
            errors=("bad_field",),
            params=(_query("count", {"type": "string", "pattern": "^[0-9]{1,5}$"}, "nombre de cartons"),),
        )
    },
    "/api/sales/summary": {
        "get": _op(
            "Cartons vendus et recette (par paiement, vendeur, partie)",
            "desk",
            ok=_obj(cards_sold=INT, takings_eur=_obj(total={"type": "number"}, by_payment=_obj(), by_seller=_obj())),
        )
    },
    "/api/sales/{sale_id}/void": {
        "post": _op(
            "Annuler une vente (ses cartons redeviennent invendus)",
            "admin",
            _obj(reason=STR),
            errors=("unknown_sale", "sale_voided", "sale_has_winner"),
            params=(_path("sale_id", "numéro de la vente", "^[0-9]+$"),),
        )
    },
    "/api/sales/{sale_id}/pay": {
        "post": _op(
            "Encaisser une réservation",
            "desk",
            _obj(payment=STR),
            errors=("unknown_sale", "already_paid"),
            params=(_path("sale_id", "numéro de la vente", "^[0-9]+$"),),
        )
    },
    "/api/programme": {
        "get": _op("Le programme de la soirée, avec les signalements « loto traditionnel »", "admin"),
        "post": _op(
            "Modifier le programme à partir de la prochaine partie",
            "admin",
            _obj(parties={"type": "array", "items": _obj(lots={"type": "array", "items": LOT_IN}, consolation=STR)}),
            ok_status="201",
            errors=("bad_programme", "bad_lot_row", "bad_lot_within"),
        ),
    },
    "/api/pins": {
        "post": _op(
            "Changer le PIN d'un rôle (gardé en empreinte salée)",
            "admin",
            _obj(role=STR, pin=STR),
            ok_status="201",
            errors=("bad_new_pin", "pin_taken"),
        )
    },
    # the price tiers edited on /admin, past evenings
    "/api/sales/prices": {
        "get": _op(
            "Les tarifs que la caisse propose (public : ils sont aussi au projecteur)",
            None,
            ok=_obj(
                tiers={"type": "array", "items": _obj(cards=INT, eur={"type": "number"}, cents=INT)},
                stake_limit_eur={"type": "number"},
            ),
        ),
        "post": _op(
            "Changer les tarifs (journalisé, dès la vente suivante ; chaque carton à moins de 20 €)",
            "admin",
            _obj(tiers={"type": "array", "items": _obj(cards=INT, eur={"type": ["number", "string"]})}),
            ok_status="201",
            errors=("bad_prices", "stake_too_high"),
        ),
    },
    # « Mes cartons » (INTERFACE §9): the players' phones
    "/api/players/cards": {
        "post": _op(
            "Les cartons qu'un téléphone suit (lus comme au contrôle) ; borné par adresse",
            None,
            _obj(card_ids={"type": "array", "items": {"oneOf": [STR, _obj(card_id=STR, code=STR)]}}),
            _obj(cards={"type": "array"}, refused={"type": "array"}),
            errors=("players_off", "too_many_cards", "too_many_links", "hall_busy"),
        )
    },
    "/api/players/call": {
        "post": _op(
            "« Quine ! » depuis un téléphone : la console du meneur l'entend avec sa boule",
            None,
            _obj(card_id=STR, code=STR),
            _obj(card_id=STR, ball=INT),
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
        "post": _op(
            "Un code d'ajout à usage unique (5 min) pour une nouvelle console d'un rôle que "
            "l'appelant détient ; corps {role}",
            "controller",
            _obj(role=STR),
            _obj(code=STR, role=STR, expires_in=INT, url=STR, qr_svg=STR, roles={"type": "array"}),
            "201",
        )
    },
    "/api/enrol": {
        "post": _op(
            "Une nouvelle console entre avec son code d'ajout (compté pour son adresse seule) ; corps JSON seulement",
            None,
            _obj(code=STR, name=STR),
            _obj(role=STR, token=STR, csrf=STR, page=STR),
            errors=("enrol_code_wrong", "too_many_enrol_attempts", "json_required", "too_many_consoles"),
        )
    },
    "/api/consoles": {
        "get": _op(
            "Les consoles connectées : rôle, prénom, appareil, dernière action",
            "admin",
            ok=_obj(consoles={"type": "array"}, max_per_role=INT, recent_use_s=INT),
        )
    },
    "/api/consoles/{reference}/end": {
        "post": _op(
            "Terminer une console ({forget: true} : elle n'est plus une console connue)",
            "admin",
            _obj(forget=BOOL),
            _obj(ended=STR, forgotten=BOOL),
            errors=("unknown_console",),
            params=(_path("reference", "la référence de la session, 8 caractères hexadécimaux"),),
        )
    },
    "/api/admin/players": {
        "post": _op(
            "L'aide donnée aux téléphones des joueurs (journalisée, pour tous)",
            "admin",
            _obj(help={"enum": ["off", "board", "tap", "auto"]}, one_to_go=BOOL, phone_call=BOOL, max_cards=INT),
            errors=("bad_field",),
        )
    },
    "/api/evenings": {"get": _op("Les soirées archivées (loto-hall evening new) avec leurs totaux", "admin")},
    "/api/evenings/{name}/{filename}": {
        "get": {
            **_op(
                "Le rapport d'une soirée archivée, tel qu'il a été écrit (rapport.pdf ou rapport.csv)",
                "admin",
                errors=("not_found",),
                params=(
                    _path("name", "la soirée, ex. 2026-11-21_20h15"),
                    _path("filename", "rapport.pdf ou rapport.csv"),
                ),
            ),
            "responses": {
                "200": {
                    "description": "OK",
                    "content": {"application/pdf": {"schema": STR}, "text/csv": {"schema": STR}},
                },
                "401": _ERR,
                "403": _ERR,
                "404": _ERR,
            },
        }
    },
}


def spec() -> dict:
    """The OpenAPI document."""
    p = {
        "/api/login": {
            "post": _op(
                "PIN → rôle et jeton (une session du serveur, close par logout, un PIN changé "
                "ou [server] staff_idle_h sans usage) ; corps JSON seulement (415 sinon)",
                None,
                _obj(pin=STR, name=STR),
                _obj(role=STR, token=STR, csrf=STR),
                errors=("bad_pin", "too_many_attempts", "json_required", "too_many_consoles"),
            )
        },
        "/api/logout": {"post": _op("Fermer la session (cookie et jeton Bearer envoyés)", None)},
        "/api/me": {
            "get": {
                **_op("Le rôle de l'appelant", None),
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": _obj()}}},
                    "401": _ERR,
                },
            }
        },
        "/api/state": {"get": _op("L'état public (projecteur)", None, ok=STATE)},
        "/api/speaker/state": {
            "get": _op("La console du speaker : réclamations, veille des gagnants, appareils", "speaker")
        },
        "/api/partie/start": {
            "post": _op(
                "Démarrer la partie suivante",
                "speaker",
                _obj(lots={"type": "array", "items": LOT_IN}, consolation=STR),
                ok_status="201",
                errors=("partie_running", "no_partie", "bad_lot", "bad_lot_row", "bad_lot_within"),
            )
        },
        "/api/draws": {
            "post": _op(
                "Tirer un numéro. Idempotent avec une clé (request_id dans le corps ou en-tête Idempotency-Key, "
                "8 à 64 caractères A-Z a-z 0-9 _ . : -) : une nouvelle tentative avec la même clé reçoit la première "
                "réponse (en-tête Idempotent-Replayed: true) au lieu de tirer encore ; la même clé pour un autre "
                "numéro est refusée (409 request_id_reused). Clés gardées 10 min en mémoire.",
                "speaker",
                _obj(number=INT, request_id=STR),
                _obj(number=INT, index=INT, seq=INT),
                "201",
                ("already_drawn", "out_of_range", "no_partie", "locked", "held", "request_id_reused"),
                (
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{8,64}$"},
                    },
                ),
            )
        },
        "/api/draws/undo": {
            "post": _op(
                "Annuler le dernier numéro", "speaker", errors=("nothing_to_undo", "undo_after_award", "no_partie")
            )
        },
        "/api/draws/confirm": {
            "post": _op(
                "Confirmer (ou corriger) la boule lue par la machine",
                "speaker",
                _obj(number=INT),
                ok_status="201",
                errors=("nothing_proposed", "no_partie", "locked", "held"),
            )
        },
        "/api/draws/reject": {
            "post": _op("Rejeter la boule lue par la machine", "speaker", errors=("nothing_proposed",))
        },
        "/api/draws/resume": {
            "post": _op(
                "Reprendre le tirage après une fausse annonce ou après chaque lot attribué (docs/loto-rules.md L11a)",
                "speaker",
                errors=("not_paused", "claims_pending", "no_partie"),
            )
        },
        "/api/claims/announce": {
            "post": _op("Arrêter le tirage : quelqu'un a crié", "speaker", errors=("no_partie", "partie_running"))
        },
        "/api/claims": {
            "post": _op(
                "Vérifier un carton",
                "controller",
                _obj(card_id=STR),
                _obj(
                    verdict={
                        "enum": [
                            "valid",
                            "incomplete",
                            "missed",
                            "unknown_card",
                            "unsold_card",
                            "cancelled_card",
                            "closed",
                        ]
                    },
                    card_id={"type": ["string", "null"]},
                    lot=NULLABLE_OBJ,
                    rows={"type": "array"},
                    complete_rows={"type": "array"},
                    missing={"type": "array"},
                    last={"type": ["integer", "null"]},
                    checked_before={"type": "array"},
                    card=NULLABLE_OBJ,
                    suggestions={"type": "array", "items": STR},
                ),
                errors=("bad_card_id", "no_partie"),
            )
        },
        "/api/cards/{card_id}": {
            "get": _op(
                "Un carton tel que le contrôleur le voit",
                "controller",
                errors=("unknown_card",),
                params=(_path("card_id", "identifiant du carton, ex. A-00412K"),),
            )
        },
        "/api/lots/award": {
            "post": _op(
                "Attribuer le lot (égalité : tirage par la salle, numéros tirés à la main, ou partage)",
                "speaker",
                _obj(
                    same_player={"type": "array"},
                    tie_break={"type": "object", "additionalProperties": INT},
                    share=BOOL,
                    draw=BOOL,
                    wins={"enum": ["lowest", "highest"]},
                ),
                ok=_obj(
                    winner=STR,
                    winners={"type": "array"},
                    shared=BOOL,
                    tie_mode=STR,
                    tie_break={"type": "array"},
                    consolation={"type": "array"},
                    vouchers={"type": "array"},
                    stage={"type": "array"},
                ),
                errors=(
                    "no_valid_claim",
                    "no_partie",
                    "not_a_valid_claim",
                    "card_in_two_groups",
                    "tie_numbers_needed",
                    "tie_number_out_of_range",
                    "tie_numbers_equal",
                    "bad_tie_choice",
                    "no_tie",
                    "tie_direction_fixed",
                    "tie_method_fixed",
                ),
            )
        },
        "/api/lots/tie": {
            "post": _op(
                "Annoncer comment une égalité se départage (draw : tirage par la salle, "
                "physical : numéros tirés à la main, share : partage) ; fixé une fois annoncé, "
                "un changement demande une raison (reason), notée au journal",
                "speaker",
                _obj(method={"enum": ["draw", "physical", "share"]}, reason=STR),
                _obj(method=STR, previous=STR, seq={"type": ["integer", "null"]}),
                "201",
                ("no_tie", "bad_tie_choice", "tie_method_fixed", "no_partie"),
            )
        },
        "/api/partie/clear": {
            "post": _op(
                "Démarquez ! (fin de partie ; carry : les lots restants à la partie suivante)",
                "speaker",
                _obj(force=BOOL, carry=BOOL),
                errors=("lots_remaining", "claims_pending", "no_partie", "nothing_to_carry"),
            )
        },
        "/api/keypad/keys": {
            "get": _op(
                "Les touches du pavé numérique (KeyboardEvent.code → chiffre ou action), la table du pavé du Pi", None
            )
        },
        "/api/draws/request": {
            "post": _op(
                "« Tirer » sans numéro : la machine qui attend l'animateur (démo) tire", "speaker", ok_status="202"
            )
        },
        "/api/vouchers/{code}/redeem": {
            "post": _op(
                "Remettre le lot d'un bon d'échange",
                "desk",
                errors=("unknown_voucher", "already_redeemed"),
                params=(_path("code", "code du bon d'échange"),),
            )
        },
        "/api/vouchers/{code}/reprint": {
            "post": _op(
                "Réimprimer un bon (DUPLICATA)",
                "speaker",
                ok_status="202",
                errors=("unknown_voucher",),
                params=(_path("code", "code du bon d'échange"),),
            )
        },
        "/api/cards/sold": {
            "post": _op(
                "Cartons vendus (plages A-00001N..A-00100N ; au plus autant de cartons "
                "que le carnet en compte, sinon 422 range_too_large)",
                "desk",
                _obj(ranges=STR, sold=BOOL),
                errors=("bad_ranges", "range_too_large", "unknown_card", "sold_by_caisse", "held_by_sale"),
            )
        },
        "/api/cards/import": {
            "post": {
                **_op(
                    "Importer des cartons (CSV en corps de requête, 4 Mio au plus, même "
                    "envoyé par morceaux : tout ou 413/422, jamais tronqué)",
                    "admin",
                    ok_status="201",
                    errors=("bad_cards",),
                ),
                "requestBody": {"content": {"text/csv": {"schema": STR}}},
            }
        },
        "/api/cards/generate": {
            "post": _op(
                "Générer des cartons (count : 1 à 20 000, chiffres ASCII)",
                "admin",
                _obj(
                    count={"type": "integer", "minimum": 1, "maximum": 20000},
                    series={"type": "string", "pattern": "^[A-HJ-NP-Z]{1,3}$"},
                    seed={"type": "string", "maxLength": 64},
                    start={"type": "integer", "minimum": 1, "maximum": 99999},
                ),
                ok_status="201",
                errors=("bad_cards",),
            )
        },
        "/api/cards.csv": {"get": _op("Le carnet de cartons en CSV", "admin", media="text/csv")},
        "/api/cards.pdf": {
            "get": _op(
                "Les cartons en planches imprimables (PDF)",
                "admin",
                errors=("not_found",),
                params=(
                    _query("series", STR, "série, ex. A"),
                    _query("range", STR, "plage d'IDs, ex. A-1..A-60"),
                    _query("per_page", {"enum": [2, 3, 4, 6, 12]}, "cartons par page"),
                ),
                media="application/pdf",
            )
        },
        "/api/report.pdf": {
            "get": _op("Le rapport de la soirée (PDF)", "admin", errors=("not_found",), media="application/pdf")
        },
        "/api/report.csv": {
            "get": _op(
                "Le rapport de la soirée (CSV d'un tableur français : « ; », virgule "
                "décimale, UTF-8 avec BOM, heures locales ; cellules = + - @ et textes qui "
                "ressemblent à un nombre préfixés d'une apostrophe)",
                "admin",
                media="text/csv",
            )
        },
        "/api/report.xlsx": {
            "get": _op(
                "Le rapport de la soirée en classeur (une feuille par rubrique, cellules "
                "typées : cartons et codes en texte, montants en euros, dates)",
                "admin",
                errors=("not_found",),
                media="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
        },
        "/api/admin": {"get": _op("Programme, PIN, certificat, appareils, empreinte du journal", "admin")},
        "/api/report/ticket": {
            "post": _op(
                "Imprimer la copie du bureau (ticket ESC/POS : recette, cartons, lots, "
                "empreinte du journal) ; journalisée, imprimée par la file d'impression",
                "admin",
                ok_status="202",
            )
        },
        "/api/devices/{name}/test": {
            "post": _op(
                "Demander un test d'appareil",
                "admin",
                ok_status="202",
                errors=("not_found",),
                params=(_path("name", "printer, ball_machine, keypad ou scanner"),),
            )
        },
        "/api/openapi.json": {"get": _op("Ce document", None)},
        "/api/wifi/qr.svg": {
            "get": _op(
                "Le QR code Wi-Fi de la salle (WIFI:T:WPA;S:…;P:…;;), comme au projecteur",
                None,
                errors=("not_found",),
                media="image/svg+xml",
            )
        },
        "/api/wifi/page-qr.svg": {
            "get": _op(
                "Le QR code de la page à ouvrir une fois sur le Wi-Fi de la salle",
                None,
                errors=("not_found",),
                media="image/svg+xml",
            )
        },
        **SALES_PATHS,
        **VOICE_PATHS,
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "loto-hall",
            "version": "1",
            "description": 'Erreurs : 4xx {"error": CODE, "message": TEXTE}. Socket.IO : voir INTERFACE §5.',
        },
        "paths": p,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "loto_session",
                    "description": "pages : envoyer aussi l'en-tête X-CSRF-Token",
                },
            },
            "responses": {
                "Error": {
                    "description": "Refus",
                    "content": {"application/json": {"schema": _obj(error={"enum": public_codes()}, message=STR)}},
                }
            },
        },
    }
