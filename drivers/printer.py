"""The ESC/POS voucher printer (python-escpos) and the print queue that never loses a voucher.

* ``printer_target(url)`` reads ``[printer] url``: ``usb://VID:PID``, ``serial:///dev/ttyUSB0?baudrate=19200``,
  ``tcp://HOST:9100``, ``file:///dev/usb/lp0``. Options in the query: ``timeout`` (seconds), ``status=0`` for a
  printer that does not answer ``DLE EOT`` (then a dead network peer goes unnoticed), ``dsrdtr=0`` (serial),
  ``in_ep``/``out_ep`` (usb).
* The voucher's layout (INTERFACE §6, CP858, QR as a raster image) is ``drivers.voucher_layout``; every text a ticket
  prints is written in the letters CP858 has and wrapped at its spaces by ``drivers.escpos_text``.
* ``EscposDevice.send(bytes)`` opens a *fresh* python-escpos printer per job (it never reopens by itself), reads the
  status (offline, cover open, paper out), writes, then asks the status again: the answer proves the bytes reached
  the printer (a network printer switched off mid-job otherwise swallows them silently). Raises ``PrinterAway``.
* ``PrintQueue`` (a ``Service``) prints ``hall.vouchers_to_print()`` — at start, and on each ``voucher:issued`` or
  ``voucher:reprint_requested`` — and journals each success with ``voucher_printed``; then the board's copies
  (``hall.tickets_to_print()``, ``drivers.ticket_layout``), each journalled with ``ticket_printed``, and the buvette's
  receipts and Z totals (``drivers.buvette_layout``). While the printer is away it
  retries with backoff; the hall never waits for it. Delivery is at-least-once: a job whose confirmation is lost
  prints again with the same code, and the desk redeems a code only once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from drivers.buvette_layout import render_buvette, render_z
from drivers.ticket_layout import render_ticket
from drivers.tombola_list import render_tombola_list
from drivers.tombola_ticket import render_tombola_sale, sale_views
from drivers.voucher_layout import escpos_printer, render_test_ticket, render_voucher, voucher_view
from hall import ConfigError, utc_now
from hall.events import (
    BuvetteClosed,
    BuvetteSold,
    TicketRequested,
    TombolaListRequested,
    TombolaSold,
    VoucherIssued,
    VoucherReprintRequested,
)
from hall.ports import HallPort
from hall.requests import DeviceTestRequested

log = logging.getLogger("loto-hall.printer")


class PrinterAway(RuntimeError):
    """The printer cannot take the job now: a ``code`` and its ``params`` (``str()`` is for the logs); the speaker
    reads display/i18n.py's sentence for them, in the speaker's language."""

    def __init__(self, code: str = "printer_error", **params: object):
        self.code = code
        self.params = {k: str(v) for k, v in params.items()}
        super().__init__(" ".join([code, *(f"{k}={v}" for k, v in self.params.items())]))


WAKING = frozenset(
    {
        VoucherIssued.type,
        VoucherReprintRequested.type,
        TicketRequested.type,
        BuvetteSold.type,
        BuvetteClosed.type,
        TombolaSold.type,
        TombolaListRequested.type,
    }
)  # records that leave a job
PAPER_LOW = "printer_paper_low"  # the one warning (a status code): printing goes on


# ---- the device ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PrinterTarget:
    kind: str  # usb, serial, tcp, file
    where: str  # the device without words (``/dev/ttyUSB0``, ``10.0.0.5:9100``): any language's
    args: dict
    status: bool = True  # ask DLE EOT before and after each job
    timeout_s: float = 5.0

    @property
    def place(self) -> str:
        """The ``where`` parameter of the printer's status codes."""
        return self.where


