"""``croupier replay FILE_OR_DIR…``: replay PHH hand records through the engine (issue 3).

One JSON line per hand::

    {"file": …, "variant": …, "finishing_stacks": […], "expected": […] | null, "match": true | false | null}

with ``"error": "…"`` when a hand cannot be replayed, then one summary line
``{"summary": {...}}`` with the counts per variant and the hands per second. A several-hands file (``.phhs``,
PHH's ``[1]``, ``[2]``… sections, as ``croupier export --format phh`` writes) gives one line per section, with
``"hand": "<section name>"`` after ``"file"``. Directories are searched for ``*.phh`` and ``*.phhs``
recursively, in sorted order. Variants the engine does not play say ``"error": "unsupported variant …"``
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

from engine.phh import HandRecord, PhhError, ReplayResult, loads, record_from_toml, replay, split_records


def _number(value: Fraction) -> int | float:
    """JSON number of a chip amount: an int when whole (almost always), else the float (.5 records)."""
    return value.numerator if value.denominator == 1 else float(value)


def _numbers(values: Sequence[Fraction] | None) -> list[int | float] | None:
    return None if values is None else [_number(value) for value in values]


def record_files(paths: Iterable[str]) -> Iterator[Path]:
    """Every ``.phh``/``.phhs`` file named or under a named directory, sorted within each directory."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(found for found in path.rglob("*.phh*") if found.suffix in (".phh", ".phhs"))
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
    return _replay_record(record, line)


def replay_records(path: Path) -> list[tuple[dict[str, object], str]]:
    """Replay every hand of one file (one record, or each section of a several-hands file) as
    :func:`replay_file` does; a section's line names it in ``"hand"``."""
    try:
        text = path.read_text(encoding="utf-8")
        if text.lstrip().startswith("PokerStars Hand #"):
            raise PhhError("this is PokerStars-style text; croupier replay reads PHH (croupier export --format phh)")
        sections = split_records(text)
    except (OSError, UnicodeDecodeError, PhhError) as error:
        return [({"file": str(path), "variant": None, "finishing_stacks": None, "expected": None, "match": None,
                  "error": str(error)}, "error")]
    results = []
    for name, data in sections:
        line: dict[str, object] = {"file": str(path)} if name is None else {"file": str(path), "hand": name}
        try:
            record = record_from_toml(data)
        except PhhError as error:
            line.update(variant=None, finishing_stacks=None, expected=None, match=None, error=str(error))
            results.append((line, "error"))
            continue
        results.append(_replay_record(record, line))
    return results


def _replay_record(record: HandRecord, line: dict[str, object]) -> tuple[dict[str, object], str]:
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
    files = 0
    for path in record_files(paths):
        files += 1
        for line, outcome in replay_records(path):
            out.write(json.dumps(line) + "\n")
            counts[outcome] += 1
            by_variant.setdefault(str(line["variant"]), Counter())[outcome] += 1
    seconds = time.perf_counter() - started
    replayed = counts["matched"] + counts["mismatched"] + counts["unchecked"]
    return {
        "files": files,
        "hands": sum(counts.values()),
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
