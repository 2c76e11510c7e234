"""The tournament's documents: the current game's sheets (table assignments, one score sheet per table with its
code and QR code) and the standings as PDF (the makers are the drivers', handed in by the composition root) and
as a formula-safe CSV (docs/osga.md T9)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from display.services import services
from display.tournament.access import desk, hall_name, public, store, with_codes
from hall import safe_cell
from hall.refusal import Rejected

bp = Blueprint("tournament_downloads", __name__)


def _maker(name: str) -> Callable[..., object]:
    maker = services().documents.get(name)
    if maker is None:
        raise Rejected("not_found")
    return maker


def _download(data: bytes | str, mimetype: str, filename: str) -> ResponseReturnValue:
    return current_app.response_class(
        data, mimetype=mimetype, headers={"Content-Disposition": f"attachment; filename={filename}"}
    )


@bp.get("/api/tournoi/sheets.pdf")
def sheets_pdf() -> ResponseReturnValue:
    """The current game's table assignments and one score sheet per table, with its code and QR code."""
    desk()
    day = store().day
    data = with_codes(day)
    if not data.get("tables"):
        raise Rejected("tournoi/not_started" if day.tournament is None else "tournoi/day_over")
    out = io.BytesIO()
    base = services().config.hall_link("").rstrip("/")  # never the request's localhost
    _maker("tournament_sheets_pdf")(data, out, base_url=base, hall_name=hall_name(), words=_pdf_words())
    return _download(out.getvalue(), "application/pdf", f"tournoi-partie-{data['game']}.pdf")


@bp.get("/api/tournoi/standings.pdf")
def standings_pdf() -> ResponseReturnValue:
    """The standings (final once the day is over), printable."""
    desk()
    data = public(store().day)
    if data["phase"] in ("none", "registration"):
        raise Rejected("tournoi/not_started")
    out = io.BytesIO()
    _maker("tournament_standings_pdf")(data, out, hall_name=hall_name(), words=_pdf_words())
    return _download(out.getvalue(), "application/pdf", "tournoi-classement.pdf")


@bp.get("/api/tournoi/standings.csv")
def standings_csv() -> ResponseReturnValue:
    """The standings as CSV (formula-safe), the teams out of the standings after them."""
    desk()
    data = public(store().day)
    if data["phase"] in ("none", "registration"):
        raise Rejected("tournoi/not_started")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            _("Rang"),
            _("Équipe"),
            _("Nom"),
            _("Joueur 1"),
            _("Joueur 2"),
            _("Points de classement"),
            _("Points de jeu"),
            _("Barrages gagnés"),
            _("Note"),
        ]
    )
    for row in data["standings"]:
        note = _("égalité : barrage") if row["playoff_needed"] else ""
        writer.writerow(
            [
                safe_cell(v)
                for v in (
                    row["place"],
                    row["team"],
                    row["name"],
                    row["players"][0],
                    row["players"][1],
                    row["ranking"],
                    row["game_points"],
                    row["playoff_wins"],
                    note,
                )
            ]
        )
    for row in data["out"]:
        writer.writerow(
            [
                safe_cell(v)
                for v in (
                    "",
                    row["team"],
                    row["name"],
                    "",
                    "",
                    "",
                    "",
                    "",
                    _("absente") if row["why"] == "absent" else _("en défaut"),
                )
            ]
        )
    return _download("\ufeff" + out.getvalue(), "text/csv; charset=utf-8", "tournoi-classement.csv")


def _pdf_words() -> dict[str, str]:
    """The sentences printed on the PDFs, in the request's language."""
    return {
        "sheet_title": _("Feuille de pointage"),
        "assign_title": _("Placement des tables"),
        "standings_title": _("Classement"),
        "final_title": _("Classement final"),
        "game": _("Partie %(n)s sur %(total)s"),
        "session": _("Séance %(n)s"),
        "table": _("Table %(n)s"),
        "hand": _("Main"),
        "ns": _("Nord–Sud"),
        "ew": _("Est–Ouest"),
        "initials": _("Initiales"),
        "total": _("Total"),
        "code": _("Code de la table"),
        "scan": _(
            "Capitaine : scannez le code QR pour saisir les mains sur votre téléphone, "
            "ou rendez cette feuille à la table de marque."
        ),
        "dealer": _("Chaque joueur donne deux fois ; 20 minutes par partie ; au signal, la main en cours est finie."),
        "place": _("Rang"),
        "team": _("Équipe"),
        "players": _("Joueurs"),
        "ranking": _("Points"),
        "game_points": _("Points de jeu"),
        "note": _("Note"),
        "tied": _("égalité : barrage"),
        "playoff_wins": _("barrages gagnés : %(n)s"),
        "out": _("Hors classement"),
        "absent": _("absente"),
        "default": _("en défaut"),
        "north": _("Nord"),
        "east": _("Est"),
        "south": _("Sud"),
        "west": _("Ouest"),
        "floater": _("réserve"),
        "rules": _(
            "2 points par partie gagnée, 1 en cas d'égalité, 0 perdue ; départage : points de jeu, "
            "puis barrage en 4 mains."
        ),
    }
