"""The OpenAPI paths of the hall's voice and the ball count (INTERFACE §11); the clips themselves (/speech/…) are not
under /api."""

from __future__ import annotations

from display import voice_words  # noqa: F401  (declares the voice's refusals, named below)
from display.openapi.parts import BOOL, needing, obj, op

NUMBER = {"type": "number", "minimum": 0, "maximum": 600}


def paths() -> dict:
    """The paths of the hall's voice and the ball count."""
    return {
        "/api/speech": {"get": op("Ce que le projecteur lit pour annoncer : voix, surnoms, mode flash, rythme", None)},
        "/api/speech/report": {
            "post": op(
                "Le projecteur dit s'il parle (affiché à la console avec les appareils)",
                None,
                needing(
                    obj(
                        state={"enum": ["speaks", "blocked", "failed", "off"]}, what={"type": "string", "maxLength": 24}
                    ),
                    "state",
                ),
                ok_status="202",
                errors=("too_many_reports",),
            )
        },
        "/api/speech/again": {
            "post": op("Faire répéter le dernier numéro au projecteur", "speaker", errors=("nothing_to_repeat",))
        },
        "/api/speech/test": {"post": op("Le projecteur dit sa phrase d'essai", "speaker")},
        "/api/speech/count": {
            "post": op("Le compte des boules au projecteur pendant une pause (ou retiré)", "speaker", obj(shown=BOOL))
        },
        "/api/admin/calling": {
            "post": op(
                "Mode flash, surnoms (et leur table), rythme par partie ; journalisé",
                "admin",
                obj(
                    flash=BOOL,
                    nicknames_on=BOOL,
                    nicknames={
                        "type": "object",
                        "propertyNames": {"pattern": "^([1-9]|[1-8][0-9]|90)$"},  # a ball
                        "additionalProperties": {"type": "string", "maxLength": 60},
                    },
                    pace={  # a partie's number → its pace
                        "type": "object",
                        "propertyNames": {"pattern": "^[1-9][0-9]{0,2}$"},
                        "maxProperties": 100,
                        "additionalProperties": NUMBER,
                    },
                ),
            )
        },
        "/api/admin/speech/recordings": {"get": op("Les numéros que la salle a enregistrés", "admin")},
        "/api/stats/balls": {
            "get": op(
                "Le compte des boules : chaque numéro, ce soir et les soirées archivées, et le "
                "test d'uniformité, valable relu chaque soirée (e-valeur)",
                None,
            )
        },
    }
