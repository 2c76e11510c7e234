"""The whole evening's stage: the real hall — ``loto-hall serve`` on a data folder, as systemd runs it — and the pages
people hold, each in its own Chromium context, kept in one ``Evening`` that every step takes; the cartons the evening
is played with; and what several steps do alike (a ball typed on the speaker's keypad, a carton checked at /controle,
a lot awarded, a carton on the phone).

Screenshots go to the test's folder, or to docs/screenshots with ``LOTO_SCREENSHOTS=1``.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from drivers.printer_sink import PrinterSink, decode_text
from hall.cartons.card_ids import make_card_id
from tests.app.conftest import HallProcess, free_port
from tests.display.conftest import PINS, login_page

NBSP = "\u00a0"

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
HALL_NAME = "Comité des fêtes de Saint-Loto"

# The cartons of the evening, by the part each plays (series A, numbered 1…): their rows as printed.
GRIDS = {
    "P": "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90",  # the phone's first: quine, then double quine
    "X": "1 12 30 40 70 / 2 22 31 41 71 / 3 23 32 42 72",  # the phone's second: never wins
    "F": "5 14 37 52 81 / 8 25 46 67 85 / 19 28 59 75 89",  # a false claim on the quine's ball
    "T": "6 15 33 53 76 / 7 16 34 48 77 / 17 26 57 63 86",  # T and U tie on the middle row, ball 77
    "U": "1 14 35 50 76 / 7 16 36 48 77 / 8 18 38 64 88",
    "C": "2 11 20 30 60 / 3 12 21 41 61 / 4 13 22 42 62",  # the carried Vélo, carton plein in partie 2
    "V": "5 10 24 43 65 / 6 17 27 44 67 / 9 19 28 47 69",  # its sale is voided
    "R": "1 10 23 50 70 / 2 11 24 51 73 / 3 19 25 55 79",  # a reservation paid later
}
IDS = {part: make_card_id("A", n) for n, part in enumerate(GRIDS, start=1)}

# the config file: a hall that never set its tiers nor its programme on /admin yet
CONFIG = """\
[hall]
name = "{name}"
data_dir = "{data}"
[server]
host = "127.0.0.1"
staff_port = 0
[auth]
{pins}
[printer]
url = "{printer}?timeout=2"
[[sales.price]]
cards = 1
eur = 3
[[programme.partie]]
consolation = "Bouteille de cidre"
lots = [{{kind = "quine", label = "Quine"}}, {{kind = "double_quine", label = "Double quine"}},
        {{kind = "carton_plein", label = "Carton plein"}}]
