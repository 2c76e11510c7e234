"""The evening's report, on an evening played through a real Hall: draws, a false claim, an undo, a tie with a
consolation, a forced démarquer, vouchers printed, reprinted and redeemed."""

from __future__ import annotations

import csv
import io

import pypdfium2 as pdfium
import pytest

from display import views
from hall.app.cli import main
from hall.app.cli_report import load_report
from hall.app.paper.report_pdf import write_report_pdf
from hall.money.report import build_report, report_from_hall
from hall.money.report_csv import COLUMNS, FRENCH, HEADERS, write_csv
from tests.drivers.paper import TIE_CARDS, X_ID, Y_ID, some_cards


def fr(code: str) -> str:
    """A code of the report as the French CSV writes it."""
    return FRENCH.get(code, code)


@pytest.fixture
def evening(make_hall):
    """Play the crafted evening; returns (hall, facts to expect)."""
    extra = some_cards(6, series="F", seed=11)
    hall = make_hall({**TIE_CARDS, **extra})
    false_id = next(iter(extra))  # stands up with a carton far from complete
    hall.start_partie(role="speaker")
    for n in (1, 12, 23, 34, 5, 16, 27, 38):
        hall.draw(n, role="speaker")
    hall.announce_claim(role="speaker")
    assert views.verdict(hall.check_claim(false_id, role="controller"))["verdict"] == "incomplete"
    hall.resume(role="speaker")
    hall.draw(77, role="speaker")
    hall.undo(role="speaker")  # 77 was a misread
    hall.draw(45, role="speaker")
    assert views.verdict(hall.check_claim(X_ID, role="controller"))["verdict"] == "valid"
    assert views.verdict(hall.check_claim(Y_ID, role="controller"))["verdict"] == "valid"
    tie = views.award(hall.award(role="speaker"))
    hall.resume(role="speaker")  # the draw waits after an award (docs/loto-rules.md L11a)
    for n in (2, 13, 24, 35, 46):  # X's second row: double quine
        hall.draw(n, role="speaker")
    assert views.verdict(hall.check_claim(X_ID, role="controller"))["verdict"] == "valid"
    double = views.award(hall.award(role="speaker"))
    hall.clear(role="speaker", force=True)  # démarquez with the carton plein unplayed
    hall.start_partie(role="speaker")
    for n in (90, 1, 45):
        hall.draw(n, role="speaker")
    hall.clear(role="speaker", force=True)
    codes = tie["vouchers"] + double["vouchers"]
    hall.voucher_printed(codes[0], role="device")
    hall.voucher_printed(codes[1], role="device")
    hall.request_reprint(codes[0], role="desk")
    hall.voucher_printed(codes[0], True, role="device")
    hall.redeem(codes[0], role="desk")
    return hall, {"tie": tie, "double": double, "false_id": false_id, "codes": codes}


def rows_of(path) -> list[dict]:
    """The French CSV as a French spreadsheet reads it (``;``, BOM), keyed by the report's own column names."""
    with open(path, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter=";"))
    return [{k: row[HEADERS["fr"][k]] for k in COLUMNS} for row in rows]


def section(rows, name, **match) -> list[dict]:
    return [r for r in rows if r["section"] == fr(name) and all(r[k] == str(v) for k, v in match.items())]


