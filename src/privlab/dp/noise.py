"""Exact, vectorized noise samplers and floating-point-safe continuous noise.

Why not ``x + rng.laplace(scale)``: Mironov ("On significance of the least significant bits
for differential privacy", CCS 2012) showed that textbook floating-point Laplace noise leaks
the input through the set of reachable doubles.  Everything here samples *integers* with
integer arithmetic only, exactly from the stated distribution, and continuous noise is built
on top of them by discretization (below).

Samplers (Canonne, Kamath & Steinke, "The discrete Gaussian for differential privacy",
NeurIPS 2020 — "CKS" below):

* :func:`bernoulli_exp` — Bernoulli(exp(−n/d)) for integers n ≥ 0, d ≥ 1 (CKS Algorithm 1):
  a run of Bernoulli(γ/K) trials, each one uniform integer compared with another.
* :func:`discrete_laplace` — the two-sided geometric distribution
  P(z) ∝ exp(−|z|/scale) for a rational scale (CKS Algorithm 2).
* :func:`discrete_gaussian` — P(z) ∝ exp(−z²/(2σ²)) for a rational σ² (CKS Algorithm 3).

All three run their rejection loops on whole numpy arrays (only the still-pending entries
are redrawn), so n samples take O(n) work in O(log n) numpy passes.  Uniform integers come
from :meth:`numpy.random.Generator.integers`, which is exactly uniform (Lemire's method).

Parameters given as floats are turned into exact fractions *on the safe side*: a scale or σ²
is rounded **up** (more noise) to a fraction whose numbers fit the int64 arithmetic, never
down; :func:`rational_at_least` says by how much (at most 2^-20 relative).

**Continuous values** (:func:`snap_laplace`, :func:`snap_gaussian`): the value is rounded to
a grid of width g = 2^k, discrete noise of the matching scale is added in grid units, and the
result is the grid point.  Rounding moves two neighbouring inputs apart by at most one grid
step per coordinate, so the sensitivity used is Δ + g·d (L1) or Δ + g·√d (L2) — the
approach of OpenDP's float mechanisms; g is chosen 2^20 times smaller than the noise scale so
the extra noise is below 1e-6 relative.  Every output is an exact multiple of g: the
floating-point attack has nothing to read.

**Generators.**  DP noise defaults to :func:`secure_generator` (PCG64DXSM seeded with 256
bits from the operating system's CSPRNG, :mod:`secrets`).  A fixed seed is for tests only;
:func:`is_insecure_seed` tells results to flag it.
"""

from __future__ import annotations

import math
import secrets
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import ConfigError

#: Relative precision to which float parameters are rounded (up, on the safe side).
PRECISION_BITS = 20

#: Largest denominator the int64 samplers accept: d·K < 2^63 for every K the loop reaches.
_MAX_DEN = 2**44
#: A denominator 2^m of a tiny scale must stay an int64 (the samplers divide by it).
_MAX_DEN_BITS = 62


# ---------------------------------------------------------------------------- generators
class _EntropyGenerator(np.random.Generator):
    """A Generator that :func:`secure_generator` seeded from the operating system's CSPRNG.

    Only :func:`secure_generator` makes them, so :func:`is_insecure_seed` can tell a secure
    generator handed from one call to the next (the CLI draws all of a command's noise from
    one) from a caller's own, reproducible one.  Copies and pickles come back as plain
    Generators and so count as insecure: the safe side.
    """


