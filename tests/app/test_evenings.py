"""Past evenings kept (issue 21): ``loto-hall evening new`` archives the evening whole under a dated name, the next
one starts empty with a new voucher key, /admin lists them with their totals, and nothing is ever overwritten."""

from __future__ import annotations

import hashlib
import json

import pytest

from hall.app.cli import main
from hall.app.evening import PENDING, new_evening
from hall.app.runtime import JOURNAL_FILE, SECRET_FILE, Runtime, lock_data_dir
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import load_config
from hall.errors import HallError
from hall.loto.programme import parse_parties
from hall.record.evenings import SUMMARY_FILE, archive_dir, past_evenings
from hall.record.journal import Journal


def write_config(tmp_path) -> str:
    path = tmp_path / "hall.toml"
    path.write_text(
        f'[hall]\nname = "Comité des fêtes"\ndata_dir = "{tmp_path / "data"}"\n'
        "[[sales.price]]\ncards = 1\neur = 3\n[[sales.price]]\ncards = 6\neur = 15\n",
        encoding="utf-8",
    )
    return str(path)


def play_an_evening(config_path: str, sold: int, lot_eur: int) -> bytes:
    """Open the data folder like ``serve`` does, sell ``sold`` cartons, play a partie; the voucher key's bytes."""
    runtime = Runtime.open(load_config(config_path))
    try:
        h = runtime.hall
        if not h.card_count()[0]:
            h.adopt_cards(CardBook(dict(generate_cards(60, "E", "A", "1-9", 1))), role="system")
        h.edit_programme(
            parse_parties([{"lots": [{"kind": "quine", "label": "Jambon", "value_eur": lot_eur}]}]), role="admin"
        )
        h.sell(list(h.book)[:sold], role="desk", payment="especes")
        h.start_partie(role="speaker")
        h.clear(role="speaker", force=True)
        return (runtime.data_dir / SECRET_FILE).read_bytes()
    finally:
        runtime.close()


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_new_evening_archives_the_last_one_whole_and_the_next_report_leaves_it_unchanged(tmp_path, capsys):
    config = write_config(tmp_path)
    data = tmp_path / "data"
    key1 = play_an_evening(config, 6, 40)
    assert main(["evening", "new", "--config", config]) == 0
    [first] = past_evenings(data)
    folder = archive_dir(data) / first.name
    assert sorted(p.name for p in folder.iterdir()) == [
        JOURNAL_FILE,
        "rapport.csv",
        "rapport.pdf",
        SUMMARY_FILE,
        SECRET_FILE,
    ]
    assert not (data / SECRET_FILE).exists()
    # the next journal holds only the hall's own settings given on /admin (here the programme), carried
    following = Journal(data / JOURNAL_FILE)
    assert {r.role for r in following.records()} == {"carried"}
    following.close()
    # the ham was not won: kept for another loto, out of the balance (issue 32: the lots given only)
    assert (first.parties, first.cards_sold, first.receipts_cents, first.balance_cents) == (1, 6, 1500, 1500)
    kept = {name: digest(folder / name) for name in ("rapport.csv", "rapport.pdf", JOURNAL_FILE, SUMMARY_FILE)}
    # the next evening: an empty journal, a new voucher key (last week's vouchers are dead), cartons kept
    key2 = play_an_evening(config, 12, 10)
    assert key2 != key1
    runtime = Runtime.open(load_config(config))
    try:
        report = runtime.hall.report()
        assert report.takings.receipts_cents == 3000 and report.lotos_this_year == 2  # this one and the archived
    finally:
        runtime.close()
    assert main(["evening", "new", "--config", config]) == 0
    newest, older = past_evenings(data)
    assert older.name == first.name and newest.name != first.name
    assert {name: digest(folder / name) for name in kept} == kept  # never rewritten
    assert main(["evening", "list", "--config", config]) == 0
    out = capsys.readouterr().out
    assert first.name in out and newest.name in out and "recette 30,00" in out
    assert main(["evening", "new", "--config", config]) == 0  # nothing left to archive
    assert "rien à archiver" in capsys.readouterr().out and len(past_evenings(data)) == 2


def test_two_evenings_begun_in_the_same_minute_never_share_a_folder(tmp_path):
    config = write_config(tmp_path)
    names = []
    for _ in range(2):
        play_an_evening(config, 1, 5)
        folder = new_evening(load_config(config))
        names.append(folder.name)
        summary = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
        assert summary["receipts_cents"] == 300
    assert names[0] != names[1] and len(past_evenings(tmp_path / "data")) == 2


