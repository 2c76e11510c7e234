"""Issue 31 item 7: the hall still works under the system-call filter its unit ships (``SystemCallFilter=`` of
systemd/loto-hall.service), with no systemd to apply it: the filter is read from the unit, its groups expanded by
``systemd-analyze syscall-filter``, and loaded with libseccomp (through ctypes) in a wrapper that then execs
``loto-hall serve``. Any call outside it kills the process (SIGSYS), stricter than the unit's EPERM, so nothing
the hall, gevent, gunicorn, pyserial on a pty, sd_notify, nginx or the relays ask for goes unseen.

The projector's Chromium runs under the kiosk unit's filter the way systemd applies it (EPERM): it probes calls no
group holds (landlock, io_uring…) and goes on without them, and refuses to start at all without its own sandbox
(user namespaces, chroot, capset, seccomp), so a page rendered proves the filter leaves that sandbox whole.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hall.app.demo import DEMO_PINS
from tests.app.conftest import START_TIMEOUT_S, free_port, get_json
from tests.app.relay_parts import Phone, RedisServer, needs_nginx, needs_redis, wait_until
from tests.app.test_staff_tls_serving import ask

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
ANALYZE = shutil.which("systemd-analyze")
LIBSECCOMP = ctypes.util.find_library("seccomp")
pytestmark = pytest.mark.skipif(
    ANALYZE is None or LIBSECCOMP is None, reason="systemd-analyze or libseccomp2 absent (Debian: systemd, libseccomp2)"
)
NOBODY = 65534  # as root (CI's container), the hall runs as an account of its own, as the unit's User= says

WRAPPER = r"""
import ctypes, json, os, sys
lib = ctypes.CDLL(sys.argv[1])
lib.seccomp_init.restype = ctypes.c_void_p
lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
lib.seccomp_load.argtypes = [ctypes.c_void_p]
ctx = lib.seccomp_init(int(os.environ.pop("SECCOMP_DEFAULT", 0x80000000)))    # SCMP_ACT_KILL_PROCESS
for name in json.load(open(sys.argv[2])):
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number >= 0:                                  # a name of another architecture
        assert lib.seccomp_rule_add(ctx, 0x7FFF0000, number, 0) == 0, name       # SCMP_ACT_ALLOW
