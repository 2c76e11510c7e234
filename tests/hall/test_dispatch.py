"""One way to act by event type: an ``EventHandlers`` table, each handler declared where it is written."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hall.events import EVENT_TYPES, BallDrawn, DrawUndone, EventHandlers
from hall.loto.partie import _APPLY

ROOT = Path(__file__).resolve().parents[2]
EVENT_CLASSES = {cls.__name__ for cls in EVENT_TYPES.values()}
# the mini-games' records are JSON dicts of their own, and the rooms' web files move to a package of their own
APART = ("hall/minigames/", "display/rooms", "display/tournament")


def test_a_handler_is_found_by_the_event_type_and_two_for_one_type_are_refused():
    table = EventHandlers[str]()

    @table.on(BallDrawn, DrawUndone)
    def ball(e) -> str:
        return f"ball {e.number}"

    assert table.get(BallDrawn.type) is ball and table.get(DrawUndone.type) is ball
    assert table.get("claim:checked") is None and table.types() == {BallDrawn.type, DrawUndone.type}
    with pytest.raises(ValueError, match="draw:undone"):
        table.on(DrawUndone)(lambda e: "again")


def test_the_evening_applies_every_event_of_the_journal():
    """A new event without its ``Evening`` handler is found here, not by a replay on the evening itself."""
    assert _APPLY.types() == set(EVENT_TYPES)


def other_dispatch(path: Path) -> list[str]:
    """The places of ``path`` that act by event type some other way: comparing a ``.type`` with an event's
    name written out, ``isinstance`` with an event class, or a handler found by its name (``getattr``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "type":
            texts = [c for comp in node.comparators for c in ast.walk(comp) if isinstance(c, ast.Constant)]
            if any(c.value in EVENT_TYPES for c in texts):
                found.append(f"{node.lineno}: .type compared with an event's name")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if names & EVENT_CLASSES:
                found.append(f"{node.lineno}: isinstance with an event class")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            if any(isinstance(c, ast.Constant) and c.value == "_on_" for c in ast.walk(node)):
                found.append(f"{node.lineno}: a handler found by its name")
    return found


def test_no_module_of_the_hall_or_the_web_dispatches_on_an_event_another_way():
    files = [
        p
        for folder in ("hall", "display", "drivers")
        for p in (ROOT / folder).rglob("*.py")
        if not str(p.relative_to(ROOT)).startswith(APART)
    ]
    offenders = {str(p.relative_to(ROOT)): found for p in files for found in [other_dispatch(p)] if found}
    assert offenders == {}
