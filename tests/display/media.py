"""A fake camera for Chromium: a YUV4MPEG2 file showing a QR code (``--use-file-for-fake-video-capture``)."""

from __future__ import annotations

from pathlib import Path

import qrcode
from PIL import Image

WIDTH, HEIGHT, FRAMES = 640, 480, 10


def qr_y4m(path: Path, text: str) -> Path:
    """Write ``path``: a few identical 640×480 frames of a QR code of ``text`` on white (4:2:0)."""
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=8, border=4)
    qr.add_data(text)
    qr.make(fit=True)
    code = qr.make_image(fill_color="black", back_color="white").convert("L")
    side = min(HEIGHT - 40, code.size[0])
    code = code.resize((side, side), Image.NEAREST)
    frame = Image.new("L", (WIDTH, HEIGHT), 255)
    frame.paste(code, ((WIDTH - side) // 2, (HEIGHT - side) // 2))
    y = frame.tobytes()
    chroma = bytes([128]) * ((WIDTH // 2) * (HEIGHT // 2))
    with open(path, "wb") as fh:
        fh.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(FRAMES):
            fh.write(b"FRAME\n" + y + chroma + chroma)
    return path
