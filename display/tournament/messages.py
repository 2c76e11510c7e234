"""The tournament's words: its refusals (status and sentence) and the words its page scripts show (French in
the source, English in ``translations/en/LC_MESSAGES/messages.po`` like every word of the web).
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from display.errors import declare, name_fields

# The tournament's refusals, declared once in the one catalogue (area "tournoi": its codes never meet the
# rooms' or the loto's of the same name).
declare(
    "tournoi",
    {
        "bad_field": (422, _l("Champ « %(field)s » manquant ou incorrect.")),
        "bad_name": (422, _l("Nom manquant ou trop long (%(max)s caractères au plus).")),
        "bad_number": (422, _l("« %(field)s » : il faut un nombre entier de %(low)s à %(high)s.")),
        "unknown_event": (400, _l("Action inconnue.")),
        "bad_code": (401, _l("Code de table faux : recopiez le code imprimé sur la feuille de cette partie.")),
        "unknown_team": (404, _l("Équipe inconnue.")),
        "no_tournament": (404, _l("Le tournoi n'est pas installé sur ce serveur.")),
        "too_large": (413, _l("Requête trop volumineuse.")),
        "too_many_attempts": (429, _l("Trop d'essais : réessayez dans %(retry_after)s secondes.")),
        "no_day": (409, _l("Aucune journée de tournoi : créez-en une d'abord.")),
        "not_started": (409, _l("Le tournoi n'a pas commencé.")),
        "already_started": (409, _l("Le tournoi a déjà commencé.")),
        "registration_closed": (
            409,
            _l("Inscriptions closes : une équipe absente au début d'une partie est en défaut."),
        ),
        "too_few_teams": (409, _l("Il faut au moins %(minimum)s équipes présentes pour commencer.")),
        "too_many_teams": (409, _l("Pas plus de %(maximum)s équipes.")),
        "duplicate_team": (409, _l("Une équipe porte déjà ce nom : %(name)s.")),
        "day_over": (409, _l("Toutes les parties de la journée sont jouées.")),
        "table_closed": (409, _l("La feuille de la table %(table)s est close (temps écoulé).")),
        "hand_out_of_order": (409, _l("Table %(table)s : saisissez d'abord la main %(expected)s.")),
        "tables_not_done": (409, _l("Parties pas terminées aux tables : %(tables)s.")),
        "already_defaulted": (409, _l("Cette équipe est déjà hors classement.")),
        "playoff_too_early": (409, _l("Les barrages se jouent après la dernière partie.")),
        "not_tied": (409, _l("Ces deux équipes ne sont pas à égalité : pas de barrage entre elles.")),
    },
)

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
    "ns": _l("Nord–Sud"),
    "ew": _l("Est–Ouest"),
    "total": _l("Total"),
    "place": _l("Rang"),
    "team": _l("Équipe"),
    "players": _l("Joueurs"),
    "ranking": _l("Points"),
    "game_points": _l("Pts de jeu"),
    "tied": _l("égalité : barrage"),
    "playoff_wins": _l("barrages gagnés : %(n)s"),
    "absent": _l("absente"),
    "default": _l("en défaut"),
    "out": _l("Hors classement"),
    "arrived": _l("Présente"),
    "not_arrived": _l("Pas arrivée"),
    "arrive": _l("Marquer arrivée"),
    "mark_absent": _l("Marquer absente"),
    "make_default": _l("Défaut"),
    "enter": _l("Saisir"),
    "close": _l("Temps écoulé"),
    "reopen": _l("Rouvrir"),
    "code": _l("Code"),
    "held": _l("Des essais de codes faux bloquent ses capitaines encore %(min)s min : donnez-lui un nouveau code."),
    "fresh_code": _l("Code donné par la table de marque (le code imprimé n'ouvre plus la feuille)."),
    "new_code": _l("Nouveau code"),
    "new_code_ask": _l("Donner un nouveau code à la table %(n)s ? Le code imprimé sur sa feuille ne l'ouvrira plus."),
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
    # the desk's questions in the page (never the browser's prompt() or confirm()), the sides named
    "ask_yes": _l("Oui"),
    "ask_no": _l("Non"),
    "ask_ok": _l("OK"),
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
name_fields(
    "tournoi",
    {
        "ns": _l("Nord–Sud"),
        "ew": _l("Est–Ouest"),
        "hand": _l("Main"),
        "title": _l("Nom de la journée"),
        "name": _l("Nom de l'équipe"),
        "players": _l("Joueurs"),
        "team": _l("Équipe"),
        "winner": _l("Gagnante"),
        "loser": _l("Perdante"),
        "table": _l("Table"),
    },
)
