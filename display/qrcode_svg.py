"""QR codes as SVG made on the server (no JavaScript QR library, nothing from the internet).

A QR code takes ~44 ms to make here (several times that on a Pi), and the public ones (the hall's Wi-Fi, its page, a
sale's) are asked by every phone and projector: each is made once per text and kept (``SVG_KEPT``, the least
recently used forgotten first), and served with an ``ETag`` of its bytes, so a browser asking again with
``If-None-Match`` gets ``304`` and nothing else. The text holds all it depends on (the config's Wi-Fi and address,
the sale's code): a new text is a new code, a new ETag.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from flask import Response, request

SVG_KEPT = 256


@lru_cache(maxsize=SVG_KEPT)
def _made(text: str, border: int) -> tuple[str, str]:
    import qrcode  # at the first code drawn: qrcode brings Pillow and lxml, which the hall's start does not need
    import qrcode.image.svg

    image = qrcode.make(
        text,
        image_factory=qrcode.image.svg.SvgPathImage,
        border=border,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
    )
    svg = image.to_string(encoding="unicode")
    svg = re.sub(r'width="[^"]*" height="[^"]*"', 'width="100%" height="100%"', svg, count=1)
    svg = re.sub(r"(<svg[^>]*>)", r'\1<rect width="100%" height="100%" fill="#fff"/>', svg, count=1)
    return svg, hashlib.sha256(svg.encode()).hexdigest()[:32]


def qr_svg(text: str, border: int = 2) -> str:
    """An SVG QR code of ``text``: black modules on a white square that scales to its box (medium correction)."""
    return _made(text, border)[0]


def qr_response(text: str, border: int = 2, headers: dict[str, str] | None = None) -> Response:
    """``qr_svg(text)`` as a response with its ``ETag``: ``304`` to a request that names it in ``If-None-Match``.
    The browser keeps it but asks again each time (``no-cache``): a changed config is seen at once."""
    svg, etag = _made(text, border)
    resp = Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-cache", **(headers or {})})
    resp.set_etag(etag)
    resp.make_conditional(request)  # 304 and no body when the browser holds this very code
    return resp
