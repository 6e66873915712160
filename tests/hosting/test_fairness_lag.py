"""Issue 20 (load): an honest host and an honest but slow client must never end with a fairness violation.

The 1,500-bot point reported ``commitment_replaced`` with ``published: none`` for every committer: a bot that
committed, then left its seat (its bot loop timed out) before the room published the commitments, was still
asked for its reveal and sent the proof (both by name) but never the commitments (sent to the table's audience
only), so it checked the proof against nothing. The commitments now reach every dealt-in player, as the proof.
"""

from __future__ import annotations

from typing import Any

from hosting.client import RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.security.helpers import small_room
from tests.hosting.test_play import _until, _with_bots

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
