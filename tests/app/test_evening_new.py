"""A new evening (issue 32, item 7): it keeps the hall's own settings given on /admin — the price tiers, the
programme, the phones' help, the PINs changed — while the evening itself is archived; the command line says
plainly why it refuses (the service running, a demonstration's folder), says so when there is nothing to list, and
``report --help`` explains every option, in French or English."""

from __future__ import annotations

import json
import os

import pytest

from hall.app.cli import build_parser, main
from hall.app.demo import demo_cards
from hall.app.evening import NEXT_JOURNAL, PENDING, new_evening
from hall.app.runtime import JOURNAL_FILE, Runtime, lock_data_dir
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import load_config
from hall.errors import HallError
from hall.events import PriceTier
from hall.loto.programme import parse_parties, pin_matches
from hall.record.evenings import SUMMARY_FILE, archive_dir, past_evenings
from hall.record.journal import Journal

PROGRAMME = [
    {
        "lots": [
            {"kind": "quine", "label": "Panier garni", "value_eur": 40, "sponsor": "Épicerie Morel"},
            {"kind": "carton_plein", "label": "Vélo", "value_eur": 189},
        ],
        "consolation": "Bouteille",
    },
    {"lots": [{"kind": "quine", "label": "Filet garni"}]},
]


def write_config(tmp_path, extra: str = "") -> str:
    path = tmp_path / "hall.toml"
    path.write_text(
        f'[hall]\nname = "Comité des fêtes"\ndata_dir = "{tmp_path / "data"}"\n'
        "[[sales.price]]\ncards = 1\neur = 3\n" + extra,
        encoding="utf-8",
    )
    return str(path)


def open_runtime(config: str, cards=None) -> Runtime:
    runtime = Runtime.open(load_config(config))
    if not runtime.hall.card_count()[0]:
        runtime.hall.adopt_cards(CardBook(dict(cards or generate_cards(30, "N", "A", "1-9", 1))), role="system")
    return runtime


def test_a_new_evening_keeps_the_tiers_programme_help_and_pins_given_on_admin(tmp_path, capsys):
    config = write_config(tmp_path)
    runtime = open_runtime(config)
    h = runtime.hall
    h.set_prices([PriceTier(1, 250), PriceTier(12, 2000)], role="admin")
    h.edit_programme(parse_parties(PROGRAMME), role="admin")
    h.set_players(role="admin", help="tap", one_to_go=False, phone_call=True, max_cards=9)
    h.change_pin("desk", "4567890", role="admin")
    h.sell(list(h.book)[:2], role="desk", payment="especes")
    h.start_partie(role="speaker")
    h.clear(role="speaker", force=True)
    h.edit_programme(parse_parties(PROGRAMME[1:]), role="admin")  # partie 2 on: its second edit
    runtime.close()
    assert main(["evening", "new", "--config", config]) == 0
    assert "soirée archivée" in capsys.readouterr().out
    runtime = open_runtime(config)
    try:
        h = runtime.hall
        assert h.price_tiers() == (PriceTier(1, 250), PriceTier(12, 2000))  # not the config file's 3 €
        assert [lot.label for lot in h.partie_spec(0).lots] == ["Panier garni", "Vélo"]
        assert h.partie_spec(0).lots[0].sponsor == "Épicerie Morel" and h.partie_spec(0).consolation == "Bouteille"
        assert [lot.label for lot in h.partie_spec(1).lots] == ["Filet garni"]
        players = h.players()
        assert (players.help, players.one_to_go, players.phone_call, players.max_cards) == ("tap", False, True, 9)
        assert pin_matches(h.pin_hashes()["desk"], "4567890")
        assert h.sales() == () and h.evening.parties == []  # the evening itself is archived
        report = h.report()
        assert report.first_at == "" and report.totals["parties"] == 0  # the settings are no evening of their own
    finally:
        runtime.close()
    assert main(["evening", "new", "--config", config]) == 0  # nothing played since: nothing to archive
    assert "rien à archiver" in capsys.readouterr().out and len(past_evenings(tmp_path / "data")) == 1
    # the next evening is dated by its own first event, not by the settings it started with
    runtime = open_runtime(config)
    runtime.hall.sell(list(runtime.hall.book)[:1], role="desk", payment="carte")
    first_sale = runtime.hall.report().first_at
    runtime.close()
    assert new_evening(load_config(config)) is not None
    newest = past_evenings(tmp_path / "data")[0]
    assert newest.first_at == first_sale and newest.receipts_cents == 250


