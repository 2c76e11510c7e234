"""Lots as lines through the hall (RULES L19–L21): a lot's terms read and bounded at every door, the lot order after
a carried carton plein, a maxi-bingo's jackpot and fallback (vouchers, report, takings), a quine on a named row
(the winner watch, the verdict), and a journal written before lines existed, replayed."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.config import parse_config
from hall.door.service import Hall
from hall.errors import ConfigError
from hall.events import Fallback, LotSpec
from hall.loto.lots import LotTermsError, lines_of, read_terms
from hall.loto.programme import ProgrammeError, parse_parties
from hall.money.report import build_report
from hall.record.journal import Journal
from hall.refusal import Rejected

# top 4 13 37 52 80 · middle 9 21 45 66 84 · bottom 18 29 58 74 90 (B differs from A on its first number only)
CARDS = {
    "A-0001": "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90",
    "A-0002": "5 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90",
    "A-0003": "1 12 30 40 70 / 2 22 31 41 71 / 3 23 32 42 72",
}
FULL_A = [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74, 90]
TELE = LotSpec(
    "carton_plein",
    "Téléviseur",
    399.0,
    "Électro Martin",
    within=18,
    fallback=Fallback("Jambon", 35.0, "Boucherie Roux"),
)
MILIEU = LotSpec("quine", "Quine du milieu", 20.0, row=2)
OLD_JOURNAL = Path(__file__).with_name("data") / "journal-before-lines.sqlite"


def open_hall(folder: Path, programme: list | None = None, seed: int = 3) -> Hall:
    raw = {"hall": {"name": "Salle des lignes", "data_dir": str(folder)}}
    if programme is not None:
        raw["programme"] = {"partie": programme}
    book = CardBook({cid: Card.parse(text) for cid, text in CARDS.items()})
    return Hall(
        parse_config(raw), Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(seed)
    )


@pytest.fixture
def hall(tmp_path):
    h = open_hall(tmp_path)
    yield h
    h.journal.close()


# ---- a lot's terms, bounded wherever they come in ---------------------------------------------------------------
@pytest.mark.parametrize(
    "kind, raw, code",
    [
        ("quine", {"row": 0}, "bad_lot_row"),
        ("quine", {"row": 4}, "bad_lot_row"),
        ("quine", {"row": "2"}, "bad_lot_row"),
        ("quine", {"row": True}, "bad_lot_row"),
        ("quine", {"row": 2.0}, "bad_lot_row"),
        ("double_quine", {"row": 1}, "bad_lot_row"),
        ("carton_plein", {"row": 3}, "bad_lot_row"),
        ("carton_plein", {"within": 14, "fallback": {"label": "Jambon"}}, "bad_lot_within"),
        ("carton_plein", {"within": 91, "fallback": {"label": "Jambon"}}, "bad_lot_within"),
        ("carton_plein", {"within": 45}, "bad_lot_within"),
        ("carton_plein", {"fallback": {"label": "Jambon"}}, "bad_lot_within"),
        ("carton_plein", {"within": 45, "fallback": {"label": ""}}, "bad_lot_within"),
        ("carton_plein", {"within": 45, "fallback": {"label": "x" * 201}}, "bad_lot_within"),
        ("carton_plein", {"within": 45, "fallback": "Jambon"}, "bad_lot_within"),
        ("carton_plein", {"within": 45, "fallback": {"label": "Jambon", "value_eur": -1}}, "bad_lot"),
        ("carton_plein", {"within": 45, "fallback": {"label": "Jambon", "value_eur": "1e9"}}, "bad_lot"),
        ("carton_plein", {"within": 45, "fallback": {"label": "Jam\x1bpbon"}}, "label_control_character"),
        ("quine", {"within": 45, "fallback": {"label": "Jambon"}}, "bad_lot_within"),
    ],
)
def test_a_lot_s_terms_are_bounded_and_refused_with_their_code(kind, raw, code):
    with pytest.raises(LotTermsError) as refused:
        read_terms(kind, raw)
    assert refused.value.code == code
    with pytest.raises(ProgrammeError) as refused_edit:  # /admin's programme says the same, with where
        parse_parties([{"lots": [{"kind": kind, "label": "Lot", **raw}]}])
    assert (refused_edit.value.code, refused_edit.value.where) == (code, "partie 1, lot 1")
    with pytest.raises(ConfigError):  # and the config file
        parse_config({"programme": {"partie": [{"lots": [{"kind": kind, "label": "Lot", **raw}]}]}})


def test_good_terms_are_read_the_same_at_every_door():
    assert read_terms("quine", {"row": 2}) == {"row": 2}
    assert read_terms("quine", {"row": None}) == {}
    assert read_terms("carton_plein", {"within": 45, "fallback": {"label": " Jambon ", "value_eur": "35,50"}}) == {
        "within": 45,
        "fallback": Fallback("Jambon", 35.5, ""),
    }
    [partie] = parse_parties(
        [
            {
                "lots": [
                    {"kind": "quine", "label": "Q", "row": 2},
                    {
                        "kind": "carton_plein",
                        "label": "Téléviseur",
                        "value_eur": 399,
                        "sponsor": "Électro Martin",
                        "within": 18,
                        "fallback": {"label": "Jambon", "value_eur": 35, "sponsor": "Boucherie Roux"},
                    },
                ]
            }
        ]
    )
    assert partie.lots == (LotSpec("quine", "Q", row=2), TELE)
    config = parse_config({"programme": {"partie": [{"lots": [{"kind": "quine", "label": "Q", "row": 2}]}]}})
    assert config.partie_spec(0).lots == (LotSpec("quine", "Q", row=2),)
    assert lines_of(MILIEU).among == (1,) and lines_of("double_quine").need == 2


def test_the_hall_itself_refuses_a_lot_whose_terms_no_door_would_give(hall):
    before = hall.journal.last_seq
    for lot in (
        LotSpec("quine", "Q", row=4),
        LotSpec("double_quine", "DQ", row=1),
        LotSpec("carton_plein", "CP", within=10, fallback=Fallback("Jambon")),
        LotSpec("carton_plein", "CP", within=45),
    ):
        with pytest.raises(Rejected) as refused:
            hall.start_partie([lot], role="speaker")
        assert refused.value.code in ("bad_lot_row", "bad_lot_within")
    assert hall.journal.last_seq == before


# ---- RULES L19: carried lots play where their kind plays ----------------------------------------------------------
def test_the_lot_order_after_a_carried_carton_plein(tmp_path):
    """Issue 32: a carried carton plein opened the next partie, before its quine, which then began with 77 balls out.
    Now it plays before the partie's own carton plein, after every quine and double quine."""
    h = open_hall(
        tmp_path,
        [
            {
                "lots": [
                    {"kind": "quine", "label": "Panier"},
                    {"kind": "double_quine", "label": "Jambon"},
                    {"kind": "carton_plein", "label": "Vélo", "value_eur": 189.9},
                ]
            },
            {
                "lots": [
                    {"kind": "quine", "label": "Filet"},
                    {"kind": "double_quine", "label": "Cidre"},
                    {"kind": "carton_plein", "label": "Télé"},
                ]
            },
        ],
    )
    h.start_partie(role="speaker")
    for n in [4, 13, 37, 52, 80]:
        h.draw(n, role="speaker")
    h.check_claim("A-0001", role="controller")
    h.award(role="speaker")  # the quine
    h.resume(role="speaker")  # the draw waits after an award (docs/loto-rules.md L11a)
    for n in [9, 21, 45, 66, 84]:
        h.draw(n, role="speaker")
    h.check_claim("A-0001", role="controller")
    h.award(role="speaker")  # the double quine; the carton plein left
    h.clear(role="speaker", carry=True)
    assert [lot.label for lot in h.snapshot().next_partie.spec.lots] == ["Filet", "Cidre", "Vélo", "Télé"]
    record = h.start_partie(role="speaker")
    assert [(lot.kind, lot.label) for lot in record.event.lots] == [
        ("quine", "Filet"),
        ("double_quine", "Cidre"),
        ("carton_plein", "Vélo"),
        ("carton_plein", "Télé"),
    ]
    assert h.evening.running.current_lot.label == "Filet"  # the partie opens on its quine
    assert h.evening.running.lots[2].value_eur == 189.9  # the carried lot keeps its value
    h.journal.close()


