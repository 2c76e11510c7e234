"""The evening's settings at the hall's door: the programme from the next partie on, how much the players' phones
help, and the staff's PINs (journalled as salted hashes, never the PIN).

Its commands run under the writer's lock (``@locked``) and commit through it; the programme's and the PINs' rules
are ``hall/loto/programme.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from hall.config import HELP_LEVELS, MAX_PLAYER_CARDS
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import PlayersSet, ProgrammeEdited, ProgrammePartie, Record
from hall.loto import programme as programme_rules
from hall.refusal import Rejected
from hall.rights import require


class ProgrammeDesk:
    """The programme, the players' help and the PINs of one hall, as /admin changes them."""

    def __init__(self, writer: Writer, state: HallState):
        self._writer = writer
        self._state = state

    @locked
    def edit_programme(self, parties: Sequence[ProgrammePartie], *, role: str) -> Record:
        """Replace the programme from the next partie on (the running one keeps its lots)."""
        require(role, "edit_programme")
        if not parties:
            raise Rejected("bad_programme", where="programme", why="")
        return self._writer.commit(ProgrammeEdited(len(self._state.evening.parties) + 1, tuple(parties)), role)

    @locked
    def set_players(self, *, role: str, help: str, one_to_go: bool, phone_call: bool, max_cards: int) -> Record:
        """How much the players' phones help (« Mes cartons »), for every phone at once; journalled."""
        require(role, "edit_players")
        if help not in HELP_LEVELS:
            raise Rejected("bad_field", field="help")
        if type(max_cards) is not int or not 1 <= max_cards <= MAX_PLAYER_CARDS:
            raise Rejected("bad_field", field="max_cards")
        if not isinstance(one_to_go, bool) or not isinstance(phone_call, bool):
            raise Rejected("bad_field", field="one_to_go" if not isinstance(one_to_go, bool) else "phone_call")
        return self._writer.commit(PlayersSet(help, one_to_go, phone_call, max_cards), role)

    @locked
    def change_pin(self, target: str, pin: str, *, role: str) -> Record:
        """Journal a role's new PIN as a salted hash (never the PIN)."""
        require(role, "change_pin")
        if target not in programme_rules.PIN_ROLES:
            raise Rejected("bad_field", field="role")
        try:
            programme_rules.check_pin(pin)
        except ValueError:
            raise Rejected("bad_new_pin") from None
        return self._writer.commit(programme_rules.hash_pin(target, pin), role)
