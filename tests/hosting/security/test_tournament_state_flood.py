"""The tournament screen (``state``) asked in a flood, over SSH (issue 18).

Building it costs the host ~10 ms at 3,000 entrants (the ranked players), and every request was answered: the
message rate (burst 400, then 200 a second) let one connection ask for two cores' worth, with every table of the
room on the same event loop. Now each name gets 8 answers at once, then 2 a second; a request over that is
answered once, a little later, with the state of then — never refused (the TUI asks after many events).
"""

from __future__ import annotations

from typing import Any

from hosting.client import RoomClient
from hosting.config import AccessConfig, RoomConfig
from hosting.server import RunningRoom
from tests.hosting.security.helpers import drain
from tests.hosting.tournament_play import sit_and_go


async def test_a_flood_of_state_requests_gets_a_bounded_number_of_answers(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(RoomConfig("flood room", (), AccessConfig(connections_per_minute=1000),
                                                  tournaments=(sit_and_go("club", size=6, seats=6),)))
    mallory: RoomClient = await connect(running, "mallory")
    await mallory.request("tournament", action="register", tournament="club")
    await mallory.send_raw(b'{"v":1,"type":"tournament","action":"state","tournament":"club"}\n' * 300)
    seen = await drain(mallory, 2.0)
    answers = [message for message in seen if message["type"] == "tournament"]
    assert 9 <= len(answers) <= 12, len(answers)  # 8 at once, one late answer for the rest (not 300)
    assert answers[-1]["registered"] == 1 and answers[-1]["my_entries"] == [1]  # a real, current state
    assert not [message for message in seen if message["type"] in ("error", "bye")]  # never refused for asking
    assert "mallory" in running.room.sessions

    ana: RoomClient = await connect(running, "ana")  # someone else is answered at once
    await ana.send("tournament", action="state", tournament="club")
    assert (await ana.wait_for("tournament"))["id"] == "club"
