"""The tournament's windows (issue 18): the tournament screen (structure, clock, prize pool, payouts, players by
chips, tables, what is open to me; its keys from the key map's :data:`tui.keys.TOURNAMENT` place), a question
window (a rebuy, an add-on, a deal: yes or no by key) and the password window of a private tournament."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tui.keys import TOURNAMENT, bindings
from tui.tournament_book import TournamentBook, screen_text

REFRESH_SECONDS = 2.0
"""How often an open tournament screen asks the room again (the clock counts down between)."""


class TournamentHost(Protocol):
    """What the tournament screen needs of the app."""

    tournaments: TournamentBook

    def clock(self) -> float: ...

    def ask_tournament(self, tournament: str) -> None: ...

    def tournament_request(self, tournament: str, action: str, **fields: Any) -> None: ...


class TournamentScreen(ModalScreen[None]):
    """One tournament's screen; Esc closes. Its numbers are the room's last ``tournament`` message."""

    DEFAULT_CSS = """
    TournamentScreen { align: center middle; }
    TournamentScreen > VerticalScroll { width: 100; max-width: 100%; height: auto; max-height: 100%;
                                        border: thick $accent; background: $surface; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = bindings(TOURNAMENT)

    def __init__(self, tournament: str) -> None:
        super().__init__()
        self.tournament = tournament

    @property
    def host(self) -> TournamentHost:
        app: Any = self.app
        return app  # type: ignore[no-any-return]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="tournament-text")

    def on_mount(self) -> None:
        self.host.ask_tournament(self.tournament)
        self.set_interval(1.0, self.redraw)
        self.set_interval(REFRESH_SECONDS, lambda: self.host.ask_tournament(self.tournament))
        self.redraw()

    def text(self) -> str:
        book = self.host.tournaments
        state = book.states.get(self.tournament)
        if state is None:
            return f"{book.name(self.tournament)}: asking the room…"
        return "\n".join(screen_text(state, book.me, book.clocks.get(self.tournament), self.host.clock()))

    def redraw(self) -> None:
        for text in self.query("#tournament-text").results(Static):  # none once the screen is closing
            text.update(Text(self.text()))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_request(self, action: str, deal: str = "") -> None:
        fields = {"deal": deal} if deal else {}
        self.host.tournament_request(self.tournament, action, **fields)


class QuestionScreen(ModalScreen[bool | None]):
    """A yes-or-no window: ``yes``/``no`` are (key, label); Esc answers None (no answer: for most callers, no).
    Its words come from the caller."""

    DEFAULT_CSS = """
    QuestionScreen { align: center middle; }
    QuestionScreen > Vertical { width: 70; max-width: 100%; height: auto; border: thick $warning;
                                background: $surface; padding: 1 2; }
    QuestionScreen Label { width: 100%; }
    QuestionScreen Horizontal { height: auto; margin-top: 1; }
    QuestionScreen Button { margin-right: 2; }
    """

    def __init__(self, title: str, lines: list[str], yes: tuple[str, str], no: tuple[str, str],
                 kind: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.yes = yes
        self.no = no
        self.kind = kind  # what it asks ("rebuy", "add_on", "deal"): the app does not ask twice

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.title_text, style="bold"))
            for line in self.lines:
                yield Label(Text(line))
            with Horizontal():
                yield Button(f"{self.yes[1]} ({self.yes[0].upper()})", id="yes", variant="success")
                yield Button(f"{self.no[1]} ({self.no[0].upper()})", id="no")

    def on_key(self, event: events.Key) -> None:
        if event.key == self.yes[0]:
            event.stop()
            self.dismiss(True)
        elif event.key == self.no[0]:
            event.stop()
            self.dismiss(False)
        elif event.key == "escape":
            event.stop()
            self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class PasswordScreen(ModalScreen[str | None]):
    """The password of a private tournament; Esc cancels."""

    DEFAULT_CSS = """
    PasswordScreen { align: center middle; }
    PasswordScreen > Vertical { width: 60; max-width: 100%; height: auto; border: thick $accent;
                                background: $surface; padding: 1 2; }
    PasswordScreen Input { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.tournament_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"{self.tournament_name} is private: its password"))
            yield Input(id="tournament-password", password=True, max_length=128)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        if event.value:
            self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
