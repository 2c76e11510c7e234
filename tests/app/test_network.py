"""``loto-hall network hotspot`` and ``doctor``: the plan printed exactly, carried out on a simulated Pi (commands
answered as NetworkManager, iw, systemd would, files under a temporary root), a second run that changes nothing,
every generated file checked by its own tool, and the doctor asking a real running hall what each phone gets."""
from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from hall.app import network
from hall.app.cli import main
from hall.app.network import doctor, hotspot_plan, print_findings
from hall.app.plan import Completed, apply_plan
from hall.config import parse_config
from tests.display.conftest import LiveServer, make_room

HERE = Path(__file__).resolve().parent
NETWORK = {"ssid": "Loto salle", "password": "quine:2026", "country": "FR"}
CONFIG_TOML = """[hall]
name = "Salle des fêtes de Test"
[network]
ssid = "Loto salle"
password = "quine:2026"
country = "FR"
"""


def config(**network):
    return parse_config({"hall": {"name": "Salle des fêtes de Test"}, "network": {**NETWORK, **network}})


class SimulatedPi:
    """Answers the plan's commands as a fresh Raspberry Pi OS would, and remembers what they changed."""

    def __init__(self) -> None:
        self.packages: set[str] = set()
        self.country = "00"
        self.blocked = True
        self.hostname = "raspberrypi"
        self.hosts = "127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n"
        self.avahi = "inactive"
        self.profiles: dict[str, dict[str, str]] = {}
        self.active: set[str] = set()
        self.nft = False
        self.changes: list[tuple[str, ...]] = []

    def __call__(self, argv) -> Completed:
        a = tuple(argv)
        if a[0] == "dpkg-query":
            pkgs = a[3:]
            return Completed(0 if set(pkgs) <= self.packages else 1,
                             "".join("install ok installed\n" for p in pkgs if p in self.packages))
        if a[:2] == ("iw", "reg"):
            if a[2] == "get":
                return Completed(0, f"global\ncountry {self.country}: DFS-ETSI\n")
            self.country = a[3]
        elif a[:2] == ("rfkill", "list"):
            return Completed(0, f"0: phy0: Wireless LAN\n\tSoft blocked: {'yes' if self.blocked else 'no'}\n")
        elif a == ("cat", "/etc/hosts"):
            return Completed(0, self.hosts)
        elif a[:2] == ("hostnamectl", "--static"):
            return Completed(0, self.hostname + "\n")
        elif a[:2] == ("systemctl", "is-active"):
            return Completed(0 if self.avahi == "active" else 3, self.avahi + "\n")
        elif a[:2] == ("nft", "list"):
            return Completed(0 if self.nft else 1, "")
        elif a[0] == "nmcli" and a[-2:] == ("show", "--active"):
            return Completed(0, "".join(f"{n}:wlan0\n" if "DEVICE" in a[3] else f"{n}\n" for n in self.active))
        elif a[0] == "nmcli" and a[-2:] == ("connection", "show"):
            return Completed(0, "".join(f"{n}\n" for n in ["Wired connection 1", *self.profiles]))
        elif a[:3] == ("nmcli", "-s", "-g"):
            profile = self.profiles.get(a[-1])
            if profile is None:
                return Completed(10, "")
            return Completed(0, "".join(profile[k].replace("\\", "\\\\").replace(":", "\\:") + "\n"
                                        for k in a[3].split(",")))
        if a[:2] == ("apt-get", "install"):
            self.packages |= set(a[4:])
        elif a[:2] == ("rfkill", "unblock"):
            self.blocked = False
        elif a[:2] == ("hostnamectl", "set-hostname"):
            self.hostname = a[2]
        elif a[:2] == ("sed", "-i") and a[-1] == "/etc/hosts":
            done = subprocess.run(["sed", *a[2:-1]], input=self.hosts, capture_output=True, text=True, check=True)
            self.hosts = done.stdout
        elif a[:2] == ("systemctl", "enable"):
            self.avahi = "active"
        elif a[:3] == ("nmcli", "connection", "add"):
            rest = a[3:]
            settings = dict(zip(rest[::2], rest[1::2]))
            self.profiles[settings.pop("con-name")] = settings
        elif a[:3] == ("nmcli", "connection", "modify"):
            self.profiles[a[3]].update(dict(zip(a[4::2], a[5::2])))
        elif a[:3] == ("nmcli", "connection", "up"):
            self.active.add(a[3])
            self.nft = True               # the dispatcher script loads the rules
        elif a[:2] != ("iw", "reg"):
            raise AssertionError(f"unexpected command {a}")
        self.changes.append(a)
        return Completed(0, "")


