"""The OSGA tournament day on the web: the desk ``/tournoi``, the captains' ``/tournoi/table/<n>``, the
projector's ``/tournoi/classement``, and their API under ``/api/tournoi`` (docs/osga.md).

The day lives in a :class:`hall.minigames.osga.store.TournamentStore` handed in by the composition root
(``create_app(..., tournament=store)``); the PDF makers too (``documents["tournament_sheets_pdf"]``,
``documents["tournament_standings_pdf"]``). The desk (or admin) signs in with its PIN; a captain holds the
code printed on the table's score sheet, which opens that table for that game only. Words are French first,
English in the ``tournoi`` translation domain (``display/translations/en/LC_MESSAGES/tournoi.po``).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, after_this_request, current_app, jsonify, render_template, request, session
from flask.typing import ResponseReturnValue
from flask_babel import Domain, get_locale

from display import auth as A
from display.api import body
from display.auth import csrf_token
from display.code_guard import CodeGuard, game_key
from display.errors import ApiError
from hall.minigames.osga.store import TournamentStore
from hall.minigames.osga.tournament import (
    HAND_MAX,
    HAND_MIN,
    HANDS_PER_GAME,
    Day,
    TournamentError,
    check_code,
    summary,
    table_code,
)

bp = Blueprint("tournament", __name__)
DOMAIN = Domain(str(Path(__file__).resolve().parent / "translations"), domain="tournoi")
_ = DOMAIN.gettext
_l = DOMAIN.lazy_gettext
DESK_RIGHT = "tournament_desk"   # hall/rights.py: the desk (and the admin)

STATUS = {
    "bad_field": 422, "bad_name": 422, "bad_number": 422, "bad_json": 400, "unknown_event": 400,
    "bad_code": 401, "unknown_team": 404, "no_tournament": 404, "too_large": 413, "too_many_attempts": 429,
}
MESSAGES = {
    "bad_field": _l("Champ « %(field)s » manquant ou incorrect."),
    "bad_json": _l("La requête n'est pas un objet JSON valide."),
    "bad_name": _l("Nom manquant ou trop long (%(max)s caractères au plus)."),
    "bad_number": _l("« %(field)s » : il faut un nombre entier de %(low)s à %(high)s."),
    "bad_code": _l("Code de table faux : recopiez le code imprimé sur la feuille de cette partie."),
    "too_many_attempts": _l("Trop d'essais : réessayez dans %(retry_after)s secondes."),
    "unknown_team": _l("Équipe inconnue."),
    "unknown_event": _l("Action inconnue."),
    "no_tournament": _l("Le tournoi n'est pas installé sur ce serveur."),
    "no_day": _l("Aucune journée de tournoi : créez-en une d'abord."),
    "not_started": _l("Le tournoi n'a pas commencé."),
    "already_started": _l("Le tournoi a déjà commencé."),
    "registration_closed": _l("Inscriptions closes : une équipe absente au début d'une partie est en défaut."),
    "too_few_teams": _l("Il faut au moins %(minimum)s équipes présentes pour commencer."),
    "too_many_teams": _l("Pas plus de %(maximum)s équipes."),
    "duplicate_team": _l("Une équipe porte déjà ce nom : %(name)s."),
    "day_over": _l("Toutes les parties de la journée sont jouées."),
    "table_closed": _l("La feuille de la table %(table)s est close (temps écoulé)."),
    "hand_out_of_order": _l("Table %(table)s : saisissez d'abord la main %(expected)s."),
    "tables_not_done": _l("Parties pas terminées aux tables : %(tables)s."),
    "already_defaulted": _l("Cette équipe est déjà hors classement."),
    "playoff_too_early": _l("Les barrages se jouent après la dernière partie."),
    "not_tied": _l("Ces deux équipes ne sont pas à égalité : pas de barrage entre elles."),
    "too_large": _l("Requête trop volumineuse."),
}

# The words the tournament's page scripts show (``say("key")`` in tournoi*.js).
JS_WORDS = {
    "game": _l("Partie %(n)s sur %(total)s"),
    "session": _l("Séance %(n)s"),
    "table": _l("Table %(n)s"),
    "hand": _l("Main %(n)s"),
    "save_hand": _l("Enregistrer la main %(n)s"),
    "fix_hand": _l("Corriger la main %(n)s"),
    "saved": _l("Main %(n)s enregistrée"),
    "done": _l("Partie terminée à cette table"),
    "waiting_tables": _l("En attente des tables : %(tables)s"),
    "all_done": _l("Toutes les tables ont fini : la table de marque lance la partie suivante"),
    "confirm_close": _l("Le temps est écoulé : terminer la partie à cette table ?"),
    "confirm_next": _l("Enregistrer la partie et calculer les déplacements ?"),
    "confirm_default": _l("Mettre l'équipe %(name)s en défaut ? Elle sort du classement."),
    "confirm_new_day": _l("Commencer une nouvelle journée ? L'actuelle sera fermée."),
    "ns": _l("Nord–Sud"), "ew": _l("Est–Ouest"),
    "total": _l("Total"),
    "place": _l("Rang"), "team": _l("Équipe"), "players": _l("Joueurs"), "ranking": _l("Points"),
    "game_points": _l("Pts de jeu"),
    "tied": _l("égalité : barrage"),
    "playoff_wins": _l("barrages gagnés : %(n)s"),
    "absent": _l("absente"), "default": _l("en défaut"),
    "out": _l("Hors classement"),
    "arrived": _l("Présente"), "not_arrived": _l("Pas arrivée"),
    "arrive": _l("Arrivée"), "mark_absent": _l("Absente"),
    "make_default": _l("Défaut"),
    "enter": _l("Saisir"),
    "close": _l("Temps écoulé"), "reopen": _l("Rouvrir"),
    "code": _l("Code"),
    "no_day": _l("Aucune journée de tournoi."),
    "registration": _l("Inscriptions ouvertes"),
    "finished": _l("Journée terminée : classement final"),
    "playoffs": _l("Barrages à jouer pour les médailles"),
    "seating": _l("Placement — partie %(n)s"),
    "vs": _l("contre"),
    "floater": _l("Équipe de réserve (hors classement)"),
    "error": _l("Erreur"),
    "network": _l("Serveur injoignable : réessayez"),
    "minus": _l("Changer le signe"),
    "hands_done": _l("%(n)s main(s) sur 8"),
    "sheet_closed": _l("Feuille close"),
    "bad_code": _l("Code de table faux : recopiez le code imprimé sur la feuille de cette partie."),
    "new_game": _l("Nouvelle partie : entrez le code imprimé sur la nouvelle feuille."),
}


def _words() -> dict[str, str]:
    return {key: str(value) for key, value in JS_WORDS.items()}


def _message(code: str, detail: dict) -> str:
    template = MESSAGES.get(code)
    if template is None:
        return str(MESSAGES["bad_field"]).split("«")[0].strip() + f" ({code})"
    values = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in detail.items()}
    try:
        return str(template) % values if "%(" in str(template) else str(template)
    except (KeyError, TypeError, ValueError):
        return str(template).split("%(")[0].rstrip(" :«")


def _refusal(code: str, detail: dict | None = None, status: int | None = None) -> ResponseReturnValue:
    detail = dict(detail or {})
    body = {"error": code, "message": _message(code, detail)}
    body.update({k: v for k, v in detail.items() if isinstance(v, (str, int, float, bool, list)) and k not in body})
    resp = jsonify(body)
    if code == "too_many_attempts":
        resp.headers["Retry-After"] = str(detail.get("retry_after", 60))
    return resp, status or STATUS.get(code, 409)


@bp.errorhandler(TournamentError)
def _tournament_error(exc: TournamentError) -> ResponseReturnValue:
    return _refusal(exc.code, exc.detail)


def _store() -> TournamentStore:
    store = current_app.extensions.get("loto_tournament")
    if store is None:
        raise TournamentError("no_tournament")
    return store


def _codes() -> CodeGuard:
    guard = current_app.extensions.get("loto_tournament_codes")
    if guard is None:
        guard = CodeGuard(current_app.config["SECRET_KEY"], A.auth().guard.unlocks)
        current_app.extensions["loto_tournament_codes"] = guard
    return guard


def _body() -> dict[str, Any]:
    """The request's JSON object, read the one way every API body is (bounded, strict, depth-checked)."""
    return body()