assert lib.seccomp_load(ctx) == 0                      # no_new_privs is set first, as systemd does
os.execv(sys.argv[3], sys.argv[3:])
"""


def expand(name: str, seen: set[str] | None = None) -> set[str]:
    """The system calls of ``name`` (a call or an ``@group``, nested groups followed), as systemd reads them."""
    if not name.startswith("@"):
        return {name}
    seen = seen if seen is not None else set()
    if name in seen:
        return set()
    seen.add(name)
    listed = subprocess.run([ANALYZE, "syscall-filter", name], capture_output=True, text=True, timeout=30).stdout
    calls: set[str] = set()
    for line in listed.splitlines()[1:]:
        word = line.strip()
        if word and not word.startswith("#"):
            calls |= expand(word, seen)
    return calls


def unit_filter(unit: str) -> set[str]:
    """What the ``SystemCallFilter=`` lines allow, read in order as systemd does (the first an allow list): a ``~``
    line takes its calls out, any other line puts its calls in."""
    allowed: set[str] | None = None
    for line in (SYSTEMD / unit).read_text().splitlines():
        if line.startswith("SystemCallFilter="):
            value = line.split("=", 1)[1].strip()
            calls = set().union(*(expand(word) for word in value.lstrip("~").split()))
            if allowed is None:
                assert not value.startswith("~"), "the filter is an allow list"
                allowed = calls
            elif value.startswith("~"):
                allowed -= calls
            else:
                allowed |= calls
    assert allowed, f"{unit} has no SystemCallFilter="
    return allowed


class Filtered:
    """``loto-hall serve`` under the unit's filter, with ``NOTIFY_SOCKET`` as systemd gives it."""

    def __init__(self, tmp_path: Path, config: Path, port: int, notify, unit: str = "loto-hall.service"):
        calls = config.parent / "calls.json"
        calls.write_text(json.dumps(sorted(unit_filter(unit))))
        wrapper = config.parent / "seccomp_exec.py"
        wrapper.write_text(WRAPPER)
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
        env.update(PYTHONUNBUFFERED="1", LANG="C.UTF-8", NOTIFY_SOCKET=notify.path, WATCHDOG_USEC="2000000")
        self.port, self.log = port, open(tmp_path / "serve.log", "wb")
        as_user: dict = {}
        if os.geteuid() == 0:
            os.chmod(notify.dir, 0o755)
            os.chmod(notify.path, 0o666)
            as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(wrapper),
                LIBSECCOMP,
                str(calls),
                sys.executable,
                "-m",
                "hall.app",
                "serve",
                "--config",
                str(config),
                "--port",
                str(port),
            ],
            cwd=config.parent,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            **as_user,
        )
        self.url = f"http://127.0.0.1:{port}"

    def output(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.log.close()


@pytest.fixture
def home():
    """The hall's own folder (its config and data), the running account's: nobody's when the tests run as root."""
    folder = Path(tempfile.mkdtemp(prefix="loto-hall-seccomp-"))
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def write_config(home: Path, extra: str = "") -> Path:
    pins = "\n".join(f'{k} = "{v}"' for k, v in DEMO_PINS.items())
    config = home / "loto-hall.toml"
    config.write_text(f'[hall]\ndata_dir = "{home / "data"}"\n[auth]\n{pins}\n[server]\nhost = "127.0.0.1"\n{extra}')
    return config


def unverified():
    import ssl

    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


def speaker(url: str) -> dict:
    status, body = get_json(url + "/api/login", data={"pin": DEMO_PINS["speaker_pin"]})
    assert status == 200, body
    return {"Authorization": f"Bearer {body['token']}"}


def test_the_hall_serves_a_ball_machine_and_systemd_under_its_units_filter(tmp_path, home, notify):
    master, slave = os.openpty()
    if os.geteuid() == 0:
        os.chown(os.ttyname(slave), NOBODY, NOBODY)  # the ball machine's port is the hall's (udev's dialout)
    config = write_config(
        home, f'[ball_machine]\nport = "{os.ttyname(slave)}"\ndebounce_s = 0.0\n[printer]\nurl = "tcp://127.0.0.1:9"\n'
    )
    hall = Filtered(tmp_path, config, free_port(), notify)
    try:
        notify.wait_for("READY=1", START_TIMEOUT_S)
        notify.wait_for("WATCHDOG=1", 10)
        sp = speaker(hall.url)
        assert get_json(hall.url + "/api/partie/start", headers=sp, data={})[0] == 201
        os.write(master, b"42\r\n")  # pyserial's termios ioctls on a real pty
        wait_until(lambda: 42 in get_json(hall.url + "/api/state")[1]["draws"], 15, "the pty's ball never drawn")
        assert get_json(hall.url + "/api/draws", headers=sp, data={"number": 7})[0] == 201
        hall.proc.send_signal(signal.SIGTERM)
        notify.wait_for("STOPPING=1", 15)
        assert hall.proc.wait(30) == 0, hall.output()
    finally:
        hall.close()
        os.close(master)
        os.close(slave)
    assert "SIGSYS" not in hall.output()


@needs_redis
@needs_nginx
def test_the_front_and_the_relays_run_under_the_halls_filter(tmp_path, home, notify):
    redis = RedisServer(tmp_path)
    staff = free_port()
    config = write_config(
        home,
        f'message_queue = "{redis.url}"\nsocket_workers = 1\n'
        f"core_port = {free_port()}\nsocket_port = {free_port()}\nstaff_port = {staff}\n",
    )
    hall = Filtered(tmp_path, config, free_port(), notify)
    try:
        notify.wait_for("READY=1", START_TIMEOUT_S)
        assert get_json(hall.url + "/api/state")[0] == 200  # through nginx, forked by the hall
        status, _, cookie, _ = ask(
            "127.0.0.1", staff, "POST", "/api/login", json.dumps({"pin": DEMO_PINS["admin_pin"]}), unverified()
        )
        assert status == 200 and "Secure" in cookie  # the staff's port: nginx's TLS, the core's login
        phone = Phone(hall.url)  # a phone's WebSocket on the relay
        try:
            wait_until(lambda: phone.relays and phone.relays[0] != "core", 20, "no state from a relay")
            sp = speaker(hall.url)
            assert get_json(hall.url + "/api/partie/start", headers=sp, data={})[0] == 201
            assert get_json(hall.url + "/api/draws", headers=sp, data={"number": 42})[0] == 201
            wait_until(lambda: 42 in phone.draws, 20, "the ball never reached the phone through Redis")
        finally:
            phone.client.disconnect()
        hall.proc.send_signal(signal.SIGTERM)
        assert hall.proc.wait(30) == 0, hall.output()
    finally:
        hall.close()
        redis.close()
    assert "SIGSYS" not in hall.output()


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium absent (Debian package chromium)")
def test_the_projectors_chromium_keeps_its_own_sandbox_under_the_kiosks_filter(home):
    calls = home / "kiosk-calls.json"
    calls.write_text(json.dumps(sorted(unit_filter("loto-hall-kiosk.service"))))
    wrapper = home / "seccomp_exec.py"
    wrapper.write_text(WRAPPER)
    page = home / "projecteur.html"
    page.write_text("<!doctype html><title>projecteur</title><p id=board>42</p>")
    as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []} if os.geteuid() == 0 else {}
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SECCOMP_DEFAULT": str(0x00050001)}
    done = subprocess.run(
        [
            sys.executable,
            str(wrapper),
            LIBSECCOMP,
            str(calls),
            CHROMIUM,
            "--headless=new",
            "--disable-gpu",
            f"--user-data-dir={home / 'profile'}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        **as_user,
    )
    assert "No usable sandbox" not in done.stderr and "--no-sandbox" not in done.stderr, done.stderr[-2000:]
    assert '<p id="board">42</p>' in done.stdout, done.stderr[-2000:]
