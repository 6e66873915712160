"""``python -m tui.served --socket PATH --token TOKEN``: the TUI a plain-ssh player sees (hosting/pty_session.py).

Started by the room on its own pseudo-terminal; connects back to the room's local socket with its one-time
token. A failure is logged (``--log``) and summed up in one line, never shown as a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from tui.app import CroupierApp
from tui.connection import StreamConnection


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="croupier-served-tui")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--token", required=True, help="give it as --token=VALUE (a token may start with '-')")
    parser.add_argument("--log")
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)

    async def connect() -> StreamConnection:
        return await StreamConnection.open_unix(arguments.socket, arguments.token)

    # the token is good for one connection: when the local link drops, the session is over (ssh again)
    app = CroupierApp(connect, log_path=Path(arguments.log) if arguments.log else None, reconnect=False)
    try:
        app.run()
    except Exception:  # never a traceback on the player's screen
        logging.getLogger("croupier.tui").exception("the served TUI stopped")
        print("croupier: the table screen stopped unexpectedly; the host's log has the details.", file=sys.stderr)
        return 1
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
