"""What a voucher says and how it looks in ESC/POS bytes (INTERFACE §6): CP858 text, the code's QR, a cut.

Pure rendering on python-escpos's ``Dummy`` printer; sending the bytes is ``drivers.printer``'s job.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from drivers.escpos_text import printable, wrap
from hall import KIND_LABELS, display_card_id
from hall.config import Config
from hall.snapshots import PrintJob


@functools.cache
def escpos_printer():
    """``escpos.printer``, imported at the first ticket rendered or sent, not at the hall's start (its capabilities
    database alone costs a Pi 4 a good part of a second: a restart is ready to draw sooner without it). Imported
    without the ``logging.basicConfig()`` its 3.1 release runs at import (python-escpos issue #559)."""
    root = logging.getLogger()
    before = list(root.handlers)
    import escpos.printer as printer_module

    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
    return printer_module


# ---- what a voucher says -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class VoucherView:
    """Everything printed on one voucher (INTERFACE §6)."""

    hall_name: str
    code: str
    serial: int
    partie: int
    lot_kind: str
    lot_label: str  # the lot played (for a consolation, the lot that was lost on the tie-break)
    card_id: str
    consolation: bool = False
    prize: str = ""  # what is handed over: the consolation's label, else the lot's
    shared: bool = False
    value_eur: float | None = None
    issued_at: str = ""  # local date and time, "14/11/2026 à 21:34"
    duplicate: bool = False
    printed_at: str = ""


def local_time(iso_utc: str, timezone: str = "Europe/Paris") -> str:
    """``"14/11/2026 à 21:34"`` from a journal time (ISO 8601 UTC); the raw text if it cannot be read."""
    try:
        when = dt.datetime.fromisoformat(iso_utc).astimezone(ZoneInfo(timezone))
    except (ValueError, KeyError, OSError):
        return iso_utc
    return when.strftime("%d/%m/%Y à %H:%M")


def voucher_view(config: Config, job: PrintJob) -> VoucherView:
    """The view of a voucher the hall asked to print (``Hall.vouchers_to_print``), with its lot as it stands."""
    issued, duplicate, issued_at_utc = job.issued, job.duplicate, job.issued_at
    lot_label, value = job.lot_label, job.lot_value_eur
    tz = config.hall.timezone
    now = dt.datetime.now(dt.UTC).isoformat()
    return VoucherView(
        config.hall.name,
        issued.code,
        issued.serial,
        issued.partie,
        issued.lot_kind,
        lot_label,
        issued.card_id,
        issued.consolation,
        issued.lot_label,
        issued.shared,
        None if issued.consolation else value,
        local_time(issued_at_utc, tz) if issued_at_utc else "",
        duplicate,
        local_time(now, tz) if duplicate else "",
    )


def _euros(value: float) -> str:
    text = f"{value:,.2f}".replace(",", " ").replace(".", ",")
    return (text[:-3] if text.endswith(",00") else text) + " €"


def columns(p) -> int:
    """The characters a line of font A holds on ``p``'s profile (42 when the profile does not say)."""
    try:
        return int(p.profile.get_columns("a"))
    except Exception:
        return 42


def render_voucher(view: VoucherView, profile: str = "TM-T20II") -> bytes:
    """The voucher as ESC/POS bytes for ``profile``: CP858 text, the code's QR as a raster image, a cut."""
    p = escpos_printer().Dummy(profile=profile)
    cols = columns(p)
    rule = "-" * cols

    def lines(text: str, width: int = cols, indent: str = "") -> None:
        for line in wrap(printable(text), width, indent):
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
    if view.consolation:  # never let the desk read the main lot as the prize of a consolation voucher
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
    p.textln(printable(f"Carton : {display_card_id(view.card_id)}"))  # the check character set apart
    p.set_with_default()
    if view.issued_at:
        p.textln(printable(f"Gagné le {view.issued_at}"))
    p.textln(rule)
    p.qr(view.code, size=8, native=False, center=True)
    p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
    p.textln(printable(view.code))
    p.set_with_default(align="center")
    lines("À présenter à la table des lots.")
    lines("Un seul lot par bon : le code est vérifié.")
    if view.duplicate:
        lines(f"Duplicata imprimé le {view.printed_at}" if view.printed_at else "Duplicata")
    p.set_with_default()
    p.cut()
    return p.output


def _headed(hall_name: str, profile: str):
    """A ticket begun with the hall's name, large and centred (the printer reset, CP858 selected)."""
    p = escpos_printer().Dummy(profile=profile)
    p.hw("INIT")
    p.charcode("CP858")
    p.set_with_default(align="center", bold=True, double_height=True)
    for line in wrap(printable(hall_name), columns(p)):
        p.textln(line)
    return p


def render_test_ticket(hall_name: str, at: str, profile: str = "TM-T20II") -> bytes:
    """A short test ticket (the admin's « tester l'imprimante »): accents, €, and a cut."""
    p = _headed(hall_name, profile)
    p.set_with_default(align="center")
    p.textln("TEST IMPRIMANTE - loto-hall")
    p.textln(printable(f"Éé àç ù € — {at}"))
    p.cut()
    return p.output


def render_code_sheet(hall_name: str, pins: list[tuple[str, str]], at: str, profile: str = "TM-T20II") -> bytes:
    """« La fiche des codes »: each committee role's PIN, printed once at the first start (``pins``: (the role
    as the committee reads it, its PIN)), to keep out of sight."""
    p = _headed(hall_name, profile)
    p.textln("FICHE DES CODES")
    p.set_with_default()
    for role, pin in pins:
        p.textln(printable(role))
        p.set_with_default(bold=True, double_width=True, double_height=True)
        p.textln(pin)
        p.set_with_default()
    for line in wrap(printable(f"Imprimée le {at}. À garder hors de vue : chaque code ouvre une console."), columns(p)):
        p.textln(line)
    p.cut()
    return p.output