def test_report_csv_holds_the_evening(evening, tmp_path):
    hall, facts = evening
    report = build_report(hall.evening, hall.journal.records(), hall.config.hall.name)
    write_csv(report, tmp_path / "r.csv")
    rows = rows_of(tmp_path / "r.csv")
    tie = facts["tie"]
    loser = tie["consolation"][0]

    [w1] = section(rows, "winner", partie=1, lot=1)
    assert (w1["card_id"], w1["number"], w1["count"], w1["status"], w1["kind"]) == (
        tie["winner"],
        "45",
        "9",
        fr("tie_break"),
        "Quine",
    )
    assert {(r["card_id"], int(r["number"]), r["status"]) for r in section(rows, "tie_break", partie=1, lot=1)} == {
        (t["card_id"], t["number"], fr("winner") if t["card_id"] == tie["winner"] else fr("consolation"))
        for t in tie["tie_break"]
    }
    [c] = section(rows, "consolation", partie=1, lot=1)
    assert (c["card_id"], c["detail"]) == (loser, "Lot de consolation")
    [w2] = section(rows, "winner", partie=1, lot=2)
    assert (w2["card_id"], w2["number"], w2["count"], w2["status"], w2["detail"]) == (
        X_ID,
        "46",
        "14",
        fr("single"),
        "rangées 1 2",
    )
    assert section(rows, "lot", partie=1, lot=3)[0]["status"] == fr("kept")  # démarquée without carrying it

    draws1 = [int(r["number"]) for r in sorted(section(rows, "draw", partie=1), key=lambda r: int(r["order"]))]
    assert draws1 == [1, 12, 23, 34, 5, 16, 27, 38, 45, 2, 13, 24, 35, 46]
    assert [int(r["number"]) for r in section(rows, "draw", partie=2)] == [90, 1, 45]
    [undo] = section(rows, "undo")
    assert (undo["partie"], undo["number"], undo["order"], undo["role"]) == ("1", "77", "9", "speaker")
    [false] = section(rows, "false_claim")
    assert (false["partie"], false["card_id"], false["status"], false["number"]) == (
        "1",
        facts["false_id"],
        fr("incomplete"),
        "38",
    )
    freq = {int(r["number"]): int(r["count"]) for r in section(rows, "frequency")}
    assert len(freq) == 90 and (freq[1], freq[45], freq[90], freq[77], freq[46]) == (2, 2, 1, 0, 1)
    assert sum(freq.values()) == 17

    totals = {r["label"]: int(r["count"]) for r in section(rows, "total")}
    assert totals == {
        fr(k): v
        for k, v in {
            "parties": 2,
            "balls_drawn": 17,
            "undos": 1,
            "lots_awarded": 2,
            "lots_not_awarded": 4,
            "lots_carried": 0,
            "tie_breaks": 1,
            "shared_lots": 0,
            "consolations": 1,
            "false_claims": 1,
            "missed_claims": 0,
            "other_refused_claims": 0,
            "vouchers_issued": 3,
            "vouchers_printed": 2,
            "vouchers_unprinted": 1,
            "duplicates_printed": 1,
            "vouchers_redeemed": 1,
            "vouchers_outstanding": 2,
        }.items()
    }
    vouchers = {r["code"]: r for r in section(rows, "voucher")}
    a, b, d = (vouchers[c] for c in facts["codes"])
    assert (a["count"], a["status"], a["detail"], a["card_id"]) == (
        "2",
        fr("redeemed"),
        "réimpressions 1",
        tie["winner"],
    )
    assert (b["count"], b["status"], b["detail"], b["card_id"]) == ("1", fr("not_redeemed"), "consolation", loser)
    assert (d["count"], d["kind"], d["card_id"]) == ("0", "Double quine", X_ID)
    parties = section(rows, "partie")
    assert [(p["partie"], p["status"], p["detail"], p["count"]) for p in parties] == [
        ("1", fr("cleared"), fr("forced"), "14"),
        ("2", fr("cleared"), fr("forced"), "3"),
    ]
    assert section(rows, "meta")[0]["detail"] == "Salle test"


def test_report_of_the_live_hall_for_the_admin_page(evening):
    hall, facts = evening
    report = report_from_hall(hall)
    assert report.totals["vouchers_issued"] == 3 and report.parties[0].numbers[-1] == 46
    text, pdf = io.StringIO(), io.BytesIO()
    write_csv(report, text)
    write_report_pdf(report, pdf)
    assert text.getvalue().startswith("\ufeffrubrique;partie;lot;ordre;") and pdf.getvalue().startswith(b"%PDF")


def test_report_command_writes_pdf_and_csv(evening, tmp_path, capsys):
    hall, facts = evening
    config = tmp_path / "hall.toml"
    config.write_text(f'[hall]\nname = "Salle test"\ndata_dir = "{tmp_path}"\n', encoding="utf-8")
    live = build_report(hall.evening, hall.journal.records(), "Salle test")
    assert (
        main(["report", "--config", str(config), "--pdf", str(tmp_path / "r.pdf"), "--csv", str(tmp_path / "r.csv")])
        == 0
    )
    assert "2 parties, 17 boules, 2 lots donnés, 3 bons émis dont 1 remis" in capsys.readouterr().out
    from hall.config import load_config

    assert load_report(load_config(config)).totals == live.totals  # a second reader sees the same evening

    pdf = pdfium.PdfDocument(tmp_path / "r.pdf")
    text = "\n".join(page.get_textpage().get_text_range() for page in pdf)
    pdf.close()
    tie = facts["tie"]
    for expected in (
        "Rapport de la soirée — Salle test",
        "Partie n° 1",
        "Partie n° 2",
        "Fausses réclamations",
        "fausse réclamation",
        facts["false_id"],
        "Boules annulées",
        "Départage",
        f"{tie['winner']} (rangée 1)",
        f"{X_ID} (rangée 1+2)",
        "Lot de consolation",
        "non gagné",
        "démarquée avec des lots restants",
        "Fréquence des boules",
        "45 ×2",
        "90 ×1",
        "77 ×0",
        *facts["codes"],
        *(f"{t['card_id']} : {t['number']}" for t in tie["tie_break"]),
    ):
        assert expected in text, expected
    assert rows_of(tmp_path / "r.csv")[0]["section"] == fr("meta")


def test_report_command_refuses_without_journal_or_output(tmp_path, capsys):
    config = tmp_path / "hall.toml"
    config.write_text(f'[hall]\ndata_dir = "{tmp_path / "empty"}"\n', encoding="utf-8")
    assert main(["report", "--config", str(config), "--pdf", str(tmp_path / "r.pdf")]) == 2
    assert "pas de journal" in capsys.readouterr().err
    assert not (tmp_path / "empty").exists() and not (tmp_path / "r.pdf").exists()
    assert main(["report", "--config", str(config)]) == 2
