"""The hall under test for ``bench_crowd.py``: one process, or the core with relays and its own Redis (issue 25),
optionally held to a Raspberry Pi's CPU by ``/work/shared/tools/piclass`` (the whole hall inside, clients outside).

Redis runs inside the same CPU budget as the hall (it is part of the hall on the Pi). Stopping it for the outage is
``SHUTDOWN NOSAVE``; it is started again in the hall's CPU cgroup, so the budget stays the Pi's.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICLASS = "/work/shared/tools/piclass"
SLOWDISK = "/work/shared/tools/slowdisk/slowdisk"


def wait_answering(url: str, proc: subprocess.Popen | None = None, timeout: float = 180, step: float = 0.05) -> None:
    """Until ``url``'s ``GET /api/state`` answers 200; ``SystemExit`` if ``proc`` (when given) exits first or time runs out."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the hall exited ({proc.returncode})")
        try:
            with urllib.request.urlopen(url + "/api/state", timeout=5) as resp:
                if resp.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(step)
    raise SystemExit("the hall did not answer")


def _free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
        return True


def unused_port(first: int, last: int) -> int:
    """A port of ``first`` … ``last`` that nothing listens on (outside the ephemeral range, which 2 000 loopback
    sockets of the phones use up)."""
    return unused_ports(1, first, last)[0]


def unused_ports(count: int, first: int, last: int) -> list[int]:
    """``count`` consecutive ports of ``first`` … ``last`` that nothing listens on (relay *i* listens on
    ``socket_port + i``)."""
    for start in range(first, last - count + 2):
        if all(_free(port) for port in range(start, start + count)):
            return list(range(start, start + count))
    raise SystemExit(f"no {count} free ports in a row in {first}-{last}")


