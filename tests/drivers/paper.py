"""Paper: vouchers on a real TCP socket, the print queue, carton sheets, the evening's report.

Small helpers shared by these tests (no fixtures here: ``tests/conftest.py`` gives ``make_hall``).
"""

from __future__ import annotations

import threading

from display import views
from hall.cartons.cards import Card
from hall.cartons.planches import generate_cards

# Two cartons whose first rows both complete on 45: a quine tie (then a tie-break and a consolation).
X_ID, Y_ID = "T-X1", "T-Y1"
TIE_CARDS = {
    X_ID: Card.parse("1 12 23 34 45 / 2 13 24 35 46 / 3 14 25 36 47"),
    Y_ID: Card.parse("5 16 27 38 45 / 6 17 28 39 48 / 7 18 29 50 60"),
}


def some_cards(count: int = 12, series: str = "P", seed: int = 7) -> dict[str, Card]:
    return dict(generate_cards(count, seed=seed, series=series))


class Recorder:
    """Follows a hall's records and notices from its subscriber callbacks; waits without sleeping."""

    def __init__(self, hall):
        self.cond = threading.Condition()
        self.printed: list[tuple[str, bool]] = []
        self.notices: list[dict] = []
        hall.subscribe(self._record)
        hall.subscribe_notices(self._notice)

    def _record(self, record) -> None:
        if record.type == "voucher:printed":
            with self.cond:
                self.printed.append((record.event.code, record.event.duplicate))
                self.cond.notify_all()

    def _notice(self, name: str, payload) -> None:
        payload = views.notice(name, payload)[1]
        if name == "device:status_changed" and payload["device"] == "printer":
            with self.cond:
                self.notices.append(dict(payload))
                self.cond.notify_all()

    def wait_printed(self, count: int, timeout: float = 15.0) -> list[tuple[str, bool]]:
        with self.cond:
            if not self.cond.wait_for(lambda: len(self.printed) >= count, timeout):
                raise TimeoutError(f"{count} voucher(s) expected printed, {len(self.printed)} so far")
            return list(self.printed)

    def wait_notice(self, predicate, timeout: float = 15.0) -> dict:
        with self.cond:
            found = []
            ok = self.cond.wait_for(lambda: found.extend(n for n in self.notices if predicate(n)) or found, timeout)
            if not ok:
                raise TimeoutError(f"no such printer notice; got {self.notices}")
            return found[0]


def win_quine(hall, card_id: str, drawn: set[int] | None = None) -> dict:
    """Draw the first row of ``card_id`` (skipping balls already out), check the claim, award the lot."""
    p = hall.evening.running
    row = hall.book.get(card_id).rows[0]
    for n in row:
        if n not in p.draws:
            hall.draw(n, role="speaker")
    verdict = views.verdict(hall.check_claim(card_id, role="controller"))
    assert verdict["verdict"] == "valid", verdict
    return views.award(hall.award(role="speaker"))


def play_tie(hall) -> dict:
    """Start a partie and award its quine to ``X_ID`` and ``Y_ID`` tied on 45."""
    hall.start_partie(role="speaker")
    for n in (1, 12, 23, 34, 5, 16, 27, 38, 45):
        hall.draw(n, role="speaker")
    assert views.verdict(hall.check_claim(X_ID, role="controller"))["verdict"] == "valid"
    assert views.verdict(hall.check_claim(Y_ID, role="controller"))["verdict"] == "valid"
    return views.award(hall.award(role="speaker"))


def queue_while_away(hall, printed_type: str, field: str, count: int):
    """A print queue on a port where no printer listens yet (the printer away), and the ``field`` of each
    ``printed_type`` record journalled: ``(port, queue, printed, done)``, ``done`` set once ``count`` are printed.
    The test starts ``PrinterSink(port=port)`` when the printer comes back."""
    from drivers.printer import EscposDevice, PrintQueue
    from drivers.printer_sink import PrinterSink

    probe = PrinterSink()
    probe.start()
    port = probe.port
    probe.stop()
    printed: list = []
    done = threading.Event()

    def seen(record) -> None:
        if record.type == printed_type:
            printed.append(getattr(record.event, field))
            if len(printed) == count:
                done.set()

    hall.subscribe(seen)
    queue = PrintQueue(
        hall, EscposDevice(f"tcp://127.0.0.1:{port}?timeout=2"), retry_initial_s=0.005, retry_max_s=0.05, poll_s=None
    )
    return port, queue, printed, done
