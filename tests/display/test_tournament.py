"""The OSGA tournament day on the web: the desk, the captains' codes, refusals, exports, a whole bot day."""

from __future__ import annotations

import csv
import io

import pypdfium2 as pdfium
import pytest

from hall.app.runtime import TOURNAMENT_FILE, open_tournament
from hall.minigames.osga.codes import table_code
from hall.minigames.osga.day import bot_day, simulate_day
from hall.minigames.osga.standings import format_standings
from hall.minigames.osga.standings import standings as rank_teams


def desk(room, method: str, path: str, body=None, role: str = "desk"):
    client = room.app.test_client()
    return getattr(client, method)(path, json=body, headers=room.headers(role))


def register(room, count: int, names=None) -> None:
    assert desk(room, "post", "/api/tournoi/day", {"title": "Tournoi du club"}).status_code == 200
    for n in range(1, count + 1):
        name = names[n - 1] if names else f"T{n:02d}"
        resp = desk(room, "post", "/api/tournoi/teams", {"name": name, "players": [f"{name}-a", f"{name}-b"]})
        assert resp.status_code == 200, resp.get_json()


def test_the_desk_needs_its_pin_and_the_public_sees_no_codes(troom):
    client = troom.app.test_client()
    assert client.post("/api/tournoi/day", json={}).status_code == 401
    resp = desk(troom, "post", "/api/tournoi/day", {}, role="speaker")
    assert resp.status_code == 403 and resp.get_json()["error"] == "forbidden"
    register(troom, 4)
    assert desk(troom, "post", "/api/tournoi/start").status_code == 200
    public = client.get("/api/tournoi").get_json()
    assert public["phase"] == "running" and all("code" not in t for t in public["tables"])
    codes = desk(troom, "get", "/api/tournoi/desk").get_json()
    assert [t["code"] for t in codes["tables"]] == [table_code(troom.store.day, n) for n in (1, 2)]
    assert desk(troom, "post", "/api/tournoi/day", {}, role="admin").status_code == 200  # admin may too


def test_a_captain_writes_only_on_the_table_of_the_code_and_bad_codes_are_limited(troom):
    register(troom, 4)
    desk(troom, "post", "/api/tournoi/start")
    code = table_code(troom.store.day, 1)
    phone = troom.app.test_client()
    ok = phone.post("/api/tournoi/tables/1/hands", json={"hand": 1, "ns": 6, "ew": 2}, headers={"X-Table-Code": code})
    assert ok.status_code == 200 and ok.get_json()["tables"][0]["hands"] == [[6, 2]]
    other = phone.post(
        "/api/tournoi/tables/2/hands", json={"hand": 1, "ns": 6, "ew": 2}, headers={"X-Table-Code": code}
    )
    assert other.status_code == 401 and other.get_json()["error"] == "bad_code"
    assert "Code de table faux" in other.get_json()["message"]
    english = phone.post(
        "/api/tournoi/tables/2/hands?lang=en",
        json={"hand": 1, "ns": 6, "ew": 2},
        headers={"X-Table-Code": code, "Accept-Language": "en"},
    )
    assert english.get_json()["message"].startswith("Wrong table code")
    before = troom.store.version
    for _ in range(10):
        phone.post("/api/tournoi/tables/2/close", headers={"X-Table-Code": "AAAAA"})
    limited = phone.post("/api/tournoi/tables/2/close", headers={"X-Table-Code": table_code(troom.store.day, 2)})
    assert limited.status_code == 429 and limited.headers["Retry-After"]
    assert troom.store.version == before  # nothing changed


@pytest.mark.slow
@pytest.mark.parametrize(
    "body, code, status",
    [
        ({"hand": 1, "ns": 99, "ew": 0}, "bad_number", 422),
        ({"hand": 3, "ns": 5, "ew": 3}, "hand_out_of_order", 409),
        ({"hand": "1", "ns": 5, "ew": 3}, "bad_number", 422),
        ({"hand": 1, "ns": None, "ew": 3}, "bad_number", 422),
        ([1, 2], "bad_json", 400),
    ],
)
def test_bad_hands_get_a_clear_refusal_and_change_nothing(troom, body, code, status):
    register(troom, 4)
    desk(troom, "post", "/api/tournoi/start")
    before = troom.store.version
    resp = desk(troom, "post", "/api/tournoi/tables/1/hands", body)
    assert resp.status_code == status and resp.get_json()["error"] == code and resp.get_json()["message"]
    assert troom.store.version == before


