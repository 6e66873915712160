"""The lobby: its list of tables and what the player asks from it (watch, join with a buy-in, refresh, a
play-money refill), and the palette's lobby commands."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import on, work
from textual.widgets import Tabs

from tui.screens import AmountScreen
from tui.tables_screen import TablesScreen
from tui.widgets.lobby import Lobby
from tui.widgets.table_view import TableView


class LobbyScreen(TablesScreen):
    """The lobby part of the app's screen."""

    @on(Lobby.Chosen)
    def _lobby_choice(self, event: Lobby.Chosen) -> None:
        self.open_table(event.table_id, sit=event.sit)

    @work(group="requests")
    async def open_table(self, table_id: str, sit: bool) -> None:
        """Watch a table (open its tab) and, to join, ask the buy-in and sit down."""
        row = self.lobby_rows.get(table_id, {})
        if row.get("kind") == "pool":  # join the pool: its tables open as it deals us hands (R-FAST-1)
            if sit:
                minimum, maximum = (row.get("buy_in") or [1, 1])[:2]
                amount = await self.push_screen_wait(AmountScreen(f"Buy-in at {row.get('name', table_id)}",
                                                                  int(minimum), int(maximum), int(maximum)))
                if amount is not None:
                    await self.send("sit", table=table_id, buy_in=amount)
            return
        model = self.models.get(table_id)
        if model is not None and (model.seated or not sit):
            self.show_table(table_id)
            return
        if sit:
            minimum, maximum = (row.get("buy_in") or [1, 1])[:2]
            if row.get("players", 0) >= row.get("seats", 1):
                await self.send("waiting_list", table=table_id, on=True)
                return
            amount = await self.push_screen_wait(AmountScreen(f"Buy-in at {row.get('name', table_id)}",
                                                              int(minimum), int(maximum), int(maximum)))
            if amount is None:
                return
        if model is None:
            self._open_table(table_id)
            await self.send("watch", table=table_id)
        self.show_table(table_id)
        if sit:
            await self.send("sit", table=table_id, buy_in=amount)

    @on(Lobby.Refresh)
    def _refresh_lobby(self) -> None:
        self.run_worker(self.send("lobby"), group="send")

    @on(Lobby.Refill)
    def _refill(self) -> None:
        self.run_worker(self.send("refill"), group="send")  # the room answers ack (on its way) or error (why not)


    @on(TableView.SitWanted)
    def _sit_wanted(self, event: TableView.SitWanted) -> None:
        self.open_table(event.table_id, sit=True)


    def action_lobby(self) -> None:
        self.query_one(Tabs).active = "tab-lobby"
        self._show_pane("tab-lobby")
        self.run_worker(self.send("lobby"), group="send")


    def _in_lobby(self, change: Callable[[], None]) -> None:
        """A lobby command from the palette: show the lobby, then change its list."""
        self.query_one(Tabs).active = "tab-lobby"
        self._show_pane("tab-lobby")
        change()


    def filter_lobby(self, selector: str, value: str | None) -> None:
        lobby = self.query_one(Lobby)
        self._in_lobby(partial(lobby.filter_by, selector, value))
