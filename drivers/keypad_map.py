"""The speaker's USB numeric keypad as a pure key map: evdev key events in, ``KeyCommand`` values out.

Digits then Enter draw a ball; Enter alone confirms the ball the machine proposed (confirm mode);
erase removes the last digit; cancel clears what was typed (alone, it drops the proposed ball);
undo asks for Enter to confirm; claim stops the draw for a claim. Keypads with their own NumLock
send navigation keys (Home = 7, End = 1, Insert = 0 …) when it is off: both sets are digits here.
evdev gives raw keycodes, so the host's layout and NumLock state play no part.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from evdev import ecodes

from hall.cards import parse_number
from hall.errors import InvalidNumber

ACTIONS = ("enter", "erase", "cancel", "undo", "claim")

DEFAULT_KEYS: dict[str, tuple[str, ...]] = {
    "enter": ("KEY_KPENTER", "KEY_ENTER"),
    "erase": ("KEY_BACKSPACE", "KEY_KPDOT", "KEY_DELETE"),     # Delete is the "." key with NumLock off
    "cancel": ("KEY_KPSLASH", "KEY_ESC"),
    "undo": ("KEY_KPMINUS",),
    "claim": ("KEY_KPPLUS",),
}

DIGIT_KEYS: dict[str, str] = {
    **{f"KEY_KP{d}": str(d) for d in range(10)},
    **{f"KEY_{d}": str(d) for d in range(10)},
    # the same keys on a keypad whose own NumLock is off
    "KEY_INSERT": "0", "KEY_END": "1", "KEY_DOWN": "2", "KEY_PAGEDOWN": "3", "KEY_LEFT": "4",
    "KEY_CLEAR": "5", "KEY_RIGHT": "6", "KEY_HOME": "7", "KEY_UP": "8", "KEY_PAGEUP": "9",
}

KEY_DOWN = 1       # evdev key values: 0 up, 1 down, 2 autorepeat (ignored: holding 4 must not type 444)
MAX_DIGITS = 2


@dataclass(frozen=True, slots=True)
class KeyCommand:
    """What a key press means.

    ``kind``: ``typing`` (``text`` is the entry so far), ``draw`` (``number``), ``confirm`` (Enter alone),
    ``undo_armed``, ``undo``, ``cancel`` (an entry or an undo was dropped), ``reject`` (cancel alone),
    ``claim``, ``invalid`` (``text`` and ``reason``: ``out_of_range`` or ``too_many_digits``).
    """

    kind: str
    number: int | None = None
    text: str = ""
    reason: str = ""


def key_code(name: Any) -> int:
    """The evdev keycode for ``"KEY_KPMINUS"``, ``"kpminus"`` or ``74``; raises ``ValueError`` if unknown."""
    if isinstance(name, int) and not isinstance(name, bool):
        return name
    if isinstance(name, str):
        key = name.strip().upper()
        key = key if key.startswith("KEY_") else "KEY_" + key
        code = ecodes.ecodes.get(key)
        if isinstance(code, int) and key.startswith("KEY_"):
            return code
    raise ValueError(f"touche inconnue {name!r} (noms evdev : KEY_KPMINUS, KEY_KPENTER…)")


def build_keymap(overrides: Mapping[str, Any] | None = None) -> dict[int, str]:
    """keycode → action or digit, from the defaults and ``[keypad] keys``; raises ``ValueError`` naming every bad entry."""
    actions: dict[str, tuple[str | int, ...]] = dict(DEFAULT_KEYS)
    problems = []
    for action, names in (overrides or {}).items():
        if action not in ACTIONS:
            problems.append(f"keypad.keys.{action} : action inconnue (attendu : {', '.join(ACTIONS)})")
            continue
        names = [names] if isinstance(names, (str, int)) else list(names)
        good = []
        for name in names:
            try:
                good.append(key_code(name))
            except ValueError as exc:
                problems.append(f"keypad.keys.{action} : {exc}")
        actions[action] = tuple(good)
    if problems:
        raise ValueError("\n".join(problems))
    keymap = {key_code(name): digit for name, digit in DIGIT_KEYS.items()}
    for action, names in actions.items():
        for name in names:
            keymap[key_code(name)] = action       # an action key wins over a digit of the same code
    return keymap


class KeypadMap:
    """The keypad's state (digits typed, undo armed) and the meaning of each key press."""

    def __init__(self, overrides: Mapping[str, Any] | None = None):
        self.keymap = build_keymap(overrides)
        self.entry = ""
        self.undo_armed = False

    def feed(self, event: Any) -> KeyCommand | None:
        """The command for one ``evdev.InputEvent``; ``None`` for anything but a key going down on a mapped key."""
        if event.type != ecodes.EV_KEY or event.value != KEY_DOWN:
            return None
        meaning = self.keymap.get(event.code)
        if meaning is None:
            return None
        if meaning.isdigit():
            return self._digit(meaning)
        return getattr(self, "_" + meaning)()

    def feed_all(self, events) -> list[KeyCommand]:
        """The commands for a sequence of events, in order."""
        return [c for c in (self.feed(e) for e in events) if c is not None]

    def _disarm(self) -> KeyCommand:
        self.undo_armed = False
        return KeyCommand("cancel")

    def _digit(self, digit: str) -> KeyCommand:
        if self.undo_armed:
            return self._disarm()       # any other key than Enter drops the undo, and the key itself
        if len(self.entry) >= MAX_DIGITS:
            return KeyCommand("invalid", text=self.entry + digit, reason="too_many_digits")
        self.entry += digit
        return KeyCommand("typing", text=self.entry)

    def _enter(self) -> KeyCommand:
        if self.undo_armed:
            self.undo_armed = False
            return KeyCommand("undo")
        if not self.entry:
            return KeyCommand("confirm")
        text, self.entry = self.entry, ""
        try:
            return KeyCommand("draw", number=parse_number(text), text=text)
        except InvalidNumber:
            return KeyCommand("invalid", text=text, reason="out_of_range")

    def _erase(self) -> KeyCommand:
        if self.undo_armed:
            return self._disarm()
        self.entry = self.entry[:-1]
        return KeyCommand("typing", text=self.entry)

    def _cancel(self) -> KeyCommand:
        if self.undo_armed:
            return self._disarm()
        if self.entry:
            self.entry = ""
            return KeyCommand("cancel")
        return KeyCommand("reject")

    def _undo(self) -> KeyCommand:
        self.entry = ""
        self.undo_armed = True
        return KeyCommand("undo_armed")

    def _claim(self) -> KeyCommand:
        self.entry = ""
        self.undo_armed = False
        return KeyCommand("claim")