"""

SIZES = {
    "admin": (1280, 800),
    "caisse": (1024, 768),
    "speaker": (1280, 720),
    "controle": (360, 640),
    "phone": (360, 640),
    "projector": (1920, 1080),
    "lots": (360, 640),
    "buvette": (1024, 768),
}
PAGES = {
    "admin": ("/admin", "admin_pin", ""),
    "caisse": ("/caisse", "desk_pin", "Anne"),
    "speaker": ("/speaker", "speaker_pin", "Marc"),
    "controle": ("/controle", "controller_pin", "Lise"),
    "lots": ("/lots", "desk_pin", "Paul"),
    "buvette": ("/buvette", "buvette_pin", "Zoé"),
    "projector": ("/", None, ""),
    "phone": ("/mes-cartons", None, ""),
}


def shown(card_id: str) -> str:
    """A carton ID as the pages show it: the check character set apart by a no-break space."""
    return card_id[:-1] + "\u00a0" + card_id[-1]


@dataclass
class Evening:
    """The hall and the pages of one evening; ``noted`` keeps what a later step checks (vouchers, sales…);
    ``printer`` is the hall's ESC/POS printer (a real TCP sink, kept across the service's restarts)."""

    root: Path
    browser: Any
    data: Path = field(init=False)
    config: Path = field(init=False)
    port: int = field(init=False)
    hall: HallProcess | None = None
    pages: dict = field(default_factory=dict)
    contexts: dict = field(default_factory=dict)
    noted: dict = field(default_factory=dict)
    shots: int = 0
    printer: PrinterSink = field(default_factory=PrinterSink)

    def __post_init__(self) -> None:
        self.data = self.root / "data"
        self.config = self.root / "loto-hall.toml"
        pins = "\n".join(f'{role} = "{pin}"' for role, pin in PINS.items())
        self.printer.start()
        config = CONFIG.format(name=HALL_NAME, data=self.data, pins=pins, printer=self.printer.url)
        self.config.write_text(config, encoding="utf-8")
        self.port = free_port()
        self.folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else self.root / "shots"
        self.folder.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------------ the hall
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """``loto-hall serve --config …`` on the evening's port, answering."""
        self.hall = HallProcess(self.root, ["--config", str(self.config)], self.port, None)
        self.hall.wait_answering()

    def stop(self) -> None:
        """The service stopped as systemd stops it (SIGTERM), and gone."""
        assert self.hall is not None
        self.hall.signal(signal.SIGTERM)
        assert self.hall.wait(30) == 0, self.hall.output()
        self.hall.close()
        self.hall = None

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        """``loto-hall ARGS`` as the volunteer types it on the Pi (French)."""
        env = {**os.environ, "LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
        return subprocess.run(
            [sys.executable, "-m", "hall.app", *args],
            cwd=self.root,
            env=env,
            text=True,
            capture_output=True,
            timeout=60,
        )

    # ------------------------------------------------------------------ the pages
    def open(self, name: str, path: str | None = None):
        """Page ``name`` (see PAGES) in a browser context of its own, logged in with its role's PIN."""
        default, pin, who = PAGES[name]
        width, height = SIZES[name]
        phone = width < 500
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale="fr-FR",
            timezone_id="Europe/Paris",
            accept_downloads=True,
            has_touch=phone,
            is_mobile=phone,
        )
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        self.contexts[name], self.pages[name] = ctx, page
        if pin:
            login_page(page, self.url + (path or default), PINS[pin], name=who)
        else:
            page.goto(self.url + (path or default))
        if name not in ("lots", "buvette"):  # every page but the prize desk's and the bar's follows the hall
            page.wait_for_selector("body[data-seq]", state="attached")
        if name == "speaker":
            page.wait_for_selector("body[data-keys=loaded]", state="attached")
        return page

    def __getitem__(self, name: str):
        return self.pages[name]

    def reached(self, link: str) -> str:
        """A printed link (the hall's own address) as this test's server answers it."""
        parts = urlsplit(link)
        return self.url + parts.path + (f"?{parts.query}" if parts.query else "")

    def shot(self, name: str, page_name: str, full: bool = False) -> None:
        """A screenshot of page ``page_name`` as it is now (``full``: the whole page), in the evening's order."""
        self.shots += 1
        page = self.pages[page_name]
        page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")
        page.screenshot(path=str(self.folder / f"evening-{self.shots:02d}-{page_name}-{name}.png"), full_page=full)

    def download(self, page_name: str, click: str) -> bytes:
        """What clicking ``click`` on a page downloads."""
        page = self.pages[page_name]
        with page.expect_download() as got:
            page.click(click)
        return Path(got.value.path()).read_bytes()

    def printed(self, *words: str, count: int = 1, timeout: float = 15.0) -> list[str]:
        """The texts of the printer's jobs holding every one of ``words``, once ``count`` of them have come out."""
        deadline = time.monotonic() + timeout
        while True:
            texts = [decode_text(job) for job in self.printer.jobs]
            found = [text for text in texts if all(w in text for w in words)]
            if len(found) >= count:
                return found
            assert time.monotonic() < deadline, f"{count} job(s) with {words} expected; printed: {texts}"
            time.sleep(0.1)

    def settled(self, quiet_s: float = 0.5, timeout: float = 10.0) -> None:
        """Until the journal stops growing: the print queue journals each job just after the printer took it, so a
        report or a fingerprint read afterwards holds every record."""
        assert self.hall is not None
        deadline, last = time.monotonic() + timeout, self.hall.state()["seq"]
        while time.monotonic() < deadline:
            time.sleep(quiet_s)
            now = self.hall.state()["seq"]
            if now == last:
                return
            last = now
        raise AssertionError(f"the journal still grows after {timeout} s")

    def close(self) -> None:
        for ctx in self.contexts.values():
            ctx.close()
        if self.hall is not None:
            self.hall.close()
        self.printer.stop()


