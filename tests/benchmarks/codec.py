"""Benchmark: the one event encoding (hosting/hand_codec.py, msgspec) against the two hand-written ones it
replaced (hosting/views.py and the old hosting/hand_codec.py, read from git at ``BASELINE``). One JSON line.

``python tests/benchmarks/codec.py [ROUNDS]`` (default 300). The hands are real engine hands of bot tables
(``tests/hosting/store_play.py``: six-handed hold'em and Omaha), each with its whole event log.

- ``store``: a hand's log encoded to the stored JSON text and decoded back into typed events, µs per hand:
  ``old`` = ``json.dumps(events_to_json(...))`` + the hand-written ``events_from_json(json.loads(...))``;
  ``new`` = :func:`encode_events` + :func:`decode_events`.
- ``wire``: one seat's view of a hand, every event as a protocol line (``protocol.encode``) and read back by a
  client, µs per hand: ``old`` = views' ``event_to_json`` and ``json.loads`` (dicts: no typed decode at all);
  ``new`` = :func:`view_bodies`, then :func:`protocol.read_room_message` (typed events).
- ``decode_only``: the typed decode alone, hand-written converters vs msgspec, µs per hand (same JSON input).
- ``inbound_us_per_message``: a client's line parsed and checked (``protocol.parse_message``), the hand-written
  checker of ``PROTOCOL_BASELINE`` vs the typed schemas (msgspec), over one valid line of every message type.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _on_path import REPOSITORY  # first: as a file, the repository's tests package (_on_path.py)

from engine.events import Event, view_for
from hosting import protocol
from hosting.hand_codec import decode_events, encode_events, events_from_json, view_bodies
from hosting.store import Store
from tests.hosting.store_play import open_room
from tests.hosting.test_protocol import VALID

BASELINE = "820cb2e"
"""The last commit with the two hand-written encodings."""
PROTOCOL_BASELINE = "78fafda"
"""The last commit with the hand-written checker of inbound messages."""


def _old_module(name: str, path: str, commit: str = BASELINE) -> types.ModuleType:
    source = subprocess.run(["git", "-C", str(REPOSITORY), "show", f"{commit}:{path}"], check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source.replace("from hosting.views import", "from old_views import"), path, "exec"),
         module.__dict__)
    return module


def _hands(count: int) -> list[list[Event]]:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        store = Store.open(Path(directory) / "room")
        room = open_room(store, 6, seed=3)
        hands: list[list[Event]] = []
        while len(hands) < count:
            for table in room:
                table.play_hand(time.time())
                hands.append(list(table._hand.events))
        store.close_now()
    return hands[:count]


def _per_hand(work: Callable[[list[Event]], Any], hands: list[list[Event]], rounds: int) -> float:
    best = float("inf")
    for _ in range(3):  # the best of three passes: a loaded machine only ever slows a pass down
        started = time.perf_counter()
        for _ in range(rounds):
            for hand in hands:
                work(hand)
        best = min(best, time.perf_counter() - started)
    return round(best / (rounds * len(hands)) * 1e6, 1)


def main(rounds: int) -> dict[str, Any]:
    old_views = _old_module("old_views", "hosting/views.py")
    old_codec = _old_module("old_codec", "hosting/hand_codec.py")
    hands = _hands(12)
    texts = [json.dumps(old_codec.events_to_json(hand)) for hand in hands]
    for hand, text in zip(hands, texts, strict=True):  # both read the same stored text into the same events
        assert old_codec.events_from_json(json.loads(text)) == decode_events(text) == hand

    def store_old(hand: list[Event]) -> None:
        old_codec.events_from_json(json.loads(json.dumps(old_codec.events_to_json(hand))))

    def store_new(hand: list[Event]) -> None:
        decode_events(encode_events(hand))

    def wire_old(hand: list[Event]) -> None:
        for event in view_for(hand, 1):
            json.loads(protocol.encode(protocol.event("t1", "h1", old_views.event_to_json(event))))

    def wire_new(hand: list[Event]) -> None:
        for body in view_bodies(hand, 1):
            protocol.read_room_message(protocol.encode(protocol.event("t1", "h1", body)))

    parsed = {id(hand): json.loads(text) for hand, text in zip(hands, texts, strict=True)}
    old_protocol = _old_module("old_protocol", "hosting/protocol.py", PROTOCOL_BASELINE)
    lines = [json.dumps({"v": 1} | example).encode() for example in VALID]

    def inbound(parse: Callable[[bytes], Any]) -> float:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(rounds):
                for line in lines:
                    parse(line)
            best = min(best, time.perf_counter() - started)
        return round(best / (rounds * len(lines)) * 1e6, 2)

    result = {
        "benchmark": "codec", "hands": len(hands), "events_per_hand": round(sum(map(len, hands)) / len(hands), 1),
        "store_us_per_hand": {"old": _per_hand(store_old, hands, rounds), "new": _per_hand(store_new, hands, rounds)},
        "wire_us_per_hand": {"old_untyped": _per_hand(wire_old, hands, rounds),
                             "new_typed": _per_hand(wire_new, hands, rounds)},
        "decode_only_us_per_hand": {
            "handwritten": _per_hand(lambda hand: old_codec.events_from_json(parsed[id(hand)]), hands, rounds),
            "msgspec": _per_hand(lambda hand: events_from_json(parsed[id(hand)]), hands, rounds)},
        "inbound_us_per_message": {"handwritten": inbound(old_protocol.parse_message),
                                   "msgspec": inbound(protocol.parse_message)},
    }
    for key in ("store_us_per_hand", "decode_only_us_per_hand", "inbound_us_per_message"):
        old, new = result[key].values()
        result[key]["speedup"] = round(old / new, 2)
    return result


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)))
