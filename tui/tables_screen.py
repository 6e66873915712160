"""The tables: one tab per table (or all of them as tiles), the table the keys act on, the requests from a
table's view, and the app's table keys (jump, tiles, hand history, next table, report)."""

from __future__ import annotations

from typing import Any

from textual import events, on, work
from textual.containers import Container
from textual.widgets import Tab, Tabs

from tui.history_viewer import HandHistoryScreen
from tui.model import TableModel
from tui.notes import PlayerNotes
from tui.presets import BetPresets
from tui.room_app import RoomApp
from tui.screens import AmountScreen, AutoTopUpScreen, NotesScreen
from tui.widgets.lobby import Lobby
from tui.widgets.table_view import TableView

COMPACT_WIDTH = 100
COMPACT_HEIGHT = 32
TILED_FULL_WIDTH = 150  # four tiles of 75 columns and 21 rows or more keep the full table layout
TILED_FULL_HEIGHT = 45


def widget_key(table_id: str) -> str:
    """A table id as a widget id's tail: Textual ids take letters, digits, ``_`` and ``-`` only, and a
    tournament's tables are ``<tournament>.<number>`` (``_`` is written ``_u``, ``.`` ``_d``: one way back).

    >>> widget_key("sng.2"), widget_key("a_b.1"), widget_key("holdem-1-2")
    ('sng_d2', 'a_ub_d1', 'holdem-1-2')
    """
    return table_id.replace("_", "_u").replace(".", "_d")


def table_tab_id(table_id: str) -> str:
    return f"tab-{widget_key(table_id)}"


