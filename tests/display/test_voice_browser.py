"""The hall's voice in Chromium, as the kiosk runs it (``--autoplay-policy=no-user-gesture-required``): the projector
asks the hall for each ball's clip and plays it (the media element's ``play`` event), the claim ritual's words and
clips at each step, the last five balls, the flash mode's timing, the console's « répéter », test and pace, the
recordings made on /admin from a (fake) microphone, « Je n'ai pas entendu » on « Mes cartons », the count's page.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/."""

from __future__ import annotations

import io
import os
import wave
from pathlib import Path

import pytest
from playwright.sync_api import expect

from display import views
from tests.conftest import CHROMIUM
from tests.display.conftest import A1, A3, PINS, TIE_DRAWS, LiveServer, login_page, make_room, shown
from tests.display.test_evening_pages import audit

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CLIPS = "111"  # the 90 balls and the ritual's 21 sentences (each missed reason its own), preloaded by the projector
PLAYED = """() => { window.played = [];       // each clip's media element: its play event (heard by #voice, capturing)
  document.getElementById('voice').addEventListener('play', (e) => window.played.push(e.target.dataset.clip), true); }"""


def shot(page, name: str, tmp_path) -> None:
    folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path
    page.screenshot(path=str(folder / name))


@pytest.fixture(scope="module")
def kiosk(pw, browser_args):
    """Chromium as the kiosk starts it (sound without a gesture), with a fake microphone for /admin's recordings."""
    b = pw.chromium.launch(
        executable_path=CHROMIUM,
        args=[
            *browser_args,
            "--autoplay-policy=no-user-gesture-required",
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
        ],
    )
    yield b
    b.close()


@pytest.fixture
def hall_served(tmp_path):
    servers = []

    def serve(**extra):
        room = make_room(tmp_path / str(len(servers)), extra={"speech": {"enabled": True}, **extra})
        server = LiveServer(room.app)
        room.url = server.url
        servers.append((room, server))
        return room

    yield serve
    for room, server in servers:
        server.stop()
        room.hall.journal.close()


def projector(kiosk, room, size=(1920, 1080), lang="fr"):
    ctx = kiosk.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    page.asked = []
    page.on("request", lambda r: page.asked.append(r.url.split("?")[0].replace(room.url, "")))
    page.goto(room.url + "/" + ("?lang=en" if lang == "en" else ""))
    expect(page.locator("body")).to_have_attribute("data-voice-clips", CLIPS, timeout=30_000)
    page.evaluate(PLAYED)
    return page


def played(page) -> list[str]:
    return page.evaluate("window.played")


def wait_played(page, clip: str, times: int = 1) -> None:
    page.wait_for_function(f"window.played.filter((c) => c === {clip!r}).length >= {times}", timeout=10_000)


def screen_and_console(kiosk, room):
    """The projector, then the speaker's console logged in at 1280×720: (projector page, console context, console)."""
    screen = projector(kiosk, room)
    ctx = kiosk.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    console = ctx.new_page()
    login_page(console, room.url + "/speaker", PINS["speaker_pin"])
    return screen, ctx, console


