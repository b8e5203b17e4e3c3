"""The progress convention of privlab's long-running functions.

Library functions never print.  One that can run for more than a couple of seconds takes an
optional ``progress`` callback and calls ``progress(done, total)`` as it goes: ``done`` units
of work out of ``total`` (nodes of a lattice, records, edges, trees, ...; the function's
docstring says which), ``0 ≤ done ≤ total``.  The command line draws a bar from it on a
terminal; the call must be cheap, so functions call it at most about once per unit of work
that costs more than a few microseconds.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``progress(done, total)``.
ProgressFn = Callable[[int, int], None]

__all__ = ["ProgressFn"]
