"""A tombola ticket's bytes (RULES L24): the association, the draw's date, the price, the number, the signed code
with its QR, a cut, then the stub with the buyer's name and a cut."""

from __future__ import annotations

from drivers.tombola_ticket import TombolaTicketView, render_tombola_ticket
from hall.tombola.codes import check_ticket_code, ticket_code

SECRET = b"k" * 32


def test_the_ticket_and_its_stub():
    code = ticket_code(SECRET, "2026-117", 42)
    view = TombolaTicketView(
        "Comité des fêtes de Saint-Pierre",
        "arrêté n° 2026-117 du 02/11/2026",
        "07/12/2026 à 21:30",
        "Salle des fêtes",
        "2 €",
        42,
        code,
        "Mme Éloïse Roux",
    )
    out = render_tombola_ticket(view)
    ticket, stub = out.split(b"\x1dV", 1)[0], out.split(b"\x1dV", 1)[1]
    for said in ("Comité des fêtes de Saint-Pierre", "TOMBOLA", "07/12/2026 à 21:30", "2 €", "N° 42", code):
        assert said.encode("cp858") in ticket, said
    assert b"Roux" not in ticket  # the buyer's name is on the stub, the association's
    assert "Acheteur : Mme Éloïse Roux".encode("cp858") in stub and code.encode() in stub
    assert out.count(b"\x1dV") == 2 and b"\x1dv0" in ticket  # two cuts; the QR as a raster image
    assert check_ticket_code(SECRET, "2026-117", code) == 42
