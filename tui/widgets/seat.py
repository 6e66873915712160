"""One seat around the felt: name, stack, bet, state (to act, folded, all-in, away), button and blind markers."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.model import SeatInfo
from tui.widgets.cards import cards_text


class SeatView(Static):
    """Renders one :class:`SeatInfo`; empty seats show "empty". Data comes in through :attr:`info`."""

    SCOPED_CSS = False  # its rules also depend on the screen's -compact class
    DEFAULT_CSS = """
    SeatView { width: 1fr; height: 4; border: round $panel; padding: 0 1; content-align: center middle; }
    SeatView.-empty { color: $text-disabled; border: round $panel-darken-1; }
    SeatView.-to-act { border: heavy $warning; background: $warning 15%; }
    SeatView.-me { border: round $accent; }
    SeatView.-me.-to-act { border: heavy $warning; }
    SeatView.-folded { color: $text-muted; }
    SeatView.-unused { visibility: hidden; }
    .-compact SeatView { height: 2; border: none; padding: 0 1; background: $boost; }
    .-compact SeatView.-to-act { border: none; background: $warning 40%; }
    """

    info: reactive[SeatInfo | None] = reactive(None, always_update=True)
    markers: reactive[str] = reactive("")
    to_act: reactive[bool] = reactive(False)
    four_colour: reactive[bool] = reactive(False)
    mine: reactive[bool] = reactive(False)

    def render(self) -> Text:
        info = self.info
        if info is None:
            return Text("empty", style="dim")
        first = Text()
        if self.markers:
            first.append(self.markers + " ", style="bold yellow")
        first.append(info.name[:14], style="bold" if self.mine else "")
        first.append(f"  {info.stack}", style="green")
        second = Text()
        if info.cards or info.face_down:
            second.append_text(cards_text(info.cards, self.four_colour, info.face_down))
        if info.bet:
            second.append(f"  bet {info.bet}", style="bold cyan")
        if self.to_act:
            second.append("  TO ACT", style="bold reverse")
        state = info.state or ("" if self.to_act else info.last_action)
        if state:  # away / sitting out still show while the hand asks him (he goes after it)
            second.append(f"  {state}", style="italic")
        return Text("\n").join([first, second]) if second else first

    def watch_info(self, info: SeatInfo | None) -> None:
        self.set_class(info is None, "-empty")
        self.set_class(info is not None and bool(info.folded or info.sitting_out or info.away), "-folded")

    def watch_to_act(self, to_act: bool) -> None:
        self.set_class(to_act, "-to-act")

    def watch_mine(self, mine: bool) -> None:
        self.set_class(mine, "-me")
