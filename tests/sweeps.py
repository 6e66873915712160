"""How large the large sweeps run: a faithful sample by default (CI, ``scripts/test``), the issues' full sizes
with ``CROUPIER_FULL=1`` (README "Running the tests"). A sweep's own variable (``CROUPIER_TABLE_EXAMPLES=…``)
wins over both. The sample keeps every game, structure, seat count and seed of the full sweep; only the number
of hands, examples or messages is smaller, so a defect the full sweep finds in one hand out of a few hundred is
still likely to be found, and ``CROUPIER_FULL=1`` finds the rarer ones before a release.

Sweeps sized here are marked ``slow`` (``-m "not slow"`` leaves them out for a quick local run).
"""

from __future__ import annotations

import os

FULL = os.environ.get("CROUPIER_FULL", "") not in ("", "0")


def sweep(variable: str, sample: int, full: int) -> int:
    """The size of one sweep: ``$variable`` if set, else ``full`` under ``CROUPIER_FULL=1``, else ``sample``.

    >>> sweep("CROUPIER_NO_SUCH_SWEEP", 10, 100) == (100 if FULL else 10)
    True
    """
    value = os.environ.get(variable, "").strip()
    if value:
        return int(value)
    return full if FULL else sample