def test_the_projector_says_each_ball_and_the_ritual_of_a_claim(kiosk, hall_served, tmp_path):
    room = hall_served(draw={"others_s": 3})
    h = room.hall
    h.start_partie(role="speaker")
    page = projector(kiosk, room)
    assert {f"/speech/{n}.wav" for n in range(1, 91)} <= set(page.asked)  # every ball asked of the hall
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
        wait_played(page, str(n))
    assert played(page) == [str(n) for n in TIE_DRAWS]  # each ball, in order, once
    expect(page.locator("[data-recent] li")).to_have_text(["80", "52", "37", "13", "5"])  # most recent first
    expect(page.locator("#ritual")).to_be_hidden()

    h.announce_claim(role="controller")
    expect(page.locator("#ritual")).to_have_attribute("data-ritual", "claim")
    expect(page.locator("#ritual-words")).to_have_text("Ne démarquez pas !")
    wait_played(page, "no_unmark")

    missing = views.verdict(h.check_claim(A3, role="controller"))["missing"]
    expect(page.locator("#ritual")).to_have_attribute("data-ritual", "false")
    expect(page.locator("#ritual-words")).to_have_text("La quine n'est pas bonne.")
    named = ", le ".join(str(n) for n in missing[:-1]) + f" et le {missing[-1]}"
    expect(page.locator("#ritual-sub")).to_have_text(f"Le {named} ne sont pas sortis.")
    wait_played(page, "not_out_many")
    assert [c for c in played(page) if c.startswith("le_")] == [f"le_{n}" for n in missing]
    audit(page, 1920)  # 7:1, 28 px, the board readable and whole under the banner and its ritual

    h.check_claim(A1, role="controller")
    expect(page.locator("#ritual-words")).to_have_text("La quine est bonne !")
    expect(page.locator("#ritual-sub")).to_have_text(f"carton {shown(A1)}")
    expect(page.locator("#ritual-others")).to_have_text("Y a-t-il d'autres gagnants ? — encore 3 s")
    expect(page.locator("#ritual-others")).to_have_text("Y a-t-il d'autres gagnants ? — dernier appel", timeout=6000)
    wait_played(page, "others")
    audit(page, 1920)
    shot(page, "projector-1920x1080-ritual.png", tmp_path)

    h.award(role="speaker")
    expect(page.locator("#ritual")).to_be_hidden()
    h.clear(role="speaker", force=True)
    expect(page.locator("#ritual-words")).to_have_text("Vous pouvez démarquer.")
    wait_played(page, "unmark")
    status = h.device("voice")
    assert (status.state, status.code) == ("ok", "voice_speaks")  # the console knows it speaks
    page.context.close()


def test_the_ritual_in_english_and_at_720p(kiosk, hall_served, tmp_path):
    room = hall_served()
    h = room.hall
    h.start_partie(role="speaker")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    page = projector(kiosk, room, size=(1280, 720), lang="en")
    h.announce_claim(role="controller")
    expect(page.locator("#ritual-words")).to_have_text("Don't clear your cards!")
    h.check_claim(A3, role="controller")
    expect(page.locator("#ritual-words")).to_have_text("The line is not good.")
    expect(page.locator("#ritual-sub")).to_contain_text("have not come out.")
    h.check_claim(A1, role="controller")
    expect(page.locator("#ritual-others")).to_contain_text("Any other winners?")
    expect(page.locator(".previous-title")).to_have_text("The last five")
    audit(page, 1280)
    shot(page, "projector-1280x720-ritual-en.png", tmp_path)
    page.context.close()


FLASHES = """() => { window.flashes = []; const f = document.getElementById('flash');
  new MutationObserver(() => window.flashes.push([f.hidden ? 'off' : 'on', performance.now(), f.textContent]))
    .observe(f, {attributes: true, attributeFilter: ['hidden'], childList: true}); }"""


def test_flash_mode_fills_the_screen_once_a_ball_never_three_times_a_second(kiosk, hall_served, tmp_path):
    room = hall_served(display={"flash": True, "flash_s": 1.0}, hall={"hearing_loop": True})
    h = room.hall
    h.start_partie(role="speaker")
    page = projector(kiosk, room)
    expect(page.locator("body")).to_have_class("projector flash-mode has-loop")  # the sign in its own row
    expect(page.locator("#hearing-loop")).to_be_visible()
    page.evaluate(FLASHES)
    for n in (11, 22, 33):  # three balls as fast as the hall takes them
        h.draw(n, role="speaker")
    expect(page.locator("#flash")).to_have_text("33")
    shot(page, "projector-1920x1080-flash.png", tmp_path)
    expect(page.locator("#flash")).to_be_hidden(timeout=5000)
    flashes = page.evaluate("window.flashes")
    onsets = [t for state, t, _ in flashes if state == "on" or (state == "off" and False)]
    shown_at = [t for (state, t, text) in flashes if text and state == "on"]
    starts = sorted(set(round(t) for t in shown_at))
    assert len(starts) >= 1 and all(b - a >= 1000 / 3 for a, b in zip(starts, starts[1:])), flashes  # WCAG 2.3.1
    hidden_at = [t for state, t, _ in flashes if state == "off"][-1]
    assert hidden_at - max(onsets) >= 950, flashes  # the ball stays its flash_s
    h.announce_claim(role="controller")
    h.check_claim(A3, role="controller")
    expect(page.locator("#flash.flash-words")).to_contain_text("La quine n'est pas bonne.")  # the verdict in words
    page.context.close()


