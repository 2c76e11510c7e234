"""The speaker's keypad: real ``evdev.InputEvent`` sequences through the key map, then into a real hall."""

from __future__ import annotations

import errno
import os
import queue

import evdev
import pytest
from evdev import ecodes

from drivers.inputs import start_inputs
from drivers.keypad import EvdevReader, KeypadReader, apply_key_command
from drivers.keypad_map import KeyCommand, KeypadMap, build_keymap
from hall.config import KeypadSection, parse_config
from hall.errors import ConfigError

from .conftest import Watch, journal_draws


def press(*names: str, start: float = 1000.0) -> list[evdev.InputEvent]:
    """Each key down then up, with the SYN reports a real keypad sends, 10 ms apart."""
    events, t = [], start
    for name in names:
        code = ecodes.ecodes[name]
        for value in (1, 0):
            sec, usec = int(t), int((t % 1) * 1e6)
            events += [
                evdev.InputEvent(sec, usec, ecodes.EV_MSC, ecodes.MSC_SCAN, 458752 + code),
                evdev.InputEvent(sec, usec, ecodes.EV_KEY, code, value),
                evdev.InputEvent(sec, usec, ecodes.EV_SYN, ecodes.SYN_REPORT, 0),
            ]
            t += 0.01
    return events


def kinds(commands) -> list[str]:
    return [c.kind for c in commands]


def test_digits_then_enter_draw_a_ball():
    commands = KeypadMap().feed_all(press("KEY_KP4", "KEY_KP2", "KEY_KPENTER"))
    assert commands == [
        KeyCommand("typing", text="4"),
        KeyCommand("typing", text="42"),
        KeyCommand("draw", number=42, text="42"),
    ]


def test_a_keypad_with_its_own_numlock_off_sends_navigation_keys_that_are_digits_too():
    # Home End = 7 1; PageDown Insert = 3 0; Left Clear = 4 5; Right Up = 6 8; Down PageUp = 2 9
    keys = [
        "KEY_HOME",
        "KEY_END",
        "KEY_ENTER",
        "KEY_PAGEDOWN",
        "KEY_INSERT",
        "KEY_KPENTER",
        "KEY_LEFT",
        "KEY_CLEAR",
        "KEY_KPENTER",
        "KEY_RIGHT",
        "KEY_UP",
        "KEY_KPENTER",
        "KEY_DOWN",
        "KEY_PAGEUP",
        "KEY_KPENTER",
    ]
    assert [c.number for c in KeypadMap().feed_all(press(*keys)) if c.kind == "draw"] == [71, 30, 45, 68, 29]


def test_numlock_and_unmapped_keys_do_nothing():
    assert KeypadMap().feed_all(press("KEY_NUMLOCK", "KEY_A")) == []


def test_the_star_key_opens_the_console_menu_and_drops_what_was_typed():
    keypad = KeypadMap()
    assert keypad.feed_all(press("KEY_KP4", "KEY_KPASTERISK", "KEY_KPENTER")) == [
        KeyCommand("typing", text="4"),
        KeyCommand("menu"),
        KeyCommand("confirm"),
    ]


def test_holding_a_key_types_it_once():
    down = evdev.InputEvent(1, 0, ecodes.EV_KEY, ecodes.KEY_KP4, 1)
    repeats = [evdev.InputEvent(1, i, ecodes.EV_KEY, ecodes.KEY_KP4, 2) for i in range(1, 6)]
    up = evdev.InputEvent(2, 0, ecodes.EV_KEY, ecodes.KEY_KP4, 0)
    assert KeypadMap().feed_all([down, *repeats, up]) == [KeyCommand("typing", text="4")]


def test_erase_removes_the_last_digit():
    commands = KeypadMap().feed_all(press("KEY_KP1", "KEY_KP2", "KEY_BACKSPACE", "KEY_KP3", "KEY_KPENTER"))
    assert commands[-1] == KeyCommand("draw", number=13, text="13")
    assert KeypadMap().feed_all(press("KEY_KP8", "KEY_KPDOT", "KEY_KP9", "KEY_KPENTER"))[-1].number == 9


def test_cancel_clears_the_entry_and_alone_rejects_the_proposed_ball():
    assert kinds(KeypadMap().feed_all(press("KEY_KP5", "KEY_KPSLASH", "KEY_KPENTER"))) == [
        "typing",
        "cancel",
        "confirm",
    ]
    assert kinds(KeypadMap().feed_all(press("KEY_KPSLASH"))) == ["reject"]


