"""A Spin's multiplier drawn in a running room with the players' own clients (Room.run_draw over SSH): every
client commits, reveals to the host only and checks the proof; a client that takes no part is left out; a
draw message for no running draw is refused."""

from __future__ import annotations

from typing import Any

import pytest

from engine.fair_draw import check_proof, draw_index, draw_key
from engine.tournament.formats import SPIN_MULTIPLIERS, spin_row
from hosting.client import RequestRefused, RoomClient
from hosting.draw_round import DrawSeconds
from hosting.server import RunningRoom

SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)
QUICK = DrawSeconds(commit_seconds=3.0, reveal_seconds=3.0)


async def test_the_room_draws_a_spin_multiplier_with_its_players_clients_and_each_verifies_it(
        room: RunningRoom, connect: Any) -> None:
    players: list[RoomClient] = [await connect(room, name) for name in ("ann", "bob")]
    silent: RoomClient = await connect(room, "cy", fairness=False)  # a client that takes no part
    proof = await room.room.run_draw("spin:sng-7", SPIN, ["ann", "bob", "cy"], QUICK)
    assert sorted(proof.commitments) == ["ann", "bob"] and sorted(proof.secrets) == ["ann", "bob"]
    assert proof.withheld == () and check_proof(proof, outcomes=SPIN) == []
    assert proof.index == draw_index(draw_key(room.room.room_id, "spin:sng-7", SPIN, proof.host_secret,
                                              proof.secrets), 1_000_000)
    assert proof.outcome == spin_row(proof.index).multiplier
    for client in players:
        await client.wait_for("draw_proof")
        assert client.draws is not None and client.draws.results == {"spin:sng-7": []}
        assert client.draws.proofs["spin:sng-7"] == proof
    got = await silent.wait_for("draw_proof")
    assert got["proof"]["outcome"] == proof.outcome  # the silent one is shown the draw he took no part in
    assert room.room.draws == {}


async def test_a_draw_message_for_no_running_draw_is_refused(room: RunningRoom, connect: Any) -> None:
    client: RoomClient = await connect(room, "ann")
    with pytest.raises(RequestRefused) as refused:
        await client.request("draw_commit", draw="spin:none", commitment="ab" * 32)
    assert refused.value.reply["code"] == "no_hand"


async def test_tui_connections_in_the_rooms_process_take_part_and_verify(tmp_path: Any) -> None:
    from tests.tui.roombots import make_room, table
    from tui.connection import LocalConnection

    room = make_room(tmp_path / "room", [table("t1")])
    room.start()
    try:
        connections = [await LocalConnection.attach(room, name) for name in ("ann", "bob", "cy")]
        proof = await room.run_draw("spin:sng-8", SPIN, ["ann", "bob", "cy"], QUICK)
        assert sorted(proof.secrets) == ["ann", "bob", "cy"] and proof.withheld == ()
        for connection in connections:
            assert connection.fairness is not None and connection.fairness.draws is not None
            assert connection.fairness.draws.results == {"spin:sng-8": []}
            kinds = []
            while len(kinds) < 50 and "draw_proof" not in kinds:
                kinds.append((await connection.receive())["type"])
            assert "draw_proof" in kinds  # the UI hears the draw too (its screen shows the multiplier)
    finally:
        await room.stop()
