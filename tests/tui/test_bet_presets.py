"""Issue 27, custom bet-size buttons: the player's sizes for keys 1–9 (tui.presets), set in the bet sizes window ($),
kept in ``bet-presets.json`` beside the player notes, used at every table and clamped to the legal raise; and the
new user's findings at the Z (auto top-up) window: keys typed while it opens go into it, its title is whole at 100
columns, Z is on the key bar and on a button, every size button shows its key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Button, Input, Label

from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, hello, lobby_rows, msg, side_pot_hand
from tests.tui.roombots import table
from tests.tui.test_play import join
from tests.tui.test_table_bar import TABLE, keys_shown, my_turn
from tui.app import CroupierApp
from tui.presets import DEFAULT_TEXTS, FILE_NAME, BetPresets, parse_preset
from tui.screens import AutoTopUpScreen, BetSizesScreen


def sizes_app(path: Path) -> CroupierApp:
    """The app on the recorded side-pot hand: the turn, pot 285, me to act with 100 behind (bet 2 to 100)."""
    messages = [hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()]

    async def connect() -> ReplayConnection:
        return ReplayConnection(list(messages))

    app = CroupierApp(connect, reconnect=False, bet_presets=BetPresets(path))
    app.strict = True  # type: ignore[attr-defined]
    return app


def type_at_once(app: CroupierApp, keys: list[str]) -> None:
    """Keys as a fast typist sends them: all in the app's queue before the first is handled."""
    for key in keys:
        event = events.Key(key, "\r" if key == "enter" else key if len(key) == 1 else None)
        event.set_sender(app)
        assert app._driver is not None
        app._driver.send_message(event)


def test_each_preset_is_a_whole_number_of_chips_within_the_legal_raise() -> None:
    # the turn of the recorded hand: pot 285, nothing to call, bet 2 to 100
    legal = {"call_amount": None, "min_raise_to": 2, "max_raise_to": 100}
    amounts = {text: parse_preset(text).amount(legal, pot=285, my_bet=0, big_blind=2)
               for text in ("1/4", "1/3", "20%", "pot", "2.5bb", "3x", "min", "max")}
    assert amounts == {"1/4": 71, "1/3": 95, "20%": 57, "pot": 100, "2.5bb": 5, "3x": 2, "min": 2, "max": 100}
    # facing a bet of 10 (my 0 in) into 30: 3x raises to 30; 1/3 pot calls 10, then a third of 40 (13): to 23
    facing = {"call_amount": 10, "min_raise_to": 20, "max_raise_to": 500}
    assert [parse_preset(text).amount(facing, 30, 0, 2) for text in ("3x", "1/3", "2bb", "7 pot")] == [30, 23, 20, 290]
    assert parse_preset("pot").amount({"call_amount": 10}, 30, 0, 2) is None  # no raise allowed: no amount


@pytest.mark.parametrize("body", [None, b"not json{", b'{"presets": "1/2"}', b'{"presets": [1, 2]}', b"\xff\xfe"])
def test_a_missing_or_broken_file_gives_the_defaults(tmp_path: Path, body: bytes | None) -> None:
    path = tmp_path / FILE_NAME
    if body is not None:
        path.write_bytes(body)
    assert BetPresets(path).texts() == list(DEFAULT_TEXTS)


def test_a_file_with_one_wrong_size_keeps_the_others(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text(json.dumps({"presets": ["1/3", "nonsense", "3x"]}), encoding="utf-8")
    assert BetPresets(path).texts() == ["1/3 pot", "2/3 pot", "3x", *DEFAULT_TEXTS[3:]]


def test_wrong_sizes_change_nothing_and_good_ones_are_written_for_the_player_alone(tmp_path: Path) -> None:
    path = tmp_path / "data" / FILE_NAME
    presets = BetPresets(path)
    with pytest.raises(ValueError, match="key 2: 'abc' is not a size"):
        presets.set_all(["1/3", "abc", *DEFAULT_TEXTS[2:]])
    assert presets.texts() == list(DEFAULT_TEXTS) and not path.exists()
    assert presets.set_all(["1/3", "60%", "3x", "pot", "min", "max", "2bb", "3bb", "4bb"]) == ""
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "presets": ["1/3 pot", "60% pot", "3x", "pot", "min", "max", "2bb", "3bb", "4bb"]}
    assert path.stat().st_mode & 0o777 == 0o600
    assert BetPresets(path).texts() == presets.texts()  # read back the next time the app starts


