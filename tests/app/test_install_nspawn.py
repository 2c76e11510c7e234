"""The install on a clean system (issue 42 item 4): a Debian 12 root made by mmdebstrap from Debian's own registry,
booted with ``systemd-nspawn --boot`` (its own network namespace: nothing reaches it, it reaches nothing), the hall
installed the documented way (``systemd/install.sh --wheelhouse DIR --no-config``: nothing downloaded inside),
then: the unit active, ``GET /api/state`` says ``"setup": true``, ``/setup`` without the projector's code is refused,
``loto-hall doctor`` runs, and ``systemd/uninstall.sh --purge`` leaves no unit, account or file behind (the file
list before and after, compared).

Slow (about a minute, the root tarball cached under ~/.cache/loto-hall): ``pytest tests/app/test_install_nspawn.py``.
It skips, saying why, without root, mmdebstrap, systemd-nspawn, or the registry.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
# what install.sh --wheelhouse needs already there (it downloads nothing): Python, its venv, openssl, the voice
INCLUDE = "systemd,systemd-sysv,dbus,udev,python3,python3-venv,openssl,espeak-ng"
CACHE = Path.home() / ".cache" / "loto-hall"
# what changes by itself on a running system, whatever is installed: not compared
VOLATILE = ("proc", "sys", "dev", "run", "tmp", "var/tmp", "var/log", "var/cache", "var/lib/systemd", "var/lib/dbus")


def _skip_unless_possible() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root (mmdebstrap, systemd-nspawn, nsenter)")
    for tool in ("mmdebstrap", "systemd-nspawn", "nsenter"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} missing (apt-get install mmdebstrap systemd-container)")


def _root_tarball() -> Path:
    """The Debian 12 minbase root, made once and kept (a re-run unpacks it in a second)."""
    tag = hashlib.sha256(INCLUDE.encode()).hexdigest()[:12]
    tarball = CACHE / f"bookworm-minbase-{tag}.tar"
    if tarball.exists():
        return tarball
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = tarball.with_suffix(".part.tar")
    made = subprocess.run(
        ["mmdebstrap", "--variant=minbase", f"--include={INCLUDE}", "bookworm", str(partial)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if made.returncode != 0:
        partial.unlink(missing_ok=True)
        pytest.skip(f"mmdebstrap could not reach Debian's registry: {made.stderr[-400:]}")
    partial.rename(tarball)
    return tarball


def _wheelhouse(into: Path) -> Path:
    """The project's wheel and every dependency's, built here with the venv's pip (the registry available here)."""
    made = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "-w", str(into), f"{REPO}[pi]"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if made.returncode != 0:
        pytest.skip(f"pip wheel could not build the wheelhouse: {made.stderr[-400:]}")
    return into