def test_a_partie_never_plays_a_carton_plein_while_one_of_its_quines_is_to_be_played(hall):
    record = hall.start_partie(
        [LotSpec("carton_plein", "Vélo"), LotSpec("quine", "Panier"), LotSpec("double_quine", "Jambon"), MILIEU],
        role="speaker",
    )
    assert [lot.label for lot in record.event.lots] == ["Panier", "Quine du milieu", "Jambon", "Vélo"]


# ---- RULES L20: a maxi-bingo ------------------------------------------------------------------------------------
def test_a_maxi_bingo_won_on_ball_N_plus_1_gives_its_fallback_on_the_voucher_and_in_the_report(hall):
    hall.start_partie([TELE], role="speaker")
    for n in [1, 2, 3, 5] + FULL_A:  # A's 90 is ball 19: one past the jackpot's 18
        hall.draw(n, role="speaker")
    result = hall.check_claim("A-0001", role="controller")
    assert (result.verdict, result.event.ball, result.event.prize) == ("valid", 19, "fallback")
    assert (result.lot.within, result.lot.fallback) == (18, TELE.fallback)
    award = hall.award(role="speaker")
    [voucher] = [v.issued for v in hall.evening.vouchers.values()]
    assert voucher.lot_label == "Jambon" and award.vouchers == (voucher.code,)
    [job] = hall.vouchers_to_print()
    assert (job.lot_label, job.lot_value_eur) == ("Jambon", 35.0)
    report = build_report(hall.evening, hall.journal.records(), "x")
    [lot] = report.parties[0].lots
    assert (lot.label, lot.value_eur, lot.balls) == ("Jambon", 35.0, 19)
    assert lot.terms == (
        ("lot de repli : jackpot « %(jackpot)s » non gagné en %(n)s boules", {"jackpot": "Téléviseur", "n": 18}),
    )
    [value] = report.takings.lots
    assert (value.label, value.cents, value.sponsor) == ("Jambon", 3500, "Boucherie Roux")


