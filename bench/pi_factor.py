"""How much slower a Raspberry Pi 4 core runs pure Python than this machine: an n-body calibration.

Run from the repository root:  python bench/pi_factor.py [--steps 250000]

The yardstick is a published figure: the pure-Python n-body simulation (the Computer Language Benchmarks Game
program: the Sun and the four giant planets, ``dt = 0.01``), 5 000 000 steps, took **158.3 s** on a Raspberry Pi 4
Model B (Cortex-A72, 1.5 GHz, performance governor, no throttling), C 1.74 s
(https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages). The same algorithm,
written here in the same plain style (lists of floats, a loop over the ten pairs), runs ``--steps`` steps on this
machine, timed in CPU time (the machine is shared); the ratio of the two times per step is the Pi factor, to
apply to CPU times measured here. Its limits, and why a safety factor is applied on
top: that page does not say which Python it ran (likely 3.7 on Raspberry Pi OS of 2020; 3.11 is faster, which
makes the factor pessimistic: on the side of caution) nor which of the program's variants (they differ by tens of
per cent); a Pi 4 is also sold at 1.8 GHz (faster than the figure); the Pi runs the web server and the loto hall
next to the solver; and n-body is float arithmetic where the solver is integer and dict work.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PI4_SECONDS = 158.263  # performance governor, 5 000 000 steps, Raspberry Pi 4 Model B at 1.5 GHz
PI4_STEPS = 5_000_000
SAFETY = 2.0  # on top of the measured factor: unknown Python and variant, the hall's other work on the Pi
SOURCE = "https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages"

SOLAR_MASS = 4 * 3.14159265358979323**2
DAYS_PER_YEAR = 365.24
_PLANETS = (  # position (AU), velocity (AU/day), mass (solar masses): Jupiter, Saturn, Uranus, Neptune
    (
        (4.84143144246472090e00, -1.16032004402742839e00, -1.03622044471123109e-01),
        (1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05),
        9.54791938424326609e-04,
    ),
    (
        (8.34336671824457987e00, 4.12479856412430479e00, -4.03523417114321381e-01),
        (-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05),
        2.85885980666130812e-04,
    ),
    (
        (1.28943695621391310e01, -1.51111514016986312e01, -2.23307578892655734e-01),
        (2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05),
        4.36624404335156298e-05,
    ),
    (
        (1.53796971148509165e01, -2.59193146099879641e01, 1.79258772950371181e-01),
        (2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05),
        5.15138902046611451e-05,
    ),
)


def _system() -> list[tuple[list[float], list[float], float]]:
    """The Sun and the four planets, the Sun's momentum set so that the whole system is at rest."""
    bodies = [([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS)]
    bodies += [(list(p), [v * DAYS_PER_YEAR for v in vel], m * SOLAR_MASS) for p, vel, m in _PLANETS]
    px = py = pz = 0.0
    for _, (vx, vy, vz), m in bodies:
        px, py, pz = px + vx * m, py + vy * m, pz + vz * m
    sun_v = bodies[0][1]
    sun_v[0], sun_v[1], sun_v[2] = -px / SOLAR_MASS, -py / SOLAR_MASS, -pz / SOLAR_MASS
    return bodies


def energy(bodies: list[tuple[list[float], list[float], float]]) -> float:
    """The system's total energy (kinetic minus potential)."""
    e = 0.0
    for (x, y, z), (vx, vy, vz), m in bodies:
        e += 0.5 * m * (vx * vx + vy * vy + vz * vz)
    for ((x1, y1, z1), _, m1), ((x2, y2, z2), _, m2) in combinations(bodies, 2):
        e -= m1 * m2 / ((x1 - x2) ** 2 + (y1 - y2) ** 2 + (z1 - z2) ** 2) ** 0.5
    return e


def advance(bodies: list[tuple[list[float], list[float], float]], steps: int, dt: float = 0.01) -> None:
    """Move the system ``steps`` steps of ``dt`` days (the benchmark's loop, in its plain pure-Python form)."""
    pairs = list(combinations(bodies, 2))
    for _ in range(steps):
        for ((x1, y1, z1), v1, m1), ((x2, y2, z2), v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            b1, b2 = m1 * mag, m2 * mag
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for r, (vx, vy, vz), _ in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz


def measure(steps: int = 250_000) -> dict:
    """Time ``steps`` n-body steps here in CPU time (best of 3: the machine is shared, and waiting for a core is
    not this core's speed), checked against the program's known energies."""
    check = _system()
    start = energy(check)
    advance(check, 1000)
    if f"{start:.9f}" != "-0.169075164" or f"{energy(check):.9f}" != "-0.169087605":
        raise RuntimeError("n-body: wrong energies, the calibration program is broken")
    best = float("inf")
    for _ in range(3):
        bodies = _system()
        started = time.thread_time()
        advance(bodies, steps)
        best = min(best, time.thread_time() - started)
    here_us = 1e6 * best / steps
    pi_us = 1e6 * PI4_SECONDS / PI4_STEPS
    return {
        "steps": steps,
        "here_us_per_step": here_us,
        "pi4_us_per_step": pi_us,
        "factor": pi_us / here_us,
        "safety": SAFETY,
        "source": SOURCE,
        "loadavg": list(os.getloadavg()),
    }


def judge(figures_ms: dict[str, float], steps: int = 250_000) -> dict:
    """The judged Raspberry Pi 4 time of each of ``figures_ms`` (label → ms measured here)."""
    m = measure(steps)
    scale = m["factor"] * m["safety"]
    m["scale"] = scale
    m["judged_pi4_ms"] = {label: ms * scale for label, ms in figures_ms.items()}
    m["text"] = (
        f"Pi factor: n-body {m['here_us_per_step']:.2f} µs/step here vs {m['pi4_us_per_step']:.2f} µs/step "
        f"on a Pi 4 at 1.5 GHz ({SOURCE}) → ×{m['factor']:.1f}, times a safety factor of {SAFETY:g} "
        f"= ×{scale:.1f}; judged on a Pi 4 (CPU times here × {scale:.1f}, unless marked wall clock): "
        + ", ".join(f"{label} {ms:.0f} ms" for label, ms in m["judged_pi4_ms"].items())
        + f" (budget 1 000 ms); load average during the calibration "
        f"{' '.join(f'{v:.2f}' for v in m['loadavg'])}"
    )
    return m


def main() -> None:
    """Print the measured factor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=250_000)
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    m = measure(args.steps)
    print(
        f"n-body, {m['steps']} steps: {m['here_us_per_step']:.2f} µs/step here, {m['pi4_us_per_step']:.2f} µs/step "
        f"on a Raspberry Pi 4 at 1.5 GHz ({m['source']}): a Pi 4 core is ×{m['factor']:.1f} slower; safety factor "
        f"{m['safety']:g} on top; load average {' '.join(f'{v:.2f}' for v in m['loadavg'])}"
    )


if __name__ == "__main__":
    main()
