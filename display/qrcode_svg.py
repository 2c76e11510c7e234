"""QR codes as SVG made on the server (no JavaScript QR library, nothing from the internet)."""
from __future__ import annotations

import re

import qrcode
import qrcode.image.svg


def qr_svg(text: str, border: int = 2) -> str:
    """An SVG QR code of ``text``: black modules on a white square that scales to its box (medium correction)."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=border,
                        error_correction=qrcode.constants.ERROR_CORRECT_M)
    svg = image.to_string(encoding="unicode")
    svg = re.sub(r'width="[^"]*" height="[^"]*"', 'width="100%" height="100%"', svg, count=1)
    return re.sub(r"(<svg[^>]*>)", r'\1<rect width="100%" height="100%" fill="#fff"/>', svg, count=1)
