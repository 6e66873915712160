"""Issue 13 item 2, the screen's side: whatever the wire carries, the TUI renders no escape sequence.

The app is fed, as a room would send them, a room name, a table name, seat names, chat (table and lobby), a
notice, an error, a relayed alarm with words in it and a lost connection's reason, each carrying every payload
of the issue; nothing the app keeps to show (title, notices, lobby rows, the table's seats, log, chat, hand
badges) nor the drawn screen holds a control character or the rest of a sequence.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.hosting.security.wire_room import EVIL, EVIL_CLEAN, assert_clean
from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, msg
from tui.app import CroupierApp
from tui.connection import ConnectionLost


class LosingConnection(ReplayConnection):
    """Replays its messages, then is lost with :data:`EVIL` as the reason."""

    async def receive(self) -> dict[str, Any]:
        if self.messages:
            return self.messages.pop(0)
        raise ConnectionLost(EVIL)


def hostile_messages() -> list[dict[str, Any]]:
    row = {"id": "t1", "name": EVIL, "game": "texas_holdem", "structure": "no_limit", "stakes": [1, 2],
           "buy_in": [80, 200], "players": 2, "seats": 6, "average_pot": 0, "hands_per_hour": 0, "waiting": 0,
           "watchers": 0}
    seats = [{"seat": 0, "name": "me", "stack": 200}, {"seat": 1, "name": EVIL, "stack": 200}]
    return [
        msg("hello", server="croupier", protocol=1, room=EVIL, room_id="r1", name="me", registered=False, needs=[],
            motd=EVIL),
        msg("lobby", tables=[row]),
        msg("table", table="t1", seats=seats, max_seats=6, waiting=[EVIL], hand_running=False),
        event("t1", "t1-a-1", "player_seated", player=EVIL, seat=1),
        msg("chat", sender=EVIL, text=EVIL, table="t1", at=1.0),
        msg("chat", sender=EVIL, text=EVIL, at=1.0),
        msg("notice", text=EVIL),
        msg("error", code="x", message=EVIL, in_reply_to="chat", table="t1"),
        msg("verification_result", table="t1", hand="t1-a-1", name=EVIL, ok=False,
            violations=[{"kind": "card_mismatch", "message": EVIL}]),
    ]


async def test_nothing_from_the_wire_reaches_the_screen_with_an_escape_sequence() -> None:
    connections: list[LosingConnection] = []

    async def connect() -> LosingConnection:
        if connections:  # the reconnect after the loss: the room stays away
            await asyncio.Event().wait()
        connections.append(LosingConnection(hostile_messages()))
        return connections[-1]

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "Connection lost" in app._notice, what="the lost connection")
        model = app.models["t1"]
        shown: list[Any] = [app.title, app.sub_title, app.notices, app._notice, app.lobby_rows, model.alarm,
                            model.error, model.log, model.chat, model.waiting,
                            [info.name for info in model.seats.values()],
                            [summary.violations for summary in model.hands]]
        assert_clean(shown, "the app's texts")
        assert_clean(app.export_screenshot(), "the drawn screen")
        assert EVIL_CLEAN in app.title and f"{EVIL_CLEAN}: {EVIL_CLEAN}" in app.notices
        assert model.seats[1].name == EVIL_CLEAN and (EVIL_CLEAN, EVIL_CLEAN) in model.chat
        assert app._notice == f"Connection lost: {EVIL_CLEAN} — reconnecting…"


async def test_a_rooms_words_in_the_notice_line_are_never_markup() -> None:
    link = "[link=https://evil.example]click[/link]"

    async def connect() -> LosingConnection:
        await asyncio.Event().wait()
        raise AssertionError("never connects")

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 40)) as pilot:
        app.show_notice(f"The room closed the connection: {link}")
        await pilot.pause()
        assert link in app.export_screenshot()  # shown as the words it is, not turned into a hyperlink
