"""The files under systemd/: units that `systemd-analyze verify` accepts, the directives the hall
relies on, udev rules that name every device the example config uses, a config example with every key.

About `systemd-analyze verify` in CI (root on Debian, in a container where systemd is not PID 1):
verify needs no running systemd, but it fails when an ExecStart= binary does not exist
("Command /opt/loto-hall/venv/bin/loto-hall is not executable"). The units name the Pi's paths, so
the test verifies a copy in a temporary folder with only the ExecStart= binary rewritten to an
executable stub that exists; everything else is verified as shipped. verify only *warns* (exit 0)
about an unknown or misspelt directive, so its output must also be empty of warnings for our units.
`--root=` is no way out: it wants a whole OS tree with sysinit.target and friends.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import tomllib
import typing
from pathlib import Path

import pytest

from hall.config import Config, parse_config

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNITS = {
    "loto-hall.service": "/opt/loto-hall/venv/bin/loto-hall",
    "loto-hall-kiosk.service": "/usr/bin/cage",
    "loto-hall-relays.service": "/opt/loto-hall/venv/bin/loto-hall",
}
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze absent (Debian package: systemd)")


def unit_copy(tmp_path: Path, name: str) -> Path:
    """The unit with its ExecStart= binary pointed at an executable stub in ``tmp_path``."""
    stub = tmp_path / "bin" / Path(UNITS[name]).name
    stub.parent.mkdir(exist_ok=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    text = (SYSTEMD / name).read_text()
    assert f"ExecStart={UNITS[name]} " in text
    copy = tmp_path / name
    copy.write_text(text.replace(f"ExecStart={UNITS[name]} ", f"ExecStart={stub} "))
    return copy


def directives(name: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (SYSTEMD / name).read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


@needs_analyze
@pytest.mark.parametrize("name", sorted(UNITS))
def test_systemd_analyze_verify_accepts_the_unit(tmp_path, name):
    copy = unit_copy(tmp_path, name)
    result = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    ours = [line for line in (result.stdout + result.stderr).splitlines() if name in line or str(tmp_path) in line]
    assert result.returncode == 0 and not ours, result.stdout + result.stderr


@needs_analyze
@pytest.mark.parametrize(
    "name, most", [("loto-hall.service", 2.5), ("loto-hall-relays.service", 2.5), ("loto-hall-kiosk.service", 5.0)]
)
def test_hardening_exposure_stays_low(tmp_path, name, most):
    """``systemd-analyze security --offline=yes`` (systemd ≥ 250) on each shipped unit: the kiosk scored 9.2
    « UNSAFE » before it had a sandbox of its own."""
    copy = unit_copy(tmp_path, name)
    result = subprocess.run(
        [ANALYZE, "security", "--offline=yes", "--no-pager", str(copy)], capture_output=True, text=True, timeout=60
    )
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout + result.stderr)
    if result.returncode != 0 and found is None:
        pytest.skip(f"systemd-analyze security --offline unsupported here: {result.stderr.strip()[:200]}")
    assert found and float(found.group(1)) <= most, result.stdout[-2000:]


def test_the_kiosk_reads_nothing_of_the_hall():
    """The projector's browser runs as loto-kiosk, in no group of the hall's, with the hall's folders hidden; the
    hall's and the relays' units go further (system calls, /proc, umask)."""
    d = directives("loto-hall-kiosk.service")
    assert d["User"] == ["loto-kiosk"] and d["Group"] == ["loto-kiosk"]
    assert "loto-hall" not in " ".join(d.get("SupplementaryGroups", []))
    hidden = " ".join(d["InaccessiblePaths"]).split()
    assert "-/var/lib/loto-hall" in hidden and "-/etc/loto-hall" in hidden
    assert d["IPAddressDeny"] == ["any"] and d["IPAddressAllow"] == ["localhost"]
    install = (SYSTEMD / "install.sh").read_text()
    kiosk_groups = re.findall(r"usermod -a -G (\S+) loto-kiosk", install)
    assert kiosk_groups and all("loto-hall" not in g.split(",") for g in kiosk_groups)
    assert "gpasswd -d loto-kiosk loto-hall" in install  # an older install put it there: taken out
    assert "/var/lib/loto-hall/" not in (SYSTEMD / "kiosk.sh").read_text()  # the hall's folder: unreadable
    for unit in ("loto-hall.service", "loto-hall-relays.service"):
        u = directives(unit)
        assert u["SystemCallFilter"][0] == "@system-service" and u["ProtectProc"] == ["invisible"], unit
        assert u["UMask"] == ["0077"] and u["SystemCallErrorNumber"] == ["EPERM"], unit


def test_the_service_unit_has_what_the_hall_relies_on():
    d = directives("loto-hall.service")
    expected = {
        "Type": ["notify"],
        "NotifyAccess": ["all"],
        "Restart": ["always"],
        "KillMode": ["mixed"],
        "User": ["loto-hall"],
        "StateDirectory": ["loto-hall"],
        "StartLimitIntervalSec": ["0"],
    }
    for key, value in expected.items():
        assert d.get(key) == value, key
    assert int(d["WatchdogSec"][0]) >= 10
    assert set(d["SupplementaryGroups"][0].split()) >= {"dialout", "input", "lp"}
    assert "ESCPOS_CAPABILITIES_PICKLE_DIR=/var/lib/loto-hall" in d["Environment"]
    assert "PrivateDevices" not in d  # it would hide hot-plugged /dev/ttyUSB*, /dev/input
    allowed = {v.split()[0] for v in d["DeviceAllow"]}
    assert {"char-ttyUSB", "char-ttyACM", "char-input", "char-usb_device", "char-usb"} <= allowed
    # no --config: /etc/loto-hall/config.toml when it exists, else the hall's own, else setup mode (INTERFACE §12)
    assert d["ExecStart"][0].split()[1:] == ["serve"] and d["WorkingDirectory"] == ["/var/lib/loto-hall"]
    # gunicorn's drain (worker) < its graceful timeout (arbiter) < systemd's stop timeout
    from hall.app.gunicorn_app import DRAIN_S, GRACEFUL_S

    assert DRAIN_S < GRACEFUL_S < int(d["TimeoutStopSec"][0])


def test_a_hall_with_relays_waits_for_redis_and_stops_within_the_units_budget():
    """INTERFACE §10: the drop-in install.sh adds when [server] message_queue is set, and the relays' own unit."""
    d = directives("loto-hall-queue.conf")
    assert d["Wants"] == ["redis-server.service"] and d["After"] == ["redis-server.service"]
    assert int(d["LimitNOFILE"][0]) >= 8192  # a phone is a socket on nginx and one on its relay
    from hall.app.cluster import STOP_S

    assert STOP_S < int(directives("loto-hall.service")["TimeoutStopSec"][0])
    r = directives("loto-hall-relays.service")
    assert r["ExecStart"][0].split()[1:3] == ["relays", "--config"]
    assert r["Restart"] == ["always"] and r["User"] == ["loto-hall"]
    assert "loto-hall-queue.conf" in (SYSTEMD / "install.sh").read_text()


