"""Loto Points Rouges in Debian's Chromium: two 360×640 phones play a whole 4-player game by taps (pick a piece,
turn it, pick a board, tap a green point, "Poser ici" — the last tap a ``data-move`` control), bots in the other
seats, the phones lay figures of several pieces one at a time when the bot's choice says so, one reloads and keeps its seat; the projector
shows the boards and names the winner; a solitaire phone asks for the hint and reads the sentence.
Screenshots of the steps go to docs/screenshots/points-rouges-*.png (looked at, kept with the docs)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from display.services import services_of
from hall.minigames.registry import get_game
from hall.minigames.table import jsonable
from tests.display.axe import shoot
from tests.display.conftest import bots_round
from tests.display.test_screenshots import TEXT_AUDIT

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
COMPOSE_SHOT: list[bool] = []  # one screenshot of a composed completion per run


def phone(browser, lang: str = "fr-FR"):
    ctx = browser.new_context(
        viewport={"width": 360, "height": 640}, locale=lang, has_touch=True, is_mobile=True, device_scale_factor=1
    )
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    return ctx, page


def shot(page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")  # no half-arrived board
    shoot(page, str(SHOTS / f"points-rouges-{name}.png"), animations="disabled", full_page=full)


def seat_view(c, code: str, token: str) -> dict:
    return c.get(f"/api/games/rooms/{code}/seat", headers={"Authorization": f"Bearer {token}"}).get_json()


def preview(page) -> list[int]:
    return sorted(
        int(p)
        for p in page.locator(".pr-board.large .pr-pt.preview").evaluate_all("els => els.map(e => e.dataset.point)")
    )


def put_piece(page, board: str, piece: list) -> None:
    """Pick the piece, its board, then turn it and tap its first point until the preview shows exactly its cells."""
    sid, cells = piece[0], sorted(piece[1])
    rack = page.locator(f".pr-rack-piece[data-piece='{sid}']:not([disabled])").first
    if rack.get_attribute("aria-pressed") != "true":
        rack.click()
    thumb = page.locator(f".pr-thumb[data-board='{board}']")
    if thumb.count() and thumb.get_attribute("aria-pressed") != "true":  # the solitaire has one board
        thumb.click()
    for _turn in range(4):
        for _tap in range(4):
            point = page.locator(f".pr-board.large button[data-point='{cells[0]}']")
            if point.count() == 0:
                break
            if preview(page) == cells:
                return
            point.click()
            if preview(page) == cells:
                return
        page.locator(".pr-rotate").click()
    raise AssertionError(f"the phone never offered {piece} on {board}")


def play_by_taps(page, move: list) -> None:
    """Play ``move`` on the phone by taps; the last tap is the data-move button that sends it."""
    if move[0] == "place":  # one piece, or the solitaire's whole figure composed on the phone
        pieces = move[2]
        for i, piece in enumerate(pieces[:-1]):
            put_piece(page, move[1], piece)
            page.locator(".pr-add").click()
            expect(page.locator(".pr-board.large .pr-pt.draft")).to_have_count(sum(len(p[1]) for p in pieces[: i + 1]))
        put_piece(page, move[1], pieces[-1])
        button = page.locator(".pr-go[data-move]")
    elif move[0] == "add":  # P7: one piece of a figure (the first one opens the figure mode)
        compose = page.locator(".pr-compose")
        if compose.count() and compose.get_attribute("aria-pressed") != "true":
            compose.click()
        put_piece(page, move[1], move[2])
        button = page.locator(".pr-go[data-move]")
    elif move[0] == "swap":
        button = page.locator(f".pr-rack-piece.give[data-piece='{move[1]}']").first
    else:
        button = page.locator(f"[data-move='{json.dumps(move, separators=(',', ':'))}']").first
    assert json.loads(button.get_attribute("data-move")) == move
    button.click()


def choose(hall_live, code: str, seat: int, legal: list) -> list:
    """The move the test plays: the engine's own bot's choice for that seat (it lays figures of several pieces
    one at a time), which must be one of the seat's `legal` moves."""
    room = services_of(hall_live.app).rooms.lobby.room(code)
    move = jsonable(get_game("points-rouges").bots["default"](room.state, seat, random.Random(seat)))
    assert move in legal, move
    return move


