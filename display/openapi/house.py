"""The OpenAPI paths of the hall's house-keeping: the card book, the report, /admin, the devices, the Wi-Fi's QR
codes and this document."""

from __future__ import annotations

from display.openapi.parts import BOOL, STR, needing, obj, op, path_param, query_param
from hall.events.settings import PREFLIGHT_CHECKS

REPORT_LANG = query_param(
    "lang", {"enum": ["fr", "en"]}, "la langue du rapport, la même pour ses trois fichiers (défaut : celle de la salle)"
)


def paths() -> dict:
    """The paths of the hall's house-keeping."""
    return {
        "/api/cards/sold": {
            "post": op(
                "Cartons vendus (plages A-00001N..A-00100N ; au plus autant de cartons "
                "que le carnet en compte, sinon 422 range_too_large)",
                "desk",
                needing(obj(ranges={"type": "string", "minLength": 1}, sold=BOOL), "ranges"),
                errors=("bad_ranges", "range_too_large", "unknown_card", "sold_by_caisse", "held_by_sale"),
            )
        },
        "/api/cards/import": {
            "post": {
                **op(
                    "Importer des cartons (CSV en corps de requête, 4 Mio au plus, même "
                    "envoyé par morceaux : tout ou 413/422, jamais tronqué)",
                    "admin",
                    ok_status="201",
                    errors=("bad_cards",),
                ),
                "requestBody": {"required": True, "content": {"text/csv": {"schema": STR}}},
            }
        },
        "/api/cards/generate": {
            "post": op(
                "Générer des cartons (count : 1 à 20 000, chiffres ASCII)",
                "admin",
                needing(
                    obj(
                        count={"type": "integer", "minimum": 1, "maximum": 20000},
                        series={"type": "string", "pattern": "^[A-HJ-NP-Z]{1,3}$"},
                        seed={"type": ["string", "integer"], "maxLength": 64},
                        start={"type": "integer", "minimum": 1, "maximum": 99_999_999},
                    ),
                    "count",
                ),
                ok_status="201",
                errors=("bad_cards",),
            )
        },
        "/api/cards.csv": {"get": op("Le carnet de cartons en CSV", "admin", media="text/csv")},
        "/api/cards.pdf": {
            "get": op(
                "Les cartons en planches imprimables (PDF ; 413 au-delà de ce qu'un PDF porte)",
                "admin",
                errors=("not_found", "too_large"),
                params=(
                    query_param("series", {"type": "string", "pattern": "^[A-Za-z0-9-]{0,32}$"}, "série, ex. A"),
                    query_param("range", {"type": "string", "maxLength": 400}, "plage d'IDs, ex. A-1..A-60"),
                    query_param("per_page", {"enum": [2, 3, 4, 6, 12]}, "cartons par page"),
                ),
                media="application/pdf",
            )
        },
        "/api/report.pdf": {
            "get": op(
                "Le rapport de la soirée (PDF/A-2b)",
                "admin",
                errors=("not_found", "bad_field"),
                params=(REPORT_LANG,),
                media="application/pdf",
            )
        },
        "/api/report.csv": {
            "get": op(
                "Le rapport de la soirée (CSV d'un tableur français : « ; », virgule "
                "décimale, UTF-8 avec BOM, heures locales ; cellules = + - @ et textes qui "
                "ressemblent à un nombre préfixés d'une apostrophe)",
                "admin",
                errors=("bad_field",),
                params=(REPORT_LANG,),
                media="text/csv",
            )
        },
        "/api/report.xlsx": {
            "get": op(
                "Le rapport de la soirée en classeur (une feuille par rubrique, cellules "
                "typées : cartons et codes en texte, montants en euros, dates)",
                "admin",
                errors=("not_found", "bad_field"),
                params=(REPORT_LANG,),
                media="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
        },
        "/api/admin": {"get": op("Programme, PIN, certificat, appareils, empreinte du journal", "admin")},
        "/api/report/ticket": {
            "post": op(
                "Imprimer la copie du bureau (ticket ESC/POS : recette, cartons, lots, "
                "empreinte du journal) ; journalisée, imprimée par la file d'impression",
                "admin",
                ok_status="202",
            )
        },
        "/api/preflight": {
            "post": op(
                "La vérification avant l'ouverture des portes (carte, place, horloge, appareils, voix, relais, "
                "Wi-Fi, certificat) : chaque ligne verte ou rouge avec quoi faire ; gardée au journal",
                "admin",
                obj(
                    only={
                        "type": "array",
                        "items": {"enum": list(PREFLIGHT_CHECKS)},
                        "minItems": 1,
                        "uniqueItems": True,
                    }
                ),
                obj(seq={"type": "integer"}, at=STR, ready=BOOL, checks={"type": "array"}),
                errors=("not_found",),  # a web app the program did not hand the checks to
            )
        },
        "/api/devices/setup": {
            "get": op(
                "Les étapes d'appareil de la mise en route qu'on refait depuis /admin (imprimante, machine à boules, "
                "voix du projecteur) et ce que chacune a écrit dans la configuration de la salle",
                "admin",
                # a hall that reads a configuration file written by hand: {"own": false, "message"}
                ok=obj(
                    own=BOOL,
                    message=STR,
                    steps={"type": "array"},
                    closed=BOOL,
                    printer={"type": "object"},
                    restart=BOOL,
                ),
            )
        },
        "/api/devices/setup/{step}": {
            "post": op(
                "Refaire l'étape d'un appareil changé (imprimante : ticket de test d'abord ; boules : la salle écoute "
                "les trois boules ; voix) : écrite dans la configuration de la salle, lue au prochain démarrage, "
                "gardée au journal (setup:answered)",
                "admin",
                obj(url=STR, voice={"enum": ["fr-FR", "fr-BE", "fr-CH"]}, heard=BOOL, action={"enum": ["listen"]}),
                errors=("setup_not_own", "setup_bad_answer", "setup_bad_text", "setup_printer", "setup_listening"),
                params=(path_param("step", "imprimante, boules ou voix"),),
            )
        },
        "/api/devices/{name}/test": {
            "post": op(
                "Demander un test d'appareil",
                "admin",
                ok_status="202",
                errors=("not_found",),
                params=(path_param("name", "printer, ball_machine, keypad ou scanner"),),
            )
        },
        "/api/openapi.json": {"get": op("Ce document", None)},
        "/api/wifi/qr.svg": {
            "get": op(
                "Le QR code Wi-Fi de la salle (WIFI:T:WPA;S:…;P:…;;), comme au projecteur",
                None,
                errors=("not_found",),
                media="image/svg+xml",
            )
        },
        "/api/wifi/page-qr.svg": {
            "get": op(
                "Le QR code de la page à ouvrir une fois sur le Wi-Fi de la salle",
                None,
                errors=("not_found",),
                media="image/svg+xml",
            )
        },
    }
