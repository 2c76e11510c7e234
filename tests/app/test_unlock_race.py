"""Issue 31 item 5: ``sudo loto-hall auth unlock`` never gives the hall's account a root file, however fast that
account swaps a link in place of the request's temporary file."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hall.app.cli_auth import request_unlock

NOBODY = 65534
RACER = r"""
import os, sys, time
folder, victim, stop = sys.argv[1:4]
link = os.path.join(folder, ".racer-link")
swapped = 0
while not os.path.exists(stop):
    for name in os.listdir(folder):
        if name.startswith(".login_unlock.json."):
            try:
                os.symlink(victim, link)
                os.replace(link, os.path.join(folder, name))    # the temporary file is now a link to root's file
                swapped += 1
            except OSError:
                pass
print(swapped)
"""


def test_a_racing_process_swapping_links_never_gets_a_root_file(tmp_path):
    root = os.geteuid() == 0
    victim = tmp_path / "root-only.txt"  # stands for /etc/shadow
    victim.write_text("secret\n")
    victim.chmod(0o600)
    folder = Path(tempfile.mkdtemp(prefix="loto-hall-unlock-race-"))  # the hall's data folder
    stop = folder.parent / (folder.name + ".stop")
    try:
        if root:  # the hall's own account owns its folder and races in it
            os.chown(folder, NOBODY, NOBODY)
        racer = subprocess.Popen(
            [sys.executable, "-c", RACER, str(folder), str(victim), str(stop)],
            stdout=subprocess.PIPE,
            text=True,
            **({"user": NOBODY, "group": NOBODY, "extra_groups": []} if root else {}),
        )
        try:
            for _ in range(300):
                try:
                    request_unlock(folder)
                except OSError:
                    pass  # the racer took the name first: nothing written, nothing lost
                st = victim.stat()
                assert (st.st_mode & 0o777, st.st_uid, victim.read_text()) == (0o600, os.geteuid(), "secret\n")
        finally:
            stop.touch()
            swapped = int(racer.communicate(timeout=30)[0] or 0)
        assert swapped > 0, "the racer never swapped a link: the test proved nothing"
        written = os.lstat(folder / "login_unlock.json")
        if root:
            assert written.st_uid in (NOBODY,)  # whatever is there was made by the folder's owner
    finally:
        subprocess.run(["rm", "-rf", str(folder), str(stop)], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to the folder's owner needs root")
def test_as_root_the_request_is_written_by_the_folders_owner(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="loto-hall-unlock-owner-"))
    try:
        os.chown(folder, NOBODY, NOBODY)
        path, code = request_unlock(folder, "speaker")
        st, key = path.stat(), (folder / "web.key").stat()
        assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (NOBODY, NOBODY, 0o644)
        assert (key.st_uid, key.st_mode & 0o777) == (NOBODY, 0o600)  # made as the hall makes it
        assert len(code.replace("-", "")) == 8
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)
