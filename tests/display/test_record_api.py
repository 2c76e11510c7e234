"""The evening's record on /admin (issue 33): the live fingerprint in /api/admin, the board's copy asked for by the
admin only (journalled, so the print queue owes it), and each archived evening's verdict in /api/evenings — intact,
a changed record named, and its end cut off since it was archived (the fingerprint noted in soiree.json)."""

from __future__ import annotations

import random
import shutil
import sqlite3

from hall.app.evening import new_evening
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.evenings import archive_dir
from hall.record.journal import Journal


def archived(room, tmp_path) -> str:
    """An evening played in another folder, archived by ``loto-hall evening new``, moved into the room's; its name."""
    old = tmp_path / "old"
    config = parse_config({"hall": {"data_dir": str(old)}})
    hall = Hall(config, Journal(old / "journal.sqlite"), CardBook({}), voucher_secret=b"k" * 32, rng=random.Random(1))
    hall.start_partie(role="speaker")
    for n in (3, 14, 25, 36, 47):
        hall.draw(n, role="speaker")
    hall.clear(role="speaker", force=True)
    hall.journal.close()
    folder = new_evening(config)
    shutil.move(str(folder), str(archive_dir(room.config.data_dir) / folder.name))
    return folder.name


def test_admin_shows_the_live_fingerprint_and_only_the_admin_asks_for_the_board_s_copy(room, client):
    room.hall.start_partie(role="speaker")
    room.hall.draw(12, role="speaker")
    fp = client.get("/api/admin", headers=room.headers("admin")).get_json()["fingerprint"]
    live = room.hall.fingerprint()
    assert fp == {"shown": live.shown, "hash": live.hash, "seq": live.seq, "at": live.at} and len(fp["shown"]) == 24
    assert client.post("/api/report/ticket", headers=room.headers("desk")).status_code == 403
    assert client.post("/api/report/ticket").status_code == 401
    resp = client.post("/api/report/ticket", headers=room.headers("admin"))
    assert resp.status_code == 202
    asked = resp.get_json()
    (job,) = room.hall.tickets_to_print()
    assert asked["seq"] == job.fingerprint.seq and asked["fingerprint"]["shown"] == job.fingerprint.shown
    assert client.get("/api/admin", headers=room.headers("admin")).get_json()["fingerprint"]["seq"] == asked["seq"]


def test_each_archived_evening_s_verdict_names_what_changed_and_an_end_cut_off(room, client, tmp_path):
    name = archived(room, tmp_path)

    def verdict():
        (e,) = client.get("/api/evenings", headers=room.headers("admin")).get_json()["evenings"]
        return e["record"]

    first = verdict()
    assert first["ok"] and first["noted"] and first["records"] == 7 and len(first["fingerprint"]) == 24
    path = archive_dir(room.config.data_dir) / name / "journal.sqlite"
    db = sqlite3.connect(path)
    db.execute("DELETE FROM events WHERE seq = (SELECT MAX(seq) FROM events)")  # the démarquez, gone
    db.commit()
    assert verdict()["problem"] == "fingerprint_missing"
    db.execute("UPDATE events SET payload = replace(payload, '\"number\":25', '\"number\":52') WHERE seq = 4")
    db.commit()
    db.close()
    bad = verdict()
    assert (bad["ok"], bad["problem"], bad["seq"]) == (False, "changed", 4)
