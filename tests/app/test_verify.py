"""``loto-hall verify`` (issue 33): the live or an archived evening's chain checked, the fingerprint printed in groups
to read aloud, exit 1 naming the first record that does not match, records cut off the end caught against the
fingerprint on paper (or the one noted at archiving), 2 for what cannot be checked; French and English."""

from __future__ import annotations

import hashlib
import random
import re
import sqlite3

import pytest

from display.record import ArchiveVerdicts
from display.views import projector_state
from hall.app.ball_archive import archived_draws
from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record import chain
from hall.record.evenings import evening_summary
from hall.record.journal import Journal, version

GROUPS = re.compile(r"([0-9A-F]{4}(?: [0-9A-F]{4}){4})")


def play(folder, balls=(3, 14, 25, 36, 47)) -> Hall:
    hall = Hall(
        parse_config({"hall": {"data_dir": str(folder)}}),
        Journal(folder / "journal.sqlite"),
        CardBook({}),
        voucher_secret=b"k" * 32,
        rng=random.Random(1),
    )
    hall.start_partie(role="speaker")
    for n in balls:
        hall.draw(n, role="speaker")
    return hall


def verify(capsys, *args) -> tuple[int, str]:
    code = main(["verify", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_live_journal_verifies_while_the_hall_serves_and_prints_the_fingerprint(tmp_path, capsys):
    hall = play(tmp_path)  # still open: the command reads beside it (WAL)
    code, out = verify(capsys, "--data-dir", tmp_path)
    fp = hall.fingerprint()
    assert code == 0 and "6 enregistrement(s), chaîne intacte." in out
    assert GROUPS.search(out).group(1) == fp.shown == chain.shown(hall.journal.last_hash)
    assert f"enregistrement n° {fp.seq}" in out
    hall.draw(58, role="speaker")
    code, out = verify(capsys, "--data-dir", tmp_path, "--fingerprint", fp.shown.lower().replace(" ", "-"))
    assert code == 0 and "enregistrement n° 6 : le journal d'alors est intact ; 1 enregistrement(s) écrit(s)" in out
    hall.journal.close()


def test_a_changed_record_is_named_and_the_exit_is_one(tmp_path, capsys):
    play(tmp_path).journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("UPDATE events SET role = 'admin' WHERE seq = 4")
    db.commit()
    db.close()
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 1 and "ÉCHEC : enregistrement n° 4 (draw:ball_drawn" in out and "modifié après coup" in out
    assert "Les 3 enregistrements d'avant sont intacts" in out


def test_records_cut_off_the_end_show_against_the_paper_and_the_archive_s_noted_fingerprint(tmp_path, capsys):
    play(tmp_path).journal.close()
    code, out = verify(capsys, "--data-dir", tmp_path)
    paper = GROUPS.search(out).group(1)
    assert main(["evening", "new", "--data-dir", str(tmp_path)]) == 0
    (name,) = [p.name for p in (tmp_path / "soirees").iterdir()]
    code, out = verify(capsys, "--data-dir", tmp_path, "--evening", name)
    assert code == 0 and paper in out and "rien n'a été retiré de la fin depuis" in out
    db = sqlite3.connect(tmp_path / "soirees" / name / "journal.sqlite")
    db.execute("DELETE FROM events WHERE seq = 6")
    db.commit()
    db.close()
    code, out = verify(capsys, "--data-dir", tmp_path, "--evening", name)
    assert code == 1 and "aucun enregistrement n'a cette empreinte" in out and "(il s'arrête au n° 5)" in out
    code, out = verify(capsys, "--data-dir", tmp_path, "--evening", name, "--fingerprint", paper)
    assert code == 1 and "retirés de la fin" in out


def test_what_cannot_be_checked_is_said_with_exit_two(tmp_path, capsys):
    assert verify(capsys, "--data-dir", tmp_path)[0] == 2  # no journal here
    play(tmp_path).journal.close()
    hall_s = sorted(p.name for p in tmp_path.iterdir())  # the hall's own files (its journal, its checkpoint)
    code, out = verify(capsys, "--data-dir", tmp_path, "--evening", "../../etc")
    assert code == 2 and "n'est pas un nom de soirée" in out
    code, out = verify(capsys, "--data-dir", tmp_path, "--fingerprint", "12 34")
    assert code == 2 and "empreinte illisible" in out
    assert verify(capsys, "--data-dir", tmp_path, "--evening", "2026-01-01_20h00")[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == hall_s  # verify made nothing


def test_an_old_journal_is_not_chained_by_verify_but_by_the_hall_s_first_open_which_verify_then_tells(tmp_path, capsys):
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, "
        "role TEXT NOT NULL, at TEXT NOT NULL)"
    )
    db.execute("""INSERT INTO events VALUES (1, 'draw:ball_drawn', '{"number": 7, "index": 0, "source": "console"}',
                  'speaker', '2025-11-21T20:00:00+00:00')""")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 2 and "Rien à vérifier : ce journal est d'avant la chaîne d'empreintes (schéma 1)" in out
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before  # not migrated, nothing made
    Journal(tmp_path / "journal.sqlite").close()  # the hall's own first open chains it, in the chain
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 0 and "2 enregistrement(s), chaîne intacte." in out
    assert "les enregistrements n° 1 à 1, écrits avant la chaîne d'empreintes, ont été chaînés à l'ouverture le" in out
    assert f"par la version {version()} de loto-hall (enregistrement n° 2)" in out


@pytest.mark.parametrize(
    "lang, words", [("fr_FR.UTF-8", "vérifie que le journal"), ("en_GB.UTF-8", "checks that the evening's journal")]
)
def test_help_in_french_and_english(monkeypatch, capsys, lang, words):
    monkeypatch.setenv("LANG", lang)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    with pytest.raises(SystemExit):
        main(["--help"])
    assert words in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    assert "--fingerprint" in capsys.readouterr().out


def test_english_output(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    play(tmp_path).journal.close()
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 0 and "6 record(s), chain intact." in out and "Fingerprint: " in out


def bytes_of(folder) -> dict[str, str]:
    """Each file of ``folder`` (recursively) and the SHA-256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def tamper(path, *sql: str) -> None:
    db = sqlite3.connect(path)
    for statement in sql:
        db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize("archived", [False, True])
@pytest.mark.parametrize("version_set", [1, 0])
def test_the_treasurer_s_sqlite3_cannot_talk_any_check_into_passing_a_changed_ball(
    tmp_path, capsys, version_set, archived
):
    """The outside look's attack (issue 40): ball 42 made 41, then ``user_version`` set back, then the note of the
    chaining deleted. Every check fails it every time, and none of them changes a byte of what it judges."""
    play(tmp_path, balls=(3, 14, 42, 36)).journal.close()
    folder, where = tmp_path, []
    if archived:  # then /admin checks it too, against the fingerprint noted at its archiving
        assert main(["evening", "new", "--data-dir", str(tmp_path)]) == 0
        (name,) = [p.name for p in (tmp_path / "soirees").iterdir()]
        folder, where = tmp_path / "soirees" / name, ["--evening", name]
    journal = folder / "journal.sqlite"
    steps = (
        "UPDATE events SET payload = replace(payload, '\"number\":42', '\"number\":41') WHERE type = 'draw:ball_drawn'",
        f"PRAGMA user_version={version_set}",
        "DELETE FROM chained",
    )
    for step in steps:
        tamper(journal, step)
        before = bytes_of(tmp_path)
        code, out = verify(capsys, "--data-dir", tmp_path, *where)
        assert code != 0 and "ÉCHEC" in out and "chaîne intacte" not in out, (step, out)
        if archived:
            seen = ArchiveVerdicts().verdict(tmp_path, evening_summary(tmp_path, name))  # /admin's check
            assert seen["ok"] is False and seen["problem"] is not None, (step, seen)
        assert main(["report", "--data-dir", str(folder), "--csv", str(tmp_path.parent / f"r{version_set}.csv")]) in (
            0,
            2,
        )
        capsys.readouterr()
        assert archived_draws(folder) in ((), ((3, 14, 41, 36),))
        assert bytes_of(tmp_path) == before, step  # nothing migrated, re-chained, checkpointed or made
    # the hall's own first open of it (the only writer that migrates) does not chain it again either
    Journal(journal).close()
    code, out = verify(capsys, "--data-dir", tmp_path, *where)
    assert code == 1 and "ÉCHEC : enregistrement n° 4 (draw:ball_drawn" in out, out


def test_a_payload_with_a_key_written_twice_does_not_verify(tmp_path, capsys):
    """The text hashed is the text stored: Python's reader takes the last ``number`` (the one hashed), another
    tool may take the first."""
    play(tmp_path, balls=(3, 14, 42)).journal.close()
    journal = tmp_path / "journal.sqlite"
    (text,) = sqlite3.connect(journal).execute("SELECT payload FROM events WHERE seq = 4").fetchone()
    assert '"number":42' in text
    tamper(
        journal,
        "UPDATE events SET payload = '" + text.replace('"number":42', '"number":41,"number":42') + "' WHERE seq = 4",
    )
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert (
        code == 1 and "ÉCHEC : enregistrement n° 4 (draw:ball_drawn" in out and "une clé y est écrite deux fois" in out
    )
    tamper(journal, "UPDATE events SET payload = '" + text.replace(":42", ": 42") + "' WHERE seq = 4")
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 1 and "pas écrit comme la salle l'écrit" in out


def test_the_projector_shows_the_journal_s_fingerprint_after_each_partie_and_verify_accepts_it(tmp_path, capsys):
    """Issue 40: a fingerprint leaves the building by default — photographed off the projector after each
    « Démarquez », with no printer and no ticket asked for."""
    hall = play(tmp_path)
    assert "journal" not in projector_state(hall.snapshot())  # while a partie runs: the board
    shown = []
    for partie in (1, 2):
        hall.clear(role="speaker", force=True)
        state = projector_state(hall.snapshot())
        assert state["journal"]["partie"] == partie and GROUPS.fullmatch(state["journal"]["shown"])
        shown.append(state["journal"])
        hall.start_partie(role="speaker")
        assert "journal" not in projector_state(hall.snapshot())
        hall.draw(60 + partie, role="speaker")
    hall.clear(role="speaker", force=True)
    last = projector_state(hall.snapshot())["journal"]
    hall.journal.close()
    restarted = Hall(hall.config, Journal(tmp_path / "journal.sqlite"), CardBook({}), voucher_secret=b"k" * 32)
    assert projector_state(restarted.snapshot())["journal"] == last  # a restart shows it still
    restarted.journal.close()
    for j in shown + [last]:
        code, out = verify(capsys, "--data-dir", tmp_path, "--fingerprint", j["shown"])
        assert code == 0 and f"L'empreinte donnée est celle de l'enregistrement n° {j['seq']}" in out, out


def money_evening(folder) -> Hall:
    """The evening's three tables in one journal: cartons' balls, the tombola sold and drawn, the buvette's till."""
    from tests.hall.test_tombola import CONDUCTED, body

    hall = play(folder)
    hall.prepare_tombola(body(), role="admin")
    hall.sell_tombola(buyer="Mme Roux", payment="especes", count=5, role="desk")
    hall.close_tombola_sales(role="speaker")
    hall.draw_tombola(role="speaker", **CONDUCTED)
    hall.set_buvette_products([{"name": "Bière", "price_eur": "2,50", "stock": 48}], 30, role="admin")
    hall.buvette_sell([{"product": "Bière", "qty": 2}], "cash", 10, role="buvette")
    hall.buvette_close({"Bière": 45}, role="buvette")
    return hall


@pytest.mark.parametrize(
    ("kind", "was", "made"),
    [
        ("buvette:sale_recorded", '"total_cents":500', '"total_cents":50'),
        ("buvette:closed", '["cash",500]', '["cash",50]'),
        ("buvette:products_set", '"costs_cents":3000', '"costs_cents":300'),
        ("tombola:sold", '"cents":1000', '"cents":100'),
        ("tombola:drawn", '"ticket":', '"ticket":1'),
    ],
)
def test_verify_covers_the_tombola_s_and_the_buvette_s_records(tmp_path, capsys, kind, was, made):
    """A sum changed in the file, in a record of the tombola or of the buvette, fails ``loto-hall verify`` and is
    named, as a changed ball is: one chain holds the evening's three tables."""
    money_evening(tmp_path).journal.close()
    journal = tmp_path / "journal.sqlite"
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 0 and "chaîne intacte" in out, out
    (seq, text) = sqlite3.connect(journal).execute("SELECT seq, payload FROM events WHERE type = ?", (kind,)).fetchone()
    assert was in text, text
    tamper(journal, "UPDATE events SET payload = '" + text.replace(was, made, 1) + f"' WHERE seq = {seq}")
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 1 and f"ÉCHEC : enregistrement n° {seq} ({kind}" in out and "modifié après coup" in out, out
