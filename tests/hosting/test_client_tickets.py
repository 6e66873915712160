"""A client's side of commit-ahead at a fast-fold pool (R-FAST-1): one secret per ticket, revealed once."""

from __future__ import annotations

from engine.fairness import HOST, commit
from hosting import protocol
from hosting.client import FairnessParticipant

ROOM = "room-1"


def _participant() -> FairnessParticipant:
    numbers = iter(range(1, 100))
    return FairnessParticipant(ROOM, draw_secret=lambda: bytes([next(numbers)]) * 32)


def test_the_secret_committed_to_a_ticket_is_revealed_for_the_hand_it_is_used_in_once() -> None:
    client = _participant()
    (answer,) = client.handle(protocol.commit_request("zoom", "tk-7", 0, "", 5.0))
    assert answer["type"] == "commit" and (answer["table"], answer["hand"]) == ("zoom", "tk-7")
    assert answer["commitment"] == commit(ROOM, "zoom", "tk-7", 0, bytes([1]) * 32).hex()
    host = commit(ROOM, "zoom.1", "zoom.1-x-4", HOST, bytes(32)).hex()
    assert client.handle(protocol.commitments("zoom.1", "zoom.1-x-4", {"host": host, "3": answer["commitment"]})) == []
    (reveal,) = client.handle(protocol.reveal_request("zoom.1", "zoom.1-x-4", 3, 5.0, ticket=("zoom", "tk-7")))
    assert (reveal["type"], reveal["table"], reveal["hand"]) == ("reveal", "zoom.1", "zoom.1-x-4")
    assert reveal["secret"] == (bytes([1]) * 32).hex()
    # the same ticket named for another hand: nothing is revealed (the host would know the secret already)
    assert client.handle(protocol.reveal_request("zoom.2", "zoom.2-x-9", 1, 5.0, ticket=("zoom", "tk-7"))) == []
    # a ticket never given to this client: nothing either
    assert client.handle(protocol.reveal_request("zoom.2", "zoom.2-x-9", 1, 5.0, ticket=("zoom", "tk-8"))) == []
