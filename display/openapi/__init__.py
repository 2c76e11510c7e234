"""``GET /api/openapi.json``: the API described for integrators (OpenAPI 3.1), assembled here from each area's
paths (``evening``, ``house``, ``desk``, ``voice``, ``tombola``, ``buvette``, the salle annexe's ``rooms``); the mini-games'
rooms add theirs (``display.rooms.openapi_paths``)."""

from __future__ import annotations

from display.errors import public_codes
from display.openapi import buvette, desk, evening, house, rooms, tombola, voice
from display.openapi.parts import STR, obj


def spec() -> dict:
    """The OpenAPI document."""
    p = {
        **evening.paths(),
        **house.paths(),
        **desk.paths(),
        **voice.paths(),
        **tombola.paths(),
        **buvette.paths(),
        **rooms.paths(),
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
                    "content": {"application/json": {"schema": obj(error={"enum": public_codes()}, message=STR)}},
                }
            },
        },
    }