def printer_target(url: str) -> PrinterTarget:
    """The printer named by ``[printer] url``; raises ``ConfigError`` naming the problem."""

    def bad(why: str) -> ConfigError:
        return ConfigError(
            [
                f"printer.url : {url!r} {why} (usb://VID:PID, serial:///dev/ttyUSB0?baudrate=19200, "
                "tcp://HOST:9100, file:///dev/usb/lp0)"
            ]
        )

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
            args = {
                "devfile": dev,
                "baudrate": int(query.pop("baudrate", 9600)),
                "timeout": timeout,
                "dsrdtr": query.pop("dsrdtr", "1") not in ("0", "false", "no"),
            }
            return PrinterTarget("serial", dev, args, status, timeout)
        if parts.scheme == "file":
            dev = parts.path or parts.netloc
            return PrinterTarget("file", dev, {"devfile": dev}, False, timeout)
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
        cls = getattr(escpos_printer(), _CLASSES[self.target.kind])
        args = dict(self.target.args)
        if "usb_args" in args:
            args["usb_args"] = {}  # python-escpos 3.1 shares a mutable default otherwise
        printer = cls(profile=self.profile, **args)
        try:
            printer.open()
        except Exception as exc:
            printer.close()
            raise PrinterAway("printer_unreachable", where=self.target.place) from exc
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
        """Raise ``PrinterAway`` when the printer says it cannot print; the warning's code, if any."""
        online = self._query(printer, 1)
        if not online:
            raise PrinterAway("printer_no_answer", where=self.target.place)
        if online[0] & 0x08:
            cause = self._query(printer, 2)
            if cause and cause[0] & 0x04:
                raise PrinterAway("printer_cover_open")
            if cause and cause[0] & 0x20:
                raise PrinterAway("printer_no_paper")
            raise PrinterAway("printer_offline")
        paper = self._query(printer, 4)
        if paper and paper[0] & 0x60:
            raise PrinterAway("printer_no_paper")
        if paper and paper[0] & 0x0C:
            return PAPER_LOW
        return None

    def probe(self) -> str | None:
        """Check the printer without printing: ``PrinterAway`` or a warning's code (``None``: all well)."""
        if not self.target.status:
            return None
        printer = self._open()
        try:
            return self._check(printer)
        finally:
            printer.close()

    def send(self, data: bytes) -> str | None:
        """Print one job; raises ``PrinterAway``; returns a warning's code (paper low) or ``None``."""
        printer = self._open()
        try:
            warning = self._check(printer) if self.target.status else None
            try:
                printer._raw(data)
                if self.target.kind == "file":
                    printer.flush()
            except Exception as exc:
                raise PrinterAway("printer_interrupted", where=self.target.place) from exc
            if self.target.status and not self._query(printer, 1):
                raise PrinterAway("printer_unconfirmed", where=self.target.place)
            return warning
        finally:
            try:
                printer.close()
            except Exception:
                pass


