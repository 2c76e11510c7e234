"""A tombola ticket in ESC/POS bytes (RULES L24): the ticket the buyer keeps — the association, the draw's date and
place, the price, the number, the signed code and its QR (checked at the prize desk, as a voucher's) — then, after a
cut, the stub the association keeps with the buyer's name (never « au porteur »).

Pure rendering on python-escpos's ``Dummy`` printer, as ``drivers/voucher_layout.py``; sending is the printer's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from drivers.escpos_text import printable, wrap
from drivers.ticket_layout import euros
from drivers.voucher_layout import columns, escpos_printer
from hall.events import TombolaPrepared, TombolaSold


@dataclass(frozen=True, slots=True)
class TombolaTicketView:
    """Everything printed on one ticket and its stub."""

    association: str
    authority: str  # « arrêté n° 2026-117 du 02/11/2026 »
    draw_at: str  # local date and time of the draw
    place: str
    price: str  # « 2 € »
    number: int
    code: str  # hall.tombola.codes.ticket_code
    buyer: str


def render_tombola_ticket(view: TombolaTicketView, profile: str = "TM-T20II") -> bytes:
    """The ticket then its stub as ESC/POS bytes for ``profile``: CP858 text, the code's QR, a cut after each."""
    p = escpos_printer().Dummy(profile=profile)
    cols = columns(p)

    def lines(text: str, width: int = cols) -> None:
        for line in wrap(printable(text), width):
            p.textln(line)

    p.hw("INIT")
    p.charcode("CP858")
    p.set_with_default(align="center", bold=True, double_height=True)
    lines(view.association)
    p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
    p.textln("TOMBOLA")
    p.set_with_default(align="center")
    lines(f"Tirage le {view.draw_at}" + (f", {view.place}" if view.place else ""))
    lines(f"Prix du billet : {view.price}")
    lines(view.authority)
    p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
    p.textln(printable(f"N° {view.number}"))
    p.set_with_default()
    p.qr(view.code, size=6, native=False, center=True)
    p.set_with_default(align="center", bold=True)
    p.textln(printable(view.code))
    p.set_with_default(align="center")
    lines("Le lot se retire contre ce billet : le code est vérifié.")
    p.cut()
    p.set_with_default(align="center", bold=True)
    p.textln("SOUCHE - TOMBOLA")
    p.set_with_default(bold=True, double_height=True)
    p.textln(printable(f"N° {view.number}"))
    p.set_with_default()
    lines(f"Acheteur : {view.buyer}")
    lines(f"Code : {view.code}")
    p.cut()
    return p.output


def _french_date(iso: str) -> str:
    """``2026-12-08`` → ``08/12/2026``; ``2026-12-08T21:30`` → ``08/12/2026 à 21h30`` (the draw's local time)."""
    day, _, time = iso.replace(" ", "T").partition("T")
    y, m, d = day.split("-")
    return f"{d}/{m}/{y}" + (f" à {time[:2]}h{time[3:5]}" if time else "")


def sale_views(
    prepared: TombolaPrepared, sale: TombolaSold, codes: Sequence[str], hall_name: str
) -> list[TombolaTicketView]:
    """The ticket and stub of each number of ``sale`` (``codes`` their signed codes, in the same order)."""
    currency = "CHF" if prepared.country == "CH" else "€"
    price = euros(prepared.price_cents).replace("€", currency)
    authority = f"Autorisation n° {prepared.authority_number} du {_french_date(prepared.authority_date)}"
    if prepared.country == "FR":
        authority = f"Arrêté n° {prepared.authority_number} du {_french_date(prepared.authority_date)}"
    return [
        TombolaTicketView(
            prepared.association or hall_name,
            authority,
            _french_date(prepared.draw_at),
            prepared.place,
            price,
            number,
            code,
            sale.buyer,
        )
        for number, code in zip(sale.numbers, codes, strict=True)
    ]


def render_tombola_sale(views: Sequence[TombolaTicketView], profile: str = "TM-T20II") -> bytes:
    """One print job for a whole sale: each ticket then its stub, cut apart."""
    return b"".join(render_tombola_ticket(v, profile) for v in views)
