"""``serve --demo``: a hall with demo cartons so a newcomer sees the projector move within a minute."""
from __future__ import annotations

from hall.app.runtime import Runtime
from hall.cardbook import CardBook
from hall.planches import generate_cards

DEMO_CARDS = 600
# The demo's PINs (``serve --demo`` without ``--config``; README): 6 digits like every PIN, said once here.
DEMO_PINS = {"speaker_pin": "111111", "controller_pin": "222222", "desk_pin": "333333", "admin_pin": "999999"}


def prepare_demo(runtime: Runtime) -> None:
    """Give an empty data folder 600 demo cartons (series D). Partie 1 waits for the speaker (« Démarrer la
    partie »), so that it can still be programmed on /admin."""
    hall = runtime.hall
    if hall.card_count()[0] == 0:
        cards = dict(generate_cards(DEMO_CARDS, seed="demo", series="D", columns=runtime.config.cards.columns))
        hall.adopt_cards(CardBook(cards), role="system")
