"""The points rouges room's own part of the web (the package holds what every room shares).

``STRINGS`` are the sentences its phone and projector scripts (``static/js/games/points-rouges.js``) read
through ``Room.t``; its blueprint adds the solitaire's hint, ``GET /api/games/rooms/<code>/hint``: whether the
seat's own 8 pieces can complete its board, worked out by the exact-cover solver from what that seat sees
(its rack and the board, never the pile), on a snapshot taken from the lobby (no lock held while it searches)
and within a node budget.
"""

from __future__ import annotations

from collections import Counter

from flask import Blueprint, jsonify, request
from flask_babel import lazy_gettext as _l

from display import auth as A
from display.errors import Sentence, declare
from display.rooms.hub import hub
from hall.minigames import JOKER, bounded_cover, points_of
from hall.refusal import Rejected

bp = Blueprint("rooms_points_rouges", __name__)
HINT_NODES = 20_000  # ≈ 0.25 s on this 2-core VM when exhausted (≈ 1 s on a Pi 4 core); a real rack of 8 needs < 1 000

declare(
    "rooms",
    {
        "not_solitaire": (409, _l("L'indice n'existe qu'au solitaire.")),
        "choose_board": (409, _l("Choisissez d'abord votre figure.")),
    },
)

STRINGS: dict[str, Sentence] = {
    "pr_board": _l("Plateau %(letter)s"),
    "pr_points": _l("%(n)s points"),
    "pr_tokens": _l("%(n)s jeton(s) rouge(s)"),
    "pr_jokers": _l("%(n)s joker(s)"),
    "pr_joker": _l("Joker"),
    "pr_rack": _l("Vos pièces"),
    "pr_rotate": _l("↻ Tourner"),
    "pr_place": _l("Poser ici"),
    "pr_add": _l("Ajouter à la figure"),
    "pr_pick_piece": _l("Touchez une pièce, puis un point vert du plateau."),
    "pr_pick_spot": _l("Touchez un point vert : la pièce s'y pose."),
    "pr_no_spot": _l("Cette pièce ne se pose pas ici : tournez-la ou changez de plateau."),
    "pr_no_spot_any": _l("Cette pièce ne se pose nulle part pour l'instant."),
    "pr_compose": _l("Compléter cette figure (plusieurs pièces)"),
    "pr_compose_on": _l("Composez la figure : %(n)s pièce(s) posée(s), continuez jusqu'au dernier point."),
    "pr_compose_off": _l("Revenir à une seule pièce"),
    "pr_undo": _l("Reprendre les pièces"),
    "pr_must_finish": _l("Plus de reprise pour ce tour : terminez la figure."),
    "pr_stuck": _l("Aucune pièce ne se pose."),
    "pr_stuck_pass": _l("Aucune pièce ne se pose et la pioche est vide : passez votre tour."),
    "pr_swap": _l("Échanger une pièce"),
    "pr_swap_pick": _l("Touchez la pièce à rendre à la pioche : vous en tirez une autre."),
    "pr_give": _l("Rendre"),
    "pr_pass": _l("Passer mon tour"),
    "pr_cancel": _l("Garder mes pièces"),
    "pr_choose": _l("Choisissez votre figure (12 ou 16 points) :"),
    "pr_hint": _l("Indice"),
    "pr_hint_more": _l("Montrer une pièce"),
    "pr_swaps": _l("Échanges : %(n)s"),
    "pr_pile": _l("Pioche : %(n)s"),
    "pr_stack": _l("%(n)s plateau(x) en réserve"),
    "pr_took": _l("%(name)s remporte le plateau %(letter)s : %(n)s jetons"),
    "pr_new_board": _l("Nouveau plateau"),
    "pr_solitaire_won": _l("Figure terminée !"),
    "pr_solitaire_lost": _l("Plus d'échange possible : la figure reste incomplète."),
    "pr_star": _l("● jetons rouges · ★ jokers en main"),
    # a piece read out by where its points are (a screen reader said "S09"), the jokers counted alike
    "pr_piece_name": _l("Pièce de %(n)s points : %(where)s"),
    "pr_joker_name": _l("Joker : un seul point, il complète une figure"),
    "pr_at_0": _l("en haut à gauche"),
    "pr_at_1": _l("en haut au milieu"),
    "pr_at_2": _l("en haut à droite"),
    "pr_at_3": _l("au milieu à gauche"),
    "pr_at_4": _l("au centre"),
    "pr_at_5": _l("au milieu à droite"),
    "pr_at_6": _l("en bas à gauche"),
    "pr_at_7": _l("en bas au milieu"),
    "pr_at_8": _l("en bas à droite"),
    "pr_point_at": _l("Point ligne %(row)s, colonne %(col)s"),
    "pr_jokers_free": _l("★ %(n)s libre(s) sur %(of)s"),
}
HINT_YES = _l("Il existe une solution avec vos 8 pièces.")
HINT_NO = _l("Aucune solution avec ces pièces : échangez-en une.")
HINT_SLOW = _l("Je n'ai pas trouvé à temps : essayez de placer vous-même, ou redemandez.")
HINT_PIECE = _l("Par exemple, cette pièce va là (montrée sur le plateau).")


@bp.get("/api/games/rooms/<code>/hint")
def hint(code: str):
    """The solitaire's hint: ``{"solvable": true|false|null, "message": …}``; ``?show=1`` adds one piece of a
    solution. Computed from the seat's rack and board only, on the lobby's snapshot."""
    room, seat = hub().lobby.look(code, A.bearer_token())
    if room.game != "points-rouges" or room.table_size != 1:
        raise Rejected("rooms/not_solitaire")
    if room.status in ("over", "closed"):
        raise Rejected("rooms/game_over" if room.status == "over" else "rooms/room_closed")
    if room.status != "playing":
        raise Rejected("rooms/not_started")
    state = room.state
    if not state.boards:
        raise Rejected("rooms/choose_board")
    letter, remaining, rack = state.boards[0].letter, state.boards[0].remaining, tuple(state.racks[seat])
    counts = Counter(rack)
    jokers = counts.pop(JOKER, 0)
    solvable, cover = bounded_cover(remaining, counts, jokers, HINT_NODES)
    body: dict[str, object] = {
        "solvable": solvable,
        "board": letter,
        "message": str(HINT_YES if solvable else HINT_NO if solvable is False else HINT_SLOW),
    }
    if cover and request.args.get("show") == "1":
        sid, mask = next((row for row in cover if row[0] != JOKER), cover[0])  # a real piece rather than a joker
        body["piece"] = [sid, list(points_of(mask))]
        body["message"] = f"{body['message']} {HINT_PIECE}"
    return jsonify(body)


def openapi_paths() -> dict:
    from display.openapi.parts import obj, op, path_param, query_param

    code = (
        path_param("code", "le code de la salle, 4 lettres", "^[A-Za-z]{4}$"),
        query_param("show", {"enum": ["0", "1"]}, "1 : montrer aussi une pièce d'une solution"),
    )
    ok = obj(
        solvable={"type": ["boolean", "null"]},
        board={"type": "string"},
        message={"type": "string"},
        piece={"type": "array"},
    )
    return {
        "/api/games/rooms/{code}/hint": {
            "get": op(
                "Solitaire Points Rouges : les 8 pièces de la place complètent-elles sa figure ? (jeton de place en Bearer)",
                "seat",
                ok=ok,
                errors=(
                    "unknown_room",
                    "bad_token",
                    "not_solitaire",
                    "not_started",
                    "game_over",
                    "room_closed",
                    "choose_board",
                ),
                params=code,
                area="rooms",
            )
        }
    }
