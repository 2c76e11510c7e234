"""``serve --demo`` and its config (issue 21): it reads the config as ``serve`` does (``--config``, else
``./loto-hall.toml``), takes the hall's name, programme and prices from it, keeps the demo's PINs whatever it says,
and its partie 1 waits for the speaker so that /admin can still program it."""

from __future__ import annotations

import argparse

from hall.app.demo import DEMO_CARDS, prepare_demo
from hall.app.runtime import Runtime
from hall.app.wiring import DEMO_PINS, config_from_args
from hall.cartons.sales import PriceTier
from hall.rights import ROLES

FILE = """
[hall]
name = "Foyer rural de Saint-Loto"
[auth]
speaker_pin = "{other}"
admin_pin = "{other}"
[[programme.partie]]
lots = [{{ kind = "quine", label = "Panier garni", value_eur = 30.0, sponsor = "Épicerie" }}]
[[sales.price]]
cards = 1
eur = 2.5
[[sales.price]]
cards = 10
eur = 20
"""


def args(**given) -> argparse.Namespace:
    return argparse.Namespace(**{"demo": True, "config": None, "data_dir": None, "host": None, "port": None, **given})


def other_pin() -> str:
    """A PIN that is none of the demo's, of the same length (never a PIN value written here)."""
    pin = DEMO_PINS["speaker_pin"]
    return "".join(str((int(d) + 1) % 10) for d in pin)


def demo_pins(config) -> dict:
    return {f"{role}_pin": getattr(config.auth, f"{role}_pin") for role in ROLES}


def check_the_file_was_read(config) -> None:
    assert config.hall.name == "Foyer rural de Saint-Loto"
    assert config.programme[0].lots[0].label == "Panier garni" and config.programme[0].lots[0].sponsor == "Épicerie"
    assert [(p.cards, p.eur) for p in config.sales.price] == [(1, 2.5), (10, 20.0)]
    assert demo_pins(config) == DEMO_PINS  # the demo's PINs, not the file's


def test_demo_with_a_config_file_takes_its_name_programme_and_prices_and_keeps_the_demo_pins(tmp_path):
    path = tmp_path / "salle.toml"
    path.write_text(FILE.format(other=other_pin()), encoding="utf-8")
    check_the_file_was_read(config_from_args(args(config=str(path), data_dir=str(tmp_path / "d"))))


def test_demo_reads_the_loto_hall_toml_of_its_folder_as_serve_does(tmp_path, monkeypatch):
    (tmp_path / "loto-hall.toml").write_text(FILE.format(other=other_pin()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    check_the_file_was_read(config_from_args(args(data_dir=str(tmp_path / "d"))))


def test_demo_without_a_file_is_the_demonstration_hall_with_price_tiers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = config_from_args(args(data_dir=str(tmp_path / "d")))
    assert config.hall.name == "Loto de démonstration" and demo_pins(config) == DEMO_PINS
    runtime = Runtime.open(config)
    try:
        prepare_demo(runtime)
        assert runtime.hall.price_tiers() == (PriceTier(1, 300), PriceTier(6, 1500), PriceTier(12, 2500))
        assert runtime.hall.card_count()[0] == DEMO_CARDS
        snap = runtime.hall.snapshot()
        assert snap.partie is None and snap.next_partie.number == 1  # partie 1 waits for the speaker
    finally:
        runtime.close()
