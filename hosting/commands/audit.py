"""``croupier audit --data DIR``: check a room's chips, ledger and shuffle proofs (DESIGN.md "Persistence and
recovery", R-CRASH-1, R-FAIR-1).

Every finished hand's transcript is re-verified against every card its events show dealt; in a draw game that
ran out of cards that includes the cards dealt from reshuffled discards, each reshuffle replayed from the
published discards and recomputed from the seeds (R-DRAW-1, :func:`engine.fairness.verify`).

Prints one line per finding on standard output and a summary on standard error. Exit status: 0 clean,
1 findings, 2 the data directory or database cannot be read (one line saying why; nothing is written: the
database is opened read-only).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from hosting import datadir
from hosting.ledger import audit, holdings
from hosting.store import StoreError, connect


def data_dir_of(arguments: argparse.Namespace) -> Path:
    """``--data DIR``, else the platform's user data directory (as ``croupier host`` uses)."""
    value = getattr(arguments, "data", None)
    return Path(value).expanduser() if value else datadir.default_data_dir()


def reshuffle_counts(connection: sqlite3.Connection) -> tuple[int, int]:
    """``(reshuffles, hands)``: the reshuffles recorded in finished hands' transcripts, and in how many hands.
    A transcript that cannot be read counts for nothing here (the audit already reports it)."""
    reshuffles = hands = 0
    rows = connection.execute("SELECT transcript FROM hands WHERE status = 'finished' "
                              "AND transcript LIKE '%\"reshuffles\"%'")
    while batch := rows.fetchmany(200):
        for (text,) in batch:
            try:
                records = json.loads(text).get("reshuffles")
            except (ValueError, TypeError, AttributeError):
                continue
            if isinstance(records, list) and records:
                reshuffles += len(records)
                hands += 1
    return reshuffles, hands


def run(arguments: argparse.Namespace) -> int:
    try:
        connection = connect(data_dir_of(arguments), read_only=True)
    except StoreError as problem:
        print(f"croupier audit: {problem}", file=sys.stderr)
        return 2
    try:
        findings = audit(connection)
        counts = dict(connection.execute("SELECT status, COUNT(*) FROM hands GROUP BY status").fetchall())
        issued = holdings(connection).get("issue", 0)
        reshuffles, reshuffled_hands = reshuffle_counts(connection)
    finally:
        connection.close()
    for finding in findings:
        print(finding)
    hands = ", ".join(f"{counts.get(status, 0)} {status}" for status in ("finished", "voided", "running"))
    verdict = f"{len(findings)} finding(s)" if findings else "clean"
    replayed = f"; {reshuffles} reshuffle(s) in {reshuffled_hands} draw hand(s) checked" if reshuffles else ""
    print(f"croupier audit: {issued} chips issued; hands: {hands}; {verdict}{replayed}", file=sys.stderr)
    return 1 if findings else 0
