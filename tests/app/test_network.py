"""``loto-hall network hotspot`` and ``doctor``: the plan printed exactly, carried out on a simulated Pi (commands
answered as NetworkManager, iw, systemd would, files under a temporary root), a second run that changes nothing,
every generated file checked by its own tool, and the doctor asking a real running hall what each phone gets."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hall.app import hotspot, network_doctor
from hall.app.cli import main
from hall.app.findings import print_findings
from hall.app.hotspot import hotspot_plan
from hall.app.network_doctor import doctor
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


def unescape(text: str) -> str:
    """A keyfile value as NetworkManager reads it back (GLib's escapes, then ``\\;`` of its lists)."""
    escapes = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\", ";": ";"}
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], text)


def ssid_of(raw: str) -> str:
    if re.fullmatch(r"(?:[0-9]+;)+", raw):  # a list of bytes
        return bytes(int(b) for b in raw.split(";")[:-1]).decode("utf-8")
    return unescape(raw)


def profile_of(keyfile: configparser.ConfigParser) -> dict[str, str]:
    """A keyfile's settings by the names nmcli gives them."""
    return {
        "802-11-wireless.ssid": ssid_of(keyfile["wifi"]["ssid"]),
        "802-11-wireless.mode": keyfile["wifi"]["mode"],
        "802-11-wireless.ap-isolation": keyfile["wifi"].get("ap-isolation", "-1"),
        "wifi-sec.psk": unescape(keyfile["wifi-security"]["psk"]),
        "ipv4.method": keyfile["ipv4"]["method"],
        "ipv4.addresses": keyfile["ipv4"]["address1"],
    }


def config(**network):
    return parse_config({"hall": {"name": "Salle des fêtes de Test"}, "network": {**NETWORK, **network}})