class Container:
    """A booted systemd-nspawn container, reached with nsenter."""

    def __init__(self, root: Path, log: Path):
        self.root = root
        self.proc = subprocess.Popen(
            ["systemd-nspawn", "--register=no", "--keep-unit", "--private-network", "-q", "-D", str(root), "--boot"],
            stdin=subprocess.DEVNULL,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.leader = self._leader()

    def _leader(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            kids = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
            if kids:
                return int(kids[0])
            assert self.proc.poll() is None, "systemd-nspawn stopped at once"
            time.sleep(0.2)
        raise AssertionError("no init in the container after 60 s")

    def run(self, *cmd: str, timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess:
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
        done = subprocess.run(
            ["nsenter", "-t", str(self.leader), "-a", "env", "-C", "/", *cmd],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
        if check:
            assert done.returncode == 0, (cmd, done.stdout[-2000:], done.stderr[-2000:])
        return done

    def wait_running(self) -> None:
        deadline = time.monotonic() + 120
        state = ""
        while time.monotonic() < deadline:
            state = self.run("systemctl", "is-system-running", check=False).stdout.strip()
            if state in ("running", "degraded"):
                return
            time.sleep(0.5)
        raise AssertionError(f"the container never finished booting: {state}")

    def get(self, path: str) -> tuple[int, str]:
        """An HTTP GET on the hall inside, from inside (its network is its own)."""
        code = (
            "import sys, urllib.request, urllib.error\n"
            "try:\n r = urllib.request.urlopen('http://127.0.0.1:8080' + sys.argv[1], timeout=10)\n"
            " print(r.status); print(r.read().decode())\n"
            "except urllib.error.HTTPError as e:\n print(e.code); print(e.read().decode())\n"
        )
        out = self.run("python3", "-I", "-c", code, path).stdout
        status, _, body = out.partition("\n")
        return int(status), body

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # systemd-nspawn asks the container's init to power off
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def file_list(root: Path) -> dict[str, tuple]:
    """Every path of the root but the volatile ones: its owner and mode, and the content's hash under /etc."""
    found: dict[str, tuple] = {}
    skip = {root / v for v in VOLATILE}
    for here, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if Path(here, d) not in skip and d != "__pycache__"]
        for name in dirs + files:
            path = Path(here, name)
            rel = str(path.relative_to(root))
            if rel.startswith("etc/") and name.endswith("-"):  # shadow's own backups (passwd-, group-)
                continue
            st = path.lstat()
            digest = ""
            if rel.startswith("etc/") and path.is_file() and not path.is_symlink():
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            found[rel] = (st.st_uid, st.st_gid, st.st_mode, digest)
    return found


@pytest.fixture
def container(tmp_path):
    _skip_unless_possible()
    tarball = _root_tarball()
    wheels = _wheelhouse(tmp_path / "wheelhouse")
    root = tmp_path / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xf", str(tarball)], check=True, timeout=300)  # owners, modes as made
    # the project as the documented path has it: its systemd/ and docs/ beside the wheelhouse (not /tmp: a tmpfs inside)
    src = root / "srv" / "loto-hall"
    shutil.copytree(REPO / "systemd", src / "systemd")
    shutil.copytree(REPO / "docs", src / "docs", ignore=shutil.ignore_patterns("screenshots"))
    shutil.copytree(wheels, root / "srv" / "wheelhouse")
    box = Container(root, tmp_path / "nspawn.log")
    try:
        box.wait_running()
        yield box
    finally:
        box.stop()


def test_install_runs_the_hall_in_setup_mode_and_uninstall_leaves_nothing(container):
    box = container
    box.run("python3", "-I", "-c", "import urllib.request, json")  # Python's own bytecode, before the snapshot
    before = file_list(box.root)

    started = time.monotonic()
    done = box.run("/srv/loto-hall/systemd/install.sh", "--wheelhouse", "/srv/wheelhouse", "--no-config", timeout=600)
    install_s = time.monotonic() - started
    assert "apt-get" not in done.stdout  # everything was there: nothing asked of the registry
    assert not (box.root / "etc/loto-hall/config.toml").exists()

    assert box.run("systemctl", "is-active", "loto-hall.service", check=False).stdout.strip() == "active"
    status, body = box.get("/api/state")
    assert status == 200 and '"setup":true' in body.replace(" ", ""), body[:400]
    status, body = box.get("/setup")
    assert status == 403, (status, body[:400])

    doctor = box.run(
        "sh",
        "-c",
        "cd /var/lib/loto-hall && runuser -u loto-hall -- /opt/loto-hall/venv/bin/loto-hall doctor",
        check=False,
    )
    assert "Traceback" not in doctor.stderr, doctor.stderr[-2000:]
    assert doctor.stdout.strip(), doctor.stderr[-2000:]
    assert doctor.returncode in (0, 1), (doctor.returncode, doctor.stderr[-2000:])

    box.run("/srv/loto-hall/systemd/uninstall.sh", "--purge")
    assert box.run("systemctl", "list-unit-files", "loto-hall*", check=False).stdout.count("loto-hall") == 0
    assert box.run("getent", "passwd", "loto-hall", check=False).returncode == 2
    after = file_list(box.root)
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    assert (added, removed, changed) == ([], [], []), (added[:40], removed[:40], changed[:40])
    print(f"install.sh --wheelhouse in the container: {install_s:.1f} s")
