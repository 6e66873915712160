"""Issue 20 (load): an honest host and an honest but slow client must never end with a fairness violation.

The 1,500-bot point reported ``commitment_replaced`` with ``published: none`` for every committer: a bot that
committed, then left its seat (its bot loop timed out) before the room published the commitments, was still
asked for its reveal and sent the proof (both by name) but never the commitments (sent to the table's audience
only), so it checked the proof against nothing. The commitments now reach every dealt-in player, as the proof.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from engine.fairness import HOST, Committer, Transcript, commit
from hosting import protocol
from hosting.client import LATE_COMMIT, LATE_REVEAL, MISSED_COMMITMENTS, FairnessParticipant, RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.security.helpers import small_room
from tests.hosting.test_play import _until, _with_bots
from tui.connection import fairness_verdicts
from tui.model import TableModel
from tui.widgets.hand_log import badge

QUICK = RunnerSettings(commit_seconds=1.0, reveal_seconds=1.0, pause_between_hands=0.05)


class LeavesAfterCommitting:
    """A client that commits, then at once asks to leave its seat (a bot whose loop gave up on the table)."""

    def __init__(self, client: RoomClient, table: str) -> None:
        assert client.fairness is not None
        original = client.fairness.handle
        self.left = False

        def handle(message: dict[str, Any]) -> list[dict[str, Any]]:
            replies = original(message)
            if message.get("type") == "commit_request" and not self.left:
                self.left = True
                replies.append({"v": 1, "type": "leave", "table": table})
            return replies

        client.fairness.handle = handle  # type: ignore[method-assign]


async def test_a_player_who_leaves_after_committing_still_gets_the_commitments(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(small_room(seats=3), runner_settings=QUICK)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    await carla.request("sit", table="t1", buy_in=100, seat=2)
    LeavesAfterCommitting(carla, "t1")

    async def body() -> None:
        proof = await _until(lambda: [m for m in carla.received if m["type"] == "seeds"])
        hand = proof[0]["hand"]
        assert [m for m in carla.received if m["type"] == "commitments" and m["hand"] == hand]
        assert carla.fairness is not None
        result = carla.fairness.results[("t1", hand)]
        assert result.ok, [violation.to_json() for violation in result.violations]

    await _with_bots([ana, bruno], body)


# --- the client's side: what a slow connection costs is said apart from what a dishonest host does ---------------

ROOM, TABLE, HAND = "room-1", "t1", "t1-abc-1"
CARDS = ("2c", "3c", "4c", "5c")


def _participant() -> FairnessParticipant:
    return FairnessParticipant(ROOM, draw_secret=lambda: bytes([7]) * 32)


def _secret(committer: Committer) -> bytes:
    return bytes([9 if committer == HOST else 20 + int(committer)]) * 32


def _digest(committer: Committer, secret: bytes | None = None) -> bytes:
    return commit(ROOM, TABLE, HAND, committer, _secret(committer) if secret is None else secret)


def _label(committer: Committer) -> str:
    return "host" if committer == HOST else str(committer)


def _published(committers: dict[Committer, bytes]) -> dict[str, Any]:
    return protocol.commitments(TABLE, HAND, {_label(who): digest.hex() for who, digest in committers.items()})


def _proof(commitments: dict[Committer, bytes], seeds: dict[Committer, bytes],
           forfeited: tuple[int, ...] = ()) -> dict[str, Any]:
    transcript = Transcript(ROOM, TABLE, HAND, tuple(Card.parse(card) for card in CARDS), commitments, seeds, (),
                            forfeited)
    return protocol.seeds(TABLE, HAND, transcript.to_json())


def _committed(client: FairnessParticipant, seat: int = 0) -> bytes:
    """The client is asked for seat ``seat``'s commitment and answers; its commitment."""
    (answer,) = client.handle(protocol.commit_request(TABLE, HAND, seat, _digest(HOST).hex(), 5.0))
    return bytes.fromhex(answer["commitment"])


def _kinds(client: FairnessParticipant) -> list[str]:
    return [violation.kind.value for violation in client.results[(TABLE, HAND)].violations]


def test_a_client_that_did_not_see_the_commitments_does_not_reveal_and_reports_the_hand_not_verified() -> None:
    client = _participant()
    mine = _committed(client)
    assert client.handle(protocol.reveal_request(TABLE, HAND, 0, 5.0)) == []  # no commitments seen: no reveal
    everyone = {HOST: _digest(HOST), 0: mine, 1: _digest(1)}
    replies = client.handle(_proof(everyone, {HOST: _secret(HOST), 1: _secret(1)}, forfeited=(0,)))
    assert replies == []  # no verdict sent: nothing wrong was found, and not everything could be checked
    assert (TABLE, HAND) not in client.results
    assert client.unverified[(TABLE, HAND)] == MISSED_COMMITMENTS


def test_a_client_that_missed_the_commitments_still_reports_a_seed_that_does_not_match() -> None:
    client = _participant()
    mine = _committed(client)
    everyone = {HOST: _digest(HOST), 0: mine, 1: _digest(1)}
    client.handle(_proof(everyone, {HOST: _secret(HOST), 1: bytes(32)}, forfeited=(0,)))
    assert _kinds(client) == ["commitment_mismatch"]
    assert (TABLE, HAND) not in client.unverified


def test_a_commitment_that_reached_the_host_late_is_a_note_when_the_published_list_lacked_it() -> None:
    client = _participant()
    _committed(client)
    without_me = {HOST: _digest(HOST), 1: _digest(1)}
    client.handle(_published(without_me))
    (verdict,) = client.handle(_proof(without_me, {HOST: _secret(HOST), 1: _secret(1)}))
    assert client.results[(TABLE, HAND)].ok and verdict["ok"] is True
    assert client.notes[(TABLE, HAND)] == LATE_COMMIT


