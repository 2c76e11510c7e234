"""How the hall calls its balls (INTERFACE §11): the settings /admin changes for the evening (flash mode, nicknames
and their table, the speaker's pace per partie), the last ball said again, the voice tested, and tonight's draws
for the fairness count.

Its commands run under the writer's lock and commit through it; each one is journalled, so a projector that joins
later, a replay and the report see the same evening.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import BallRepeated, CallingSet, CountShown, Record, VoiceTested
from hall.loto.speech_words import NICKNAMES, clean_nicknames
from hall.refusal import Rejected
from hall.rights import require

MAX_PACE_S = 600.0
MAX_PACE_PARTIES = 100  # parties whose pace /admin may set


def default_calling(state: HallState) -> CallingSet:
    """The calling as the config file says it: flash ([display]), nicknames ([speech]) with RULES §1c's table."""
    c = state.config
    return CallingSet(c.display.flash, c.speech.nicknames, tuple(sorted(NICKNAMES.items())), ())


def pace_for(calling: CallingSet, partie: int, default_s: float) -> float:
    """The seconds between balls the speaker aims at in ``partie`` (0: no countdown)."""
    return dict(calling.pace).get(partie, default_s)


def _clean_pace(pace: Iterable[tuple[object, object]]) -> tuple[tuple[int, float], ...]:
    out: dict[int, float] = {}
    for partie, seconds in pace:
        if type(partie) is not int or not 1 <= partie <= 999:
            raise Rejected("bad_field", field="pace")
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds)
            or not 0 <= seconds <= MAX_PACE_S
        ):
            raise Rejected("bad_field", field="pace")
        out[partie] = float(seconds)
    if len(out) > MAX_PACE_PARTIES:
        raise Rejected("bad_field", field="pace")
    return tuple(sorted(out.items()))


class CallingDesk:
    """The hall's calling of its balls, as /admin and the console change it."""

    def __init__(self, writer: Writer, state: HallState):
        self._writer = writer
        self._state = state

    @locked
    def calling(self) -> CallingSet:
        """The calling now: as set on /admin tonight, else the config's."""
        return self._state.evening.calling or default_calling(self._state)

    @locked
    def set_calling(
        self,
        *,
        role: str,
        flash: object = None,
        nicknames_on: object = None,
        nicknames: Iterable[tuple[object, object]] | None = None,
        pace: Mapping[object, object] | None = None,
    ) -> Record:
        """Change what is given (``None``: kept); ``pace`` adds or replaces parties' paces. Journalled."""
        require(role, "edit_calling")
        now = self._state.evening.calling or default_calling(self._state)
        for name, value in (("flash", flash), ("nicknames_on", nicknames_on)):
            if value is not None and not isinstance(value, bool):
                raise Rejected("bad_field", field=name)
        table = now.nicknames
        if nicknames is not None:
            try:
                table = clean_nicknames(nicknames)
            except ValueError:
                raise Rejected("bad_field", field="nicknames") from None
        paces = now.pace
        if pace is not None:
            paces = _clean_pace([*now.pace, *pace.items()])
        event = CallingSet(
            now.flash if flash is None else bool(flash),
            now.nicknames_on if nicknames_on is None else bool(nicknames_on),
            table,
            paces,
        )
        return self._writer.commit(event, role)

    @locked
    def repeat_ball(self, *, role: str) -> Record:
        """Have the last ball of the partie in play said and shown again; ``Rejected("nothing_to_repeat")``
        when no ball is out."""
        require(role, "repeat_ball")
        p = self._state.evening.running
        if p is None or not p.draws:
            raise Rejected("nothing_to_repeat")
        return self._writer.commit(BallRepeated(p.draws[-1]), role)

    @locked
    def test_voice(self, *, role: str) -> Record:
        """Have the projector say its test phrase (it reports whether it spoke)."""
        require(role, "test_voice")
        return self._writer.commit(VoiceTested(), role)

    @locked
    def show_count(self, shown: bool, *, role: str) -> Record:
        """Put the ball count on the projector (``shown``) or take it off; the next ball takes it off too."""
        require(role, "show_count")
        if not isinstance(shown, bool):
            raise Rejected("bad_field", field="shown")
        return self._writer.commit(CountShown(shown), role)

    @locked
    def count_on_screen(self) -> bool:
        """Whether the ball count is on the projector: put there, and no ball drawn (or undone) since."""
        shown, drawn = self._state.evening.count_shown
        return shown and drawn == sum(len(p.draws) for p in self._state.evening.parties)

    @locked
    def ball_draws(self) -> tuple[tuple[int, ...], ...]:
        """Each partie's balls tonight, in order (undone balls left out): the fairness count's share of tonight."""
        return tuple(tuple(p.draws) for p in self._state.evening.parties)
