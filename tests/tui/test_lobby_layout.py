"""The lobby's columns fit their contents as soon as the rows are filled, whatever the machine's load.

Textual's DataTable sizes auto-width columns only when it is next idle, and caches each line it renders without
the column widths in the key: a frame drawn between a refill and that idle (what a loaded machine does) kept the
header-wide columns ("holde Hold" for "holdem 1/2 Hold'em") until the next refill (issue 14, the e2e timeout).
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tui.widgets.lobby import Lobby

ROWS: list[dict[str, Any]] = [
    {"id": "holdem", "name": "holdem 1/2", "game": "texas_holdem", "structure": "no_limit", "stakes": [1, 2],
     "players": 3, "seats": 6, "average_pot": 1234, "hands_per_hour": 88, "waiting": 0},
    {"id": "omaha8", "name": "omaha8 2/4", "game": "omaha_hi_lo", "structure": "pot_limit", "stakes": [2, 4],
     "players": 2, "seats": 6, "average_pot": 56, "hands_per_hour": 70, "waiting": 1},
]


class LobbyApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Lobby()


def row_text(grid: DataTable[str], row: int) -> str:
    """The row's line as drawn (the header is line 0)."""
    return grid.render_line(row + 1).text


async def test_columns_fit_their_cells_when_the_rows_arrive_not_when_the_table_is_idle() -> None:
    app = LobbyApp()
    async with app.run_test(size=(100, 20)) as pilot:
        lobby = app.query_one(Lobby)
        grid = lobby.query_one(DataTable)
        await pilot.pause()
        lobby.rows = ROWS
        # a frame drawn before the table's idle handler runs, as on a loaded machine
        drawn_early = [row_text(grid, row) for row in range(2)]
        await pilot.pause(0.2)
        drawn_later = [row_text(grid, row) for row in range(2)]
        for lines in (drawn_early, drawn_later):
            assert "holdem 1/2" in lines[0] and "Hold'em" in lines[0] and "1234" in lines[0], lines
            assert "omaha8 2/4" in lines[1] and "Omaha Hi/Lo" in lines[1] and "2/6" in lines[1], lines
        widths = {str(key.value): column.get_render_width(grid) for key, column in grid.columns.items()}
        assert widths["game"] >= len("Omaha Hi/Lo") and widths["name"] >= len("holdem 1/2"), widths
        # a refill with the same rows (a lobby update) keeps them
        lobby.rows = [dict(row) for row in ROWS]
        assert "Omaha Hi/Lo" in row_text(grid, 1)
        await pilot.pause(0.2)
        assert "Omaha Hi/Lo" in row_text(grid, 1)


async def test_a_longer_name_in_a_later_update_widens_its_column() -> None:
    app = LobbyApp()
    async with app.run_test(size=(120, 20)) as pilot:
        lobby = app.query_one(Lobby)
        grid = lobby.query_one(DataTable)
        lobby.rows = ROWS
        await pilot.pause(0.1)
        lobby.rows = [ROWS[0] | {"name": "holdem 1/2 the long evening table"}, ROWS[1]]
        assert "holdem 1/2 the long evening table" in row_text(grid, 0)
        # sorted by stakes: the header marks it; the narrow numeric columns still show whole numbers
        header = grid.render_line(0).text
        assert "Stakes ▲" in header and "1234" in row_text(grid, 0)


async def test_at_80_columns_the_lobby_drops_a_column_rather_than_cut_a_word() -> None:
    """Issue 27 leftover: with a fast-fold pool's row ("Zoom 1/2 (fast-fold)", "14 in pool") the columns were
    88 cells at 80×24, and the last header read "Wa" at the screen's edge. The least needed columns give way
    (hands an hour, then the average pot); those shown are whole."""
    pool = {"id": "zoom", "name": "Zoom 1/2", "kind": "pool", "game": "texas_holdem", "structure": "no_limit",
            "stakes": [1, 2], "players": 14, "seats": 6, "average_pot": 1234, "hands_per_hour": 88, "waiting": 0}
    app = LobbyApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.query_one(Lobby)
        grid = lobby.query_one(DataTable)
        lobby.rows = [*ROWS, pool]
        await pilot.pause(0.2)
        assert grid.virtual_size.width <= grid.size.width, (grid.virtual_size, grid.size)
        header = grid.render_line(0).text
        assert "Wait" in header and "Hands/h" not in header, header
        assert any("Zoom 1/2 (fast-fold)" in row_text(grid, row) for row in range(3))
        assert [str(key.value) for key in grid.columns][:5] == ["name", "game", "structure", "stakes", "players"]
        await pilot.resize_terminal(120, 24)  # room again: every column back
        await pilot.pause(0.2)
        assert "Hands/h" in grid.render_line(0).text


async def test_a_host_blind_table_shows_its_badge_and_help_as_written() -> None:
    """Issue 29 (a new user's trial): the row read "Blind 1/2 " and the help line ": the players' own ...":
    Textual read "[host-blind]" as a markup tag and dropped it, in the row and in the help line alike."""
    blind = ROWS[0] | {"id": "blind", "name": "Blind 1/2 [b]x[/b]", "dealing": "host-blind"}
    app = LobbyApp()
    async with app.run_test(size=(100, 24)) as pilot:
        lobby = app.query_one(Lobby)
        grid = lobby.query_one(DataTable)
        lobby.rows = [blind]
        await pilot.pause(0.1)
        assert "Blind 1/2 [b]x[/b] [host-blind]" in row_text(grid, 0)
        help_line = lobby.query_one("#host-blind-help")
        assert not help_line.has_class("-none")
        shown = str(help_line.render())
        assert shown.startswith("[host-blind]: ") and "croupier join" in shown and len(shown) <= 80, shown
