"""The key bar (tui/widgets/key_bar.py): the keys that work now, one entry per action, and a click on an entry
presses that key (the mouse is complete without Textual's Footer)."""

from __future__ import annotations

from tests.tui.recorded import ReplayConnection, hello, lobby_rows, msg
from tests.waiting import until
from tui.app import CroupierApp
from tui.widgets.key_bar import KeyBar


def lobby_app() -> tuple[CroupierApp, list[ReplayConnection]]:
    opened: list[ReplayConnection] = []

    async def connect() -> ReplayConnection:
        connection = ReplayConnection([hello(), msg("lobby", tables=lobby_rows(), balance=1000)])
        opened.append(connection)
        return connection

    return CroupierApp(connect, reconnect=False), opened


async def test_the_key_bar_lists_the_lobby_keys_and_a_click_presses_one() -> None:
    app, opened = lobby_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await until(lambda: app.lobby_rows and " w Watch" in app.query_one(KeyBar).render().plain, "the key bar",
                    pause=pilot.pause)
        bar = app.query_one(KeyBar)
        shown = [(key, description) for key, description, _ in bar.entries]
        assert ("j", "Join") in shown and ("w", "Watch") in shown and ("?", "Help") in shown
        assert "^p" in bar.render().plain and "palette" in bar.render().plain
        column = bar.render().plain.index(" w Watch") + 1
        assert bar.key_at(column) == "w"
        await pilot.click(KeyBar, offset=(column, 0))
        await pilot.pause(0.2)
        watched = [sent for sent in opened[0].sent if sent["type"] == "watch"]
        assert watched and watched[0]["table"] == "holdem-1-2"  # the highlighted lobby row
