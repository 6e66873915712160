"""The lobby (R-LOBBY-1): cash tables with game, structure, stakes, players/seats, average pot, hands per
hour and waiting list; sorting by any column, filters (game, stakes, hide full, hide empty); open (watch) or
join (sit) the highlighted table; the balance and the play-money refill. Under them, when the room has any, its
tournaments (type, game, buy-in + fee, registered / max, start, status): register or unregister the highlighted
one."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Checkbox, DataTable, Label, Select

from engine import variants
from tui.keys import LOBBY, bindings
from tui.tournament_book import lobby_cells
from tui.widgets.tick_box import TickBox

STRUCTURE_NAMES = {"no_limit": "NL", "pot_limit": "PL", "half_pot_limit": "½PL", "fixed_limit": "FL",
                   "spread_limit": "SL"}
TOURNAMENT_COLUMNS = ("Tournament", "Type", "Game", "Buy-in", "Players", "Start", "Status")
COLUMNS = [("name", "Table"), ("game", "Game"), ("structure", "Limit"), ("stakes", "Stakes"),
           ("players", "Plrs"), ("average_pot", "Avg pot"), ("hands_per_hour", "Hands/h"), ("waiting", "Wait")]
COLUMNS_TO_DROP = ("hands_per_hour", "average_pot")
"""The columns that give way, in this order, when the lobby is too narrow for all of them: at 80×24 a pool's row
("Zoom 1/2 (fast-fold)", "14 in pool") made them 88 cells wide and the screen's edge cut the last header
to "Wa"."""


HOST_BLIND = "host-blind"
HOST_BLIND_BADGE = "[host-blind]"
HOST_BLIND_HELP = "[host-blind]: the host cannot see your cards; play there with 'croupier join'"


def game_name(game: str) -> str:
    """The game's short name, from the engine's one table of names (engine.variants)."""
    return variants.game_name(game, short=True)


def stakes_text(row: dict[str, Any]) -> str:
    small, big = (row.get("stakes") or [0, 0])[:2]
    return f"{small}/{big}"


def row_cells(row: dict[str, Any]) -> tuple[str, ...]:
    """The texts of a table's lobby row, in :data:`COLUMNS` order.

    >>> row_cells({"id": "o", "game": "omaha_hi_lo", "structure": "pot_limit", "stakes": [2, 4], "seats": 6})
    ('o', 'Omaha Hi/Lo', 'PL', '2/4', '0/6', '0', '0', '0')
    >>> row_cells({"id": "z", "name": "Zoom", "kind": "pool", "game": "texas_holdem", "structure": "no_limit",
    ...            "stakes": [1, 2], "seats": 6, "players": 14})[:5]
    ('Zoom (fast-fold)', "Hold'em", 'NL', '1/2', '14 in pool')
    >>> row_cells({"id": "h", "game": "razz", "structure": "fixed_limit", "stakes": [0, 4], "seats": 6,
    ...            "mixed": {"name": "HORSE", "game": "Razz"}})[:3]
    ('h', 'HORSE: Razz', 'FL')
    """
    jackpot = row.get("jackpot")
    name = str(row.get("name", row.get("id")))
    if isinstance(jackpot, dict):  # R-JACK-1, R-JACK-2: the pool the table plays for, in chips
        name += f" (jackpot {int(jackpot.get('amount', 0))})"
    if row.get("dealing") == HOST_BLIND:
        name += f" {HOST_BLIND_BADGE}"
    players = f"{row.get('players', 0)}/{row.get('seats', 0)}"
    if row.get("kind") == "pool":  # R-FAST-1: players in the pool; seats per hand
        name += " (fast-fold)"
        players = f"{row.get('players', 0)} in pool"
    mixed = row.get("mixed")  # a mixed table (R-MIX-1): the mix and the game it deals now
    game = f"{mixed.get('name')}: {mixed.get('game')}" if isinstance(mixed, dict) \
        else game_name(str(row.get("game", "")))
    return (name, game,
            STRUCTURE_NAMES.get(str(row.get("structure")), str(row.get("structure"))),
            stakes_text(row), players,
            str(row.get("average_pot", 0)), str(row.get("hands_per_hour", 0)), str(row.get("waiting", 0)))


def sort_key(row: dict[str, Any], column: str) -> Any:
    if column == "stakes":
        return tuple(row.get("stakes") or [0, 0])[::-1]
    if column == "players":
        return (row.get("players", 0), row.get("seats", 0))
    value = row.get(column)
    return value if value is not None else ""


def visible_rows(rows: list[dict[str, Any]], game: str | None, stakes: str | None, hide_full: bool,
                 hide_empty: bool, sort_by: str, descending: bool) -> list[dict[str, Any]]:
    """The lobby rows after filters and sorting.

    >>> rows = [{"id": "a", "game": "omaha", "stakes": [1, 2], "players": 6, "seats": 6},
    ...         {"id": "b", "game": "texas_holdem", "stakes": [5, 10], "players": 0, "seats": 9}]
    >>> [row["id"] for row in visible_rows(rows, None, None, True, False, "stakes", True)]
    ['b']
    """
    kept = [row for row in rows
            if (game is None or row.get("game") == game)
            and (stakes is None or stakes_text(row) == stakes)
            and not (hide_full and row.get("kind") != "pool" and row.get("players", 0) >= row.get("seats", 0))
            and not (hide_empty and row.get("players", 0) == 0)]
    return sorted(kept, key=lambda row: sort_key(row, sort_by), reverse=descending)


class Lobby(Vertical, can_focus=False):
    """The table list. :attr:`rows` comes down from the room's ``lobby`` message."""

    SCOPED_CSS = False  # its rules also depend on the screen's -compact / -tiled classes

    DEFAULT_CSS = """
    Lobby { height: 1fr; }
    Lobby #filters { height: 1; }
    Lobby #filters Select { width: 22; }
    Lobby #filters Checkbox { width: auto; }
    Lobby #commands { height: 1; }
    Lobby #commands Button { margin: 0 1 0 0; min-width: 10; }
    Lobby #balance { width: 1fr; content-align: right middle; height: 1; padding: 0 1; }
    Lobby DataTable { height: 1fr; }
    Lobby #tournament-list { height: auto; max-height: 12; }
    Lobby #tournament-list.-none { display: none; }
    Lobby #host-blind-help { height: auto; padding: 0 1; color: $text-muted; }
    Lobby #host-blind-help.-none { display: none; }
    .-compact Lobby #filters { height: 1; }
    .-compact Lobby #filters Select { width: 18; }
    .-compact Lobby #commands { height: 1; }
    .-compact Lobby #commands Button { height: 1; border: none; }
    .-compact Lobby #balance { height: 1; }
    .-compact Lobby #filters Checkbox { height: 1; border: none; padding: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(LOBBY)

    class Chosen(Message):
        """Open ``table_id``: ``sit`` True to join (sit down), False to watch."""

        def __init__(self, table_id: str, sit: bool) -> None:
            super().__init__()
            self.table_id = table_id
            self.sit = sit

    class Refresh(Message):
        pass

    class TournamentChosen(Message):
        """``action`` (``register`` or ``unregister``) for ``tournament``."""

        def __init__(self, tournament: str, action: str) -> None:
            super().__init__()
            self.tournament = tournament
            self.action = action

    class Refill(Message):
        pass

    rows: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    tournaments: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    balance: reactive[str] = reactive("")
    sort_by: reactive[str] = reactive("stakes")
    descending: reactive[bool] = reactive(False)

    def compose(self) -> ComposeResult:
        with Horizontal(id="filters"):
            yield Select([], prompt="any game", id="game-filter", allow_blank=True, compact=True)
            yield Select([], prompt="any stakes", id="stakes-filter", allow_blank=True, compact=True)
            yield TickBox("hide full", id="hide-full", compact=True)
            yield TickBox("hide empty", id="hide-empty", compact=True)
        table: DataTable[str] = DataTable(id="table-list", cursor_type="row", zebra_stripes=True)
        yield table
        tournaments: DataTable[str] = DataTable(id="tournament-list", cursor_type="row", zebra_stripes=True,
                                                classes="-none")
        yield tournaments
        yield Label(HOST_BLIND_HELP, id="host-blind-help", classes="-none", markup=False)
        with Horizontal(id="commands"):
            yield Button("Join (J)", id="join", variant="success", compact=True)
            yield Button("Watch (W)", id="watch", compact=True)
            yield Button("Refill (P)", id="refill", compact=True)
            yield Label("", id="balance")

    def on_mount(self) -> None:
        self._fill()
        self._fill_tournaments()

    def on_resize(self) -> None:
        self._fill()  # the columns that fit the new width (COLUMNS_TO_DROP)

    def watch_tournaments(self, rows: list[dict[str, Any]]) -> None:
        if self.is_mounted:
            self._fill_tournaments()

    def _fill_tournaments(self) -> None:
        table = self.query_one("#tournament-list", DataTable)
        keep = self.highlighted_tournament()
        table.clear(columns=True)
        table.set_class(not self.tournaments, "-none")
        cells = [lobby_cells(row) for row in self.tournaments]
        for index, header in enumerate(TOURNAMENT_COLUMNS):
            table.add_column(header, width=max([cell_len(header), *(cell_len(texts[index]) for texts in cells)]))
        for row, texts in zip(self.tournaments, cells, strict=True):
            table.add_row(*map(escape, texts), key=str(row["id"]))  # names are text, never markup
        if keep is not None and keep in {str(row["id"]) for row in self.tournaments}:
            table.move_cursor(row=table.get_row_index(keep))

    def highlighted_tournament(self) -> str | None:
        table = self.query_one("#tournament-list", DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value)

    def action_register(self) -> None:
        tournament = self.highlighted_tournament()
        if tournament is not None:
            self.post_message(self.TournamentChosen(tournament, "register"))

    def action_unregister(self) -> None:
        tournament = self.highlighted_tournament()
        if tournament is not None:
            self.post_message(self.TournamentChosen(tournament, "unregister"))

    def watch_rows(self, rows: list[dict[str, Any]]) -> None:
        if not self.is_mounted:
            return
        games = sorted({str(row.get("game")) for row in rows})
        stakes = sorted({stakes_text(row) for row in rows}, key=lambda text: [int(part) for part in text.split("/")])
        game_select: Select[str] = self.query_one("#game-filter", Select)
        stakes_select: Select[str] = self.query_one("#stakes-filter", Select)
        if [option for option in games] != getattr(self, "_games", None):
            self._games = games
            game_select.set_options([(game_name(game), game) for game in games])
        if stakes != getattr(self, "_stakes", None):
            self._stakes = stakes
            stakes_select.set_options([(text, text) for text in stakes])
        self.query_one("#host-blind-help", Label).set_class(
            not any(row.get("dealing") == HOST_BLIND for row in rows), "-none")
        self._fill()

    def watch_balance(self, balance: str) -> None:
        if self.is_mounted:
            self.query_one("#balance", Label).update(balance)

    def _filter_value(self, selector: str) -> str | None:
        value = self.query_one(selector, Select).value
        return value if isinstance(value, str) else None

    def _fill(self) -> None:
        table = self.query_one("#table-list", DataTable)
        keep = None
        if table.row_count and table.cursor_row >= 0:
            try:
                keep = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value
            except Exception:  # the cursor was on a row that is gone
                keep = None
        table.clear(columns=True)
        hide_full = self.query_one("#hide-full", Checkbox).value
        hide_empty = self.query_one("#hide-empty", Checkbox).value
        shown = visible_rows(list(self.rows), self._filter_value("#game-filter"), self._filter_value("#stakes-filter"),
                             hide_full, hide_empty, self.sort_by, self.descending)
        cells = [row_cells(row) for row in shown]
        columns = []
        for index, (key, label) in enumerate(COLUMNS):  # the sorted column's header carries ▲ or ▼
            header = label + ((" ▼" if self.descending else " ▲") if key == self.sort_by else "")
            # Sized here, from the cells: DataTable's auto width waits for its idle handler, and a frame drawn
            # before it (a loaded machine) stayed cached at the headers' width ("holde Hold").
            columns.append((index, key, header, max([cell_len(header), *(cell_len(texts[index]) for texts in cells)])))
        room = table.scrollable_content_region.width or self.app.size.width
        for dropped in COLUMNS_TO_DROP:
            if sum(width + 2 * table.cell_padding for *_, width in columns) <= room:
                break
            columns = [column for column in columns if column[1] != dropped]
        for _, key, header, width in columns:
            table.add_column(header, key=key, width=width)
        for row, texts in zip(shown, cells, strict=True):
            # cells are text, never markup: "[host-blind]" and a host's "[b]" in a name are shown as written
            table.add_row(*(escape(texts[index]) for index, *_ in columns), key=str(row["id"]))
        if keep is not None and keep in {str(row["id"]) for row in shown}:
            table.move_cursor(row=table.get_row_index(keep))

    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _filters_changed(self) -> None:
        self._fill()

    @on(DataTable.HeaderSelected)
    def _sort_by_header(self, event: DataTable.HeaderSelected) -> None:
        column = str(event.column_key.value)
        self.descending = not self.descending if column == self.sort_by else False
        self.sort_by = column
        self._fill()

    def action_cycle_sort(self) -> None:
        keys = [key for key, _ in COLUMNS]
        self.sort_by = keys[(keys.index(self.sort_by) + 1) % len(keys)]
        self.descending = False
        self._fill()

    def action_reverse_sort(self) -> None:
        self.descending = not self.descending
        self._fill()

    def toggle(self, selector: str) -> None:
        """Tick or untick a filter box (``#hide-full``, ``#hide-empty``)."""
        box = self.query_one(selector, Checkbox)
        box.value = not box.value

    def action_toggle_filter(self, selector: str) -> None:
        self.toggle(selector)

    def filter_by(self, selector: str, value: str | None) -> None:
        """Set a filter (``#game-filter`` to a game key, ``#stakes-filter`` to ``"1/2"``), ``None`` for any."""
        select: Select[str] = self.query_one(selector, Select)
        if value is None:
            select.clear()
        else:
            select.value = value

    def highlighted(self) -> str | None:
        table = self.query_one("#table-list", DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value)

    def action_join(self) -> None:
        table_id = self.highlighted()
        if table_id is not None:
            self.post_message(self.Chosen(table_id, sit=True))

    def action_watch(self) -> None:
        table_id = self.highlighted()
        if table_id is not None:
            self.post_message(self.Chosen(table_id, sit=False))

    def action_refresh(self) -> None:
        self.post_message(self.Refresh())

    def action_refill(self) -> None:
        self.post_message(self.Refill())

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "tournament-list":
            self.post_message(self.TournamentChosen(str(event.row_key.value), "register"))
            return
        self.post_message(self.Chosen(str(event.row_key.value), sit=True))

    @on(Button.Pressed, "#commands Button")
    def _command(self, event: Button.Pressed) -> None:
        event.stop()
        {"join": self.action_join, "watch": self.action_watch, "refill": self.action_refill}[event.button.id or ""]()
