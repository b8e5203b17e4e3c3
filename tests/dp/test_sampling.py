"""Sampling + strongly-safe k-anonymization ⇒ (ε, δ)-DP (Li, Qardaji & Su 2012; seed 003)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, binomtest

from privlab.dp.accountant import Budget, amplify
from privlab.dp.noise import bernoulli
from privlab.dp.sampling import (
    DELTA_FLOOR,
    achieved,
    delta,
    delta_detail,
    max_beta,
    params,
    safe_k_anonymize,
)
from privlab.errors import ConfigError, InputError
from privlab.table.data import MicroTable
from privlab.table.sample import census_sample


# ---------------------------------------------------------------------------- references
def exact_tail(n: int, j: int, beta: Fraction) -> Fraction:
    """Σ_{i ≥ j} C(n, i) β^i (1 − β)^{n−i}, exactly."""
    return sum(
        (math.comb(n, i) * beta**i * (1 - beta) ** (n - i) for i in range(j, n + 1)), Fraction(0)
    )


def brute_force_exact(k: int, beta: Fraction, exp_e: Fraction, n_max: int = 120) -> Fraction:
    """Eq. (3) of proof A.2 straight from the probability ratio, exactly, over n = 1..n_max.

    A count j ≥ k of the target's tuple is bad when f(j; n, β)/f(j; n − 1, β) > e^ε, i.e.
    j = n (ratio ∞) or n(1 − β)/(n − j) > e^ε.  No n_m, no candidate reduction, no float.
    """
    best = Fraction(0)
    for n in range(1, n_max + 1):
        bad = [j for j in range(k, n + 1) if j == n or n * (1 - beta) > exp_e * (n - j)]
        mass = sum((math.comb(n, j) * beta**j * (1 - beta) ** (n - j) for j in bad), Fraction(0))
        best = max(best, mass)
    return best


def seed_reference(k: int, beta: float, eps: float, window: int = 3000) -> float:
    """The seed summary's reference implementation (§B.2.10), a plain scan over n."""
    g = (math.exp(eps) - 1 + beta) / math.exp(eps)
    n_m = math.ceil(k / g - 1)
    best = 0.0
    for n in range(max(n_m, 1), n_m + window):
        j_min = math.floor(g * n) + 1
        if j_min <= n:
            best = max(best, binom.sf(j_min - 1, n, beta))
    return best


# ---------------------------------------------------------------------------- Table 1
def test_table_1_amplification_left_ln11_delta_1e5():
    # an (ln 11, 1e-5)-DP algorithm on a β-sample: β = 0.1 → (ln 2, 1e-6); 0.01 → (ln 1.1, 1e-7)
    base = Budget(math.log(11), 1e-5)
    for beta, exp_eps, dlt in ((0.1, 2.0, 1e-6), (0.01, 1.1, 1e-7)):
        got = amplify(base, beta)
        assert math.exp(got.epsilon) == pytest.approx(exp_eps, rel=1e-14)
        assert got.delta == pytest.approx(dlt, rel=1e-14)


def test_table_1_amplification_right_eps_1():
    assert amplify(Budget(1.0), 0.1).epsilon == pytest.approx(0.15857, abs=5e-6)
    assert amplify(Budget(1.0), 0.01).epsilon == pytest.approx(0.017037, abs=5e-7)
    assert round(amplify(Budget(1.0), 0.1).epsilon, 3) == 0.159
    assert round(amplify(Budget(1.0), 0.01).epsilon, 3) == 0.017


# ---------------------------------------------------------------------------- Table 2
EPS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
TABLE_2 = {  # k = 20; rows β, columns ε (Li et al. Table 2, L294–298)
    0.05: (6.83e-10, 2.50e-14, 3.19e-17, 1.76e-19, 3.97e-22, 2.00e-24),
    0.1: (4.19e-06, 1.61e-09, 3.44e-12, 4.07e-14, 3.22e-16, 1.89e-18),
    0.2: (2.16e-03, 8.02e-06, 1.89e-07, 6.03e-09, 4.79e-11, 1.59e-12),
}
N_M = {  # the seed summary's n_m per cell (the maximum is at n_m in every cell)
    0.05: (76, 47, 36, 30, 25, 22),
    0.1: (66, 44, 34, 29, 25, 22),
    0.2: (53, 38, 32, 28, 24, 22),
}
CELLS = [(b, e, TABLE_2[b][i], N_M[b][i]) for b in TABLE_2 for i, e in enumerate(EPS)]


