"""A TCP "printer" that records every ESC/POS byte it receives (``serve --demo`` and the tests).

It behaves like a network thermal printer on port 9100 as far as the hall can tell: one client at a
time, and it answers the real-time status requests ``DLE EOT n`` (n = 1 printer, 2 offline cause,
4 paper sensor) from its ``online``/``cover_open``/``paper`` attributes, or not at all when ``mute``.
Each connection's bytes are kept; a connection that carried more than status requests is a *job*.

Two small decoders read back what was "printed": ``decode_text`` (the text, in CP858) and
``decode_raster_images`` (the ``GS v 0`` raster blocks as PIL images, e.g. the voucher's QR).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from hall import write_file

log = logging.getLogger("loto-hall.printer-sink")

DLE, EOT, ESC, GS = 0x10, 0x04, 0x1B, 0x1D


@dataclass
class Connection:
    """One client connection: its bytes, and whether it was a print job (not only status requests)."""

    data: bytes
    status_requests: int
    at: float = field(default_factory=time.time)

    @property
    def is_job(self) -> bool:
        return len(self.data) > 3 * self.status_requests


class _Scanner:
    """Walks an ESC/POS stream, skipping the payload of raster blocks, and spots ``DLE EOT n``."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.pos = 0
        self.skip = 0

    def feed(self, chunk: bytes) -> list[int]:
        """The status requests (n of ``DLE EOT n``) completed by ``chunk``."""
        self.buf += chunk
        found = []
        b = self.buf
        while self.pos < len(b):
            if self.skip:
                step = min(self.skip, len(b) - self.pos)
                self.pos += step
                self.skip -= step
                continue
            c = b[self.pos]
            if c == DLE:
                if self.pos + 2 >= len(b):
                    break
                if b[self.pos + 1] == EOT:
                    found.append(b[self.pos + 2])
                    self.pos += 3
                    continue
            elif c == GS and b[self.pos + 1 : self.pos + 3] == b"v0":
                if self.pos + 8 > len(b):
                    break
                xl, xh, yl, yh = b[self.pos + 4 : self.pos + 8]
                self.pos += 8
                self.skip = (xl + 256 * xh) * (yl + 256 * yh)
                continue
            self.pos += 1
        return found


