"""``croupier rake``: the rake presets and room rake tables a room file can name (R-RAKE-1, RULES.md §6).

One block per room table (``rake = "white-label"``: the row is picked by the table's structure and stakes) and
one line per preset schedule (``rake = "Caradepoker limit 1/2"``), with its rate, caps by players dealt in,
minimum, small-pot rate and source. Amounts are chips; the presets are the rulebooks' cents (1 chip = 0.01).
"""

from __future__ import annotations

import argparse

from engine import rake
from engine.rake import Ladder, Percentage, PerIncrement, RakeRate, RakeSchedule, RakeTable, StakesBand


def describe_rate(rate: RakeRate) -> str:
    """``2.5%``, ``5 per 100`` or ``pot 100: 10, 250: 25``."""
    if isinstance(rate, Percentage):
        percent = rate.numerator * 100 / rate.denominator
        return f"{percent:g}%"
    if isinstance(rate, PerIncrement):
        return f"{rate.chips} per {rate.increment}"
    assert isinstance(rate, Ladder)
    return "pot " + ", ".join(f"{threshold}: {taken}" for threshold, taken in rate.steps)


def describe_caps(caps: tuple[tuple[int, int], ...]) -> str:
    """``cap 75 (2 players), 200 (3-4), 300 (5-10)``; the first cap also covers fewer players than its own."""
    if not caps:
        return "no cap"
    parts = []
    for index, (players, cap) in enumerate(caps):
        low = 2 if index == 0 else players
        high = caps[index + 1][0] - 1 if index + 1 < len(caps) else 10
        span = str(low) if low == high else f"{low}-{high}"
        parts.append(f"{cap} ({span} players)" if index == 0 else f"{cap} ({span})")
    return "cap " + ", ".join(parts)


def describe_schedule(schedule: RakeSchedule) -> str:
    """One line: rate, caps, minimum, small pots, no flop no drop."""
    words = [describe_rate(schedule.rate), describe_caps(schedule.caps)]
    if schedule.minimum:
        words.append(f"minimum {schedule.minimum}")
    if schedule.small_pot_rate is not None:
        words.append(f"pots under {schedule.small_pot_limit}: {describe_rate(schedule.small_pot_rate)}")
    return "; ".join(words)


def _band(band: StakesBand | None) -> str:
    if band is None:
        return "any stakes"
    measure = band.measure.replace("_", " ")
    return f"{measure} {band.low}+" if band.high is None else f"{measure} {band.low}-{band.high}"


def describe_table(table: RakeTable) -> list[str]:
    """The table's rows in the order they are tried."""
    lines = [f'rake = "{table.name}"  ({table.source})']
    for row in table.rows:
        structures = "any structure" if row.structures == rake.STRUCTURES else ", ".join(sorted(row.structures))
        lines.append(f"  {structures}, {_band(row.band)}: {row.schedule.name}")
    return lines


def listing() -> list[str]:
    """Every line ``croupier rake`` prints."""
    lines = ["Room rake tables (the row is picked by the table's structure and stakes):"]
    for table in rake.TABLES.values():
        lines += describe_table(table)
    lines.append("")
    lines.append("Presets (amounts in chips; the rulebooks' cents, 1 chip = 0.01; no flop, no drop for flop games):")
    for name, schedule in rake.PRESETS.items():
        lines.append(f'rake = "{name}": {describe_schedule(schedule)}')
    return lines


def run(arguments: argparse.Namespace) -> int:
    print("\n".join(listing()))
    return 0