class SimulatedPi:
    """Answers the plan's commands as a fresh Raspberry Pi OS would, and remembers what they changed."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root  # where the plan writes the Pi's files (the keyfile to load)
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
            return Completed(
                0 if set(pkgs) <= self.packages else 1,
                "".join("install ok installed\n" for p in pkgs if p in self.packages),
            )
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
            return Completed(
                0, "".join(profile[k].replace("\\", "\\\\").replace(":", "\\:") + "\n" for k in a[3].split(","))
            )
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
        elif a[:3] == ("nmcli", "connection", "load"):
            assert self.root is not None, "the simulated Pi needs the root its files are written under"
            keyfile = configparser.ConfigParser(interpolation=None)
            keyfile.read_string((self.root / a[3].lstrip("/")).read_text(encoding="utf-8"))
            self.profiles[keyfile["connection"]["id"]] = profile_of(keyfile)
        elif a[:3] == ("nmcli", "connection", "up"):
            self.active.add(a[3])
            self.nft = True  # the dispatcher script loads the rules
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
    assert "quine:2026" not in printed and "quine\\:2026" not in printed  # the password never printed


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
    assert main(["network", "hotspot", "--config", str(path), "--dry-run"]) == 2  # the config itself refuses it
    assert "network.password : WPA2 demande 8 à 63 caractères" in capsys.readouterr().err
    path.write_text('[network]\nssid = ""\n', encoding="utf-8")  # an open network: no hotspot
    assert main(["network", "hotspot", "--config", str(path), "--dry-run"]) == 1
    out = capsys.readouterr().out
    assert "ssid est vide" in out and "8 à 63 caractères" in out


def test_the_plan_runs_on_a_fresh_pi_then_a_second_run_changes_nothing(tmp_path):
    pi, plan = SimulatedPi(tmp_path), hotspot_plan(config())
    changed = apply_plan(plan, pi, root=tmp_path, out=lambda line: None)
    assert changed == 14
    assert not any("quine:2026" in arg for c in pi.changes for arg in c)  # the password on no command line
    keyfile = tmp_path / "etc/NetworkManager/system-connections/loto-hall.nmconnection"
    assert keyfile.stat().st_mode & 0o777 == 0o600 and "ap-isolation=1" in keyfile.read_text()
    assert pi.country == "FR" and not pi.blocked and pi.hostname == "loto" and pi.avahi == "active"
    assert pi.hosts == "127.0.0.1\tlocalhost\n127.0.1.1\tloto\n"
    profile = pi.profiles["loto-hall"]
    assert profile["802-11-wireless.ssid"] == "Loto salle" and profile["wifi-sec.psk"] == "quine:2026"
    assert profile["802-11-wireless.ap-isolation"] == "1"  # a phone reaches the Pi, never another phone
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
    pi = SimulatedPi(tmp_path)
    apply_plan(hotspot_plan(config()), pi, root=tmp_path, out=lambda line: None)
    pi.changes.clear()
    apply_plan(hotspot_plan(config(password="tombola-2027")), pi, root=tmp_path, out=lambda line: None)
    assert [c[:3] for c in pi.changes] == [("nmcli", "connection", "load"), ("nmcli", "connection", "up")]
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


def offline_nmcli(args: list[str], stdin: str | None = None) -> str:
    """``nmcli --offline ARGS`` (no daemon: NetworkManager's own keyfile reader and writer)."""
    if not shutil.which("nmcli"):
        pytest.skip("nmcli absent (apt-get install network-manager)")
    done = subprocess.run(["nmcli", "--offline", *args], input=stdin, capture_output=True, text=True)
    if done.returncode != 0 and "offline" in done.stderr:
        pytest.skip("this nmcli has no --offline (NetworkManager < 1.40)")
    assert done.returncode == 0, done.stderr
    return done.stdout


def networkmanager_keyfile(hall_config) -> configparser.ConfigParser:
    """The plan's keyfile as NetworkManager itself reads it back and writes it again."""
    written = next(s for s in hotspot_plan(hall_config) if getattr(s, "path", "") == hotspot.KEYFILE)
    keyfile = configparser.ConfigParser(interpolation=None)
    keyfile.raw = offline_nmcli(["connection", "modify", "connection.id", "loto-hall"], written.content)  # type: ignore[attr-defined]
    keyfile.read_string(keyfile.raw)  # (configparser trims a value's trailing spaces: .raw keeps them)
    return keyfile


def test_the_keyfile_is_what_networkmanager_itself_writes_for_the_same_settings():
    """The profile NetworkManager's nmcli makes from the same settings (given on its command line here, in a test)
    is the plan's keyfile once NetworkManager has read and written it again: nothing lost, nothing added."""
    net = config().network
    made = offline_nmcli(
        [
            "connection",
            "add",
            "type",
            "wifi",
            "ifname",
            net.interface,
            "con-name",
            "loto-hall",
            "connection.uuid",
            hotspot.PROFILE_UUID,
            "802-11-wireless.ssid",
            net.ssid,
            "802-11-wireless.mode",
            "ap",
            "802-11-wireless.band",
            "bg",
            "802-11-wireless.ap-isolation",
            "yes",
            "ipv4.method",
            "shared",
            "ipv4.addresses",
            f"{net.address}/24",
            "ipv6.method",
            "disabled",
            "wifi-sec.key-mgmt",
            "wpa-psk",
            "wifi-sec.psk",
            net.password,
            "wifi-sec.proto",
            "rsn",
            "wifi-sec.pairwise",
            "ccmp",
            "wifi-sec.group",
            "ccmp",
            "wifi-sec.pmf",
            "disable",
            "connection.autoconnect-priority",
            "100",
        ]
    )
    ours = networkmanager_keyfile(config())
    theirs = configparser.ConfigParser(interpolation=None)
    theirs.read_string(made)
    assert {s: dict(ours[s]) for s in ours.sections()} == {s: dict(theirs[s]) for s in theirs.sections()}
    assert ours["wifi"]["ap-isolation"] == "1" and ours["wifi-security"]["psk"] == "quine:2026"


# --------------------------------------------------------------------------------------------------- doctor
def test_the_doctor_finds_everything_right_on_a_prepared_pi(tmp_path, capsys):
    root = tmp_path / "root"
    pi = SimulatedPi(root)
    apply_plan(hotspot_plan(config()), pi, root=root, out=lambda line: None)
    firmware = root / hotspot.FIRMWARE
    firmware.parent.mkdir(parents=True)
    (firmware.parent / "cyfmac43455-sdio-minimal.bin").write_bytes(b"\0")
    firmware.symlink_to("cyfmac43455-sdio-minimal.bin")
    room = make_room(tmp_path, extra={"network": NETWORK})
    server = LiveServer(room.app)
    try:
        found = doctor(room.config, pi, network_doctor.http_fetch(server.port), root=root)
    finally:
        server.stop()
        room.hall.journal.close()
    assert [f.name for f in found if f.ok is not True] == ["[network]"]  # advice: ":" in the password
    assert "le mot de passe contient" in found[0].detail
    probes = [f for f in found if "/" in f.name and "." in f.name]
    assert len(probes) == 9 and all(f.detail == "HTTP 200, page du portail" for f in probes)
    print_findings(found)
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["vérification", "état", "détail", "que", "faire"]
    assert any(
        line.startswith("Android connectivitycheck.gstatic.com/generate_204") and " OK " in line for line in table
    )


def test_the_doctor_says_what_to_do_on_a_fresh_pi_with_no_hall_running(tmp_path):
    found = {f.name: f for f in doctor(config(), SimulatedPi(), lambda host, path: None, root=tmp_path)}
    assert found["Pays du Wi-Fi"].ok is False and "iw reg set FR" in found["Pays du Wi-Fi"].fix
    assert found["Profil du point d'accès"].fix == "sudo loto-hall network hotspot --config /etc/loto-hall/config.toml"
    assert found["Micrologiciel Wi-Fi"].ok is None  # not a Pi: advice only
    assert found["La salle répond"].ok is False and "systemctl start loto-hall" in found["La salle répond"].fix
    assert found["Android connectivitycheck.gstatic.com/generate_204"].detail == "pas de réponse"


def test_the_doctor_hints_at_the_minimal_firmware(tmp_path):
    firmware = tmp_path / hotspot.FIRMWARE
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
    for name in (
        "apt-get",
        "groupadd",
        "useradd",
        "usermod",
        "mkdir",
        "python3",
        "cp",
        "install",
        "udevadm",
        "systemctl",
        "chmod",
        "chgrp",
        "mv",
        "nmcli",
        "loto-hall",
    ):
        (stubs / name).write_text(f'#!/bin/sh\necho "{name} $*" >> {log}\n')
        (stubs / name).chmod(0o755)
    env = {"PATH": f"{stubs}:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    done = subprocess.run(
        ["bash", str(script), "--dry-run", "--kiosk", "--hotspot"], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert not log.exists(), log.read_text()
    out = done.stdout
    for line in (
        "   $ apt-get install -y -q python3 python3-venv python3-dev build-essential openssl",
        "   $ systemctl enable loto-hall.service",
        "   file /etc/pam.d/loto-hall-kiosk (0644):",
        "(--dry-run: nothing was changed)",
    ):
        assert line in out.splitlines(), (line, out)
    assert "network hotspot --config /etc/loto-hall/config.toml" in out


def test_an_ssid_with_invisible_characters_is_refused_by_the_config_the_hotspot_and_admin(tmp_path):
    """« Loto‮ellas » shows as « Lotosalle »: a right-to-left override, a zero-width space, a BOM in a name."""
    import dataclasses

    from display.network import wifi_warnings
    from hall.config import ConfigError
    from hall.net.wifi import misread_risks
    from tests.display.conftest import make_room

    for name in ("Loto\u202eellas", "Loto\u200bsalle", "\u200fLoto"):
        with pytest.raises(ConfigError, match="invisibles"):
            config(ssid=name)
        made = dataclasses.replace(config(), network=dataclasses.replace(config().network, ssid=name))
        assert any("invisibles" in p for p in hotspot.hotspot_problems(made))  # a Config made in code
        assert "ssid_invisible" in misread_risks(name, "quine:2026")
    room = make_room(tmp_path)
    with room.app.test_request_context():
        bad = dataclasses.replace(room.config, network=dataclasses.replace(room.config.network, ssid="Loto\u202eellas"))
        assert any("invisibles" in w for w in wifi_warnings(bad))  # what /admin says
    room.hall.journal.close()
