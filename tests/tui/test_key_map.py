"""One key map (tui.keys): the bindings, the command palette, the help screen and the README come from it."""

from __future__ import annotations

import re
from pathlib import Path

from textual.binding import Binding

from tests.tui.recorded import hello, lobby_rows, msg, side_pot_hand
from tests.tui.test_model_and_widgets import replay_app, shown_table
from tui.app import CroupierApp
from tui.keys import (
    COMMANDS,
    LOBBY,
    TABLE,
    TABLES,
    bindings,
    commands,
    help_text,
    key_display,
    readme_rows,
    readme_tables,
)
from tui.screens import HELP
from tui.widgets.lobby import Lobby
from tui.widgets.table_view import TableView

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_key_tables_are_the_key_map() -> None:
    text = README.read_text(encoding="utf-8")
    tables = readme_tables()
    assert tables in text, "README.md's key tables differ from tui.keys: paste `python -m tui.keys` under ## Keys"
    section = text[text.index("## Keys"):]
    section = section[:section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| key |")]
    assert rows == [line for line in tables.splitlines() if line.startswith("| ") and not line.startswith("| key |")]


def readme_keys(where: str) -> set[str]:
    """The keys a README table names in its key column (``**1**–**6**`` is 1 to 6)."""
    named: set[str] = set()
    for row in readme_rows(where):
        column = row.split(" | ")[0].removeprefix("| ")
        named.update(re.findall(r"\*\*([^*]+)\*\*", column))
        for first, last in re.findall(r"\*\*(\d)\*\*–\*\*(\d)\*\*", column):
            named.update(str(digit) for digit in range(int(first), int(last) + 1))
    return named


def test_every_key_is_in_the_readme_and_the_help() -> None:
    for where in (TABLE, TABLES, LOBBY):
        named = readme_keys(where)
        for command in commands(where):
            for key in command.key_names:
                assert key_display(key) in named, (command, key)
                assert re.search(rf"(^|[ /]){re.escape(key_display(key))}[ /]", help_text(), re.M), (command, key)
    assert help_text() == HELP


def test_the_widgets_bind_the_key_map() -> None:
    def keys(bound: list[object]) -> list[tuple[str, str, str, bool]]:
        return [(item.key, item.action, item.description, item.show) for item in bound if isinstance(item, Binding)]

    assert keys(list(TableView.BINDINGS)) == keys(bindings(TABLE))
    assert keys(list(CroupierApp.BINDINGS)) == keys(bindings(TABLES))
    assert keys(list(Lobby.BINDINGS)) == keys(bindings(LOBBY))
    assert ("f", "app.table_key('fold')", "Fold", True) in keys(bindings(TABLE))
    assert ("3", "app.table_key('preset', 3)", "Size 3", False) in keys(bindings(TABLE))
    assert ("dollar_sign", "bet_sizes", "Bet sizes", True) in keys(bindings(TABLES))
    assert ("ctrl+left", "next_table(-1)", "Previous table", False) in keys(bindings(TABLES))


async def test_every_binding_is_in_the_palette_with_its_key_and_runs_from_there() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])
    async with app.run_test(size=(120, 36)) as pilot:
        await shown_table(pilot, app)
        palette = {command.title: command for command in app.get_system_commands(app.screen)}
        for where in (TABLE, TABLES, LOBBY):
            for binding in bindings(where):
                assert isinstance(binding, Binding)
                command = next(command for command in COMMANDS
                               if command.where == where and command.keys == binding.key
                               and command.label == binding.description)
                assert command.title in palette, command
                for key in command.key_names:
                    assert f"({key_display(key)}" in palette[command.title].help or \
                        f", {key_display(key)}" in palette[command.title].help, (command, palette[command.title])
        # a table command, an app command and a lobby command, run from the palette
        palette["Four-colour deck"].callback()
        assert app.four_colour
        palette["Wait for big blind"].callback()
        await pilot.pause(0.1)
        assert app.sent[-1] == {"type": "wait_for_big_blind", "table": "holdem-1-2", "on": True}
        palette["Lobby: hide full tables"].callback()
        await pilot.pause(0.1)
        assert app.query_one("#hide-full").value  # type: ignore[attr-defined]
        assert app.query_one("#lobby-pane").display
        assert app.internal_errors == []