class TablesScreen(RoomApp):
    """The tables part of the app's screen."""

    tiled: bool
    four_colour: bool
    table_views: dict[str, TableView]  # table id -> its view: check_action asks on every key-bar refresh
    notes: PlayerNotes  # the player's notes and colour tags on others (tui.notes)
    bet_presets: BetPresets  # the player's bet sizes, keys 1-9, at every table (tui.presets)
    room_notes: bool

    def on_resize(self, event: events.Resize) -> None:
        self._relayout(event.size.width, event.size.height)

    def _relayout(self, width: int, height: int) -> None:
        # tiles are a quarter of the screen each: they go compact unless the screen holds four full tables
        small = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        small_tiles = self.tiled and (width < TILED_FULL_WIDTH or height < TILED_FULL_HEIGHT)
        self.screen.set_class(small or small_tiles, "-compact")


    def connection_lost(self) -> None:
        """The connection dropped: every table's bar greys out until the room is back."""
        for table_id in self.models:
            self._push(table_id)


    # --- tables --------------------------------------------------------------------------------------

    def _table_name(self, table_id: str) -> str:
        """The table's name for the player (its id only while the lobby has not named it)."""
        model = self.models.get(table_id)
        return (model.name if model is not None else "") or str(self.lobby_rows.get(table_id, {}).get("name")
                                                                 or table_id)

    def lobby_row_of(self, table_id: str) -> dict[str, Any] | None:
        """The lobby row that describes ``table_id``: its own, or for a fast-fold pool's table (``zoom.3``,
        never listed itself) the pool's — its name, stakes and clock (R-FAST-1)."""
        row = self.lobby_rows.get(table_id)
        if row is not None:
            return row
        pool = self.lobby_rows.get(table_id.rpartition(".")[0])
        return pool if pool is not None and pool.get("kind") == "pool" else None

    def _describe(self, model: TableModel, row: dict[str, Any]) -> None:
        model.name = str(row.get("name") or row.get("id"))
        model.game = str(row.get("game") or "")
        model.structure = str(row.get("structure") or "")
        stakes = row.get("stakes") or [0, 0]
        if row.get("id") == model.table_id or model.stakes == (0, 0):
            # a pool's table (zoom.3) keeps its own stakes once it has them (its snapshot's): the pool's row
            # shows the host's new level at once, its tables deal it from their next hand
            model.stakes = (int(stakes[0]), int(stakes[1]))
        model.max_seats = int(row.get("seats", model.max_seats))
        clock = row.get("clock")
        if isinstance(clock, dict):  # optional: a room that sends its clock lets the bar split off the bank
            model.clock = {str(key): float(value) for key, value in clock.items() if isinstance(value, int | float)}

    def _open_table(self, table_id: str) -> TableModel:
        model = TableModel(table_id, self.me)
        row = self.lobby_row_of(table_id)
        if row is not None:
            self._describe(model, row)
        self.models[table_id] = model
        view = TableView(table_id, id=f"view-{widget_key(table_id)}")
        view.four_colour = self.four_colour
        self.table_views[table_id] = view
        self.query_one("#tables").mount(view)
        label = f"{model.name or table_id}"
        self.query_one(Tabs).add_tab(Tab(label, id=table_tab_id(table_id)))
        self.call_after_refresh(self._push, table_id)
        return model

    def view_of(self, table_id: str) -> TableView | None:
        """The table's view: kept when opened, not looked up in the screen (a DOM query per key-bar check)."""
        return self.table_views.get(table_id)

    def _push(self, table_id: str) -> None:
        """Send a table's model down into its view and flag its tab."""
        model = self.models.get(table_id)
        view = self.view_of(table_id)
        if model is None or view is None:
            return
        model.notes = self.notes.entries  # the seats' colour tags and notes (tui.notes)
        view.bet_presets = self.bet_presets.presets  # the player's bet sizes, keys 1-9 (tui.presets)
        view.model = model
        tabs = self.query_one(Tabs)
        tab = next(iter(tabs.query(f"#{table_tab_id(table_id)}").results(Tab)), None)
        if tab is not None:
            tab.set_class(model.needs_action, "-needs-action")
            tab.label = ("● " if model.needs_action else "") + (model.name or table_id)

    def close_table(self, table_id: str) -> None:
        self.models.pop(table_id, None)
        view = self.table_views.pop(table_id, None)
        if view is not None:
            view.remove()
        tabs = self.query_one(Tabs)
        if tabs.query(f"#{table_tab_id(table_id)}"):
            tabs.remove_tab(table_tab_id(table_id))
        if not self.models:
            tabs.active = "tab-lobby"

    def show_table(self, table_id: str, tries: int = 40) -> None:
        """Make ``table_id``'s tab the active one (waiting a moment for a tab that is still being added)."""
        tabs = self.query_one(Tabs)
        if not tabs.query(f"#{table_tab_id(table_id)}"):
            if tries and table_id in self.models:
                self.set_timer(0.05, lambda: self.show_table(table_id, tries - 1))
            return
        tabs.active = table_tab_id(table_id)
        self._show_pane(table_tab_id(table_id))

    def is_visible(self, table_id: str) -> bool:
        """Whether the player can see the table now (its tab is active, or tiles are shown)."""
        active = self.query_one(Tabs).active
        if active == "tab-lobby" or active is None:
            return False
        return self.tiled or active == table_tab_id(table_id)

    @property
    def current_table(self) -> str | None:
        """The table the keys act on: the active tab's (one source of truth — the tab, the highlighted tile,
        the table keys and the palette's table commands all follow it). None in the lobby."""
        return self.table_of_tab(self.query_one(Tabs).active or "")

    def table_of_tab(self, tab_id: str) -> str | None:
        """The open table whose tab is ``tab_id`` (None: the lobby, or a table closed since)."""
        return next((table_id for table_id in self.models if table_tab_id(table_id) == tab_id), None)

    def current_view(self) -> TableView | None:
        """The view of :attr:`current_table` (what the table hotkeys and palette actions act on)."""
        table_id = self.current_table
        return self.view_of(table_id) if table_id is not None else None

    def choose_table(self, table_id: str) -> None:
        """The player went to a table with the mouse (a click in its tile): it becomes the current table,
        without taking the focus from the widget he clicked."""
        if table_id in self.models and self.current_table != table_id:
            self.query_one(Tabs).active = table_tab_id(table_id)
            self._show_pane(table_tab_id(table_id), focus=False)

    @on(Tabs.TabActivated)
    def _tab_changed(self, event: Tabs.TabActivated) -> None:
        # the tab active now, not the event's: a late message must not bring back a pane the player left
        if not self.query(Tabs):
            return  # the app is closing: a tab removed just before (a table closed) has nothing to show
        self._show_pane(self.query_one(Tabs).active or event.tab.id or "")

    def _show_pane(self, tab_id: str, focus: bool = True) -> None:
        """Show the pane of ``tab_id`` (lobby or one table), mark it current and focus it.

        Called directly wherever the app moves the tab, not only from ``Tabs.TabActivated``: the pane must
        never lag behind (or miss) the highlighted tab, or the player sees one table while keys go to another.
        """
        lobby = tab_id == "tab-lobby"
        self.query_one("#lobby-pane").set_class(not lobby, "-hidden")
        self.query_one("#tables").set_class(lobby, "-hidden")
        for view in self.query(TableView):
            view.set_class(table_tab_id(view.table_id) == tab_id, "-active")
        if lobby:
            self.query_one("#tables", Container).blur()
            self.call_after_refresh(self._focus_lobby)
        else:
            table_id = self.table_of_tab(tab_id)
            shown = self.view_of(table_id) if table_id is not None else None
            if shown is not None and focus:
                self.call_after_refresh(self._focus_view, shown)

    def _focus_view(self, view: TableView) -> None:
        """Give the keyboard to ``view`` unless it has it already (a click in its amount box keeps it there)."""
        focused = self.focused
        if view.is_attached and (focused is None or view not in focused.ancestors_with_self):
            view.focus()

    def _focus_lobby(self) -> None:
        from textual.widgets import DataTable

        lobby = self.query_one(Lobby)
        tables = lobby.query_one("#table-list", DataTable)
        if not tables.row_count and lobby.tournaments:  # a room of tournaments only: their list takes the keys
            tables = lobby.query_one("#tournament-list", DataTable)
        tables.focus()


    @on(TableView.Request)
    def _table_request(self, event: TableView.Request) -> None:
        fields = dict(event.fields)
        model = self.models.get(event.table_id)
        if event.message_type == "leave" and model is not None and not model.seated:
            self.run_worker(self.send("unwatch", table=event.table_id), group="send")
            self.close_table(event.table_id)
            return
        if event.message_type == "leave":  # its answer tells the result (tui.results)
            self.leave_asked(event.table_id)
        if event.message_type == "action" and model is not None:
            model.answered = model.legal  # kept: a refusal gives the turn back (the room does not ask again)
            model.legal = None  # answered: the bar greys out until the room asks again
            model.error = ""
            self._push(event.table_id)
        self.run_worker(self.send(event.message_type, table=event.table_id, **fields), group="send")


    def leave_asked(self, table_id: str) -> None:
        """We asked to leave ``table_id``: the room's answer tells the sitting's result (the app's)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Table keys are shown for what the current table allows now (I'm back when away, Max or Pot where
        the maximum is not all-in, Sit down and Close when watching)."""
        if action == "table_key" and parameters:
            view = self.current_view()
            if view is not None:
                return view.key_state(str(parameters[0]))
        return True

    @on(TableView.TopUpWanted)
    def _top_up(self, event: TableView.TopUpWanted) -> None:
        self.top_up(event.table_id)

    @work(group="requests")
    async def top_up(self, table_id: str) -> None:
        model = self.models.get(table_id)
        row = self.lobby_row_of(table_id) or {}  # a pool's table (zoom.3): the pool's limits
        if model is None or model.my_seat is None:
            return
        stack = model.seats[model.my_seat].stack
        maximum = int((row.get("buy_in") or [0, 0])[1])
        if stack >= maximum:
            self.notify(f"Your stack ({stack}) is already at the table maximum ({maximum}).", severity="warning")
            return
        amount = await self.push_screen_wait(AmountScreen("Top-up", 1, maximum - stack, maximum - stack))
        if amount is None:
            return
        if model.kind == "pool":  # to the pool, not its table: it keeps it while this hand holds us (ack after_hand)
            await self.send("top_up", table=str(row.get("id") or table_id.rpartition(".")[0]), amount=amount)
            return
        if model.in_running_hand:  # the room adds chips only between hands: kept until this one ends
            model.pending_top_up = amount
            self.notify(f"Top-up of {amount} at {self._table_name(table_id)}: added when this hand ends.",
                        title="top-up")
            return
        await self.send("top_up", table=table_id, amount=amount)

    @on(TableView.NotesWanted)
    def _notes_wanted(self, event: TableView.NotesWanted) -> None:
        self.edit_notes(event.table_id)

    @work(group="requests")
    async def edit_notes(self, table_id: str) -> None:
        """Q: notes on a player at this table (tui.notes); every table shows the new tag at once."""
        model = self.models.get(table_id)
        players = sorted({info.name for info in model.seats.values() if info.name and info.name != self.me}) \
            if model is not None else []
        if not players:
            self.notify("Nobody else sits here to take notes on.", title="notes")
            return
        answer = await self.push_screen_wait(NotesScreen(players, self.notes))
        if answer is None:
            return
        try:
            self.notes.set(*answer)
        except ValueError as problem:
            self.notify(str(problem), title="notes", severity="error")
            return
        if self.room_notes:  # a served screen: the room keeps them (its answer replaces ours)
            colour, text = self.notes.get(answer[0]) or ("", "")
            await self.send("notes", player=answer[0], tag=colour, note=text)
        for other in list(self.models):
            self._push(other)

    def set_auto_top_up(self, table_id: str) -> None:
        """Z: the auto top-up / rebuy window, opened at once (the keys typed next are its: tui.typeahead); the room
        checks the order and answers (the app's ack shows it)."""
        model = self.models.get(table_id)
        if model is None or model.my_seat is None or model.kind == "tournament":
            return
        minimum, maximum = (int(limit) for limit in (self.lobby_rows.get(table_id, {}).get("buy_in") or [0, 0])[:2])

        def ordered(order: dict[str, int | bool | None] | None) -> None:
            if order is not None:
                fields = {key: value for key, value in order.items() if value is not None}
                self.run_worker(self.send("auto_top_up", table=table_id, **fields), group="send")

        self.push_screen(AutoTopUpScreen(self._table_name(table_id), minimum, maximum, model.auto_top_up), ordered)

    def _send_queued_top_up(self, model: TableModel) -> None:
        if not model.pending_top_up or model.in_running_hand or model.my_seat is None:
            return
        # what the hand brought counts: never past the table's maximum buy-in
        maximum = int(((self.lobby_row_of(model.table_id) or {}).get("buy_in") or [0, 0])[1])
        room = maximum - model.seats[model.my_seat].stack if maximum else model.pending_top_up
        amount, model.pending_top_up = min(model.pending_top_up, room), 0
        if amount > 0:
            self.run_worker(self.send("top_up", table=model.table_id, amount=amount), group="send")
        else:
            self.notify(f"No top-up at {self._table_name(model.table_id)}: your stack is at the maximum.",
                        title="top-up")


    def waiting_tables(self) -> list[str]:
        return [table_id for table_id, model in self.models.items() if model.needs_action]

    def action_jump(self) -> None:
        """Go to the next table that waits for your action."""
        waiting = self.waiting_tables()
        if not waiting:
            self.notify("No table is waiting for you.", timeout=2)
            return
        current = self.current_view()
        order = list(self.models)
        start = order.index(current.table_id) + 1 if current is not None and current.table_id in order else 0
        ordered = order[start:] + order[:start]
        target = next(table_id for table_id in ordered if table_id in waiting)
        self.show_table(target)  # shows the pane and focuses the table: its keys act there

    def action_toggle_tiles(self) -> None:
        self.tiled = not self.tiled
        self.screen.set_class(self.tiled, "-tiled")
        self._relayout(self.size.width, self.size.height)
        if self.models and self.query_one(Tabs).active == "tab-lobby":
            self.show_table(next(iter(self.models)))

    def action_toggle_log(self) -> None:
        self.screen.toggle_class("-show-log")

    def action_four_colour(self) -> None:
        self.four_colour = not self.four_colour
        for view in self.query(TableView):
            view.four_colour = self.four_colour
            view.model = view.model
        self.notify("Four-colour deck " + ("on" if self.four_colour else "off"), timeout=2)

    def action_hand_history(self) -> None:
        """The hand-history viewer for the table the keys act on (its last hand first)."""
        view = self.current_view()
        model = self.models.get(view.table_id) if view is not None else None
        if model is None:
            self.notify("Open a table first: the viewer shows that table's hands.", severity="warning", timeout=3)
            return
        self.push_screen(HandHistoryScreen(model, self.four_colour))

    def action_next_table(self, step: int) -> None:
        order = ["tab-lobby", *(table_tab_id(table_id) for table_id in self.models)]
        active = self.query_one(Tabs).active or "tab-lobby"
        index = order.index(active) if active in order else 0
        target = order[(index + step) % len(order)]
        self.query_one(Tabs).active = target
        self._show_pane(target)

    def report_last_hand(self) -> None:
        """R-AUDIT-1: ask the host to review the last finished hand of the current table."""
        view = self.current_view()
        model = self.models.get(view.table_id) if view is not None else None
        finished = [summary for summary in model.hands if summary.fairness is not None] if model else []
        if not finished:
            self.notify("No finished hand to report at this table yet.", severity="warning")
            return
        # one message, when the room answers: reported (its ack) or why not (its error)
        self.run_worker(self.send("report_hand", hand=finished[-1].hand_id, reason="reported from the table"),
                        group="send")

    def action_table_key(self, name: str, *arguments: str | int) -> None:
        """A table key (bound in :class:`TableView`): it acts on the current table, never on another one
        that happens to hold the focus."""
        self.table_action(name, *arguments)

    def table_action(self, name: str, *arguments: str | int) -> None:
        view = self.current_view()
        if view is None:
            self.notify("Open a table first.", severity="warning", timeout=3)
            return
        getattr(view, f"action_{name}")(*arguments)


    def current_model(self) -> TableModel | None:
        table_id = self.current_table
        return self.models.get(table_id) if table_id is not None else None
