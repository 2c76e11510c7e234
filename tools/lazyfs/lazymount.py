"""A LazyFS mount for power-cut tests: a FUSE file system (dsrhaslab/lazyfs, built by ``build.sh`` beside this file)
that keeps every write in its own page cache until the writer fsyncs it, and drops every unsynced byte on
``lazyfs::clear-cache`` written to its fault FIFO. Metadata (create, rename, unlink, mkdir) reaches the backing
folder at once; only file data waits for fsync: a file renamed into place before its data was fsync'd comes back
from a power cut with its new name and whatever part of its data had been synced (often none).

    with LazyMount(work_dir) as lz:           # lz.mnt: the folder to use; lz.root: the backing folder
        ...write under lz.mnt...
        lz.power_cut()                        # clear-cache, then unmount: the backing folder holds the synced data
        lz.mount()                            # a fresh LazyFS over the same backing folder (cold caches)

Power cut, precisely: ``clear_cache()`` drops LazyFS's unsynced pages and waits for LazyFS to say it is done (the
"completed" FIFO); ``unmount()`` then ends the file system (LazyFS's destroy writes nothing back, so anything
written between the clear and the unmount is dropped too) and the kernel's own FUSE page cache goes with the
mount; a new mount reads only what is in the backing folder. Stop (SIGSTOP) the writers before the clear and
kill them before the unmount, so that nothing written after the cut can reach the backing folder.

Every mount made here is unmounted at exit, on an exception too (``fusermount3 -u``, then a lazy unmount and a
kill of the LazyFS process this module started, by its pid, if the first does not end it).
"""

from __future__ import annotations

import atexit
import os
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PREFIX = Path(os.environ.get("LAZYFS_PREFIX", "/opt/lazyfs"))


def binary() -> Path:
    """The LazyFS binary, built first (``build.sh``, idempotent) when missing."""
    b = PREFIX / "bin" / "lazyfs"
    if not b.exists():
        r = subprocess.run(
            ["sh", str(HERE / "build.sh")],
            capture_output=True,
            text=True,
            env={**os.environ, "LAZYFS_PREFIX": str(PREFIX)},
        )
        if r.returncode != 0 or not b.exists():
            raise RuntimeError("LazyFS build failed: " + (r.stderr or r.stdout).strip()[-400:])
    return b


def is_mount(path: Path) -> bool:
    p = os.path.realpath(path)
    try:
        with open("/proc/self/mounts") as fh:
            return any(line.split()[1] == p for line in fh)
    except OSError:
        return os.path.ismount(p)


