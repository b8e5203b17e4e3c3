"""Strict JSON: what privlab prints with ``--json`` and writes into its JSON files.

``json.dumps`` writes ``Infinity`` and ``NaN`` by default, which no JSON parser must accept.
:func:`dumps` refuses them (``allow_nan=False``) after :func:`strict` has replaced each
non-finite float by ``null`` and recorded why under the top-level key ``"nulls"`` (the
JSON path of each replaced value → ``"+inf"``, ``"-inf"`` or ``"nan"``), so a reader can
tell a missing value from an infinite one.  numpy scalars and arrays become plain numbers
and lists.  O(size of the payload).
"""

from __future__ import annotations

import json
import math
from typing import Any

NULLS_KEY = "nulls"


def _plain(value: Any) -> Any:
    """numpy scalars / arrays and other array-likes as Python values."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if hasattr(value, "__fspath__"):
        return str(value)
    return value


def strict(payload: Any) -> Any:
    """``payload`` with every non-finite float replaced by None (see the module docstring)."""
    nulls: dict[str, str] = {}

    def walk(value: Any, path: str) -> Any:
        value = _plain(value)
        if isinstance(value, float) and not math.isfinite(value):
            nulls[path or "$"] = "nan" if math.isnan(value) else ("+inf" if value > 0 else "-inf")
            return None
        if isinstance(value, dict):
            return {str(k): walk(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v, f"{path}[{i}]") for i, v in enumerate(value)]
        return value

    out = walk(payload, "")
    if nulls:
        if isinstance(out, dict):
            out = {**out, NULLS_KEY: {**out.get(NULLS_KEY, {}), **nulls}}
        else:
            out = {"value": out, NULLS_KEY: nulls}
    return out


def dumps(payload: Any, *, indent: int | None = 2, sort_keys: bool = False) -> str:
    """Strict JSON text of ``payload`` (never ``NaN``/``Infinity``)."""
    return json.dumps(
        strict(payload), indent=indent, allow_nan=False, sort_keys=sort_keys, default=str
    )
