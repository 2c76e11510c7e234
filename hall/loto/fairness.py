"""The fairness count: how often each number came out, and whether that is what a fair draw gives.

A partie draws k balls without putting any back: each number is in it with probability k/90, never twice. Over
parties of k₁, k₂… balls, number n's count Cₙ has mean E = Σ pᵢ (pᵢ = kᵢ/90) and variance V = Σ pᵢ(1 − pᵢ); the
counts' covariance is V·90/89·(I − J/90) (a uniform k-subset), so T = Σₙ (Cₙ − E)² / (V·90/89) follows a
chi-square law with 89 degrees of freedom when the draw is fair (with single draws, kᵢ = 1, it is Pearson's). Its
p-value is computed here (the regularized incomplete gamma function, no SciPy). A number « stands out » when its
own two-sided normal p-value, times 90 (Bonferroni: 90 numbers looked at), is under 5 %.

Pure, stdlib only: the words are the web's (display/stats.py), from the codes this module returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BALLS = 90
DF = BALLS - 1
MIN_EXPECTED = 5.0  # below 5 expected per number the chi-square law is a poor guide: too few draws to judge
STANDOUT_P = 0.05  # a number's Bonferroni-adjusted p-value under this stands out
MAX_STANDOUTS = 10


@dataclass(frozen=True, slots=True)
class Standout:
    number: int
    count: int
    expected: float
    p_value: float  # adjusted (× 90, at most 1)


@dataclass(frozen=True, slots=True)
class Check:
    """The uniformity check's verdict: ``verdict`` is ``too_few``, ``fair`` or ``stands_out``; ``strength`` of
    the evidence against a fair draw ``none``, ``weak``, ``strong`` or ``very_strong``."""

    verdict: str
    strength: str
    chi2: float
    df: int
    p_value: float
    expected: float
    standouts: tuple[Standout, ...]


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
    if p < 0.05:
        return "weak"
    return "none"


def check(number_counts: Sequence[int], party_sizes: Iterable[int]) -> Check:
    """The uniformity check of ``number_counts`` (index 1–90) drawn in parties of ``party_sizes`` balls."""
    probs = [min(k, BALLS) / BALLS for k in party_sizes if k > 0]
    expected = sum(probs)
    variance = sum(p * (1.0 - p) for p in probs)
    if expected < MIN_EXPECTED or variance <= 0:
        return Check("too_few", "none", 0.0, DF, 1.0, expected, ())
    scale = variance * BALLS / (BALLS - 1)
    chi2 = sum((number_counts[n] - expected) ** 2 for n in range(1, BALLS + 1)) / scale
    p_value = chi2_sf(chi2, DF)
    sd = math.sqrt(variance)
    found = []
    for n in range(1, BALLS + 1):
        z = (number_counts[n] - expected) / sd
        adjusted = min(1.0, BALLS * math.erfc(abs(z) / math.sqrt(2.0)))
        if adjusted < STANDOUT_P:
            found.append(Standout(n, number_counts[n], expected, adjusted))
    found.sort(key=lambda s: (s.p_value, s.number))
    standouts = tuple(found[:MAX_STANDOUTS])
    smallest = min([p_value] + [s.p_value for s in standouts])
    if not standouts and p_value >= 0.01:
        return Check("fair", "none", chi2, DF, p_value, expected, ())
    return Check("stands_out", _strength(smallest), chi2, DF, p_value, expected, standouts)
