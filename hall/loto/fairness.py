"""The fairness count: how often each number came out, and whether that is what a fair draw gives — a verdict
that stays honest however often it is read (RULES L26).

The count is read after every evening, and a one-look test read a hundred times names an honest machine sooner or
later (the chi-square below, read after each of 100 evenings, names one in 62 % of seasons). The verdict is therefore
an **e-process** (a test martingale): for each number n, the likelihood ratio of « n's weight in the machine is θ,
the others' 1 » against « every ball alike », ball by ball, mixed over a few θ (a prior). Under a fair draw each ball
is uniform among the balls still in the machine, whatever came before and whenever the partie stops, so each
ratio's expectation stays 1 at every ball, and Ville's inequality bounds the chance that it *ever* reaches 1/α by α:
a number is named when its ratio reaches 90/α (α shared among the 90 numbers, Bonferroni for e-values), the draw
called uneven when the ratios' mean reaches 1/α. Looking after every ball, every partie or every evening costs
nothing: P(an honest machine is ever named) ≤ α, for the whole life of the hall. Why this and not alpha-spending: it
needs no plan of how many looks or evenings there will be, it is exact for draws without replacement and parties
of any length (no normal or chi-square approximation, so no « too few balls » floor for its validity), and its
evidence adds up: each partie adds its logarithm, so an archived evening is read once and kept. The prior gives a
quarter of its weight to θ = 0, a ball missing from the machine (the fault that happens: a ball lost or stuck): a
machine that never draws a number is named within about ten parties; a number at half weight takes a few dozen
to a couple of hundred (median 64; bench/bench_fairness_season.py, docs/benchmarks.md).

The one-look chi-square is kept as a figure beside it. A partie draws k balls without putting any back: each
number is in it with probability k/90, never twice. Over parties of k₁, k₂… balls, number n's count Cₙ has mean
E = Σ pᵢ (pᵢ = kᵢ/90) and variance V = Σ pᵢ(1 − pᵢ); the counts' covariance is V·90/89·(I − J/90) (a uniform
k-subset), so T = Σₙ (Cₙ − E)² / (V·90/89) follows a chi-square law with 89 degrees of freedom when the draw is fair
(with single draws, kᵢ = 1, it is Pearson's); its p-value is computed here (the regularized incomplete gamma
function, no SciPy).

Pure, stdlib only: the words are the web's (display/stats.py), from the codes this module returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BALLS = 90
DF = BALLS - 1
MIN_EXPECTED = 5.0  # below 5 expected per number, and nothing named, the page says it is too soon to judge
ALPHA = 0.05  # the chance that an honest machine is ever named, over the hall's whole life
MAX_STANDOUTS = 10
# The alternatives mixed for each number: its weight θ in the machine (the others' 1), and the prior's weight of
# each. A quarter on θ = 0, a ball missing; the rest spread over a number drawn too rarely or too often.
THETAS = (0.0, 0.25, 0.5, 0.75, 1.5, 2.0, 3.0)
PRIOR = (0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125)
NAMED_AT = math.log(BALLS / ALPHA)  # a number's log e-value that names it (α shared among the 90)
UNEVEN_AT = math.log(1 / ALPHA)  # the numbers' mean log e-value that calls the draw uneven


@dataclass(frozen=True, slots=True)
class Standout:
    number: int
    count: int
    expected: float
    p_value: float  # anytime-valid, adjusted for the 90 numbers (90 / its e-value, at most 1)


@dataclass(frozen=True, slots=True)
class Check:
    """The uniformity check's verdict: ``verdict`` is ``too_few``, ``fair`` or ``stands_out``; ``strength`` of
    the evidence against a fair draw ``none``, ``weak``, ``strong`` or ``very_strong``. ``p_value`` is the
    anytime-valid one the verdict reads (1 / the mean e-value, at most 1); ``chi2`` and ``chi2_p_value`` the
    one-look chi-square, a figure only."""

    verdict: str
    strength: str
    chi2: float
    df: int
    p_value: float
    expected: float
    standouts: tuple[Standout, ...]
    e_value: float = 1.0
    chi2_p_value: float = 1.0


def _log_ratios(theta: float) -> tuple[list[float], list[float]]:
    """For one θ: ``absent[t]``, the log ratio a number gathers over a partie's first ``t`` balls when none of them
    is it, and ``drawn[j]``, when it is the ``j``-th (1-based). Before ball i, R = 91 − i balls are in the machine:
    under θ the next is the number with chance θ/(θ + R − 1), each other 1/(θ + R − 1), against 1/R for all."""
    absent, drawn = [0.0], [0.0]
    for i in range(1, BALLS + 1):
        left = BALLS + 1 - i
        if left == 1:  # the number alone in the machine: it comes out under every θ
            drawn.append(absent[-1])
            absent.append(absent[-1])
            continue
        rest = theta + left - 1
        drawn.append(absent[-1] + (math.log(theta * left / rest) if theta > 0 else -math.inf))
        absent.append(absent[-1] + math.log(left / rest))
    return absent, drawn


_TABLES = tuple(_log_ratios(theta) for theta in THETAS)
_LOG_PRIOR = tuple(math.log(w) for w in PRIOR)


def _logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values))


class Evidence:
    """Each number's log likelihood ratio under each θ, summed over the parties added: additive (a partie adds
    its own, in any order: the product of the balls' ratios), so an archived evening's is computed once."""

    __slots__ = ("logs", "parties")

    def __init__(self) -> None:
        self.logs = [[0.0] * len(THETAS) for _ in range(BALLS + 1)]  # index 0 unused
        self.parties = 0

    def add(self, draws: Sequence[int]) -> None:
        """A partie's balls in the order drawn (numbers out of 1–90, and a number again, left out: not a draw)."""
        at: dict[int, int] = {}
        for n in draws:
            if 1 <= n <= BALLS and n not in at:
                at[n] = len(at) + 1
        size = len(at)
        if not size:
            return
        self.parties += 1
        for g, (absent, drawn) in enumerate(_TABLES):
            base = absent[size]
            for n in range(1, BALLS + 1):
                j = at.get(n)
                self.logs[n][g] += drawn[j] if j is not None else base

    def plus(self, other: Evidence) -> Evidence:
        out = Evidence()
        out.parties = self.parties + other.parties
        out.logs = [[a + b for a, b in zip(x, y, strict=True)] for x, y in zip(self.logs, other.logs, strict=True)]
        return out

    def log_e(self, n: int) -> float:
        """Number ``n``'s log e-value: the prior's mixture of its ratios."""
        return _logsumexp([w + v for w, v in zip(_LOG_PRIOR, self.logs[n], strict=True)])

    def log_mean_e(self) -> float:
        """The log of the 90 numbers' mean e-value (itself an e-process: « some number is off »)."""
        return _logsumexp([self.log_e(n) for n in range(1, BALLS + 1)]) - math.log(BALLS)


