"""The salle annexe's keypad and push button (RULES L23): a key press is the room's « Quine ! ».

A USB push button is a HID keyboard sending one key; a keypad sends many. ``ClaimKeys`` is the pure map (evdev
key events in, the lot kind claimed out: ``None`` for « the lot being played », as the page's button); the
``AnnexKeysReader`` is the project's evdev reader (``drivers/keypad.py``: grabbed, unplug → reopen) handing each
claim to ``claim(kind)``, which the annex wires to the very code path of its page's button
(``display/annex.py`` ``key_claim``): never a second copy of it.

Debounced: only a key going down counts (a held key's autorepeat is nothing), and a press within ``DEBOUNCE_S``
of the last one counted (by the events' own kernel timestamps: a bouncing contact, a double tap) is the same
press. The annex's claim path then bounds the rest as for the button (one claim every 3 s per source).

The default map (``[annex] keys`` replaces an action's keys, e.g. ``keys = { claim = ["KEY_F13"] }``):

- ``claim`` (the lot being played): Enter, keypad Enter, Space, keypad + — what push buttons send by default;
- ``quine``: Q, 1, keypad 1; ``double_quine``: D, 2, keypad 2; ``carton_plein``: C, 3, keypad 3.

Any other key does nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from evdev import InputEvent, ecodes

from drivers.keypad import EvdevReader, InputDevice
from drivers.keypad_map import KEY_DOWN, key_code
from drivers.reconnect import Backoff, StatusSink
from hall import LOT_KINDS

log = logging.getLogger("loto-hall.drivers")

DEBOUNCE_S = 0.5  # a second press sooner than this is the same one (contacts bounce for a few ms; a double tap)
CURRENT = "claim"  # the action claiming the lot being played (the page's button: no kind given)
# each lot kind's keys, in the lot table's order (hall/loto/lots.py: quine, double quine, carton plein): Q/1, D/2, C/3
_KIND_KEYS = (("KEY_Q", "KEY_1", "KEY_KP1"), ("KEY_D", "KEY_2", "KEY_KP2"), ("KEY_C", "KEY_3", "KEY_KP3"))
DEFAULT_KEYS: dict[str, tuple[str, ...]] = {
    CURRENT: ("KEY_ENTER", "KEY_KPENTER", "KEY_SPACE", "KEY_KPPLUS"),
    **dict(zip(LOT_KINDS, _KIND_KEYS, strict=True)),
}


def build_claim_keys(overrides: Mapping[str, object] | None = None) -> dict[int, str]:
    """keycode → action (``claim`` or a lot kind), from ``DEFAULT_KEYS`` and ``[annex] keys``; raises
    ``ValueError`` naming every bad entry (an unknown action, an unknown key name, one key for two actions)."""
    problems: list[str] = []
    table: dict[str, tuple[object, ...]] = dict(DEFAULT_KEYS)
    for action, names in (overrides or {}).items():
        if action not in DEFAULT_KEYS:
            problems.append(f"annex.keys.{action} : action inconnue (attendu : {', '.join(DEFAULT_KEYS)})")
            continue
        given = names if isinstance(names, list | tuple) else [names]
        table[action] = tuple(given)
    keymap: dict[int, str] = {}
    for action, names in table.items():
        for name in names:
            try:
                code = key_code(name)
            except ValueError as exc:
                problems.append(f"annex.keys.{action} : {exc}")
                continue
            if keymap.get(code, action) != action:
                problems.append(f"annex.keys.{action} : {name!r} est déjà la touche de « {keymap[code]} »")
            keymap[code] = action
    if problems:
        raise ValueError("\n".join(problems))
    return keymap


class ClaimKeys:
    """The claim keys' meaning and their debounce: ``feed(event)`` is the claim a key press makes, if any."""

    def __init__(self, overrides: Mapping[str, object] | None = None, debounce_s: float = DEBOUNCE_S):
        self.keymap = build_claim_keys(overrides)
        self.debounce_s = debounce_s
        self._last: float | None = None  # the kernel time of the last press counted

    def feed(self, event: InputEvent) -> tuple[str | None] | None:
        """``(kind,)`` for a press that claims (``kind`` None: the lot being played); None for anything else (a key
        up, an autorepeat, an unmapped key, a bounce)."""
        if event.type != ecodes.EV_KEY or event.value != KEY_DOWN:
            return None
        action = self.keymap.get(event.code)
        if action is None:
            return None
        at = event.timestamp()
        if self._last is not None and 0 <= at - self._last < self.debounce_s:
            return None
        self._last = at
        return (None if action == CURRENT else action,)

    def feed_all(self, events) -> list[str | None]:
        """The kinds claimed by a sequence of events, in order."""
        return [made[0] for made in (self.feed(e) for e in events) if made is not None]


class AnnexKeysReader(EvdevReader):
    """The annex's keypad or push button on ``path`` (a stable ``/dev/input/by-id/…-event-kbd``); each claim
    press calls ``claim(kind)``."""

    name = "annex_keys"

    def __init__(
        self,
        status: StatusSink,
        path: str,
        claim: Callable[[str | None], object],
        keys: Mapping[str, object] | None = None,
        *,
        opener: Callable[[str], InputDevice] | None = None,
        backoff: Backoff | None = None,
    ):
        super().__init__(status, path, opener=opener, backoff=backoff)
        self.keys = ClaimKeys(keys)
        self.claim = claim

    def on_event(self, event: InputEvent) -> None:
        made = self.keys.feed(event)
        if made is not None:
            log.info("%s: « Quine ! » pressed kind=%s path=%s", self.name, made[0] or "(lot en cours)", self.path)
            self.claim(made[0])