def test_the_dry_run_prints_the_expected_plan(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    path = tmp_path / "loto-hall.toml"
    path.write_text(CONFIG_TOML, encoding="utf-8")
    assert main(["network", "hotspot", "--config", str(path), "--dry-run"]) == 0
    printed = capsys.readouterr().out
    assert printed == (HERE / "hotspot-plan.fr.txt").read_text(encoding="utf-8")
    assert "quine:2026" not in printed and "quine\\:2026" not in printed   # the password never printed


def test_the_dry_run_speaks_english_with_lang_en(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    path = tmp_path / "loto-hall.toml"
    path.write_text(CONFIG_TOML, encoding="utf-8")
    assert main(["network", "hotspot", "--config", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Plan of `loto-hall network hotspot` (--dry-run: nothing is done)")
    assert "14. Hotspot up" in out


def test_a_hotspot_needs_a_name_and_a_wpa2_password(tmp_path, capsys):
    path = tmp_path / "loto-hall.toml"
    path.write_text('[network]\nssid = ""\npassword = "court"\n', encoding="utf-8")
    assert main(["network", "hotspot", "--config", str(path), "--dry-run"]) == 2    # the config itself refuses it
    assert "network.password : WPA2 demande 8 à 63 caractères" in capsys.readouterr().err
    path.write_text('[network]\nssid = ""\n', encoding="utf-8")                 # an open network: no hotspot
    assert main(["network", "hotspot", "--config", str(path), "--dry-run"]) == 1
    out = capsys.readouterr().out
    assert "ssid est vide" in out and "8 à 63 caractères" in out


def test_the_plan_runs_on_a_fresh_pi_then_a_second_run_changes_nothing(tmp_path):
    pi, plan = SimulatedPi(), hotspot_plan(config())
    changed = apply_plan(plan, pi, root=tmp_path, out=lambda line: None)
    assert changed == 13                    # the profile is made whole: no "modify" right after "add"
    assert not any(c[:3] == ("nmcli", "connection", "modify") for c in pi.changes)
    assert pi.country == "FR" and not pi.blocked and pi.hostname == "loto" and pi.avahi == "active"
    assert pi.hosts == "127.0.0.1\tlocalhost\n127.0.1.1\tloto\n"
    profile = pi.profiles["loto-hall"]
    assert profile["802-11-wireless.ssid"] == "Loto salle" and profile["wifi-sec.psk"] == "quine:2026"
    assert profile["802-11-wireless.mode"] == "ap" and profile["ipv4.method"] == "shared"
    assert pi.active == {"loto-hall"}
    dispatcher = tmp_path / "etc/NetworkManager/dispatcher.d/90-loto-hall-portal"
    assert dispatcher.stat().st_mode & 0o777 == 0o755
    assert "address=/#/198.18.0.1" in (tmp_path / "etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf").read_text()

    pi.changes.clear()
    lines: list[str] = []
    assert apply_plan(hotspot_plan(config()), pi, root=tmp_path, out=lines.append) == 0
    assert pi.changes == []
    assert all(line.startswith("= ") for line in lines), lines


def test_a_new_password_updates_the_profile_and_restarts_the_hotspot_only(tmp_path):
    pi = SimulatedPi()
    apply_plan(hotspot_plan(config()), pi, root=tmp_path, out=lambda line: None)
    pi.changes.clear()
    apply_plan(hotspot_plan(config(password="tombola-2027")), pi, root=tmp_path, out=lambda line: None)
    assert [c[:3] for c in pi.changes] == [("nmcli", "connection", "modify"), ("nmcli", "connection", "up")]
    assert pi.profiles["loto-hall"]["wifi-sec.psk"] == "tombola-2027"


# ------------------------------------------------------------------ the generated files, checked by their own tools
def _step(path: str):
    return next(s for s in hotspot_plan(config()) if getattr(s, "path", "") == path)


def test_the_dns_file_passes_dnsmasq_own_check(tmp_path):
    if not Path("/usr/sbin/dnsmasq").exists():
        pytest.skip("dnsmasq absent (apt-get install dnsmasq-base)")
    conf = tmp_path / "loto-hall.conf"
    conf.write_text(_step("/etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf").content)
    done = subprocess.run(["/usr/sbin/dnsmasq", "--test", "-C", str(conf)], capture_output=True, text=True)
    assert done.returncode == 0 and "syntax check OK" in done.stderr, done.stderr


def test_the_portal_rules_pass_nft_own_check(tmp_path):
    if not shutil.which("nft"):
        pytest.skip("nft absent (apt-get install nftables)")
    rules = tmp_path / "portal.nft"
    rules.write_text(_step("/etc/loto-hall/portal.nft").content)
    done = subprocess.run(["nft", "-c", "-f", str(rules)], capture_output=True, text=True)
    if "Operation not permitted" in done.stderr:
        pytest.skip("nft -c needs CAP_NET_ADMIN here")
    assert done.returncode == 0, done.stderr
    dispatcher = tmp_path / "90-loto-hall-portal"
    dispatcher.write_text(_step("/etc/NetworkManager/dispatcher.d/90-loto-hall-portal").content)
    assert subprocess.run(["sh", "-n", str(dispatcher)]).returncode == 0


def test_the_avahi_service_file_is_valid_against_avahis_dtd(tmp_path):
    if not shutil.which("xmllint"):
        pytest.skip("xmllint absent (apt-get install libxml2-utils)")
    service = tmp_path / "loto-hall.service"
    service.write_text(_step("/etc/avahi/services/loto-hall.service").content)
    dtd = Path("/usr/share/avahi/avahi-service.dtd")
    argv = ["xmllint", "--noout", *(["--dtdvalid", str(dtd)] if dtd.exists() else []), str(service)]
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def networkmanager_keyfile(hall_config) -> configparser.ConfigParser:
    """The keyfile NetworkManager itself writes for the plan's ``nmcli connection add`` (``--offline``: no daemon)."""
    if not shutil.which("nmcli"):
        pytest.skip("nmcli absent (apt-get install network-manager)")
    add = next(s for s in hotspot_plan(hall_config) if getattr(s, "argv", ())[:3] == ("nmcli", "connection", "add"))
    done = subprocess.run(["nmcli", "--offline", *add.argv[1:]], capture_output=True, text=True)
    if done.returncode != 0 and "offline" in done.stderr:
        pytest.skip("this nmcli has no --offline (NetworkManager < 1.40)")
    assert done.returncode == 0, done.stderr
    keyfile = configparser.ConfigParser(interpolation=None)
    keyfile.read_string(done.stdout)
    return keyfile


def test_the_profile_is_what_networkmanager_itself_writes_as_a_keyfile():
    keyfile = networkmanager_keyfile(config())
    assert keyfile["connection"]["id"] == "loto-hall" and keyfile["connection"]["interface-name"] == "wlan0"
    assert dict(keyfile["wifi"]) == {"band": "bg", "mode": "ap", "ssid": "Loto salle"}
    assert keyfile["wifi-security"]["key-mgmt"] == "wpa-psk" and keyfile["wifi-security"]["psk"] == "quine:2026"
    assert keyfile["wifi-security"]["proto"] == "rsn;" and keyfile["wifi-security"]["pmf"] == "1"   # 1: disable
    assert keyfile["ipv4"]["method"] == "shared" and keyfile["ipv4"]["address1"] == "10.42.0.1/24"


# --------------------------------------------------------------------------------------------------- doctor
def test_the_doctor_finds_everything_right_on_a_prepared_pi(tmp_path, capsys):
    pi, root = SimulatedPi(), tmp_path / "root"
    apply_plan(hotspot_plan(config()), pi, root=root, out=lambda line: None)
    firmware = root / network.FIRMWARE
    firmware.parent.mkdir(parents=True)
    (firmware.parent / "cyfmac43455-sdio-minimal.bin").write_bytes(b"\0")
    firmware.symlink_to("cyfmac43455-sdio-minimal.bin")
    room = make_room(tmp_path, extra={"network": NETWORK})
    server = LiveServer(room.app)
    try:
        found = doctor(room.config, pi, network.http_fetch(server.port), root=root)
    finally:
        server.stop()
        room.hall.journal.close()
    assert [f.name for f in found if f.ok is not True] == ["[network]"]   # advice: ":" in the password
    assert "le mot de passe contient" in found[0].detail
    probes = [f for f in found if "/" in f.name and "." in f.name]
    assert len(probes) == 9 and all(f.detail == "HTTP 200, page du portail" for f in probes)
    print_findings(found)
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["vérification", "état", "détail", "que", "faire"]
    assert any(line.startswith("Android connectivitycheck.gstatic.com/generate_204") and " OK " in line
               for line in table)


def test_the_doctor_says_what_to_do_on_a_fresh_pi_with_no_hall_running(tmp_path):
    found = {f.name: f for f in doctor(config(), SimulatedPi(), lambda host, path: None, root=tmp_path)}
    assert found["Pays du Wi-Fi"].ok is False and "iw reg set FR" in found["Pays du Wi-Fi"].fix
    assert found["Profil du point d'accès"].fix == "sudo loto-hall network hotspot --config /etc/loto-hall/config.toml"
    assert found["Micrologiciel Wi-Fi"].ok is None          # not a Pi: advice only
    assert found["La salle répond"].ok is False and "systemctl start loto-hall" in found["La salle répond"].fix
    assert found["Android connectivitycheck.gstatic.com/generate_204"].detail == "pas de réponse"


def test_the_doctor_hints_at_the_minimal_firmware(tmp_path):
    firmware = tmp_path / network.FIRMWARE
    firmware.parent.mkdir(parents=True)
    (firmware.parent / "cyfmac43455-sdio-standard.bin").write_bytes(b"\0")
    firmware.symlink_to("cyfmac43455-sdio-standard.bin")
    found = {f.name: f for f in doctor(config(), SimulatedPi(), lambda host, path: None, root=tmp_path)}
    assert "7 à 10 téléphones" in found["Micrologiciel Wi-Fi"].detail
    assert "update-alternatives --config cyfmac43455-sdio.bin" in found["Micrologiciel Wi-Fi"].fix


# ----------------------------------------------------------------------------------------- the install script
def test_the_install_scripts_dry_run_prints_every_step_and_runs_none(tmp_path):
    """Every command that changes the machine is replaced by a stub that records its call: none may be called."""
    script = Path(__file__).resolve().parents[2] / "systemd/install.sh"
    stubs, log = tmp_path / "bin", tmp_path / "called.log"
    stubs.mkdir()
    for name in ("apt-get", "groupadd", "useradd", "usermod", "mkdir", "python3", "cp", "install", "udevadm",
                 "systemctl", "chmod", "chgrp", "mv", "nmcli", "loto-hall"):
        (stubs / name).write_text(f'#!/bin/sh\necho "{name} $*" >> {log}\n')
        (stubs / name).chmod(0o755)
    env = {"PATH": f"{stubs}:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    done = subprocess.run(["bash", str(script), "--dry-run", "--kiosk", "--hotspot"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not log.exists(), log.read_text()
    out = done.stdout
    for line in ("   $ apt-get install -y -q python3 python3-venv python3-dev build-essential openssl",
                 "   $ systemctl enable loto-hall.service", "   file /etc/pam.d/loto-hall-kiosk (0644):",
                 "(--dry-run: nothing was changed)"):
        assert line in out.splitlines(), (line, out)
    assert "network hotspot --config /etc/loto-hall/config.toml" in out
