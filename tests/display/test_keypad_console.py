"""A whole partie on /speaker from a USB numeric keypad, NumLock on and off, without the mouse (issue 15)."""

from __future__ import annotations

from playwright.sync_api import expect

from hall.loto.keypad_keys import BROWSER_CODES, DEFAULT_KEYS, DIGIT_KEYS, browser_keymap
from tests.display.conftest import A1, A3, PINS, login_page

# what a keypad sends with NumLock off: the navigation key, with the physical key's code
NUMLOCK_OFF = {
    "0": "Insert",
    "1": "End",
    "2": "ArrowDown",
    "3": "PageDown",
    "4": "ArrowLeft",
    "5": "Clear",
    "6": "ArrowRight",
    "7": "Home",
    "8": "ArrowUp",
    "9": "PageUp",
}


def numlock_off(page, digit: str) -> bool:
    """Press keypad ``digit`` with NumLock off; returns whether the page let the browser's default happen."""
    return page.evaluate(
        """([key, code]) => (document.activeElement || document.body).dispatchEvent(
        new KeyboardEvent("keydown", {key, code, bubbles: true, cancelable: true}))""",
        [NUMLOCK_OFF[digit], f"Numpad{digit}"],
    )


def console_with_keys(page, live) -> None:
    """The speaker's console, logged in, once it has read the key table and the hall's state (keys pressed before
    the state are not acted on: the console does not know the partie yet)."""
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    page.wait_for_selector("body[data-keys=loaded][data-seq]", state="attached")


def pad(page, *keys: str) -> None:
    for k in keys:
        page.keyboard.press(k)


def ball(page, number: int) -> None:
    pad(page, *[f"Numpad{d}" for d in str(number)], "NumpadEnter")
    expect(page.locator("#sp-last")).to_have_text(str(number))


def test_the_browser_and_the_pi_keypad_share_one_table(client):
    keys = client.get("/api/keypad/keys").get_json()["keys"]
    assert keys == browser_keymap()
    for name, digit in DIGIT_KEYS.items():
        assert keys[BROWSER_CODES[name]] == digit
    for action, names in DEFAULT_KEYS.items():
        assert all(keys[BROWSER_CODES[n]] == action for n in names)
    assert {
        keys[c]
        for c in ("NumpadAdd", "NumpadSubtract", "NumpadMultiply", "NumpadDivide", "NumpadDecimal", "NumpadEnter")
    } == {"claim", "undo", "menu", "cancel", "erase", "enter"}


def test_the_config_changes_the_browser_keys_too(tmp_path):
    from tests.display.conftest import make_room

    room = make_room(tmp_path, extra={"keypad": {"device": "/dev/null-keypad", "keys": {"undo": "KEY_KPASTERISK"}}})
    keys = room.app.test_client().get("/api/keypad/keys").get_json()["keys"]
    assert keys["NumpadMultiply"] == "undo" and "NumpadSubtract" not in keys
    room.hall.journal.close()


