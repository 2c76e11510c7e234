"""The ESC/POS voucher printer (python-escpos) and the print queue that never loses a voucher.

* ``printer_target(url)`` reads ``[printer] url``: ``usb://VID:PID``, ``serial:///dev/ttyUSB0?baudrate=19200``,
  ``tcp://HOST:9100``, ``file:///dev/usb/lp0``. Options in the query: ``timeout`` (seconds), ``status=0`` for a
  printer that does not answer ``DLE EOT`` (then a dead network peer goes unnoticed), ``dsrdtr=0`` (serial),
  ``in_ep``/``out_ep`` (usb).
* ``render_voucher(view, profile)`` lays out INTERFACE §6 into ESC/POS bytes (CP858, QR as a raster image).
* ``EscposDevice.send(bytes)`` opens a *fresh* python-escpos printer per job (it never reopens by itself), reads the
  status (offline, cover open, paper out), writes, then asks the status again: the answer proves the bytes reached
  the printer (a network printer switched off mid-job otherwise swallows them silently). Raises ``PrinterAway``.
* ``PrintQueue`` (a ``Service``) prints ``hall.unprinted()`` — at start, and on each ``voucher:issued`` or
  ``voucher:reprint_requested`` — and journals each success with ``voucher_printed``. While the printer is away it
  retries with backoff; the hall never waits for it. Delivery is at-least-once: a job whose confirmation is lost
  prints again with the same code, and the desk redeems a code only once.
"""
from __future__ import annotations

import datetime as dt
import logging
import textwrap
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from hall.errors import ConfigError
from hall.events import VoucherIssued
from hall.ports import utc_now
from hall.report import KIND_LABELS


def _import_escpos():
    """Import python-escpos without the ``logging.basicConfig()`` its 3.1 release runs at import (issue #559)."""
    root = logging.getLogger()
    before = list(root.handlers)
    import escpos.printer as printer_module
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
    return printer_module


escpos_printer = _import_escpos()
log = logging.getLogger("loto-hall.printer")

_REPLACE = {"\u202f": " ", "\u00a0": " ", "\u2009": " ", "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
            "\u2013": "-", "\u2014": "-", "\u2026": "...", "\u0153": "oe", "\u0152": "OE", "\u2022": "-"}


class PrinterAway(RuntimeError):
    """The printer cannot take the job now; ``sentence`` says why, in French, for the speaker."""

    @property
    def sentence(self) -> str:
        return str(self)