# ---- the queue -------------------------------------------------------------------------------------------------
class PrintQueue:
    """The print-queue worker: the journal says what is left to print; this prints it, in order, once."""

    name = "printer"

    def __init__(
        self,
        hall: HallPort,
        device: EscposDevice,
        *,
        retry_initial_s: float = 0.5,
        retry_max_s: float = 30.0,
        poll_s: float | None = 60.0,
    ):
        self.hall = hall
        self.device = device
        self.retry_initial_s = retry_initial_s
        self.retry_max_s = retry_max_s
        self.poll_s = poll_s
        self.printed = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._last_problem = ""
        self._test_wanted = threading.Event()

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
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
        """Called under the hall's lock: wake the worker, nothing more."""
        if record.type in WAKING:
            self._wake.set()

    def _on_notice(self, name: str, payload: object) -> None:
        """The admin asked for a test ticket: print it when no voucher waits."""
        if isinstance(payload, DeviceTestRequested) and payload.device == "printer":
            self._test_wanted.set()
            self._wake.set()

    def _status(self, status: str, code: str, **params: object) -> None:
        """The printer's state as a code and its parameters (display/i18n.py words it for each reader)."""
        try:
            self.hall.set_device_status("printer", status, code=code, params={k: str(v) for k, v in params.items()})
        except Exception:  # a subscriber's failure must not stop the printing
            log.exception("printer status not published")

    def _run(self) -> None:
        delay = self.retry_initial_s
        if self.poll_s is not None and not self.hall.vouchers_to_print():
            self._probe()  # the speaker sees the printer's state from the start
        while not self._stop.is_set():
            self._wake.clear()
            jobs = self.hall.vouchers_to_print()
            ticket = (
                (
                    self._print_ticket()
                    or self._print_buvette()
                    or self._print_z()
                    or self._print_tombola()
                    or self._print_tombola_list()
                )
                if not jobs
                else None
            )
            if ticket == "waiting":  # the printer is away: wait, as for a voucher
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry_max_s)
                continue
            if ticket == "printed":
                delay = self.retry_initial_s
                continue
            if not jobs:
                if self._test_wanted.is_set():
                    self._test_wanted.clear()
                    self._print_test()
                elif not self._wake.wait(self.poll_s) and not self._stop.is_set():
                    self._probe()
                continue
            job = jobs[0]
            issued, duplicate = job.issued, job.duplicate
            try:
                view = voucher_view(self.hall.config, job)
                warning = self.device.send(render_voucher(view, self.device.profile))
            except Exception as exc:  # PrinterAway, or a bug rendering this voucher: wait, retry, go on
                away = exc if isinstance(exc, PrinterAway) else PrinterAway("printer_error", error=exc)
                problem = str(away)
                if problem != self._last_problem:  # log once per problem, not once per retry
                    log.warning(
                        "voucher %s waits (%s): %s",
                        issued.code,
                        self.device.url,
                        problem,
                        exc_info=not isinstance(exc, PrinterAway),
                    )
                    self._last_problem = problem
                self._status("degraded", "printer_waiting", reason=away.code, count=len(jobs), **away.params)
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
            self._warned(warning, "printer_ready")

    def _print_ticket(self) -> str | None:
        """Print the oldest board's copy owed and journal it: ``printed``, ``waiting`` (the printer is away) or
        ``None`` (none owed)."""
        tickets = self.hall.tickets_to_print()
        if not tickets:
            return None
        job = tickets[0]
        return self._print_owed(
            lambda: render_ticket(self.hall.config.hall.name, job, self.hall.config.hall.timezone, self.device.profile),
            lambda: self.hall.ticket_printed(job.fingerprint.seq, role="device"),
            f"board's copy {job.fingerprint.seq}",
            len(tickets),
        )

    def _print_buvette(self) -> str | None:
        """Print the oldest buvette receipt (or tokens) owed and journal it, as a board's copy."""
        owed = self.hall.buvette_to_print()
        if not owed:
            return None
        sale, config = owed[0], self.hall.config
        return self._print_owed(
            lambda: render_buvette(config.hall.name, sale, utc_now(), config.hall.timezone, self.device.profile),
            lambda: self.hall.buvette_printed(sale.ticket, role="device"),
            f"buvette ticket {sale.ticket}",
            len(owed),
        )

    def _print_z(self) -> str | None:
        """Print the oldest buvette Z owed (each close prints its Z) and journal it (``buvette:z_printed``)."""
        owed = self.hall.buvette_z_to_print()
        if not owed:
            return None
        z, config = owed[0], self.hall.config
        return self._print_owed(
            lambda: render_z(config.hall.name, z, utc_now(), config.hall.timezone, self.device.profile),
            lambda: self.hall.buvette_z_printed(z.z, role="device"),
            f"buvette Z {z.z}",
            len(owed),
        )

    def _print_tombola(self) -> str | None:
        """Print the oldest tombola sale's tickets and stubs owed and journal it, as a buvette's receipt."""
        owed = self.hall.tombola_to_print()
        prepared = self.hall.tombola().prepared
        if not owed or prepared is None:
            return None
        sale, name = owed[0], self.hall.config.hall.name
        return self._print_owed(
            lambda: render_tombola_sale(
                sale_views(prepared, sale, [self.hall.tombola_code(n) for n in sale.numbers], name),
                self.device.profile,
            ),
            lambda: self.hall.tombola_printed(sale.sale_id, role="device"),
            f"tombola sale {sale.sale_id}",
            len(owed),
        )

    def _print_tombola_list(self) -> str | None:
        """Print the tombola's winners' list when it is owed and journal it."""
        if not self.hall.tombola_list_owed():
            return None
        t = self.hall.tombola()
        if t.prepared is None:
            return None
        prepared, who = t.prepared, ((t.president, *t.witnesses) if t.president else ())
        wins = {w.lot_index: w.ticket for w in t.wins}
        return self._print_owed(
            lambda: render_tombola_list(self.hall.config.hall.name, prepared, who, wins, self.device.profile),
            lambda: self.hall.tombola_list_printed(role="device"),
            "tombola winners' list",
            1,
        )

    def _print_owed(self, render: Callable[[], bytes], done: Callable[[], object], what: str, count: int) -> str:
        """Send one owed job and journal it: ``printed``, or ``waiting`` while the printer is away (it stays owed)."""
        try:
            warning = self.device.send(render())
        except Exception as exc:  # PrinterAway, or a bug rendering it: wait, retry
            away = exc if isinstance(exc, PrinterAway) else PrinterAway("printer_error", error=exc)
            if str(away) != self._last_problem:
                log.warning("%s waits (%s): %s", what, self.device.url, away, exc_info=not isinstance(exc, PrinterAway))
                self._last_problem = str(away)
            self._status("degraded", "printer_waiting", reason=away.code, count=count, **away.params)
            return "waiting"
        try:
            done()
        except Exception:
            log.exception("%s printed but not journalled: it will print again", what)
        self._last_problem = ""
        self._warned(warning, "printer_ready")
        return "printed"

    def _warned(self, warning: str | None, ready: str) -> None:
        if warning:
            self._status("degraded", warning)
        else:
            self._status("ok", ready)

    def _print_test(self) -> None:
        try:
            warning = self.device.send(render_test_ticket(self.hall.config.hall.name, utc_now(), self.device.profile))
        except PrinterAway as exc:
            self._status("degraded", "printer_test_failed", reason=exc.code, **exc.params)
            return
        self._warned(warning, "printer_test_printed")

    def _probe(self) -> None:
        try:
            warning = self.device.probe()
        except PrinterAway as exc:
            self._status("degraded", exc.code, **exc.params)
            return
        self._warned(warning, "printer_ready")


def start_printing(
    hall: HallPort,
    config,
    demo: bool = False,
    data_dir: Path | None = None,
    *,
    retry_initial_s: float = 0.5,
    retry_max_s: float = 30.0,
    poll_s: float | None = 60.0,
) -> list:
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
        hall.set_device_status("printer", "unconfigured", code="printer_unconfigured")
        return services
    device = EscposDevice(url, profile)
    services.append(PrintQueue(hall, device, retry_initial_s=retry_initial_s, retry_max_s=retry_max_s, poll_s=poll_s))
    return services
