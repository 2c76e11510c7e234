"""The tombola's règlement as a PDF (RULES L24), generated from what /admin prepared: who organises it and under
which authorisation, the tickets and their price, the lots in kind, the public draw, the deadline to collect the lots
and what becomes of unclaimed ones, the 15 % of costs. French, as the mairie reads it."""

from __future__ import annotations

from typing import BinaryIO
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from hall.app.paper.typeface import BOLD, FONT
from hall.events import TombolaPrepared
from hall.tombola.rules import CURRENCY, cost_check

BODY = ParagraphStyle("body", fontName=FONT, fontSize=10.5, leading=14)
TITLE = ParagraphStyle("title", fontName=BOLD, fontSize=16, leading=20, spaceAfter=8)
HEAD = ParagraphStyle("head", fontName=BOLD, fontSize=11.5, leading=15, spaceBefore=8)
AUTHORITY = {
    "FR": "autorisée par arrêté du maire n° {number} du {date} (article L322-3 du code de la sécurité intérieure)",
    "CH": "annoncée à la Préfecture (réf. {number}) le {date}",
    "BE": "autorisée par la commune (réf. {number}) le {date}",
}
UNCLAIMED = "restent acquis à l'association, qui les remet en jeu lors d'une prochaine tombola"


def amount(cents: int, currency: str) -> str:
    whole, rest = divmod(cents, 100)
    return f"{whole:,}".replace(",", "\u202f") + f",{rest:02d}\u00a0" + ("CHF" if currency == "CHF" else "€")


def articles(p: TombolaPrepared) -> list[tuple[str, str]]:
    """The règlement's articles: (title, text), French."""
    cur = CURRENCY[p.country]
    lots = "; ".join(
        f"n° {i} : {lot.label} ({amount(lot.value_cents, cur)}{', offert' if lot.donated else ''})"
        for i, lot in enumerate(p.tombola_lots, 1)
    )
    carnets = f", vendus à l'unité ou par carnets de {p.carnet}" if p.carnet > 1 else ""
    check = cost_check(p)
    percent = str(check.percent).replace(".", ",")
    return [
        ("Article 1 — Organisation", f"{p.association or 'L’association'} organise une tombola "
         + AUTHORITY[p.country].format(number=p.authority_number, date=p.authority_date) + "."),
        ("Article 2 — Billets", f"{p.tickets} billets numérotés de 1 à {p.tickets} sont émis au prix de "
         f"{amount(p.price_cents, cur)} le billet{carnets}. Le nom de l'acheteur est inscrit sur la souche de chaque "
         "billet : aucun billet n'est « au porteur »."),
        ("Article 3 — Lots", f"Les lots sont exclusivement en nature, aucun lot n'est en argent : {lots}."),
        ("Article 4 — Tirage", f"Le tirage est public, le {p.draw_at.replace('T', ' à ')}"
         + (f", {p.place}" if p.place else "") + ". Il est conduit par le président de l'association devant deux "
         "témoins nommés avant qu'il commence. Pour chaque lot, dans l'ordre de l'article 3, un billet est tiré au "
         "sort parmi les billets vendus ; un billet ne gagne qu'une fois. Chaque tirage est noté au journal de la "
         "soirée."),
        ("Article 5 — Retrait des lots", f"Les lots sont remis contre le billet gagnant jusqu'au {p.collect_until}. "
         f"Passé ce délai, les lots non réclamés {p.unclaimed or UNCLAIMED}."),
        ("Article 6 — Frais", f"Les frais d'organisation, lots achetés compris, s'élèvent à "
         f"{amount(check.spent_cents, cur)}, soit {percent}\u00a0% de la valeur des billets émis "
         f"({amount(check.issued_cents, cur)}) ; la loi les limite à 15 %."),
    ]  # fmt: skip


def write_reglement_pdf(p: TombolaPrepared, target: BinaryIO) -> None:
    """Write the règlement of tombola ``p`` as a PDF to ``target``."""
    doc = SimpleDocTemplate(target, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, title="Règlement")
    story: list = [Paragraph("Règlement de la tombola", TITLE)]
    for title, text in articles(p):
        story += [Paragraph(escape(title), HEAD), Paragraph(escape(text), BODY), Spacer(1, 2 * mm)]
    doc.build(story)
