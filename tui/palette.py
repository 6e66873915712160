"""The command palette (Ctrl+P): every command of the key map (:mod:`tui.keys`), then the ones the room's
state brings (its gates, each table of the lobby, each open table, the lobby's games and stakes)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any, Protocol

from textual.app import SystemCommand

from tui.keys import LOBBY, TABLE, TABLES, Command, palette_groups, palette_help
from tui.model import TableModel
from tui.widgets.lobby import game_name, stakes_text


class PaletteHost(Protocol):
    """What the palette needs of the app."""

    @property
    def lobby_rows(self) -> dict[str, dict[str, Any]]: ...

    @property
    def models(self) -> dict[str, TableModel]: ...

    @property
    def needs(self) -> list[str]: ...

    def run_command(self, command: Command) -> None: ...

    def ask_for_gates(self, refusal: str = "") -> None: ...

    def open_table(self, table_id: str, sit: bool) -> object: ...

    def show_table(self, table_id: str, tries: int = 40) -> None: ...

    def filter_lobby(self, selector: str, value: str | None) -> None: ...

    def current_model(self) -> TableModel | None: ...


def key_map_commands(host: PaletteHost, state: Mapping[str, str]) -> Iterator[SystemCommand]:
    """One palette command per title of the key map, its keys after its line."""
    for where in (TABLE, TABLES, LOBBY):
        for first, keys in palette_groups(where):
            yield SystemCommand(first.title, palette_help(first, keys, **state), partial(host.run_command, first))


def palette_commands(host: PaletteHost) -> Iterator[SystemCommand]:
    shown = host.current_model()
    yield from key_map_commands(host, {"auto_muck": "on" if shown is not None and shown.auto_muck else "off"})
    if host.needs:
        yield SystemCommand("Enter the room", "type the room password or invite code", host.ask_for_gates)
    rows = host.lobby_rows
    yield SystemCommand("Lobby: any game", "clear the game filter", partial(host.filter_lobby, "#game-filter", None))
    yield SystemCommand("Lobby: any stakes", "clear the stakes filter",
                        partial(host.filter_lobby, "#stakes-filter", None))
    for game in sorted({str(row.get("game")) for row in rows.values()}):
        yield SystemCommand(f"Lobby: only {game_name(game)}", "filter by game",
                            partial(host.filter_lobby, "#game-filter", game))
    for stakes in sorted({stakes_text(row) for row in rows.values()}):
        yield SystemCommand(f"Lobby: only stakes {stakes}", "filter by stakes",
                            partial(host.filter_lobby, "#stakes-filter", stakes))
    for table_id, row in rows.items():
        label = f"{row.get('name', table_id)} ({game_name(str(row.get('game')))} {stakes_text(row)})"
        yield SystemCommand(f"Join {label}", "sit down", partial(host.open_table, table_id, True))
        yield SystemCommand(f"Watch {label}", "open without sitting", partial(host.open_table, table_id, False))
    for table_id, model in host.models.items():
        yield SystemCommand(f"Go to {model.name or table_id}", "show this table", partial(host.show_table, table_id))