def test_a_cut_between_the_two_journals_is_finished_by_the_next_run(tmp_path):
    config = write_config(tmp_path)
    runtime = open_runtime(config)
    runtime.hall.set_prices([PriceTier(1, 200)], role="admin")
    runtime.hall.sell(list(runtime.hall.book)[:1], role="desk", payment="especes")
    runtime.close()
    data = tmp_path / "data"
    # the archive cut after the journal moved in, before the next one took its place
    following = Journal(data / NEXT_JOURNAL)
    following.close()
    cut = archive_dir(data) / (PENDING + "2026-01-10_20h00")
    cut.mkdir(parents=True)
    (data / JOURNAL_FILE).rename(cut / JOURNAL_FILE)
    (cut / SUMMARY_FILE).write_text(
        json.dumps(
            {
                "hall_name": "x",
                "first_at": "2026-01-10T19:00:00+00:00",
                "last_at": "",
                "parties": 0,
                "cards_sold": 1,
                "receipts_cents": 200,
                "lots_declared_cents": 0,
                "lots_bought_cents": 0,
                "balance_cents": 200,
            }
        ),
        encoding="utf-8",
    )
    assert new_evening(load_config(config)) is None
    assert (data / JOURNAL_FILE).exists() and not (data / NEXT_JOURNAL).exists()
    assert [e.name for e in past_evenings(data)] == ["2026-01-10_20h00"]


def test_the_command_says_plainly_why_it_refuses_or_has_nothing(tmp_path, capsys, monkeypatch):
    config = write_config(tmp_path)
    assert main(["evening", "list", "--config", config]) == 0
    out = capsys.readouterr().out
    assert "aucune soirée archivée" in out and str(tmp_path / "data") in out
    runtime = open_runtime(config)
    runtime.hall.sell(list(runtime.hall.book)[:1], role="desk", payment="especes")
    runtime.close()
    held = lock_data_dir(tmp_path / "data")  # the service runs
    try:
        assert main(["evening", "new", "--config", config]) == 2
        err = capsys.readouterr().err
        assert "la salle tourne" in err and "systemctl stop loto-hall" in err and "importez" not in err
        monkeypatch.setenv("LANG", "en_GB.UTF-8")
        monkeypatch.delenv("LC_ALL", raising=False)
        monkeypatch.delenv("LC_MESSAGES", raising=False)
        assert main(["evening", "new", "--config", config]) == 2
        assert "the hall is running" in capsys.readouterr().err
    finally:
        os.close(held)
    assert main(["evening", "list", "--config", config]) == 0
    assert "no archived evening" in capsys.readouterr().out


def test_a_demonstration_is_never_archived_and_the_command_says_why(tmp_path, capsys):
    config = write_config(tmp_path)
    runtime = open_runtime(config, cards=demo_cards("1-9"))
    runtime.hall.sell(list(runtime.hall.book)[:3], role="desk", payment="especes")
    runtime.hall.start_partie(role="speaker")
    runtime.close()
    assert main(["evening", "new", "--config", config]) == 2
    err = capsys.readouterr().err
    assert "démonstration" in err and "lotos de l'année" in err
    assert past_evenings(tmp_path / "data") == () and (tmp_path / "data" / JOURNAL_FILE).exists()
    with pytest.raises(HallError):
        new_evening(load_config(config))


def test_report_help_explains_every_option(capsys, monkeypatch):
    for lang, words in (("fr_FR.UTF-8", ("classeur", "journal")), ("en_GB.UTF-8", ("workbook", "journal"))):
        monkeypatch.setenv("LANG", lang)
        monkeypatch.delenv("LC_ALL", raising=False)
        monkeypatch.delenv("LC_MESSAGES", raising=False)
        report = next(a for a in build_parser()._subparsers._group_actions[0].choices.items() if a[0] == "report")[1]
        options = [a for a in report._actions if a.option_strings and a.dest != "help"]
        assert {a.dest for a in options} == {"config", "data_dir", "pdf", "csv", "xlsx", "lang"}
        assert all(a.help and len(a.help) > 20 for a in options), [a.dest for a in options if not a.help]
        with pytest.raises(SystemExit):
            main(["report", "--help"])
        out = capsys.readouterr().out
        assert all(w in out for w in words), out
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main(["report"]) == 2
    assert "--xlsx" in capsys.readouterr().err
