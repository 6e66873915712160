"""The felt: seats placed clockwise around the board and pots, your own seat at the bottom."""

from __future__ import annotations

import dataclasses

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.reactive import reactive
from textual.widgets import Static

from tui.model import SeatInfo, TableModel
from tui.widgets.cards import cards_text
from tui.widgets.seat import SeatView

# Ten places on a 4×3 grid, clockwise from the bottom middle: (row, column); the middle row's centre is the board.
PLACES = [(2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)]
def seat_markers(model: TableModel, seat: int) -> str:
    """``D``, ``SB``, ``BB`` (joined by ``/``, e.g. heads-up ``D/SB``) for a game with blinds; none in stud
    games (antes and a bring-in, no button: the bring-in shows as the seat's action instead); a bomb pot has
    the button only (R-HOME-3: no blinds, the button still says who acts last)."""
    if not model.uses_blinds:
        return ""
    running = model.hand_running and not model.bomb_pot  # a bomb pot: everyone antes, nobody posts a blind
    marks = ["D" if model.button_seat == seat else "", "SB" if model.small_blind_seat == seat and running else "",
             "BB" if model.big_blind_seat == seat and running else ""]
    return "/".join(mark for mark in marks if mark)


def seat_as_shown(model: TableModel, info: SeatInfo | None) -> SeatInfo | None:
    """``info`` as its box shows it: during a draw the betting round before it is over and its bets are in the
    pot ("pot total" counts them), so none is shown in front of the seat (it read "bet 2" through the draw)."""
    if info is not None and info.bet and model.drawing:
        return dataclasses.replace(info, bet=0)
    return info


def places_for(max_seats: int, my_seat: int | None) -> dict[int, int]:
    """Seat number → place index, spreading ``max_seats`` evenly and putting ``my_seat`` at the bottom.

    >>> places_for(2, None)
    {0: 0, 1: 5}
    """
    start = my_seat or 0
    return {(start + step) % max_seats: round(step * len(PLACES) / max_seats) % len(PLACES)
            for step in range(max_seats)}


class BoardView(Static):
    """The middle of the table: board cards, main and side pots, street."""

    SCOPED_CSS = False  # its rules also depend on the screen's -compact / -tiled classes

    DEFAULT_CSS = """
    BoardView { column-span: 2; height: 100%; content-align: center middle; text-align: center;
                background: $success 20%; border: round $success; }
    .-compact BoardView { border: none; }
    """

    model: reactive[TableModel | None] = reactive(None, always_update=True)
    four_colour: reactive[bool] = reactive(False)

    def render(self) -> Text:
        model = self.model
        if model is None:
            return Text("")
        lines = []
        if model.bomb_pot and model.hand_running:  # R-HOME-3
            lines.append(Text(f"BOMB POT · ante {model.bomb_pot}", style="bold"))
        if model.second_board:  # R-HOME-1: both boards of a hand run twice
            lines.append(Text("1st ", style="dim") + cards_text(model.board, self.four_colour))
            lines.append(Text("2nd ", style="dim") + cards_text(model.second_board, self.four_colour))
        elif model.board:
            lines.append(cards_text(model.board, self.four_colour))
        elif model.hand_running and not model.results:
            lines.append(Text(model.street_label or "dealing", style="italic"))
        elif not model.results:
            lines.append(Text("waiting for the next hand", style="dim italic"))
        if model.rabbit:  # R-HOME-2: what would have come, marked as not played
            lines.append(Text("rabbit, not played: ", style="dim italic")
                         + cards_text(model.rabbit, self.four_colour).copy())
        if model.results:  # the hand is over: who won what, with which hand, until the next deal
            lines += [Text(line, style="bold green") for line in self._results(model, len(lines))]
            return Text("\n").join(lines)
        pots = model.pots() if model.hand_running else []  # between hands the last pot is gone (it was paid)
        if model.joined_mid_hand and model.hand_running:  # its earlier chips were never seen: no wrong totals
            lines.append(Text("joined mid-hand: pots from the next hand", style="dim italic"))
        elif pots:
            names = ["main"] + [f"side {index}" for index in range(1, len(pots))]
            lines.append(Text(" · ".join(f"{name} {amount}" for name, (amount, _) in zip(names, pots, strict=True)),
                              style="bold"))
        if model.hand_running and model.pot_total and not model.joined_mid_hand:
            lines.append(Text(f"pot total {model.pot_total}", style="dim"))
        return Text("\n").join(lines)


    def _results(self, model: TableModel, used: int) -> list[str]:
        """The winners' lines with whole hand names when they fit the middle (wrapped), else shortened to
        one line each."""
        width, height = self.content_size.width, self.content_size.height
        full = model.result_lines()
        if not width or not height:
            return full
        rows = sum(len(Text(line).wrap(self.app.console, width)) for line in full)
        return full if used + rows <= height else model.result_lines(width)


class Felt(Grid):
    """Ten seat slots and the board; :attr:`model` and :attr:`four_colour` come down from the table view."""

    SCOPED_CSS = False  # its rules also depend on the screen's -compact / -tiled classes

    DEFAULT_CSS = """
    Felt { grid-size: 4 3; grid-gutter: 0 1; height: auto; grid-rows: 4 5 4; }
    .-compact Felt { grid-rows: 2 3 2; grid-gutter: 1 1; }
    """

    model: reactive[TableModel | None] = reactive(None, always_update=True)
    four_colour: reactive[bool] = reactive(False)

    def compose(self) -> ComposeResult:
        cells: dict[tuple[int, int], int] = {place: index for index, place in enumerate(PLACES)}
        for row in range(3):
            for column in range(4):
                if (row, column) == (1, 1):
                    yield BoardView(id="board")
                elif (row, column) == (1, 2):
                    continue
                else:
                    yield SeatView(id=f"place-{cells[(row, column)]}")

    def watch_model(self, model: TableModel | None) -> None:
        if model is None or not self.is_mounted:
            return
        places = places_for(model.max_seats, model.my_seat)
        used = {place: seat for seat, place in places.items()}
        for index in range(len(PLACES)):
            view = self.query_one(f"#place-{index}", SeatView)
            seat = used.get(index)
            view.set_class(seat is None, "-unused")
            if seat is None:
                continue
            info = model.seats.get(seat)
            view.four_colour = self.four_colour
            view.mine = info is not None and info.name == model.me
            view.to_act = info is not None and model.to_act == seat and model.hand_running
            view.markers = seat_markers(model, seat)
            colour, note = model.notes.get(info.name, ("", "")) if info is not None else ("", "")
            view.tag = colour
            view.tooltip = f"seat {seat + 1}" + (f" — {info.name}: {note}" if note and info is not None else "")
            view.info = seat_as_shown(model, info)
        board = self.query_one(BoardView)
        board.four_colour = self.four_colour
        board.model = model

    def on_mount(self) -> None:
        self.watch_model(self.model)
