"""The tombola's winners' list in ESC/POS bytes (RULES L24): the association, the draw's date and place, who
conducted it, each lot in the programme's order with its winning ticket's number (never the buyer's name: the list
is posted), the deadline to collect and what becomes of unclaimed lots, and lines for the three signatures.

Pure rendering on python-escpos's ``Dummy`` printer, as ``drivers/tombola_ticket.py``; sending is the printer's."""

from __future__ import annotations

from collections.abc import Mapping

from drivers.escpos_text import printable, wrap
from drivers.tombola_ticket import _french_date
from drivers.voucher_layout import columns, escpos_printer
from hall.events import TombolaPrepared


def render_tombola_list(
    hall_name: str,
    p: TombolaPrepared,
    conductors: tuple[str, ...],
    wins: Mapping[int, int],
    profile: str = "TM-T20II",
) -> bytes:
    """The winners' list of the tombola ``p`` as ESC/POS bytes for ``profile``: ``conductors`` the president then
    the two witnesses (empty before the draw), ``wins`` each drawn lot's index → its winning ticket."""
    printer = escpos_printer().Dummy(profile=profile)
    cols = columns(printer)

    def lines(text: str) -> None:
        for line in wrap(printable(text), cols):
            printer.textln(line)

    printer.hw("INIT")
    printer.charcode("CP858")
    printer.set_with_default(align="center", bold=True, double_height=True)
    lines(p.association or hall_name)
    printer.set_with_default(align="center", bold=True)
    printer.textln("TOMBOLA - LISTE DES GAGNANTS")
    printer.set_with_default(align="center")
    lines(f"Tirage du {_french_date(p.draw_at)}" + (f", {p.place}" if p.place else ""))
    if len(conductors) == 3:
        lines(f"Conduit par {conductors[0]}, devant {conductors[1]} et {conductors[2]}")
    printer.set_with_default()
    printer.textln("-" * cols)
    for index, lot in enumerate(p.tombola_lots):
        ticket = wins.get(index)
        lines(f"{index + 1}. {lot.label} : " + (f"billet n° {ticket}" if ticket else "non tiré"))
    printer.textln("-" * cols)
    lines(f"Lots à retirer jusqu'au {_french_date(p.collect_until)}, contre le billet gagnant.")
    if p.unclaimed:
        lines(f"Lots non retirés : {p.unclaimed}.")
    printer.textln("")
    for who in ("Le président", "Témoin", "Témoin"):
        printer.textln(printable(who + " :"))
        printer.textln("")
        printer.textln("_" * min(cols, 32))
    printer.cut()
    return printer.output
