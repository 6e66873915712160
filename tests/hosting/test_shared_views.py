"""Issue 20: the room encodes a table's event once per view (the public view once, each seat's own once), not
once per listener — and every listener still gets exactly his view, byte for byte what it was before."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.actions import LegalActions
from engine.cards import full_deck
from hosting import protocol
from hosting.identity import Login
from hosting.room import Room
from hosting.table_runner import TableRunner, legal_to_json
from tests.tui.roombots import make_room, table


class Recorder:
    """A transport keeping what the room sends, as objects and as the bytes a channel would write."""

    def __init__(self) -> None:
        self.messages: list[Mapping[str, Any]] = []
        self.lines: list[bytes] = []

    def send(self, message: Mapping[str, Any]) -> None:
        self.messages.append(message)
        self.lines.append(protocol.encode(message))

    def close(self, reason: str) -> None:
        pass


def _room_with_a_hand(tmp_path: Path) -> tuple[Room, dict[str, Recorder]]:
    """ana and bob seated at t1, cy and dee watching; the first hand's deal published by the table's runner."""
    room = make_room(tmp_path / "data", [table("t1")])
    recorders = {name: Recorder() for name in ("ana", "bob", "cy", "dee")}
    sessions = {name: room.connect(Login(name, f"ssh-ed25519 AAAA{name}", "127.0.0.1"), recorder)
                for name, recorder in recorders.items()}
    state = room.tables["t1"]
    for name in ("ana", "bob"):
        room.seat_player(name, state, 200, None, 0.0)
    for name in ("cy", "dee"):
        room.receive(sessions[name], protocol.parse_message(b'{"v":1,"type":"watch","table":"t1"}'))
    for recorder in recorders.values():
        recorder.messages.clear()
        recorder.lines.clear()
    runner = room.drivers["t1"]
    assert isinstance(runner, TableRunner)
    deck = full_deck()
    runner.publish(state.engine.start_hand(deck, 1.0, button_draw_deck=deck))
    return room, recorders


def test_legal_actions_go_out_as_all_their_fields() -> None:
    options = LegalActions(seat=3, can_fold=True, call_amount=4, min_raise_to=8, max_raise_to=200)
    assert legal_to_json(options) == dataclasses.asdict(options)


def _events(recorder: Recorder) -> list[Mapping[str, Any]]:
    return [message for message in recorder.messages if message["type"] == "event"]


def test_watchers_share_one_encoded_public_view_and_each_player_gets_his_own(tmp_path: Path) -> None:
    room, recorders = _room_with_a_hand(tmp_path)
    state = room.tables["t1"].engine
    seats = {name: state.seat_of(name) for name in ("ana", "bob")}
    for name, recorder in recorders.items():
        dealt = [message["event"] for message in _events(recorder)
                 if message["event"]["event"] in ("hole_cards_dealt", "cards_dealt_face_down")]
        assert len(dealt) == 2, name  # two players dealt in
        for body in dealt:
            mine = name in seats and body["seat"] == seats[name]
            assert body["event"] == ("hole_cards_dealt" if mine else "cards_dealt_face_down"), (name, body)
            assert ("cards" in body) == mine
    # the two watchers got the very same objects (encoded once), the players their own
    cy, dee, ana, bob = (_events(recorders[name]) for name in ("cy", "dee", "ana", "bob"))
    assert len(cy) == len(dee) > 0
    assert all(first is second for first, second in zip(cy, dee, strict=True))
    assert not any(first is second for first, second in zip(ana, bob, strict=True) if first != second)
    # a public event is one message for everyone, players and watchers alike; only hole cards differ
    assert len(ana) == len(bob) == len(cy)
    for mine, his, watched in zip(ana, bob, cy, strict=True):
        if mine["event"]["event"] in ("hole_cards_dealt", "cards_dealt_face_down"):
            continue
        assert mine is his is watched, mine["event"]["event"]
    faces = [[message for message in events if message["event"]["event"] == "cards_dealt_face_down"]
             for events in (ana, bob, cy)]
    assert faces[0][0] is faces[2][1] and faces[1][0] is faces[2][0]  # bob's trace for ana is the watcher's
    assert recorders["cy"].lines == recorders["dee"].lines
    # the table's seats too: one message for its whole audience
    tables = [[message for message in recorder.messages if message["type"] == "table"]
              for recorder in recorders.values()]
    assert all(len(sent) == 1 and sent[0] is tables[0][0] for sent in tables)


def test_a_shared_message_is_written_byte_for_byte_as_a_plain_one() -> None:
    plain = protocol.event("t1", "h1", {"event": "board_dealt", "street": "flop", "cards": ["As", "Kd", "2c"],
                                        "board": ["As", "Kd", "2c"], "note": "é ✓ \u2028"})
    shared = protocol.shared(plain)
    assert protocol.encode(shared) == protocol.encode(dict(plain))
    assert protocol.encode(shared) is protocol.encode(shared)  # made once, then reused
    assert shared == plain


def test_the_wire_encoding_reads_back_as_json_dumps_did_and_stays_compact_utf8() -> None:
    message = {"v": 1, "type": "chat", "text": "é ✓ \u2028 \x01 \"q\" \\ /", "at": 1733085123.457, "small": 1e-7,
               "chips": 10**15, "none": None, "flags": [True, False], "pair": (1, 2), "nested": {"seat": 3}}
    line = protocol.encode(message)
    before = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    assert json.loads(line) == json.loads(before)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and b" \xe2\x9c\x93 " in line  # raw UTF-8, one line
    plain = {"v": 1, "type": "ack", "in_reply_to": "sit", "table": "t1", "seat": 2, "stack": 200}
    assert protocol.encode(plain) == json.dumps(plain, separators=(",", ":")).encode() + b"\n"
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate is refused, as before
        protocol.encode({"text": "\ud800"})