def test_the_console_says_the_last_ball_again_tests_the_voice_and_keeps_the_pace(kiosk, hall_served, tmp_path):
    room = hall_served()
    h = room.hall
    room.app.test_client().post("/api/admin/calling", json={"pace": {"1": 3}}, headers=room.headers("admin"))
    h.start_partie(role="speaker")
    screen, ctx, console = screen_and_console(kiosk, room)
    h.draw(42, role="speaker")
    wait_played(screen, "42")
    expect(console.locator("#pace")).to_have_text("Prochaine boule dans 3 s")
    expect(console.locator("#pace")).to_have_text("Prochaine boule : maintenant", timeout=6000)  # never draws itself
    assert h.snapshot().running.draws == (42,)
    console.keyboard.press("r")  # the key that says the last ball again
    wait_played(screen, "42", times=2)
    expect(screen.locator("body")).to_have_attribute("data-again", "42")
    console.click("#test-voice")
    wait_played(screen, "test")
    expect(console.locator("#devices")).to_contain_text("Le projecteur parle (dernier son : test).")
    console.click("#show-count")  # the ball count on the projector during a break
    expect(screen.locator("iframe#count-screen")).to_be_visible()
    expect(screen.frame_locator("#count-screen").locator(".stats-cell[data-n='42']")).to_have_attribute(
        "data-count", "1"
    )
    expect(console.locator("#show-count")).to_have_attribute("aria-pressed", "true")
    h.draw(7, role="speaker")  # the next ball takes it off
    expect(screen.locator("iframe#count-screen")).to_have_count(0)
    h.announce_claim(role="controller")
    expect(console.locator("#pace")).to_have_attribute("data-pace", "frozen")
    shot(console, "speaker-1280x720-voice.png", tmp_path)
    ctx.close()
    screen.context.close()


def test_the_consoles_voice_line_names_the_last_sound_not_the_first(kiosk, hall_served):
    """« dernier son : 36 » all evening was the first ball said: the line follows each clip the projector plays,
    balls said back to back too (the hall takes one report a second from a screen: the latest is never lost)."""
    room = hall_served()
    h = room.hall
    h.start_partie(role="speaker")
    screen, ctx, console = screen_and_console(kiosk, room)
    h.draw(36, role="speaker")
    wait_played(screen, "36")
    expect(console.locator("#devices")).to_contain_text("Le projecteur parle (dernier son : 36).")
    h.draw(42, role="speaker")
    wait_played(screen, "42")
    expect(console.locator("#devices")).to_contain_text("Le projecteur parle (dernier son : 42).")
    for n in (7, 65, 11):
        h.draw(n, role="speaker")
    wait_played(screen, "11")
    expect(console.locator("#devices")).to_contain_text("Le projecteur parle (dernier son : 11).")
    assert h.device("voice").params["what"] == "11"
    ctx.close()
    screen.context.close()


