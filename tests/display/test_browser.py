"""The pages in Debian's Chromium: the projector follows the hall, the speaker awards with a tie, the
controller sees verdicts (typed and from a fake camera showing a QR), nothing leaves the machine."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from display import views
from tests.display.conftest import A1, A2, A3, PINS, TIE_DRAWS, login_page, play_to_tie, shown
from tests.display.wire import Wire


def only_local(page, base_url: str) -> None:
    host = urlparse(base_url).netloc
    foreign = [u for u in page.requests_seen if not u.startswith(("data:", "blob:")) and urlparse(u).netloc != host]
    assert not foreign, foreign


def test_projector_follows_draws_and_a_reconnect(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    h.draw(17, role="speaker")
    wire = Wire(page)
    page.goto(live.url + "/")
    expect(page.locator("#last")).to_have_text("17")
    expect(page.locator("#lot")).to_have_text("Quine — Panier garni")
    expect(page.locator("#partie")).to_have_text("Partie 1")
    h.draw(42, role="speaker")
    expect(page.locator("#last")).to_have_text("42")
    expect(page.locator('.cell[data-n="42"]')).to_have_class(re.compile(r"\blast\b"))
    expect(page.locator('.cell[data-n="17"]')).to_have_class(re.compile(r"\bdrawn\b"))
    expect(page.locator("#count")).to_have_text("2 numéros tirés")
    expect(page.locator("#previous li")).to_have_text(["42", "17"])  # the last five, most recent first ([data-recent])

    # the connection drops; balls are drawn meanwhile; the screen catches up by itself once the hall is back
    wire.drop()
    expect(page.locator("#offline")).to_be_visible()
    h.draw(7, role="speaker")
    h.draw(88, role="speaker")
    h.undo(role="speaker")
    wire.restore()
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#last")).to_have_text("7")
    expect(page.locator("#count")).to_have_text("3 numéros tirés")
    expect(page.locator('.cell[data-n="88"]')).not_to_have_class(re.compile(r"\bdrawn\b"))
    assert wire.emitted("resync") == 0  # the new connection's state was enough: no gap seen
    only_local(page, live.url)


def test_projector_banners_false_claim_valid_tie_break_and_demarquez(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    wire = Wire(page)
    page.goto(live.url + "/")
    expect(page.locator("#last")).to_have_text("")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    expect(page.locator("#last")).to_have_text("80")
    h.announce_claim(role="controller")
    expect(page.locator("#banner-text")).to_have_text("Vérification en cours…")
    h.check_claim(A3, role="controller")
    expect(page.locator("#banner-text")).to_have_text("Fausse annonce — la partie continue")
    h.check_claim(A1, role="controller")
    expect(page.locator("#banner-text")).to_have_text(f"Quine validée — carton {shown(A1)}")
    h.check_claim(A2, role="controller")
    result = views.award(h.award(role="speaker"))
    expect(page.locator("#banner-text")).to_have_text("Tirage au sort")
    expect(page.locator("#banner-lines li")).to_have_count(2, timeout=8000)
    expect(page.locator("#banner-sub")).to_contain_text(f"gagné par le carton {shown(result['winner'])}", timeout=8000)
    expect(page.locator("#lot")).to_have_text("Double quine — Jambon")
    h.clear(role="speaker", force=True)
    expect(page.locator("#banner-text")).to_have_text("Démarquez !")
    expect(page.locator("#between-title")).to_have_text("Prochaine partie : n° 2")
    # every event came in order, none missing: the one resync is the projector's own, to learn the next lots
    assert wire.emitted("resync") == 1
    only_local(page, live.url)


def test_projector_in_english(page, live):
    live.hall.start_partie(role="speaker")
    live.hall.draw(5, role="speaker")
    page.goto(live.url + "/?lang=en")
    expect(page.locator("#count")).to_have_text("1 number drawn")
    expect(page.locator("#lot")).to_have_text("One line — Panier garni")


def test_speaker_draws_and_awards_a_lot_with_a_tie(page, live):
    h = live.hall
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    page.click("#start")
    expect(page.locator("#sp-partie")).to_have_text("Partie 1")
    for n in TIE_DRAWS[:-1]:
        page.keyboard.type(str(n))
        page.keyboard.press("Enter")
        expect(page.locator("#sp-last")).to_have_text(str(n))
    for digit in "80":  # the on-screen pad
        page.click(f'#pad button[data-key="{digit}"]')
    expect(page.locator("#entry")).to_have_text("80")
    page.click("#draw-button")
    expect(page.locator("#sp-last")).to_have_text("80")
    page.keyboard.type("80")
    page.keyboard.press("Enter")
    expect(page.locator("#entry-msg")).to_have_text("Le 80 est déjà sorti.")
    expect(page.locator("#watch-count")).to_have_text("2 carton(s) peuvent crier quine")
    h.check_claim(A1, role="controller")
    h.check_claim(A2, role="controller")
    expect(page.locator("#pending li")).to_have_count(2)
    page.click("#award")
    expect(page.locator("#tie-dialog")).to_be_visible()  # a tie: the speaker chooses how
    page.click('#tie-choices li[data-n="1"]')  # the hall's draw, lowest wins
    expect(page.locator("#award-result")).to_contain_text("Tirage au sort")
    expect(page.locator("#award-result li")).to_have_count(2)
    lot = h.evening.partie.lots[0]
    assert lot.status == "awarded" and len(lot.award.tie_break) == 2
    w = lot.award.winners[0]
    expect(page.locator("#award-result")).to_contain_text(f"Lot attribué au carton {w[:-1]}\u00a0{w[-1]}")
    expect(page.locator("#sp-lot")).to_have_text("Double quine — Jambon")
    only_local(page, live.url)


def test_speaker_undo_asks_first(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    h.draw(12, role="speaker")
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    expect(page.locator("#sp-last")).to_have_text("12")
    page.click("#undo")
    expect(page.locator("#confirm-text")).to_have_text("Annuler le numéro 12 ?")
    page.click("#confirm-yes")
    expect(page.locator("#sp-last")).to_have_text("—")
    assert h.evening.partie.draws == []


def test_a_wrong_pin_is_refused_on_the_page(page, live):
    page.goto(live.url + "/speaker")
    page.fill("#pin", "000000")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#login-error")).to_have_text("Code PIN incorrect.")


def test_controller_types_an_id_and_sees_the_verdict_and_the_carton(page, live):
    play_to_tie(live)
    page.set_viewport_size({"width": 360, "height": 640})
    login_page(page, live.url + "/controle", PINS["controller_pin"])
    expect(page.locator("#ctl-last")).to_have_text("Dernier numéro : 80")
    page.fill("#card-id", A1.lower())
    page.click("#id-form button[type=submit]")
    verdict = page.locator("#verdict")
    expect(verdict).to_be_visible()
    expect(page.locator("#verdict-line")).to_have_text("Quine valide !")
    expect(page.locator("#verdict-sub")).to_have_text("Quine — Panier garni · Dernier numéro : 80")
    expect(page.locator("#verdict-note")).to_have_text("Déjà vérifié 1 fois")  # play_to_tie checked it once
    # valid is green whatever came before (issue 26: orange was announced as a refusal); the note says it
    expect(verdict).to_have_class(re.compile(r"\bgood\b"))
    expect(page.locator("#verdict-mark")).to_have_text("✓")
    expect(page.locator("table.carton td.marked")).to_have_count(4)
    expect(page.locator("table.carton td.last")).to_have_text("80")
    expect(page.locator("table.carton tr.row-complete")).to_have_count(1)
    page.click("#verdict-close")
    page.fill("#card-id", A3)
    page.click("#id-form button[type=submit]")
    expect(verdict).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#verdict-line")).to_have_text(re.compile(r"^Fausse annonce\s: il manque \d+ numéro"))
    page.click("#verdict-close")
    typo = A3[:-1] + ("0" if A3[-1] != "0" else "1")
    page.fill("#card-id", typo)
    page.click("#id-form button[type=submit]")
    expect(page.locator("#verdict-line")).to_have_text(re.compile(r"^Vérifiez le numéro"))  # a near miss: never red
    expect(verdict).to_have_class(re.compile(r"\bhint\b"))
    only_local(page, live.url)


@pytest.fixture
def camera_browser(pw, tmp_path_factory, browser_args):
    from tests.display.conftest import CHROMIUM
    from tests.display.media import qr_y4m

    video = qr_y4m(tmp_path_factory.mktemp("camera") / "card.y4m", f"LOTO1:{A1}:TEST")
    b = pw.chromium.launch(
        executable_path=CHROMIUM,
        args=browser_args
        + [
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    yield b
    b.close()


def test_controller_scans_a_carton_with_the_camera(camera_browser, live):
    play_to_tie(live)
    ctx = camera_browser.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR")
    ctx.grant_permissions(["camera"], origin=live.url)
    page = ctx.new_page()
    seen = []
    page.on("request", lambda req: seen.append(req.url))
    page.requests_seen = seen
    login_page(page, live.url + "/controle", PINS["controller_pin"])
    page.click("#scan")
    expect(page.locator("#verdict")).to_be_visible(timeout=20_000)
    expect(page.locator("#verdict-card")).to_have_text(A1[:-1] + "\u00a0" + A1[-1])  # the check character set apart
    expect(page.locator("#verdict")).to_have_attribute("data-verdict", "valid")
    assert any(u.endswith("/static/vendor/barcode-detector/zxing_reader.wasm") for u in seen)
    only_local(page, live.url)
    ctx.close()


def test_desk_redeems_a_voucher_once(page, live):
    play_to_tie(live)
    code = views.award(live.hall.award(role="speaker"))["vouchers"][0]
    login_page(page, live.url + "/lots", PINS["desk_pin"])
    page.fill("#code", code.lower())
    page.click("#code-form button[type=submit]")
    expect(page.locator("#result")).to_contain_text("À remettre : Panier garni")
    page.fill("#code", code)
    page.click("#code-form button[type=submit]")
    expect(page.locator("#result")).to_have_attribute("data-error", "already_redeemed")
    page.fill("#code", "00001-AAAAAAAA")
    page.click("#code-form button[type=submit]")
    expect(page.locator("#result")).to_have_text(re.compile("Bon inconnu ou falsifié"))


def test_admin_page_shows_programme_and_pins(page, live):
    login_page(page, live.url + "/admin", PINS["admin_pin"])
    expect(page.locator("#programme")).to_contain_text("Panier garni")
    expect(page.locator("#pins")).to_contain_text(PINS["controller_pin"])
    # no sale recorded: every carton plays, and the page says so rather than "3 cartons, dont 3 vendus" (issue 16)
    expect(page.locator("#cards-count")).to_contain_text("3 cartons ; ventes non enregistrées : tous jouent")


def speech_api(*langs: str) -> str:
    """The browser's speech as the test sees it: the voices it offers (``langs``), what the page asks it to say
    (kept in the test's own ``__spoken``); set before the page's scripts run."""
    voices = ", ".join(
        f'{{lang: "{lang}", name: "{lang}", voiceURI: "{lang}", localService: true, default: false}}' for lang in langs
    )
    return (
        "window.__spoken = [];"
        f"speechSynthesis.getVoices = () => [{voices}];"
        "window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };"
        "speechSynthesis.speak = (u) => window.__spoken.push([u.text, u.lang, u.rate]);"
        "speechSynthesis.cancel = () => {};"
    )


def test_the_browsers_own_voices_never_speak_and_the_nickname_is_the_halls(page, live):
    """The hall speaks its own clips (tests/display/test_voice_browser.py): the browser's voices, which a kiosk may not
    have in French and might have in English, are never asked to say anything."""
    h = live.hall
    h.start_partie(role="speaker")
    live.app.test_client().post("/api/admin/calling", json={"nicknames_on": True}, headers=live.headers("admin"))
    page.add_init_script(speech_api("en-GB", "fr-FR"))
    page.goto(live.url + "/?speech=1")
    page.wait_for_selector("body[data-seq]")
    for n in (42, 33):
        h.draw(n, role="speaker")
    expect(page.locator("#count")).to_have_text("2 numéros tirés")
    expect(page.locator("#nickname")).to_have_text("docteur")  # the hall's table, switched on at /admin
    assert page.evaluate("window.__spoken") == []
