"""The pieces of the OpenAPI document: the operation maker (every status an operation can answer), path and query
parameters, objects, and the schemas several areas share (a lot, with its terms)."""

from __future__ import annotations

from display.errors import status_of
from hall import LOT_KINDS, MAX_LABEL, ROWS, WITHIN
from hall.refusal import LOTO

ERR = {"$ref": "#/components/responses/Error"}


def op(
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
    operation: dict = {
        "summary": summary,
        "responses": {
            ok_status: {
                "description": "OK",
                "content": {media: {"schema": ok or ({"type": "object"} if media == "application/json" else STR)}},
            }
        },
    }
    if params:
        operation["parameters"] = list(params)
    if role:
        operation["security"] = [{"bearer": []}, {"cookie": []}]
        operation["x-role"] = role
        operation["responses"].update({"401": ERR, "403": ERR})
    if body is not None:
        operation["requestBody"] = {
            "required": bool(body.get("required")),  # a body with a required field cannot be left out
            "content": {"application/json": {"schema": optional_nullable(body)}},
        }
        operation["responses"].update({"400": ERR, "413": ERR, "422": ERR})
    if any(p["in"] == "query" for p in params):
        operation["responses"]["422"] = ERR  # a query parameter refused: bad_field
        # a request line past 4 KiB, refused by the web server (gunicorn, nginx) before the hall reads it
        operation["responses"]["414"] = {"description": "Adresse trop longue : refusée avant la salle"}
    for code in errors:
        operation["responses"][str(status_of(f"{area}/{code}"))] = ERR
    return operation


def path_param(name: str, description: str, pattern: str | None = None) -> dict:
    """A required path parameter: a string of 1 to 64 characters, matching ``pattern`` when given."""
    schema = {"type": "string", "minLength": 1, "maxLength": 64}
    if pattern:
        schema["pattern"] = pattern
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


def query_param(name: str, schema: dict, description: str, required: bool = False) -> dict:
    """A query parameter (optional unless ``required``)."""
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


def obj(**props) -> dict:
    """An object schema with these properties."""
    return {"type": "object", "properties": props}


def needing(schema: dict, *required: str) -> dict:
    """``schema`` (an object) with the properties ``required`` that the server refuses to go without."""
    return {**schema, "required": list(required)}


def or_null(schema: dict) -> dict:
    """``schema``, or JSON ``null``."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if "enum" in schema:
        return schema if None in schema["enum"] else {**schema, "enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


def optional_nullable(body: dict) -> dict:
    """A request body's object whose optional properties also take ``null``: the server reads a ``null`` as a
    property left out (``display/api.py``'s ``field``), so the document says so."""
    if body.get("type") != "object" or "properties" not in body:
        return body
    required = set(body.get("required", ()))
    props = {k: v if k in required else or_null(v) for k, v in body["properties"].items()}
    return {**body, "properties": props}


INT, STR, BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
NULLABLE_OBJ = {"type": ["object", "null"]}
# a lot's terms (RULES L20–L21): a quine on a named row, a carton plein in N balls with its fallback
FALLBACK = {
    **obj(
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
LOT = obj(
    kind={"enum": list(LOT_KINDS)},
    label=STR,
    status=STR,
    lines=obj(need=INT, among={"type": "array", "items": INT}),
    **TERMS,
)
LOT_IN = needing(
    obj(
        kind={"enum": list(LOT_KINDS)},
        label={"type": ["string", "null"], "maxLength": MAX_LABEL},
        value_eur={"type": ["number", "null"], "minimum": 0, "maximum": 1_000_000},
        sponsor={"type": ["string", "null"], "maxLength": MAX_LABEL},
        **TERMS,
    ),
    "kind",
)
