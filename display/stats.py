"""The fairness count (INTERFACE §11): ``GET /api/stats/balls`` (no role) and the page ``/stats`` the speaker puts
on the projector during a break — how often each number came out tonight and in every archived evening, with the
uniformity check (hall/loto/fairness.py) said in plain words.

The program hands the reader of an archived evening's journal (``Services.archived_draws``,
hall/app/ball_archive.py: the web opens no durable file); without it only tonight is counted.
Bounded work per request: an archived evening never changes, so each one's journal is read once and kept; a
request reads at most ``ARCHIVES_PER_REQUEST`` not yet read (the answer says how many wait); tonight's parties
come from the hall (ninety numbers per partie at most); the whole answer is kept until the journal moves on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from flask import Blueprint, jsonify
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from display.current import hall
from display.page_words import js_strings
from display.pages import render_page
from display.services import services
from hall import (
    BALLS,
    FAIRNESS_MIN_EXPECTED,
    FairnessCheck,
    FairnessEvidence,
    archive_dir,
    ball_counts,
    fairness_check,
    fairness_evidence,
    past_evenings,
)

bp = Blueprint("stats", __name__)
ArchiveReader = Callable[[Path], tuple[tuple[int, ...], ...]]  # an archived evening's folder → its parties' balls
ARCHIVES_PER_REQUEST = 12

STRENGTH = {
    "weak": _l("faible (le hasard le fait une fois sur vingt)"),
    "strong": _l("forte"),
    "very_strong": _l("très forte"),
}
TOO_FEW = _l("Trop peu de tirages pour juger : %(draws)s boules, il en faut au moins %(needed)s.")
FAIR = _l("Rien d'anormal : sur %(draws)s boules, chaque numéro sort à peu près aussi souvent que les autres (%(p)s).")
STAND_OUT = _l("Ces numéros se distinguent : %(numbers)s. Force de la preuve : %(strength)s (%(p)s).")
UNEVEN = _l(
    "Les numéros ne sortent pas aussi régulièrement qu'un tirage au hasard, sans qu'un seul se distingue. "
    "Force de la preuve : %(strength)s (%(p)s)."
)
MEANING = _l(
    "Ce compte peut être relu après chaque soirée, toute la saison : une machine honnête n'y est signalée, "
    "une fois ou plus, que moins de 5 fois sur 100. Un numéro signalé n'est pas une preuve de triche : "
    "faites vérifier la machine et ses boules."
)
STANDOUT = _l("le %(n)s (%(count)s fois, %(expected)s attendues)")


class BallCount:
    """The archives read so far (name → its parties' balls, and their evidence), their evidence summed, and the last
    answer, per app."""

    def __init__(self) -> None:
        self.archives: dict[str, tuple[tuple[int, ...], ...]] = {}
        self.found: dict[str, FairnessEvidence] = {}
        self.summed: tuple[frozenset[str], FairnessEvidence] = (frozenset(), FairnessEvidence())
        self.answer: tuple[tuple, dict] | None = None
        self.lock = threading.Lock()

    def parties(self, data_dir: Path, read: ArchiveReader | None) -> tuple[list[tuple[int, ...]], int, int]:
        """The archived parties read (this request reads at most ``ARCHIVES_PER_REQUEST`` more), the evenings
        counted, and how many evenings wait to be read."""
        names = [e.name for e in past_evenings(data_dir)] if read is not None else []
        todo = [n for n in names if n not in self.archives]
        for name in todo[:ARCHIVES_PER_REQUEST]:
            self.archives[name] = read(archive_dir(data_dir) / name) if read is not None else ()
            self.found[name] = fairness_evidence(self.archives[name])
        done = [n for n in names if n in self.archives]
        if frozenset(done) != self.summed[0]:
            total = FairnessEvidence()
            for name in done:
                total = total.plus(self.found[name])
            self.summed = (frozenset(done), total)
        return [p for n in done for p in self.archives[n]], len(done), len(names) - len(done)

    def evidence(self, tonight: Iterable[Sequence[int]]) -> FairnessEvidence:
        """The archives' evidence (as of the last ``parties``) and tonight's: a partie adds its own, so only
        tonight's is computed again."""
        return self.summed[1].plus(fairness_evidence(tonight))


def _number(value: float) -> str:
    """« p = 0,012 », or « p < 0,001 » below what the figure can tell (never « p = < 0,001 »)."""
    text = f"p = {value:.3g}" if value >= 0.001 else "p < 0.001"
    return text.replace(".", ",") if str(get_locale() or "fr").startswith("fr") else text


def sentence(check: FairnessCheck, draws: int) -> str:
    """The check in plain words, in the reader's language."""
    if check.verdict == "too_few":
        return str(TOO_FEW) % {"draws": draws, "needed": int(FAIRNESS_MIN_EXPECTED * BALLS)}
    if check.verdict == "fair":
        return str(FAIR) % {"draws": draws, "p": _number(check.p_value)}
    strength = str(STRENGTH.get(check.strength, STRENGTH["weak"]))
    if not check.standouts:
        return str(UNEVEN) % {"strength": strength, "p": _number(check.p_value)}
    numbers = ", ".join(
        str(STANDOUT) % {"n": s.number, "count": s.count, "expected": round(s.expected)} for s in check.standouts
    )
    return str(STAND_OUT) % {"numbers": numbers, "strength": strength, "p": _number(check.p_value)}


def count_balls() -> dict:
    """The answer of ``GET /api/stats/balls``."""
    h = hall()
    data_dir = h.config.data_dir
    kept = services().ball_count
    with kept.lock:
        archived, evenings, pending = kept.parties(data_dir, services().archived_draws)
        key = (h.last_seq(), evenings, pending, str(get_locale()))
        if kept.answer is not None and kept.answer[0] == key:
            return kept.answer[1]
        tonight = [p for p in h.ball_draws() if p]
        parties = [p for p in archived if p] + tonight  # the evidence is a product over parties: any order
        counts = ball_counts(parties)
        draws = sum(counts)
        check = fairness_check(parties, kept.evidence(tonight))
        answer = {
            "counts": {str(n): counts[n] for n in range(1, BALLS + 1)},
            "evenings": evenings,
            "evenings_pending": pending,
            "parties": len(parties),
            "draws": draws,
            "check": {
                "verdict": check.verdict,
                "strength": check.strength,
                "chi2": round(check.chi2, 3),
                "df": check.df,
                "p_value": check.p_value,
                "e_value": round(check.e_value, 6),
                "chi2_p_value": check.chi2_p_value,
                "expected": round(check.expected, 3),
                "standouts": [
                    {"number": s.number, "count": s.count, "expected": round(s.expected, 3), "p_value": s.p_value}
                    for s in check.standouts
                ],
                "sentence": sentence(check, draws),
                "meaning": str(MEANING),
            },
        }
        kept.answer = (key, answer)
        return answer


@bp.get("/api/stats/balls")
def balls():
    return jsonify(count_balls())


@bp.get("/stats")
def page():
    return render_page("stats.html", "stats", js_strings(), hall_name=hall().config.hall.name)
