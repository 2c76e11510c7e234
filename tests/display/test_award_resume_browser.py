"""What follows « Attribuer le lot », from the speaker's numeric keypad (docs/loto-rules.md L11a): the same every
time — the draw waits, the console says so under the entry, a ball typed meanwhile is refused in words that stay
until the next action, and ``+`` resumes."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.display.conftest import A1
from tests.display.test_keypad_console import ball, console_with_keys, pad

HELD = "lot attribué — + pour reprendre"


def award_then_resume(page, h, n: int) -> None:
    pad(page, "NumpadMultiply", "Numpad2")  # * 2: award the lot
    expect(page.locator("#award-result")).to_be_visible()
    expect(page.locator("#sp-status")).to_contain_text(HELD)
    expect(page.locator("#entry-state")).to_contain_text(HELD)
    pad(page, *[f"Numpad{d}" for d in str(n)], "NumpadEnter")  # a ball typed while the draw waits…
    refusal = page.locator("#entry-msg")
    expect(refusal).to_contain_text("Lot attribué : le tirage est arrêté")
    pad(page, "Numpad1")  # …the word stays while the next number is typed
    expect(refusal).to_contain_text("Lot attribué : le tirage est arrêté")
    assert n not in h.evening.partie.draws
    pad(page, "NumpadDecimal", "NumpadAdd")  # + resumes: the next action, the word goes
    expect(page.locator("#sp-status")).to_contain_text("Tirage en cours")
    expect(page.locator("#entry-state")).to_be_hidden()
    expect(refusal).to_be_empty()


def test_after_each_award_the_draw_waits_and_plus_resumes_it(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    console_with_keys(page, live)
    for n in (4, 13, 37, 52, 80):
        ball(page, n)
    pad(page, "NumpadAdd")  # the first quine: announced with +
    expect(page.locator("#sp-status")).to_contain_text("Tirage arrêté : vérification")
    assert h.check_claim(A1, role="controller").verdict == "valid"
    expect(page.locator("#pending li")).to_have_count(1)
    award_then_resume(page, h, 18)
    ball(page, 18)
    for n in (9, 21, 45, 66, 84):  # the double quine: checked without being announced
        ball(page, n)
    assert h.check_claim(A1, role="controller").verdict == "valid"
    expect(page.locator("#pending li")).to_have_count(1)
    award_then_resume(page, h, 29)  # the very same, the second time
    ball(page, 29)
    assert h.evening.partie.draws[-2:] == [84, 29]