def test_the_kiosk_starts_after_the_hall_on_the_wait_page():
    d = directives("loto-hall-kiosk.service")
    assert "loto-hall.service" in d["After"] and "loto-hall.service" in d["Wants"]
    assert d["Restart"] == ["always"] and d["ExecStart"][0].endswith("/kiosk.sh")
    script = (SYSTEMD / "kiosk.sh").read_text()
    assert "kiosk-wait.html" in script and "--kiosk" in script
    assert (SYSTEMD / "kiosk.sh").stat().st_mode & 0o111
    if shutil.which("sh"):
        assert subprocess.run(["sh", "-n", str(SYSTEMD / "kiosk.sh")]).returncode == 0


RULE_TOKEN = re.compile(r'\s*([A-Z_]+)(\{[^}]+\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')
MATCH_KEYS = {"SUBSYSTEM", "KERNEL", "ATTRS", "ENV", "ACTION", "DRIVERS", "SUBSYSTEMS"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "ENV", "TAG", "OWNER"}


def rules() -> list[list[tuple[str, str, str, str]]]:
    parsed = []
    for number, line in enumerate((SYSTEMD / "99-loto-hall.rules").read_text().splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        tokens, pos = [], 0
        while pos < len(line):
            m = RULE_TOKEN.match(line, pos)
            assert m, f"line {number}: unreadable near {line[pos : pos + 30]!r}"
            tokens.append((m.group(1), m.group(2) or "", m.group(3), m.group(4)))
            pos = m.end()
        for key, _, op, _ in tokens:
            assert (op in ("==", "!=") and key in MATCH_KEYS) or (op not in ("==", "!=") and key in ASSIGN_KEYS), (
                f"line {number}: {key}{op}"
            )
        parsed.append(tokens)
    return parsed


def test_udev_rules_give_every_device_a_stable_name_and_its_group():
    names = {}
    for tokens in rules():
        values = {(k, a): v for k, a, _, v in tokens}
        link, group = values.get(("SYMLINK", "")), values.get(("GROUP", ""))
        assert link and link.startswith("loto/") and group in {"dialout", "input", "lp"}
        assert values.get(("MODE", "")) == "0660"
        names[link] = group
    assert names == {
        "loto/ball-machine": "dialout",
        "loto/printer": "lp",
        "loto/printer-usb": "lp",
        "loto/keypad": "input",
        "loto/scanner": "input",
    }
    # …and they are the names the example config uses.
    config = parse_config(tomllib.loads((SYSTEMD / "config.example.toml").read_text()))
    assert config.ball_machine.port == "/dev/loto/ball-machine"
    assert config.keypad.device == "/dev/loto/keypad" and config.scanner.device == "/dev/loto/scanner"


def every_key(cls=Config, prefix="") -> set[str]:
    keys = set()
    for f in dataclasses.fields(cls):
        hint = typing.get_type_hints(cls)[f.name]
        inner = [a for a in typing.get_args(hint) if dataclasses.is_dataclass(a)]
        if dataclasses.is_dataclass(hint) or inner:
            keys |= every_key(hint if dataclasses.is_dataclass(hint) else inner[0], f"{prefix}{f.name}.")
        else:
            keys.add(prefix + f.name)
    return keys


def documented_keys(raw: dict, prefix="") -> set[str]:
    keys = set()
    for key, value in raw.items():
        if key == "programme":
            for partie in value["partie"]:
                keys |= {f"programme.{k}" for k in partie} | {
                    f"programme.lots.{k}" for lot in partie["lots"] for k in lot
                }
                keys |= {
                    f"programme.lots.{k}.{kk}"
                    for lot in partie["lots"]
                    for k, v in lot.items()  # a fallback
                    if isinstance(v, dict)
                    for kk in v
                }
        elif isinstance(value, dict) and not prefix:
            keys |= documented_keys(value, f"{key}.")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):  # [[sales.price]]
            keys |= {f"{prefix}{key}.{k}" for v in value for k in v}
        else:
            keys.add(prefix + key)
    return keys


