"""/admin shows the journal's fingerprint as the paper prints it, asks for the board's copy, and lists each archived
evening's verdict — in French and English, at 1920×1080, 1280×720 and 360×640 (screenshots with
``LOTO_SCREENSHOTS=1`` in docs/screenshots/)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.conftest import PINS, login_page, make_room, served
from tests.display.test_record_api import archived

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.mark.parametrize(
    "locale, words",
    [
        ("fr-FR", ("Empreinte du journal", "✓ intact", "Copie du bureau demandée")),
        ("en-GB", ("Journal fingerprint", "✓ intact", "Board's copy asked for")),
    ],
)
def test_admin_shows_the_fingerprint_asks_for_the_ticket_and_the_archives_verdicts(browser, tmp_path, locale, words):
    room = make_room(tmp_path)
    archived(room, tmp_path)
    room.hall.start_partie(role="speaker")
    for n in (4, 13, 37):
        room.hall.draw(n, role="speaker")
    with served(room):
        for width, height in ((1920, 1080), (1280, 720), (360, 640)):
            ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
            page = ctx.new_page()
            login_page(page, room.url + "/admin", PINS["admin_pin"])
            fingerprint = page.locator("#journal-fingerprint")
            expect(fingerprint).to_contain_text(words[0])
            expect(fingerprint).to_contain_text(room.hall.fingerprint().shown.replace(" ", "\u00a0"))
            expect(page.locator("#evenings td.record")).to_have_text(
                words[1]
                + (
                    ", empreinte de l'archivage retrouvée"
                    if locale == "fr-FR"
                    else ", the fingerprint noted at archiving found"
                )
            )
            if width == 1920:
                page.click("#print-ticket")
                expect(page.locator("#ticket-msg")).to_contain_text(words[2])
                (job,) = room.hall.tickets_to_print()
                on_paper = job.fingerprint.shown.replace(" ", "\u00a0")  # its groups kept on one line
                expect(page.locator("#ticket-msg")).to_contain_text(on_paper)
                expect(fingerprint).to_contain_text(on_paper)  # the request is the last record now
            suffix = f"{width}x{height}" + ("-en" if locale != "fr-FR" else "")
            folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") else tmp_path
            page.locator("#journal-fingerprint").scroll_into_view_if_needed()
            page.screenshot(path=str(folder / f"admin-empreinte-{suffix}.png"))
            page.locator("#evenings").scroll_into_view_if_needed()
            page.screenshot(path=str(folder / f"admin-soirees-verdict-{suffix}.png"))
            ctx.close()