def test_a_tie_on_the_jackpot_draws_for_the_jackpot_and_consoles_the_other(hall):
    """Both A cartons full on ball 18 = N: both valid for the jackpot; the hall's draw (L14) gives it to one."""
    hall.start_partie([TELE], role="speaker")
    for n in [1, 2, 5] + FULL_A:
        hall.draw(n, role="speaker")
    assert len(hall.evening.running.draws) == 18
    assert sorted(hall.watch.candidates) == ["A-0001", "A-0002"]
    for cid in ("A-0001", "A-0002"):
        assert hall.check_claim(cid, role="controller").event.prize == "jackpot"
    award = hall.award(role="speaker")
    assert len(award.tie_break) == 2 and len(award.consolation) == 1
    labels = {v.issued.card_id: v.issued.lot_label for v in hall.evening.vouchers.values()}
    assert labels[award.winner] == "Téléviseur" and labels[award.consolation[0]] == "Lot de consolation"
    assert build_report(hall.evening, hall.journal.records(), "x").takings.lots[0].cents == 39900


# ---- RULES L21: a quine on a named row --------------------------------------------------------------------------
def test_a_named_row_quine_through_the_hall(hall):
    hall.start_partie([MILIEU, LotSpec("quine", "Panier")], role="speaker")
    for n in [4, 13, 37, 52, 80]:  # A's top row: a quine, but not the middle one
        hall.draw(n, role="speaker")
    assert hall.watch.candidates == []  # the watch reads the lot's lines too
    v = hall.check_claim("A-0001", role="controller")
    assert (v.verdict, v.event.reason, v.lot.row) == ("incomplete", "not_named_row", 2)
    for n in [9, 21, 45, 66, 84]:
        hall.draw(n, role="speaker")
    assert sorted(hall.watch.candidates) == ["A-0001", "A-0002"]
    hall.check_claim("A-0001", role="controller")
    hall.check_claim("A-0002", role="controller")
    award = hall.award(role="speaker")
    assert award.award.rows == ((1,),)
    # the next quine (any row) is of the same stage: the tie's draw gives it to the loser, whose middle row on 84
    # is unpaid and holds the last ball (docs/loto-rules.md L14b); nobody is left for a consolation
    ((more, lot),) = award.more
    assert lot.label == "Panier" and more.winners == tuple({"A-0001", "A-0002"} - set(award.winners))
    assert more.rows == ((1,),) and award.award.consolation == more.consolation == ()
    assert hall.evening.running.current_lot is None


