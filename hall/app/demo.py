"""``serve --demo``: a hall with demo cartons so a newcomer sees the projector move within a minute."""

from __future__ import annotations

from pathlib import Path

from hall.app.runtime import Runtime
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.errors import HallError

DEMO_CARDS = 600
# The demo's PINs (``serve --demo`` without ``--config``; README): 6 digits like every PIN, said once here.
DEMO_PINS = {
    "speaker_pin": "111111",
    "controller_pin": "222222",
    "desk_pin": "333333",
    "admin_pin": "999999",
    "buvette_pin": "444444",
}


def prepare_demo(runtime: Runtime) -> None:
    """Give an empty data folder 600 demo cartons (series D). Partie 1 waits for the speaker (« Démarrer la
    partie »), so that it can still be programmed on /admin."""
    hall = runtime.hall
    if hall.card_count()[0] == 0:
        hall.adopt_cards(CardBook(dict(demo_cards(runtime.config.cards.columns))), role="system")


def demo_cards(columns: str) -> list:
    """The demo's cartons: the same 600 everywhere (series D), so anyone can print and play them."""
    return generate_cards(DEMO_CARDS, seed="demo", series="D", columns=columns)


def is_demo_folder(data_dir: Path, columns: str) -> bool:
    """Whether ``data_dir``'s card book is the demo's and only the demo's: an evening played there is a
    demonstration (``evening new`` never archives it: it would count as a loto of the year)."""
    try:
        book = CardBook.load(data_dir, columns)
    except (HallError, ValueError, OSError):
        return False
    return len(book) == DEMO_CARDS and all(book.get(cid) == card for cid, card in demo_cards(columns))
