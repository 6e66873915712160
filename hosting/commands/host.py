"""``croupier host [--port 2222] [--listen ADDRESS] [--config room.toml] [--data DIR] [--log-level LEVEL]``: run a
room that friends join over SSH. The data directory is claimed for the life of the process (one room per
directory); it must be the host's own (:func:`hosting.datadir.prepare`). ``--listen``: the one address to
listen on (default: every interface)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path

from engine.text import counted
from hosting import datadir
from hosting.config import AccessConfig, ConfigError, RoomConfig, default_room, load_room
from hosting.logging_setup import level_from, setup_logging
from hosting.server import RunningRoom, serve_forever, start_room
from hosting.store import StoreError
from hosting.table_runner import RunnerSettings
from tui.entry import SERVED_TUI


def share_host() -> str:
    """This machine's address as others on the network see it (no packet is sent), else its host name."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing decides the source address, nothing is sent
            address = str(probe.getsockname()[0])
            if not address.startswith("0."):
                return address
    except OSError:
        pass
    return socket.gethostname()


WILDCARDS = ("", "0.0.0.0", "::")
"""``--listen`` values meaning every interface."""


def banner(running: RunningRoom, host: str, listen: str = "") -> str:
    """What ``croupier host`` prints: the line to share, the host key fingerprint, the tables."""
    room = running.room
    where = f"port {running.port}" if listen in WILDCARDS else f"{listen} port {running.port} only"
    lines = [
        f"croupier room {room.config.name!r} is open on {where} ({_places(room.config)}).",
        "Share this line with your friends:",
        f"    {running.share_line(host)}",
        f"    (with croupier installed: croupier join {host}:{running.port})",
        *gate_words(room.config.access),
        f"Host key fingerprint (friends should see the same when they first connect): {running.fingerprint}",
        f"Data directory: {running.data_dir}",
    ]
    lines += [f"  {table.id:<14} {table.name} ({table.seats} seats, buy-in {table.min_buy_in}-{table.max_buy_in})"
              for table in room.config.tables]
    lines += [f"  {pool.table.id:<14} {pool.table.name} (fast-fold pool, {pool.table.seats} a hand, buy-in "
              f"{pool.table.min_buy_in}-{pool.table.max_buy_in})" for pool in room.config.pools]
    lines += [f"  {tournament.id:<14} {tournament.name} (tournament)" for tournament in room.config.tournaments]
    return "\n".join(lines)


def _places(config: RoomConfig) -> str:
    """"1 table, 1 fast-fold pool, 1 tournament": what the room file declared (none of a kind: left out)."""
    counts = [(len(config.tables), "table"), (len(config.pools), "fast-fold pool"),
              (len(config.tournaments), "tournament")]
    return ", ".join(counted(number, word) for number, word in counts if number) or counted(0, "table")


def gate_words(access: AccessConfig) -> list[str]:
    """What a friend needs besides the line, for the host to tell him (the password itself is never printed:
    the banner may be copied whole into a group chat).

    >>> gate_words(AccessConfig(password="x"))
    ['They also need the room password (room.toml: password): tell them yourself.']
    >>> gate_words(AccessConfig())
    []
    """
    needs = []
    if access.password:
        needs.append("the room password")
    if access.invite_codes:
        needs.append("for a name new here, an invite code" if needs else "an invite code for a name new here")
    keys = [key for key, present in (("password", access.password), ("invite_codes", access.invite_codes)) if present]
    lines = [f"They also need {' and, '.join(needs)} (room.toml: {', '.join(keys)}): tell them yourself."] \
        if needs else []
    if access.allow is not None:
        lines.append(f"Only the {len(access.allow)} names under allow in room.toml may log in.")
    return lines


ROOT_WARNING = ("croupier host: warning: running as root — the player screens run as root too. Make a user for "
                "the room (sudo adduser --disabled-password poker) and run it there (README, \"What not to do\").")


def runner_settings() -> RunnerSettings | None:
    """Faster table pacing for tests and demos: ``CROUPIER_HAND_PAUSE`` (seconds between hands)."""
    pause = os.environ.get("CROUPIER_HAND_PAUSE")
    return RunnerSettings(pause_between_hands=float(pause)) if pause else None


def warn_if_root() -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        print(ROOT_WARNING, file=sys.stderr, flush=True)


async def _run(config: RoomConfig, data_dir: Path, port: int, listen: str = "") -> int:
    try:
        running = await start_room(config, data_dir, host=listen, port=port, runner_settings=runner_settings(),
                                   served_tui=SERVED_TUI)
    except OSError as problem:
        where = f"port {port}" if listen in WILDCARDS else f"{listen} port {port}"
        print(f"croupier host: cannot listen on {where}: {problem.strerror or problem}", file=sys.stderr)
        return 1
    warn_if_root()  # once the room is open: a refused start keeps its one line
    print(banner(running, share_host() if listen in WILDCARDS else listen, listen), flush=True)
    running.prepare_player_screens()  # in the background: plain-ssh players then see the lobby at once
    stop = stop_on_signals()
    running.room.console.on_close = stop.set  # a host's `close` (after its countdown) is a Ctrl+C
    await serve_forever(running, stop)
    say_closed()
    return 0


def say_closed() -> None:
    with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
        print("croupier host: room closed.", file=sys.stderr)


def stop_on_signals() -> asyncio.Event:
    """An event set by SIGTERM (``kill PID``), and by SIGHUP unless it is ignored (``nohup``): the room then
    closes as on Ctrl+C (players told, their terminals restored) instead of dying on the spot."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(number) is not signal.SIG_IGN:
            loop.add_signal_handler(number, stop.set)
    return stop


def run(arguments: argparse.Namespace) -> int:
    try:
        config = load_room(arguments.config) if arguments.config else default_room()
    except ConfigError as problem:
        print(f"croupier host: {problem}", file=sys.stderr)
        return 2
    log_level = getattr(arguments, "log_level", None)
    try:
        level_from(log_level)  # a bad CROUPIER_LOG_LEVEL is named before anything is touched
    except ValueError as problem:
        print(f"croupier host: {problem}", file=sys.stderr)
        return 2
    data_dir = Path(arguments.data).expanduser() if arguments.data else datadir.default_data_dir()
    try:
        datadir.claim(datadir.prepare(data_dir))  # one room per data directory, for the life of this process
    except (datadir.DataDirInUse, datadir.SharedDirectory) as problem:
        print(f"croupier host: {problem}", file=sys.stderr)
        return 2
    except OSError as problem:
        print(f"croupier host: cannot use the data directory {data_dir}: {problem.strerror or problem}",
              file=sys.stderr)
        return 2
    try:
        return _serve(config, data_dir, arguments.port, log_level, getattr(arguments, "listen", "") or "")
    finally:
        datadir.release(data_dir)


def _serve(config: RoomConfig, data_dir: Path, port: int, log_level: str | None, listen: str = "") -> int:
    try:
        setup_logging(data_dir, "host", log_level)  # warnings and errors of the room go to host.log
    except OSError as problem:
        print(f"croupier host: cannot write the log in {data_dir}: {problem.strerror or problem}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_run(config, data_dir, port, listen))
    except StoreError as problem:  # bad data directory, corrupted or newer database: nothing was changed
        print(f"croupier host: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        say_closed()
        return 0