def _is_desk() -> bool:
    """Whether the caller signed in as desk or admin (raises for a bad token or a missing CSRF token)."""
    role = A.request_role()
    return role in ("desk", "admin")


def _desk() -> None:
    A.require_right(DESK_RIGHT)


def _desk_or_captain(table: int) -> str:
    """Return who writes on table ``table``'s sheet: ``desk``, or ``table`` for the holder of its code."""
    if request.headers.get("Authorization") or session.get("role"):
        if _is_desk():
            return "desk"
    code = request.headers.get("X-Table-Code", "")
    day, guard, address = _store().day, _codes(), request.remote_addr or "?"
    game = game_key(day)
    if not guard.holds_pass(request.headers.get("X-Table-Pass", ""), game, table):
        wait = guard.wait(address, game, table)
        if wait:
            raise TournamentError("too_many_attempts", retry_after=wait)
    if not check_code(day, table, code):
        guard.failed(address, game, table)      # a right code clears nothing: failures only age out
        raise TournamentError("bad_code", table=table)
    sheet_pass = guard.make_pass(game, table)

    @after_this_request
    def give_pass(resp):
        resp.headers["X-Table-Pass"] = sheet_pass      # this phone is held by no count for this sheet
        return resp

    return "table"


def _public(day: Day) -> dict[str, Any]:
    return summary(day)


