"""systemd's notify protocol, end to end and piece by piece.

The service runs as a child with ``NOTIFY_SOCKET`` on a real datagram socket made here, as systemd does:
READY=1 only once ``GET /api/state`` answers; WATCHDOG=1 keeps coming; SIGTERM → STOPPING=1, exit 0.
The supervisor is unit-tested with fake services and a held hall lock: a stuck worker stops the pings.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import uuid
from types import SimpleNamespace

import pytest

from hall.app.sdnotify import Notifier
from hall.app.supervisor import Supervisor, device_sentence, hall_sentence
from hall.record.journal import Journal
from hall.snapshots import DeviceStatus

from .conftest import get_json

WATCHDOG_USEC = 200_000  # pings every 0.1 s


# ---- the sender --------------------------------------------------------------------------------
def test_without_notify_socket_every_call_is_a_noop():
    notifier = Notifier.from_env({})
    assert not notifier.enabled and notifier.watchdog_interval_s is None
    assert notifier.ready() is False and notifier.watchdog() is False and notifier.stopping() is False


def test_datagrams_reach_a_path_socket(notify):
    notifier = Notifier.from_env({"NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "30000000"})
    assert notifier.watchdog_interval_s == 15.0
    notifier.ready("salle prête")
    assert notify.wait_for("READY=1") == "READY=1\nSTATUS=salle prête"
    notifier.status("machine à boules\ndéconnectée")  # one line: the protocol splits on newlines
    assert notify.wait_for("STATUS=machine à boules déconnectée")
    notifier.stopping()
    assert notify.wait_for("STOPPING=1") == "STOPPING=1"


def test_abstract_socket_names_start_with_at():
    name = f"loto-hall-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert Notifier(f"@{name}").watchdog()
        assert sock.recv(100) == b"WATCHDOG=1"


def test_watchdog_meant_for_another_pid_is_ignored():
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}
    assert Notifier.from_env(env, pid=2).watchdog_usec is None
    assert Notifier.from_env(env, pid=1).watchdog_usec == 1_000_000


def test_taking_the_variables_hides_them_from_children_and_gunicorn():
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000000", "PATH": "/bin"}
    notifier = Notifier.from_env(env, take=True)
    assert notifier.address == "/run/x" and env == {"PATH": "/bin"}


def test_a_vanished_systemd_never_raises():
    assert Notifier("/tmp/no-such-dir-for-loto-hall/notify").ready() is False


# ---- the supervisor -------------------------------------------------------------------------------
class FakeService:
    def __init__(self, name: str):
        self.name, self.is_alive = name, True

    def alive(self) -> bool:
        return self.is_alive


class FakeHall:
    """What the supervisor reads of a hall (``health``, ``devices``), with a lock a test can hold."""

    def __init__(self, devices: dict | None = None, running=None):
        self._lock = threading.RLock()
        self._devices = tuple(
            DeviceStatus(d["device"], d["status"], d.get("code", ""), {}) for d in (devices or {}).values()
        )
        self._snap = SimpleNamespace(running=running)

    def health(self, timeout_s: float):
        if not self._lock.acquire(timeout=timeout_s):
            return None
        self._lock.release()
        return self._snap

    def devices(self):
        return self._devices


def fake_hall(devices: dict | None = None, running=None) -> FakeHall:
    return FakeHall(devices, running)


def pings(messages: list[str]) -> int:
    return sum("WATCHDOG=1" in m.split("\n") for m in messages)


def test_status_sentences_read_like_french():
    assert (
        device_sentence({"device": "ball_machine", "status": "absent", "code": "ball_machine_lost"})
        == "machine à boules déconnectée"
    )
    assert device_sentence({"device": "keypad", "status": "absent"}) == "clavier déconnecté"
    assert (
        device_sentence({"device": "printer", "status": "degraded", "code": "printer_no_paper"})
        == "imprimante en difficulté (printer_no_paper)"
    )
    assert device_sentence({"device": "printer", "status": "ok", "code": "printer_ready"}) is None
    hall = fake_hall(
        {"ball_machine": {"device": "ball_machine", "status": "absent", "code": "ball_machine_lost"}},
        running=SimpleNamespace(number=2, draws=[4, 13, 37]),
    )
    assert hall_sentence(hall.health(1), hall.devices()) == "partie 2, 3 numéros tirés — machine à boules déconnectée"
    assert hall_sentence(fake_hall().health(1), ()) == "en attente de partie — appareils OK"


def test_status_names_a_drivers_trouble_by_its_code():
    """The drivers and the phones' relays publish a code and no sentence: ``systemctl status`` says what to fix by
    that code."""
    paper = DeviceStatus("printer", "degraded", "printer_waiting", {"reason": "printer_no_paper"})
    lost = DeviceStatus("ball_machine", "absent", "ball_machine_lost", {"path": "/dev/ttyUSB0"})
    deaf = DeviceStatus("relays", "degraded", "relays_deaf", {"relay": "pi:11"})
    assert hall_sentence(fake_hall().health(1), (paper, lost, deaf)) == (
        "en attente de partie — imprimante en difficulté (printer_waiting printer_no_paper) · machine à boules "
        "déconnectée · relais des téléphones en difficulté (relays_deaf)"
    )


def test_supervisor_pings_while_everything_is_alive_and_stops_when_a_worker_dies(notify):
    service = FakeService("ball_machine")
    notifier = Notifier(notify.path, WATCHDOG_USEC)
    supervisor = Supervisor(fake_hall(), [service], notifier)
    supervisor.start()
    try:
        assert pings(notify.collect(0.5)) >= 3
        service.is_alive = False
        notify.wait_for("STATUS=BLOQUÉ : ball_machine arrêté — en attente de partie — appareils OK")
        assert pings(notify.collect(0.5)) == 0
        service.is_alive = True  # a check that passes again earns pings again
        notify.wait_for("WATCHDOG=1")
    finally:
        supervisor.stop()


def test_a_held_hall_lock_stops_the_pings(notify):
    hall = fake_hall()
    supervisor = Supervisor(hall, [], Notifier(notify.path, WATCHDOG_USEC))
    assert supervisor.tick().ok
    notify.wait_for("WATCHDOG=1")
    held, release = threading.Event(), threading.Event()

    def stuck_command():  # a thread stuck inside a Hall command
        with hall._lock:
            held.set()
            release.wait(10)

    thread = threading.Thread(target=stuck_command)
    thread.start()
    held.wait(5)
    try:
        health = supervisor.tick()
        assert not health.ok and "salle bloquée" in health.status
        supervisor.start()
        assert pings(notify.collect(0.5)) == 0
    finally:
        release.set()
        thread.join()
        supervisor.stop()


def test_a_service_whose_alive_raises_counts_as_dead():
    class Broken:
        name = "printer"

        def alive(self):
            raise RuntimeError("boom")

    health = Supervisor(fake_hall(), [Broken()], Notifier(None), interval_s=1).check()
    assert not health.ok and health.problems == ("printer arrêté",)


# ---- the real service ------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("server", ["gunicorn", "werkzeug"])
def test_service_ready_only_when_answering_then_watchdog_then_clean_stop(run_hall, notify, tmp_path, server):
    data = tmp_path / "data"
    hall = run_hall(
        ["--demo", "--data-dir", str(data), "--interval", "3600"],
        notify=notify,
        watchdog_usec=WATCHDOG_USEC,
        env={"LOTO_HALL_SERVER": server},
    )
    notify.wait_for("READY=1", timeout_s=60)
    # The moment READY=1 arrives, the web answers: systemd may start the kiosk now.
    status, state = get_json(hall.url + "/api/state", timeout_s=2)
    assert status == 200 and "seq" in state
    assert not any("Gunicorn" in m for _, m in notify.messages), "gunicorn's own early READY=1 leaked"

    assert pings(notify.collect(1.0)) >= 4
    assert any(m.startswith("STATUS=en attente de partie") for _, m in notify.messages)  # the demo's partie 1 waits

    hall.signal(signal.SIGTERM)
    notify.wait_for("STOPPING=1", timeout_s=10)
    assert hall.wait(30) == 0, hall.output()
    assert "journal fermé proprement" in hall.output()
    journal = Journal(data / "journal.sqlite")  # closed cleanly: opens, checks and replays
    try:
        assert journal.integrity_check() == "ok" and journal.last_seq >= state["seq"]
        assert [r.seq for r in journal.records()] == list(range(1, journal.last_seq + 1))
    finally:
        journal.close()


def test_a_config_error_never_reports_ready(run_hall, notify, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[server]\nprot = 8080\n", encoding="utf-8")
    hall = run_hall(["--config", str(bad)], notify=notify)
    assert hall.wait(30) != 0
    assert "prot" in hall.output() and "port" in hall.output()  # the key named, with "did you mean"
    assert not any("READY=1" in m for m in notify.collect(0.1))


def worker_pids(arbiter_pid: int) -> list[int]:
    with open(f"/proc/{arbiter_pid}/task/{arbiter_pid}/children") as fh:
        return [int(pid) for pid in fh.read().split()]


def test_a_frozen_worker_stops_the_pings_of_the_real_service(run_hall, notify, tmp_path):
    hall = run_hall(
        ["--demo", "--data-dir", str(tmp_path / "data"), "--interval", "3600"],
        notify=notify,
        watchdog_usec=WATCHDOG_USEC,
    )
    notify.wait_for("READY=1", timeout_s=60)
    notify.wait_for("WATCHDOG=1")
    (worker,) = worker_pids(hall.proc.pid)
    os.kill(worker, signal.SIGSTOP)  # the whole hall frozen: no thread can earn a ping
    try:
        notify.collect(0.15)  # a ping already in the socket's queue
        assert pings(notify.collect(0.6)) == 0
    finally:
        os.kill(worker, signal.SIGCONT)
    notify.wait_for("WATCHDOG=1", timeout_s=5)


def test_supervisor_stopped_before_it_started_never_starts(notify):
    supervisor = Supervisor(fake_hall(), [], Notifier(notify.path, WATCHDOG_USEC))
    supervisor.stop()  # the hall closing while READY=1 is being sent
    supervisor.start()
    assert supervisor._thread is None and pings(notify.collect(0.3)) == 0


def test_ctrl_c_right_at_ready_closes_the_journal_and_exits_0(run_hall, notify, tmp_path):
    # Regression: a signal landing inside ThreadPoolExecutor.submit() deadlocked gthread's own
    # SIGQUIT handler, and a stop racing READY=1 left the journal open.
    hall = run_hall(["--demo", "--data-dir", str(tmp_path / "data"), "--interval", "3600"], notify=notify)
    notify.wait_for("READY=1", timeout_s=60)
    os.killpg(hall.proc.pid, signal.SIGINT)  # the terminal sends it to the whole group
    assert hall.wait(20) == 0, hall.output()
    assert "journal fermé proprement" in hall.output()


def test_the_demo_says_where_its_data_is_and_cleans_it_on_exit(run_hall, notify, tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    hall = run_hall(["--demo"], notify=notify, env={"LOTO_HALL_SERVER": "werkzeug", "TMPDIR": str(temp)})
    notify.wait_for("READY=1", timeout_s=60)
    folders = list(temp.glob("loto-hall-demo-*"))
    assert len(folders) == 1 and (folders[0] / "journal.sqlite").exists()
    assert f"données dans {folders[0]}" in hall.output()
    assert "« Tirer »" in hall.output()  # no --interval: the machine waits for the speaker
    status, state = get_json(hall.url + "/api/state", timeout_s=2)
    assert state["draws"] == []
    hall.signal(signal.SIGTERM)
    assert hall.wait(30) == 0, hall.output()
    assert not folders[0].exists()
