"""« Mes cartons » shows a carton's grid only to a phone that shows it holds the paper (INTERFACE §9).

The proof is the short code printed on the carton, in its QR code's link (``{hall}/c/{card_id}?k={code}``) and
under it (``hall.cartons.card_ids.card_code``: a keyed hash of the ID, no table), or the sale's code (``/s/{code}``), which
hands the phone every code of that sale. Without the right code a phone learns neither the grid nor whether the
carton was sold: the answer is ``bad_card_code`` for a sold carton and an unsold one alike, so that sequential IDs
no longer give the evening's sales away.

What a phone sends, each item of ``card_ids``: the printed QR code's link (the code in its ``k``), or
``{"card_id": text, "code": text}`` (typed on the page); a bare ID is an item without a code.
"""

from __future__ import annotations

import hmac
from urllib.parse import parse_qs, urlsplit

from hall import typed_card_code
from hall.ports import HallPort
from hall.refusal import Rejected


def link_code(text: str) -> tuple[str, str]:
    """A linked text and the code its link carries (``…/c/A-00412B?k=K7QMX``), or "" when it carries none."""
    if "?" not in text:
        return text, ""
    query = urlsplit(text.strip()).query
    codes = parse_qs(query).get("k", [""]) if len(query) <= 64 else [""]
    return text, codes[0]


def items(raw: object, limit: int) -> list[tuple[str, str]]:
    """The (text, code) of each carton a phone asks for; ``bad_field`` or ``too_many_cards`` before any work."""
    if not isinstance(raw, list) or not raw:
        raise Rejected("bad_field", field="card_ids")
    if len(raw) > limit:
        raise Rejected("too_many_cards", max=limit)
    out = []
    for item in raw:
        if isinstance(item, str):
            out.append(link_code(item))
        elif isinstance(item, dict) and isinstance(item.get("card_id"), str) and isinstance(item.get("code", ""), str):
            out.append((item["card_id"], item.get("code", "")))
        else:
            raise Rejected("bad_field", field="card_ids")
    return out


def holds(hall: HallPort, card_id: str, code: str) -> bool:
    """Whether ``code`` is carton ``card_id``'s (constant time)."""
    typed = typed_card_code(code)
    return bool(typed) and hmac.compare_digest(typed.encode(), hall.card_code(card_id).encode())
