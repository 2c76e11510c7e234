"""What the treasurer's papers are made of: sections of typed rows (``hall/money/papers.py`` builds them once from
the report), each column named once with its heading, each cell saying what it is — an amount, a journal time, a
code said in the reader's language, an ID that stays text — so a writer (the workbook, the PDF, the CSV) only
decides how an amount, a time or a word looks on its paper. Pure, stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

from hall.marks import N_


class Text(str):
    """Text that must stay text (a carton ID, a code, a name): never read as a number, a date or a formula."""


class State(str):
    """A state, a verdict, a means of payment or a flag, by its code: said with ``STATES`` (an unknown code as is)."""


class Kind(str):
    """A lot's kind by its code (``quine``): said by its name (``hall.loto.lots.KIND_LABELS``)."""


class Said(str):
    """A French sentence of the catalogue (a summary's label, « toute la soirée »): said in the reader's language."""


class States(tuple[str, ...]):
    """Several states in one cell (a lot's flags), said each and joined by `` ; ``."""


@dataclass(frozen=True, slots=True)
class Money:
    """An amount in cents: a number in euros on every paper (a workbook adds them)."""

    cents: int


@dataclass(frozen=True, slots=True)
class At:
    """A journal time (ISO 8601, UTC): the hall's local time on paper, empty when there is none."""

    iso: str


Cell = str | int | float | bool | Money | At | None
"""What one cell of a section may hold (``str`` includes ``Text``, ``State``, ``Kind``, ``Said``; a tuple ``States``)."""


def money(cents: int | None) -> Money | None:
    """Cents as an amount cell; ``None`` (not declared) stays an empty cell."""
    return None if cents is None else Money(cents)


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a section: its key (the CSV's column of the same name, when there is one) and its heading."""

    key: str
    heading: str  # French, in the catalogue


@dataclass(frozen=True, slots=True)
class Section:
    """One rubric of the papers: a sheet of the workbook, a table of the PDF, the CSV's rows of ``key``."""

    key: str
    heading: str  # French, in the catalogue
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell | States, ...], ...]


# A refused claim's verdict, by its code (hall.loto.claims).
VERDICTS = {
    "incomplete": N_("fausse réclamation"),
    "missed": N_("boule laissée passer"),
    "unknown_card": N_("carton inconnu"),
    "unsold_card": N_("carton non vendu"),
    "cancelled_card": N_("carton annulé"),
    "closed": N_("aucun lot ouvert"),
}
# The codes' words, once for every paper that says them in the catalogue's language (the workbook, the PDF's tables).
STATES = {
    "paid": N_("payée"),
    "reserved": N_("réservée, non payée"),
    "voided": N_("annulée"),
    "playing": N_("en cours"),
    "checking": N_("vérification"),
    "finished": N_("tous les lots gagnés"),
    "cleared": N_("démarquée"),
    "single": N_("seul gagnant"),
    "tie_break": N_("départage"),
    "shared": N_("partagé"),
    "kept": N_("non gagné : gardé pour un autre loto"),
    "to_play": N_("à jouer"),
    "especes": N_("Espèces"),
    "carte": N_("Carte bancaire"),
    "cheque": N_("Chèque"),
    **VERDICTS,
    "replaced": N_("remplacé"),
    "added": N_("ajouté"),
    "dropped": N_("retiré"),
    "cash": N_("Lot en argent : interdit dans un loto traditionnel (art. L322-4 du code de la sécurité intérieure)"),
    "over_limit": N_("Au-dessus du plafond que la salle s'est fixé"),
    # the salle annexe's facts (RULES L23; hall/money/papers_rooms.py)
    "room_claim": N_("quine en salle annexe"),
    "room_lost": N_("liaison perdue : le tirage a attendu"),
    "room_go_on": N_("continué sans la salle annexe"),
    "room_back": N_("liaison rétablie"),
    "went_on": N_("après avoir continué sans elle"),
}

# The columns several sections share: one heading each.
PARTIE = Column("partie", N_("Partie"))
LOT = Column("lot", N_("Lot"))
KIND = Column("kind", N_("Type"))
LABEL = Column("label", N_("Libellé"))
CARDS = Column("card_id", N_("Cartons"))
CARD = Column("card_id", N_("Carton"))
COUNT = Column("count", N_("Nombre"))
AT = Column("at", N_("Heure"))
ROLE = Column("role", N_("Rôle"))
SESSION = Column("session", N_("Session"))
NUMBERED = Column("order", N_("N°"))  # a sale's number, a voucher's serial
SELLER = Column("seller", N_("Vendeur"))
OFFERED = Column("offered", N_("Tarif"))
TAKEN = Column("amount", N_("Encaissé"))
DONOR = Column("donor", N_("Donateur"))
VALUE = Column("amount", N_("Valeur"))
CAME = Column("carried_from", N_("Reporté de la partie"))
FLAGS = Column("flags", N_("Signalement"))
NUMBER = Column("number", N_("Numéro"))
LAST = Column("number", N_("Dernière boule"))
RUBRIC = Column("label", N_("Rubrique"))
