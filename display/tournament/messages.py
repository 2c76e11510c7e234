"""The tournament's words: its refusals (status and sentence), the words its page scripts show, in the
``tournoi`` translation domain (French in the source, English in ``translations/en/LC_MESSAGES/tournoi.po``).
"""
from __future__ import annotations

from pathlib import Path

from flask import jsonify
from flask.typing import ResponseReturnValue
from flask_babel import Domain

from hall.minigames.osga.tournament import TournamentError

DOMAIN = Domain(str(Path(__file__).resolve().parent.parent / "translations"), domain="tournoi")
_ = DOMAIN.gettext
_l = DOMAIN.lazy_gettext

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
    "arrive": _l("Marquer arrivée"), "mark_absent": _l("Marquer absente"),
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
    # issue 26: the desk's questions in the page (never the browser's prompt() or confirm()), the sides named
    "ask_yes": _l("Oui"), "ask_no": _l("Non"), "ask_ok": _l("OK"),
    "new_day": _l("Nouvelle journée de tournoi"),
    "new_day_closes": _l("La journée en cours sera fermée : son classement reste dans les documents."),
    "day_title": _l("Nom de la journée (imprimé sur les feuilles et le classement)"),
    "day_default": _l("Tournoi OSGA du %(date)s"),
    "new_day_open": _l("Ouvrir la journée"),
    "score_sides": _l("N–S %(ns)s · E–O %(ew)s"),
}


def words() -> dict[str, str]:
    """The words of the tournament's scripts, in the request's language."""
    return {key: str(value) for key, value in JS_WORDS.items()}


# the fields of a refusal as the sheet and the desk name them (a captain never reads "ns")
FIELD_NAMES = {"ns": _l("Nord–Sud"), "ew": _l("Est–Ouest"), "hand": _l("Main"), "title": _l("Nom de la journée"),
               "name": _l("Nom de l'équipe"), "players": _l("Joueurs"), "team": _l("Équipe"),
               "winner": _l("Gagnante"), "loser": _l("Perdante"), "table": _l("Table")}


def message(code: str, detail: dict) -> str:
    template = MESSAGES.get(code)
    if template is None:
        return str(MESSAGES["bad_field"]).split("«")[0].strip() + f" ({code})"
    values = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in detail.items()}
    if values.get("field") in FIELD_NAMES:
        values["field"] = str(FIELD_NAMES[values["field"]])
    try:
        return str(template) % values if "%(" in str(template) else str(template)
    except (KeyError, TypeError, ValueError):
        return str(template).split("%(")[0].rstrip(" :«")


def refusal(code: str, detail: dict | None = None, status: int | None = None) -> ResponseReturnValue:
    detail = dict(detail or {})
    body = {"error": code, "message": message(code, detail)}
    body.update({k: v for k, v in detail.items() if isinstance(v, (str, int, float, bool, list)) and k not in body})
    resp = jsonify(body)
    if code == "too_many_attempts":
        resp.headers["Retry-After"] = str(detail.get("retry_after", 60))
    return resp, status or STATUS.get(code, 409)


def tournament_error(exc: TournamentError) -> ResponseReturnValue:
    """A refusal of the day's rules or of this web, as the tournament's API answers it."""
    return refusal(exc.code, exc.detail)