class BenchHall:
    """``loto-hall serve`` (and Redis with relays) started for a benchmark, stopped by ``close()``."""

    def __init__(
        self,
        data: Path,
        pins: dict,
        *,
        relays: int = 0,
        piclass_cores: int = 0,
        server: str = "gunicorn",
        extra: str = "",
        disk: str = "",
    ):
        self.data, self.relays = data, relays
        self.port = unused_port(18000, 18749)
        self.redis_port = 0
        self.redis_pid: int | None = None
        queue = ""
        if relays:
            # every port the hall listens on outside the ephemeral range: a relay port there was, now and then, a
            # phone's or nginx's connection's, the relay could not listen for up to a minute, and its share of the
            # phones went to the others (a run's p99 1.0 s against 0.2 s: the issue's « 149, 1 224 and 590 ms »)
            self.redis_port, core, staff, *relay_ports = unused_ports(3 + relays, 19000, 19999)  # Redis comes back
            queue = (
                f'message_queue = "redis://127.0.0.1:{self.redis_port}/0"\nsocket_workers = {relays}\n'
                f"core_port = {core}\nsocket_port = {relay_ports[0]}\nstaff_port = {staff}\n"
            )
        config = data / "loto-hall.toml"
        config.write_text(
            '[hall]\ndata_dir = "%s/data"\n[auth]\n%s\n[server]\nhost = "127.0.0.1"\n'
            "worker_connections = 6000\nmax_public_sockets = 5000\nthreads = 3000\n"
            "max_connections_per_address = 1000\n%s%s"
            % (data, "\n".join(f'{k} = "{v}"' for k, v in pins.items()), queue, extra)
        )
        env = {**os.environ, "LOTO_HALL_SERVER": server, "PYTHONPATH": str(ROOT)}
        serve = [sys.executable, "-m", "hall.app", "serve", "--config", str(config), "--port", str(self.port)]
        command = " ".join(shlex.quote(a) for a in serve)
        if relays:
            command = f"{self._redis_command()} & exec {command}"
        argv = ["sh", "-c", command]
        if disk:  # a Pi's storage for every process of the hall (slowdisk --profile sd|ssd)
            argv = [SLOWDISK, "--profile", disk, "--", *argv]
        if piclass_cores:
            argv = [PICLASS, "--cores", str(piclass_cores), "--", *argv]
        self.proc = subprocess.Popen(
            argv,
            env=env,
            cwd=data,
            stdout=open(data / "serve.log", "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.url = f"http://127.0.0.1:{self.port}"

    def _redis_command(self) -> str:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        return (
            f"{binary} --port {self.redis_port} --bind 127.0.0.1 --save '' --appendonly no "
            f"--pidfile {self.data}/redis.pid --logfile {self.data}/redis.log"
        )

    @property
    def socket_path(self) -> str:
        return "/live/socket.io/" if self.relays else "/socket.io/"

    # ---- Redis away and back (the outage of issue 25)
    def stop_redis(self) -> None:
        import redis

        try:
            redis.Redis(port=self.redis_port, socket_timeout=5).shutdown(nosave=True)
        except redis.exceptions.ConnectionError:
            pass  # it answers the shutdown by closing the connection

    def start_redis(self) -> None:
        cgroup = self._hall_cgroup()
        proc = subprocess.Popen(shlex.split(self._redis_command()), cwd=self.data, start_new_session=True)
        if cgroup is not None:
            try:
                (cgroup / "cgroup.procs").write_text(str(proc.pid))
            except OSError as exc:
                print(f"(Redis restarted outside the Pi's CPU cgroup: {exc})")
        self.redis_pid = proc.pid

    def _hall_cgroup(self) -> Path | None:
        """The piclass leaf the hall started in (cgroup v1 or v2), or None without piclass."""
        for pid in self.tree():
            try:
                for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
                    path = line.split(":", 2)[2]
                    if "piclass-" in path:
                        top = path[: path.index("piclass-")] + path[path.index("piclass-") :].split("/")[0]
                        for base in (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")):
                            leaf = base / top.lstrip("/") / "start"
                            if leaf.is_dir():
                                return leaf
            except (OSError, IndexError, ValueError):
                continue
        return None

    def relay_clients(self) -> dict[str, int]:
        """How many phones each live relay carries (``host:pid`` → phones), from their reports in Redis."""
        if not self.relays:
            return {}
        import json

        import redis

        MAC_CHARS = 64  # display.relay_seal's (named here: the bench also drives older trees)

        try:
            reports = redis.Redis(port=self.redis_port, socket_timeout=5).hgetall("loto-hall:relays")
        except redis.exceptions.RedisError:
            return {}
        alive = set(self.tree())
        carried = {}
        for relay, text in reports.items():
            pid = int(relay.rsplit(b":", 1)[1])
            if pid in alive:  # sealed: the JSON after the seal (an older tree's, unsealed, is read as it is)
                report = json.loads(text if text.startswith(b"{") else text[MAC_CHARS:])
                carried[relay.decode()] = report.get("clients", 0)
        return carried

    def kill_busiest_relay(self) -> tuple[str, float]:
        """SIGKILL the relay carrying the most phones; (its id, when)."""
        carried = self.relay_clients()
        victim = max(carried, key=lambda relay: carried[relay])
        killed_at = time.time()
        os.kill(int(victim.rsplit(":", 1)[1]), signal.SIGKILL)
        return victim, killed_at

    # ---- processes and their memory
    def tree(self) -> list[int]:
        """Every process of the hall (the wrapper, the core, the relays, nginx, Redis)."""
        return [pid for pid, _ in self.tree_depths()]

    def tree_depths(self) -> list[tuple[int, int]]:
        """(pid, depth) of every process of the hall, parents before children."""
        children: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                children.setdefault(ppid, []).append(int(entry.name))
        out: list[tuple[int, int]] = []
        todo = [(self.proc.pid, 0)]
        while todo:
            pid, depth = todo.pop()
            out.append((pid, depth))
            todo += [(c, depth + 1) for c in sorted(children.get(pid, []), reverse=True)]
        if self.redis_pid:
            out.append((self.redis_pid, 1))
        return out

    def rss(self) -> list[tuple[str, float]]:
        """(role, RSS MB) of each process of the hall (not the shell and piclass wrappers)."""
        rows, roles = [], {}
        python_depth = None
        for pid, depth in self.tree_depths():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                ppid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
            except (OSError, StopIteration, ValueError):
                continue
            name = next((line.split()[1] for line in status.splitlines() if line.startswith("Name:")), "?")
            kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
            if name in ("sh", "bash", "sleep", "piclass") or not kb:
                continue
            if name.startswith("python"):
                if python_depth is None:
                    python_depth = depth
                level = depth - python_depth
                siblings = [r for r, p in roles.values() if p == ppid]
                if level == 0:
                    role = "serve" if self.relays else "arbiter"
                elif level == 1 and self.relays:
                    role = ("core arbiter", "relays arbiter")[min(len(siblings), 1)]
                elif level == 1:
                    role = "worker"
                else:
                    role = roles.get(ppid, ("?", 0))[0].replace("arbiter", "worker")
                roles[pid] = (role, ppid)
            else:
                role = name
            rows.append((role, kb / 1024))
        return rows

    def close(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.redis_pid:
            try:
                os.kill(self.redis_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        time.sleep(0.2)