# ---- a journal written before lines -------------------------------------------------------------------------------
def test_a_journal_written_before_lines_replays(tmp_path):
    """``journal-before-lines.sqlite`` was written by main at 43b86de, before lots had lines: partie 1 with a tie on
    its quine, a false claim, its double quine won, « démarquez » carrying its carton plein, and a programme edited
    for partie 2 (a quine and a carton plein). Its events carry no ``row``, ``within``, ``fallback``, ``ball`` or
    ``prize``: it replays as it was played, and the evening goes on under today's rules."""
    shutil.copy(OLD_JOURNAL, tmp_path / "journal.sqlite")
    raw = {
        "hall": {"name": "Avant les lignes", "data_dir": str(tmp_path)},
        "programme": {
            "partie": [
                {
                    "lots": [
                        {"kind": "quine", "label": "Panier garni", "value_eur": 30, "sponsor": "Épicerie"},
                        {"kind": "double_quine", "label": "Jambon"},
                        {"kind": "carton_plein", "label": "Vélo", "value_eur": 189.9},
                    ],
                    "consolation": "Cidre",
                }
            ]
        },
    }
    book = CardBook({cid: Card.parse(text) for cid, text in CARDS.items()})
    h = Hall(parse_config(raw), Journal(tmp_path / "journal.sqlite"), book, voucher_secret=b"k" * 32)
    p = h.evening.partie
    assert p.cleared and p.carried_on and [lot.status for lot in p.lots] == ["awarded", "awarded", "open"]
    assert all((lot.row, lot.within, lot.fallback) == (None, None, None) for lot in p.lots)
    assert p.lots[0].award.winners == ("A-0001",) and p.paid == {
        "quine": {"A-0001": {0}},
        "double_quine": {"A-0001": {0, 1}},
    }
    assert [c.verdict for cs in p.checks.values() for c in cs].count("valid") == 3
    assert {v.issued.lot_label for v in h.evening.vouchers.values()} == {"Panier garni", "Cidre", "Jambon"}
    report = build_report(h.evening, h.journal.records(), "x")
    assert [(lot.label, lot.awarded, lot.terms) for lot in report.parties[0].lots] == [
        ("Panier garni", True, ()),
        ("Jambon", True, ()),
        ("Vélo", False, ()),
    ]
    # partie 2, as the edited programme says, with the carried carton plein where its kind plays (L19)
    assert [lot.label for lot in h.snapshot().next_partie.spec.lots] == ["Filet garni", "Vélo", "Télé"]
    h.start_partie(role="speaker")
    for n in [9, 21, 45, 66, 84]:
        h.draw(n, role="speaker")
    assert h.check_claim("A-0002", role="controller").verdict == "valid"
    h.award(role="speaker")
    live = h.evening.snapshot()
    h.journal.close()
    again = Hall(parse_config(raw), Journal(tmp_path / "journal.sqlite"), book, voucher_secret=b"k" * 32)
    assert again.evening.snapshot() == live  # the old records and the new replay as one evening
    again.journal.close()


def test_the_report_pdf_prints_a_named_row_and_a_maxi_bingo_s_fallback(hall, tmp_path):
    import pypdfium2

    from hall.app.paper.report_pdf import write_report_pdf

    hall.start_partie([MILIEU, TELE], role="speaker")
    for n in [9, 21, 45, 66, 84]:
        hall.draw(n, role="speaker")
    hall.check_claim("A-0001", role="controller")
    hall.award(role="speaker")
    hall.resume(role="speaker")
    for n in [1, 2, 3, 5, 6, 7, 8, 4, 13, 37, 52, 80, 18, 29, 58, 74, 90]:  # 90 is ball 22: past the 18
        hall.draw(n, role="speaker")
    hall.check_claim("A-0001", role="controller")
    hall.award(role="speaker")
    write_report_pdf(hall.report(), str(tmp_path / "report.pdf"))
    text = " ".join(
        " ".join(page.get_textpage().get_text_range().split())
        for page in pypdfium2.PdfDocument(str(tmp_path / "report.pdf"))
    )
    assert "(ligne 2 seulement)" in text
    assert "Jambon (lot de repli : jackpot « Téléviseur » non gagné en 18 boules)" in text