class LazyMount:
    """One LazyFS over ``work/root`` mounted at ``work/mnt``, its config, FIFOs and log in ``work``."""

    def __init__(self, work: Path, cache_size: str = "256mb"):
        if "-o" in str(work).lower():  # LazyFS's main() takes a --config-path holding "-o" for an option
            raise ValueError(f"{work}: LazyFS refuses a config path holding « -o » (pytest-of-root…): choose another")
        self.work = Path(work)
        self.root, self.mnt = self.work / "root", self.work / "mnt"
        self.fifo, self.done_fifo = self.work / "faults.fifo", self.work / "faults-done.fifo"
        self.config, self.log = self.work / "lazyfs.toml", self.work / "lazyfs.log"
        self.cache_size = cache_size
        self.extra: list[str] = []  # more FUSE options for the LazyFS command line
        self.proc: subprocess.Popen | None = None
        self._done_fd: int | None = None
        self.mounts = self.clears = 0
        self._owner = os.getpid()  # a forked child never unmounts its parent's file system at its exit
        atexit.register(self.unmount)

    # ---- mount / unmount --------------------------------------------------------------------------------
    def mount(self, timeout: float = 20) -> LazyMount:
        if self.proc is not None:
            raise RuntimeError("already mounted")
        for d in (self.work, self.root, self.mnt):
            d.mkdir(parents=True, exist_ok=True)
        for f in (self.fifo, self.done_fifo):
            if f.exists():
                f.unlink()
            os.mkfifo(f, 0o600)
        self.config.write_text(
            "[faults]\n"
            f'fifo_path="{self.fifo}"\n'
            f'fifo_path_completed="{self.done_fifo}"\n'
            "[cache]\napply_eviction=false\n"
            f'[cache.simple]\ncustom_size="{self.cache_size}"\nblocks_per_page=1\n'
            f'[filesystem]\nlog_all_operations=false\nlogfile="{self.log}"\n'
        )
        # LazyFS opens the "completed" FIFO for writing when it starts: a reader must hold it, or it blocks there
        self._done_fd = os.open(self.done_fifo, os.O_RDONLY | os.O_NONBLOCK)
        with open(self.work / "lazyfs.out", "ab") as out:  # LazyFS keeps its own copy of the descriptor
            self.proc = subprocess.Popen(
                [
                    str(binary()),
                    str(self.mnt),
                    "--config-path",
                    str(self.config),
                    "-o",
                    "modules=subdir",
                    "-o",
                    f"subdir={self.root}",
                    "-f",
                    *self.extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        t = time.time()
        while time.time() - t < timeout:
            if self.proc.poll() is not None:
                err = self.tail()
                self._reap()
                raise RuntimeError(f"LazyFS exited {self.proc and self.proc.returncode}: {err}")
            if is_mount(self.mnt):
                self.mounts += 1
                return self
            time.sleep(0.05)
        self.unmount()
        raise RuntimeError("LazyFS did not mount in time: " + self.tail())

    def unmount(self) -> None:
        """Ends the file system: ``fusermount3 -u``; if it is busy or LazyFS hangs, a lazy unmount and SIGKILL of
        the LazyFS process started here. Idempotent; called at exit."""
        if os.getpid() != self._owner:
            return
        if self.proc is None:
            self._close_done()
            return
        fuser = shutil.which("fusermount3") or "fusermount3"
        if is_mount(self.mnt):
            for _ in range(50):
                r = subprocess.run([fuser, "-u", str(self.mnt)], capture_output=True, text=True)
                if r.returncode == 0 or not is_mount(self.mnt):
                    break
                time.sleep(0.1)  # busy: a process dying still holds a file there
            if is_mount(self.mnt):
                subprocess.run([fuser, "-u", "-z", str(self.mnt)], capture_output=True)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self._reap()

    def _reap(self) -> None:
        self.proc = None
        self._close_done()

    def _close_done(self) -> None:
        if self._done_fd is not None:
            try:
                os.close(self._done_fd)
            except OSError:
                pass
            self._done_fd = None

    # ---- faults -------------------------------------------------------------------------------------------
    def command(self, cmd: str) -> None:
        if self.proc is None or self.proc.poll() is not None:
            raise RuntimeError("LazyFS is not running: " + self.tail())
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)  # LazyFS holds it open O_RDWR: never blocks
        try:
            os.write(fd, (cmd + "\n").encode())
        finally:
            os.close(fd)

    def clear_cache(self, timeout: float = 20) -> None:
        """Drops every unsynced page; returns once LazyFS says ``finished::clear-cache``."""
        self.command("lazyfs::clear-cache")
        buf, t = b"", time.time()
        while b"finished::clear-cache" not in buf:
            left = timeout - (time.time() - t)
            if left <= 0:
                raise RuntimeError("LazyFS did not confirm clear-cache: " + self.tail())
            r, _, _ = select.select([self._done_fd], [], [], left)
            if r:
                try:
                    buf += os.read(self._done_fd, 4096)
                except BlockingIOError:
                    pass
        self.clears += 1

    def unsynced_report(self) -> None:
        self.command("lazyfs::unsynced-data-report")

    def power_cut(self) -> None:
        """The power goes: unsynced data dropped, the file system gone with its caches (kill the writers between
        the two: see the module's docstring). ``mount()`` again to power the machine back on."""
        self.clear_cache()
        self.unmount()

    def tail(self, n: int = 600) -> str:
        parts = []
        for f in (self.work / "lazyfs.out", self.log):
            try:
                parts.append(f.read_text(errors="replace")[-n:])
            except OSError:
                pass
        return " | ".join(p.strip() for p in parts if p.strip())

    def __enter__(self) -> LazyMount:
        return self.mount()

    def __exit__(self, *exc) -> None:
        self.unmount()
