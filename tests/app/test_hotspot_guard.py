"""Nothing in ``[network]`` can make root write or run more than the hotspot (issue 22, item 1): each value held to
its schema, every file line by line against its template before a byte is written, a failed run put back, and
as root a config file named, owned by root and writable by root alone. Through the real command line parser and
``network.run`` (the uid injected, the files real), on a simulated Pi whose files live under a temporary root."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from hall.app import network
from hall.app.cli import build_parser, main
from hall.app.hotspot import hotspot_plan, hotspot_problems
from hall.app.plan import apply_plan
from hall.errors import ConfigError
from tests.app.test_network import CONFIG_TOML, Completed, SimulatedPi, config, networkmanager_keyfile

# each finding: the key, a value that turns into a directive, the file or command it would have reached
HOSTILE = [
    ("country", "FR\ninstall cfg80211 /bin/sh -c 'id > /tmp/owned'", "/etc/modprobe.d/loto-hall-wifi-country.conf"),
    ("portal_address", "198.18.0.1\ndhcp-script=/tmp/owned.sh", "/etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf"),
    ("interface", 'wlan0" tcp dport 22 accept; iifname "lo', "/etc/loto-hall/portal.nft"),
    ("hostname", "loto\ne echo OWNED", "sed"),
]


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def hotspot(argv: list[str], pi: SimulatedPi, root: Path, uid: int | None = None) -> tuple[int, list[str]]:
    """``loto-hall network hotspot ARGV`` on the simulated Pi, as the tests' own user or as ``uid``: the exit code
    and what it printed."""
    lines: list[str] = []
    args = build_parser().parse_args(["network", "hotspot", *argv])
    as_uid = {} if uid is None else {"euid": lambda: uid}
    pi.root = root
    return network.run(args, runner=pi, root=root, out=lines.append, **as_uid), lines


def config_file(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o644)  # whatever the umask: run as root, the tests' config must be root's alone
    return path


def tree(root: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every path under ``root``: its mode and content (a symlink's target, b"" for a folder)."""
    out: dict[str, tuple[int, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        content = os.readlink(path) if path.is_symlink() else b"" if path.is_dir() else path.read_bytes()
        out[str(path.relative_to(root))] = (st.st_mode, content)
    return out


@pytest.mark.parametrize("key,value,target", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_network_value_in_the_config_file_writes_nothing(tmp_path, key, value, target):
    path, root, pi = tmp_path / "loto-hall.toml", tmp_path / "pi", SimulatedPi()
    root.mkdir()
    config_file(path, CONFIG_TOML.replace('country = "FR"\n', "") + f"{key} = {toml_string(value)}\n")
    hosts = pi.hosts
    with pytest.raises(ConfigError) as refused:
        hotspot(["--config", str(path)], pi, root)
    assert any(p.startswith(f"network.{key} : ") for p in refused.value.problems), refused.value.problems
    assert tree(root) == {} and pi.changes == [] and pi.hosts == hosts


@pytest.mark.parametrize("key,value,target", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_the_plan_writer_refuses_a_line_outside_its_files_grammar_before_writing_anything(tmp_path, key, value, target):
    """A Config made without the schema (as code could) still cannot reach root's files: the plan is checked whole."""
    good = config()
    hostile = dataclasses.replace(good, network=dataclasses.replace(good.network, **{key: value}))
    pi = SimulatedPi()
    with pytest.raises(ValueError) as refused:
        apply_plan(hotspot_plan(hostile), pi, root=tmp_path, out=lambda line: None)
    assert target in str(refused.value)
    assert tree(tmp_path) == {} and pi.changes == []
    assert hotspot_problems(hostile)  # and network.run stops before even building it


class FailingPi(SimulatedPi):
    """A Pi whose NetworkManager refuses the profile (a wrong interface, say), or whose run is interrupted there."""

    def __init__(self, failure: str) -> None:
        super().__init__()
        self.failure = failure

    def __call__(self, argv):
        if tuple(argv[:3]) == ("nmcli", "connection", "load"):
            if self.failure == "interrupted":
                raise KeyboardInterrupt
            return Completed(4, "")
        return super().__call__(argv)


@pytest.mark.parametrize("failure", ["refused", "interrupted"])
def test_a_plan_that_aborts_leaves_the_root_as_it_was(tmp_path, failure):
    root = tmp_path / "pi"
    old_dns = root / "etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf"  # an earlier run's file, other values
    old_dns.parent.mkdir(parents=True)
    old_dns.write_text("address=/#/198.18.0.9\n")
    old_dns.chmod(0o600)
    (root / "etc/avahi/services").mkdir(parents=True)
    (root / "etc/avahi/services/loto-hall.service").symlink_to("/usr/share/doc/somewhere")
    before = tree(root)
    path = config_file(tmp_path / "loto-hall.toml", CONFIG_TOML)
    pi = FailingPi(failure)
    if failure == "interrupted":
        with pytest.raises(KeyboardInterrupt):
            hotspot(["--config", str(path)], pi, root)
    else:
        code, lines = hotspot(["--config", str(path)], pi, root)
        assert code == 1 and any("échec (4) : nmcli connection load" in line for line in lines), lines
        assert any("remis comme avant" in line for line in lines)
    assert ("iw", "reg", "set", "FR") in pi.changes  # the plan did get that far: files had been written
    assert tree(root) == before


# ------------------------------------------------------------------------------------------------------ as root
HOW = ["uid injected", "real root"]


def as_root(how: str, argv: list[str], root: Path, pi: SimulatedPi, capsys) -> tuple[int, str]:
    """``sudo loto-hall network hotspot ARGV``: through ``network.run`` with the uid injected (on the simulated Pi,
    carried out under ``root``), or through the real command line as the real root (``--dry-run``: this machine is
    never touched). The exit code and what it printed."""
    if how == "real root":
        if os.geteuid() != 0:
            pytest.skip("the real command line as the real root")
        code = main(["network", "hotspot", *argv, "--dry-run"])
        printed = capsys.readouterr()
        return code, printed.out + printed.err
    try:
        code, lines = hotspot(argv, pi, root, uid=0)
    except ConfigError as exc:  # what main() prints with exit code 2
        return 2, str(exc)
    return code, "\n".join(lines)


def owned_config(tmp_path: Path, mode: int, uid: int = 0) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG_TOML, encoding="utf-8")
    path.chmod(mode)
    if os.geteuid() == 0:
        os.chown(path, uid, 65534)
    elif uid == 0:
        pytest.skip("a file owned by root needs the tests to run as root")
    return path


@pytest.mark.parametrize("how", HOW)
def test_as_root_the_hotspot_reads_no_config_from_the_current_folder(tmp_path, monkeypatch, capsys, how):
    monkeypatch.chdir(tmp_path)
    config_file(tmp_path / "loto-hall.toml", CONFIG_TOML + 'hostname = "pirate"\n')
    root, pi = tmp_path / "pi", SimulatedPi()
    root.mkdir()
    code, printed = as_root(how, [], root, pi, capsys)
    assert (
        code == 1
        and "en root, nommez le fichier de configuration (./loto-hall.toml du dossier courant n'est "
        "pas lu) : sudo loto-hall network hotspot --config /etc/loto-hall/config.toml"
        in printed
    )
    assert "pirate" not in printed and tree(root) == {} and pi.changes == []


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("mode", [0o666, 0o646, 0o620, 0o664], ids=oct)
def test_as_root_a_config_others_may_write_is_refused(tmp_path, capsys, mode, how):
    path, root, pi = owned_config(tmp_path, mode, uid=os.geteuid()), tmp_path / "pi", SimulatedPi()
    root.mkdir()
    code, printed = as_root(how, ["--config", str(path)], root, pi, capsys)
    assert (
        code == 2
        and f"{path} est modifiable par le groupe ou par tous (mode {mode:04o}). Corrigez : sudo chmod go-w {path}"
        in printed
    )
    assert tree(root) == {} and pi.changes == []


@pytest.mark.parametrize("how", HOW)
def test_as_root_a_config_another_user_owns_is_refused(tmp_path, capsys, how):
    path = owned_config(tmp_path, 0o644, uid=65534 if os.geteuid() == 0 else os.geteuid())
    root, pi = tmp_path / "pi", SimulatedPi()
    root.mkdir()
    code, printed = as_root(how, ["--config", str(path)], root, pi, capsys)
    assert (
        code == 2
        and f"{path} appartient à l'utilisateur n° {path.stat().st_uid}, pas à root : root ferait ce "
        f"que ce compte y écrit. Corrigez : sudo chown root {path}"
        in printed
    )
    assert "modifiable" not in printed and tree(root) == {} and pi.changes == []


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644], ids=oct)
def test_as_root_a_config_root_alone_may_write_makes_the_hotspot(tmp_path, capsys, mode, how):
    path, root, pi = owned_config(tmp_path, mode), tmp_path / "pi", SimulatedPi()  # group nogroup: still fine
    code, printed = as_root(how, ["--config", str(path)], root, pi, capsys)
    if how == "real root":
        assert code == 0 and printed.startswith("Plan de « loto-hall network hotspot »"), printed
        return
    assert code == 0 and "Point d'accès prêt (14 changement(s))" in printed, printed
    assert (root / "etc/modprobe.d/loto-hall-wifi-country.conf").read_text() == "options cfg80211 ieee80211_regdom=FR\n"


# -------------------------------------------------------------------- the values reach NetworkManager intact
def keyfile_string(text: str) -> str:
    """A keyfile value as NetworkManager reads it back (GLib's escapes, then ``\\;`` of its lists)."""
    escapes = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\", ";": ";"}
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], text)


def test_an_ssid_and_password_full_of_keyfile_syntax_stay_values_in_networkmanagers_own_keyfile():
    ssid, password = ' --ask;"[ipv4]#=\\ é', ' #;"=[wifi]\\ method=auto '
    keyfile = networkmanager_keyfile(config(ssid=ssid, password=password))
    assert keyfile.sections() == ["connection", "wifi", "wifi-security", "ipv4", "ipv6", "proxy"]
    assert dict(keyfile["ipv4"]) == {"method": "shared", "address1": "10.42.0.1/24"}
    psk = next(line for line in keyfile.raw.splitlines() if line.startswith("psk="))[4:]
    assert keyfile_string(psk) == password  # its trailing space too
    raw_ssid = keyfile["wifi"]["ssid"]
    if re.fullmatch(r"(?:[0-9]+;)+", raw_ssid):  # NetworkManager writes a name with odd bytes as a list
        assert bytes(int(b) for b in raw_ssid.split(";")[:-1]).decode("utf-8") == ssid
    else:
        assert keyfile_string(raw_ssid) == ssid
