"""A hold stops the hall's draws, a partie's start and « démarquez » for a while (hall/holds.py): every command that
would draw a ball asks it first, the writer refuses a held event a command forgot to ask for, and the rest of the
evening goes on."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from hall.events import BallDrawn
from hall.holds import HELD, Action
from hall.refusal import Rejected


class Break:
    """A hold as the games' break is one: standing or not, the same code for what it covers."""

    def __init__(self, covers=frozenset(Action)):
        self.standing = False
        self.covers = covers
        self.asked: list[Action] = []

    def refusal(self, action: Action) -> str | None:
        self.asked.append(action)
        return "rooms/games_on_screen" if self.standing and action in self.covers else None


def during_a_draw(make_hall, hold):
    """A partie started, 5 drawn, 9 held for the speaker's confirmation, then the hold stands."""
    hall = make_hall()
    hall.add_hold(hold)
    hall.start_partie(role="speaker")
    hall.draw(5, role="speaker")
    hall.propose(9, role="device")
    hold.standing = True
    return hall


# Every way a ball reaches the draw — the console, the ball machine (either mode), the keypad's number and its
# confirm key — and a partie's start and end. A drawing command added to HallPort belongs here.
HELD_COMMANDS = {
    "draw": (lambda hall: hall.draw(7, role="speaker"), Action.DRAW),
    "propose": (lambda hall: hall.propose(7, role="device"), Action.DRAW),
    "confirm_proposed": (lambda hall: hall.confirm_proposed(role="speaker"), Action.DRAW),
    "confirm_proposed corrected": (lambda hall: hall.confirm_proposed(7, role="speaker"), Action.DRAW),
    "ball_read": (lambda hall: hall.ball_read(7, source="ball_machine", confirm=False), Action.DRAW),
    "ball_read to confirm": (lambda hall: hall.ball_read(7, source="ball_machine", confirm=True), Action.DRAW),
    "key_typed draw": (lambda hall: hall.key_typed("draw", 7), Action.DRAW),
    "key_typed confirm": (lambda hall: hall.key_typed("confirm"), Action.DRAW),
    "start_partie": (lambda hall: hall.start_partie(role="speaker"), Action.START),
    "clear": (lambda hall: hall.clear(role="speaker", force=True), Action.CLEAR),
}


def commands_that_can_draw() -> set[str]:
    """The public methods of ``Hall`` that can journal a held event (``HELD``) or hold a ball (``Proposal``), directly
    or through another method of the hall (``self.draw(…)``), read from their source."""
    from hall.door.service import Hall

    held = {cls.__name__ for cls in HELD} | {"Proposal"}
    calls: dict[str, set[str]] = {}
    for name, member in vars(Hall).items():
        function = inspect.unwrap(member) if inspect.isfunction(member) else None
        if function is None:
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        called = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in held:
                called.add("<held>")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self"
            ):
                called.add(node.func.attr)
        calls[name] = called
    drawing = {"<held>"}
    while True:
        more = {name for name, called in calls.items() if called & drawing} - drawing
        if not more:
            return {name for name in drawing if not name.startswith(("_", "<"))}
        drawing |= more


@pytest.mark.parametrize("name", HELD_COMMANDS)
def test_a_standing_hold_refuses_the_command_with_its_code_and_the_hall_is_untouched(make_hall, name):
    command, action = HELD_COMMANDS[name]
    hold = Break()
    hall = during_a_draw(make_hall, hold)
    before, proposed = hall.last_seq(), hall.speaker_snapshot().proposed
    hold.asked.clear()
    with pytest.raises(Rejected) as refused:
        command(hall)
    assert refused.value.key == "rooms/games_on_screen"
    assert hold.asked == [action]  # asked first, before any other check
    assert hall.last_seq() == before and hall.speaker_snapshot().proposed == proposed  # 9 still waits


def test_the_commands_that_draw_nothing_go_on_during_the_break(make_hall):
    """A claim, its check, the resume, the undo, a misread ball dropped: the break stops the balls, not the hall."""
    hold = Break()
    hall = during_a_draw(make_hall, hold)
    hold.asked.clear()
    hall.key_typed("reject")
    assert hall.speaker_snapshot().proposed is None
    assert hall.undo(role="speaker").event.number == 5
    assert hall.key_typed("claim").action == "claim"
    assert hall.check_claim("A-1", role="controller").event.verdict == "unknown_card"
    assert hall.key_typed("claim").action == "resume"
    assert hold.asked == []  # none of them asked: the hold is not in their way


def test_a_hold_covers_only_its_actions(make_hall):
    hold = Break(covers={Action.DRAW})
    hall = during_a_draw(make_hall, hold)
    with pytest.raises(Rejected, match="games_on_screen"):
        hall.draw(7, role="speaker")
    hall.clear(role="speaker", force=True)
    hall.start_partie(role="speaker")
    hold.standing = False
    assert hall.draw(7, role="speaker").event.number == 7


def test_the_writer_refuses_a_held_event_that_a_command_forgot_to_ask_for(make_hall):
    """A drawing command added later without asking the hold still journals no ball during the break."""
    hold = Break()
    hall = during_a_draw(make_hall, hold)
    before = hall.last_seq()
    with pytest.raises(Rejected, match="games_on_screen"):
        hall._writer.commit(BallDrawn(7, 1, "new_device"), "device")
    assert hall.last_seq() == before
    assert set(HELD.values()) == set(Action)  # every action covers journalled events but propose's DRAW


def test_a_hold_is_registered_once_and_given_at_construction_too(make_hall, tmp_path):
    from hall.door.service import Hall

    hold = Break()
    hall = make_hall()
    hall.add_hold(hold)
    hall.add_hold(hold)
    hall.start_partie(role="speaker")
    assert hold.asked == [Action.START, Action.START]  # by the command first, then by the writer: once each
    built = Hall(hall.config, hall.journal, hall.book, holds=[hold])
    hold.standing = True
    with pytest.raises(Rejected, match="games_on_screen"):
        built.draw(7, role="speaker")
