"""A Bid Euchre table in Debian's Chromium: two phones at 360×640 join (bots take the two other seats), play a
whole game by clicking only enabled ``[data-move]`` controls (a disabled card sends nothing), one reloads and keeps
its seat; the projector shows the trick, the contract and the scores and names the winners; the speaker applies
a referee's action from the console. Screenshots go to docs/screenshots/ (looked at, kept with the docs)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, answer, login_page, no_native_dialogs
from tests.display.test_rooms_browser import seat_phones

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK = {"J": "V", "Q": "D", "K": "R", "A": "A"}


def phone(browser):
    ctx = browser.new_context(
        viewport={"width": 360, "height": 640}, locale="fr-FR", has_touch=True, is_mobile=True, device_scale_factor=1
    )
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.moves_sent = []
    page.on(
        "request",
        lambda req: (
            page.moves_sent.append(json.loads(req.post_data)["move"])
            if req.method == "POST" and req.url.endswith("/moves")
            else None
        ),
    )
    return ctx, page


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, str(SHOTS / f"euchre-{name}.png"), animations="disabled")


def face(card: str) -> str:
    """A card as the phone writes it: V D R A and the suit sign."""
    return RANK[card[0]] + SIGN[card[1]]


def test_two_phones_play_a_whole_bid_euchre_game_the_projector_follows(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    speaker = r.headers("speaker")
    code = c.post("/api/games/rooms", json={"game": "euchre", "options": {"hands": 2}}, headers=speaker).get_json()[
        "code"
    ]
    projector_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    projector = projector_ctx.new_page()
    projector.set_default_timeout(15_000)
    projector.goto(f"{r.url}/jeux/{code}")
    expect(projector.locator("#gs-code")).to_have_text(code)

    phones = seat_phones(browser, r.url, code, ("Émile", "Zoé"), make=phone)
    assert c.post(f"/api/games/rooms/{code}/start", headers=speaker).status_code == 200
    names = [s["name"] for s in c.get(f"/api/games/rooms/{code}").get_json()["seats"]]
    # partners face each other: Émile (0) with seat 2, Zoé (1) with seat 3
    expect(phones[0][1].locator(".eu-partner")).to_have_text(f"Votre partenaire : {names[2]} (en face)")
    expect(phones[1][1].locator(".eu-partner")).to_have_text(f"Votre partenaire : {names[3]} (en face)")
    expect(projector.locator(".eu-seat")).to_have_count(4)

    rng = random.Random(5)
    tokens = [json.loads(p.evaluate(f"localStorage.getItem('loto-room-{code}')"))["token"] for _, p in phones]
    clicks, reloaded, disabled_tried, taken = 0, False, 0, set()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        room = c.get(f"/api/games/rooms/{code}").get_json()
        if room["status"] == "over":
            break
        movers = room["to_move"]
        if not movers or movers[0] > 1:
            phones[0][1].wait_for_function(f"Number(document.body.dataset.version) > {room['version']}", timeout=20_000)
            continue
        seat = movers[0]
        page = phones[seat][1]
        page.wait_for_function(
            f"Number(document.body.dataset.version) >= {room['version']} && document.body.classList.contains('my-turn')"
        )
        view = c.get(f"/api/games/rooms/{code}/seat", headers={"Authorization": f"Bearer {tokens[seat]}"}).get_json()
        if view["version"] != page.evaluate("Number(document.body.dataset.version)"):
            continue
        legal = [json.dumps(m) for m in view["legal"]]
        enabled = page.locator("button[data-move]:not([disabled])")
        raw = enabled.evaluate_all("bs => bs.map(b => b.dataset.move)")
        offered = [json.dumps(json.loads(b)) for b in raw]
        assert offered and set(offered) <= set(legal), (offered, legal)  # only legal moves are enabled
        if view["phase"] == "play":
            assert set(offered) == set(legal)  # and every legal card is
            # the hand on the phone is the seat's hand as held: trump first, the left bower among the trumps
            expect(page.locator(".eu-hand button")).to_have_text([face(x) for x in view["my_hand"]])
            trump = view["contract"]["denom"]
            trumps = [i for i, s in enumerate(view["my_suits"]) if s == trump]
            assert trumps == list(range(len(trumps)))
            disabled = page.locator(".eu-hand button[data-move][disabled]")
            if disabled.count():
                assert all(
                    json.dumps(json.loads(m)) not in legal
                    for m in disabled.evaluate_all("bs => bs.map(b => b.dataset.move)")
                )
                disabled.first.evaluate("b => b.click()")  # a disabled card sends nothing
                disabled_tried += 1
        phase = view["phase"]
        if phase not in taken and phase in ("bid", "play"):
            if phase == "bid":
                shot(page, "phone-1-bidding")
            elif view["last_trick"]:
                shot(page, "phone-2-playing")
                page.click("#eu-last")
                expect(page.locator(".eu-compass.last .eu-card")).to_have_count(len(view["last_trick"]))
                shot(page, "phone-3-last-trick")
                page.click("#eu-last")
                shot(projector, "projector-1-playing")
                projector.set_viewport_size({"width": 1280, "height": 720})
                shot(projector, "projector-2-playing-720p")
                projector.set_viewport_size({"width": 1920, "height": 1080})
                # the projector shows the trick in the middle and the scores
                expect(projector.locator(".eu-trick .eu-card")).to_have_count(len(view["trick"]))
                expect(projector.locator(".eu-side .eu-team b").first).to_have_text(
                    f"{view['scores'][0]} pts".replace("-", "−")
                )
            if phase == "bid" or view["last_trick"]:
                taken.add(phase)
        if phase == "bid" and "bid" in [json.loads(m)[0] for m in offered] and rng.random() < 0.5:
            choice = next(m for m in offered if json.loads(m)[0] == "bid")  # the lowest bid on show
        else:
            choice = rng.choice(offered)
        before = len(page.moves_sent)
        enabled.nth(offered.index(choice)).click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {view['version']}")
        assert [json.dumps(m) for m in page.moves_sent[before:]] == [choice]  # the click sent that move only
        clicks += 1
        if clicks == 5 and not reloaded:
            page.reload()
            expect(page.locator(".eu-partner")).to_have_count(1)
            again = c.get(
                f"/api/games/rooms/{code}/seat", headers={"Authorization": f"Bearer {tokens[seat]}"}
            ).get_json()
            assert again["seat"] == seat
            expect(page.locator(".eu-hand button")).to_have_text([face(x) for x in again["my_hand"]])
            reloaded = True
    else:
        pytest.fail("the game did not end in 5 minutes")
    assert clicks >= 8 and reloaded and taken == {"bid", "play"}
    room = c.get(f"/api/games/rooms/{code}").get_json()
    scores = room["view"]["scores"]
    winners = room["outcome"]["winner_names"]
    expect(projector.locator("#gs-winner")).to_contain_text(winners[0])
    expect(projector.locator(".eu-side .eu-team b")).to_have_text([f"{n} pts".replace("-", "−") for n in scores])
    expect(phones[0][1].locator("#turn")).to_contain_text(winners[0])
    shot(projector, "projector-3-winner")
    shot(phones[1][1], "phone-4-over")
    for ctx, _ in phones:
        ctx.close()
    projector_ctx.close()


def test_the_speaker_applies_a_referee_action_from_the_console(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    console = ctx.new_page()
    console.set_default_timeout(15_000)
    login_page(console, r.url + "/speaker", PINS["speaker_pin"])
    console.select_option("#room-game", "euchre")
    expect(console.locator("#room-players")).to_be_hidden()
    console.click("#room-open button[type=submit]")
    expect(console.locator(".room-row")).to_have_count(1)
    code = console.locator(".room-row b").inner_text()
    expect(console.locator(f"button[data-referee='{code}']")).to_have_count(0)  # not before the start
    assert c.post(f"/api/games/rooms/{code}/join", json={"name": "Ana"}).status_code == 201  # the game waits for her
    console.click(f"button[data-start='{code}']")
    expect(console.locator(".room-row")).to_contain_text("En jeu")
    console.click(f"button[data-referee='{code}']")
    options = console.locator(f"select[data-referee-list='{code}'] option")
    expect(options.nth(1)).to_be_attached()
    listed = c.get(f"/api/games/rooms/{code}/official", headers=r.headers("speaker")).get_json()
    expect(options).to_have_count(len(listed["officials"]) + 1)
    label = next(o["label"] for o in listed["officials"] if o["move"] == ["penalty", 0, "hesitation"])
    console.select_option(f"select[data-referee-list='{code}']", label=label)
    native = no_native_dialogs(console)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(console.locator("#rooms-panel"), str(SHOTS / "euchre-speaker-referee.png"), animations="disabled")
    console.click(f"button[data-referee-apply='{code}']")
    with console.expect_response(lambda r: r.url.endswith("/official") and r.request.method == "POST"):
        answer(console)  # asked in the page
    assert native == []
    expect(console.locator(f"select[data-referee-list='{code}'] option").nth(1)).to_be_attached()
    room = c.get(f"/api/games/rooms/{code}").get_json()
    assert room["view"]["scores"][0] == -5 and room["view"]["penalties"] == [[0, -5, "hesitation"]]
    assert room["last_by"] == "official"
    ctx.close()
