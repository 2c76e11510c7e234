"""The drivers and the phones' relays publish codes and parameters only: every device status and notice a person
reads is worded in display/'s one catalogue (display/i18n.py), in the reader's language — never a publisher's own
French sentence."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRIVERS = ROOT / "drivers"
RELAYS = ROOT / "display" / "relay_publisher.py"  # the device ``relays``: the core's side of the queue
CODE = re.compile(r"[a-z0-9_:-]*")  # a code, a device, a notice's name, an encoding: never words
# the calls through which a driver tells the hall (and so the speaker) something
PUBLISHING = {
    "set_device_status",
    "notify",
    "tell",
    "notice",
    "PrinterAway",
    "_status",
    "_warned",
    "_report",
    "_notify_refused",
}
WORDS = {"detail", "message"}  # what a sentence for people was carried in


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _strings(node: ast.AST):
    """Every string constant in ``node``, an f-string's fixed parts included."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub


def _sentences(path: Path) -> list[str]:
    """Each text a publishing call in ``path`` carries that is not a code: a sentence meant for people."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call) or _name(node) not in PUBLISHING:
            continue
        where = f"{path.name}:{node.lineno} {_name(node)}"
        if _name(node) == "set_device_status" and len(node.args) > 2:
            found.append(f"{where}: a detail argument")
        for keyword in node.keywords:
            if keyword.arg in WORDS:
                found.append(f"{where}: {keyword.arg}=")
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(arg, ast.Dict):
                found += [
                    f"{where}: a {key.value!r} key"
                    for key in arg.keys
                    if isinstance(key, ast.Constant) and key.value in WORDS
                ]
            for text in _strings(arg):
                if not CODE.fullmatch(text.value):
                    found.append(f"{where}: {ast.unparse(text)}")
    return found


def test_no_driver_publishes_a_sentence():
    sentences = [s for path in sorted(DRIVERS.glob("*.py")) for s in _sentences(path)]
    assert not sentences, "\n".join(sentences)


def test_the_relays_publish_no_sentence():
    assert _sentences(RELAYS) == []


def test_the_check_sees_a_sentence_where_there_is_one(tmp_path):
    """The checks above are not blind: the shapes the drivers and the relays used to publish are each caught."""
    old = tmp_path / "old.py"
    old.write_text(
        'hall.set_device_status("printer", "ok", "Imprimante prête.", code="printer_ready")\n'
        'hall.set_device_status(name, "absent", detail=f"{label} : module evdev absent", code="evdev_missing")\n'
        'hall.notify("keypad:refused", {"code": exc.code, "message": message})\n'
        'raise PrinterAway("Capot de l\'imprimante ouvert", "printer_cover_open")\n'
        'self._status("degraded", f"Test impossible : {exc}", "printer_test_failed")\n'
        'self.hall.set_device_status("relays", "degraded", f"relais sourd ({names})", code="relays_deaf")\n'
    )
    assert {int(s.split(":")[1].split()[0]) for s in _sentences(old)} == {1, 2, 3, 4, 5, 6}
    new = tmp_path / "new.py"
    new.write_text(
        'hall.set_device_status("printer", "ok", code="printer_ready")\n'
        'hall.notify("draw:refused", {"source": self.name, "number": n, "code": "no_match"})\n'
    )
    assert _sentences(new) == []


def _published_codes() -> set[str]:
    """Every status code the drivers and the relays can publish, read from their source (each reader's
    ``<name>_<situation>``)."""
    from drivers.ball_machine import BallMachineReader
    from drivers.keypad import KeypadReader
    from drivers.scanner import ScannerReader

    codes, situations = set(), set()
    for path in [*DRIVERS.glob("*.py"), RELAYS]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                at = {"PrinterAway": 0, "_status": 1, "_warned": 1, "_report": 1}.get(_name(node))
                if at is not None and len(node.args) > at and isinstance(node.args[at], ast.Constant):
                    (situations if _name(node) == "_report" else codes).add(node.args[at].value)
                codes |= {k.value.value for k in node.keywords if k.arg == "code" and isinstance(k.value, ast.Constant)}
            if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["PAPER_LOW"]:
                codes.add(ast.literal_eval(node.value))
    readers = {BallMachineReader.name, KeypadReader.name, ScannerReader.name}
    return codes | {f"{reader}_{situation}" for reader in readers for situation in situations}


def test_every_code_a_driver_publishes_has_its_sentence_in_the_catalogue():
    from display.i18n import DEVICE_MESSAGES

    codes = _published_codes()
    assert {
        "ball_machine_lost",
        "keypad_missing",
        "scanner_open",
        "evdev_missing",
        "printer_waiting",
        "printer_cover_open",
        "printer_paper_low",
        "printer_unconfigured",
        "printer_test_printed",
        "relays_ok",
        "relays_missing",
        "relays_deaf",
        "relays_queue_away",
    } <= codes
    assert sorted(codes - set(DEVICE_MESSAGES)) == []
