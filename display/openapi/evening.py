"""The OpenAPI paths of the evening's play: the login, the public and the speaker's state, the partie, the draws,
the claims and their check, the lots awarded, the vouchers."""

from __future__ import annotations

from display.openapi.parts import BOOL, ERR, INT, LOT, LOT_IN, NULLABLE_OBJ, STR, needing, obj, op, path_param
from hall import TIE_METHODS, TIE_WINS

BALL = {"type": "integer", "minimum": 1, "maximum": 90}
PRINTER_STATES = ["printed", "queued", "none"]  # the board's copy at the close: display/record.py printer_state
REQUEST_ID = {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{8,64}$"}

STATE = obj(
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
    players=obj(help={"enum": ["off", "board", "tap", "auto"]}, one_to_go=BOOL, phone_call=BOOL, max_cards=INT),
)


def paths() -> dict:
    """The paths of the evening's play."""
    return {
        "/api/login": {
            "post": op(
                "PIN → rôle et jeton (une session du serveur, close par logout, un PIN changé "
                "ou [server] staff_idle_h sans usage) ; corps JSON seulement (415 sinon)",
                None,
                needing(obj(pin=STR, name=STR), "pin"),
                obj(role=STR, token=STR, csrf=STR),
                errors=("bad_pin", "too_many_attempts", "json_required", "too_many_consoles"),
            )
        },
        "/api/logout": {"post": op("Fermer la session (cookie et jeton Bearer envoyés)", None)},
        "/api/me": {
            "get": {
                **op("Le rôle de l'appelant", None),
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": obj()}}},
                    "401": ERR,
                },
            }
        },
        "/api/state": {"get": op("L'état public (projecteur)", None, ok=STATE)},
        "/api/speaker/state": {
            "get": op("La console du speaker : réclamations, veille des gagnants, appareils", "speaker")
        },
        "/api/partie/start": {
            "post": op(
                "Démarrer la partie suivante. Avec « lots », les lots reportés par « Démarquez » sont joués aussi, là où "
                "leur sorte se joue, sauf « drop_carried » : true (le rapport les dit alors retirés).",
                "speaker",
                obj(
                    lots={"type": "array", "items": LOT_IN, "minItems": 1, "maxItems": 20},
                    consolation=STR,
                    drop_carried=BOOL,
                ),
                ok_status="201",
                errors=("partie_running", "no_partie", "bad_lot", "bad_lot_row", "bad_lot_within"),
            )
        },
        "/api/draws": {
            "post": op(
                "Tirer un numéro. Idempotent avec une clé (request_id dans le corps ou en-tête Idempotency-Key, "
                "8 à 64 caractères A-Z a-z 0-9 _ . : -) : une nouvelle tentative avec la même clé reçoit la première "
                "réponse (en-tête Idempotent-Replayed: true) au lieu de tirer encore ; la même clé pour un autre "
                "numéro est refusée (409 request_id_reused). Clés gardées 10 min en mémoire.",
                "speaker",
                needing(obj(number=BALL, request_id=REQUEST_ID), "number"),
                obj(number=INT, index=INT, seq=INT),
                "201",
                ("already_drawn", "out_of_range", "no_partie", "locked", "held", "request_id_reused"),
                (
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": False,
                        "schema": REQUEST_ID,
                    },
                ),
            )
        },
        "/api/draws/undo": {
            "post": op(
                "Annuler le dernier numéro", "speaker", errors=("nothing_to_undo", "undo_after_award", "no_partie")
            )
        },
        "/api/draws/confirm": {
            "post": op(
                "Confirmer (ou corriger) la boule lue par la machine",
                "speaker",
                needing(obj(number=BALL), "number"),
                ok_status="201",
                errors=("nothing_proposed", "no_partie", "locked", "held"),
            )
        },
        "/api/draws/reject": {
            "post": op("Rejeter la boule lue par la machine", "speaker", errors=("nothing_proposed",))
        },
        "/api/draws/resume": {
            "post": op(
                "Reprendre le tirage après une fausse annonce ou après chaque lot attribué (docs/loto-rules.md L11a)",
                "speaker",
                errors=("not_paused", "claims_pending", "no_partie"),
            )
        },
        "/api/claims/announce": {
            "post": op("Arrêter le tirage : quelqu'un a crié", "speaker", errors=("no_partie", "partie_running"))
        },
        "/api/claims": {
            "post": op(
                "Vérifier un carton",
                "controller",
                needing(obj(card_id={"type": "string", "minLength": 1, "maxLength": 200}), "card_id"),
                obj(
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
            "get": op(
                "Un carton tel que le contrôleur le voit",
                "controller",
                errors=("unknown_card",),
                params=(path_param("card_id", "identifiant du carton, ex. A-00412K"),),
            )
        },
        "/api/lots/award": {
            "post": op(
                "Attribuer le lot (égalité : tirage par la salle, numéros tirés à la main, ou partage)",
                "speaker",
                obj(
                    same_player={"type": "array", "items": {"type": "array", "items": STR}},
                    tie_break={"type": "object", "additionalProperties": INT},
                    share=BOOL,
                    draw=BOOL,
                    wins={"enum": list(TIE_WINS)},
                ),
                ok=obj(
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
            "post": op(
                "Annoncer comment une égalité se départage (draw : tirage par la salle, "
                "physical : numéros tirés à la main, share : partage) ; fixé une fois annoncé, "
                "un changement demande une raison (reason), notée au journal",
                "speaker",
                needing(obj(method={"enum": list(TIE_METHODS)}, reason=STR), "method"),
                obj(method=STR, previous=STR, seq={"type": ["integer", "null"]}),
                "201",
                ("no_tie", "bad_tie_choice", "tie_method_fixed", "no_partie"),
            )
        },
        "/api/partie/clear": {
            "post": op(
                "Démarquez ! (fin de partie ; carry : les lots restants à la partie suivante)",
                "speaker",
                obj(force=BOOL, carry=BOOL),
                errors=("lots_remaining", "claims_pending", "no_partie", "nothing_to_carry"),
            )
        },
        "/api/evening/close": {
            "get": op(
                "La soirée est-elle close ? Si oui, l'empreinte de la copie du bureau et l'état de son impression",
                "speaker",
                None,
                obj(
                    closed=BOOL,
                    ticket={"type": ["integer", "null"]},
                    fingerprint={"type": ["object", "null"]},
                    printer={"enum": [*PRINTER_STATES, None]},
                ),
            ),
            "post": op(
                "Clôturer la soirée : évènement evening:closed et copie du bureau journalisés ensemble, la copie "
                "imprimée par la file d'impression, l'empreinte montrée sur l'écran ; ensuite plus de boule, de "
                "partie ni de vente (409 evening_closed). printer : printed (copie imprimée), queued (en attente "
                "de l'imprimante), none (aucune imprimante : la copie reste au journal)",
                "speaker",
                None,
                obj(closed=BOOL, seq=INT, ticket=INT, fingerprint={"type": "object"}, printer={"enum": PRINTER_STATES}),
                ok_status="201",
                errors=("evening_closed", "partie_running", "nothing_to_close"),
            ),
        },
        "/api/keypad/keys": {
            "get": op(
                "Les touches du pavé numérique (KeyboardEvent.code → chiffre ou action), la table du pavé du Pi", None
            )
        },
        "/api/draws/request": {
            "post": op(
                "« Tirer » sans numéro : la machine qui attend l'animateur (démo) tire", "speaker", ok_status="202"
            )
        },
        "/api/vouchers/{code}/redeem": {
            "post": op(
                "Remettre le lot d'un bon d'échange",
                "desk",
                errors=("unknown_voucher", "already_redeemed"),
                params=(path_param("code", "code du bon d'échange"),),
            )
        },
        "/api/vouchers/{code}/reprint": {
            "post": op(
                "Réimprimer un bon (DUPLICATA)",
                "speaker",
                ok_status="202",
                errors=("unknown_voucher",),
                params=(path_param("code", "code du bon d'échange"),),
            )
        },
    }