def _with_codes(day: Day) -> dict[str, Any]:
    data = summary(day)
    for table in data.get("tables", []):
        table["code"] = table_code(day, table["table"])
    return data


# --- API ------------------------------------------------------------------------------------------------

@bp.get("/api/tournoi")
def state() -> ResponseReturnValue:
    """The public picture: phase, current game, tables with their sheets, live standings (no codes)."""
    return jsonify(_public(_store().day))


@bp.get("/api/tournoi/desk")
def desk_state() -> ResponseReturnValue:
    """The desk's picture: the public one plus each table's code for the current game."""
    _desk()
    return jsonify(_with_codes(_store().day))


@bp.get("/api/tournoi/tables/<int:table>")
def table_state(table: int) -> ResponseReturnValue:
    """One table's sheet for its captain (the code is checked, so the page can say when it is wrong)."""
    _desk_or_captain(table)
    day = _store().day
    data = _public(day)
    found = next((t for t in data.get("tables", []) if t["table"] == table), None)
    if found is None:
        if day.tournament is None:
            raise TournamentError("not_started")
        if day.tournament.finished:
            raise TournamentError("day_over")
        raise TournamentError("bad_number", field="table", low=1, high=len(data["tables"]))
    return jsonify({"phase": data["phase"], "game": data["game"], "games": data["games"],
                    "session": data["session"], "table": found, "events": data["events"]})


def _submit(kind: str, data: dict[str, Any]) -> ResponseReturnValue:
    day = _store().submit(kind, data)
    return jsonify(_public(day))


@bp.post("/api/tournoi/day")
def new_day() -> ResponseReturnValue:
    """Open a new day: ``{title, games_per_session, sessions}`` (the seed's 2 × 6 games by default)."""
    _desk()
    data = _body()
    store = _store()
    store.new_day(str(data.get("title") or ""), data.get("games_per_session"), data.get("sessions"))
    return jsonify(_public(store.day))


@bp.post("/api/tournoi/teams")
def register() -> ResponseReturnValue:
    """Register a team: ``{name, players: [a, b], arrived}`` (``arrived: false`` for a pre-registered team)."""
    _desk()
    data = _body()
    return _submit("register", {"name": data.get("name"), "players": data.get("players"),
                                "arrived": data.get("arrived", True)})


