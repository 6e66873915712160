"""A client that finds a false share tells the room (issue 29: "a failed proof names the player who sent it,
folds him, voids the hand if it must, and the room keeps running"). The one share the room cannot check itself
is an escrow share sealed to a holder: here cy's client seals a false share of his key to ana. Ana's client
complains; the room asks cy to disclose that share for everyone to check (Feldman's dispute). If he discloses a
false one too, he is folded, his escrow is void, so nobody could stand in for him: the hand is void (he loses his
blind), he sits out and the room deals on. If he discloses the true one, ana takes it and the hand goes on."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from engine.events import HandEnded, HandVoided
from engine.fairness_v2.player import Player, escrow_context
from engine.fairness_v2.randomness import scalar_bytes
from engine.fairness_v2.referee import verify_transcript
from engine.fairness_v2.threshold import seal
from engine.fairness_v2.transcript import Disclosure, Escrow, Timeout
from hosting.client import RoomClient
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from hosting.transcript_signing import sshsig_verifier
from tests.hosting.test_host_blind_play import BLIND, PACED

NAMES = ("ana", "bob", "cy")


def _move(legal: dict[str, Any]) -> dict[str, Any]:
    if legal.get("can_show"):
        return {"kind": "show"}
    return {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}


async def _play_hands(client: RoomClient, hands: int, seen: list[Any]) -> list[dict[int, int]]:
    results = []
    while len(results) < hands:
        message = await client.receive(120.0)
        if message["type"] == "action_request":
            await client.send("action", table="blind", hand=message["hand"], **_move(message["legal"]))
        elif message["type"] == "event":
            seen.append((message.get("hand"), message["event"]))
            if isinstance(message["event"], HandEnded):
                results.append(dict(message["event"].stacks))
    return results


def _seal_a_false_share(client: RoomClient, victim: int, *, lie_again: bool) -> None:
    """The client's escrow seals ``victim`` a share off by one (and remembers it so, when ``lie_again``: its
    disclosure is false too). Only in the first hand."""
    participant = client.host_blind
    assert participant is not None
    handle = participant.handle
    done: list[bool] = []

    def tamper(message: dict[str, Any]) -> list[dict[str, Any]]:
        if message.get("type") == "blind_request" and message.get("step") == "escrow" and not done:
            done.append(True)
            player = next(iter(participant._players.values()))
            original = Player.escrow

            def escrow(self: Player, rng: Any) -> Escrow:
                body = original(self, rng)
                header = self.ref.header
                share = self._dealt[victim] + 1
                if lie_again:
                    self._dealt[victim] = share
                box = next(record.box_key for record in header.seats if record.seat == victim)
                sealed = list(body.sealed)
                sealed[body.holders.index(victim)] = seal(box, scalar_bytes(share),
                                                          escrow_context(header, self.seat, victim), secrets)
                return Escrow(body.threshold, body.commitments, body.holders, tuple(sealed))

            player.escrow = escrow.__get__(player)  # type: ignore[method-assign]
        return handle(message)

    participant.handle = tamper  # type: ignore[method-assign]


@pytest.mark.parametrize("lie_again", [True, False], ids=["false-disclosure", "true-disclosure"])
async def test_a_false_escrow_share_is_reported_and_settled(rooms: Callable[..., Any], connect: Callable[..., Any],
                                                            caplog: pytest.LogCaptureFixture, lie_again: bool) -> None:
    caplog.set_level(logging.INFO, logger="croupier.room")
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED,
                                    blind_step_seconds=20.0)
    clients = [await connect(room, name, host_blind=True) for name in NAMES]
    state = room.room.tables["blind"]
    for seat, name in enumerate(NAMES):
        room.room.seat_player(name, state, 200, seat, room.room.clock())
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner)
    ana, bob, cy = clients
    _seal_a_false_share(cy, 0, lie_again=lie_again)
    runner.wake()
    players = [ana, bob] if lie_again else clients
    seen: list[list[Any]] = [[] for _ in players]
    playing = [asyncio.create_task(_play_hands(client, 2, mine)) for client, mine in zip(players, seen, strict=True)]
    cy_task = None if not lie_again else asyncio.create_task(_play_hands(cy, 1, []))
    results = await asyncio.wait_for(asyncio.gather(*playing), 300)
    if cy_task is not None:
        await asyncio.wait_for(cy_task, 60)
    first = runner.transcripts[0]
    assert ana.host_blind is not None
    assert any("seat 2's escrow share does not match" in text for text in ana.host_blind.complaints)
    disclosures = [entry.body for entry in first.entries if isinstance(entry.body, Disclosure)]
    timeouts = [entry.body for entry in first.entries if isinstance(entry.body, Timeout)]
    violations, outcome = verify_transcript(first, sshsig_verifier(first.header.host_key), secrets)
    assert violations == [] and outcome is not None
    messages = [record.getMessage() for record in caplog.records]
    assert any("ana says the share of cy's key sealed to him is false: cy must disclose it" in text
               for text in messages)
    if lie_again:
        # the false disclosure is never chained (the room checked it first): cy is timed out at 'disclose'
        assert disclosures == [] and timeouts == [Timeout(2, "disclose")]
        assert any("cy (seat 2) dealt ana a false share of his key and did not disclose a true one" in text
                   for text in messages)
        assert outcome.void
        hand = first.header.hand
        (void,) = [event for item, event in seen[0] if item == hand and isinstance(event, HandVoided)]
        posts = first.header.posts
        assert posts is not None
        posted = {posts.small_blind_seat: 1, posts.big_blind_seat: 2}.get(2, 0)  # cy's blind, if he posted one
        assert dict(void.forfeited) == ({2: posted} if posted else {})
        assert results[0][0] == outcome.stacks and sum(outcome.stacks.values()) == 600
        assert outcome.stacks[2] == 200 - posted
        # the room keeps running: the next hand is dealt to ana and bob, cy sits out
        assert set(results[0][1]) == {0, 1} and sum(results[0][1].values()) == outcome.stacks[0] + outcome.stacks[1]
        assert state.engine.players[2].sitting_out
    else:
        # the true share settles it: ana takes it, nobody is folded, the hand is played out
        assert [disclosure.holder for disclosure in disclosures] == [0] and timeouts == []
        assert not outcome.void and sum(outcome.stacks.values()) == 600
        assert all(mine[0] == outcome.stacks for mine in results)
        assert any("cy disclosed ana's share of his key: it is true" in text for text in messages)