def test_next_game_waits_for_every_table_and_shows_the_movement(troom):
    register(troom, 4)
    desk(troom, "post", "/api/tournoi/start")
    for hand in range(1, 9):
        desk(troom, "post", "/api/tournoi/tables/1/hands", {"hand": hand, "ns": 5, "ew": 3})
    resp = desk(troom, "post", "/api/tournoi/next")
    assert resp.status_code == 409 and resp.get_json()["error"] == "tables_not_done"
    assert resp.get_json()["tables"] == [2] and "2" in resp.get_json()["message"]
    desk(troom, "post", "/api/tournoi/tables/2/close")
    seated_before = [
        s["player"]
        for t in troom.store.day and desk(troom, "get", "/api/tournoi/desk").get_json()["tables"]
        for s in t["seats"]
    ]
    after = desk(troom, "post", "/api/tournoi/next").get_json()
    assert after["game"] == 2 and sorted(s["player"] for t in after["tables"] for s in t["seats"]) == sorted(
        seated_before
    )
    assert after["tables"][0]["seats"] != []


def test_registration_check_in_floater_and_default_through_the_api(troom):
    register(troom, 2)
    desk(troom, "post", "/api/tournoi/teams", {"name": '=HYPERLINK("x")', "players": ["@a", "+b"], "arrived": False})
    assert desk(troom, "post", "/api/tournoi/teams/T03/arrive").status_code == 200
    desk(troom, "post", "/api/tournoi/floater", {"players": ["Rose", "Rémi"]})
    data = desk(troom, "post", "/api/tournoi/start").get_json()
    assert data["floater_playing"] and len(data["tables"]) == 2
    late = desk(troom, "post", "/api/tournoi/teams", {"name": "Tard", "players": ["x", "y"]})
    assert late.status_code == 409 and late.get_json()["error"] == "registration_closed"
    gone = desk(troom, "post", "/api/tournoi/teams/T02/default").get_json()
    assert "T02" not in [r["team"] for r in gone["standings"]] and gone["out"][0]["why"] == "default"
    assert desk(troom, "post", "/api/tournoi/teams/T02/explode").get_json()["error"] == "unknown_event"
    rows = list(csv.reader(io.StringIO(desk(troom, "get", "/api/tournoi/standings.csv").get_data(as_text=True))))
    cells = [c for row in rows[1:] for c in row]
    assert '\'=HYPERLINK("x")' in cells and "'@a" in cells and "'+b" in cells
    assert not any(c[:1] in "=+-@" for c in cells if c and not c.lstrip("-").isdigit())


def test_a_simulated_20_team_day_entered_through_the_api_gives_the_cli_standings(troom):
    seed = 11
    final, games = bot_day(20, seed)
    register(troom, 20)
    assert desk(troom, "post", "/api/tournoi/start").status_code == 200
    captains = troom.app.test_client()
    for number, game in enumerate(games):
        tables = desk(troom, "get", "/api/tournoi/desk").get_json()["tables"]
        for table, hands in zip(tables, game):
            paper = table["table"] % 2 == 0  # even tables are paper sheets typed by the desk, odd ones phones
            for hand, (ns, ew) in enumerate(hands, 1):
                body = {"hand": hand, "ns": ns, "ew": ew}
                if paper:
                    resp = desk(troom, "post", f"/api/tournoi/tables/{table['table']}/hands", body)
                else:
                    resp = captains.post(
                        f"/api/tournoi/tables/{table['table']}/hands",
                        json=body,
                        headers={"X-Table-Code": table["code"]},
                    )
                assert resp.status_code == 200, resp.get_json()
        assert desk(troom, "post", "/api/tournoi/next").status_code == 200, number
    for winner, loser in final.playoffs:
        assert desk(troom, "post", "/api/tournoi/playoffs", {"winner": winner, "loser": loser}).status_code == 200
    data = troom.app.test_client().get("/api/tournoi").get_json()
    assert data["phase"] == "finished"
    # the same printed table as ``loto-hall games tournament --teams 20 --seed 11``
    ranked = rank_teams([t for t in final.teams if t.counts], final.records, final.playoffs, final.defaulted)
    expected_rows = format_standings(ranked).splitlines()[1:]
    assert simulate_day(20, seed).splitlines()[2 : 2 + len(expected_rows)] == expected_rows
    got = [(r["place"], r["team"], r["ranking"], r["game_points"]) for r in data["standings"]]
    assert got == [(r.place, r.team, r.ranking, r.game_points) for r in ranked]
    # a restart replays the file to the same standings
    again = open_tournament(troom.config.data_dir / TOURNAMENT_FILE)
    assert again.day.tournament.records == troom.store.day.tournament.records
    again.close()


