"""The look, pinned with pytest-textual-snapshot: lobby, a table mid-hand with side pots, four tiled tables,
and the compact 80×24 layout. The app is fed recorded protocol messages (tests/tui/recorded.py) so the cards
and numbers are the same on every run; the clock is frozen."""

from __future__ import annotations

from typing import Any

from tests.tui.recorded import ReplayConnection, hello, lobby_rows, msg, side_pot_hand
from tui.app import CroupierApp


def replay_app(messages: list[dict[str, Any]]) -> CroupierApp:
    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    return CroupierApp(connect, clock=lambda: 100.0)


def room_messages(*tables: str) -> list[dict[str, Any]]:
    messages = [hello(), msg("lobby", tables=lobby_rows())]
    for index, table_id in enumerate(tables):
        hand = side_pot_hand(table_id, f"{table_id}-h-{index + 1}")
        messages += hand if index == 0 else hand[:16]  # the others stop earlier: a different moment each
    return messages


async def settle(pilot: Any) -> None:
    """Let the replayed messages arrive and the screen settle (the connection worker itself never ends)."""
    for _ in range(50):
        await pilot.pause(0.02)
        if not getattr(pilot.app.connection, "messages", [None]):
            break
    await pilot.pause(0.2)
    # A "your turn" toast raised while the table was hidden lives 5 s: on a loaded machine it is sometimes gone by
    # the time of the picture and sometimes not. The pictures are of the tables, so no toast is in them.
    pilot.app.clear_notifications()
    await pilot.pause()


def test_lobby(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)

    assert snap_compare(replay_app(room_messages()), terminal_size=(120, 30), run_before=run_before)


def test_table_mid_hand_with_side_pots(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.show_table("holdem-1-2")
        await settle(pilot)

    assert snap_compare(replay_app(room_messages("holdem-1-2")), terminal_size=(130, 34), run_before=run_before)


def test_four_tables_tiled(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.show_table("holdem-1-2")
        await pilot.press("t")
        await settle(pilot)

    app = replay_app(room_messages("holdem-1-2", "holdem-5-10", "omaha-1-2", "omaha-5-10"))
    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)


def test_compact_80_by_24(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.show_table("holdem-1-2")
        await settle(pilot)

    assert snap_compare(replay_app(room_messages("holdem-1-2")), terminal_size=(80, 24), run_before=run_before)


def test_four_tables_tiled_on_a_smaller_screen_go_compact(snap_compare: Any) -> None:
    """At 120×35 four full tables do not fit: the tiles take the compact layout and keep the action bar."""
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.show_table("holdem-1-2")
        await pilot.press("t")
        await settle(pilot)

    app = replay_app(room_messages("holdem-1-2", "holdem-5-10", "omaha-1-2", "omaha-5-10"))
    assert snap_compare(app, terminal_size=(120, 35), run_before=run_before)