def test_undo_asks_for_enter_and_any_other_key_drops_it():
    assert kinds(KeypadMap().feed_all(press("KEY_KP4", "KEY_KPMINUS", "KEY_KPENTER"))) == [
        "typing",
        "undo_armed",
        "undo",
    ]
    keypad = KeypadMap()
    assert kinds(keypad.feed_all(press("KEY_KPMINUS", "KEY_KP3", "KEY_KPENTER"))) == ["undo_armed", "cancel", "confirm"]
    assert not keypad.undo_armed and keypad.entry == ""


def test_the_claim_key_stops_the_draw_and_drops_the_entry():
    keypad = KeypadMap()
    assert kinds(keypad.feed_all(press("KEY_KP4", "KEY_KPPLUS"))) == ["typing", "claim"]
    assert keypad.entry == ""


def test_no_ball_outside_1_to_90_and_no_third_digit():
    commands = KeypadMap().feed_all(press("KEY_KP1", "KEY_KP2", "KEY_KP3", "KEY_KPENTER"))
    assert commands[2] == KeyCommand("invalid", text="123", reason="too_many_digits")
    assert commands[3].number == 12
    for digits in (("KEY_KP9", "KEY_KP5"), ("KEY_KP0",), ("KEY_KP0", "KEY_KP0")):
        assert KeypadMap().feed_all(press(*digits, "KEY_KPENTER"))[-1].reason == "out_of_range"


def test_the_mapping_can_be_changed_in_the_config():
    keypad = KeypadMap({"undo": "KEY_KPASTERISK", "claim": ["kpminus", "KEY_F1"]})
    assert kinds(keypad.feed_all(press("KEY_KPASTERISK", "KEY_KPENTER", "KEY_KPMINUS", "KEY_F1", "KEY_KPPLUS"))) == [
        "undo_armed",
        "undo",
        "claim",
        "claim",
    ]


def test_bad_mapping_entries_are_all_named():
    with pytest.raises(ValueError) as info:
        build_keymap({"undoo": "KEY_KPMINUS", "cancel": "KEY_NOPE", "claim": ["KEY_KPPLUS", "F99"]})
    message = str(info.value)
    assert "keypad.keys.undoo" in message and "KEY_NOPE" in message and "F99" in message


def test_a_bad_mapping_stops_start_up_with_a_config_error(make_hall, tmp_path):
    config = parse_config({"keypad": {"device": str(tmp_path / "kbd"), "keys": {"undo": "KEY_NOPE"}}})
    with pytest.raises(ConfigError, match="KEY_NOPE"):
        start_inputs(make_hall(), config)


# ---- into the hall --------------------------------------------------------------------------------


def type_keys(hall, *names: str, keypad: KeypadMap | None = None) -> None:
    keypad = keypad or KeypadMap()
    for cmd in keypad.feed_all(press(*names)):
        apply_key_command(hall, cmd)


def test_keypad_draws_undoes_and_stops_for_a_claim_as_the_speaker(hall, watch):
    type_keys(
        hall, "KEY_KP7", "KEY_KPENTER", "KEY_KP1", "KEY_KP5", "KEY_KPENTER", "KEY_KPMINUS", "KEY_KPENTER", "KEY_KPPLUS"
    )
    records = list(hall.records())
    assert [r.type for r in records[1:]] == ["draw:ball_drawn", "draw:ball_drawn", "draw:undone", "claim:announced"]
    assert {r.role for r in records[1:]} == {"speaker"} and records[1].event.source == "keypad"
    assert journal_draws(hall) == [7] and hall.evening.running.paused


def test_a_refused_keypad_action_is_shown_not_raised(hall, watch):
    type_keys(hall, "KEY_KP7", "KEY_KPENTER", "KEY_KP7", "KEY_KPENTER")
    assert watch.refused("already_drawn")[1]["source"] == "keypad"
    type_keys(hall, "KEY_KPMINUS", "KEY_KPENTER", "KEY_KPMINUS", "KEY_KPENTER")
    _, notice = watch.next(lambda n, p: n == "keypad:refused")
    assert notice["code"] == "nothing_to_undo" and notice["action"] == "undo"
    assert "message" not in notice  # a code: display/ words it


def test_in_confirm_mode_the_keypad_confirms_corrects_or_drops_the_read_ball(hall, watch):
    hall.propose(13, role="device", source="ball_machine")
    type_keys(hall, "KEY_KPENTER")  # as read
    hall.propose(13 + 1, role="device", source="ball_machine")
    type_keys(hall, "KEY_KP1", "KEY_KP8", "KEY_KPENTER")  # the ball says 18, not 14
    hall.propose(60, role="device", source="ball_machine")
    type_keys(hall, "KEY_KPSLASH")  # read by mistake
    assert journal_draws(hall) == [13, 18] and hall.speaker_snapshot().proposed is None


