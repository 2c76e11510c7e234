"""The fairness count: the chi-square p-value against a brute-force integration, a biased draw flagged, a fair one
not, and too few balls to judge."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hall.loto import fairness


def chi2_sf_by_integration(x: float, df: int, steps: int = 20_000) -> float:
    """P(χ²(df) ≥ x) by Simpson's rule on the density over [0, x] (the oracle: no special function)."""
    k = df / 2.0

    def density(t: float) -> float:
        if t <= 0:
            return 0.0 if df > 2 else (0.5 if df == 2 else math.inf)
        return math.exp((k - 1) * math.log(t) - t / 2 - k * math.log(2) - math.lgamma(k))

    h = x / steps
    total = density(0) + density(x) + sum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
    return 1.0 - total * h / 3


@settings(max_examples=40, deadline=None)
@given(df=st.integers(3, 120), ratio=st.floats(0.2, 2.5))
def test_the_p_value_agrees_with_integrating_the_density(df, ratio):
    x = df * ratio
    assert abs(fairness.chi2_sf(x, df) - chi2_sf_by_integration(x, df)) < 1e-6


def test_known_values():
    assert abs(fairness.chi2_sf(3.841458820694124, 1) - 0.05) < 1e-9
    assert abs(fairness.chi2_sf(89, 89) - 0.48006) < 1e-4
    assert fairness.chi2_sf(0, 89) == 1.0


def _partie(rng: random.Random, size: int, weights: dict[int, float]) -> list[int]:
    """A partie of ``size`` balls drawn one at a time without putting any back, ball n weighted ``weights[n]``."""
    left = list(range(1, 91))
    out = []
    for _ in range(size):
        n = rng.choices(left, [weights.get(b, 1.0) for b in left])[0]
        left.remove(n)
        out.append(n)
    return out


def _evening(seed: int, weights: dict[int, float], parties: int = 150) -> fairness.Check:
    rng = random.Random(seed)
    drawn = [_partie(rng, rng.randint(25, 60), weights) for _ in range(parties)]
    return fairness.check(fairness.counts(drawn), [len(p) for p in drawn])


def test_a_fair_draw_shows_nothing_abnormal():
    check = _evening(2026, {})
    assert check.verdict == "fair" and check.standouts == () and check.p_value > 0.05


def test_a_ball_drawn_twice_as_often_stands_out_with_strong_evidence():
    check = _evening(2026, {42: 2.0})
    assert check.verdict == "stands_out" and check.strength in ("strong", "very_strong")
    assert [s.number for s in check.standouts][:1] == [42]
    assert check.standouts[0].count > check.standouts[0].expected


def test_a_ball_that_never_comes_out_stands_out_too():
    check = _evening(7, {13: 0.0})
    assert 13 in [s.number for s in check.standouts]


def test_too_few_balls_to_judge():
    drawn = [list(range(1, 40))]
    assert fairness.check(fairness.counts(drawn), [39]).verdict == "too_few"
