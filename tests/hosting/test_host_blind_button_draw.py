"""The first hand's button at a host-blind table is drawn by commit–reveal with the players' clients (R-DEAL-1,
issue 29), the same draw as a tournament's first seats (hosting.draw_round): one equal row per seat, bound to the
hand. Its proof is kept with that hand's transcript, exported with it, and checked by ``croupier verify`` — and a
changed proof fails there."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.fair_draw import check_proof, make_proof
from engine.table_events import HandPlanned
from hosting.cli import main
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.host_blind_verify import button_draw_id, check_button_draw
from hosting.ledger import audit
from hosting.server import RunningRoom
from hosting.store import Store
from tests.hosting.test_host_blind_play import BLIND, PACED

NAMES = ("ana", "bob", "cy")


async def test_the_first_button_is_drawn_with_the_players_and_verified(
        rooms: Callable[..., Any], connect: Callable[..., Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = tmp_path / "room"
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED, data_dir=data_dir)
    clients = [await connect(room, name, host_blind=True) for name in NAMES]
    state = room.room.tables["blind"]
    for seat, name in enumerate(NAMES):  # all at once: the first hand is dealt to the three
        room.room.seat_player(name, state, 200, seat, room.room.clock())
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner)
    runner.wake()
    planned: list[HandPlanned] = []

    async def play(client: Any) -> None:
        seen: dict[str, Any] = {}
        await _play_until(client, seen)
        planned.extend(seen.get("planned", []))

    await asyncio.wait_for(asyncio.gather(*(play(client) for client in clients)), 240)
    first = runner.transcripts[0]
    draw_id = button_draw_id(first.header.hand)
    for client in clients:  # each client took part and checked the proof: its own secret is in the key
        assert client.draws is not None and client.draws.results.get(draw_id) == []
    proof = clients[0].draws.proofs[draw_id]
    assert proof.outcomes == ((0, 1), (1, 1), (2, 1)) and sorted(proof.secrets) == list(NAMES)
    assert check_proof(proof) == [] and proof.outcome == first.header.button
    assert {event.button_seat for event in planned if event.hand_number == 1} == {proof.outcome}
    assert check_button_draw("hand", proof.to_json(), first.header) == []
    # a draw made for another hand, or leaving a seat out, does not give this hand its button
    elsewhere = make_proof(proof.room_id, button_draw_id("blind-000000-9"), proof.outcomes, secrets.token_bytes(32), {})
    assert any("was made for button:blind-000000-9, not this hand" in problem
               for problem in check_button_draw("hand", elsewhere.to_json(), first.header))
    short = make_proof(proof.room_id, draw_id, ((first.header.button, 1),), secrets.token_bytes(32), {})
    assert check_button_draw("hand", short.to_json(), first.header) == [
        "hand: the button draw does not give each seat dealt in one equal chance"]
    await room.close()
    store = Store.open(data_dir)
    try:
        assert audit(store.connection) == []
    finally:
        store.close_now()
    exported = tmp_path / "hands.phhs"
    assert main(["export", "--data", str(data_dir), "--format", "phh", "-o", str(exported)]) == 0
    text = exported.read_text()
    assert text.count('button_draw') == 1
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()
    # the host names another seat as the draw's: that hand fails, saying so
    other = (proof.outcome + 1) % 3
    changed = json.dumps(json.dumps({**proof.to_json(), "outcome": other}))[1:-1]
    original = json.dumps(json.dumps(proof.to_json()))[1:-1]
    if original in text:
        tampered = text.replace(original, changed)
    else:  # the export may order the keys its own way: change the outcome field in the button draw only
        start = text.index("button_draw")
        tampered = text[:start] + text[start:].replace(f'\\"outcome\\":{proof.outcome}',
                                                       f'\\"outcome\\":{other}', 1)
    assert tampered != text
    (tmp_path / "tampered.phhs").write_text(tampered)
    assert main(["verify", str(tmp_path / "tampered.phhs")]) == 1
    out = capsys.readouterr().out
    assert "button draw" in out and f"the outcome is {proof.outcome}, the proof says {other}" in out


async def _play_until(client: Any, seen: dict[str, Any]) -> None:
    """One hand, keeping the plan of each hand."""
    while True:
        message = await client.receive(120.0)
        if message["type"] == "action_request":
            legal = message["legal"]
            move = {"kind": "show"} if legal.get("can_show") else \
                {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}
            await client.send("action", table="blind", hand=message["hand"], **move)
        elif message["type"] == "event" and isinstance(message["event"], HandPlanned):
            seen.setdefault("planned", []).append(message["event"])
        elif message["type"] == "event" and type(message["event"]).__name__ == "HandEnded":
            return