def test_the_service_running_keeps_the_evening_from_being_archived(tmp_path):
    config = write_config(tmp_path)
    play_an_evening(config, 1, 5)
    held = lock_data_dir(tmp_path / "data")  # what the running service holds
    try:
        with pytest.raises(HallError, match="la salle tourne") as refused:
            new_evening(load_config(config))
        assert "systemctl stop loto-hall" in str(refused.value) and "cartons" not in str(refused.value)
    finally:
        import os

        os.close(held)
    assert (tmp_path / "data" / JOURNAL_FILE).exists() and past_evenings(tmp_path / "data") == ()


def test_an_archive_cut_by_a_power_failure_is_finished_or_undone_by_the_next_run(tmp_path):
    config = write_config(tmp_path)
    data = tmp_path / "data"
    play_an_evening(config, 2, 5)
    # cut after the journal moved in, before the folder was renamed: finished by the next run
    cut = archive_dir(data) / (PENDING + "2026-01-10_20h00")
    cut.mkdir(parents=True)
    (data / JOURNAL_FILE).rename(cut / JOURNAL_FILE)
    (cut / SUMMARY_FILE).write_text(
        json.dumps(
            {
                "hall_name": "x",
                "first_at": "2026-01-10T19:00:00+00:00",
                "last_at": "",
                "parties": 1,
                "cards_sold": 2,
                "receipts_cents": 600,
                "lots_declared_cents": 0,
                "lots_bought_cents": 0,
                "balance_cents": 600,
            }
        ),
        encoding="utf-8",
    )
    # and one cut before its journal moved: undone (its voucher key put back)
    early = archive_dir(data) / (PENDING + "2026-01-11_20h00")
    early.mkdir()
    (data / SECRET_FILE).rename(early / SECRET_FILE)
    assert new_evening(load_config(config)) is None  # the journal was the cut archive's
    assert [e.name for e in past_evenings(data)] == ["2026-01-10_20h00"]
    assert not list(archive_dir(data).glob(PENDING + "*")) and (data / SECRET_FILE).exists()


def test_admin_lists_the_archived_evenings_and_serves_each_report_as_it_was_written(tmp_path):
    from display.app import create_app
    from tests.display.conftest import PINS

    config = write_config(tmp_path)
    with open(config, "a", encoding="utf-8") as fh:
        fh.write("[auth]\n" + "".join(f'{k} = "{v}"\n' for k, v in PINS.items()))
    play_an_evening(config, 6, 40)
    first = new_evening(load_config(config))
    written = {name: (first / name).read_bytes() for name in ("rapport.pdf", "rapport.csv")}
    play_an_evening(config, 7, 10)  # the next evening is played, then archived too
    new_evening(load_config(config))
    runtime = Runtime.open(load_config(config))
    try:
        app, _ = create_app(runtime.hall, runtime.config, tournament=runtime.tournament, lobby=runtime.lobby)
        c = app.test_client()

        def login(role: str) -> dict:  # a browser of its own per role: a login ends the cookie's session before it
            token = app.test_client().post("/api/login", json={"pin": PINS[f"{role}_pin"]}).get_json()["token"]
            return {"Authorization": "Bearer " + token}

        admin, desk = login("admin"), login("desk")
        assert c.get("/api/evenings", headers=desk).status_code == 403
        body = c.get("/api/evenings", headers=admin).get_json()
        assert [
            (e["name"] == first.name, e["cards_sold"], e["receipts_eur"], e["balance_eur"]) for e in body["evenings"]
        ] == [(False, 7, 18, 18), (True, 6, 15, 15)]
        assert body["archived_this_year"] == 2
        for name, data in written.items():
            got = c.get(f"/api/evenings/{first.name}/{name}", headers=admin)
            assert got.status_code == 200 and got.get_data() == data  # byte for byte, as archived
        for bad in (
            f"/api/evenings/{first.name}/journal.sqlite",
            f"/api/evenings/{first.name}/voucher.key",
            "/api/evenings/..%2F..%2Fetc/rapport.pdf",
            "/api/evenings/2020-01-01_10h00/rapport.pdf",
        ):
            assert c.get(bad, headers=admin).status_code == 404, bad
    finally:
        runtime.close()