@bp.post("/api/tournoi/teams/<team>/<action>")
def team_action(team: str, action: str) -> ResponseReturnValue:
    """A team checks in (``arrive``), is marked ``absent``, or ``default``s during the day."""
    _desk()
    _body()
    if action not in ("arrive", "absent", "default"):
        raise TournamentError("unknown_event", kind=action[:20])
    return _submit(action, {"team": team})


@bp.post("/api/tournoi/floater")
def floater() -> ResponseReturnValue:
    """Name the organisers' spare team: ``{players: [a, b]}``."""
    _desk()
    return _submit("floater", {"players": _body().get("players")})


@bp.post("/api/tournoi/start")
def start() -> ResponseReturnValue:
    """Close registration and seat the first game."""
    _desk()
    _body()
    return _submit("start", {})


@bp.post("/api/tournoi/tables/<int:table>/hands")
def hand(table: int) -> ResponseReturnValue:
    """Enter (or correct) one hand: ``{hand, ns, ew}``, by the desk or the table's captain (``X-Table-Code``)."""
    _desk_or_captain(table)
    data = _body()
    return _submit("hand", {"table": table, "hand": data.get("hand"), "ns": data.get("ns"), "ew": data.get("ew")})


@bp.post("/api/tournoi/tables/<int:table>/close")
def close(table: int) -> ResponseReturnValue:
    """Time is called at this table (E21): its game ends on the hands entered."""
    _desk_or_captain(table)
    _body()
    return _submit("close", {"table": table})


@bp.post("/api/tournoi/tables/<int:table>/reopen")
def reopen(table: int) -> ResponseReturnValue:
    """The desk reopens a sheet closed by mistake."""
    _desk()
    _body()
    return _submit("reopen", {"table": table})


@bp.post("/api/tournoi/next")
def next_game() -> ResponseReturnValue:
    """Every table is done: record the game, compute the movement (E22) and seat the next one."""
    _desk()
    _body()
    return _submit("next", {})


@bp.post("/api/tournoi/playoffs")
def playoff() -> ResponseReturnValue:
    """Record a 4-hand playoff between two tied teams (E24): ``{winner, loser}``."""
    _desk()
    data = _body()
    return _submit("playoff", {"winner": data.get("winner"), "loser": data.get("loser")})


# --- documents ------------------------------------------------------------------------------------------

def _maker(name: str) -> Callable[..., None]:
    maker = current_app.extensions.get("loto_documents", {}).get(name)
    if maker is None:
        raise ApiError("not_found")
    return maker


def _download(data: bytes | str, mimetype: str, filename: str) -> ResponseReturnValue:
    return current_app.response_class(data, mimetype=mimetype,
                                       headers={"Content-Disposition": f"attachment; filename={filename}"})


def _hall_name() -> str:
    hall = current_app.extensions.get("loto_hall")
    return hall.config.hall.name if hall is not None else ""


@bp.get("/api/tournoi/sheets.pdf")
def sheets_pdf() -> ResponseReturnValue:
    """The current game's table assignments and one score sheet per table, with its code and QR code."""
    _desk()
    day = _store().day
    data = _with_codes(day)
    if not data.get("tables"):
        raise TournamentError("not_started" if day.tournament is None else "day_over")
    out = io.BytesIO()
    _maker("tournament_sheets_pdf")(data, out, base_url=request.host_url.rstrip("/"), hall_name=_hall_name(),
                                    words=_pdf_words())
    return _download(out.getvalue(), "application/pdf", f"tournoi-partie-{data['game']}.pdf")


@bp.get("/api/tournoi/standings.pdf")
def standings_pdf() -> ResponseReturnValue:
    """The standings (final once the day is over), printable."""
    _desk()
    data = _public(_store().day)
    if data["phase"] in ("none", "registration"):
        raise TournamentError("not_started")
    out = io.BytesIO()
    _maker("tournament_standings_pdf")(data, out, hall_name=_hall_name(), words=_pdf_words())
    return _download(out.getvalue(), "application/pdf", "tournoi-classement.pdf")