@pytest.mark.parametrize(("beta", "eps", "paper", "n_m"), CELLS)
def test_table_2_every_cell(beta, eps, paper, n_m):
    r = delta_detail(20, beta, eps)
    assert r.delta == pytest.approx(paper, rel=5e-3)
    assert float(f"{r.delta:.3g}") == paper  # to the paper's three digits
    assert r.n_m == n_m and r.n == n_m and r.j == 20


@pytest.mark.parametrize(("beta", "eps", "paper", "n_m"), [*CELLS[::4], CELLS[-1]])
def test_binomial_tails_match_exact_rational_sums(beta, eps, paper, n_m):
    r = delta_detail(20, beta, eps)
    exact = exact_tail(r.n, r.j, Fraction(beta))  # Fraction(beta) is the float's exact value
    assert r.delta == pytest.approx(float(exact), rel=1e-12)


def test_deep_tail_matches_exact_sum():
    r = delta_detail(50, 0.2, 3.0)  # the seed's Fig. 2-like value 9.65e-33
    assert float(f"{r.delta:.3g}") == 9.65e-33
    assert r.delta == pytest.approx(float(exact_tail(r.n, r.j, Fraction(0.2))), rel=1e-12)


@pytest.mark.parametrize(
    ("k", "beta", "eps", "want"),
    [  # the seed summary's regression values for Figs. 2–5 (its own computation)
        (5, 0.2, 0.5, 1.96e-2),
        (10, 0.2, 2.0, 9.22e-7),
        (30, 0.2, 2.0, 3.07e-18),
        (20, 0.3, 1.0, 1.18e-6),  # maximum not at n_m
        (20, 0.4, 3.0, 1.10e-8),
        (15, 0.05, 0.75, 2.98e-13),
        (60, 0.4, 1.0, 6.88e-12),
        (1, 0.025, 0.5, 4.94e-2),
        (4, 0.025, 1.0, 5.63e-6),
    ],
)
def test_seed_figure_values(k, beta, eps, want):
    assert delta(k, beta, eps) == pytest.approx(want, rel=5e-3)


def test_maximum_is_not_always_at_n_m():
    # the paper's warning (L306): discreteness can put the maximum at a later local maximum
    r = delta_detail(5, 0.3, 1.0)
    assert (r.n_m, r.n, r.j) == (6, 8, 6)
    assert r.delta == pytest.approx(binom.sf(5, 8, 0.3), rel=1e-14)
    assert r.delta > binom.sf(4, 6, 0.3)  # the n_m term
    r = delta_detail(20, 0.7, 2.0)
    assert r.n > r.n_m


# ---------------------------------------------------------------------------- ARX SafePub
ARX = {  # ε → {δ: ARX's k} (REFERENCE_RESULTS.md); the tight k is one lower in every row
    1.0: {1e-3: 35, 1e-4: 48, 1e-5: 62, 1e-6: 75, 1e-7: 92},
    2.0: {1e-3: 65, 1e-4: 82, 1e-5: 114, 1e-6: 132, 1e-7: 165},
}


@pytest.mark.parametrize(("eps", "dlt"), [(e, d) for e in ARX for d in ARX[e]])
def test_arx_safepub_table_with_tight_k(eps, dlt):
    beta, k, achieved_delta = params(eps, dlt)
    assert beta == pytest.approx(1 - math.exp(-eps), rel=1e-15)
    assert -math.log1p(-beta) <= eps
    assert k <= ARX[eps][dlt]
    assert k == ARX[eps][dlt] - 1
    assert achieved_delta == delta(k, beta, eps) <= dlt < delta(k - 1, beta, eps)


def test_achieved_is_the_guarantee():
    g = achieved(1.0, 0.2, 20)
    assert isinstance(g, Budget)
    assert g.epsilon == 1.0 and g.delta == pytest.approx(6.03e-9, rel=5e-3)


# ---------------------------------------------------------------------------- β^k limit
def test_large_epsilon_limit_is_beta_to_the_k():
    # ε → ∞: γ → 1, the n = k term dominates, δ → β^k (0.025² = 6.25e-4, 0.025³ = 1.5625e-5)
    assert delta(2, 0.025, 2.0) == pytest.approx(6.25e-4, rel=1e-12)
    assert delta(3, 0.025, 1.5) == pytest.approx(1.5625e-5, rel=1e-12)
    for k in (1, 5, 20):
        assert delta(k, 0.2, 40.0) == pytest.approx(0.2**k, rel=1e-12)
    # and β^k is a floor: δ ≤ 1e-6 is impossible for β = 0.2, k = 5 (3.2e-4)
    assert min(delta(5, 0.2, e) for e in (1.0, 3.0, 10.0, 40.0)) >= 0.2**5 * (1 - 1e-12)


