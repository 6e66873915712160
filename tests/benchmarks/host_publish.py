"""The room's fan-out per hand without SSH: a table's hands published to its audience through the table runner.

    python tests/benchmarks/host_publish.py [--hands 300] [--watchers 2]

Six players seated at one hold'em table, ``--watchers`` watching, every connection a transport that encodes
what it is sent as a channel does (``protocol.encode``). Each hand is started on the engine and played check or
call to its end; every batch of events goes out through :meth:`hosting.table_runner.TableRunner.publish` (views,
encoding, the table's seats, action requests). Prints one JSON line: CPU microseconds per hand and per message
sent (process time: steadier than wall time on a shared machine). Issue 20's yardstick for the host's own work
per hand, SSH aside (``load.py`` measures the whole).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from engine.actions import Call, Check
from engine.cards import full_deck
from hosting import protocol
from hosting.identity import Login
from hosting.table_runner import TableRunner
from tests.tui.roombots import make_room, table

PLAYERS = ("ana", "bob", "cy", "dee", "eve", "fay")


class Channel:
    """Encodes every message it is sent, as :class:`hosting.server.ChannelTransport` does."""

    def __init__(self) -> None:
        self.sent = 0
        self.bytes = 0

    def send(self, message: Mapping[str, Any]) -> None:
        self.sent += 1
        self.bytes += len(protocol.encode(message))

    def close(self, reason: str) -> None:
        pass


def run(hands: int, watchers: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        room = make_room(Path(folder) / "data", [table("t1")])
        names = (*PLAYERS, *(f"watcher{index}" for index in range(watchers)))
        channels = {name: Channel() for name in names}
        sessions = {name: room.connect(Login(name, f"ssh-ed25519 AAAA{name}", "127.0.0.1"), channels[name])
                    for name in names}
        state = room.tables["t1"]
        for name in PLAYERS:
            room.seat_player(name, state, 200, None, 0.0)
        for name in names[len(PLAYERS):]:
            room.receive(sessions[name], protocol.parse_message(b'{"v":1,"type":"watch","table":"t1"}'))
        runner = room.drivers["t1"]
        assert isinstance(runner, TableRunner)
        engine = state.engine
        deck = full_deck()
        now = 1.0
        started = time.process_time()
        for _ in range(hands):
            now += 1.0
            runner.publish(engine.start_hand(deck, now, button_draw_deck=deck))
            while engine.hand is not None:
                options = engine.hand.legal_actions()
                assert options is not None
                player = engine.players[options.seat].player
                action = Check() if options.can_check else Call()
                runner.publish(engine.act(player, action, now))
            for name in PLAYERS:  # keep every stack playing (no player busts out of the benchmark)
                seated = engine.player(name)
                seated.stack = 200
            runner._card_events.clear()
        seconds = time.process_time() - started
    sent = sum(channel.sent for channel in channels.values())
    return {"benchmark": "host_publish", "hands": hands, "players": len(PLAYERS), "watchers": watchers,
            "cpu_us_per_hand": round(1e6 * seconds / hands), "cpu_us_per_message": round(1e6 * seconds / sent, 2),
            "messages_per_hand": round(sent / hands, 1),
            "bytes_per_hand": round(sum(channel.bytes for channel in channels.values()) / hands)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--watchers", type=int, default=2)
    arguments = parser.parse_args()
    print(json.dumps(run(arguments.hands, arguments.watchers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
