"""``croupier bots --connect HOST:PORT --count N --hands H [--think MIN-MAX]``: N bot clients over real SSH
(thinking MIN to MAX seconds before each move); one JSON line.
``--tournament ID`` instead: the bots register for that tournament and play it to its end (issue 18)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

import asyncssh

from hosting.bots import RoomSilent, parse_think, run_bots
from hosting.client import GatesRefused, RequestRefused
from hosting.tournament_bots import run_tournament_bots


def parse_address(text: str) -> tuple[str, int]:
    """``"host:2222"`` → ``("host", 2222)``; ``ValueError`` with a readable message otherwise."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--connect expects HOST:PORT, e.g. localhost:2222, got {text!r}")
    return host.strip("[]"), int(port)


def run(arguments: argparse.Namespace) -> int:
    try:
        host, port = parse_address(arguments.connect)
        think = parse_think(arguments.think)
    except ValueError as problem:
        print(f"croupier bots: {problem}", file=sys.stderr)
        return 2
    if arguments.count < (1 if arguments.tournament else 2) or arguments.hands < 1:
        print("croupier bots: --count must be at least 2 (1 with --tournament) and --hands at least 1",
              file=sys.stderr)
        return 2
    if arguments.tournament and arguments.table:
        print("croupier bots: --table or --tournament, not both", file=sys.stderr)
        return 2
    try:
        if arguments.tournament:
            summary = asyncio.run(run_tournament_bots(host, port, arguments.count, arguments.tournament,
                                                      seed=arguments.seed, style=arguments.style,
                                                      password=arguments.password, invite=arguments.invite,
                                                      think=think))
        else:
            summary = asyncio.run(run_bots(host, port, arguments.count, arguments.hands, seed=arguments.seed,
                                           table=arguments.table, style=arguments.style,
                                           password=arguments.password, invite=arguments.invite, think=think))
    except KeyboardInterrupt:  # Ctrl+C: run_bots was cancelled, and every bot sent its leave on the way out
        print("croupier bots: interrupted; the bots left their seats", file=sys.stderr)
        return 130
    except GatesRefused as refused:
        options = " and ".join(f"--{gate}" for gate in refused.missing)
        print(f"croupier bots: {refused}" + (f": add {options}" if options else ""), file=sys.stderr)
        return 1
    except RequestRefused as refused:
        print(f"croupier bots: the room refused: {refused.reply.get('message') or refused.reply.get('code')}",
              file=sys.stderr)
        return 1
    except RoomSilent as problem:
        print(f"croupier bots: {problem}", file=sys.stderr)
        return 1
    except TimeoutError:
        print(f"croupier bots: {host}:{port} did not answer in time", file=sys.stderr)
        return 1
    except asyncssh.PermissionDenied as problem:  # the room's reason when it gave one (hosting.client)
        print(f"croupier bots: the room refused the login: {problem.reason}", file=sys.stderr)
        return 1
    except asyncssh.Error as problem:
        print(f"croupier bots: SSH error with {host}:{port}: {problem.reason}", file=sys.stderr)
        return 1
    except (OSError, RuntimeError) as problem:
        print(f"croupier bots: {problem or type(problem).__name__}", file=sys.stderr)
        return 1
    print(json.dumps(summary))
    if arguments.tournament:
        finished = summary["completed"] or summary["room_closed"]  # the room closing under them is no failure
        return 0 if summary["fairness_failures"] == 0 and summary.get("host_blind_failures", 0) == 0 \
            and summary["unverified"] == 0 and finished else 1
    return 0 if summary["fairness_failures"] == 0 and summary["chips_conserved"] else 1