# ---------------------------------------------------------------------------- strictness
def test_strict_inequality_when_gamma_n_is_an_integer():
    # β = 1/2, e^ε = 2 ⇒ γ = 3/4 exactly; γ·4 = 3, so at n = 4 the count j = 3 is *good*.
    # Candidates: (n, j) = (3, 3) 1/8, (5, 4) 6/32, (6, 5) 7/64, ... ⇒ d = 3/16.
    # With j ≥ γn instead, n = 4 would add P[Bin(4, ½) ≥ 3] = 5/16.
    r = delta_detail(3, 0.5, exp_epsilon=2)
    assert r.delta == 3 / 16 and (r.n, r.j) == (5, 4)
    assert r.delta == float(brute_force_exact(3, Fraction(1, 2), Fraction(2)))
    assert r.delta < 5 / 16


def test_float_epsilon_next_to_an_integer_boundary_is_decided_exactly():
    # β = 1/4, e^ε = 2 ⇒ γ = 5/8 and γ·8 = 5.  The float math.log(2) is *below* ln 2, so its
    # γ is just below 5/8, γ·8 < 5 and n = 8 joins the j = 5 run; the next float up is above
    # ln 2 and behaves like the exact case.  The float γ·8 rounds to 5.0 in both cases.
    below, above = math.log(2), math.nextafter(math.log(2), 3.0)
    ln2 = Decimal("0.693147180559945309417232121458")
    assert Decimal(below) < ln2 < Decimal(above)
    r_exact = delta_detail(5, 0.25, exp_epsilon=2)
    r_below = delta_detail(5, 0.25, below)
    r_above = delta_detail(5, 0.25, above)
    assert r_exact.n_m == 7 and r_above.n_m == 7 and r_below.n_m == 8
    assert r_above.delta == pytest.approx(r_exact.delta, rel=1e-12)
    assert r_below.delta == pytest.approx(binom.sf(4, 8, 0.25), rel=1e-12)
    assert r_below.delta > r_exact.delta
    tiny = Fraction(1, 10**30)  # exact references with e^ε a hair above / below 2
    assert r_exact.delta == pytest.approx(
        float(brute_force_exact(5, Fraction(1, 4), Fraction(2))), rel=1e-12
    )
    assert r_below.delta == pytest.approx(
        float(brute_force_exact(5, Fraction(1, 4), 2 - tiny)), rel=1e-12
    )
    assert r_above.delta == pytest.approx(
        float(brute_force_exact(5, Fraction(1, 4), 2 + tiny)), rel=1e-12
    )


def test_theorem_condition_is_checked_exactly():
    # −ln(1 − ½) = ln 2 and float(ln 2) < ln 2: the theorem does not cover it
    with pytest.raises(ConfigError, match="below −ln"):
        delta(3, 0.5, math.log(2))
    assert delta(3, 0.5, math.nextafter(math.log(2), 3.0)) == pytest.approx(3 / 16)
    delta(3, 0.5, exp_epsilon=2)  # exactly on the boundary: allowed (ε ≥ −ln(1 − β))
    b = max_beta(math.log(2))
    assert b < 0.5 and math.nextafter(b, 1.0) == 0.5
    delta(3, b, math.log(2))  # fine


@pytest.mark.parametrize("beta", [Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1, 8)])
@pytest.mark.parametrize("exp_e", [Fraction(2), Fraction(3), Fraction(3, 2), Fraction(4)])
@pytest.mark.parametrize("k", [1, 2, 4, 7])
def test_exact_rational_cases_against_brute_force(beta, exp_e, k):
    if exp_e * (1 - beta) < 1:  # ε < −ln(1 − β): not covered by the theorem
        with pytest.raises(ConfigError):
            delta(k, float(beta), exp_epsilon=exp_e)
        return
    want = brute_force_exact(k, beta, exp_e, n_max=90)
    assert delta(k, float(beta), exp_epsilon=exp_e) == pytest.approx(float(want), rel=1e-12)


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize("eps", [0, -1.0, float("nan"), float("inf"), "x"])
def test_bad_epsilon(eps):
    with pytest.raises(ConfigError, match="epsilon"):
        delta(20, 0.2, eps)
    with pytest.raises(ConfigError, match="epsilon"):
        params(eps, 1e-6)


