"""A Spin's multiplier drawn in a running room with the players' own clients (Room.run_draw over SSH): every
client commits, reveals to the host only and checks the proof; a client that takes no part is left out; a
draw message for no running draw is refused."""

from __future__ import annotations

from typing import Any

import pytest

from engine.fair_draw import check_proof, draw_index, draw_key
from engine.tournament.director import Tournament
from engine.tournament.formats import SPIN_MULTIPLIERS, Format, spin_row
from engine.tournament.money import Balance, EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.client import RequestRefused, RoomClient
from hosting.draw_round import DrawSeconds
from hosting.server import RunningRoom
from tests.engine.tournament.helpers import LEVELS, first

SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)
QUICK = DrawSeconds(commit_seconds=3.0, reveal_seconds=3.0)


def registered_spin() -> Tournament:
    """A Spin whose three players are in, waiting for its draw."""
    settings = TournamentSettings(tournament_id="spin-9", format=Format.SPIN, sit_and_go_size=3,
                                  seats_per_table=3, price=EntryPrice(10, 1), schedule=LEVELS)
    director = Tournament(settings, first)
    director.open_registration(0)
    for name in ("ann", "bob", "cy"):
        director.register(name, Balance(), 1)
    return director


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
            received = []
            while len(received) < 50 and not any(item.get("type") == "notice" for item in received):
                received.append(await connection.receive())
            assert "draw_proof" in [item["type"] for item in received]  # the UI hears the draw too
            # and its player reads the multiplier with his own client's verdict on the draw
            assert received[-1] == {"v": 1, "type": "notice", "text": f"Spin: {proof.outcome}x drawn by "
                                    "commit-reveal with every player; your client verified the draw"}
    finally:
        await room.stop()


async def test_a_spin_starts_from_its_draw_and_its_first_seats_replay_from_the_proof(tmp_path: Any) -> None:
    from hosting.spin_start import start_spin, start_with_proof
    from hosting.tournament_state import encode_snapshot
    from tests.tui.roombots import make_room, table
    from tui.connection import LocalConnection

    room = make_room(tmp_path / "room", [table("t1")])
    room.start()
    try:
        for name in ("ann", "bob", "cy"):
            await LocalConnection.attach(room, name)
        director = registered_spin()
        events, proof = await start_spin(room, director, lambda: 5.0, QUICK)
    finally:
        await room.stop()
    assert proof.draw_id == "spin:spin-9" and sorted(proof.secrets) == ["ann", "bob", "cy"]
    assert director.spin_multiplier == proof.outcome == spin_row(proof.index).multiplier
    assert director.draw is first  # the key drew the start only
    encode_snapshot(director)  # the director's state is stored as it was
    # anyone with the proof replays the start: the same seats and the same button
    replay = registered_spin()
    replayed = start_with_proof(replay, proof, 5.0)
    seats = {number: {seat: state.entry for seat, state in mirrored.seats.items()}
             for number, mirrored in director.tables.items()}
    assert seats == {number: {seat: state.entry for seat, state in mirrored.seats.items()}
                     for number, mirrored in replay.tables.items()}
    assert [type(event).__name__ for event in replayed] == [type(event).__name__ for event in events]
    assert replayed == events


def test_the_first_seats_of_a_spin_come_from_the_draws_key() -> None:
    from engine.fair_draw import make_proof
    from hosting.spin_start import start_with_proof

    def seats_after(start: Any) -> dict[int, dict[int, int]]:
        director = registered_spin()
        start(director)
        return {number: {seat: state.entry for seat, state in table.seats.items()}
                for number, table in director.tables.items()}

    by_key = {}
    for byte in range(4):
        proof = make_proof("room-1", "spin:spin-9", SPIN, bytes([byte]) * 32, {"ann": bytes([9]) * 32})
        by_key[byte] = seats_after(lambda director, proof=proof: start_with_proof(director, proof, 5.0))
        assert by_key[byte] == seats_after(lambda director, proof=proof: start_with_proof(director, proof, 5.0))
    assert len({repr(seats) for seats in by_key.values()}) > 1  # other keys, other seats: the key draws them


def test_a_draw_that_does_not_check_out_is_told_to_the_player_in_plain_words() -> None:
    from types import SimpleNamespace

    from hosting.draw_round import DrawParticipant
    from tui.connection import draw_verdict

    draws = DrawParticipant("room-1", "ann")
    draws.results["spin:x"] = ["the outcome is 2, the proof says 1000"]
    notice = draw_verdict(SimpleNamespace(draws=draws), {"type": "draw_proof", "draw": "spin:x"})
    assert notice == [{"v": 1, "type": "notice", "text": "Spin: the multiplier was drawn, and your client found "
                                                         "the draw WRONG: 1 problem(s)"}]
    assert draw_verdict(SimpleNamespace(draws=draws), {"type": "draw_proof", "draw": "spin:other"}) == []
    assert draw_verdict(None, {"type": "draw_proof", "draw": "spin:x"}) == []


def test_a_host_blind_first_button_draw_is_told_as_the_button_not_a_spin() -> None:
    """A new user's trial: the first hand at a host-blind cash table told "Spin: 0x drawn by commit-reveal"."""
    from types import SimpleNamespace

    from hosting.draw_round import DrawParticipant, button_draw_id
    from tui.connection import draw_verdict

    draws = DrawParticipant("room-1", "ann")
    draw = button_draw_id("blind-ab12cd-1")
    draws.results[draw] = []
    assert draw_verdict(SimpleNamespace(draws=draws), {"type": "draw_proof", "draw": draw}) == [
        {"v": 1, "type": "notice", "text": "First button: the button drawn by commit-reveal with every player; "
                                           "your client verified the draw"}]
    draws.results[draw] = ["a seat out of range"]
    assert "First button: the button was drawn, and your client found the draw WRONG" in \
        draw_verdict(SimpleNamespace(draws=draws), {"type": "draw_proof", "draw": draw})[0]["text"]
