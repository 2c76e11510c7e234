"""``GET /api/openapi.json``: the API described for integrators (OpenAPI 3.1)."""
from __future__ import annotations

from display.errors import STATUS

_ERR = {"$ref": "#/components/responses/Error"}


def _op(summary: str, role: str | None, body: dict | None = None, ok: dict | None = None,
        ok_status: str = "200", errors: tuple[str, ...] = ()) -> dict:
    op: dict = {"summary": summary, "responses": {ok_status: {"description": "OK", "content": {
        "application/json": {"schema": ok or {"type": "object"}}}}}}
    if role:
        op["security"] = [{"bearer": []}, {"cookie": []}]
        op["x-role"] = role
        op["responses"].update({"401": _ERR, "403": _ERR})
    if body is not None:
        op["requestBody"] = {"required": False, "content": {"application/json": {"schema": body}}}
        op["responses"].update({"400": _ERR, "413": _ERR})
    for code in errors:
        op["responses"][str(STATUS.get(code, 409))] = _ERR
    return op


def _obj(**props) -> dict:
    return {"type": "object", "properties": props}


INT, STR, BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
LOT = _obj(kind={"enum": ["quine", "double_quine", "carton_plein"]}, label=STR, status=STR)
STATE = _obj(partie={"type": ["object", "null"], "properties": {"number": INT, "lots": {"type": "array", "items": LOT},
                                                                "current_lot": {"type": ["integer", "null"]}}},
             draws={"type": "array", "items": INT}, last={"type": ["integer", "null"]},
             status={"enum": ["waiting", "playing", "checking", "finished", "cleared"]}, seq=INT)