class PrinterSink:
    """A loopback ESC/POS printer: ``start()``, then print to ``tcp://host:port``; ``stop()`` unplugs it."""

    name = "printer-sink"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, save_dir: Path | None = None):
        self.host = host
        self.port = port
        self.save_dir = Path(save_dir) if save_dir else None
        self.online = True
        self.cover_open = False
        self.paper = "ok"  # "ok", "low" or "out"
        self.mute = False  # take the bytes, answer nothing (a printer that died mid-job)
        self.connections: list[Connection] = []
        self._changed = threading.Condition()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # ---- Service ------------------------------------------------------------------------------------------
    def start(self) -> None:
        if self.alive():
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(4)
        sock.settimeout(0.05)
        self.port = sock.getsockname()[1]
        self._sock = sock
        self._stopping.clear()
        self._thread = threading.Thread(target=self._serve, name="printer-sink", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def url(self) -> str:
        return f"tcp://{self.host}:{self.port}"

    # ---- what was printed -----------------------------------------------------------------------------------
    @property
    def jobs(self) -> list[bytes]:
        """The bytes of every print job received so far, in order."""
        with self._changed:
            return [c.data for c in self.connections if c.is_job]

    def wait_for_jobs(self, count: int, timeout: float = 10.0) -> list[bytes]:
        """Block until at least ``count`` jobs have arrived (connection closed); ``TimeoutError`` otherwise."""
        with self._changed:
            if not self._changed.wait_for(lambda: sum(c.is_job for c in self.connections) >= count, timeout):
                raise TimeoutError(f"{count} job(s) expected, {len(self.jobs)} received")
            return [c.data for c in self.connections if c.is_job]

    def wait_for_connections(self, count: int, timeout: float = 10.0) -> list[Connection]:
        """Block until at least ``count`` connections (jobs or status probes) have closed."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.connections) >= count, timeout):
                raise TimeoutError(f"{count} connection(s) expected, {len(self.connections)} seen")
            return list(self.connections)

    def _status_byte(self, n: int) -> bytes:
        if n == 1:  # printer status: bit 3 = offline; bits 1 and 4 always set
            return bytes([0x16 if self.online and not self.cover_open and self.paper != "out" else 0x1E])
        if n == 2:  # offline cause: bit 2 cover open, bit 5 stopped by paper end
            return bytes([0x12 | (0x04 if self.cover_open else 0) | (0x20 if self.paper == "out" else 0)])
        if n == 4:  # paper sensor: bits 2-3 near end, bits 5-6 paper end
            return bytes([0x12 | {"ok": 0, "low": 0x0C, "out": 0x6C}[self.paper]])
        return b"\x12"

    # ---- the server ----------------------------------------------------------------------------------------
    def _serve(self) -> None:
        sock = self._sock  # start() opens it before this thread; stop() may drop it after a slow join
        assert sock is not None
        while not self._stopping.is_set():
            try:
                conn, _ = sock.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                self._receive(conn)

    def _receive(self, conn: socket.socket) -> None:
        conn.settimeout(0.2)
        scanner = _Scanner()
        requests = 0
        while not self._stopping.is_set():
            try:
                chunk = conn.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            if not chunk:
                break
            for n in scanner.feed(chunk):
                requests += 1
                if not self.mute:
                    try:
                        conn.sendall(self._status_byte(n))
                    except OSError:
                        break
        record = Connection(bytes(scanner.buf), requests)
        with self._changed:
            self.connections.append(record)
            self._changed.notify_all()
        if record.is_job and self.save_dir is not None:
            self._save(record, sum(c.is_job for c in self.connections))

    def _save(self, record: Connection, number: int) -> None:
        assert self.save_dir is not None  # _receive saves only with a folder
        try:
            self.save_dir.mkdir(parents=True, exist_ok=True)
            write_file(self.save_dir / f"ticket-{number:04d}.escpos", record.data)
            write_file(self.save_dir / f"ticket-{number:04d}.txt", decode_text(record.data))
        except OSError as exc:
            log.warning("printer sink: cannot save ticket %d: %s", number, exc)


# ---- decoders -------------------------------------------------------------------------------------------------
_ARGS_ESC = {
    ord(c): n
    for c, n in {
        "@": 0,
        "2": 0,
        "3": 1,
        "!": 1,
        "E": 1,
        "-": 1,
        "M": 1,
        "a": 1,
        "t": 1,
        "d": 1,
        "J": 1,
        "G": 1,
        "{": 1,
        "V": 1,
        "R": 1,
        "p": 3,
        "c": 2,
    }.items()
}
_ARGS_GS = {
    ord(c): n
    for c, n in {"!": 1, "B": 1, "b": 1, "h": 1, "w": 1, "H": 1, "f": 1, "L": 2, "W": 2, "a": 1, "r": 1, "I": 1}.items()
}
_CODEPAGES = {0: "cp437", 2: "cp850", 16: "cp1252", 19: "cp858"}


def _walk(data: bytes):
    """Yield ``("text", bytes, codec)``, ``("raster", (width_bytes, height, payload))``, ``("cut", None)``,
    ``("style", {...})`` (size, bold, alignment, inversion) and ``("command", first two bytes)`` for every command
    from an ESC/POS stream."""
    i, n, codec = 0, len(data), "cp437"
    start = 0
    while i < n:
        c = data[i]
        if c in (ESC, GS, DLE):
            if start < i:
                yield "text", data[start:i], codec
            yield "command", data[i : i + 2]
            arg = data[i + 2] if i + 2 < n else 0
            if c == DLE:
                i += 3
            elif c == ESC and i + 1 < n:
                cmd = data[i + 1]
                if cmd == ord("t"):
                    codec = _CODEPAGES.get(arg, "cp437")
                elif cmd == ord("!"):
                    yield "style", {"dw": bool(arg & 0x20), "dh": bool(arg & 0x10), "bold": bool(arg & 0x08)}
                elif cmd == ord("E"):
                    yield "style", {"bold": bool(arg & 1)}
                elif cmd == ord("a"):
                    yield "style", {"align": arg % 48}
                elif cmd == ord("d"):
                    yield "feed", arg
                i += 2 + _ARGS_ESC.get(cmd, 1)
            elif c == GS and i + 1 < n:
                cmd = data[i + 1]
                if cmd == ord("v") and data[i + 2 : i + 3] == b"0":
                    xl, xh, yl, yh = data[i + 4 : i + 8]
                    w, h = xl + 256 * xh, yl + 256 * yh
                    yield "raster", (w, h, data[i + 8 : i + 8 + w * h])
                    i += 8 + w * h
                elif cmd == ord("V"):
                    yield "cut", None
                    i += 4 if arg in (65, 66) else 3
                elif cmd == ord("(") and i + 4 < n:  # GS ( k pL pH …: length-prefixed functions (native QR)
                    i += 5 + data[i + 3] + 256 * data[i + 4]
                elif cmd == ord("k"):  # GS k m: barcode, NUL-terminated or length-prefixed
                    if arg <= 6:
                        end = data.find(b"\x00", i + 3)
                        i = (end + 1) if end >= 0 else n
                    else:
                        i += 4 + (data[i + 3] if i + 3 < n else 0)
                else:
                    if cmd == ord("!"):
                        yield "style", {"dw": bool(arg & 0x70), "dh": bool(arg & 0x07)}
                    elif cmd == ord("B"):
                        yield "style", {"invert": bool(arg & 1)}
                    i += 2 + _ARGS_GS.get(cmd, 1)
            else:
                i += 1
            start = i
        else:
            i += 1
    if start < n:
        yield "text", data[start:n], codec


def decode_text(data: bytes) -> str:
    """The text a ticket prints, commands removed, decoded with the code page it selected (CP858 here)."""
    parts = []
    for kind, value, *rest in _walk(data):
        if kind == "text":
            parts.append(value.decode(rest[0], errors="replace"))
        elif kind == "cut":
            parts.append("\n--- coupe ---\n")
    return "".join(parts).replace("\r", "")


def escpos_commands(data: bytes) -> list[bytes]:
    """The first two bytes of every command of a ticket, raster payloads skipped (``ESC p`` opens a drawer)."""
    return [value for kind, value, *_ in _walk(data) if kind == "command"]


def decode_raster_images(data: bytes) -> list[Image.Image]:
    """Every ``GS v 0`` raster block as a black-on-white PIL image (mode ``"L"``)."""
    images = []
    for kind, value, *_ in _walk(data):
        if kind == "raster":
            w, h, payload = value
            if len(payload) < w * h or w == 0 or h == 0:
                continue
            bits = Image.frombytes("1", (w * 8, h), bytes(payload))  # 1 = black on paper, 1 = white in PIL
            images.append(Image.eval(bits.convert("L"), lambda v: 255 - v))
    return images


def _font(bold: bool, size: int):
    names = (
        ("DejaVuSansMono-Bold.ttf", "LiberationMono-Bold.ttf")
        if bold
        else ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf")
    )
    for name in names:
        for folder in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation"):
            try:
                return ImageFont.truetype(f"{folder}/{name}", size)
            except OSError:
                continue
    return ImageFont.load_default(size)


def render_ticket(data: bytes, width_px: int = 576, columns: int = 48) -> Image.Image:
    """A rough picture of the ticket as a thermal printer would print it (font A, 48 columns on 576 dots)."""
    cw = width_px // columns
    blocks: list[Image.Image] = []
    style = {"dw": False, "dh": False, "bold": False, "align": 0, "invert": False}
    line: list[tuple[str, dict]] = []

    def flush(force: bool = False) -> None:
        if not line and not force:
            return
        tall = any(s["dh"] for _, s in line)
        img = Image.new("L", (width_px, 2 * cw * (2 if tall else 1) + 4), 255)
        draw = ImageDraw.Draw(img)
        total = sum(len(t) * cw * (2 if s["dw"] else 1) for t, s in line)
        align = line[0][1]["align"] if line else 0
        x = {0: 0, 1: (width_px - total) // 2, 2: width_px - total}.get(align, 0)
        for text, s in line:
            w = cw * (2 if s["dw"] else 1)
            h = 2 * cw * (2 if s["dh"] else 1)
            for ch in text:
                if s["invert"]:
                    draw.rectangle([x, img.height - h - 2, x + w, img.height - 2], fill=0)
                glyph = Image.new("L", (cw, 2 * cw), 255)
                ImageDraw.Draw(glyph).text((0, 0), ch, font=_font(s["bold"], 2 * cw * 5 // 6), fill=0)
                glyph = glyph.resize((w, h))
                if s["invert"]:
                    glyph = Image.eval(glyph, lambda v: 255 - v)
                img.paste(glyph, (x, img.height - h - 2))
                x += w
        blocks.append(img)
        line.clear()

    for kind, value, *rest in _walk(data):
        if kind == "style":
            style = {**style, **value}
        elif kind == "text":
            chunks = value.decode(rest[0], errors="replace").replace("\r", "").split("\n")
            for k, chunk in enumerate(chunks):
                if chunk:
                    line.append((chunk, dict(style)))
                if k < len(chunks) - 1:
                    flush(force=True)
        elif kind == "raster":
            flush()
            w, h, payload = value
            bits = Image.frombytes("1", (w * 8, h), bytes(payload))
            blocks.append(Image.eval(bits.convert("L"), lambda v: 255 - v).crop((0, 0, width_px, h)))
        elif kind == "feed":
            flush()
            blocks.append(Image.new("L", (width_px, value * 2 * cw), 255))
        elif kind == "cut":
            flush()
            cut = Image.new("L", (width_px, 12), 255)
            ImageDraw.Draw(cut).line([(0, 6), (width_px, 6)], fill=128, width=1)
            blocks.append(cut)
    flush()
    out = Image.new("L", (width_px + 24, sum(b.height for b in blocks) + 24), 255)
    y = 12
    for b in blocks:
        out.paste(b, (12, y))
        y += b.height
    return out
