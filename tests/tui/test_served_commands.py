"""Issue 13 item 9: a screen the room serves to a plain-ssh player runs on the host's machine, so none of its
commands may touch the host's disk or start a process there. Textual's palette "Screenshot" wrote an SVG into
the host's ~/Downloads (and showed the host's path); links would open the host's browser; Ctrl+Z-style
suspending would leave a stopped TUI its player can never resume."""

from __future__ import annotations

import asyncio
import webbrowser
from pathlib import Path

import pytest
from textual.app import App

from tests.waiting import until
from tui.app import CroupierApp
from tui.served import HOST_SAFE_SYSTEM_COMMANDS, NOT_HERE, ServedApp
from tui.warmup import CannedConnection, canned_room


def make(app_class: type[CroupierApp]) -> CroupierApp:
    async def connect() -> CannedConnection:
        return CannedConnection(canned_room())

    return app_class(connect, reconnect=False)


def files_under(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


@pytest.fixture
def host_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The host's home (where Textual saves screenshots: ~/Downloads) and working directory, both empty."""
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.chdir(home)
    return home


async def test_the_unserved_app_screenshot_writes_on_disk_which_is_what_served_screens_must_not(
        host_home: Path) -> None:
    app = make(CroupierApp)  # croupier join / play: the player's own machine, the command stays
    async with app.run_test(size=(100, 30)) as pilot:
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        assert "Screenshot" in commands
        commands["Screenshot"].callback()
        await until(lambda: files_under(host_home), "the screenshot file", pause=pilot.pause)
    assert [path.suffix for path in files_under(host_home)] == [".svg"]


async def test_a_served_screen_offers_no_command_that_touches_the_host(host_home: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *arguments, **options: opened.append(url))
    app = make(ServedApp)
    async with app.run_test(size=(100, 30)) as pilot:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        textual_titles = {command.title for command in App.get_system_commands(app, app.screen)}
        assert "Screenshot" not in titles
        assert {"Theme", "Quit", "Keys", "Lobby", "Four-colour deck"} <= set(titles)
        assert [title for title in titles if title in textual_titles] == \
            [title for title in titles if title in HOST_SAFE_SYSTEM_COMMANDS]
        # and the actions behind them, however reached (a binding, an action link): nothing happens
        await app.run_action("screenshot")
        app.action_screenshot("x.svg", str(host_home))
        assert app.deliver_screenshot() is None
        assert app.deliver_text(host_home / "text.txt") is None
        app.open_url("https://example.com/")
        app.action_suspend_process()
        with pytest.raises(PermissionError):
            app.save_screenshot("y.svg", str(host_home))
        await pilot.pause(0.3)
        assert NOT_HERE in app.notices
        # Theme and Quit change only this screen: a theme picked from the palette, then quit
        for command in app.get_system_commands(app.screen):
            if command.title == "Theme":
                command.callback()
        await pilot.pause(0.1)
        await pilot.press("escape")
        await app.run_action("quit")
    assert files_under(host_home) == [] and opened == []
    await asyncio.sleep(0)
