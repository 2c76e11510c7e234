"""How the hall calls its balls, as /admin and the console change it: journalled, replayed, refused with a reason."""

from __future__ import annotations

import pytest

from hall.loto.speech_words import NICKNAMES
from hall.refusal import Rejected


def test_the_calling_starts_as_the_config_says_and_is_replayed_as_admin_left_it(make_hall):
    hall = make_hall()
    now = hall.calling()
    assert (now.flash, now.nicknames_on, dict(now.nicknames), now.pace) == (False, False, dict(NICKNAMES), ())
    hall.set_calling(role="admin", flash=True, nicknames_on=True, nicknames=[(42, "la réponse")], pace={2: 25})
    hall.set_calling(role="admin", pace={3: 12.5})  # adds a partie's pace, keeps the rest
    again = make_hall().calling()  # the same journal, read again
    assert (again.flash, again.nicknames_on, again.nicknames) == (True, True, ((42, "la réponse"),))
    assert again.pace == ((2, 25.0), (3, 12.5))
    assert [r.type for r in hall.records()][-2:] == ["calling:set", "calling:set"]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"flash": "yes"}, "flash"),
        ({"nicknames": [(91, "x")]}, "nicknames"),
        ({"pace": {1: 601}}, "pace"),
        ({"pace": {0: 10}}, "pace"),
        ({"pace": {1: float("nan")}}, "pace"),
        ({"nicknames_on": 1}, "nicknames_on"),
    ],
)
def test_a_bad_setting_is_refused_naming_its_field_and_nothing_is_journalled(make_hall, change, field):
    hall = make_hall()
    with pytest.raises(Rejected) as refused:
        hall.set_calling(role="admin", **change)
    assert refused.value.code == "bad_field" and refused.value.detail["field"] == field
    assert hall.last_seq() == 0


def test_only_the_admin_changes_the_calling_and_the_speaker_has_the_last_ball_said_again(make_hall):
    hall = make_hall()
    with pytest.raises(Rejected, match="forbidden"):
        hall.set_calling(role="speaker", flash=True)
    with pytest.raises(Rejected, match="nothing_to_repeat"):
        hall.repeat_ball(role="speaker")
    hall.start_partie(role="speaker")
    hall.draw(17, role="speaker")
    hall.draw(4, role="speaker")
    assert hall.repeat_ball(role="speaker").event.number == 4
    with pytest.raises(Rejected, match="forbidden"):
        hall.repeat_ball(role="controller")
    assert hall.test_voice(role="speaker").type == "speech:tested"


def test_tonights_balls_for_the_count_leave_out_an_undone_one(make_hall):
    hall = make_hall()
    hall.start_partie(role="speaker")
    for n in (5, 6, 7):
        hall.draw(n, role="speaker")
    hall.undo(role="speaker")
    assert hall.ball_draws() == ((5, 6),)


def test_the_count_stays_on_the_projector_until_the_speaker_takes_it_off_or_a_ball_is_drawn(make_hall):
    hall = make_hall()
    hall.start_partie(role="speaker")
    hall.draw(5, role="speaker")
    assert not hall.count_on_screen()
    hall.show_count(True, role="speaker")
    assert hall.count_on_screen() and make_hall().count_on_screen()  # a projector that reloads shows it again
    hall.draw(6, role="speaker")
    assert not hall.count_on_screen()
    hall.show_count(True, role="speaker")
    hall.show_count(False, role="speaker")
    assert not hall.count_on_screen()
    with pytest.raises(Rejected, match="forbidden"):
        hall.show_count(True, role="controller")
