"""The speaker's numeric keypad as ONE table of key names, shared by the keypad plugged into the Pi (evdev
names, ``drivers/keypad_map.py``) and a keypad plugged into the speaker's laptop (the browser's
``KeyboardEvent.code``, ``display/static/js/speaker_keys.js``).

A browser reports the physical key in ``code`` whatever the NumLock state (``End`` arrives with
``code == "Numpad1"``), and evdev reports raw keycodes: both sides map by the physical key, so NumLock
and the keyboard layout play no part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ACTIONS = ("enter", "erase", "cancel", "undo", "claim", "menu")

DEFAULT_KEYS: dict[str, tuple[str, ...]] = {
    "enter": ("KEY_KPENTER", "KEY_ENTER"),
    "erase": ("KEY_BACKSPACE", "KEY_KPDOT", "KEY_DELETE"),  # Delete is the "." key with NumLock off
    "cancel": ("KEY_KPSLASH", "KEY_ESC"),
    "undo": ("KEY_KPMINUS",),
    "claim": ("KEY_KPPLUS",),
    "menu": ("KEY_KPASTERISK",),  # the console's numbered actions (resume, award, démarquez, start…)
}

DIGIT_KEYS: dict[str, str] = {
    **{f"KEY_KP{d}": str(d) for d in range(10)},
    **{f"KEY_{d}": str(d) for d in range(10)},
    # the same keys on a keypad whose own NumLock is off
    "KEY_INSERT": "0",
    "KEY_END": "1",
    "KEY_DOWN": "2",
    "KEY_PAGEDOWN": "3",
    "KEY_LEFT": "4",
    "KEY_CLEAR": "5",
    "KEY_RIGHT": "6",
    "KEY_HOME": "7",
    "KEY_UP": "8",
    "KEY_PAGEUP": "9",
}

# evdev key name → the browser's KeyboardEvent.code for the same physical key (keys a browser names alike).
BROWSER_CODES: dict[str, str] = {
    **{f"KEY_KP{d}": f"Numpad{d}" for d in range(10)},
    **{f"KEY_{d}": f"Digit{d}" for d in range(10)},
    "KEY_KPENTER": "NumpadEnter",
    "KEY_ENTER": "Enter",
    "KEY_KPDOT": "NumpadDecimal",
    "KEY_DELETE": "Delete",
    "KEY_BACKSPACE": "Backspace",
    "KEY_KPSLASH": "NumpadDivide",
    "KEY_ESC": "Escape",
    "KEY_KPMINUS": "NumpadSubtract",
    "KEY_KPPLUS": "NumpadAdd",
    "KEY_KPASTERISK": "NumpadMultiply",
    "KEY_INSERT": "Insert",
    "KEY_END": "End",
    "KEY_DOWN": "ArrowDown",
    "KEY_PAGEDOWN": "PageDown",
    "KEY_LEFT": "ArrowLeft",
    "KEY_CLEAR": "NumpadClear",
    "KEY_RIGHT": "ArrowRight",
    "KEY_HOME": "Home",
    "KEY_UP": "ArrowUp",
    "KEY_PAGEUP": "PageUp",
    "KEY_MINUS": "Minus",
    "KEY_EQUAL": "Equal",
    "KEY_SPACE": "Space",
    "KEY_TAB": "Tab",
    "KEY_F1": "F1",
    "KEY_F2": "F2",
    "KEY_F3": "F3",
    "KEY_F4": "F4",
    "KEY_KPEQUAL": "NumpadEqual",
    "KEY_KPCOMMA": "NumpadComma",
}


def key_name(name: object) -> str:
    """``"kpminus"`` → ``"KEY_KPMINUS"``; raises ``ValueError`` for anything but a text."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"nom de touche attendu, pas {name!r}")
    key = name.strip().upper()
    return key if key.startswith("KEY_") else "KEY_" + key


def unknown_actions(overrides: Mapping[str, object] | None = None) -> list[str]:
    """A sentence for each action of ``overrides`` that does not exist."""
    return [
        f"keypad.keys.{action} : action inconnue (attendu : {', '.join(ACTIONS)})"
        for action in (overrides or {})
        if action not in ACTIONS
    ]


def action_keys(overrides: Mapping[str, Any] | None = None) -> dict[str, tuple[Any, ...]]:
    """action → key names: the defaults, each action named in ``overrides`` replaced by its keys (which leave
    the default action they had). Unknown actions are skipped (see ``unknown_actions``); key names are
    checked by the side that reads them."""
    given = {a: ((n,) if isinstance(n, (str, int)) else tuple(n)) for a, n in (overrides or {}).items() if a in ACTIONS}
    named = {key_name(n) for names in given.values() for n in names if isinstance(n, str) and n.strip()}
    actions = {a: tuple(n for n in keys if n not in named) for a, keys in DEFAULT_KEYS.items()}
    actions.update(given)
    return actions


def browser_keymap(overrides: Mapping[str, object] | None = None) -> dict[str, str]:
    """``KeyboardEvent.code`` → digit or action, the same table as the Pi's keypad (``[keypad] keys`` applied).

    A key the browser cannot name (a raw keycode number) is left out: it exists on the Pi's keypad only.
    """
    table = {BROWSER_CODES[name]: digit for name, digit in DIGIT_KEYS.items()}
    for action, names in action_keys(overrides).items():
        for name in names:
            if isinstance(name, str):
                code = BROWSER_CODES.get(key_name(name))
                if code is not None:
                    table[code] = action  # an action key wins over a digit of the same code
    return table
