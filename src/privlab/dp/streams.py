"""Pan-private streaming: the density estimator of Dwork et al. (seed 000 §2.8).

*Pan privacy* (Dwork, Naor, Pitassi, Rothblum & Yekhanin, "Pan-private streaming
algorithms", ICS 2010; thesis §6.2, Def 6.9) asks that the algorithm's **internal state**
be differentially private too, so that one intrusion — a subpoena, a breach — between two
updates learns no more than the outputs would.  There is no secret buffer: the state is
all there is, and :attr:`DensityEstimator.state` shows it.

**Density estimation** (thesis Algorithm 6.1, L4279–4298) estimates the fraction of a
finite universe X whose items appeared at least once in the stream, with user-level
privacy (X-adjacent streams differ in *all* occurrences of one item):

* the state is one bit per item, initially i.i.d. D0 = Bernoulli(½);
* on each occurrence of x, x's bit is redrawn from D1(ε) = Bernoulli(½ + ε/4);
* the output is θ = fraction of 1-bits, rescaled: f' = (4/ε)(θ' − ½).

Privacy (Claims 6.2–6.3): D0 and D1(ε) are ε-indistinguishable when 1 − ε/2 − e^{−ε} ≥ 0,
i.e. ε ≤ 2 + W(−2e^{−2}) ≈ 1.5936 (the thesis states ε ≤ 3/2), so the state is ε-DP; each
output is a query of sensitivity 1/|X| on the state and costs another ε.  One intrusion and
one final output give 2ε-differential pan privacy.

**Erratum handled** (seed 000 summary §2.8, "Implementation caveats"): the printed
pseudo-code adds Lap(1/(ε|X|)) *after* the 4/ε rescaling, but the proof's sensitivity
1/|X| is that of θ.  Here the noise is added to θ before rescaling — equivalently
Lap(4/(ε²|X|)) on the estimate — which is what the proof needs.

Exactness: bits are drawn as exact Bernoulli(p) with p a multiple of 2^-52 rounded *down*
from ½ + ε/4 (a 52-bit uniform integer compared with p·2^52), which keeps both
likelihood ratios of Claim 6.2 within e^ε; the output noise is the exact two-sided
geometric of :mod:`privlab.dp.noise` on the count of 1-bits.

Accuracy (Claim 6.4, Hoeffding): Pr[|f − E f| ≥ t] ≤ 2 exp(−|X| t² ε² / 8) for the table's
randomness; :meth:`DensityEstimator.error_bound` adds the Laplace term's quantile.

Complexity: O(1) per update (O(batch) vectorized for :meth:`update_many`), O(|X|) memory
(one byte per item) and O(|X|) per estimate.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from privlab.dp.accountant import Budget, check_epsilon
from privlab.dp.noise import (
    discrete_laplace,
    is_insecure_seed,
    rational_at_most,
    secure_generator,
)
from privlab.errors import ConfigError, InputError

#: Largest ε for which D0 and D1(ε) are ε-indistinguishable: the root of 1 − ε/2 − e^{−ε}.
MAX_EPSILON = 1.59362426004004

_BITS = 52


def _max_epsilon_ok(epsilon: float) -> bool:
    return 1 - epsilon / 2 - math.exp(-epsilon) >= 0


class DensityEstimator:
    """Pan-private estimate of the fraction of a finite universe seen in a stream.

    ``universe``: the number of items m (items are then the integers 0..m−1) or the items
    themselves (any hashable values, distinct).  ``epsilon``: the per-part ε (state, and
    each output).  ``seed``: for reproducible tests only — the default draws from the
    operating system's cryptographic source.
    """

    def __init__(
        self, universe: int | Sequence[Hashable], epsilon: float, *, seed: Any = None
    ) -> None:
        eps = check_epsilon(epsilon)
        if not _max_epsilon_ok(eps):
            raise ConfigError(
                f"epsilon = {epsilon!r}: the density estimator needs ε ≤ {MAX_EPSILON:.4f} "
                "(Claim 6.2: beyond it D0 and D1(ε) are not ε-indistinguishable)"
            )
        if isinstance(universe, (int, np.integer)) and not isinstance(universe, bool):
            size, index = int(universe), None
        else:
            items = list(universe)
            index = {item: i for i, item in enumerate(items)}
            if len(index) != len(items):
                raise ConfigError("universe: the items must be distinct")
            size = len(items)
        if size < 1:
            raise ConfigError(f"universe: needs at least one item, got {size}")
        self.epsilon = eps
        self.size = size
        self._index = index
        self._rng = secure_generator(seed)
        self.insecure_seed = is_insecure_seed(seed)
        self._p1 = math.floor((0.5 + eps / 4) * 2**_BITS)  # D1's probability × 2^52
        self._bits = self._draw(size, 2 ** (_BITS - 1))  # D0 = Bernoulli(½)
        # No count of updates is kept: it would be an exact statistic of the stream in the
        # state, which pan privacy requires to be private.
        self.outputs = 0

    # ------------------------------------------------------------------ stream
    def _draw(self, n: int, numerator: int) -> np.ndarray:
        """n exact Bernoulli(numerator / 2^52) bits."""
        return self._rng.integers(0, 2**_BITS, size=n, dtype=np.int64) < numerator

    def _positions(self, items: Iterable[Hashable]) -> np.ndarray:
        if self._index is None:
            arr = np.asarray(list(items) if not isinstance(items, np.ndarray) else items)
            if arr.size and not np.issubdtype(arr.dtype, np.integer):
                raise InputError(
                    f"stream items must be integers 0..{self.size - 1} for a universe given "
                    f"by its size; got {arr.dtype} values"
                )
            arr = arr.astype(np.int64).ravel()
            bad = (arr < 0) | (arr >= self.size)
            if bad.any():
                raise InputError(
                    f"stream: {int(np.count_nonzero(bad))} item(s) of the batch outside the "
                    f"universe 0..{self.size - 1}; the universe must hold every possible item"
                )
            return arr
        out, unknown = [], 0
        for item in items:
            try:
                out.append(self._index[item])
            except (KeyError, TypeError):
                unknown += 1
        if unknown:
            raise InputError(
                f"stream: {unknown} item(s) of the batch not in the universe; the universe "
                "must hold every possible item"
            )
        return np.asarray(out, dtype=np.int64)

    def update(self, item: Hashable) -> None:
        """Process one occurrence: redraw the item's bit from D1(ε).  O(1), atomic."""
        self.update_many([item])

    def update_many(self, items: Iterable[Hashable]) -> None:
        """Process a batch of occurrences as one atomic step.  O(batch).

        Redrawing a bit several times leaves it distributed as one D1 draw, so each distinct
        item of the batch gets one draw; an intrusion can only happen between batches.
        """
        pos = np.unique(self._positions(items))
        if pos.size:
            self._bits[pos] = self._draw(pos.size, self._p1)

    # ------------------------------------------------------------------ outputs
    @property
    def state(self) -> np.ndarray:
        """A copy of the whole internal state (one bit per item): what an intruder sees."""
        return self._bits.copy()

    @property
    def p1(self) -> float:
        """D1's probability of a 1 as actually used (½ + ε/4 rounded down to 2^-52)."""
        return self._p1 / 2**_BITS

    def estimate(self) -> float:
        """f' = (θ + Lap(1/(ε|X|)) − ½)/(p1 − ½): the noisy fraction of items seen.  O(|X|).

        θ·|X| is the integer number of 1-bits, so the noise is exact: the count gets
        two-sided geometric noise of scale 1/ε (sensitivity 1), i.e. θ gets the discrete
        Laplace of scale 1/(ε|X|) on the grid 1/|X| that θ lives on.  1/(p1 − ½) is 4/ε up
        to D1's 2^-52 rounding.

        Each call is an output and costs ε more (see :attr:`guarantee`).
        """
        ones = int(np.count_nonzero(self._bits))
        noise = discrete_laplace(1 / rational_at_most(self.epsilon), rng=self._rng)
        noisy = (ones + noise) / self.size
        self.outputs += 1
        return (noisy - 0.5) / (self.p1 - 0.5)

    @property
    def guarantee(self) -> Budget:
        """Pan privacy so far: ε for the state plus ε per output (2ε after one output)."""
        return Budget(self.epsilon * (1 + self.outputs))

    def error_bound(self, confidence: float = 0.95) -> float:
        """t such that |f' − f| ≤ t with probability ≥ ``confidence`` (union bound).

        Splits the failure probability evenly: Hoeffding on the table (Claim 6.4) and the
        Laplace term's tail, both rescaled by 1/(p1 − ½).
        """
        if not 0 < confidence < 1:
            raise ConfigError(f"confidence = {confidence!r}: give a probability in (0, 1)")
        fail = (1 - confidence) / 2
        scale = 1 / (self.p1 - 0.5)
        table = math.sqrt(2 * math.log(2 / fail) / self.size) * 0.5 * scale
        laplace = math.log(1 / fail) / (self.epsilon * self.size) * scale
        return table + laplace


__all__ = ["MAX_EPSILON", "DensityEstimator"]
