"""``croupier admin ACTION … --data DIR``: the host console's command line (hosting.admin), one request to the
running room over its admin socket (hosting.admin_socket). Prints the room's answer; exit 0 done, 1 refused,
2 no room answers there (or bad arguments)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from hosting.admin_parser import request_of
from hosting.admin_socket import ask, socket_path
from hosting.admin_status import status_text
from hosting.commands.audit import data_dir_of


def _confirmed(player: str) -> bool:
    """Ask on the terminal before a key reset (``--yes`` skips it)."""
    if not sys.stdin.isatty():
        print("croupier admin: reset-key needs --yes when not run from a terminal", file=sys.stderr)
        return False
    answer = input(f"Reset {player}'s key? The next login as {player} takes the name. Type the name to confirm: ")
    return answer.strip() == player


def run(arguments: argparse.Namespace) -> int:
    data_dir = data_dir_of(arguments)
    request = request_of(arguments)
    if request["action"] == "reset_key" and not request["confirm"]:
        if not _confirmed(request["player"]):
            print("croupier admin: not confirmed; nothing changed", file=sys.stderr)
            return 1
        request["confirm"] = True
    try:
        reply = asyncio.run(ask(data_dir, request))
    except (OSError, TimeoutError, ValueError) as problem:
        print(f"croupier admin: no room answers at {socket_path(data_dir)} ({problem.__class__.__name__}): "
              "is `croupier host` running with this --data?", file=sys.stderr)
        return 2
    if not reply.get("ok"):
        print(f"croupier admin: {reply.get('error', 'refused')}", file=sys.stderr)
        return 1
    if request["action"] == "status" and getattr(arguments, "json", False):
        print(json.dumps({key: value for key, value in reply.items() if key != "ok"}, indent=1))
    elif request["action"] == "status":
        print(status_text(reply))
    else:
        print(reply.get("text", "done"))
    return 0
