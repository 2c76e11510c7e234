"""The config: typed, every problem reported at once, naming the key."""
from __future__ import annotations

import pytest

from hall.config import load_config, parse_config
from hall.errors import ConfigError


def test_defaults():
    c = parse_config({})
    assert (c.rules.last_number, c.rules.ties, c.rules.false_claim, c.cards.columns) == (True, "draw_lowest", "resume", "1-9")
    assert c.ball_machine is None and c.printer is None
    assert [lot.kind for lot in c.partie_spec(0).lots] == ["quine", "double_quine", "carton_plein"]


def test_every_problem_reported_at_once_with_did_you_mean():
    with pytest.raises(ConfigError) as exc:
        parse_config({"hall": {"nmae": "x"}, "server": {"port": "80"}, "rules": {"ties": "coin"},
                      "ball_machin": {}, "ball_machine": {"baudrate": 9600}})
    text = str(exc.value)
    assert len(exc.value.problems) == 5
    assert "hall.nmae" in text and "« name »" in text
    assert "server.port" in text
    assert "rules.ties" in text
    assert "[ball_machin]" in text and "« [ball_machine] »" in text
    assert "ball_machine.port : clé obligatoire absente" in text


def test_programme_parsed_and_checked():
    c = parse_config({"programme": {"partie": [{"lots": [{"kind": "quine", "label": "Jambon", "value_eur": 40}],
                                                "consolation": "Bouteille"}]}})
    assert c.programme[0].lots[0].label == "Jambon" and c.programme[0].lots[0].value_eur == 40.0
    with pytest.raises(ConfigError) as exc:
        parse_config({"programme": {"partie": [{"lots": [{"kind": "bingo", "label": "x"}], "prix": 2}]}})
    assert any("bingo" in p for p in exc.value.problems) and any("prix" in p for p in exc.value.problems)


def test_file_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[hall\nname=")
    with pytest.raises(ConfigError) as exc:
        load_config(bad)
    assert "TOML" in str(exc.value)
    with pytest.raises(ConfigError):
        load_config(tmp_path / "absent.toml")
    good = tmp_path / "good.toml"
    good.write_text('[hall]\nname = "Salle des fêtes"\n[printer]\nurl = "tcp://127.0.0.1:9100"\n')
    c = load_config(good)
    assert c.hall.name == "Salle des fêtes" and c.printer.url == "tcp://127.0.0.1:9100"


def test_example_config_is_valid():
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "systemd" / "config.example.toml"
    load_config(example)
