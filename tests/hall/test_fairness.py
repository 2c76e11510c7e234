"""The fairness count: the e-process of each number against a brute-force likelihood ratio, its expectation 1 under
a fair draw (by enumeration), an honest machine rarely named over a season read after every evening, a missing
ball named within about ten parties, a biased draw flagged, a fair one not, too few balls to judge; and the one-look
chi-square's p-value against a brute-force integration."""

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


def ratio_by_hand(draws: list[int], number: int, theta: float) -> float:
    """The likelihood ratio of « ``number`` weighs ``theta``, the others 1 » against « all alike » for one partie,
    ball by ball from the definition (the oracle: no table, no logarithm)."""
    left = set(range(1, 91))
    ratio = 1.0
    for ball in draws:
        weights = {m: (theta if m == number else 1.0) for m in left}
        total = sum(weights.values())
        q = weights[ball] / total if total > 0 else 1.0  # only the number left, weighing nothing: it comes out
        ratio *= q * len(left)
        left.remove(ball)
    return ratio


parties = st.lists(st.permutations(range(1, 91)).flatmap(lambda p: st.integers(1, 90).map(lambda k: p[:k])), max_size=4)


@settings(max_examples=60, deadline=None)
@given(parties, st.integers(1, 90))
def test_each_numbers_evidence_is_the_product_of_its_balls_likelihood_ratios(drawn, number):
    found = fairness.evidence(drawn)
    for g, theta in enumerate(fairness.THETAS):
        expected = math.prod(ratio_by_hand(list(d), number, theta) for d in drawn)
        got = math.exp(found.logs[number][g])
        assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-300), (theta, got, expected)


def test_under_a_fair_draw_every_ratio_expects_one_on_each_ball():
    """Enumerated: every first ball, then every first two balls: the mean of each number's ratio under each θ is 1,
    so the evidence is a test martingale and Ville's inequality holds however often it is read."""
    for size in (1, 2):
        partie_list = (
            [[a] for a in range(1, 91)] if size == 1 else [[a, b] for a in range(1, 91) for b in range(1, 91) if a != b]
        )
        sums = [[0.0] * len(fairness.THETAS) for _ in range(91)]
        for draws in partie_list:
            found = fairness.evidence([draws])
            for n in range(1, 91):
                for g in range(len(fairness.THETAS)):
                    sums[n][g] += math.exp(found.logs[n][g])
        for n in range(1, 91):
            for g in range(len(fairness.THETAS)):
                assert math.isclose(sums[n][g] / len(partie_list), 1.0, rel_tol=1e-9)


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
    return fairness.check(drawn)


def test_an_honest_machine_read_after_every_evening_is_rarely_named_over_a_season():
    """40 seasons of 25 evenings of 12 parties (sizes as a real partie's, 50–66 balls), read after each evening:
    the one-look rule names 13 of these 40 seasons; the hall's check names at most 5 % of them (Ville: ≤ 5 %)."""
    rng = random.Random(26)
    named = 0
    for _ in range(40):
        found, drawn, flagged = fairness.Evidence(), [], False
        for _ in range(25):
            for _ in range(12):
                balls = rng.sample(range(1, 91), rng.randint(50, 66))
                drawn.append(balls)
                found.add(balls)
            flagged = flagged or fairness.check(drawn, found).verdict == "stands_out"
        named += flagged
    assert named <= 2


def test_a_machine_that_never_draws_90_is_named_within_a_dozen_parties():
    for seed in range(5):
        rng = random.Random(seed)
        found, drawn = fairness.Evidence(), []
        while 90 not in [s.number for s in fairness.check(drawn, found).standouts]:
            balls = rng.sample(range(1, 90), rng.randint(50, 66))
            drawn.append(balls)
            found.add(balls)
            assert len(drawn) <= 12, f"seed {seed}: 90 still not named after 12 parties"
        check = fairness.check(drawn, found)
        assert check.verdict == "stands_out" and check.standouts[0].number == 90 and check.standouts[0].count == 0


def test_a_fair_draw_shows_nothing_abnormal():
    check = _evening(2026, {})
    assert check.verdict == "fair" and check.standouts == () and check.p_value > 0.05
    assert 0 < check.e_value < 20 and check.chi2_p_value > 0.01


def test_a_ball_drawn_twice_as_often_stands_out_with_strong_evidence():
    check = _evening(2026, {42: 2.0})
    assert check.verdict == "stands_out" and check.strength in ("strong", "very_strong")
    assert [s.number for s in check.standouts][:1] == [42]
    assert check.standouts[0].count > check.standouts[0].expected
    assert check.e_value >= 20 and check.p_value <= 0.05


def test_a_ball_that_never_comes_out_stands_out_too():
    check = _evening(7, {13: 0.0})
    assert 13 in [s.number for s in check.standouts]


def test_too_few_balls_to_judge():
    drawn = [list(range(1, 40))]
    assert fairness.check(drawn).verdict == "too_few"


def test_numbers_out_of_range_or_drawn_twice_are_no_draw():
    assert fairness.evidence([[0, 91, 5, 5, 6]]).logs == fairness.evidence([[5, 6]]).logs
    assert fairness.evidence([[]]).parties == 0