def safe_cell(value: Any) -> Any:
    """Return a CSV cell a spreadsheet will not run: text starting with = + - @ (or tab/CR) gets a leading '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@bp.get("/api/tournoi/standings.csv")
def standings_csv() -> ResponseReturnValue:
    """The standings as CSV (formula-safe), the teams out of the standings after them."""
    _desk()
    data = _public(_store().day)
    if data["phase"] in ("none", "registration"):
        raise TournamentError("not_started")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_("Rang"), _("Équipe"), _("Nom"), _("Joueur 1"), _("Joueur 2"), _("Points de classement"),
                     _("Points de jeu"), _("Barrages gagnés"), _("Note")])
    for row in data["standings"]:
        note = _("égalité : barrage") if row["playoff_needed"] else ""
        writer.writerow([safe_cell(v) for v in (row["place"], row["team"], row["name"], row["players"][0],
                                                row["players"][1], row["ranking"], row["game_points"],
                                                row["playoff_wins"], note)])
    for row in data["out"]:
        writer.writerow([safe_cell(v) for v in ("", row["team"], row["name"], "", "", "", "", "",
                                                _("absente") if row["why"] == "absent" else _("en défaut"))])
    return _download("\ufeff" + out.getvalue(), "text/csv; charset=utf-8", "tournoi-classement.csv")


def _pdf_words() -> dict[str, str]:
    """The sentences printed on the PDFs, in the request's language."""
    return {
        "sheet_title": _("Feuille de pointage"), "assign_title": _("Placement des tables"),
        "standings_title": _("Classement"), "final_title": _("Classement final"),
        "game": _("Partie %(n)s sur %(total)s"), "session": _("Séance %(n)s"), "table": _("Table %(n)s"),
        "hand": _("Main"), "ns": _("Nord–Sud"), "ew": _("Est–Ouest"), "initials": _("Initiales"),
        "total": _("Total"), "code": _("Code de la table"),
        "scan": _("Capitaine : scannez le code QR pour saisir les mains sur votre téléphone, "
                  "ou rendez cette feuille à la table de marque."),
        "dealer": _("Chaque joueur donne deux fois ; 20 minutes par partie ; au signal, la main en cours est finie."),
        "place": _("Rang"), "team": _("Équipe"), "players": _("Joueurs"), "ranking": _("Points"),
        "game_points": _("Points de jeu"), "note": _("Note"), "tied": _("égalité : barrage"),
        "playoff_wins": _("barrages gagnés : %(n)s"), "out": _("Hors classement"),
        "absent": _("absente"), "default": _("en défaut"), "north": _("Nord"), "east": _("Est"),
        "south": _("Sud"), "west": _("Ouest"), "floater": _("réserve"),
        "rules": _("2 points par partie gagnée, 1 en cas d'égalité, 0 perdue ; départage : points de jeu, "
                   "puis barrage en 4 mains."),
    }


# --- pages ----------------------------------------------------------------------------------------------

def _page(template: str, page: str, desk_only: bool, **extra) -> ResponseReturnValue:
    role = A.auth().role_for_cookie() if session.get("role") else None   # a revoked session shows the login
    logged = not desk_only or role in ("desk", "admin")
    boot = {"page": page, "lang": str(get_locale()), "strings": {}, "words": _words(),
            "role": role if logged else None, "csrf": csrf_token() if role else None,
            "hand_min": HAND_MIN, "hand_max": HAND_MAX, "hands": HANDS_PER_GAME, **extra}
    return render_template(template if logged else "tournoi_login.html", boot=boot, page=page, T=_,
                           hall_name=_hall_name(), role=role)


@bp.get("/tournoi")
def desk_page() -> ResponseReturnValue:
    return _page("tournoi.html", "tournoi", True)


@bp.get("/tournoi/classement")
def projector_page() -> ResponseReturnValue:
    return _page("tournoi_classement.html", "tournoi_classement", False)


@bp.get("/tournoi/table/<int:table>")
def table_page(table: int) -> ResponseReturnValue:
    return _page("tournoi_table.html", "tournoi_table", False, table=table)
