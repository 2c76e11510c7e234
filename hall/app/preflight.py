"""The pre-flight before the doors open (``loto-hall doctor`` and /admin): every part the evening leans on, green or
red, each red with what to do — the storage's flush, the free space, the clock, the printer, the ball machine, the
keypad, the projector's voice, the relays, the Wi-Fi and its portal, the certificate.

Each check is ``(key, Finding)``: the key names it in the record (``PreflightRun``) and on the wire, the finding
says it in the language of ``_`` (each check's last parameter, named so that the catalogue's extractor reads its
sentences: the terminal's language by default, the /admin page's from the web).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hall import flush_times
from hall.app.findings import Finding, print_findings
from hall.app.lang import _
from hall.config import Config
from hall.events.settings import PREFLIGHT_CHECKS, PREFLIGHT_DETAIL_CHARS

Say = Callable[[str], str]
Check = tuple[str, Finding]
KEYS = PREFLIGHT_CHECKS

# The storage: slowdisk's figures (shared/tools/slowdisk/README.md) — a good SD card flushes in about 4 ms (p99
# 11 ms), a USB SSD in about 5 ms; both stall now and then (400 ms, about 1 flush in 5 000 on a card). The median
# does not tell a card from an SSD, it tells a worn or cheap card: past 5× a good card's, every ball, sale and
# claim waits visibly. And FLUSHES flushes meeting a 200 ms stall, where a good card meets one in 5 000, is a card
# that stalls far too often.
FLUSHES = 30
SLOW_MEDIAN_S = 0.020
SLOW_WORST_S = 0.200
MIN_FREE_BYTES = 256 * 1024 * 1024  # an evening's journal and papers take a few MB; a full card also slows down
EARLIEST = datetime(2026, 1, 1, tzinfo=UTC)  # no evening of this version ran before: a Pi's clock reset to 1970
CERT_SOON_DAYS = 30
VOICE_TEXT = "quatre-vingt-huit"


def storage(data_dir: Path, _: Say = _, count: int = FLUSHES) -> Check:
    times = flush_times(data_dir, count)
    median, worst = statistics.median(times), max(times)
    detail = _("{n} écritures : médiane {median:.1f} ms, pire {worst:.0f} ms").format(
        n=count, median=median * 1000, worst=worst * 1000
    )
    slow = median > SLOW_MEDIAN_S or worst > SLOW_WORST_S
    fix = _("carte SD lente : une carte A1/A2 de marque, ou mieux un SSD USB (le dossier des données dessus)")
    return "storage", Finding(_("Écriture sur la carte"), not slow, detail, fix if slow else "")


def space(data_dir: Path, _: Say = _) -> Check:
    free = shutil.disk_usage(data_dir).free
    ok = free >= MIN_FREE_BYTES
    fix = "" if ok else _("libérez de la place : sudo journalctl --vacuum-size=50M ; les anciennes soirées archivées")
    return "space", Finding(_("Place libre"), ok, _("{mb} Mo libres").format(mb=free // 2**20), fix)


def clock(data_dir: Path, _: Say = _, now: datetime | None = None) -> Check:
    """A plausible date: not before this version's first evening, not before the newest file of the data folder (a
    Pi has no battery clock: offline, without NTP — normal in a hall — it starts at the time it last saved)."""
    now = now or datetime.now(UTC)
    newest = max((p.stat().st_mtime for p in data_dir.iterdir() if p.is_file()), default=0.0)
    floor = max(EARLIEST, datetime.fromtimestamp(newest, UTC) - timedelta(minutes=5))
    ok = now >= floor
    detail = now.astimezone().strftime("%Y-%m-%d %H:%M")
    if not ok:
        detail += " < " + floor.astimezone().strftime("%Y-%m-%d %H:%M")
    fix = _("mettez l'heure d'une montre : sudo date -s 'AAAA-MM-JJ HH:MM' (hors ligne, pas de NTP : c'est normal)")
    return "clock", Finding(_("Horloge"), ok, detail, "" if ok else fix)


def printer(config: Config, _: Say = _) -> Check:
    from display.i18n import DEVICE_MESSAGES
    from drivers.printer import EscposDevice, PrinterAway

    name = _("Imprimante")
    if config.printer is None or not config.printer.url:
        return "printer", Finding(name, None, _("aucune imprimante configurée : les bons restent au journal"))
    device = EscposDevice(config.printer.url, config.printer.profile)
    try:
        warning = device.probe()
    except PrinterAway as exc:
        detail = _(str(DEVICE_MESSAGES.get(exc.code, exc.code))) % {"where": device.target.place, **exc.params}
        fix = _("allumez-la, vérifiez le câble (ou le réseau), le capot et le rouleau ; [printer] url")
        return "printer", Finding(name, False, detail, fix)
    if warning:
        return "printer", Finding(name, None, _("papier presque épuisé"), _("préparez un rouleau neuf"))
    return "printer", Finding(name, True, _("en ligne, papier présent ({where})").format(where=device.target.place))


def ball_machine(config: Config, _: Say = _) -> Check:
    import serial

    name = _("Machine à boules")
    section = config.ball_machine
    if section is None:
        return "ball_machine", Finding(name, None, _("non configurée : boules tapées à la console"))
    try:
        serial.Serial(section.port, section.baudrate, timeout=0).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        fix = _("branchez-la (câble USB-série), puis vérifiez [ball_machine] port ; ls /dev/serial/by-id/")
        why = _("introuvable") if not os.path.exists(section.port) else str(exc)[:100]
        return "ball_machine", Finding(name, False, f"{section.port} : {why}", fix)
    detail = _("{port} ouvert à {baud} bauds").format(port=section.port, baud=section.baudrate)
    return "ball_machine", Finding(name, True, detail)


def keypad(config: Config, _: Say = _) -> Check:
    name = _("Clavier numérique")
    if config.keypad is None:
        return "keypad", Finding(name, None, _("non configuré"))
    path = config.keypad.device
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as exc:
        fix = _("branchez-le ; vérifiez [keypad] device (ls /dev/input/by-id/) et le groupe input")
        why = _("introuvable") if isinstance(exc, FileNotFoundError) else exc.strerror
        return "keypad", Finding(name, False, f"{path} : {why}", fix)
    return "keypad", Finding(name, True, path)


def voice(config: Config, _: Say = _) -> Check:
    """espeak-ng present and rendering a ball's words (the projector's voice, whether or not [speech] is on)."""
    name = _("Voix du projecteur")
    espeak = shutil.which("espeak-ng")
    fix = "sudo apt-get install espeak-ng"
    if espeak is None:
        return "voice", Finding(name, False if config.speech.enabled else None, _("espeak-ng absent"), fix)
    with tempfile.TemporaryDirectory() as scratch:
        wav = Path(scratch) / "essai.wav"
        try:
            subprocess.run(
                [espeak, "-v", "fr-fr", "-w", str(wav), "--", VOICE_TEXT], check=True, timeout=20, capture_output=True
            )
            size = wav.stat().st_size
        except (subprocess.SubprocessError, OSError) as exc:
            return "voice", Finding(name, False, str(exc)[:120], fix)
    ok = size > 1000
    return "voice", Finding(
        name, ok, _("« {text} » dit ({kb} ko)").format(text=VOICE_TEXT, kb=size // 1024), "" if ok else fix
    )


def relays(config: Config, _: Say = _) -> Check:
    """The relays' own reports, as ``loto-hall doctor`` reads them (``hall/app/doctor.py``)."""
    from display.relay_wire import client
    from hall.app.doctor import doctor

    if not config.server.message_queue:
        return "relays", Finding(_("Relais des téléphones"), None, _("un seul processus, pas de relais"))
    found = doctor(config, client)
    bad = [f for f in found if f.ok is False]
    first = bad[0] if bad else found[-1]
    return "relays", Finding(_("Relais des téléphones"), not bad, f"{first.name} : {first.detail}", first.fix)


