"""A Spin's multiplier drawn by commit–reveal with the players' clients (hosting.draw_round), in process: the
room side's messages go through a mailroom to each player's DrawParticipant, whose answers come back as the
room would route them (validated by hosting.protocol first)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine.fair_draw import DrawProof, check_proof, draw_index, draw_key
from engine.tournament.formats import SPIN_MULTIPLIERS, spin_row
from hosting import protocol
from hosting.draw_round import DrawParticipant, DrawRound, DrawSeconds
from hosting.errors import RoomError

SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)
NAMES = ("ann", "bob", "cy")


class Mailroom:
    """Delivers the room's messages to in-process clients; ``silent`` clients ignore some message types."""

    room_id = "room-1"

    def __init__(self, clients: Mapping[str, DrawParticipant], silent: Mapping[str, set[str]] | None = None,
                 tamper: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
        self.clients = clients
        self.silent = silent or {}
        self.tamper = tamper
        self.round: DrawRound | None = None
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def clock(self) -> float:
        return time.monotonic()

    def send_to(self, name: str, message: Mapping[str, Any]) -> None:
        message = dict(message)
        if message["type"] == "draw_proof" and self.tamper is not None:
            message = self.tamper(message)
        self.sent.append((name, message))
        for reply in self.clients[name].handle(json.loads(json.dumps(message))):
            if reply["type"] in self.silent.get(name, set()):
                continue
            parsed = protocol.validate(reply)  # the room validates every client message before routing it
            assert type(parsed).type == reply["type"]
            assert self.round is not None
            asyncio.get_running_loop().call_soon(self.round.receive, name, reply)


def run_spin(silent: Mapping[str, set[str]] | None = None,
             tamper: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
             players: tuple[str, ...] = NAMES) -> tuple[DrawProof, dict[str, DrawParticipant], Mailroom]:
    clients = {name: DrawParticipant("room-1", name) for name in players}
    mailroom = Mailroom(clients, silent, tamper)

    async def main() -> DrawProof:
        mailroom.round = DrawRound(mailroom, "spin:sng-1", SPIN, players,  # type: ignore[arg-type]
                                   seconds=DrawSeconds(commit_seconds=0.3, reveal_seconds=0.3))
        return await mailroom.round.run()

    return asyncio.run(main()), clients, mailroom


def test_every_player_commits_reveals_and_verifies_the_multiplier() -> None:
    proof, clients, mailroom = run_spin()
    assert sorted(proof.secrets) == list(NAMES) and proof.withheld == ()
    assert proof.outcome == spin_row(proof.index).multiplier  # the director's spin_draw is the proof's index
    key = draw_key("room-1", "spin:sng-1", SPIN, proof.host_secret, proof.secrets)
    assert proof.index == draw_index(key, 1_000_000)
    assert {name: client.results["spin:sng-1"] for name, client in clients.items()} == {name: [] for name in NAMES}
    # every commitment was published to everyone before any reveal was asked for
    kinds = [message["type"] for name, message in mailroom.sent if name == "ann"]
    assert kinds == ["draw_commit_request", "draw_commitments", "draw_reveal_request", "draw_proof"]
    published = next(message for name, message in mailroom.sent if message["type"] == "draw_commitments")
    assert sorted(published["commitments"]) == list(NAMES)


def test_a_player_who_does_not_commit_is_left_out_and_the_others_verify() -> None:
    proof, clients, _ = run_spin(silent={"cy": {"draw_commit"}})
    assert sorted(proof.commitments) == ["ann", "bob"] and "cy" not in proof.secrets and proof.withheld == ()
    assert clients["ann"].results["spin:sng-1"] == [] and clients["bob"].results["spin:sng-1"] == []
    # cy's client sees its commitment was not in the published list (it may have been late; it says so)
    assert clients["cy"].results["spin:sng-1"] == ["the commitment of cy was left out or changed before the reveal"]


def test_a_player_who_commits_and_does_not_reveal_is_withheld_never_a_redraw() -> None:
    proof, clients, mailroom = run_spin(silent={"bob": {"draw_reveal"}})
    assert proof.withheld == ("bob",) and sorted(proof.secrets) == ["ann", "cy"]
    assert proof.index == draw_index(draw_key("room-1", "spin:sng-1", SPIN, proof.host_secret, proof.secrets),
                                     1_000_000)
    assert clients["ann"].results["spin:sng-1"] == [] and clients["cy"].results["spin:sng-1"] == []
    assert sum(message["type"] == "draw_proof" for _, message in mailroom.sent) == 3  # one draw, sent to each


def test_clients_catch_a_host_that_changes_the_multiplier_or_drops_a_revealed_secret() -> None:
    def bigger(message: dict[str, Any]) -> dict[str, Any]:
        body = dict(message["proof"])
        body["outcome"] = 1000 if body["outcome"] != 1000 else 2
        return {**message, "proof": body}

    _, clients, _ = run_spin(tamper=bigger)
    for client in clients.values():
        assert len(client.results["spin:sng-1"]) == 1
        assert client.results["spin:sng-1"][0].startswith("the outcome is ")

    def drop_ann(message: dict[str, Any]) -> dict[str, Any]:
        proof = DrawProof.from_json(message["proof"])
        secrets = {name: secret for name, secret in proof.secrets.items() if name != "ann"}
        forged = replace(proof, secrets=secrets, withheld=("ann",))
        index = draw_index(forged.key, 1_000_000)
        forged = replace(forged, index=index, outcome=spin_row(index).multiplier)
        assert check_proof(forged) == []  # consistent on its face: only ann's client knows she revealed
        return {**message, "proof": forged.to_json()}

    _, clients, _ = run_spin(tamper=drop_ann)
    assert clients["ann"].results["spin:sng-1"] == ["the secret of ann is not the one ann revealed"]
    assert clients["bob"].results["spin:sng-1"] == []


def test_messages_for_another_draw_from_strangers_late_or_again_are_refused_and_change_nothing() -> None:
    clients = {name: DrawParticipant("room-1", name) for name in NAMES}
    mailroom = Mailroom(clients)
    round_ = DrawRound(mailroom, "spin:sng-1", SPIN, NAMES)  # type: ignore[arg-type]
    hex_value = "ab" * 32

    def refusal(name: str, message: dict[str, str]) -> str:
        with pytest.raises(RoomError) as refused:
            round_.receive(name, message)
        return refused.value.code

    assert refusal("zed", {"type": "draw_commit", "draw": "spin:sng-1", "commitment": hex_value}) == "not_dealt_in"
    assert refusal("ann", {"type": "draw_commit", "draw": "spin:other", "commitment": hex_value}) == "no_hand"
    assert refusal("ann", {"type": "draw_reveal", "draw": "spin:sng-1", "secret": hex_value}) == "too_early"
    assert round_.commitments == {} and round_.revealed == {}
    round_.receive("ann", {"type": "draw_commit", "draw": "spin:sng-1", "commitment": hex_value})
    assert refusal("ann", {"type": "draw_commit", "draw": "spin:sng-1", "commitment": "cd" * 32}) \
        == "already_committed"  # once
    assert round_.commitments == {"ann": bytes.fromhex(hex_value)}
    round_.phase = "reveal"
    assert refusal("ann", {"type": "draw_reveal", "draw": "spin:sng-1", "secret": "00" * 32}) == "bad_reveal"
    assert refusal("bob", {"type": "draw_reveal", "draw": "spin:sng-1", "secret": "00" * 32}) == "not_dealt_in"
    assert refusal("bob", {"type": "draw_commit", "draw": "spin:sng-1", "commitment": hex_value}) == "too_late"
    assert round_.revealed == {} and list(round_.commitments) == ["ann"]


def test_bad_draw_messages_are_refused_by_the_protocol() -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.validate({"v": 1, "type": "draw_commit", "draw": "spin:1", "commitment": "ABCD"})
    with pytest.raises(protocol.ProtocolError):
        protocol.validate({"v": 1, "type": "draw_reveal", "draw": "x" * 65, "secret": "00" * 32})
