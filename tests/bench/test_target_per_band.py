"""The `target` scheme's group_target=own (seed 001 §3.7 Fig. 3.5): a target per age band."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.bench.registry.cells import Cell
from privlab.bench.registry.datasets import CAPITAL_LOSS
from privlab.bench.registry.schemes import SCHEMES
from privlab.errors import ConfigError
from privlab.table.permutation.synthetic import age_capital_loss


def _frame():
    return age_capital_loss(400, noise=1, seed=2).rename({"capital_loss": CAPITAL_LOSS})


def _apply(frame, value, **params):
    cell = Cell("target", params, "groups", value, 11, {})
    return SCHEMES["target"].apply(frame, value, cell).data


def test_one_band_with_its_own_target_is_the_shared_release():
    frame = _frame()
    for target in ("uniform", "source"):
        own = _apply(frame, 1, target=target, group_target="own", mode="qi-sa")
        shared = _apply(frame, 1, target=target, mode="qi-sa")
        assert own.sa.equals(shared.sa)


def test_each_band_generalizes_only_within_its_own_values():
    """With a target per band, no published subdomain leaves its band's value range; with
    one uniform target for all bands, some do (the wide subdomains the seed avoids)."""
    frame = _frame()
    own = _apply(frame, 10, target="uniform", domain="range", group_target="own")
    shared = _apply(frame, 10, target="uniform", domain="range")
    assert own.parameters["owner_groups"] == 10
    x = frame[CAPITAL_LOSS].to_numpy()

    def leaks(rel):
        band = {}
        for g, row in zip(rel.qi["group_id"].to_list(), rel.source_rows.tolist(), strict=True):
            band.setdefault(g, []).append(x[row])
        out = 0
        for g, lo, hi in rel.sa.iter_rows():
            out += lo < np.min(band[g]) or hi > np.max(band[g])
        return out

    assert leaks(own) == 0
    assert leaks(shared) > 0


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(group_target="mine"), "group_target"),
        (dict(group_target="own", shift=0.5), "shift"),
        (dict(group_target="own", split="random"), "split"),
    ],
)
def test_bad_options_are_named(params, match):
    with pytest.raises(ConfigError, match=match):
        _apply(_frame(), 2, target="uniform", **params)
