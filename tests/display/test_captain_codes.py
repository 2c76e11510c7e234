"""Issue 22, item 4 and part of 8 through the real API: a captain's code is guessed by nobody, a right code
clears no failure, the counts are per address, per table and per game, and a captain who opened the sheet is
never held; the desk's page shows the login to a revoked cookie."""

from __future__ import annotations

from display.services import services_of
from display.tournament.code_guard import ADDRESS_FAILS, GAME_FAILS, TABLE_FAILS
from hall.minigames.osga.codes import table_code
from tests.display.conftest import PINS
from tests.display.test_tournament import desk, register

START = 1_800_000_000.0
WRONG = "AAAAA"  # never a code: 'A' alone repeated five times is one in 6.4 million, checked below


def phone(room, address: str):
    c = room.app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    return c


def sheet(c, table: int, code: str, sheet_pass: str = ""):
    headers = {"X-Table-Code": code, **({"X-Table-Pass": sheet_pass} if sheet_pass else {})}
    return c.get(f"/api/tournoi/tables/{table}", headers=headers)


def started(room, teams: int = 4) -> None:
    register(room, teams)
    assert desk(room, "post", "/api/tournoi/start").status_code == 200
    assert WRONG not in [table_code(room.store.day, n) for n in (1, 2)]


def drive(room, now: list[float]) -> None:
    sheet(phone(room, "10.42.0.1"), 1, table_code(room.store.day, 1))  # the guard exists once a code was tried
    services_of(room.app).tournament_codes.clock = lambda: now[0]


def test_a_right_code_clears_no_failure_2500_wrong_codes_from_one_address_are_refused(troom):
    started(troom)
    captain = phone(troom, "10.42.0.66")
    own = sheet(captain, 1, table_code(troom.store.day, 1))
    assert own.status_code == 200
    sheet_pass = own.headers["X-Table-Pass"]
    answers = {200: 0, 401: 0, 429: 0}
    for _ in range(250):  # the 2 502 codes: 9 guesses at table 2, then its own sheet again
        for _ in range(9):
            answers[sheet(captain, 2, WRONG).status_code] += 1
        assert sheet(captain, 1, table_code(troom.store.day, 1), sheet_pass).status_code == 200
    assert answers[401] == ADDRESS_FAILS[0] and answers[429] == 2250 - ADDRESS_FAILS[0], answers


def test_codes_are_counted_per_table_and_per_game_whatever_the_address(troom):
    started(troom)
    now = [START]
    drive(troom, now)
    day = troom.store.day
    opened = sheet(phone(troom, "10.42.0.2"), 1, table_code(day, 1))
    holder, sheet_pass = phone(troom, "10.42.0.2"), opened.headers["X-Table-Pass"]
    addresses = iter(f"10.42.{n // 250}.{n % 250 + 10}" for n in range(10_000))
    for _ in range(TABLE_FAILS[0]):  # a fresh address each time: the table's own count holds
        assert sheet(phone(troom, next(addresses)), 2, WRONG).status_code == 401
    assert sheet(phone(troom, next(addresses)), 2, table_code(day, 2)).status_code == 429
    assert sheet(phone(troom, next(addresses)), 1, table_code(day, 1)).status_code == 200  # other tables: checked
    spent = TABLE_FAILS[0]
    table = 3
    while spent < GAME_FAILS[0]:  # tables that do not exist count for the game too
        for _ in range(min(TABLE_FAILS[0], GAME_FAILS[0] - spent)):
            assert sheet(phone(troom, next(addresses)), table, WRONG).status_code == 401
            spent += 1
        table += 1
    held = sheet(phone(troom, next(addresses)), 1, table_code(day, 1))
    assert held.status_code == 429 and int(held.headers["Retry-After"]) > 0
    # the captain who opened table 1's sheet is never held by the counts (its pass), a wrong pass is
    assert sheet(holder, 1, table_code(day, 1), sheet_pass).status_code == 200
    assert sheet(holder, 2, table_code(day, 2), sheet_pass).status_code == 429
    assert sheet(holder, 1, table_code(day, 1), sheet_pass[:-2] + "xx").status_code == 429
    # the next game has new codes and its own counts
    for table in (1, 2):
        assert desk(troom, "post", f"/api/tournoi/tables/{table}/close").status_code == 200
    assert desk(troom, "post", "/api/tournoi/next").status_code == 200
    day = troom.store.day
    assert sheet(phone(troom, next(addresses)), 2, table_code(day, 2)).status_code == 200
    assert sheet(holder, 1, table_code(day, 1), sheet_pass).status_code == 200  # (a new pass comes with it)
    now[0] += GAME_FAILS[1] + 1  # and every count ages out
    assert sheet(phone(troom, "10.42.0.10"), 1, table_code(day, 1)).status_code == 200


