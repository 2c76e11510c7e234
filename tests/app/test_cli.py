"""The ``loto-hall`` command: cards generate and import, help in French or English, games simulate."""

from __future__ import annotations

import os
import subprocess
import sys

from hall.cartons.cardbook import CardBook


def run(*args, cwd=None, lang="fr_FR.UTF-8"):
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "hall.app", *args], capture_output=True, text=True, cwd=cwd, env=env)


def write_config(tmp_path):
    config = tmp_path / "loto-hall.toml"
    config.write_text(f'[hall]\nname = "Salle test"\ndata_dir = "{tmp_path / "data"}"\n')
    return config


def test_generate_then_import_then_refuse_duplicates(tmp_path):
    out = tmp_path / "a.csv"
    r = run("cards", "generate", "--count", "12", "--series", "A", "--seed", "5", "--csv", str(out))
    assert r.returncode == 0, r.stderr
    book = CardBook.read_csv(out)
    assert len(book) == 12
    numbers = sorted(n for cid in list(book)[:6] for n in book.get(cid).numbers)
    assert numbers == list(range(1, 91))  # a planche of 6 covers 1–90 once
    config = write_config(tmp_path)
    r = run("cards", "import", str(out), "--config", str(config))
    assert r.returncode == 0, r.stderr
    assert len(CardBook.load(tmp_path / "data")) == 12
    again = run("cards", "import", str(out), "--config", str(config))
    assert again.returncode == 2 and "A-00001" in again.stderr
    assert len(CardBook.load(tmp_path / "data")) == 12


def test_same_seed_same_cartons(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    for path in (a, b):
        assert run("cards", "generate", "--count", "30", "--seed", "x", "--csv", str(path)).returncode == 0
    assert a.read_text() == b.read_text()


def test_import_refuses_a_bad_file_whole_naming_each_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "card_id,row1,row2,row3\n"
        "A-1,4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n"
        "A-2,4 13 37 52 91,9 21 45 66 84,18 29 58 74 90\n"
        "A-3,4 13 37 52,9 21 45 66 84,18 29 58 74 90\n"
    )
    config = write_config(tmp_path)
    r = run("cards", "import", str(bad), "--config", str(config))
    assert r.returncode == 2
    assert "ligne 3" in r.stderr and "ligne 4" in r.stderr and "ligne 2" not in r.stderr
    assert len(CardBook.load(tmp_path / "data")) == 0


def test_import_refused_while_the_hall_holds_the_data_folder(tmp_path):
    from hall.app.runtime import Runtime
    from hall.config import load_config

    config = write_config(tmp_path)
    out = tmp_path / "a.csv"
    run("cards", "generate", "--count", "6", "--seed", "1", "--csv", str(out))
    runtime = Runtime.open(load_config(config))
    try:
        r = run("cards", "import", str(out), "--config", str(config))
        assert r.returncode == 2 and "/admin" in r.stderr
    finally:
        runtime.close()


def test_help_in_french_and_english():
    fr = run("cards", "generate", "--help")
    en = run("cards", "generate", "--help", lang="en_GB.UTF-8")
    assert "exemple : loto-hall cards generate" in fr.stdout
    assert "example: loto-hall cards generate" in en.stdout
    assert "cartons : générer" in run("--help").stdout
    assert "cartons: generate" in run("--help", lang="en_US.UTF-8").stdout


def test_bad_config_key_stops_with_its_name(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[rules]\nlast_numbre = true\n")
    r = run("cards", "import", str(tmp_path / "x.csv"), "--config", str(config))
    assert r.returncode == 2 and "rules.last_numbre" in r.stderr and "last_number" in r.stderr