def pdf_text(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


def test_the_sheets_and_standings_pdfs_read_back(troom):
    register(troom, 6, names=["Les As", "Valets", "Dames", "Rois", "Atouts", "Cavaliers"])
    desk(troom, "post", "/api/tournoi/start")
    resp = desk(troom, "get", "/api/tournoi/sheets.pdf")
    assert resp.status_code == 200 and resp.mimetype == "application/pdf"
    pages = pdf_text(resp.get_data())
    assert len(pages) == 1 + 3  # the assignments, then one sheet per table
    assert "Placement des tables" in pages[0] and "Les As-a" in pages[0]
    codes = [table_code(troom.store.day, n) for n in (1, 2, 3)]
    for page, code in zip(pages[1:], codes):
        assert "Feuille de pointage" in page and code in page and "/tournoi/table/" in page
    standings = pdf_text(desk(troom, "get", "/api/tournoi/standings.pdf").get_data())
    assert "Classement" in standings[0] and "Cavaliers" in standings[0]
    assert desk(troom, "get", "/api/tournoi/standings.pdf", role="speaker").status_code == 403


def test_the_qr_code_on_a_sheet_opens_that_tables_page(troom):
    import zxingcpp

    register(troom, 2)
    desk(troom, "post", "/api/tournoi/start")
    data = desk(troom, "get", "/api/tournoi/sheets.pdf").get_data()
    page = pdfium.PdfDocument(data)[1]
    image = page.render(scale=3).to_pil()
    text = page.get_textpage().get_text_range()
    url = next(line for line in text.splitlines() if "/tournoi/table/1?code=" in line).strip()
    decoded = [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert url in decoded  # the QR code says what the sheet prints
    assert url.startswith(troom.config.hall_link("tournoi/")) and "localhost" not in url  # the hall's address
    path = url.split(troom.config.hall_link("").rstrip("/"), 1)[1]
    assert troom.app.test_client().get(path).status_code == 200


def test_the_tournament_words_are_all_translated_to_english_and_compiled():
    import re
    from pathlib import Path

    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    display = Path(__file__).resolve().parents[2] / "display"
    asked = set()
    source = "".join(path.read_text(encoding="utf-8") for path in (display / "tournament").glob("*.py"))
    for m in re.finditer(r'\b_l?\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)', source):
        asked.add("".join(eval(x) for x in re.findall(r'"(?:[^"\\]|\\.)*"', m.group(1))))
    for page in display.glob("templates/tournoi*.html"):
        for m in re.finditer(r'\b_\(\s*("(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')', page.read_text(encoding="utf-8")):
            asked.add(eval(m.group(1)))
    po = read_po((display / "translations/en/LC_MESSAGES/messages.po").open("rb"))
    translated = {m.id for m in po if m.id and m.string}
    assert asked <= translated, asked - translated
    mo = read_mo((display / "translations/en/LC_MESSAGES/messages.mo").open("rb"))
    ident = lambda m: tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id  # noqa: E731  (plurals: list in .mo)
    assert {ident(m) for m in po if m.id} == {ident(m) for m in mo if m.id}
    words = set()
    for js in display.glob("static/js/tournoi*.js"):
        words |= set(re.findall(r'\bsay\("([a-z_]+)"', js.read_text(encoding="utf-8")))
    from display.tournament.messages import JS_WORDS

    assert words <= set(JS_WORDS), words - set(JS_WORDS)


def test_the_pages_answer_in_french_and_in_english(troom):
    client = troom.app.test_client()
    assert "Tournoi de Euchre aux enchères" in client.get("/tournoi/classement").get_data(as_text=True)
    assert "Bid Euchre tournament" in client.get("/tournoi/classement?lang=en").get_data(as_text=True)
    assert "PIN" in client.get("/tournoi").get_data(as_text=True)  # the desk asks for its PIN first
    assert "Ouvrir la feuille" in troom.app.test_client().get("/tournoi/table/3?lang=fr").get_data(as_text=True)


def test_the_desk_asking_for_a_table_that_does_not_exist_gets_a_refusal_not_an_error(troom):
    register(troom, 4)
    assert desk(troom, "get", "/api/tournoi/tables/1").get_json()["error"] == "not_started"
    desk(troom, "post", "/api/tournoi/start")
    resp = desk(troom, "get", "/api/tournoi/tables/9")
    assert resp.status_code == 422 and resp.get_json()["error"] == "bad_number"
    assert desk(troom, "get", "/api/tournoi/tables/2").get_json()["table"]["table"] == 2
    assert desk(troom, "post", "/api/tournoi/teams", {"name": "X", "players": "ab"}).get_json()["error"] in (
        "registration_closed",
        "bad_name",
    )
    assert desk(troom, "post", "/api/tournoi/day", {"games_per_session": "six"}).get_json()["error"] == "bad_number"