def cards_csv() -> bytes:
    """The evening's cartons as a spreadsheet saves them (semicolons, Windows-1252), to import on /admin."""
    lines = ["card_id;row1;row2;row3"] + [
        f"{IDS[part]};" + ";".join(r.strip() for r in grid.split("/")) for part, grid in GRIDS.items()
    ]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def qr_links(pdf: bytes) -> list[str]:
    """The QR codes' texts on a PDF's first page, read from the rendered page as a phone's camera would."""
    import pypdfium2
    import zxingcpp

    image = pypdfium2.PdfDocument(io.BytesIO(pdf))[0].render(scale=3).to_pil()
    return [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]


def pdf_text(data: bytes, folder: Path, name: str) -> str:
    """``pdftotext -layout`` of a PDF (poppler-utils), as a treasurer would copy it."""
    path = folder / name
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    return out.stdout


# ---------------------------------------------------------------------------------------------- a carton on a phone
def card(page, card_id: str):
    return page.locator(f'[data-card="{card_id}"]')


def status_of(page, card_id: str):
    return card(page, card_id).locator(".mc-status")


# ---------------------------------------------------------------------------------------------- the speaker's keypad
def pad(ev: Evening, *keys: str) -> None:
    for k in keys:
        ev["speaker"].keyboard.press(k)


def ball(ev: Evening, number: int) -> None:
    """A ball typed on the speaker's numeric keypad and drawn (Enter): the console and the projector show it."""
    pad(ev, *[f"Numpad{d}" for d in str(number)])
    expect(ev["speaker"].locator("#entry")).to_have_text(str(number))  # shown huge before it counts
    pad(ev, "NumpadEnter")
    expect(ev["speaker"].locator("#sp-last")).to_have_text(str(number))
    expect(ev["projector"].locator("#last")).to_have_text(str(number))


def balls(ev: Evening, *numbers: int) -> None:
    for n in numbers:
        ball(ev, n)


def award(ev: Evening, winners: list[str]) -> list[str]:
    """« Attribuer le lot » (* 2) on the console: the winners said, the voucher codes returned."""
    speaker = ev["speaker"]
    pad(ev, "NumpadMultiply", "Numpad2")
    result = speaker.locator("#award-result")
    expect(result).to_contain_text("Lot attribué au carton " + ", ".join(map(shown, winners)))
    expect(speaker.locator("#sp-status")).to_contain_text("Tirage arrêté : lot attribué — + pour reprendre")
    return result.locator(".voucher-code").all_text_contents()


def resume(ev: Evening) -> None:
    """``+`` after an award: the draw runs again (docs/loto-rules.md L11a)."""
    pad(ev, "NumpadAdd")
    expect(ev["speaker"].locator("#sp-status")).to_contain_text("Tirage en cours")


def next_card(ev: Evening) -> None:
    """« Carton suivant » at /controle when a verdict is still up (a new ball may be sending it away meanwhile: the
    page answers both at once, never a click on a button that has just gone)."""
    ctl = ev["controle"]
    ctl.evaluate(
        "() => { const box = document.getElementById('verdict');"
        " if (!box.hidden) document.getElementById('verdict-close').click(); }"
    )
    expect(ctl.locator("#verdict")).to_be_hidden()


def check(ev: Evening, card_id: str, line: str, tone: str) -> None:
    """A controller types a carton at /controle: the verdict fills the phone's screen, in its colour."""
    ctl = ev["controle"]
    next_card(ev)
    ctl.fill("#card-id", card_id)
    ctl.press("#card-id", "Enter")
    expect(ctl.locator("#verdict")).to_have_attribute("data-tone", tone)
    expect(ctl.locator("#verdict-line")).to_have_text(line)
    expect(ctl.locator("#verdict-card")).to_have_text(shown(card_id))


def partie_starts(ev: Evening, number: int, lot: str) -> None:
    """« Démarrer la partie » from the keypad (* 4): every screen follows."""
    ev["speaker"].wait_for_selector("#start-box:not([hidden])")
    pad(ev, "NumpadMultiply", "Numpad4")
    expect(ev["speaker"].locator("#sp-partie")).to_have_text(f"Partie {number}")
    expect(ev["speaker"].locator("#sp-lot")).to_have_text(lot)
    screen = ev["projector"]
    expect(screen.locator("#partie")).to_have_text(f"Partie {number}")
    expect(screen.locator("#lot")).to_have_text(lot)
    expect(ev["phone"].locator("#mc-lot")).to_have_text(lot)
    expect(ev["controle"].locator("#ctl-lot")).to_have_text(lot)
