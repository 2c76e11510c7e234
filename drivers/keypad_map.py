"""The speaker's USB numeric keypad as a pure key map: evdev key events in, ``KeyCommand`` values out.

Digits then Enter draw a ball; Enter alone confirms the ball the machine proposed (confirm mode);
erase removes the last digit; cancel clears what was typed (alone, it drops the proposed ball);
undo asks for Enter to confirm; claim stops the draw for a claim. Keypads with their own NumLock
send navigation keys (Home = 7, End = 1, Insert = 0 …) when it is off: both sets are digits here.
evdev gives raw keycodes, so the host's layout and NumLock state play no part.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from evdev import InputEvent, ecodes

from hall import DIGIT_KEYS, InvalidNumber, action_keys, parse_number, unknown_actions

KEY_DOWN = 1  # evdev key values: 0 up, 1 down, 2 autorepeat (ignored: holding 4 must not type 444)
MAX_DIGITS = 2


@dataclass(frozen=True, slots=True)
class KeyCommand:
    """What a key press means.

    ``kind``: ``typing`` (``text`` is the entry so far), ``draw`` (``number``), ``confirm`` (Enter alone),
    ``undo_armed``, ``undo``, ``cancel`` (an entry or an undo was dropped), ``reject`` (cancel alone),
    ``claim``, ``menu``, ``invalid`` (``text`` and ``reason``: ``out_of_range`` or ``too_many_digits``).
    """

    kind: str
    number: int | None = None
    text: str = ""
    reason: str = ""


def key_code(name: object) -> int:
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


def build_keymap(overrides: Mapping[str, object] | None = None) -> dict[int, str]:
    """keycode → action or digit, from the shared table and ``[keypad] keys``; raises ``ValueError`` naming every bad entry."""
    actions = action_keys(overrides)
    problems = unknown_actions(overrides)
    codes: dict[str, tuple[int, ...]] = {}
    for action, names in actions.items():
        good = []
        for name in names:
            try:
                good.append(key_code(name))
            except ValueError as exc:
                problems.append(f"keypad.keys.{action} : {exc}")
        codes[action] = tuple(good)
    if problems:
        raise ValueError("\n".join(problems))
    keymap = {key_code(name): digit for name, digit in DIGIT_KEYS.items()}
    for action, found in codes.items():
        for code in found:
            keymap[code] = action  # an action key wins over a digit of the same code
    return keymap


class KeypadMap:
    """The keypad's state (digits typed, undo armed) and the meaning of each key press."""

    def __init__(self, overrides: Mapping[str, object] | None = None):
        self.keymap = build_keymap(overrides)
        self.entry = ""
        self.undo_armed = False

    def feed(self, event: InputEvent) -> KeyCommand | None:
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
            return self._disarm()  # any other key than Enter drops the undo, and the key itself
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

    def _menu(self) -> KeyCommand:
        self.entry = ""
        self.undo_armed = False
        return KeyCommand("menu")  # the console opens its numbered actions; the Pi has nothing more to do

    def _claim(self) -> KeyCommand:
        self.entry = ""
        self.undo_armed = False
        return KeyCommand("claim")