def test_a_partie_from_the_keypad_alone_numlock_on_and_off(page, live):
    h = live.hall
    console_with_keys(page, live)
    expect(page.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    pad(page, "NumpadMultiply")  # the numbered actions
    expect(page.locator("#key-menu")).to_be_visible()
    pad(page, "Numpad4")  # 4: start the partie
    expect(page.locator("#sp-partie")).to_have_text("Partie 1")
    ball(page, 4)
    assert numlock_off(page, "1") is False and numlock_off(page, "3") is False  # End, PageDown: never scroll
    expect(page.locator("#entry")).to_have_text("13")
    pad(page, "NumpadEnter")
    expect(page.locator("#sp-last")).to_have_text("13")
    assert page.evaluate("window.scrollY") == 0
    for n in (37, 52):
        ball(page, n)
    pad(page, "Numpad9", "NumpadDecimal", "Numpad5", "NumpadDivide")  # . erases a digit, / clears
    expect(page.locator("#entry")).to_have_text("—")
    ball(page, 70)
    pad(page, "NumpadSubtract")  # undo asks…
    expect(page.locator("#confirm-text")).to_have_text("Annuler le numéro 70 ?")
    pad(page, "Numpad4")  # …any other key says no
    expect(page.locator("#confirm")).to_be_hidden()
    assert h.evening.partie.draws[-1] == 70
    pad(page, "NumpadSubtract")  # asks again…
    expect(page.locator("#confirm-text")).to_have_text("Annuler le numéro 70 ?")
    pad(page, "NumpadSubtract")  # …and the same key again says yes
    expect(page.locator("#sp-last")).to_have_text("52")
    assert 70 not in h.evening.partie.draws
    ball(page, 80)
    pad(page, "NumpadAdd")  # « Quine ! »: the draw stops
    expect(page.locator("#sp-status")).to_contain_text("Tirage arrêté")
    pad(page, "Numpad1", "NumpadEnter")
    expect(page.locator("#entry-msg")).not_to_be_empty()  # refused while a claim is checked
    assert h.evening.partie.draws[-1] == 80
    assert h.check_claim(A1, role="controller").verdict == "valid"
    expect(page.locator("#pending li")).to_have_count(1)
    pad(page, "NumpadMultiply", "Numpad2")  # 2: award the lot
    expect(page.locator("#award-result")).to_contain_text(A1[:-1] + "\u00a0" + A1[-1])
    assert h.evening.partie.lots[0].status == "awarded"
    expect(page.locator("#sp-lot")).to_have_text("Double quine — Jambon")
    expect(page.locator("#sp-status")).to_contain_text("lot attribué")  # the draw waits after an award (L11a)
    pad(page, "NumpadAdd")  # + resumes it
    expect(page.locator("#sp-status")).to_contain_text("Tirage en cours")
    pad(page, "NumpadAdd")  # stop, then + again: resume after a false claim
    expect(page.locator("#sp-status")).to_contain_text("Tirage arrêté")
    assert h.check_claim(A3, role="controller").verdict == "incomplete"
    pad(page, "NumpadAdd")
    expect(page.locator("#sp-status")).to_contain_text("Tirage en cours")
    pad(page, "NumpadMultiply", "Numpad3")  # 3: démarquez, lots left: it names them, asks again
    expect(page.locator("#clear-lots li")).to_have_text(["Double quine — Jambon", "Carton plein — Bon d'achat 100 €"])
    pad(page, "NumpadDivide")  # / goes back: nothing happens
    expect(page.locator("#clear-dialog")).to_be_hidden()
    assert not h.evening.partie.cleared
    pad(page, "NumpadMultiply", "Numpad3", "Numpad1")  # 1: démarquer and carry the lots to the next partie
    expect(page.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    assert h.evening.partie.cleared
    assert [lot.label for lot in h.evening.carried] == ["Jambon", "Bon d'achat 100 €"]


def test_enter_and_space_work_on_a_focused_button(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    expect(page.locator("#sp-partie")).to_have_text("Partie 1")
    page.focus("#announce")
    page.keyboard.press("Enter")
    expect(page.locator("#sp-status")).to_contain_text("Tirage arrêté")
    page.focus("#resume")
    page.keyboard.press("Space")
    expect(page.locator("#sp-status")).to_contain_text("Tirage en cours")
    assert page.evaluate("document.activeElement.id") == "entry"  # back to the draw entry


def test_after_a_check_the_next_number_is_a_ball(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    h.draw(4, role="speaker")
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    expect(page.locator("#sp-last")).to_have_text("4")
    page.click("#check-id")
    page.keyboard.type(A3)
    page.keyboard.press("Enter")
    expect(page.locator("#check-msg")).not_to_be_empty()
    page.keyboard.type("47")
    page.keyboard.press("Enter")
    expect(page.locator("#sp-last")).to_have_text("47")
    page.click("#check-id")  # a ball typed in the carton field is a ball too
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    expect(page.locator("#sp-last")).to_have_text("12")
    checks = [c.card_id for c in h.evening.partie.checks.get("47", [])] + list(h.evening.partie.checks)
    assert "47" not in checks and "12" not in checks
    assert h.evening.partie.draws == [4, 47, 12]


def test_a_tie_settled_from_the_keypad_with_numbers_drawn_by_hand(page, live):
    from tests.display.conftest import A2, play_to_tie

    h = live.hall
    play_to_tie(live)
    console_with_keys(page, live)
    expect(page.locator("#pending li")).to_have_count(2)
    pad(page, "NumpadMultiply", "Numpad2")  # award: a tie, so the choice opens
    expect(page.locator("#tie-dialog")).to_be_visible()
    expect(page.locator("#tie-hall-rule")).to_contain_text("le plus petit numéro gagne")  # the hall's rule
    expect(page.locator("#tie-choices li")).to_have_count(3)  # draw, by hand, share: never a direction
    pad(page, "Numpad2")  # by hand in the hall (the lowest wins: the rule)
    expect(page.locator("#tie-n-0")).to_be_focused()
    pad(page, "Numpad1", "Numpad2", "NumpadEnter")
    assert numlock_off(page, "7") is False and numlock_off(page, "7") is False  # NumLock off: Home Home = 77
    pad(page, "NumpadEnter")
    expect(page.locator("#award-result")).to_contain_text("le plus petit numéro gagne")
    award = h.evening.partie.lots[0].award
    assert award.tie_mode == "physical_lowest" and award.winners == (A1,)
    assert [(d.card_id, d.number) for d in award.tie_break] == [(A1, 12), (A2, 77)]
    assert page.evaluate("document.activeElement.id") == "entry"


# what the page reads from each key (its code); the key's own name for the few the page also looks at
KEY_NAMES = {"NumpadSubtract": "-", "NumpadMultiply": "*", "NumpadDivide": "/", "NumpadEnter": "Enter"}


def keys_in_one_task(page, *codes: str) -> None:
    """Keypad keys handled one after the other before the page runs any other task: as a loaded Chromium does,
    which favours input over the ``close`` event a dialog queues when it closes (that event comes after them)."""
    page.evaluate(
        """([codes, names]) => { for (const code of codes) (document.activeElement || document.body)
        .dispatchEvent(new KeyboardEvent("keydown", {key: names[code] || code.slice(-1), code, bubbles: true,
                                                     cancelable: true})); }""",
        [list(codes), KEY_NAMES],
    )


def test_a_late_close_never_answers_the_next_undo_question(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    for n in (4, 13):
        h.draw(n, role="speaker")
    console_with_keys(page, live)
    expect(page.locator("#sp-last")).to_have_text("13")
    keys_in_one_task(page, "NumpadSubtract", "Numpad4", "NumpadSubtract")  # undo? no. undo? (the no's close comes late)
    expect(page.locator("#confirm-text")).to_have_text("Annuler le numéro 13 ?")
    pad(page, "NumpadSubtract")  # …yes
    expect(page.locator("#sp-last")).to_have_text("4")
    assert h.evening.partie.draws == [4]


def test_a_late_close_never_cancels_the_next_demarquez_question(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    h.draw(4, role="speaker")
    console_with_keys(page, live)
    expect(page.locator("#sp-last")).to_have_text("4")
    keys_in_one_task(
        page, "NumpadMultiply", "Numpad3", "NumpadDivide", "NumpadMultiply", "Numpad3"
    )  # asked, back, asked
    expect(page.locator("#clear-dialog")).to_be_visible()
    pad(page, "Numpad1")  # démarquer, the lots carried
    expect(page.locator("#sp-partie")).to_have_text("Pas de partie en cours")
    assert h.evening.partie.cleared and len(h.evening.carried) == 3


def test_a_late_close_never_cancels_the_next_tie_question(page, live):
    from tests.display.conftest import play_to_tie

    h = live.hall
    play_to_tie(live)
    console_with_keys(page, live)
    expect(page.locator("#pending li")).to_have_count(2)
    keys_in_one_task(
        page, "NumpadMultiply", "Numpad2", "NumpadDivide", "NumpadMultiply", "Numpad2"
    )  # asked, back, asked
    expect(page.locator("#tie-dialog")).to_be_visible()
    pad(page, "Numpad1")  # the hall draws
    expect(page.locator("#award-result")).to_contain_text("le plus petit numéro gagne")
    assert h.evening.partie.lots[0].status == "awarded"
