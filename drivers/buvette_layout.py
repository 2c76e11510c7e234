"""The buvette's paper as ESC/POS bytes (RULES L25): a receipt (the ticket's number, its lines, the total, the
payment, the change), drink tokens (one cut slip per unit, each naming the product and the ticket), and the Z total
printed at the close (its tickets, the sums by payment and by product, the stock counted against the stock
expected). Pure rendering on python-escpos's ``Dummy`` printer, as the voucher's; CP858 text."""

from __future__ import annotations

from drivers.escpos_text import printable
from drivers.ticket_layout import euros
from drivers.voucher_layout import _headed, columns, local_time
from hall.events import BuvetteClosed, BuvetteSold

PAYMENT_WORDS = {"cash": "Espèces", "card": "Carte bancaire", "free": "Offert (bénévole)"}
MAX_TOKENS = 60  # a ticket's units are bounded (20 lines × 50): a runaway roll is not


NOT_CERTIFIED = "Relevé hors TVA — pas une caisse certifiée"


def _pairs(p, cols: int):
    """A line writer for ``p``: the label on the left, the value on the right (the label cut to fit)."""

    def pair(label: str, value: str) -> None:
        label, value = printable(label), printable(value)
        p.textln(label[: cols - len(value) - 1] + " " * max(1, cols - len(label) - len(value)) + value)

    return pair


def render_buvette(hall_name: str, sale: BuvetteSold, at: str, timezone: str, profile: str = "TM-T20II") -> bytes:
    """The receipt of ``sale``, or its drink tokens when it asked for them."""
    if sale.printed_as == "tokens":
        return _tokens(hall_name, sale, profile)
    p = _headed(hall_name, profile)
    cols = columns(p)
    pair = _pairs(p, cols)

    p.set_with_default(align="center", bold=True)
    p.textln(printable(f"BUVETTE — ticket n° {sale.ticket}"))
    p.set_with_default(align="center")
    p.textln(printable(local_time(at, timezone)))
    p.set_with_default()
    p.textln("-" * cols)
    for line in sale.items:
        pair(f"{line.qty} x {line.product}", euros(line.qty * line.cents))
    p.set_with_default(bold=True, double_height=True)
    pair("TOTAL", euros(sale.total_cents))
    p.set_with_default()
    pair(PAYMENT_WORDS.get(sale.payment, sale.payment), "")
    if sale.tendered_cents is not None:
        pair("Donné", euros(sale.tendered_cents))
        pair("Rendu", euros(sale.change_cents))
    p.textln("-" * cols)
    p.set_with_default(align="center")
    p.textln(printable(NOT_CERTIFIED))
    p.cut()
    return p.output


def render_z(hall_name: str, z: BuvetteClosed, at: str, timezone: str, profile: str = "TM-T20II") -> bytes:
    """The Z total ``z`` as printed at the close: its tickets, the takings by payment (what was given free
    apart), the units and euros by product, and each product's stock expected, counted and the gap."""
    p = _headed(hall_name, profile)
    cols = columns(p)
    pair = _pairs(p, cols)
    p.set_with_default(align="center", bold=True, double_height=True)
    p.textln(printable(f"BUVETTE — Z n° {z.z}"))
    p.set_with_default(align="center")
    p.textln(printable(f"tickets n° {z.first_ticket} à {z.last_ticket}" if z.first_ticket else "aucun ticket"))
    p.textln(printable(f"imprimé le {local_time(at, timezone)}"))
    p.set_with_default()
    p.textln("-" * cols)
    paid = dict(z.by_payment)
    for payment in ("cash", "card"):
        pair(PAYMENT_WORDS[payment], euros(paid.get(payment, 0)))
    p.set_with_default(bold=True, double_height=True)
    pair("RECETTE", euros(paid.get("cash", 0) + paid.get("card", 0)))
    p.set_with_default()
    pair(PAYMENT_WORDS["free"], euros(paid.get("free", 0)))
    if z.by_product:
        p.textln("-" * cols)
        for name, units, cents in z.by_product:
            pair(f"{units} x {name}", euros(cents))
    counted = [(name, expected, units) for name, expected, units in z.counted if units is not None]
    if counted:
        p.textln("-" * cols)
        p.set_with_default(bold=True)
        p.textln(printable("Stock : attendu / compté / écart"))
        p.set_with_default()
        for name, expected, units in counted:
            pair(name, f"{expected} / {units} / {units - expected:+d}")
    p.textln("-" * cols)
    p.set_with_default(align="center")
    p.textln(printable(NOT_CERTIFIED))
    p.cut()
    return p.output


def _tokens(hall_name: str, sale: BuvetteSold, profile: str) -> bytes:
    """One slip per unit sold, cut apart: « 1 Bière », the ticket's number."""
    p = _headed(hall_name, profile)
    units = [line.product for line in sale.items for _ in range(line.qty)][:MAX_TOKENS]
    for n, product in enumerate(units, 1):
        p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
        p.textln(printable(f"1 {product}"))
        p.set_with_default(align="center")
        p.textln(printable(f"Buvette — ticket n° {sale.ticket} ({n}/{len(units)})"))
        p.cut(mode="PART")
    return p.output