def test_the_speaker_records_the_numbers_on_admin_and_the_hall_serves_them(kiosk, hall_served, tmp_path):
    room = hall_served(speech={"enabled": True, "voice": "recorded"})
    ctx = kiosk.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    page = ctx.new_page()
    login_page(page, room.url + "/admin", PINS["admin_pin"])
    page.click("#rec-grid button[data-n='42']")
    page.click("#rec-start")
    page.wait_for_timeout(1200)  # the speaker says « quarante-deux » (the fake microphone's tone)
    page.click("#rec-stop")
    expect(page.locator("#rec-msg")).to_have_text("Le 42 est enregistré")
    expect(page.locator("#rec-grid button[data-n='42']")).to_have_class("rec-cell recorded chosen")
    expect(page.locator("#rec-count")).to_have_text("Enregistrés : 1 sur 90")
    page.click("#rec-listen")  # listens to it, served back
    served = room.app.test_client().get("/speech/42.wav")
    with wave.open(io.BytesIO(served.data)) as w:
        assert served.status_code == 200 and w.getframerate() == 22050 and w.getnchannels() == 1
        assert 0.9 < w.getnframes() / w.getframerate() < 2.5
    page.click("#rec-start")  # redone
    page.wait_for_timeout(600)
    page.click("#rec-stop")
    expect(page.locator("#rec-msg")).to_have_text("Le 42 est enregistré")
    assert room.app.test_client().get("/speech/42.wav").data != served.data
    page.check("#calling-flash")  # the flash mode switched on for the evening, journalled
    page.click("#voice-panel details summary")  # the table is folded away
    page.locator("#nickname-table input[data-n='42']").fill("la réponse")
    page.click("#calling-form button[type=submit]")
    expect(page.locator("#calling-msg")).to_contain_text("Enregistré")
    assert room.hall.calling().flash and (42, "la réponse") in room.hall.calling().nicknames
    page.locator("#rec-grid").scroll_into_view_if_needed()
    shot(page, "admin-1280x720-voice.png", tmp_path)
    ctx.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_mes_cartons_shows_the_last_five_to_who_did_not_hear_and_the_ritual(kiosk, hall_served, tmp_path, lang):
    room = hall_served()
    h = room.hall
    h.start_partie(role="speaker")
    for n in (9, 18, 27, 36, 45, 54):
        h.draw(n, role="speaker")
    ctx = kiosk.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR", has_touch=True, is_mobile=True)
    phone = ctx.new_page()
    phone.goto(room.url + "/mes-cartons" + ("?lang=en" if lang == "en" else ""))
    expect(phone.locator("#mc-last")).to_have_text("54")
    phone.click("#mc-not-heard")
    expect(phone.locator("#mc-recent li")).to_have_text(["54", "45", "36", "27", "18"])
    h.announce_claim(role="controller")
    expect(phone.locator("#mc-ritual")).to_have_text(
        "Ne démarquez pas !" if lang == "fr" else "Don't clear your cards!"
    )
    shot(phone, f"mes-cartons-360x640-not-heard-{lang}.png", tmp_path)
    ctx.close()


def test_the_count_on_a_screen(kiosk, hall_served, tmp_path):
    room = hall_served()
    h = room.hall
    h.start_partie(role="speaker")
    for n in (3, 14, 15, 92 - 2, 65):
        h.draw(n, role="speaker")
    for size in ((1920, 1080), (1280, 720)):
        ctx = kiosk.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
        page = ctx.new_page()
        page.goto(room.url + "/stats")
        expect(page.locator(".stats-cell[data-n='14']")).to_have_attribute("data-count", "1")
        expect(page.locator("#stats-verdict")).to_contain_text("Trop peu de tirages pour juger : 5 boules")
        expect(page.locator("#stats-meaning")).to_contain_text("moins de 5 fois sur 100")  # RULES L26
        shot(page, f"stats-{size[0]}x{size[1]}.png", tmp_path)
        ctx.close()
    ctx = kiosk.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = ctx.new_page()
    page.goto(room.url + "/stats?lang=en")
    expect(page.locator("#stats-meaning")).to_contain_text("an honest machine is flagged here, once or more, fewer")
    page.screenshot(path=str(tmp_path / "stats-1280x720-en.png"))
    ctx.close()
