"""Small statistics helpers for simulations and tournaments (no I/O)."""

from __future__ import annotations

import math

__all__ = ["wilson_interval"]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (default 95%) for a proportion, as ``(low, high)`` in 0..1.

    Returns ``(0.0, 1.0)`` for zero trials.  Raises ``ValueError`` if ``successes`` is
    negative or exceeds ``trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes={successes} must be within 0..trials={trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