def test_config_example_is_valid_and_documents_every_key():
    raw = tomllib.loads((SYSTEMD / "config.example.toml").read_text())
    parse_config(raw, "config.example.toml")  # raises, naming the key, if anything is wrong
    expected = every_key() - {"programme"} | {
        "programme.lots",
        "programme.consolation",
        "programme.lots.kind",
        "programme.lots.label",
        "programme.lots.value_eur",
    }
    # [annex] only on a salle annexe's device: set in the main hall's example it would make the hall an annex, so
    # the example documents it commented out, and the test reads those lines
    text = (SYSTEMD / "config.example.toml").read_text()
    annex = {k for k in expected if k.startswith("annex.") and f"# {k.split('.', 1)[1]} = " in text}
    missing = expected - documented_keys(raw) - {"programme.lots"} - annex
    assert not missing, f"keys of hall/config_sections.py missing from systemd/config.example.toml: {sorted(missing)}"


def test_install_script_is_valid_shell():
    script = SYSTEMD / "install.sh"
    assert script.stat().st_mode & 0o111
    if shutil.which("bash"):
        assert subprocess.run(["bash", "-n", str(script)]).returncode == 0


def test_install_runs_python_isolated_so_no_hall_of_the_current_folder_is_imported_as_root(tmp_path):
    """Every Python that install.sh runs as root runs with ``-I``: a ``hall/`` (or ``venv.py``) in the folder it is
    run from is never imported. The script's own command line, run in a folder holding a booby-trapped ``hall``."""
    import sys

    script = (SYSTEMD / "install.sh").read_text()
    calls = re.findall(r'"\$PREFIX/venv/bin/python"((?: -\w+)*) -c \'([^\']*)\'', script)
    assert calls, "install.sh reads the config with the venv's Python"
    assert re.findall(r"python3((?: -\w+)*) -m venv", script) == [" -I"]
    trap = tmp_path / "hall"
    trap.mkdir()
    (trap / "__init__.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w').write('yes')\n")
    (trap / "config.py").write_text("raise SystemExit(0)\n")
    for flags, code in calls:
        assert "-I" in flags.split()
        subprocess.run([sys.executable, *flags.split(), "-c", code], cwd=tmp_path, capture_output=True, timeout=60)
        assert not (tmp_path / "imported").exists(), "the folder's hall was imported"