def test_the_typed_entry_is_published_for_the_console(hall, watch):
    type_keys(hall, "KEY_KP3")
    _, notice = watch.next(lambda n, p: n == "keypad:input")
    assert notice["kind"] == "typing" and notice["text"] == "3"


# ---- the reader -----------------------------------------------------------------------------------


class PipeDevice:
    """A stand-in for ``evdev.InputDevice`` at the library's edge: a real fd, events queued by the test."""

    def __init__(self, path: str, unplugged: dict):
        self.path, self.unplugged = path, unplugged
        self.fd, self._w = os.pipe()
        self.events: queue.Queue = queue.Queue()
        self.grabbed = False

    def send(self, events) -> None:
        for e in events:
            self.events.put(e)
        os.write(self._w, b"!")

    def unplug(self) -> None:
        self.unplugged[self.path] = True
        os.write(self._w, b"!")

    def grab(self):
        self.grabbed = True

    def ungrab(self):
        self.grabbed = False

    def read(self):
        os.read(self.fd, 4096)
        if self.unplugged.get(self.path):
            raise OSError(errno.ENODEV, "No such device")
        while not self.events.empty():
            yield self.events.get_nowait()

    def close(self):
        os.close(self.fd)
        os.close(self._w)


def test_the_reader_grabs_the_keypad_and_survives_an_unplug(hall, watch, tmp_path, fast_backoff):
    path = tmp_path / "event-kbd"
    path.touch()
    opened: list[PipeDevice] = []
    unplugged: dict = {}

    def opener(p):
        opened.append(PipeDevice(p, unplugged))
        return opened[-1]

    reader = KeypadReader(hall, KeypadSection(device=str(path)), opener=opener, backoff=fast_backoff())
    reader.start()
    try:
        watch.status("keypad", "ok")
        assert opened[0].grabbed
        opened[0].send(press("KEY_KP2", "KEY_KP1", "KEY_KPENTER", "KEY_KP3"))
        watch.drawn(21)
        opened[0].unplug()
        watch.status("keypad", "absent")
        unplugged.clear()
        watch.status("keypad", "ok")
        opened[1].send(press("KEY_KP4", "KEY_KPENTER"))  # the "3" typed before the unplug is gone
        watch.drawn(4)
    finally:
        reader.stop()
    assert not reader.alive() and journal_draws(hall) == [21, 4]


def test_a_configured_keypad_that_is_missing_degrades_nothing_else(make_hall, tmp_path):
    hall = make_hall()
    hall.start_partie(role="speaker")
    watch = Watch(hall)
    services = start_inputs(hall, parse_config({"keypad": {"device": str(tmp_path / "by-id-kbd")}}))
    assert [s.name for s in services] == ["keypad"] and isinstance(services[0], EvdevReader)
    services[0].start()
    try:
        absent = watch.status("keypad", "absent")[1]
        assert (absent["code"], absent["params"]) == ("keypad_missing", {"path": str(tmp_path / "by-id-kbd")})
        hall.draw(9, role="speaker")
    finally:
        services[0].stop()


@pytest.mark.skipif(
    not os.path.exists("/dev/uinput"), reason="/dev/uinput does not exist here (no uinput module): runs on the Pi"
)
def test_a_virtual_keypad_through_the_kernel(hall, watch, fast_backoff):
    from evdev import UInput

    keys = [ecodes.KEY_KP0 + i for i in range(10)] + [
        ecodes.KEY_KP1,
        ecodes.KEY_KP2,
        ecodes.KEY_KP3,
        ecodes.KEY_KPENTER,
        ecodes.KEY_KPMINUS,
    ]
    with UInput({ecodes.EV_KEY: sorted(set(keys))}, name="loto-hall test keypad") as ui:
        reader = KeypadReader(hall, KeypadSection(device=ui.device.path), backoff=fast_backoff())
        reader.start()
        try:
            watch.status("keypad", "ok")
            for code in (ecodes.KEY_KP3, ecodes.KEY_KP3, ecodes.KEY_KPENTER):
                ui.write(ecodes.EV_KEY, code, 1)
                ui.write(ecodes.EV_KEY, code, 0)
                ui.syn()
            watch.drawn(33)
        finally:
            reader.stop()
