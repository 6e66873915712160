"""``croupier replay FILE_OR_DIR…``: replay PHH hand records through the engine (issue 3).

One JSON line per file::

    {"file": …, "variant": …, "finishing_stacks": […], "expected": […] | null, "match": true | false | null}

with ``"error": "…"`` when a file cannot be replayed, then one summary line
``{"summary": {...}}`` with the counts per variant and the hands per second. Directories are searched for
``*.phh`` recursively, in sorted order. Variants the engine does not play say ``"error": "unsupported variant …"``
and are counted apart. Exit status: 0 when every supported file replays and matches (files without
``finishing_stacks`` only need to replay), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from engine.phh import PhhError, ReplayResult, loads, replay


def _number(value: Fraction) -> int | float:
    """JSON number of a chip amount: an int when whole (almost always), else the float (.5 records)."""
    return value.numerator if value.denominator == 1 else float(value)


def _numbers(values: Sequence[Fraction] | None) -> list[int | float] | None:
    return None if values is None else [_number(value) for value in values]


def record_files(paths: Iterable[str]) -> Iterator[Path]:
    """Every ``.phh`` file named or under a named directory, sorted within each directory."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(path.rglob("*.phh"))
        else:
            yield path


def replay_file(path: Path) -> tuple[dict[str, object], str]:
    """Replay one file; returns its JSON line as a dict and its outcome: ``matched``, ``mismatched``,
    ``unchecked`` (no expected stacks), ``unsupported`` or ``error``."""
    line: dict[str, object] = {"file": str(path)}
    try:
        record = loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, PhhError) as error:
        line.update(variant=None, finishing_stacks=None, expected=None, match=None, error=str(error))
        return line, "error"
    try:
        result = replay(record)
    except Exception as error:  # an engine bug must not stop a corpus run: report it on the file's line
        result = ReplayResult(record.variant, None, record.finishing_stacks, None, True,
                              f"internal error: {type(error).__name__}: {error}")
    line.update(
        variant=result.variant,
        finishing_stacks=_numbers(result.finishing_stacks),
        expected=_numbers(result.expected),
        match=result.match,
    )
    if result.error is not None:
        line["error"] = result.error
    if not result.supported:
        return line, "unsupported"
    if result.error is not None:
        return line, "error"
    if result.match is None:
        return line, "unchecked"
    return line, "matched" if result.match else "mismatched"


def replay_paths(paths: Iterable[str], out: TextIO) -> dict[str, object]:
    """Replay every record under ``paths``, writing one JSON line each to ``out``; returns the summary."""
    counts: Counter[str] = Counter()
    by_variant: dict[str, Counter[str]] = {}
    started = time.perf_counter()
    for path in record_files(paths):
        line, outcome = replay_file(path)
        out.write(json.dumps(line) + "\n")
        counts[outcome] += 1
        by_variant.setdefault(str(line["variant"]), Counter())[outcome] += 1
    seconds = time.perf_counter() - started
    replayed = counts["matched"] + counts["mismatched"] + counts["unchecked"]
    return {
        "files": sum(counts.values()),
        "matched": counts["matched"],
        "mismatched": counts["mismatched"],
        "errors": counts["error"],
        "unchecked": counts["unchecked"],
        "unsupported": counts["unsupported"],
        "by_variant": {variant: dict(sorted(outcome.items())) for variant, outcome in sorted(by_variant.items())},
        "seconds": round(seconds, 3),
        "hands_per_second": round(replayed / seconds, 1) if seconds > 0 else None,
    }


def run(arguments: argparse.Namespace) -> int:
    """Entry point of ``croupier replay``; exit 1 if a supported file mismatches or cannot be replayed."""
    summary = replay_paths(arguments.paths, sys.stdout)
    print(json.dumps({"summary": summary}))
    failed = summary["mismatched"] or summary["errors"]
    return 1 if failed else 0