def wifi(config: Config, _: Say = _) -> Check:
    """The hall's Wi-Fi values, and the portal: the phones' captive-portal probes answered by the hall itself."""
    from hall.app.hotspot import hotspot_problems
    from hall.app.network_doctor import _probe, http_fetch
    from hall.net.captive import PROBES

    name = _("Wi-Fi et portail")
    if not config.network.ssid:
        return "wifi", Finding(name, None, _("pas de Wi-Fi de la salle configuré ([network] ssid)"))
    problems = hotspot_problems(config)
    if problems:
        return "wifi", Finding(name, False, "; ".join(problems)[:200], "loto-hall network doctor")
    fetch = http_fetch(config.server.port)
    probes = [_probe(p, fetch(p.host, p.path), True) for p in PROBES]
    bad = [f for f in probes if f.ok is False]
    if bad:
        return "wifi", Finding(
            name, False, f"{bad[0].name} : {bad[0].detail}", bad[0].fix or "loto-hall network doctor"
        )
    return "wifi", Finding(name, True, _("« {ssid} », portail répondu").format(ssid=config.network.ssid))


def certificate(config: Config, _: Say = _, now: datetime | None = None) -> Check:
    from cryptography import x509

    from display.tls import CERT_FILE

    name = _("Certificat")
    if not config.server.tls:
        return "certificate", Finding(name, None, _("pas de HTTPS ([server] tls)"))
    path = config.data_dir / CERT_FILE
    fix = _("redémarrez la salle : un certificat neuf est fait (sudo systemctl restart loto-hall)")
    try:
        cert = x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError) as exc:
        return "certificate", Finding(name, False, str(exc)[:120], fix)
    now = now or datetime.now(UTC)
    start, end = cert.not_valid_before_utc, cert.not_valid_after_utc
    detail = _("valable du {start} au {end}").format(start=f"{start:%Y-%m-%d}", end=f"{end:%Y-%m-%d}")
    if now < start:
        return "certificate", Finding(name, False, detail, _("l'horloge retarde : mettez-la à l'heure d'abord"))
    if now > end:
        return "certificate", Finding(name, False, detail, fix)
    return "certificate", Finding(name, None if end - now < timedelta(days=CERT_SOON_DAYS) else True, detail)


