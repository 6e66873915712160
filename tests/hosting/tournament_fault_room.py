"""A room with one multi-table tournament and shoving bots in one process, for the tournament crash test (R-CRASH-1
for tournaments): ``python -m tests.hosting.tournament_fault_room DATA PLAYERS [SEATS]`` (seats per table, 4).

Opens the store in ``DATA`` (recovering from the previous kill), builds the room (a tournament kept by the store is
restored where it was), connects the bots (each registers while registration is open), then prints one JSON line
per change: ``{"phase", "hands", "live", "clock"}``, and ``done`` when the tournament is over.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from engine.tournament.director import Phase
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room

KEYS = ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIN5e0ueWTsxlxcVcFZwdqzrMkZc6rp2Q6aMNshsGJ25o",)
"""A stable key per bot (the key with his name appended: the room compares keys, it does not parse them here)."""


def names(players: int) -> list[str]:
    return [f"p{index:02d}" for index in range(1, players + 1)]


async def main(data: Path, players: int, seats: int = 4) -> None:
    store = Store.open(data / "store")
    for name in names(players):
        if not store.has_account(name):
            store.register(name, f"ssh-ed25519 AAAA{name}")
    config = sit_and_go("mtt", size=players, seats=seats, level_seconds=3.0)
    room = tournament_room(data / "room", store, (config,))
    room.start()
    owner = room.tournaments.owners.get("mtt")
    if owner is None:  # over before this start: the room keeps it, and does not play it again
        print("done", flush=True)
        await room.stop()
        return
    bots = [await Shover.join(room, name, shove_rate=0.08, public_key=KEYS[index % len(KEYS)] + name)
            for index, name in enumerate(names(players))]
    if owner.director.phase is Phase.REGISTERING:
        for bot in bots:
            if not owner.director.entries_of(bot.name):
                await bot.connection.send("tournament", action="register", tournament="mtt")
    seen = None
    while not owner.over:
        director = owner.director
        now = (director.phase.value, director.hands, director.live_count)
        if now != seen:
            seen = now
            print(json.dumps({"phase": now[0], "hands": now[1], "live": now[2],
                              "clock": round(director.elapsed(owner.clock.now()), 2)}), flush=True)
        await asyncio.sleep(0.02)
    await store.flush()
    print("done", flush=True)
    for bot in bots:
        await bot.stop()
    await room.stop()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), *(int(value) for value in sys.argv[3:4])))