def test_the_desk_page_shows_the_login_to_a_revoked_cookie(troom):
    page = troom.app.test_client()
    assert page.post("/api/login", json={"pin": PINS["desk_pin"]}).status_code == 200
    assert 'id="td-title"' in page.get("/tournoi").get_data(as_text=True)
    changed = troom.app.test_client().post(
        "/api/pins", json={"role": "desk", "pin": "314159"}, headers=troom.headers("admin")
    )
    assert changed.status_code == 201 and changed.get_json()["sessions_ended"] == 1
    shown = page.get("/tournoi").get_data(as_text=True)
    assert 'id="login-form"' in shown and 'id="td-title"' not in shown


def test_the_desk_sees_a_held_table_and_gives_it_a_fresh_code_strangers_cannot_hold(troom):
    """Issue 31: 120 wrong codes from strangers held a table's captains for 6 h. The desk sees it and gives the
    table a fresh code (its count starts again), checked whatever strangers keep doing."""
    started(troom)
    now = [START]
    drive(troom, now)
    addresses = iter(f"10.42.{n // 250}.{n % 250 + 10}" for n in range(10_000))
    for _ in range(TABLE_FAILS[0]):
        assert sheet(phone(troom, next(addresses)), 2, WRONG).status_code == 401
    printed = table_code(troom.store.day, 2)
    assert sheet(phone(troom, next(addresses)), 2, printed).status_code == 429  # the captain is held
    table = next(t for t in desk(troom, "get", "/api/tournoi/desk").get_json()["tables"] if t["table"] == 2)
    assert table["held_s"] > 0 and table["printed"] is True  # the desk sees it
    assert desk(troom, "post", "/api/tournoi/tables/2/code", {}, role="controller").status_code == 403
    tables = desk(troom, "post", "/api/tournoi/tables/2/code", {}).get_json()["tables"]
    fresh = next(t for t in tables if t["table"] == 2)
    assert fresh["code"] == table_code(troom.store.day, 2) != printed and len(fresh["code"]) == 8
    assert fresh["held_s"] == 0 and fresh["printed"] is False
    assert sheet(phone(troom, next(addresses)), 2, printed).status_code == 401  # the paper's code: gone
    for _ in range(GAME_FAILS[0] + TABLE_FAILS[0]):  # strangers go on, at that table and at every other
        sheet(phone(troom, next(addresses)), 2, WRONG)
    assert sheet(phone(troom, next(addresses)), 1, table_code(troom.store.day, 1)).status_code == 429  # the game
    captain = phone(troom, next(addresses))
    assert sheet(captain, 2, fresh["code"][:4].lower() + "-" + fresh["code"][4:]).status_code == 200  # the fresh one
    guesser = phone(troom, next(addresses))  # one address guessing it: held by its own budget only
    for _ in range(ADDRESS_FAILS[0]):
        assert sheet(guesser, 2, WRONG * 2).status_code == 401
    assert sheet(guesser, 2, fresh["code"]).status_code == 429
    assert troom.store.day.recoded and desk(troom, "get", "/api/tournoi").get_json().get("recoded") is None
