"""The euchre room's own part of the web (the package holds what every room shares).

``STRINGS`` are the sentences its phone and projector scripts (``static/js/games/euchre.js``) read through
``Room.t``; its blueprint adds the referee's endpoint (RULES E10, E11, E18, E19, E21): the speaker lists the
official's actions the rules accept now and applies one, journalled by the lobby before anyone sees it.
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from display import auth as A
from display.errors import Sentence, declare
from display.limits import json_body
from display.rooms.api import MAX_BODY_BYTES
from display.rooms.hub import hub
from hall.minigames import NO_MOVE, Referee

bp = Blueprint("rooms_euchre", __name__)

declare(
    "rooms",
    {
        "no_officials": (422, _l("Ce jeu n'a pas d'actions d'arbitre.")),
        "illegal_official": (422, _l("Cette action d'arbitre ne s'applique pas maintenant : rechargez la liste.")),
    },
)

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

STRINGS: dict[str, Sentence] = {
    "eu_partner": _l("Votre partenaire : %(name)s (en face)"),
    "eu_sitting_out": _l("Votre partenaire joue seul : vous ne jouez pas cette main."),
    "eu_hand_n": _l("Main %(n)s sur %(total)s"),
    "eu_dealer": _l("donneur"),
    "eu_contract": _l("Contrat"),
    "eu_no_contract": _l("Enchères en cours"),
    "eu_by": _l("%(name)s : %(bid)s"),
    "eu_NT": _l("sans atout"),
    "eu_LOW": _l("sans atout bas"),
    "eu_NT_short": _l("SA"),
    "eu_LOW_short": _l("SA bas"),
    "eu_call2": _l("Appel 2 cartes (12)"),
    "eu_call1": _l("Appel 1 carte (18)"),
    "eu_moon": _l("En cavalier (24)"),
    "eu_call2_short": _l("appel 2 cartes"),
    "eu_call1_short": _l("appel 1 carte"),
    "eu_moon_short": _l("en cavalier"),
    "eu_pass": _l("Passe"),
    "eu_passed": _l("passe"),
    "eu_levees": _l("Combien de levées ?"),
    "eu_denom_for": _l("%(n)s levées : choisissez l'atout"),
    "eu_stuck": _l("Tout le monde a passé : le donneur doit miser."),
    "eu_declare": _l("Votre appel l'emporte : écartez %(n)s carte(s) (touchez-les), puis nommez l'atout."),
    "eu_declare_moon": _l("En cavalier : nommez l'atout."),
    "eu_give": _l("%(name)s joue seul : donnez-lui %(n)s carte(s) (touchez-les), puis Donner."),
    "eu_give_button": _l("Donner"),
    "eu_wait_give": _l("%(name)s choisit les cartes à vous donner…"),
    "eu_wait_declare": _l("%(name)s écarte et nomme l'atout…"),
    "eu_play": _l("Jouez une carte (les cartes permises sont en clair)."),
    "eu_trick": _l("Pli en cours"),
    "eu_last_trick": _l("Dernier pli"),
    "eu_show_trick": _l("Revenir au pli en cours"),
    "eu_took": _l("%(name)s a pris le pli"),
    "eu_tricks": _l("%(n)s pli(s)"),
    "eu_team": _l("%(a)s et %(b)s"),
    "eu_points": _l("%(n)s pts"),
    "eu_trump": _l("Atout"),
    "eu_cards": _l("%(n)s cartes"),
    "eu_alone": _l("joue seul"),
    "eu_out": _l("ne joue pas"),
    "eu_time": _l("Temps écoulé : cette main est la dernière."),
    "eu_last_hand": _l("Main précédente"),
    "eu_rank_J": _l("V"),
    "eu_rank_Q": _l("D"),
    "eu_rank_K": _l("R"),
    "eu_rank_A": _l("A"),
    "eu_word_J": _l("valet"),
    "eu_word_Q": _l("dame"),
    "eu_word_K": _l("roi"),
    "eu_word_A": _l("as"),
    "eu_word_S": _l("pique"),
    "eu_word_H": _l("cœur"),
    "eu_word_D": _l("carreau"),
    "eu_word_C": _l("trèfle"),
    "eu_card_words": _l("%(rank)s de %(suit)s"),
    "eu_referee": _l("Arbitre"),
    "eu_referee_pick": _l("Action d'arbitre…"),
    "eu_referee_apply": _l("Appliquer"),
    "eu_referee_confirm": _l("Appliquer : %(label)s ?"),
    "eu_referee_none": _l("Aucune action d'arbitre possible maintenant."),
}


def _suit(denom: object) -> str:
    if denom is None:
        return _("toutes les couleurs")
    if denom == "NT":
        return _("sans atout")
    if denom == "LOW":
        return _("sans atout bas")
    return SUIT_SIGNS.get(str(denom), str(denom))


def official_label(move: list, names: tuple[str, ...]) -> str:
    """The sentence the speaker reads for an official's action (French first), naming seats and teams."""

    def team(first: int) -> str:
        return _("%(a)s et %(b)s", a=names[first], b=names[first + 2])

    reasons = {"out_of_turn": _("jeu hors tour"), "exposed_card": _("carte exposée"), "hesitation": _("hésitation")}
    kind = move[0]
    if kind == "penalty":
        return _("Pénalité −5 pour %(team)s (%(reason)s)", team=team(move[1]), reason=reasons[move[2]])
    if kind == "redeal":
        return _("Nouvelle donne par le même donneur (%(reason)s)", reason=reasons[move[1]])
    if kind == "bid_out_of_turn":
        return (
            _(
                "Enchère hors tour de %(name)s (%(suit)s) : il perd sa mise, son partenaire ne peut plus "
                "miser en %(suit)s",
                name=names[move[1]],
                suit=_suit(move[2]),
            )
            if move[2] is not None
            else _("Enchère hors tour de %(name)s : il perd sa mise", name=names[move[1]])
        )
    if kind == "insufficient_bid":
        return (
            _(
                "Enchère insuffisante de %(name)s (%(suit)s) : annulée, son partenaire ne peut plus miser en %(suit)s",
                name=names[move[1]],
                suit=_suit(move[2]),
            )
            if move[2] is not None
            else _("Enchère insuffisante de %(name)s : annulée (passe)", name=names[move[1]])
        )
    if kind == "renege":
        return _("Renonce de %(name)s : la main s'arrête et se marque", name=names[move[1]])
    if kind == "time":
        return _("Temps écoulé : cette main est la dernière.")
    return " ".join(map(str, move))


