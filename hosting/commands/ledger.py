"""``croupier ledger --data DIR [--session NAME|NUMBER] [--format text|csv]``: the settle-up of a session of the
room (hosting.settle_up): each player's buy-ins, top-ups, cash-outs and net, then who pays whom in the fewest
transfers. Read-only: a running room is fine. Exit 0, or 2 with one line (no room there, no such session).
"""

from __future__ import annotations

import argparse
import sys
import time

from hosting.commands.audit import data_dir_of
from hosting.settle_up import find_session, sessions, settle_up, to_csv, to_text
from hosting.store import StoreError, connect


def run(arguments: argparse.Namespace) -> int:
    try:
        connection = connect(data_dir_of(arguments), read_only=True)
    except StoreError as problem:
        print(f"croupier ledger: {problem}", file=sys.stderr)
        return 2
    try:
        connection.execute("BEGIN")  # one picture, however a running room writes meanwhile
        if getattr(arguments, "list", False):
            for item in sessions(connection):
                state = "open" if item.closed_at is None else time.strftime("to %Y-%m-%d %H:%M",
                                                                            time.localtime(item.closed_at))
                print(f"{item.id}  {item.name}  from {time.strftime('%Y-%m-%d %H:%M', time.localtime(item.opened_at))}"
                      f" {state}")
            return 0
        try:
            session = find_session(connection, arguments.session)
        except LookupError as problem:
            print(f"croupier ledger: {problem}", file=sys.stderr)
            return 2
        result = settle_up(connection, session, time.time())
    finally:
        connection.close()
    sys.stdout.write(to_csv(result) if arguments.format == "csv" else to_text(result) + "\n")
    return 0
