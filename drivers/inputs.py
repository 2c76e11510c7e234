"""The hall's input devices, built from the config: ball machine, keypad, scanner, and the demo's simulated machine.

``start_inputs`` returns the services unstarted (``Runtime.start_services`` starts them, each ``start()``
is idempotent). A device that cannot even be set up (evdev missing, a bad key name) is reported as a
device status and left out: the hall runs on, the speaker types numbers at the console.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path

from hall import ConfigError
from hall.config import BallMachineSection, Config
from hall.ports import HallPort
from hall.requests import DrawRequested

log = logging.getLogger("loto-hall.drivers")

DEMO_DEBOUNCE_S = 0.5


def demo_ball_source(hall: HallPort):
    """The simulator's next ball in the demo: one the running partie has not drawn, ``None`` while it cannot draw."""

    def next_ball(rng: random.Random) -> int | None:
        left = hall.drawable_numbers()  # empty while the hall may not draw
        return rng.choice(left) if left else None

    return next_ball


def _evdev_reader(hall: HallPort, name: str, build):
    try:
        return build()
    except ImportError as exc:
        log.warning("%s: evdev unavailable (%s): install loto-hall[pi]", name, exc)
        hall.set_device_status(name, "absent", code="evdev_missing")
    return None


def start_inputs(
    hall: HallPort, config: Config, *, demo: bool = False, data_dir: Path | None = None, interval_s: float | None = None
) -> list:
    """The configured input readers (and, in demo without a ball machine, a simulator on a pty with its reader)."""
    from drivers.ball_machine import BallMachineReader

    services: list = []
    if config.ball_machine is not None:
        try:
            services.append(BallMachineReader(hall, config.ball_machine))
        except ValueError as exc:
            raise ConfigError([str(exc)], "ball_machine") from None
    elif demo:
        from drivers.ball_sim import BallSimulator

        link = str(Path(data_dir) / "ball-machine.tty") if data_dir is not None else None
        sim = BallSimulator(interval_s=interval_s, count=None, ball_source=demo_ball_source(hall), link=link)
        path = sim.open()
        log.info("demo: simulated ball machine on %s", path)
        services.append(BallMachineReader(hall, BallMachineSection(port=path, debounce_s=DEMO_DEBOUNCE_S)))
        services.append(sim)  # after its reader: the simulator writes only once the port is held open
        if interval_s is None:  # the demo waits for the speaker: « Tirer » with nothing typed asks for a ball
            hall.subscribe_notices(
                lambda name, payload: sim.request_ball() if isinstance(payload, DrawRequested) else None
            )

    if config.keypad is not None:

        def keypad():
            from drivers.keypad import KeypadReader

            return KeypadReader(hall, config.keypad)

        try:
            reader = _evdev_reader(hall, "keypad", keypad)
        except ValueError as exc:  # a bad [keypad] keys entry
            raise ConfigError(str(exc).splitlines(), "keypad") from None
        if reader is not None:
            services.append(reader)

    if config.scanner is not None:

        def scanner():
            from drivers.scanner import ScannerReader

            return ScannerReader(hall, config.scanner)

        reader = _evdev_reader(hall, "scanner", scanner)
        if reader is not None:
            services.append(reader)
    return services
