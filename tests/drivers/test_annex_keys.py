"""The salle annexe's keypad and USB push button (issue 43 item 2): recorded evdev events through the claim keys,
then through the project's evdev reader; the kernel's own device where /dev/uinput exists."""

from __future__ import annotations

import os
import queue
import threading

import evdev
import pytest
from evdev import ecodes

from drivers.annex_keys import DEBOUNCE_S, AnnexKeysReader, ClaimKeys, build_claim_keys
from hall.app.annex import KeysStatus, problems
from hall.config import AnnexSection, parse_config
from hall.errors import ConfigError

from .test_keypad import PipeDevice, press


def events(code: int, *values_at: tuple[int, float]) -> list[evdev.InputEvent]:
    """``code``'s key events with their values at their kernel times (a SYN after each, as a keyboard sends)."""
    out = []
    for value, t in values_at:
        sec, usec = int(t), round((t % 1) * 1e6)
        out += [
            evdev.InputEvent(sec, usec, ecodes.EV_KEY, code, value),
            evdev.InputEvent(sec, usec, ecodes.EV_SYN, ecodes.SYN_REPORT, 0),
        ]
    return out


def test_a_push_button_sending_enter_claims_the_lot_being_played():
    assert ClaimKeys().feed_all(press("KEY_ENTER")) == [None]  # None: the lot being played, as the page's button
    for name in ("KEY_KPENTER", "KEY_SPACE", "KEY_KPPLUS"):
        assert ClaimKeys().feed_all(press(name)) == [None], name


def test_the_default_keys_claim_each_lot_kind():
    for names, kind in (
        (("KEY_Q", "KEY_1", "KEY_KP1"), "quine"),
        (("KEY_D", "KEY_2", "KEY_KP2"), "double_quine"),
        (("KEY_C", "KEY_3", "KEY_KP3"), "carton_plein"),
    ):
        for name in names:
            assert ClaimKeys().feed_all(press(name)) == [kind], name


def test_an_unmapped_key_claims_nothing():
    assert ClaimKeys().feed_all(press("KEY_A", "KEY_NUMLOCK", "KEY_KP5", "KEY_ESC", "KEY_F1")) == []


def test_a_held_key_is_one_claim():
    code = ecodes.KEY_ENTER
    held = events(code, (1, 10.0), *((2, 10.25 + 0.033 * i) for i in range(60)), (0, 12.3))  # 2 s of autorepeat
    assert ClaimKeys().feed_all(held) == [None]


def test_a_bouncing_contact_is_one_claim_and_a_later_press_another():
    code = ecodes.KEY_SPACE
    bounce = events(code, (1, 5.000), (0, 5.004), (1, 5.007), (0, 5.011), (1, 5.015), (0, 5.120))
    keys = ClaimKeys()
    assert keys.feed_all(bounce) == [None]
    assert keys.feed_all(events(code, (1, 5.0 + DEBOUNCE_S - 0.01), (0, 5.6))) == []  # a double tap: the same
    assert keys.feed_all(events(code, (1, 9.0), (0, 9.1))) == [None]  # pressed again later: a new press


def test_the_keys_can_be_changed_in_the_config_and_bad_entries_are_all_named():
    keys = ClaimKeys({"claim": "KEY_F13", "quine": ["KEY_A", "f14"]})
    assert keys.feed_all(press("KEY_F13", start=1)) == [None]
    assert keys.feed_all(press("KEY_A", start=2)) == ["quine"]
    assert keys.feed_all(press("KEY_ENTER", start=3)) == []  # claim's keys replaced, Enter no more one of them
    assert keys.feed_all(press("KEY_F14", start=4)) == ["quine"]
    with pytest.raises(ValueError) as info:
        build_claim_keys({"quin": "KEY_Q", "claim": "KEY_NOPE", "double_quine": ["KEY_D", "KEY_Q"]})
    message = str(info.value)
    assert "annex.keys.quin" in message and "KEY_NOPE" in message and "KEY_Q" in message and "quine" in message


def test_a_bad_key_in_the_annex_config_stops_it_before_it_starts():
    config = parse_config(
        {"annex": {"of": "http://127.0.0.1:8080", "room": "B", "keypad": "/dev/input/x", "keys": {"claim": "KEY_NO"}}}
    )
    assert config.annex is not None and config.annex.keypad == "/dev/input/x"
    assert any("KEY_NO" in p for p in problems(config.annex))
    assert problems(AnnexSection(of="http://127.0.0.1:8080", room="B", keypad="/dev/input/x")) == []
    with pytest.raises(ConfigError, match="keypad"):
        parse_config({"annex": {"of": "http://127.0.0.1:8080", "room": "B", "keypad": 3}})


def test_the_reader_hands_each_claim_press_to_the_claim_path_and_survives_an_unplug(tmp_path, fast_backoff):
    path = tmp_path / "push-button-event-kbd"
    path.touch()
    opened: list[PipeDevice] = []
    unplugged: dict = {}
    claims: queue.Queue = queue.Queue()

    def opener(p):
        opened.append(PipeDevice(p, unplugged))
        return opened[-1]

    statuses: list[str] = []

    class Said(KeysStatus):
        def set_device_status(self, device, status, *, code="", params=None):
            statuses.append(status)

    reader = AnnexKeysReader(Said(), str(path), claims.put, opener=opener, backoff=fast_backoff())
    reader.start()
    try:
        assert reader.connected.wait(5) and opened[0].grabbed  # grabbed: the key never reaches a console
        code = ecodes.KEY_ENTER
        opened[0].send(events(code, (1, 1.0), *((2, 1.3 + 0.03 * i) for i in range(20)), (0, 2.0)))  # held
        opened[0].send(press("KEY_A", "KEY_B", start=3.0))  # unmapped
        opened[0].send(press("KEY_Q", start=4.0))
        assert claims.get(timeout=5) is None
        assert claims.get(timeout=5) == "quine"
        opened[0].unplug()
        _wait_for(lambda: "absent" in statuses)
        unplugged.clear()
        _wait_for(lambda: len(opened) == 2 and statuses[-1] == "ok")
        opened[1].send(press("KEY_KPPLUS", start=10.0))
        assert claims.get(timeout=5) is None
    finally:
        reader.stop()
    assert claims.empty() and not reader.alive()


def _wait_for(predicate, timeout_s: float = 5.0) -> None:
    done = threading.Event()
    for _ in range(int(timeout_s / 0.05)):
        if predicate():
            return
        done.wait(0.05)
    raise AssertionError("not in time")


@pytest.mark.skipif(
    not os.path.exists("/dev/uinput"), reason="/dev/uinput does not exist here (no uinput module): runs on the Pi"
)
def test_a_virtual_push_button_through_the_kernel(fast_backoff):
    from evdev import UInput

    claims: queue.Queue = queue.Queue()
    with UInput({ecodes.EV_KEY: [ecodes.KEY_ENTER, ecodes.KEY_A]}, name="loto-hall test push button") as ui:
        reader = AnnexKeysReader(KeysStatus(), ui.device.path, claims.put, backoff=fast_backoff())
        reader.start()
        try:
            assert reader.connected.wait(5)
            for code in (ecodes.KEY_A, ecodes.KEY_ENTER):
                ui.write(ecodes.EV_KEY, code, 1)
                ui.write(ecodes.EV_KEY, code, 0)
                ui.syn()
            assert claims.get(timeout=5) is None
        finally:
            reader.stop()
    assert claims.empty()
