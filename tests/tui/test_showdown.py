"""Showdowns people can read (issue 14, items 4 and 19): every shown hand is drawn with its own cards only
(no leftover card backs), the name stays on its line, the winners are marked and the winning hand named —
in hold'em, Omaha, stud and triple draw, at 120×35, 80×24 and 60×18. The hands are the real engine's,
played to a showdown (tests/tui/recorded.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.recorded import engine_showdown, hello, msg, showdown_rows
from tests.tui.test_snapshots import replay_app, settle
from tui.widgets.felt import BoardView
from tui.widgets.seat import SeatView

HOLDEM_KICKER = ["Jh", "Jd", "8c", "Qs", "Kd", "As", "8d", "2h", "Jc", "9c", "4d", "2s", "7h"]
"""Hold'em deck top: ana J♥ K♦, me J♦ A♠, bruno 8♣ 8♦, carla Q♠ 2♥, board J♣ 9♣ 4♦ 2♠ 7♥ — my ace kicker wins."""
GAMES = {"holdem-1-2": ("texas_holdem", HOLDEM_KICKER), "omaha-1-2": ("omaha", None),
         "stud-2-4": ("seven_card_stud", None), "triple-2-4": ("deuce_to_seven_triple_draw", None)}
SIZES = [(120, 35), (80, 24), (60, 18)]


def showdown_app(table: str) -> Any:
    game, order = GAMES[table]
    return replay_app([hello(), msg("lobby", tables=showdown_rows()), *engine_showdown(table, game, order)])


async def open_table(pilot: Any, table: str) -> None:
    await settle(pilot)
    pilot.app.show_table(table)
    await settle(pilot)


@pytest.mark.parametrize("table", sorted(GAMES))
async def test_shown_hands_have_no_card_backs_and_keep_the_name_line(table: str) -> None:
    app = showdown_app(table)
    async with app.run_test(size=SIZES[0]) as pilot:
        await open_table(pilot, table)
        model = app.models[table]
        shown = {seat: info for seat, info in model.seats.items() if info.hand_name}
        assert len(shown) == 4, "every hand went to the showdown"
        for width, height in SIZES:
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            views = [view for view in app.query(SeatView) if view.info is not None and view.display
                     and view.info.seat in shown and view.region.width]
            assert len(views) == 4, (width, height)
            for view in views:
                lines = view.render().plain.split("\n")
                info = view.info
                assert info is not None
                assert "▒" not in view.render().plain, (width, height, lines)
                assert info.name in lines[0], (width, height, lines)  # the name is never pushed down
                cards = "".join(lines[1].split())  # every shown card on the cards line, in order
                assert cards.startswith("".join(card_glyphs(info.cards))), (width, height, lines)
                assert view.has_class("-winner") == (info.won > 0)
            board = next(iter(app.query(BoardView).results()))
            assert "win" in board.render().plain, (width, height)


def card_glyphs(cards: list[str]) -> list[str]:
    return [card[0] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[card[1]] for card in cards]


async def test_the_winning_hand_is_named_with_its_kicker_and_the_winner_marked() -> None:
    app = showdown_app("holdem-1-2")
    async with app.run_test(size=(120, 35)) as pilot:
        await open_table(pilot, "holdem-1-2")
        model = app.models["holdem-1-2"]
        assert model.result_lines() == ["You win 8 with pair of jacks, ace kicker"]
        board = next(iter(app.query(BoardView).results()))
        assert "You win 8 with pair of jacks, ace kicker" in board.render().plain
        winners = [view.info.name for view in app.query(SeatView) if view.has_class("-winner") and view.info]
        assert winners == ["me"]


@pytest.mark.parametrize("table", sorted(GAMES))
@pytest.mark.parametrize("size", [(120, 35), (80, 24)], ids=["120x35", "80x24"])
def test_showdown_snapshot(snap_compare: Any, table: str, size: tuple[int, int]) -> None:
    async def run_before(pilot: Any) -> None:
        await open_table(pilot, table)

    assert snap_compare(showdown_app(table), terminal_size=size, run_before=run_before)
