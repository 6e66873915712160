"""A fast-fold pool room on loopback and players in it: the set-up the pool tests shared by copy (issue 28's
review). The room's text comes from :mod:`tests.hosting.room_files`."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import asyncssh

from hosting.bots import play
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.server import RunningRoom, start_room
from hosting.table_runner import RunnerSettings

POOL_SETTINGS = RunnerSettings(commit_seconds=10.0, reveal_seconds=10.0, pause_between_hands=0.0)
"""Each hand's commitments and reveals get 10 s (a loaded 2-core machine), hands follow back to back."""


async def start_pool_room(text: str, data_dir: Path) -> RunningRoom:
    """The room of room-file ``text`` on a free loopback port, dealing with :data:`POOL_SETTINGS`; no served TUI
    (its clients are bots)."""
    return await start_room(parse_room(text), data_dir, host="127.0.0.1", port=0, runner_settings=POOL_SETTINGS,
                            served_tui=False)


async def clients_of(running: RunningRoom, names: Sequence[str]) -> list[RoomClient]:
    """A client over SSH for each of ``names``, each with a fresh key (each name registered anew)."""
    return [await RoomClient.connect("127.0.0.1", running.port, name,
                                     client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
            for name in names]


@contextlib.asynccontextmanager
async def pool_in_play(text: str, data_dir: Path,
                       names: Sequence[str]) -> AsyncIterator[tuple[RunningRoom, list[RoomClient]]]:
    """The pool room of ``text`` with ``names`` playing its pool ``zoom`` (:func:`hosting.bots.play`, each its
    own seed) until the block ends; then they stop and leave, and the room closes."""
    running = await start_pool_room(text, data_dir)
    clients: list[RoomClient] = []
    done = asyncio.Event()
    players: list[asyncio.Future[object]] = []
    try:
        clients = await clients_of(running, names)
        players = [asyncio.ensure_future(play(client, "zoom", 10**6, random.Random(index), done=done))
                   for index, client in enumerate(clients)]
        yield running, clients
    finally:
        done.set()
        for task in players:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 60)
        for client in clients:
            await client.close()
        await running.close()
