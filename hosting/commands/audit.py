"""``croupier audit --data DIR``: check a room's chips, ledger and shuffle proofs (DESIGN.md "Persistence and
recovery", R-CRASH-1, R-FAIR-1).

Prints one line per finding on standard output and a summary on standard error. Exit status: 0 clean,
1 findings, 2 the data directory or database cannot be read (one line saying why; nothing is written: the
database is opened read-only).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hosting import datadir
from hosting.ledger import audit, holdings
from hosting.store import StoreError, connect


def data_dir_of(arguments: argparse.Namespace) -> Path:
    """``--data DIR``, else the platform's user data directory (as ``croupier host`` uses)."""
    value = getattr(arguments, "data", None)
    return Path(value).expanduser() if value else datadir.default_data_dir()


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
    finally:
        connection.close()
    for finding in findings:
        print(finding)
    hands = ", ".join(f"{counts.get(status, 0)} {status}" for status in ("finished", "voided", "running"))
    verdict = f"{len(findings)} finding(s)" if findings else "clean"
    print(f"croupier audit: {issued} chips issued; hands: {hands}; {verdict}", file=sys.stderr)
    return 1 if findings else 0