async def test_the_bet_sizes_window_refuses_a_wrong_size_keeps_what_was_typed_then_every_key_uses_them(
        tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app = sizes_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        app, view = await my_turn(pilot)
        await pilot.press("1")
        assert view.query_one("#amount", Input).value == "100"  # ½ of 285, clamped to my 100
        await pilot.press("dollar_sign")
        await wait_until(pilot, lambda: isinstance(app.screen, BetSizesScreen), what="the bet sizes window")
        screen = app.screen
        assert isinstance(screen, BetSizesScreen)
        first = screen.query_one("#size-1", Input)
        assert first.has_focus and first.value == "1/2 pot"
        await pilot.press(*"1/4")  # the selected size is replaced by what is typed
        screen.query_one("#size-2", Input).value = "half"
        screen.query_one("#size-3", Input).value = "20%"
        await pilot.press("enter")
        error = str(screen.query_one("#sizes-error", Label).render())
        assert app.screen is screen and error.startswith("key 2: 'half' is not a size: type a pot fraction")
        assert screen.query_one("#size-2", Input).has_class("-wrong") and not path.exists()
        assert screen.typed()[:3] == ["1/4", "half", "20%"]  # nothing typed is lost
        screen.query_one("#size-2", Input).value = "3x"
        await pilot.click("#ok")
        await wait_until(pilot, lambda: not isinstance(app.screen, BetSizesScreen), what="the window closed")
        assert json.loads(path.read_text(encoding="utf-8"))["presets"][:3] == ["1/4 pot", "3x", "20% pot"]
        await pilot.pause(0.1)
        labels = [str(button.label) for button in view.query("#sizing Button") if button.display]
        assert labels == ["1:¼", "2:3×", "3:20%", "4:pot", "5:min", "6:all-in"]  # the turn: no pre-flop opens
        box = view.query_one("#amount", Input)
        for key, amount in (("1", "71"), ("2", "2"), ("3", "57"), ("4", "100")):
            await pilot.press(key)
            assert box.value == amount, key
        await pilot.press("r")
        assert [item for item in app.sent if item["type"] == "action"][-1]["amount"] == 100


async def test_the_defaults_come_back_with_reset_and_escape_loses_nothing_kept(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text(json.dumps({"presets": ["1/3", "3x"]}), encoding="utf-8")
    app = sizes_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await my_turn(pilot)
        await pilot.press("dollar_sign")
        await wait_until(pilot, lambda: isinstance(app.screen, BetSizesScreen), what="the bet sizes window")
        screen = app.screen
        assert isinstance(screen, BetSizesScreen)
        buttons = screen.query(Button)
        assert all(button.region.bottom <= 24 and button.region.right <= 80 for button in buttons)  # 80×24: whole
        await pilot.click("#reset")
        assert screen.typed() == list(DEFAULT_TEXTS)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, BetSizesScreen), what="the window closed")
        assert json.loads(path.read_text(encoding="utf-8")) == {"presets": ["1/3", "3x"]}
        assert app.bet_presets.texts()[:2] == ["1/3 pot", "3x"]


async def test_keys_typed_as_the_z_window_opens_go_into_it(room_setup: Any) -> None:
    """New user: in the Z window "150" was kept as "15"; keys typed right after Z went to the table under it."""
    setup = await room_setup([table("t1")])
    app = setup.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1", buy_in=100)
        app.show_table("t1")
        await pilot.pause()
        type_at_once(app, ["z", "1", "5", "0", "enter"])
        await wait_until(pilot, lambda: any(item["type"] == "auto_top_up" for item in app.sent), what="the order")
        assert [item for item in app.sent if item["type"] == "auto_top_up"] == \
            [{"type": "auto_top_up", "table": "t1", "below": 150, "rebuy": False}]
        assert not isinstance(app.screen, AutoTopUpScreen)


async def test_the_z_window_shows_its_whole_title_at_100_columns_and_z_is_on_the_key_bar_and_a_button(
        room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    app = setup.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1", buy_in=100)
        app.show_table("t1")
        await pilot.pause()
        assert ("z", "Auto top-up") in keys_shown(app)
        view = app.current_view()
        assert view is not None and view.query_one("#auto-top-up", Button).display
        await pilot.click(f"#{view.id} #auto-top-up")
        await wait_until(pilot, lambda: isinstance(app.screen, AutoTopUpScreen), what="the auto top-up window")
        box = app.screen.query_one("Vertical")
        for label in app.screen.query(Label):
            assert label.region.right <= box.content_region.right, str(label.render())
        drawn = " ".join(str(label.render()) for label in app.screen.query(Label))
        assert "Auto top-up at Table t1" in drawn and "within the buy-in (80–200)" in drawn


async def test_every_size_button_shows_its_key_and_the_key_bar_offers_the_window() -> None:
    messages = [hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()]

    async def connect() -> ReplayConnection:
        return ReplayConnection(list(messages))

    app = CroupierApp(connect, reconnect=False)
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        assert ("$", "Bet sizes") in keys_shown(app)
        view.bar.preflop = True
        await pilot.pause(0.1)
        labels = [str(button.label) for button in view.query("#sizing Button") if button.display]
        assert labels == ["1:½", "2:⅔", "3:¾", "4:pot", "5:min", "6:all-in", "7:2BB", "8:2.5BB", "9:3BB"]
        await pilot.press("8")
        assert view.query_one("#amount", Input).value == "5" and TABLE in app.models
