"""« Clore la soirée » in Chromium (issue 40), from /admin and from the speaker's console: asked twice (the question,
then the word typed: a wrong word closes nothing), then the page says the evening is closed, the journal's
fingerprint and where the board's copy stands, and disables what the hall now refuses; a refused close (a partie
running) is said; a page opened before the close learns it by itself, a page opened after knows; the projector shows « la soirée est terminée » and the
fingerprint big (screenshots with ``LOTO_SCREENSHOTS=1`` in docs/screenshots/)."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text
from tests.display.axe import shoot
from tests.display.conftest import A3, PINS, answer, login_page, make_room, no_native_dialogs, served

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def folder(tmp_path) -> Path:
    if os.environ.get("LOTO_SHOTS_TO"):  # to look at them
        return Path(os.environ["LOTO_SHOTS_TO"])
    return DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path


def one_partie(room) -> None:
    """A carton sold at the door, a partie of three balls, « Démarquez »."""
    room.hall.sell([A3], role="desk", payment="especes", cents=300)
    room.hall.start_partie(role="speaker")
    for n in (4, 13, 37):
        room.hall.draw(n, role="speaker")
    room.hall.clear(role="speaker", force=True)


def confirm_twice(page, word: str, first: str = "Clore la soirée\u00a0?") -> None:
    """Both confirmations: the question, then the word typed and sent with Enter."""
    page.click("#close-evening")
    box = page.locator("dialog#ask[open]")
    expect(box.locator("#ask-title")).to_have_text(first)
    expect(box.locator("#ask-text")).to_contain_text("Plus aucune boule, vente ni partie ensuite.")
    box.locator("button[data-answer='yes']").click()  # « Continuer »: the second question follows in the same box
    expect(box.locator("#ask-title")).to_have_text("Dernière confirmation")
    expect(box.locator("#ask-label")).to_contain_text("Tapez CLORE")
    page.locator("#ask-field").press_sequentially(word)
    page.locator("#ask-field").press("Enter")
    expect(page.locator("dialog#ask[open]")).to_have_count(0)


def test_the_admin_closes_the_evening_and_the_console_opened_before_learns_it(browser, tmp_path):
    room = make_room(tmp_path)
    one_partie(room)
    room.hall.start_partie(role="speaker")  # the second partie runs: the close is refused, and said
    with served(room):
        ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
        console = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")  # its own login
        admin, speaker = ctx.new_page(), console.new_page()
        native = no_native_dialogs(admin)
        login_page(speaker, room.url + "/speaker", PINS["speaker_pin"])  # the console, opened before the close
        login_page(admin, room.url + "/admin", PINS["admin_pin"])
        expect(admin.locator("#sales-list button")).to_have_count(1)
        confirm_twice(admin, "CLORE")
        expect(admin.locator("#close-msg")).to_have_text("Une partie est déjà en cours.")
        expect(admin.locator("#close-evening")).to_be_enabled()
        assert not room.hall.evening.closed
        room.hall.clear(role="speaker", force=True)
        # a word mistyped closes nothing
        confirm_twice(admin, "CLOSE")
        expect(admin.locator("#close-msg")).to_have_text("Ce n'est pas CLORE\u00a0: la soirée reste ouverte.")
        assert not room.hall.evening.closed
        # « Non » at the first question closes nothing either
        admin.click("#close-evening")
        answer(admin, "no", "Clore la soirée")
        assert not room.hall.evening.closed
        confirm_twice(admin, "clore")
        expect(admin.locator("#close-state")).to_contain_text("Soirée close à")
        job = room.hall.closing()
        assert room.hall.evening.closed and job is not None
        on_paper = job.fingerprint.shown.replace(" ", "\u00a0")
        expect(admin.locator("#close-fp")).to_contain_text(on_paper)
        expect(admin.locator("#close-printer")).to_have_text(
            "Aucune imprimante\u00a0: la copie du bureau reste au journal\u00a0; imprimez-la depuis /admin une fois "
            "l'imprimante branchée."
        )
        expect(admin.locator("#close-evening")).to_be_hidden()
        for refused in ("#sold-form button", "#sales-list button"):  # a carton sold, a sale voided
            expect(admin.locator(refused)).to_be_disabled()
        expect(admin.locator("#print-ticket")).to_be_enabled()  # the board's copy may be printed again
        admin.locator("#close-panel").scroll_into_view_if_needed()
        shoot(admin, str(folder(tmp_path) / "admin-soiree-close-1280x720.png"))
        assert native == []
        # the console opened before learns it by itself (within 15 s), and disables what is refused
        expect(speaker.locator("#close-fp")).to_contain_text(on_paper, timeout=25_000)
        expect(speaker.locator("#start")).to_be_disabled()
        expect(speaker.locator("#close-evening")).to_be_hidden()
        console.close()
        ctx.close()


def test_the_speaker_closes_from_the_console_the_copy_prints_and_a_page_opened_later_knows(browser, tmp_path):
    room = make_room(tmp_path)
    one_partie(room)
    sink = PrinterSink()
    sink.start()
    queue = PrintQueue(
        room.hall, EscposDevice(f"tcp://127.0.0.1:{sink.port}?timeout=2"), retry_initial_s=0.005, retry_max_s=0.05
    )
    queue.start()
    try:
        with served(room):
            ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
            page = ctx.new_page()
            login_page(page, room.url + "/speaker", PINS["speaker_pin"])
            expect(page.locator("#start")).to_be_enabled()
            confirm_twice(page, "CLORE")
            expect(page.locator("#close-printer")).to_have_text(
                "Copie du bureau imprimée\u00a0: à signer par le président et le trésorier."
            )
            fp = room.hall.closing().fingerprint
            expect(page.locator("#close-fp")).to_contain_text(fp.shown.replace(" ", "\u00a0"))
            for refused in ("#start", "#check-id", "#check-form button", "#draw-button", "#clear", "#announce"):
                expect(page.locator(refused)).to_be_disabled()
            seq = room.hall.journal.last_seq
            page.keyboard.type("42")  # the keys draw nothing either
            page.keyboard.press("Enter")
            assert room.hall.journal.last_seq == seq
            page.locator("#close-panel").scroll_into_view_if_needed()
            shoot(page, str(folder(tmp_path) / "speaker-soiree-close-1920x1080.png"))
            # the admin's page opened after the close knows it, in English too
            en = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
            admin = en.new_page()
            login_page(admin, room.url + "/admin", PINS["admin_pin"])
            expect(admin.locator("#close-state")).to_contain_text("Evening closed at")
            expect(admin.locator("#close-printer")).to_have_text(
                "Board's copy printed: for the president and the treasurer to sign."
            )
            expect(admin.locator("#close-evening")).to_be_hidden()
            en.close()
            ctx.close()
        (job,) = sink.wait_for_jobs(1)
        assert fp.shown in decode_text(job) and "COMPTES DE LA SOIRÉE" in decode_text(job)
    finally:
        queue.stop()
        sink.stop()


def test_the_projector_says_the_evening_is_over_and_shows_the_fingerprint_big(browser, tmp_path):
    room = make_room(tmp_path)
    one_partie(room)
    room.hall.close_evening(role="speaker")
    fp = room.hall.closing().fingerprint
    with served(room):
        for width, height in ((1920, 1080), (1280, 720), (1024, 768)):  # a 4:3 projector too
            ctx = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
            page = ctx.new_page()
            page.goto(room.url + "/")
            expect(page.locator("#between-title")).to_have_text(
                "La soirée est terminée\u00a0: merci et à bientôt\u00a0!"
            )
            expect(page.locator("#journal-title")).to_have_text("Empreinte du journal à la clôture de la soirée")
            expect(page.locator("#journal-fp")).to_have_text(fp.shown)
            for gone in (
                "#between-prices",
                "#between-ties",
                "#between-players",
            ):  # no price nor help for a closed evening
                expect(page.locator(gone)).to_have_text("")
            # whole on the screen, and big: for anyone in the hall to photograph
            box = page.locator("#journal").bounding_box()
            assert box is not None and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, box
            size = page.locator("#journal-fp").evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= min(height / 12, width / 20), size  # 10 % of the screen's height, or of a 4:3's width
            fp_box = page.locator("#journal-fp").bounding_box()
            assert fp_box is not None and fp_box["height"] < 2 * size, fp_box  # on one line
            shoot(page, str(folder(tmp_path) / f"projector-{width}x{height}-soiree-terminee.png"))
            ctx.close()