@pytest.mark.parametrize("dlt", [0, 1, -1e-6, 1.5, "x"])
def test_bad_delta(dlt):
    with pytest.raises(ConfigError, match="delta"):
        params(1.0, dlt)


@pytest.mark.parametrize("beta", [0, -0.1, 1.5, float("nan"), "x"])
def test_bad_beta(beta):
    with pytest.raises(ConfigError, match="beta"):
        delta(20, beta, 1.0)


def test_beta_one_is_explained():
    with pytest.raises(ConfigError, match=r"beta = 1: without sampling.*max_beta"):
        delta(20, 1.0, 1.0)


def test_epsilon_below_sampling_limit():
    # β = 0.4 needs ε ≥ −ln 0.6 = 0.5108
    with pytest.raises(ConfigError, match=r"epsilon = 0\.5 is below.*Lower beta.*raise epsilon"):
        delta(20, 0.4, 0.5)
    with pytest.raises(ConfigError, match="below"):
        achieved(0.5, 0.4, 20)


@pytest.mark.parametrize("k", [0, -3, 2.5, True, "20"])
def test_bad_k(k):
    with pytest.raises(ConfigError, match="k = "):
        delta(k, 0.2, 1.0)


def test_bad_exp_epsilon():
    with pytest.raises(ConfigError, match="exp_epsilon"):
        delta(5, 0.5, exp_epsilon=1)
    with pytest.raises(ConfigError, match="exactly one"):
        delta(5, 0.5, 1.0, exp_epsilon=2)
    with pytest.raises(ConfigError, match="exactly one"):
        delta(5, 0.5)


# ---------------------------------------------------------------------------- properties
betas = st.floats(0.01, 0.9)


@st.composite
def beta_eps(draw):
    b = draw(betas)
    lo = -math.log1p(-b)
    e = draw(st.floats(lo * (1 + 1e-9), lo + 4.0))
    return b, e


@settings(max_examples=60, deadline=None)
@given(beta_eps(), st.integers(1, 60))
def test_delta_non_increasing_in_k_and_above_beta_to_the_k(be, k):
    b, e = be
    d_k, d_next = delta(k, b, e), delta(k + 1, b, e)
    assert d_next <= d_k
    assert d_k >= max(b**k * (1 - 1e-12), DELTA_FLOOR)


@settings(max_examples=40, deadline=None)
@given(beta_eps(), st.integers(1, 40))
def test_agrees_with_the_seeds_plain_scan(be, k):
    b, e = be
    assert delta(k, b, e) == pytest.approx(max(seed_reference(k, b, e), DELTA_FLOOR), rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.floats(0.05, 4.0), st.sampled_from([1e-2, 1e-3, 1e-5, 1e-8, 1e-12]))
def test_params_returns_the_minimal_k(eps, dlt):
    beta, k, d = params(eps, dlt)
    assert beta == max_beta(eps) and -math.log1p(-beta) <= eps
    assert d == delta(k, beta, eps) <= dlt
    if k > 1:
        assert delta(k - 1, beta, eps) > dlt


@settings(max_examples=50, deadline=None)
@given(st.floats(1e-6, 30.0))
def test_max_beta_is_the_largest_allowed(eps):
    b = max_beta(eps)
    delta(5, b, eps)  # allowed
    up = math.nextafter(b, 1.0)
    if up < 1:
        with pytest.raises(ConfigError):
            delta(5, up, eps)


# ---------------------------------------------------------------------------- pipeline
@pytest.mark.parametrize("beta", [0.3, 0.75, 1e-3, 3e-20])
def test_bernoulli_sampler_rate(beta):
    n = 400_000
    hits = int(bernoulli(n, beta, np.random.default_rng(11)).sum())
    assert binomtest(hits, n, beta).pvalue > 1e-4


@pytest.fixture(scope="module")
def census():
    s = census_sample(4000, seed=3)
    table = s.micro_table()
    return s, table


LEVELS = {"zip": 3, "age": 2, "sex": 1, "education": 1, "marital-status": 1}