def kept(checks: list[Check]) -> tuple[tuple[str, bool | None, str], ...]:
    """What the record keeps of a pre-flight (``Hall.record_preflight``): each key, verdict and detail."""
    return tuple((key, f.ok, f.detail[:PREFLIGHT_DETAIL_CHARS]) for key, f in checks)


def preflight(config: Config, _: Say = _, only: tuple[str, ...] = KEYS) -> list[Check]:
    """The checks named in ``only`` (every one by default), in the order a person fixes them."""
    data_dir = config.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    checks: dict[str, Callable[[], Check]] = {
        "storage": lambda: storage(data_dir, _),
        "space": lambda: space(data_dir, _),
        "clock": lambda: clock(data_dir, _),
        "printer": lambda: printer(config, _),
        "ball_machine": lambda: ball_machine(config, _),
        "keypad": lambda: keypad(config, _),
        "voice": lambda: voice(config, _),
        "relays": lambda: relays(config, _),
        "wifi": lambda: wifi(config, _),
        "certificate": lambda: certificate(config, _),
    }
    return [checks[key]() for key in KEYS if key in only]


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """``loto-hall doctor``: 0 when every check passes, 1 otherwise."""
    from display.relay_wire import client
    from hall.app.doctor import doctor, last_start
    from hall.app.doctor_secrets import secret_findings
    from hall.config import DEFAULT_PATHS, load_config

    config = load_config(args.config)
    source = args.config or next((str(p) for p in DEFAULT_PATHS if p.exists()), None)
    checks = [f for key, f in preflight(config) if key != "relays"]  # the relays: doctor's own findings, in full
    found = secret_findings(config.data_dir, source) + checks  # the secrets' modes first
    found += [last_start(config), *doctor(config, client)]
    print_findings(found, out)
    return 1 if any(f.ok is False for f in found) else 0