POLKIT_EVAL = """
const vm = require("vm"), fs = require("fs");
const rules = [];
const polkit = {Result: {YES: "yes", NO: "no", NOT_HANDLED: null}, addRule: (f) => rules.push(f)};
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), {polkit});
const asked = JSON.parse(process.argv[2]);
console.log(JSON.stringify(asked.map(([user, id]) => rules.map((r) => r({id}, {user})).find((v) => v) || null)));
"""


@pytest.mark.skipif(not shutil.which("node"), reason="node runs the polkit rule (polkit's own JavaScript)")
def test_the_polkit_rule_lets_the_service_user_run_the_setup_wifi_and_nothing_else():
    """``systemd/50-loto-hall.rules``: the service user ``loto-hall`` may add, bring up, take down and delete the
    open « Loto-Setup » profile through NetworkManager (hall/app/setup_hotspot.py); nobody else gets anything, and
    it gets nothing else. Run as polkit runs it (a ``polkit`` object, each rule asked in turn), in ES5."""
    import json

    rule = SYSTEMD / "50-loto-hall.rules"
    code = re.sub(r"//[^\n]*", "", rule.read_text())  # its comments name the nmcli calls
    assert not re.search(r"=>|\b(let|const|class)\b|`", code), "polkit's duktape reads ES5 only"
    nm = "org.freedesktop.NetworkManager."
    asked = [
        ("loto-hall", nm + "settings.modify.system"),
        ("loto-hall", nm + "network-control"),
        ("loto-hall", nm + "wifi.share.open"),
        ("loto-hall", nm + "wifi.share.protected"),
        ("loto-hall", nm + "settings.modify.hostname"),
        ("loto-hall", "org.freedesktop.login1.reboot"),
        ("loto-hall", "org.freedesktop.systemd1.manage-units"),
        ("loto-kiosk", nm + "network-control"),
        ("nobody", nm + "settings.modify.system"),
    ]
    done = subprocess.run(
        ["node", "-e", POLKIT_EVAL, str(rule), json.dumps(asked)], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == ["yes", "yes", "yes"] + [None] * 6
    install = (SYSTEMD / "install.sh").read_text()
    assert "/etc/polkit-1/rules.d/50-loto-hall.rules" in install
    assert "/etc/polkit-1/rules.d/50-loto-hall.rules" in (SYSTEMD / "uninstall.sh").read_text()
