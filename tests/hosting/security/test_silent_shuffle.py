"""Issue 13 item 12: a seated player who misses his commit or his reveal is sat out until he sits in himself,
so a silent client cannot add the shuffle deadline to every hand (it did: a missed reveal only folded him, and
a reconnect sat a missed commit back in)."""

from __future__ import annotations

from typing import Any

from hosting.client import RequestRefused, RoomClient
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.hosting.security.helpers import small_room
from tests.hosting.test_play import SilentAt, _until, _with_bots  # the silent client and bots of the play tests

QUICK = RunnerSettings(commit_seconds=1.0, reveal_seconds=1.0, pause_between_hands=0.05)  # bots answer in time


def _seeds(client: RoomClient) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "seeds"]


def _sitting_out(running: RunningRoom, name: str) -> bool:
    table = running.room.tables["t1"].engine
    seat = table.seat_of(name)
    return seat is not None and table.players[seat].sitting_out


async def test_a_player_who_never_reveals_is_sat_out_after_one_forfeit(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(small_room(seats=3), runner_settings=QUICK)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    SilentAt(carla, "reveal")
    await carla.request("sit", table="t1", buy_in=100, seat=2)

    async def body() -> None:
        first = await _until(lambda: [m for m in _seeds(ana) if m["transcript"]["forfeited"] == [2]])
        assert _sitting_out(running, "carla")
        after = _seeds(ana).index(first[0]) + 1
        later = await _until(lambda: _seeds(ana)[after:][:3] if len(_seeds(ana)) >= after + 3 else None)
        assert [m["transcript"]["forfeited"] for m in later] == [[], [], []]  # 3 more hands, none waited for her
        asked = [m["hand"] for m in carla.received if m["type"] == "commit_request"]
        assert asked == [first[0]["hand"]]  # never asked again: the hands no longer wait for her
        assert _sitting_out(running, "carla")
        await carla.request("sit_out", table="t1", on=False)  # her own choice: dealt in again
        await _until(lambda: [m for m in carla.received if m["type"] == "commit_request"][1:])

    await _with_bots([ana, bruno], body)


async def test_a_player_who_missed_his_commit_while_connected_stays_out_when_he_reconnects(
        rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(seats=3), runner_settings=QUICK)
    ana, bruno = [await connect(running, name) for name in ("ana", "bruno")]
    key = new_key()
    carla: RoomClient = await connect(running, "carla", key)
    SilentAt(carla, "commit")
    await carla.request("sit", table="t1", buy_in=100, seat=2)

    async def body() -> None:
        await _until(lambda: _sitting_out(running, "carla"))
        back: RoomClient = await connect(running, "carla", key)  # a new connection (a working client)
        hands = len(_seeds(ana))

        def asked() -> list[dict[str, Any]]:
            return [m for m in back.received if m["type"] == "commit_request"]

        await _until(lambda: len(_seeds(ana)) >= hands + 3 or asked())  # 3 hands played without her, or asked
        assert not asked() and _sitting_out(running, "carla")

    await _with_bots([ana, bruno], body)


async def test_a_player_who_sits_back_in_after_each_missed_reveal_waits_longer_each_time(
        rooms: Any, connect: Any) -> None:
    """Issue 25 item 4: sat out after a miss, he sat in again at once and cost the table the deadline every
    hand; the first miss is forgiven at once, the second earns a 30 s wait (hosting.missed_shuffles)."""
    running: RunningRoom = await rooms(small_room(seats=3), runner_settings=QUICK)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    SilentAt(carla, "reveal")
    await carla.request("sit", table="t1", buy_in=100, seat=2)

    def forfeits() -> int:
        return sum(m["transcript"]["forfeited"] == [2] for m in _seeds(ana))

    async def body() -> None:
        await _until(lambda: forfeits() == 1 and _sitting_out(running, "carla"))
        await carla.request("sit_out", table="t1", on=False)  # a slow connection's miss: back at once
        await _until(lambda: forfeits() == 2 and _sitting_out(running, "carla"))
        try:
            await carla.request("sit_out", table="t1", on=False)
        except RequestRefused as refused:
            assert refused.reply["code"] == "too_soon" and "in 30 s" in refused.reply["message"]
        else:
            raise AssertionError("sat in again at once after a second missed reveal")
        assert _sitting_out(running, "carla")

    await _with_bots([ana, bruno], body)
