"""``croupier reports --data DIR [--show ID]``: the hands players flagged for review (R-AUDIT-1).

Lists one report per line (id, time in UTC, reporter, hand, reason); ``--show ID`` prints one report with the
full hand history stored with it. Exit 2 when the data directory cannot be read, or the report does not exist.
What players wrote (names, reasons) is printed cleaned of escape sequences (:func:`engine.text.clean_text`): it
goes to the host's terminal.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from engine.text import clean_text
from hosting.commands.audit import data_dir_of
from hosting.store import StoreError, connect


def run(arguments: argparse.Namespace) -> int:
    try:
        connection = connect(data_dir_of(arguments), read_only=True)
    except StoreError as problem:
        print(f"croupier reports: {problem}", file=sys.stderr)
        return 2
    try:
        show = getattr(arguments, "show", None)
        if show is not None:
            row = connection.execute("SELECT id, at, reporter, hand_id, reason, history FROM reports WHERE id = ?",
                                     (show,)).fetchone()
            if row is None:
                print(f"croupier reports: there is no report {show}", file=sys.stderr)
                return 2
            print(_line(row))
            print()
            print(clean_text(str(row[5]), keep_newlines=True))
            return 0
        rows = connection.execute("SELECT id, at, reporter, hand_id, reason FROM reports ORDER BY id").fetchall()
    finally:
        connection.close()
    for row in rows:
        print(_line(row))
    print(f"croupier reports: {len(rows)} report(s)", file=sys.stderr)
    return 0


def _line(row: tuple[object, ...]) -> str:
    report_id, at, reporter, hand_id, reason = row[:5]
    when = datetime.fromtimestamp(float(str(at)), UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    words = clean_text(f"{reporter}  hand {hand_id}  {reason or '(no reason given)'}")
    return f"#{report_id}  {when}  {words}"
