"""A tie's way at the console (docs/loto-rules.md L14c): said to the hall the moment the speaker picks it, kept
when he goes back, changed only with a reason that the journal keeps; the projector says each way to the hall."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.display.conftest import A1, A2, play_to_tie
from tests.display.test_keypad_console import console_with_keys, pad


def test_a_hand_draw_announced_is_kept_and_changed_only_with_a_reason(page, context, live):
    h = live.hall
    play_to_tie(live)
    screen = context.new_page()
    screen.goto(live.url + "/")
    expect(screen.locator("#banner-text")).to_contain_text("Vérification")  # the tie waits for its way
    console_with_keys(page, live)
    expect(page.locator("#pending li")).to_have_count(2)
    pad(page, "NumpadMultiply", "Numpad2", "Numpad2")  # award: a tie; 2: tokens drawn by hand
    expect(page.locator("#tie-n-0")).to_be_focused()
    expect(screen.locator("#banner-text")).to_have_text("Égalité : chaque gagnant tire un numéro auprès de l'animateur")
    said = [r for r in h.records() if r.type == "tie:announced"]
    assert [(r.event.method, r.event.cards, r.role) for r in said] == [("physical", (A1, A2), "speaker")]
    page.click("#tie-back")  # « Revenir »: the way stays said
    expect(page.locator("#tie-dialog")).to_be_hidden()
    pad(page, "NumpadMultiply", "Numpad2")  # award again: straight to the numbers
    expect(page.locator("#tie-n-0")).to_be_focused()
    expect(page.locator("#tie-announced")).to_contain_text("Tirage à la main dans la salle")
    page.click("#tie-other")  # another way…
    expect(page.locator("#tie-choices li.off")).to_have_count(2)
    page.click("#tie-choices li[data-n='1']")  # …the computer's draw: why?
    expect(page.locator("#tie-reason")).to_be_focused()
    page.click("#tie-change button[type=submit]")  # no reason, no change
    assert [r.event.method for r in h.records() if r.type == "tie:announced"] == ["physical"]
    page.keyboard.type("le jeton de A-2 est tombé")
    page.keyboard.press("Enter")
    expect(page.locator("#award-result")).to_contain_text("Tirage au sort")
    said = [r.event for r in h.records() if r.type == "tie:announced"]
    assert [(e.method, e.previous, e.reason) for e in said] == [
        ("physical", "", ""),
        ("draw", "physical", "le jeton de A-2 est tombé"),
    ]
    assert said[1].session and h.evening.partie.lots[0].award.tie_mode == "draw_lowest"
