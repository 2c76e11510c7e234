"""The board's copy as ESC/POS bytes (docs/record.md): the hall, the date, the takings by means of payment, the cartons
sold, the lots won with their value, every partie's balls, the evening's accounts side by side (the cartons', the
tombola's, the buvette's: takings by payment, costs, balance, and the evening's total), and the journal's fingerprint with the time it was taken,
then lines for the president's and the treasurer's signatures. A later ``loto-hall verify --fingerprint`` against
the signed paper proves that the journal then is the journal now.

Pure rendering on python-escpos's ``Dummy`` printer, as the voucher's (``drivers.voucher_layout``); CP858 text.
"""

from __future__ import annotations

from collections.abc import Callable

from drivers.escpos_text import printable, wrap
from drivers.voucher_layout import columns, escpos_printer, local_time
from hall.events import TicketAccount
from hall.snapshots import TicketJob

PAYMENT_WORDS = {"especes": "Espèces", "carte": "Carte bancaire", "cheque": "Chèques"}
ACCOUNT_WORDS = {"cartons": "Cartons", "tombola": "Tombola", "buvette": "Buvette"}


def euros(cents: int) -> str:
    """``1 234,50 €`` from cents."""
    whole, rest = divmod(abs(int(cents)), 100)
    return ("-" if cents < 0 else "") + f"{whole:,}".replace(",", " ") + f",{rest:02d} €"


def _accounts(p, pair: Callable[[str, str], None], accounts: tuple[TicketAccount, ...]) -> None:
    """The evening's accounts side by side: each one's takings by means of payment, its costs and its
    balance, then the evening's total, as the treasurer's report gives them."""
    p.set_with_default(align="center", bold=True)
    p.textln(printable("COMPTES DE LA SOIRÉE"))
    for a in accounts:
        p.set_with_default(bold=True)
        p.textln(printable(ACCOUNT_WORDS.get(a.rubrique, a.rubrique)))
        p.set_with_default()
        for key, cents in a.takings:
            pair("  " + PAYMENT_WORDS.get(key, key), euros(cents))
        pair("  Recette", euros(a.takings_cents))
        pair("  Frais", euros(a.costs_cents))
        pair("  Solde", euros(a.balance_cents))
    p.set_with_default(bold=True)
    p.textln(printable("Total de la soirée"))
    p.set_with_default()
    pair("  Recette", euros(sum(a.takings_cents for a in accounts)))
    pair("  Frais", euros(sum(a.costs_cents for a in accounts)))
    p.set_with_default(bold=True)
    pair("  Solde", euros(sum(a.balance_cents for a in accounts)))
    p.set_with_default()


def render_ticket(hall_name: str, job: TicketJob, timezone: str = "Europe/Paris", profile: str = "TM-T20II") -> bytes:
    """The board's copy of ``job`` as ESC/POS bytes for ``profile``."""
    p = escpos_printer().Dummy(profile=profile)
    cols = columns(p)
    rule = "-" * cols
    e, fp = job.request, job.fingerprint
    taken = local_time(fp.at, timezone)  # "21/11/2026 à 22:41"

    def pair(label: str, value: str) -> None:
        label, value = printable(label), printable(value)
        p.textln(label + " " * max(1, cols - len(label) - len(value)) + value)

    p.hw("INIT")
    p.charcode("CP858")
    p.set_with_default(align="center", bold=True, double_width=True, double_height=True)
    for line in wrap(printable(hall_name), cols // 2):
        p.textln(line)
    p.set_with_default(align="center", bold=True, double_height=True)
    p.textln("COPIE DU BUREAU")
    p.set_with_default(align="center")
    when = " (clôture de la soirée)" if e.closing else (f" (fin de la partie n° {e.partie})" if e.auto else "")
    for line in wrap(printable("Relevé de la soirée" + when), cols):
        p.textln(line)
    p.textln(printable(f"Le {taken.split(' à ')[0]}"))
    if e.rooms:  # the salle annexe (RULES L23): one event, one draw, the rooms named
        p.textln(printable(f"1 événement, {len(e.rooms) + 1} salles, même tirage"))
        for line in wrap(printable("Salles annexes : " + ", ".join(e.rooms)), cols):
            p.textln(line)
    p.set_with_default()
    p.textln(rule)
    parties = e.played or (((e.partie, e.balls),) if e.partie else ())  # an older ticket: the latest only
    for number, balls in parties:
        pair(f"Partie n° {number}", f"{balls} boule(s)")
    if not parties:
        pair("Aucune partie jouée", "")
    pair("Cartons vendus", str(e.cards_sold))
    if not e.accounts:  # a ticket journalled before the accounts were kept: the cartons' takings only
        p.set_with_default(bold=True)
        pair("Recette", euros(e.receipts_cents))
        p.set_with_default()
        for key, cents in e.by_payment:
            pair("  " + PAYMENT_WORDS.get(key, key), euros(cents))
    pair("Lots gagnés", f"{e.lots_given} ({euros(e.lots_given_cents)})")
    p.textln(rule)
    if e.accounts:
        _accounts(p, pair, e.accounts)
        p.textln(rule)
    p.set_with_default(align="center", bold=True)
    p.textln("EMPREINTE DU JOURNAL")
    p.set_with_default(align="center", bold=True, double_height=True)
    p.textln(fp.shown)
    p.set_with_default(align="center")
    p.textln(printable(f"prise le {taken}"))
    p.textln(printable(f"enregistrement n° {fp.seq}"))
    for line in wrap(printable("À vérifier plus tard : loto-hall verify --fingerprint « empreinte »"), cols):
        p.textln(line)
    p.set_with_default()
    p.textln(rule)
    for who in ("Le président", "Le trésorier"):
        p.textln(printable(f"{who} (nom, signature) :"))
        p.ln(3)
        p.textln("_" * (cols * 2 // 3))
    p.cut()
    return p.output
