"""``loto-hall verify`` (issue 33): the live or an archived evening's chain checked, the fingerprint printed in groups
to read aloud, exit 1 naming the first record that does not match, records cut off the end caught against the
fingerprint on paper (or the one noted at archiving), 2 for what cannot be checked; French and English."""

from __future__ import annotations

import random
import re
import sqlite3

import pytest

from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record import chain
from hall.record.journal import Journal

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
    code, out = verify(capsys, "--data-dir", tmp_path, "--evening", "../../etc")
    assert code == 2 and "n'est pas un nom de soirée" in out
    code, out = verify(capsys, "--data-dir", tmp_path, "--fingerprint", "12 34")
    assert code == 2 and "empreinte illisible" in out
    assert verify(capsys, "--data-dir", tmp_path, "--evening", "2026-01-01_20h00")[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("journal")) == []  # nothing made


def test_an_old_journal_is_chained_at_its_first_verify_and_it_says_so(tmp_path, capsys):
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
    code, out = verify(capsys, "--data-dir", tmp_path)
    assert code == 0 and "journal d'avant la chaîne d'empreintes, chaîné le" in out and "ses 1 premiers" in out


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