def secure_generator(seed: Any = None) -> np.random.Generator:
    """A numpy Generator for DP noise.

    ``None`` (the default) seeds PCG64DXSM with 256 bits from :func:`secrets.randbits`.  A
    Generator is returned as is; anything else (an int, a SeedSequence) seeds a reproducible
    generator — allowed for tests, flagged by :func:`is_insecure_seed`.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        entropy = np.random.SeedSequence(secrets.randbits(256))
        return _EntropyGenerator(np.random.PCG64DXSM(entropy))
    return np.random.Generator(np.random.PCG64DXSM(np.random.SeedSequence(seed)))


def is_insecure_seed(seed: Any) -> bool:
    """False only for noise from the operating system's entropy: ``seed=None``, or a generator
    made by :func:`secure_generator` from it.  Any other seed or Generator is reproducible by
    whoever knows it, hence insecure."""
    return not (seed is None or isinstance(seed, _EntropyGenerator))


# ---------------------------------------------------------------------------- rationals
def _as_fraction(x: float | Fraction | int, name: str) -> Fraction:
    if isinstance(x, Fraction):
        value = x
    else:
        try:
            fx = float(x)
        except (TypeError, ValueError):
            raise ConfigError(f"{name} = {x!r}: give a number") from None
        if not math.isfinite(fx):
            raise ConfigError(f"{name} = {x!r}: give a finite number")
        value = Fraction(x) if isinstance(x, int) else Fraction(fx)
    return value


def rational_at_least(
    x: float | Fraction | int, name: str = "scale", *, bounded: bool = True
) -> Fraction:
    """The exact rational of ``x`` if its terms are small, else the nearest larger p/2^m.

    The result r satisfies x ≤ r ≤ x·(1 + 2^-20).  With ``bounded`` its numerator and
    denominator are below 2^44, so the int64 samplers can use it; without, only the
    denominator is.  O(1).
    """
    value = _as_fraction(x, name)
    if value <= 0:
        raise ConfigError(f"{name} = {x!r}: must be > 0")
    if value.denominator < _MAX_DEN and (value.numerator < _MAX_DEN or not bounded):
        return value
    # denominator 2^m with m chosen so that value·2^m has PRECISION_BITS + 1 bits or more
    m = max(0, PRECISION_BITS + 1 - math.floor(math.log2(value)))
    if m >= _MAX_DEN_BITS:  # the int64 samplers divide by the denominator
        raise ConfigError(
            f"{name} = {float(value):g} is too small for the exact samplers (min "
            f"{2.0 ** (PRECISION_BITS + 2 - _MAX_DEN_BITS):g}): ε is so large that the noise "
            "vanishes; use a smaller ε (typical values: 0.1 to 2)"
        )
    num = math.ceil(value * 2**m)
    if bounded and num >= _MAX_DEN:
        raise ConfigError(f"{name} = {x!r} is too large for the exact samplers (max 2^43)")
    return Fraction(num, 2**m)


def rational_at_most(x: float | Fraction | int, name: str = "epsilon") -> Fraction:
    """Like :func:`rational_at_least` but rounded down (for ε: less ε is more privacy)."""
    value = _as_fraction(x, name)
    if value <= 0:
        raise ConfigError(f"{name} = {x!r}: must be > 0")
    if value.denominator < _MAX_DEN and value.numerator < _MAX_DEN:
        return value
    m = max(0, PRECISION_BITS + 1 - math.floor(math.log2(value)))
    num = math.floor(value * 2**m)
    return Fraction(num, 2**m)


# ---------------------------------------------------------------------------- Bernoulli
def _int_array(x: np.ndarray | int) -> np.ndarray:
    """int64 when every value fits the fast path, else an object array of Python ints."""
    arr = np.asarray(x)
    if arr.dtype == object:
        if arr.size == 0 or max(abs(int(v)) for v in arr.ravel()) < _MAX_DEN:
            return arr.astype(np.int64)
        return arr
    return arr.astype(np.int64)


def _below(bounds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniform integer in [0, b) per bound b ≥ 1 (exact; any size of Python int).

    int64 bounds go straight to numpy's exact bounded sampler; object bounds are built from
    62-bit words and rejected when ≥ b (expected < 2 rounds).
    """
    if bounds.dtype != object:
        return rng.integers(0, bounds)
    lengths = np.frompyfunc(int.bit_length, 1, 1)(bounds).astype(np.int64)
    words = int((lengths.max() + 61) // 62)
    out = np.empty(bounds.shape, dtype=object)
    pending = np.arange(bounds.size)
    while pending.size:
        value = np.zeros(pending.size, dtype=np.int64).astype(object)
        for _ in range(words):
            value = value * (1 << 62) + rng.integers(0, 1 << 62, size=pending.size).astype(object)
        value = value >> (words * 62 - lengths[pending]).astype(object)
        ok = np.asarray(value < bounds[pending], dtype=bool)
        out[pending[ok]] = value[ok]
        pending = pending[~ok]
    return out


def _bernoulli_exp_le1(n: np.ndarray, d: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Bernoulli(exp(−n/d)) for 0 ≤ n ≤ d, 1-D arrays (CKS Algorithm 1, vectorized).

    K ← 1; while Bernoulli(γ/K): K ← K + 1; return K odd.  Each trial compares one uniform
    integer in [0, d·K) with n.  Expected trials per entry ≤ e.
    """
    k = np.ones(n.shape, dtype=np.int64)
    pending = np.arange(n.size)
    while pending.size:
        hit = np.asarray(_below(d[pending] * k[pending], rng) < n[pending], dtype=bool)
        k[pending[hit]] += 1
        pending = pending[hit]
    return (k % 2) == 1


def bernoulli_exp(n: np.ndarray | int, d: np.ndarray | int, rng: np.random.Generator) -> np.ndarray:
    """Exact Bernoulli(exp(−n/d)) for integers n ≥ 0, d ≥ 1 (arrays broadcast together).

    γ > 1 is split as exp(−1)^⌊γ⌋ · exp(−(γ − ⌊γ⌋)) (CKS Algorithm 1, second part).
    Integers of any size are accepted (object arrays of Python ints); below 2^44 everything
    runs in int64.  O(size · (1 + ⌊γ⌋)) expected work.
    """
    n_arr, d_arr = (_int_array(v) for v in np.broadcast_arrays(np.asarray(n), np.asarray(d)))
    shape = n_arr.shape
    n_arr, d_arr = n_arr.ravel(), d_arr.ravel()
    if n_arr.size and (n_arr.min() < 0 or d_arr.min() < 1):
        raise ConfigError("bernoulli_exp needs integers n ≥ 0 and d ≥ 1")
    out = np.ones(n_arr.size, dtype=bool)
    whole = n_arr // d_arr
    frac = n_arr - whole * d_arr
    whole = whole.astype(np.int64)
    unit = np.ones(n_arr.size, dtype=np.int64)
    for step in range(1, int(whole.max(initial=0)) + 1):
        live = np.flatnonzero(out & (whole >= step))
        if not live.size:
            break
        out[live] = _bernoulli_exp_le1(unit[live], unit[live], rng)
    live = np.flatnonzero(out & np.asarray(frac > 0, dtype=bool))
    if live.size:
        out[live] = _bernoulli_exp_le1(frac[live], d_arr[live], rng)
    return out.reshape(shape)


def bernoulli(n: int, beta: float, rng: np.random.Generator) -> np.ndarray:
    """n exact Bernoulli(β) draws for a float β (= m·2^e exactly): P[True] is β, not ≈ β.

    β = m·2^e: a 53-bit uniform integer below m·2^53, and −e fair coins all heads.  O(n).
    """
    m, e = math.frexp(beta)  # β = m·2^e, ½ ≤ m < 1, e ≤ 0
    mantissa = int(m * (1 << 53))  # exact: m has 53 significant bits
    keep = rng.integers(0, 1 << 53, size=n, dtype=np.int64) < mantissa  # P = m
    s = -e
    while s > 0:  # times Bernoulli(2^-s): s fair coins all heads
        t = min(s, 62)
        keep &= rng.integers(0, 1 << t, size=n, dtype=np.int64) == 0
        s -= t
    return keep


# ---------------------------------------------------------------------------- discrete
def discrete_laplace(
    scale: float | Fraction, size: int | tuple[int, ...] | None = None, *, rng: np.random.Generator
) -> np.ndarray | int:
    """Exact two-sided geometric samples: P(z) ∝ exp(−|z|/scale), z ∈ ℤ (CKS Algorithm 2).

    ``scale`` = t/s as a fraction (rounded up if given as an inexact float).  Returns an
    int64 array of ``size`` (a Python int when ``size`` is None).  The variance is
    2e^{-1/scale}/(1 − e^{-1/scale})².  O(size) expected work.
    """
    frac = rational_at_least(scale, "scale")
    t, s = frac.numerator, frac.denominator
    count = 1 if size is None else int(np.prod(size))
    out = np.empty(count, dtype=np.int64)
    pending = np.arange(count)
    while pending.size:
        m = pending.size
        u = rng.integers(0, t, size=m, dtype=np.int64)
        keep = bernoulli_exp(u, t, rng)
        # V: number of successes of Bernoulli(exp(−1)) before the first failure
        v = np.zeros(m, dtype=np.int64)
        running = np.flatnonzero(keep)
        while running.size:
            hit = _bernoulli_exp_le1(
                np.ones(running.size, np.int64), np.ones(running.size, np.int64), rng
            )
            v[running[hit]] += 1
            running = running[hit]
        y = (u + t * v) // s
        b = rng.integers(0, 2, size=m, dtype=np.int64)
        keep &= ~((b == 1) & (y == 0))
        out[pending[keep]] = ((1 - 2 * b) * y)[keep]
        pending = pending[~keep]
    if size is None:
        return int(out[0])
    return out.reshape(size)


def discrete_gaussian(
    sigma2: float | Fraction, size: int | tuple[int, ...] | None = None, *, rng: np.random.Generator
) -> np.ndarray | int:
    """Exact discrete Gaussian samples: P(z) ∝ exp(−z²/(2σ²)), z ∈ ℤ (CKS Algorithm 3).

    ``sigma2`` = σ² (rounded up if inexact).  Proposals from the discrete Laplace of scale
    t = ⌊σ⌋ + 1 are accepted with Bernoulli(exp(−(|y| − σ²/t)²/(2σ²))); the acceptance rate
    is above 0.5 for every σ.  The acceptance test runs in int64 when its numbers fit
    (σ below about 10), else on object arrays of Python integers (about 1 µs a sample).
    """
    frac = rational_at_least(sigma2, "sigma2", bounded=False)
    a, b = frac.numerator, frac.denominator  # σ² = a/b
    t = math.isqrt(a // b) + 1  # ⌊σ⌋ + 1 (⌊√⌊σ²⌋⌋ = ⌊σ⌋)
    count = 1 if size is None else int(np.prod(size))
    out = np.empty(count, dtype=np.int64)
    pending = np.arange(count)
    den = 2 * a * b * t * t  # γ = (|y|·b·t − a)² / (2·a·b·t²)
    while pending.size:
        y = np.asarray(discrete_laplace(t, pending.size, rng=rng))
        if (int(np.abs(y).max()) * b * t + a) ** 2 < 2**62 and den < _MAX_DEN:
            num = (np.abs(y) * (b * t) - a) ** 2
            keep = bernoulli_exp(num, den, rng)
        else:  # exact in Python integers (object arrays), still vectorized
            num = (np.abs(y).astype(object) * (b * t) - a) ** 2
            keep = bernoulli_exp(num, np.full(y.size, den, dtype=object), rng)
        out[pending[keep]] = y[keep]
        pending = pending[~keep]
    if size is None:
        return int(out[0])
    return out.reshape(size)


# ---------------------------------------------------------------------------- continuous
def grid_for(scale: float, coordinates: int = 1) -> float:
    """The grid width 2^k used to snap a value whose noise has scale ``scale``.

    k = ⌊log2(scale / (2^20 · coordinates))⌋, so rounding adds at most 2^-20 relative noise
    even summed over all coordinates.
    """
    return 2.0 ** math.floor(math.log2(scale / (2**PRECISION_BITS * max(1, coordinates))))


def _snap(values: np.ndarray, grid: float) -> np.ndarray:
    snapped = np.rint(np.asarray(values, dtype=np.float64) / grid)
    if not np.all(np.isfinite(snapped)) or np.abs(snapped).max(initial=0) >= 2**53:
        raise ConfigError(
            "value too large for the noise grid (|value| / grid ≥ 2^53); clamp the data or "
            "use a larger sensitivity"
        )
    return snapped.astype(np.int64)


def snap_laplace(
    values: np.ndarray | float, sensitivity: float, epsilon: float, *, rng: np.random.Generator
) -> tuple[np.ndarray, float]:
    """ε-DP Laplace release of real ``values`` with L1 ``sensitivity``, floating-point safe.

    Returns (noisy values on the grid, grid).  Each value is rounded to the grid g, and
    discrete Laplace noise of scale (Δ + g·d)/(ε·g) grid steps is added (d = number of
    coordinates): the rounding's extra sensitivity is paid for.  O(d).
    """
    arr = np.asarray(values, dtype=np.float64)
    d = max(1, arr.size)
    grid = grid_for(sensitivity / epsilon, d)
    scale = snap_laplace_scale(sensitivity, epsilon, grid, d)
    noisy = _snap(arr, grid) + np.asarray(discrete_laplace(scale, arr.shape, rng=rng))
    return noisy.astype(np.float64) * grid, grid


def snap_laplace_scale(
    sensitivity: float, epsilon: float, grid: float, coordinates: int
) -> Fraction:
    """The discrete Laplace scale, in grid steps, that :func:`snap_laplace` draws from.

    (Δ/g + d)/ε with ε rounded down and the result rounded up as the sampler does, so the
    noise is exactly g·DLap(this scale) (used by :mod:`privlab.dp.accuracy`).  O(1).
    """
    scale = (Fraction(sensitivity) / Fraction(grid) + coordinates) / rational_at_most(epsilon)
    return rational_at_least(scale, "scale")


def snap_gaussian(
    values: np.ndarray | float, sigma: float, l2_sensitivity: float, *, rng: np.random.Generator
) -> tuple[np.ndarray, float]:
    """Gaussian noise of standard deviation σ·(1 + g√d/Δ₂) on a grid, floating-point safe.

    ``sigma`` must be calibrated for the L2 sensitivity Δ₂; the noise is scaled up so that
    it is calibrated for Δ₂ + g·√d (the rounding's extra sensitivity).  Returns (noisy values
    on the grid, grid).  O(d).
    """
    arr = np.asarray(values, dtype=np.float64)
    d = max(1, arr.size)
    grid = grid_for(sigma, d)
    sigma_grid = snap_gaussian_sigma(sigma, l2_sensitivity, grid, d)
    noisy = _snap(arr, grid) + np.asarray(discrete_gaussian(sigma_grid**2, arr.shape, rng=rng))
    return noisy.astype(np.float64) * grid, grid


def snap_gaussian_sigma(
    sigma: float, l2_sensitivity: float, grid: float, coordinates: int
) -> Fraction:
    """σ in grid steps of the discrete Gaussian :func:`snap_gaussian` draws from (its σ² is
    this value squared, rounded up by at most 2^-20 relative by the sampler).  O(1)."""
    factor = 1 + grid * math.sqrt(coordinates) / l2_sensitivity
    return rational_at_least(sigma * factor / grid, "sigma")


__all__ = [
    "PRECISION_BITS",
    "bernoulli",
    "bernoulli_exp",
    "discrete_gaussian",
    "discrete_laplace",
    "grid_for",
    "is_insecure_seed",
    "rational_at_least",
    "rational_at_most",
    "secure_generator",
    "snap_gaussian",
    "snap_gaussian_sigma",
    "snap_laplace",
    "snap_laplace_scale",
]