def _officials_body(referee: Referee) -> dict:
    return {
        "code": referee.code,
        "status": referee.status,
        "version": referee.version,
        "officials": [{"move": m, "label": official_label(m, referee.names)} for m in referee.moves],
    }


@bp.get("/api/games/rooms/<code>/official")
def officials(code: str):
    A.require_right("games")
    return jsonify(_officials_body(hub().lobby.referee(code)))


@bp.post("/api/games/rooms/<code>/official")
def official(code: str):
    A.require_right("games")
    data = json_body(MAX_BODY_BYTES)
    h = hub()
    return jsonify(_officials_body(h.lobby.official(code, data.get("move", NO_MOVE), data.get("version"), h.clock())))


def openapi_paths() -> dict:
    from display.openapi.parts import obj, op, path_param

    code = (path_param("code", "le code de la salle, 4 lettres", "^[A-Za-z]{4}$"),)
    answer = obj(
        code={"type": "string"},
        version={"type": "integer"},
        officials={"type": "array", "items": obj(move={"type": "array"}, label={"type": "string"})},
    )
    return {
        "/api/games/rooms/{code}/official": {
            "get": op(
                "Les actions d'arbitre permises maintenant (Bid Euchre : pénalité, nouvelle donne, renonce, "
                "temps…), avec leur libellé",
                "speaker",
                ok=answer,
                errors=("unknown_room", "no_officials"),
                params=code,
                area="rooms",
            ),
            "post": op(
                "Appliquer une action d'arbitre de la liste (journalisée avant d'être vue)",
                "speaker",
                obj(move={"type": "array"}, version={"type": "integer"}),
                ok=answer,
                errors=(
                    "unknown_room",
                    "no_officials",
                    "illegal_official",
                    "stale_version",
                    "bad_version",
                    "not_started",
                    "game_over",
                    "room_closed",
                ),
                params=code,
                area="rooms",
            ),
        }
    }