def printable(text: str) -> str:
    """``text`` reduced to what CP858 can print: typographic spaces and dashes made plain, the rest de-accented."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        ch = _REPLACE.get(ch, ch)
        try:
            ch.encode("cp858")
        except UnicodeEncodeError:
            ch = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"
        out.append(ch)
    return "".join(out)


# ---- what a voucher says -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class VoucherView:
    """Everything printed on one voucher (INTERFACE §6)."""

    hall_name: str
    code: str
    serial: int
    partie: int
    lot_kind: str
    lot_label: str                    # the lot played (for a consolation, the lot that was lost on the tie-break)
    card_id: str
    consolation: bool = False
    prize: str = ""                   # what is handed over: the consolation's label, else the lot's
    shared: bool = False
    value_eur: float | None = None
    issued_at: str = ""               # local date and time, "14/11/2026 à 21:34"
    duplicate: bool = False
    printed_at: str = ""


def local_time(iso_utc: str, timezone: str = "Europe/Paris") -> str:
    """``"14/11/2026 à 21:34"`` from a journal time (ISO 8601 UTC); the raw text if it cannot be read."""
    try:
        when = dt.datetime.fromisoformat(iso_utc).astimezone(ZoneInfo(timezone))
    except (ValueError, KeyError, OSError):
        return iso_utc
    return when.strftime("%d/%m/%Y à %H:%M")


def voucher_view(hall, issued: VoucherIssued, duplicate: bool, issued_at_utc: str = "") -> VoucherView:
    """The view of a journalled voucher, with the lot's label and value from the hall's state."""
    lot_label, value = issued.lot_label, None
    with hall.lock:
        parties = hall.evening.parties
        if 0 < issued.partie <= len(parties) and issued.lot_index < len(parties[issued.partie - 1].lots):
            lot = parties[issued.partie - 1].lots[issued.lot_index]
            lot_label, value = lot.label, lot.value_eur
    tz = hall.config.hall.timezone
    now = dt.datetime.now(dt.timezone.utc).isoformat()
    return VoucherView(hall.config.hall.name, issued.code, issued.serial, issued.partie, issued.lot_kind,
                       lot_label, issued.card_id, issued.consolation, issued.lot_label, issued.shared,
                       None if issued.consolation else value, local_time(issued_at_utc, tz) if issued_at_utc else "",
                       duplicate, local_time(now, tz) if duplicate else "")


def _euros(value: float) -> str:
    text = f"{value:,.2f}".replace(",", " ").replace(".", ",")
    return (text[:-3] if text.endswith(",00") else text) + " €"


def render_voucher(view: VoucherView, profile: str = "TM-T20II") -> bytes:
    """The voucher as ESC/POS bytes for ``profile``: CP858 text, the code's QR as a raster image, a cut."""
    p = escpos_printer.Dummy(profile=profile)
    try:
        cols = int(p.profile.get_columns("a"))
    except Exception:
        cols = 42
    rule = "-" * cols

    def lines(text: str, width: int = cols, indent: str = "") -> None:
        for line in textwrap.wrap(printable(text), width, subsequent_indent=indent) or [""]:
            p.textln(line)

    p.hw("INIT")
    p.charcode("CP858")
    p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
    lines(view.hall_name, cols // 2)
    p.set_with_default(align="center", bold=True, double_height=True, double_width=not view.consolation)
    p.textln("BON DE CONSOLATION" if view.consolation else "BON D'ÉCHANGE")
    if view.duplicate:
        p.set_with_default(align="center", bold=True, invert=True, double_width=True, double_height=True)
        p.textln(" DUPLICATA ")
    p.set_with_default()
    p.textln(rule)
    p.set_with_default(bold=True, double_height=True)
    p.textln(printable(f"Partie n° {view.partie}"))
    p.set_with_default()
    kind = KIND_LABELS.get(view.lot_kind, view.lot_kind)
    played = f"{kind} - {view.lot_label}" if view.lot_label != kind else kind
    if view.consolation:      # never let the desk read the main lot as the prize of a consolation voucher
        lines(f"Lot joué : {played}", indent=" " * 11)
        p.set_with_default(bold=True, double_height=True)
        lines(f"À remettre : {view.prize or 'lot de consolation'}")
        p.set_with_default()
        lines("(départage perdu : ce bon donne droit au lot de consolation)")
    else:
        p.set_with_default(bold=True)
        lines(f"Lot    : {played}", indent=" " * 9)
        p.set_with_default()
    if view.shared:
        lines("(lot partagé entre plusieurs gagnants)")
    if view.value_eur is not None:
        p.textln(printable(f"Valeur : {_euros(view.value_eur)}"))
    p.set_with_default(bold=True, double_height=True)
    p.textln(printable(f"Carton : {view.card_id}"))
    p.set_with_default()
    if view.issued_at:
        p.textln(printable(f"Gagné le {view.issued_at}"))
    p.textln(rule)
    p.qr(view.code, size=8, native=False, center=True)
    p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
    p.textln(view.code)
    p.set_with_default(align="center")
    lines("À présenter à la table des lots.")
    lines("Un seul lot par bon : le code est vérifié.")
    if view.duplicate:
        lines(f"Duplicata imprimé le {view.printed_at}" if view.printed_at else "Duplicata")
    p.set_with_default()
    p.cut()
    return p.output


# ---- the device ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PrinterTarget:
    kind: str                  # usb, serial, tcp, file
    where: str                 # a sentence fragment naming the device
    args: dict
    status: bool = True        # ask DLE EOT before and after each job
    timeout_s: float = 5.0


def printer_target(url: str) -> PrinterTarget:
    """The printer named by ``[printer] url``; raises ``ConfigError`` naming the problem."""
    def bad(why: str) -> ConfigError:
        return ConfigError([f"printer.url : {url!r} {why} (usb://VID:PID, serial:///dev/ttyUSB0?baudrate=19200, "
                            "tcp://HOST:9100, file:///dev/usb/lp0)"])
    parts = urlsplit(url.strip())
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    try:
        timeout = float(query.pop("timeout", 5.0))
        status = query.pop("status", "1") not in ("0", "false", "no")
        if parts.scheme == "tcp":
            if not parts.hostname:
                raise bad("sans hôte")
            port = parts.port or 9100
            args = {"host": parts.hostname, "port": port, "timeout": timeout}
            return PrinterTarget("tcp", f"{parts.hostname}:{port}", args, status, timeout)
        if parts.scheme == "usb":
            vid, pid = (int(x, 16) for x in parts.netloc.split(":"))
            args = {"idVendor": vid, "idProduct": pid, "usb_args": {}, "timeout": int(timeout * 1000)}
            args.update({k: int(query.pop(k), 0) for k in ("in_ep", "out_ep") if k in query})
            return PrinterTarget("usb", f"USB {vid:04x}:{pid:04x}", args, status, timeout)
        if parts.scheme == "serial":
            dev = parts.path or parts.netloc
            args = {"devfile": dev, "baudrate": int(query.pop("baudrate", 9600)), "timeout": timeout,
                    "dsrdtr": query.pop("dsrdtr", "1") not in ("0", "false", "no")}
            return PrinterTarget("serial", f"port série {dev}", args, status, timeout)
        if parts.scheme == "file":
            dev = parts.path or parts.netloc
            return PrinterTarget("file", f"périphérique {dev}", {"devfile": dev}, False, timeout)
    except (ValueError, TypeError):
        raise bad("illisible") from None
    raise bad("de type inconnu")


_CLASSES = {"tcp": "Network", "usb": "Usb", "serial": "Serial", "file": "File"}


class EscposDevice:
    """A printer reached through python-escpos, opened afresh for every job and closed after it."""

    def __init__(self, url: str, profile: str = "TM-T20II"):
        self.url = url
        self.profile = profile
        self.target = printer_target(url)

    def _open(self):
        cls = getattr(escpos_printer, _CLASSES[self.target.kind])
        args = dict(self.target.args)
        if "usb_args" in args:
            args["usb_args"] = {}          # python-escpos 3.1 shares a mutable default otherwise
        printer = cls(profile=self.profile, **args)
        try:
            printer.open()
        except Exception as exc:
            printer.close()
            raise PrinterAway(f"Imprimante injoignable ({self.target.where})") from exc
        return printer

    def _query(self, printer, n: int) -> bytes:
        """One real-time status byte (``DLE EOT n``), ``b""`` when the printer does not answer."""
        try:
            printer._raw(b"\x10\x04" + bytes([n]))
            if self.target.kind == "serial":
                return bytes(printer.device.read(1))
            return bytes(printer._read())
        except Exception:
            return b""

    def _check(self, printer) -> str | None:
        """Raise ``PrinterAway`` when the printer says it cannot print; the warning sentence, if any."""
        online = self._query(printer, 1)
        if not online:
            raise PrinterAway(f"L'imprimante ne répond pas ({self.target.where})")
        if online[0] & 0x08:
            cause = self._query(printer, 2)
            if cause and cause[0] & 0x04:
                raise PrinterAway("Capot de l'imprimante ouvert")
            if cause and cause[0] & 0x20:
                raise PrinterAway("Plus de papier dans l'imprimante")
            raise PrinterAway("L'imprimante est hors ligne")
        paper = self._query(printer, 4)
        if paper and paper[0] & 0x60:
            raise PrinterAway("Plus de papier dans l'imprimante")
        if paper and paper[0] & 0x0C:
            return "Papier presque épuisé : préparez un rouleau neuf"
        return None

    def probe(self) -> str | None:
        """Check the printer without printing: ``PrinterAway`` or a warning sentence (``None``: all well)."""
        if not self.target.status:
            return None
        printer = self._open()
        try:
            return self._check(printer)
        finally:
            printer.close()

    def send(self, data: bytes) -> str | None:
        """Print one job; raises ``PrinterAway``; returns a warning sentence (paper low) or ``None``."""
        printer = self._open()
        try:
            warning = self._check(printer) if self.target.status else None
            try:
                printer._raw(data)
                if self.target.kind == "file":
                    printer.flush()
            except Exception as exc:
                raise PrinterAway(f"Impression interrompue ({self.target.where})") from exc
            if self.target.status and not self._query(printer, 1):
                raise PrinterAway(f"L'imprimante n'a pas confirmé le bon ({self.target.where}) : il sera réimprimé")
            return warning
        finally:
            try:
                printer.close()
            except Exception:
                pass


def render_test_ticket(hall_name: str, at: str, profile: str = "TM-T20II") -> bytes:
    """A short test ticket (the admin's « tester l'imprimante »): accents, €, and a cut."""
    p = escpos_printer.Dummy(profile=profile)
    p.hw("INIT")
    p.charcode("CP858")
    p.set_with_default(align="center", bold=True, double_height=True)
    p.textln(printable(hall_name))
    p.set_with_default(align="center")
    p.textln("TEST IMPRIMANTE - loto-hall")
    p.textln(printable(f"Éé àç ù € — {at}"))
    p.cut()
    return p.output


# ---- the queue -------------------------------------------------------------------------------------------------
class PrintQueue:
    """The print-queue worker: the journal says what is left to print; this prints it, in order, once."""

    name = "printer"

    def __init__(self, hall, device: EscposDevice, *, retry_initial_s: float = 0.5, retry_max_s: float = 30.0,
                 poll_s: float | None = 60.0):
        self.hall = hall
        self.device = device
        self.retry_initial_s = retry_initial_s
        self.retry_max_s = retry_max_s
        self.poll_s = poll_s
        self.printed = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe = None
        self._times: dict[str, str] = {}
        self._last_problem = ""
        self._test_wanted = threading.Event()

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        with self.hall.lock:
            self._times = {r.event.code: r.at for r in self.hall.journal.records() if r.type == "voucher:issued"}
            self._unsubscribe = self.hall.subscribe(self._on_record)
            self.hall.subscribe_notices(self._on_notice)
        self._stop.clear()
        self._wake.set()
        self._thread = threading.Thread(target=self._run, name="print-queue", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._thread is not None:
            self._thread.join(timeout=max(10.0, self.device.target.timeout_s * 3))

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _on_record(self, record) -> None:
        """Called under the hall's lock: note the time, wake the worker, nothing more."""
        if record.type == "voucher:issued":
            self._times[record.event.code] = record.at
        if record.type in ("voucher:issued", "voucher:reprint_requested"):
            self._wake.set()

    def _on_notice(self, name: str, payload: dict) -> None:
        """The admin asked for a test ticket: print it when no voucher waits."""
        if name == "device:test_requested" and payload.get("device") == "printer":
            self._test_wanted.set()
            self._wake.set()

    def _status(self, status: str, sentence: str) -> None:
        try:
            self.hall.set_device_status("printer", status, sentence)
        except Exception:   # a subscriber's failure must not stop the printing
            log.exception("printer status not published")

    def _run(self) -> None:
        delay = self.retry_initial_s
        if self.poll_s is not None and not self.hall.unprinted():
            self._probe()                                   # the speaker sees the printer's state from the start
        while not self._stop.is_set():
            self._wake.clear()
            jobs = self.hall.unprinted()
            if not jobs:
                if self._test_wanted.is_set():
                    self._test_wanted.clear()
                    self._print_test()
                elif not self._wake.wait(self.poll_s) and not self._stop.is_set():
                    self._probe()
                continue
            issued, duplicate = jobs[0]
            try:
                view = voucher_view(self.hall, issued, duplicate, self._times.get(issued.code, ""))
                warning = self.device.send(render_voucher(view, self.device.profile))
            except Exception as exc:      # PrinterAway, or a bug rendering this voucher: wait, retry, go on
                sentence = exc.sentence if isinstance(exc, PrinterAway) else f"Erreur d'impression ({exc})"
                if sentence != self._last_problem:          # log once per problem, not once per retry
                    log.warning("voucher %s waits (%s): %s", issued.code, self.device.url, sentence,
                                exc_info=not isinstance(exc, PrinterAway))
                    self._last_problem = sentence
                self._status("degraded", f"{sentence} — {len(jobs)} bon(s) en attente.")
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry_max_s)
                continue
            try:
                self.hall.voucher_printed(issued.code, duplicate, role="device")
                self.printed += 1
            except Exception:
                log.exception("voucher %s printed but not journalled: it will print again", issued.code)
                self._stop.wait(delay)
                continue
            delay, self._last_problem = self.retry_initial_s, ""
            self._status("degraded", warning + ".") if warning else self._status("ok", "Imprimante prête.")

    def _print_test(self) -> None:
        try:
            warning = self.device.send(render_test_ticket(self.hall.config.hall.name, utc_now(), self.device.profile))
        except PrinterAway as exc:
            self._status("degraded", f"Test d'impression impossible : {exc.sentence}")
            return
        self._status("degraded", warning + ".") if warning else self._status("ok", "Imprimante prête : ticket de test imprimé.")

    def _probe(self) -> None:
        try:
            warning = self.device.probe()
        except PrinterAway as exc:
            warning = exc.sentence
        self._status("degraded", warning + ".") if warning else self._status("ok", "Imprimante prête.")


def start_printing(hall, config, demo: bool = False, data_dir: Path | None = None, *,
                   retry_initial_s: float = 0.5, retry_max_s: float = 30.0, poll_s: float | None = 60.0) -> list:
    """The services that print the hall's vouchers: the queue, and with ``demo`` and no printer a TCP sink."""
    section = config.printer
    url = section.url if section is not None else ""
    profile = section.profile if section is not None else "TM-T20II"
    services: list = []
    if not url and demo:
        from drivers.printer_sink import PrinterSink
        sink = PrinterSink("127.0.0.1", 0, Path(data_dir) / "printer-sink" if data_dir else None)
        sink.start()
        services.append(sink)
        url = sink.url
        log.info("demo printer sink on %s", url)
    if not url:
        hall.set_device_status("printer", "unconfigured", "Aucune imprimante configurée : les bons restent au journal.")
        return services
    device = EscposDevice(url, profile)
    services.append(PrintQueue(hall, device, retry_initial_s=retry_initial_s, retry_max_s=retry_max_s, poll_s=poll_s))
    return services
