"""A tie's way at the console (docs/loto-rules.md L14c): said to the hall the moment the speaker picks it, kept
when he goes back, changed only with a reason that the journal keeps; the projector says each way to the hall."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.display.axe import shoot
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


def test_award_clears_the_last_awards_result_before_the_next_lot_is_given(page, live, tmp_path):
    """The quine's winner and voucher codes stay under « Attribuer le lot » only until it is pressed again: the
    double quine's tie asks its way, a refusal (two tokens with the same number) is said, and the quine's result is
    no longer on the console to be read as the double quine's."""
    h = live.hall
    h.start_partie(role="speaker")
    for n in (4, 13, 37, 52, 80):
        h.draw(n, role="speaker")
    assert h.check_claim(A1, role="controller").verdict == "valid"
    console_with_keys(page, live)
    expect(page.locator("#pending li")).to_have_count(1)
    page.click("#award")
    result = page.locator("#award-result")
    expect(result).to_contain_text("Quine — Panier garni")
    expect(result.locator(".voucher-code")).not_to_have_count(0)
    h.resume(role="speaker")
    for n in (5, 9, 21, 45, 66, 84):  # rows 2 of A1 and A2 (the same) complete on 84: a tie for the double quine
        h.draw(n, role="speaker")
    assert h.check_claim(A1, role="controller").verdict == "valid"
    assert h.check_claim(A2, role="controller").verdict == "valid"
    expect(page.locator("#pending li")).to_have_count(2)
    page.click("#award")
    expect(page.locator("#tie-dialog")).to_be_visible()
    expect(result).to_be_hidden()  # the tie's question is not asked over the quine's winner
    page.click("#tie-choices li[data-n='2']")  # tokens drawn by hand…
    page.fill("#tie-n-0", "31")
    page.fill("#tie-n-1", "31")  # …the same number typed twice: the hall refuses
    page.click("#tie-numbers button[type=submit]")
    expect(page.locator("#check-msg")).not_to_be_empty()
    expect(result).to_be_hidden()
    page.set_viewport_size({"width": 1280, "height": 720})
    shoot(page, str(tmp_path / "speaker-1280x720-award-refused.png"))
    assert h.evening.partie.lots[1].award is None
    page.click("#award")
    page.fill("#tie-n-0", "31")
    page.fill("#tie-n-1", "76")
    page.click("#tie-numbers button[type=submit]")
    expect(result).to_contain_text("Double quine — Jambon")
    expect(result).not_to_contain_text("Quine — Panier garni")