def test_a_host_that_drops_a_commitment_it_published_is_still_a_violation() -> None:
    client = _participant()
    mine = _committed(client)
    client.handle(_published({HOST: _digest(HOST), 0: mine, 1: _digest(1)}))
    (reveal,) = client.handle(protocol.reveal_request(TABLE, HAND, 0, 5.0))
    assert reveal["secret"] == (bytes([7]) * 32).hex()  # the commitments were seen: it reveals
    client.handle(protocol.ack("reveal", table=TABLE, hand=HAND))
    dropped = {HOST: _digest(HOST), 1: _digest(1)}
    (verdict,) = client.handle(_proof(dropped, {HOST: _secret(HOST), 1: _secret(1)}))
    assert verdict["ok"] is False
    assert _kinds(client) == ["commitment_replaced", "own_seed_missing"]
    assert (TABLE, HAND) not in client.notes


def test_a_host_that_forfeits_a_reveal_it_acknowledged_is_still_a_violation() -> None:
    client = _participant()
    mine = _committed(client)
    everyone = {HOST: _digest(HOST), 0: mine, 1: _digest(1)}
    client.handle(_published(everyone))
    client.handle(protocol.reveal_request(TABLE, HAND, 0, 5.0))
    client.handle(protocol.ack("reveal", table=TABLE, hand=HAND))
    client.handle(_proof(everyone, {HOST: _secret(HOST), 1: _secret(1)}, forfeited=(0,)))
    assert _kinds(client) == ["own_seed_missing"]


def test_a_reveal_the_host_never_acknowledged_is_a_note_when_the_seat_is_forfeited() -> None:
    client = _participant()
    mine = _committed(client)
    everyone = {HOST: _digest(HOST), 0: mine, 1: _digest(1)}
    client.handle(_published(everyone))
    client.handle(protocol.reveal_request(TABLE, HAND, 0, 5.0))  # the reveal came after the deadline: no ack
    client.handle(_proof(everyone, {HOST: _secret(HOST), 1: _secret(1)}, forfeited=(0,)))
    assert client.results[(TABLE, HAND)].ok
    assert client.notes[(TABLE, HAND)] == LATE_REVEAL


def test_a_host_that_hides_the_commitments_then_replaces_one_is_still_a_violation() -> None:
    client = _participant()
    mine = _committed(client)
    client.handle(_published({HOST: _digest(HOST), 0: mine}))
    client.handle(protocol.reveal_request(TABLE, HAND, 0, 5.0))
    client.handle(protocol.ack("reveal", table=TABLE, hand=HAND))
    other = bytes([1]) * 32
    client.handle(_proof({HOST: _digest(HOST, other), 0: mine}, {HOST: other, 0: bytes([7]) * 32}))
    assert _kinds(client) == ["commitment_replaced"]


def test_a_shuffle_started_over_for_the_same_hand_forgets_the_commitments_seen_before() -> None:
    client = _participant()
    mine = _committed(client)
    client.handle(_published({HOST: _digest(HOST), 0: mine}))
    _committed(client)  # asked again for the same hand: the first round's list is stale
    assert client.handle(protocol.reveal_request(TABLE, HAND, 0, 5.0)) == []


async def test_a_shuffle_started_over_asks_under_a_new_hand_id(rooms: Any, connect: Any) -> None:
    """Someone sits down during the shuffle: it starts over. Under the same hand id a commitment still on its way
    for the first round counted in the second, where the client had drawn a new secret: its reveal no longer
    matched and the room folded an honest player."""
    running: RunningRoom = await rooms(small_room(seats=3), runner_settings=QUICK)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    assert ana.fairness is not None
    original = ana.fairness.handle
    sat: list[bool] = []

    def handle(message: dict[str, Any]) -> list[dict[str, Any]]:
        if message.get("type") == "commit_request" and not sat:  # carla sits while the first shuffle runs
            sat.append(True)
            carla._write(protocol.message("sit", table="t1", buy_in=100, seat=2))
        return original(message)

    ana.fairness.handle = handle  # type: ignore[method-assign]

    async def body() -> None:
        def asked() -> list[str]:
            return [m["hand"] for m in ana.received if m["type"] == "commit_request"]

        await _until(lambda: len(asked()) >= 2)
        assert [m["hand"] for m in carla.received if m["type"] == "commit_request"][:1] == asked()[1:2]
        assert asked()[0] != asked()[1] and asked()[0].rsplit("-", 1)[1] == asked()[1].rsplit("-", 1)[1] == "1"

    await _with_bots([ana, bruno], body)


def test_the_hand_log_says_not_verified_without_a_check_mark_when_the_commitments_were_missed() -> None:
    client = _participant()
    mine = _committed(client)
    everyone = {HOST: _digest(HOST), 0: mine, 1: _digest(1)}
    proof = _proof(everyone, {HOST: _secret(HOST), 1: _secret(1)}, forfeited=(0,))
    client.handle(proof)
    (verdict,) = fairness_verdicts(client, proof)
    assert verdict["unverified"] == MISSED_COMMITMENTS and verdict["violations"] == []
    model = TableModel(TABLE, "me")
    model.apply(verdict, now=100.0)
    (summary,) = model.hands
    assert summary.verdict == "not verified (slow connection)"
    assert badge(summary).plain == "? not verified (slow connection)"