def test_two_phones_play_a_whole_points_rouges_game(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    speaker = r.headers("speaker")
    code = c.post(
        "/api/games/rooms", json={"game": "points-rouges", "options": {"players": 4}}, headers=speaker
    ).get_json()["code"]
    projector_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    projector = projector_ctx.new_page()
    projector.set_default_timeout(15_000)
    projector.goto(f"{r.url}/jeux/{code}")
    expect(projector.locator("#gs-code")).to_have_text(code)

    phones = []
    for name in ("Émile", "Zoé"):
        ctx, page = phone(browser)
        page.goto(f"{r.url}/j/{code}")
        # the lobby's events all carry version 0: the socket's first answer, arriving after the join's HTTP
        # answer, would make room_phone.js forget the new seat; so the page first hears from its socket
        page.wait_for_function("document.body.dataset.version !== undefined")
        expect(page.locator(".rp-seats li")).to_have_count(len(phones))
        page.fill("#join-name", name)
        page.press("#join-name", "Enter")
        expect(page.locator(".rp-seats li.me")).to_have_text(name)
        token = json.loads(page.evaluate(f"localStorage.getItem('loto-room-{code}')"))["token"]
        phones.append((ctx, page, token))
    assert c.post(f"/api/games/rooms/{code}/start", headers=speaker).status_code == 200
    expect(projector.locator(".pr-screen-board")).to_have_count(3)
    shot(projector, "projector-1-playing")

    taps = composed = swapped = 0
    reloaded = False
    shots = set()
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        room = c.get(f"/api/games/rooms/{code}").get_json()
        if room["status"] == "over":
            break
        movers = room["to_move"]
        if not movers or movers[0] >= len(phones):
            bots_round(r.app)
            continue
        _, page, token = phones[movers[0]]
        page.wait_for_function(f"Number(document.body.dataset.version) >= {room['version']}", timeout=20_000)
        expect(page.locator("body.my-turn")).to_have_count(1)
        legal = seat_view(c, code, token)["legal"]
        move = choose(r, code, movers[0], legal)
        single = next((m for m in legal if m[0] == "place" and len(m[2]) == 1 and m[2][0][0] != "J"), None)
        if single and "rack" not in shots:  # a piece picked and placed in preview, before playing the chosen move
            put_piece(page, single[1], single[2][0])
            assert json.loads(page.locator(".pr-go[data-move]").get_attribute("data-move")) == single
            shot(page, "phone-1-rack-selected", full=True)
            shots.add("rack")
        if move[0] == "swap" and "swap" not in shots:
            shot(page, "phone-3-swap", full=True)
            shots.add("swap")
        version = room["version"]
        play_by_taps(page, move)
        if move[0] == "add" and "compose" not in shots:
            shots.add("compose")
        page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
        taps += 1
        composed += move[0] == "add"
        after = c.get(f"/api/games/rooms/{code}").get_json()
        mine = seat_view(c, code, token)
        if mine.get("staged") and not COMPOSE_SHOT:  # a figure being laid: the mover sees it, the hall does not (P7c)
            page.wait_for_function(f"Number(document.body.dataset.version) >= {after['version']}")
            laid = sum(len(cells) for _, cells in mine["staged"])
            expect(page.locator(".pr-board.large .pr-pt.draft")).to_have_count(laid)
            expect(projector.locator(".pr-screen-board .pr-pt.draft")).to_have_count(0)
            assert "staged" not in after["view"]
            shot(page, "phone-2-compose", full=True)
            COMPOSE_SHOT.append(True)
        swapped += move[0] == "swap"
        if taps == 4 and not reloaded:
            page.reload()
            expect(page.locator(".pr-scores li.me")).to_have_count(1)
            rack = seat_view(c, code, token)["my_rack"]
            expect(page.locator(".pr-rack-piece:not(.joker)")).to_have_count(len(rack))
            # a piece is read out by where its points are, never by its catalogue name ("S09")
            names = [piece.get_attribute("data-piece") for piece in page.locator(".pr-rack-piece:not(.joker)").all()]
            expect(page.locator(".pr-rack-piece:not(.joker)").first).to_have_accessible_name(
                re.compile(r"^Pièce de \d points\s: (en haut|au milieu|au centre|en bas)")
            )
            assert not any(n in page.locator(".pr-rack").inner_text() for n in names if n)
            reloaded = True
        if taps == 6:
            shot(projector, "projector-2-midgame")
            # what this game draws on the projector, read from the back of the hall: size and contrast
            audit = projector.evaluate(TEXT_AUDIT.replace("'body *'", "'#gs-table *, #gs-players *'"))
            assert audit["minSize"] >= 28 and audit["minContrast"] >= 4.5, audit  # the red ● dots are the lowest
    else:
        pytest.fail("the game did not end in 7 minutes")
    print(f"points rouges: {taps} moves by taps, {composed} composed, {swapped} swaps")
    assert taps >= 4 and reloaded
    room = c.get(f"/api/games/rooms/{code}").get_json()
    names = room["outcome"]["winner_names"]
    text = f"{names[0]} gagne !" if len(names) == 1 else f"Gagnants : {', '.join(names)}"
    expect(projector.locator("#gs-winner")).to_have_text(text)
    expect(phones[0][1].locator("#turn")).to_have_text(text)
    shot(projector, "projector-3-winner")
    projector.set_viewport_size({"width": 1280, "height": 720})
    expect(projector.locator(".pr-screen-board").first).to_be_in_viewport()
    shot(projector, "projector-4-winner-720")
    shot(phones[1][1], "phone-4-over")
    for ctx, _, _ in phones:
        ctx.close()
    projector_ctx.close()


def test_a_solitaire_phone_asks_for_the_hint(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    speaker = r.headers("speaker")
    code = c.post(
        "/api/games/rooms", json={"game": "points-rouges", "options": {"players": 1}}, headers=speaker
    ).get_json()["code"]
    ctx, page = phone(browser)
    page.goto(f"{r.url}/j/{code}")
    page.wait_for_function("document.body.dataset.version !== undefined")  # as above: the socket has answered first
    page.fill("#join-name", "Lucie")
    page.press("#join-name", "Enter")
    expect(page.locator(".rp-seats li.me")).to_have_text("Lucie")
    c.post(f"/api/games/rooms/{code}/start", headers=speaker)
    expect(page.locator(".pr-choice[data-move]")).to_have_count(5)
    shot(page, "phone-5-solitaire-choose")
    page.locator('.pr-choice[data-move=\'["choose","F"]\']').click()  # F: 17 230 covers, C: 2 874
    expect(page.locator(".pr-rack-piece")).to_have_count(8)
    page.locator(".pr-hint").click()
    sentence = page.locator(".pr-hint-text")
    expect(sentence).to_have_text(
        __import__("re").compile(
            r"^(Il existe une solution avec vos 8 pièces\.|Aucune solution avec ces pièces : échangez-en une\.)$"
        )
    )
    token = json.loads(page.evaluate(f"localStorage.getItem('loto-room-{code}')"))["token"]
    view = seat_view(c, code, token)
    solvable = any(m[0] == "place" for m in view["legal"])
    assert sentence.inner_text().startswith("Il existe") == solvable
    shot(page, "phone-6-solitaire-hint", full=True)
    if not solvable:  # swap pieces one at a time until the figure can be made, then ask again and make it
        for _ in range(30):
            view = seat_view(c, code, token)
            if (
                any(m[0] == "place" for m in view["legal"])
                or c.get(f"/api/games/rooms/{code}").get_json()["status"] != "playing"
            ):
                break
            swap = next(m for m in view["legal"] if m[0] == "swap")
            page.locator(".pr-swap").click()
            page.locator(f".pr-rack-piece.give[data-piece='{swap[1]}']").first.click()
            page.wait_for_function(f"Number(document.body.dataset.version) > {view['version']}")
        page.locator(".pr-hint").click()
        expect(sentence).to_have_text("Il existe une solution avec vos 8 pièces.")
    page.locator(".pr-hint").click()  # asked again: one piece of a solution, shown on the board
    expect(sentence).to_contain_text("Par exemple")
    expect(page.locator(".pr-board.large .pr-pt.hinted")).not_to_have_count(0)
    shot(page, "phone-7-solitaire-piece", full=True)
    page.goto(f"{r.url}/j/{code}?lang=en")  # the same phone in English
    expect(page.locator(".pr-hint")).to_have_text("Hint")
    expect(page.locator(".pr-say")).to_contain_text("Build the figure")
    page.locator(".pr-hint").click()
    expect(sentence).to_have_text("There is a solution with your 8 pieces.")
    shot(page, "phone-8-solitaire-en", full=True)
    page.goto(f"{r.url}/j/{code}?lang=fr")
    expect(page.locator(".pr-hint")).to_have_text("Indice")
    view = seat_view(c, code, token)
    move = next(m for m in view["legal"] if m[0] == "place")
    play_by_taps(page, move)
    expect(page.locator("#turn")).to_have_text("Lucie gagne !")
    # the projector in English, at 1280×720: the figure done, its tokens and the swaps
    english = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    screen = english.new_page()
    screen.goto(f"{r.url}/jeux/{code}?lang=en")
    expect(screen.locator(".pr-took")).to_have_text("Figure complete!")
    expect(screen.locator("#gs-players li .c")).to_have_attribute("aria-label", "12 red token(s)")
    shot(screen, "projector-5-solitaire-en")
    english.close()
    ctx.close()


def test_a_projector_opened_after_a_completion_shows_the_new_board(browser, hall_live):
    """The projector draws the public view it receives: the board drawn since the last completion is marked
    « Nouveau plateau » on a projector page opened after it (it used to compare each event with the one before,
    so a projector loaded late, or reloaded, never showed it)."""
    r = hall_live
    c = r.app.test_client()
    code = c.post(
        "/api/games/rooms", json={"game": "points-rouges", "options": {"players": 2}}, headers=r.headers("speaker")
    ).get_json()["code"]
    tokens = [c.post(f"/api/games/rooms/{code}/join", json={"name": n}).get_json()["token"] for n in ("Ana", "Léo")]
    assert c.post(f"/api/games/rooms/{code}/start", headers=r.headers("speaker")).status_code == 200
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # both seats play the engine's bot's moves through the API
        room = c.get(f"/api/games/rooms/{code}").get_json()
        if room["view"]["arrived"] or room["status"] != "playing":
            break
        seat = room["to_move"][0]
        legal = seat_view(c, code, tokens[seat])["legal"]
        res = c.post(
            f"/api/games/rooms/{code}/moves",
            json={"move": choose(r, code, seat, legal), "version": room["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert res.status_code == 200, res.get_json()
    arrived = room["view"]["arrived"]
    assert arrived and room["status"] == "playing"
    for width, height, name in ((1920, 1080, "projector-6-new-board"), (1280, 720, "projector-7-new-board-720")):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
        projector = ctx.new_page()
        projector.set_default_timeout(15_000)
        projector.goto(f"{r.url}/jeux/{code}")
        expect(projector.locator(f".pr-screen-board[data-board='{arrived}'] .pr-new")).to_have_text("Nouveau plateau")
        expect(projector.locator(".pr-new")).to_have_count(1)
        shot(projector, name)
        ctx.close()