def test_safe_release_accounts_for_every_row_and_is_k_anonymous(census):
    s, table = census
    k, beta, eps = 8, 0.3, 1.0
    r = safe_k_anonymize(table, LEVELS, k=k, beta=beta, epsilon=eps, rng=5)
    assert r.not_sampled + r.suppressed + r.released == table.n_rows == 4000
    assert r.sampled == r.suppressed + r.released
    assert binomtest(r.sampled, table.n_rows, beta).pvalue > 1e-4
    out = r.data
    assert isinstance(out, pl.DataFrame) and out.height == r.released
    assert "id" not in out.columns and s.sensitive in out.columns
    # k-anonymous over *all* released columns (sensitive included), and sorted (a multiset)
    sizes = out.group_by(out.columns).len()["len"]
    assert sizes.min() >= k and sizes.len() == r.n_classes
    assert out.equals(out.sort(out.columns))
    # released rows are the input rows generalized; suppressed ones were in classes < k
    assert set(r.released_rows).isdisjoint(r.suppressed_rows)
    h = table.hierarchies["zip"]
    zips = h.generalize(table.frame["zip"].to_list(), 3)
    assert sorted(out["zip"].to_list()) == sorted(zips[r.released_rows].tolist())
    assert out["sex"].unique().to_list() == ["*"]
    sampled = np.sort(np.concatenate([r.released_rows, r.suppressed_rows]))
    gen = (
        table.frame[sampled]
        .drop("id")
        .with_columns(
            pl.Series("zip", zips[sampled]),
            pl.Series("age", table.hierarchies["age"].generalize(table.frame["age"][sampled], 2)),
            pl.lit("*").alias("sex"),
            pl.Series(
                "education",
                table.hierarchies["education"].generalize(table.frame["education"][sampled], 1),
            ),
            pl.Series(
                "marital-status",
                table.hierarchies["marital-status"].generalize(
                    table.frame["marital-status"][sampled], 1
                ),
            ),
        )
    )
    small = gen.with_columns(pl.len().over(gen.columns).alias("n"))["n"] < k
    assert int(small.sum()) == r.suppressed
    # guarantee and its report
    assert r.guarantee == achieved(eps, beta, k)
    d = r.to_dict()
    assert d["epsilon"] == eps and d["delta"] == r.guarantee.delta and d["k"] == k
    assert d["insecure_seed"] is True and d["levels"] == LEVELS
    assert d["released"] == r.data.height and "rows" not in d and "suppressed" not in d
    exact = r.to_dict(non_private_diagnostics=True)["non_private_diagnostics"]
    assert exact["rows"] == 4000 and exact["suppressed"] == r.suppressed
    assert exact["warning"].startswith("NOT differentially private")


def test_safe_release_is_reproducible_with_a_seed_and_flags_it(census):
    _, table = census
    a = safe_k_anonymize(table, LEVELS, k=5, beta=0.2, epsilon=1.0, rng=9)
    b = safe_k_anonymize(table, list(LEVELS.values()), k=5, beta=0.2, epsilon=1.0, rng=9)
    assert a.data.equals(b.data) and a.insecure_seed
    c = safe_k_anonymize(table, LEVELS, k=5, beta=0.2, epsilon=1.0)
    assert not c.insecure_seed
    assert c.not_sampled + c.suppressed + c.released == table.n_rows


def test_safe_release_keeps_the_callers_frame_kind(census):
    s, _ = census
    pd = pytest.importorskip("pandas")
    table = MicroTable.from_data(
        s.frame.to_pandas(),
        quasi_identifiers=s.quasi_identifiers,
        hierarchies=s.hierarchies,
        identifying=[s.identifying],
        insensitive=[s.sensitive],  # released unchanged, counted as a quasi-identifier
        purpose="private-release",
    )
    r = safe_k_anonymize(table, LEVELS, k=5, beta=0.5, epsilon=1.0, rng=1)
    assert isinstance(r.data, pd.DataFrame) and len(r.data) == r.released


def test_safe_release_errors(census):
    _, table = census
    with pytest.raises(ConfigError, match="levels"):
        safe_k_anonymize(table, [1, 2], k=5, beta=0.2, epsilon=1.0)
    with pytest.raises(ConfigError, match=r"levels\['zip'\]"):
        safe_k_anonymize(table, {**LEVELS, "zip": 99}, k=5, beta=0.2, epsilon=1.0)
    with pytest.raises(ConfigError, match="no level"):
        safe_k_anonymize(table, {"zip": 1}, k=5, beta=0.2, epsilon=1.0)
    with pytest.raises(ConfigError, match="not below beta"):  # k = 1: δ ≥ β
        safe_k_anonymize(table, LEVELS, k=1, beta=0.2, epsilon=1.0)
    with pytest.raises(ConfigError, match="below"):
        safe_k_anonymize(table, LEVELS, k=5, beta=0.5, epsilon=0.5)
    with pytest.raises(InputError, match="MicroTable"):
        safe_k_anonymize(pl.DataFrame({"a": ["1"]}), [0], k=5, beta=0.2, epsilon=1.0)