def evidence(parties: Iterable[Sequence[int]]) -> Evidence:
    found = Evidence()
    for draws in parties:
        found.add(draws)
    return found


def counts(parties: Iterable[Sequence[int]]) -> list[int]:
    """Each number's count (index 1–90; index 0 unused) over ``parties``' draws."""
    out = [0] * (BALLS + 1)
    for draws in parties:
        for n in draws:
            if 1 <= n <= BALLS:
                out[n] += 1
    return out


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (x ≥ a + 1; Lentz's method)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(χ²(df) ≥ x): the chance that a fair draw looks at least this uneven."""
    if x <= 0:
        return 1.0
    a, half = df / 2.0, x / 2.0
    if half < a + 1.0:
        return max(0.0, min(1.0, 1.0 - _gamma_series(a, half)))
    return max(0.0, min(1.0, _gamma_fraction(a, half)))


def _strength(p: float) -> str:
    if p < 0.001:
        return "very_strong"
    if p < 0.01:
        return "strong"
    if p < ALPHA:
        return "weak"
    return "none"


def chi_square(number_counts: Sequence[int], party_sizes: Iterable[int]) -> tuple[float, float, float, float]:
    """The one-look chi-square of ``number_counts`` (index 1–90) drawn in parties of ``party_sizes`` balls:
    (its statistic, its p-value, each number's expected count, their variance); (0, 1, E, V) when it cannot say."""
    probs = [min(k, BALLS) / BALLS for k in party_sizes if k > 0]
    expected = sum(probs)
    variance = sum(p * (1.0 - p) for p in probs)
    if variance <= 0:
        return 0.0, 1.0, expected, variance
    chi2 = sum((number_counts[n] - expected) ** 2 for n in range(1, BALLS + 1)) / (variance * BALLS / (BALLS - 1))
    return chi2, chi2_sf(chi2, DF), expected, variance


def _exp_capped(x: float) -> float:
    return math.exp(min(x, 700.0))


def check(parties: Sequence[Sequence[int]], found: Evidence | None = None) -> Check:
    """The uniformity check of ``parties``' balls (each partie's in the order drawn); ``found``: their evidence
    when the caller keeps it (``evidence(parties)`` otherwise)."""
    found = evidence(parties) if found is None else found
    number_counts = counts(parties)
    chi2, chi2_p, expected, _ = chi_square(number_counts, [len(p) for p in parties])
    log_mean = found.log_mean_e()
    p_value = min(1.0, math.exp(-log_mean))
    named = []
    for n in range(1, BALLS + 1):
        log_e = found.log_e(n)
        if log_e >= NAMED_AT:
            named.append(Standout(n, number_counts[n], expected, min(1.0, BALLS * math.exp(-log_e))))
    named.sort(key=lambda s: (s.p_value, s.number))
    standouts = tuple(named[:MAX_STANDOUTS])
    e_value = _exp_capped(log_mean)
    if log_mean < UNEVEN_AT:
        verdict = "too_few" if expected < MIN_EXPECTED else "fair"
        return Check(verdict, "none", chi2, DF, p_value, expected, (), e_value, chi2_p)
    smallest = min([p_value] + [s.p_value for s in standouts])
    return Check("stands_out", _strength(smallest), chi2, DF, p_value, expected, standouts, e_value, chi2_p)