def spec() -> dict:
    """The OpenAPI document."""
    p = {
        "/api/login": {"post": _op("PIN → rôle et jeton", None, _obj(pin=STR), _obj(role=STR, token=STR, csrf=STR),
                                   errors=("bad_pin", "too_many_attempts"))},
        "/api/logout": {"post": _op("Fermer la session (cookie)", None)},
        "/api/me": {"get": _op("Le rôle de l'appelant", None)},
        "/api/state": {"get": _op("L'état public (projecteur)", None, ok=STATE)},
        "/api/speaker/state": {"get": _op("La console du speaker : réclamations, veille des gagnants, appareils", "speaker")},
        "/api/partie/start": {"post": _op("Démarrer la partie suivante", "speaker",
                                          _obj(lots={"type": "array", "items": LOT}, consolation=STR),
                                          ok_status="201", errors=("partie_running", "bad_lot"))},
        "/api/draws": {"post": _op("Tirer un numéro", "speaker", _obj(number=INT), _obj(number=INT, index=INT, seq=INT),
                                   "201", ("already_drawn", "out_of_range", "no_partie", "locked"))},
        "/api/draws/undo": {"post": _op("Annuler le dernier numéro", "speaker",
                                        errors=("nothing_to_undo", "undo_after_award", "no_partie"))},
        "/api/draws/confirm": {"post": _op("Confirmer (ou corriger) la boule lue par la machine", "speaker",
                                           _obj(number=INT), ok_status="201", errors=("nothing_proposed",))},
        "/api/draws/reject": {"post": _op("Rejeter la boule lue par la machine", "speaker")},
        "/api/draws/resume": {"post": _op("Reprendre le tirage après une fausse annonce", "speaker",
                                          errors=("not_paused", "claims_pending"))},
        "/api/claims/announce": {"post": _op("Arrêter le tirage : quelqu'un a crié", "speaker")},
        "/api/claims": {"post": _op("Vérifier un carton", "controller", _obj(card_id=STR),
                                    _obj(verdict={"enum": ["valid", "incomplete", "missed", "unknown_card",
                                                           "unsold_card", "cancelled_card", "closed"]},
                                         card_id=STR, lot=_obj(), rows={"type": "array"},
                                         complete_rows={"type": "array"}, missing={"type": "array"},
                                         last={"type": ["integer", "null"]}, checked_before={"type": "array"},
                                         card=_obj(), suggestions={"type": "array", "items": STR}),
                                    errors=("bad_card_id",))},
        "/api/cards/{card_id}": {"get": _op("Un carton tel que le contrôleur le voit", "controller",
                                            errors=("unknown_card",))},
        "/api/lots/award": {"post": _op("Attribuer le lot (égalité : tirage par la salle, numéros tirés à la main, "
                                        "ou partage)", "speaker",
                                        _obj(same_player={"type": "array"},
                                             tie_break={"type": "object", "additionalProperties": INT},
                                             share=BOOL, wins={"enum": ["lowest", "highest"]}),
                                        ok=_obj(winner=STR, winners={"type": "array"}, shared=BOOL, tie_mode=STR,
                                                tie_break={"type": "array"}, consolation={"type": "array"},
                                                vouchers={"type": "array"}),
                                        errors=("no_valid_claim", "tie_numbers_needed", "tie_number_out_of_range",
                                                "tie_numbers_equal", "not_a_valid_claim", "bad_tie_choice", "no_tie"))},
        "/api/partie/clear": {"post": _op("Démarquez ! (fin de partie ; carry : les lots restants à la partie "
                                          "suivante)", "speaker", _obj(force=BOOL, carry=BOOL),
                                          errors=("lots_remaining", "claims_pending", "nothing_to_carry"))},
        "/api/keypad/keys": {"get": _op("Les touches du pavé numérique (KeyboardEvent.code → chiffre ou action), "
                                        "la table du pavé du Pi", None)},
        "/api/draws/request": {"post": _op("« Tirer » sans numéro : la machine qui attend l'animateur (démo) tire",
                                           "speaker", ok_status="202")},
        "/api/vouchers/{code}/redeem": {"post": _op("Remettre le lot d'un bon d'échange", "desk",
                                                    errors=("unknown_voucher", "already_redeemed"))},
        "/api/vouchers/{code}/reprint": {"post": _op("Réimprimer un bon (DUPLICATA)", "speaker", ok_status="202",
                                                     errors=("unknown_voucher",))},
        "/api/cards/sold": {"post": _op("Cartons vendus (plages A-00001N..A-00100N)", "desk",
                                        _obj(ranges=STR, sold=BOOL), errors=("bad_ranges", "unknown_card"))},
        "/api/cards/import": {"post": {**_op("Importer des cartons (CSV en corps de requête)", "admin",
                                             ok_status="201", errors=("bad_cards",)),
                                       "requestBody": {"content": {"text/csv": {"schema": STR}}}}},
        "/api/cards/generate": {"post": _op("Générer des cartons", "admin", _obj(count=INT, series=STR, seed=STR),
                                            ok_status="201")},
        "/api/cards.csv": {"get": _op("Le carnet de cartons en CSV", "admin")},
        "/api/cards.pdf": {"get": _op("Les cartons en planches imprimables (PDF ; ?series=A, ?per_page=6|12)", "admin")},
        "/api/report.pdf": {"get": _op("Le rapport de la soirée (PDF)", "admin")},
        "/api/report.csv": {"get": _op("Le rapport de la soirée (CSV)", "admin")},
        "/api/admin": {"get": _op("Programme, PIN, certificat, appareils", "admin")},
        "/api/devices/{name}/test": {"post": _op("Demander un test d'appareil", "admin", ok_status="202")},
        "/api/openapi.json": {"get": _op("Ce document", None)},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "loto-hall", "version": "1",
                 "description": "Erreurs : 4xx {\"error\": CODE, \"message\": TEXTE}. Socket.IO : voir INTERFACE §5."},
        "paths": p,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"},
                                "cookie": {"type": "apiKey", "in": "cookie", "name": "session",
                                           "description": "pages : envoyer aussi l'en-tête X-CSRF-Token"}},
            "responses": {"Error": {"description": "Refus", "content": {"application/json": {"schema": _obj(
                error={"enum": sorted(STATUS)}, message=STR)}}}},
        },
    }
