"""Small modal screens: the buy-in / top-up amount, the room password / invite code, the pick of a mixed table's
next game, the help screen and your results."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.markup import escape
from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from tui.keys import help_text
from tui.notes import COLOURS, MAX_NOTE, PlayerNotes
from tui.presets import ALWAYS, COUNT, BetPresets, parse_all
from tui.presets import HELP as SIZE_HELP
from tui.typeahead import Window


class AmountScreen(Window[int | None]):
    """Ask for a chip amount between ``minimum`` and ``maximum`` (buy-in R-BUYIN-1, top-up). Escape cancels."""

    DEFAULT_CSS = """
    AmountScreen { align: center middle; }
    AmountScreen > Vertical { width: 50; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    AmountScreen Input { width: 100%; }
    AmountScreen #amount-error { color: $error; height: auto; }
    AmountScreen Horizontal { height: auto; margin-top: 1; }
    AmountScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, minimum: int, maximum: int, default: int) -> None:
        super().__init__()
        self.title_text = title
        self.minimum = minimum
        self.maximum = maximum
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.title_text}: {self.minimum}–{self.maximum} chips")
            yield Input(str(self.default), id="amount-input", restrict=r"[0-9]*")
            yield Label("", id="amount-error")
            with Horizontal():
                yield Button("OK", id="ok", variant="success")
                yield Button("Cancel", id="cancel")

    def _submit(self) -> None:
        text = self.query_one(Input).value.strip()
        if not text.isdigit() or not self.minimum <= int(text) <= self.maximum:
            self.query_one("#amount-error", Label).update(
                f"type a whole number between {self.minimum} and {self.maximum}")
            return
        self.dismiss(int(text))

    @on(Input.Submitted)
    def _entered(self) -> None:
        self._submit()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AutoTopUpScreen(Window[dict[str, int | bool | None] | None]):
    """The player's auto top-up / auto rebuy order at a cash table (R-BUYIN-1): top up when the stack is below a
    threshold (0: off), to an amount (empty: the table's maximum), and buy in again when busted. The room checks
    it again and carries it out between hands. Escape cancels; all off cancels the order."""

    DEFAULT_CSS = """
    AutoTopUpScreen { align: center middle; }
    AutoTopUpScreen > Vertical { width: 60; height: auto; border: thick $accent; background: $surface;
                                 padding: 1 2; }
    AutoTopUpScreen Input { width: 100%; }
    AutoTopUpScreen Label { width: 100%; }
    AutoTopUpScreen #auto-error { color: $error; height: auto; }
    AutoTopUpScreen Horizontal { height: auto; margin-top: 1; }
    AutoTopUpScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, table_name: str, minimum: int, maximum: int,
                 order: dict[str, int | bool | None] | None = None) -> None:
        super().__init__()
        self.table_name, self.minimum, self.maximum = table_name, minimum, maximum
        self.order = order or {}

    def compose(self) -> ComposeResult:
        below, to = self.order.get("below"), self.order.get("to")
        with Vertical():
            yield Label(f"[b]Auto top-up at {escape(self.table_name)}[/b]")  # wraps: never cut (100 columns cut it)
            yield Label(f"Between your hands, within the buy-in ({self.minimum}–{self.maximum})")
            yield Label("Top up when my stack is below (0: never)")
            yield Input(str(below) if isinstance(below, int) else "0", id="auto-below", restrict=r"[0-9]*")
            yield Label(f"… to (empty: the maximum, {self.maximum})")
            yield Input(str(to) if isinstance(to, int) else "", id="auto-to", restrict=r"[0-9]*")
            yield Checkbox("Rebuy when I bust", bool(self.order.get("rebuy")), id="auto-rebuy")
            yield Label("", id="auto-error")
            with Horizontal():
                yield Button("OK", id="ok", variant="success")
                yield Button("Cancel", id="cancel")

    def _submit(self) -> None:
        below_text = self.query_one("#auto-below", Input).value.strip() or "0"
        to_text = self.query_one("#auto-to", Input).value.strip()
        target = int(to_text) if to_text else self.maximum
        error = self.query_one("#auto-error", Label)
        if not self.minimum <= target <= self.maximum:
            error.update(f"top up to a stack between {self.minimum} and {self.maximum}")
            return
        below = int(below_text)
        if below > target:
            error.update(f"the threshold is a stack below the top-up's {target} chips")
            return
        self.dismiss({"below": below, "rebuy": self.query_one("#auto-rebuy", Checkbox).value,
                      "to": int(to_text) if to_text else None})

    @on(Input.Submitted)
    def _entered(self) -> None:
        self._submit()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit()
        else:
            self.dismiss(None)
    def action_cancel(self) -> None:
        self.dismiss(None)


class NotesScreen(Window[tuple[str, str, str] | None]):
    """Notes on a player (issue 27): which player (of those at the table), his colour tag and a line of text;
    the answer is ``(name, colour, text)`` ("" colour: no tag; both empty: forget him). Escape cancels."""

    DEFAULT_CSS = """
    NotesScreen { align: center middle; }
    NotesScreen > Vertical { width: 64; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    NotesScreen Select, NotesScreen Input { width: 100%; }
    NotesScreen Horizontal { height: auto; margin-top: 1; }
    NotesScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#notes-text"

    def __init__(self, players: list[str], notes: PlayerNotes) -> None:
        super().__init__()
        self.players = players
        self.notes = notes

    def compose(self) -> ComposeResult:
        first = self.players[0]
        colour, text = self.notes.get(first) or ("", "")
        with Vertical():
            yield Label("Notes on a player (kept on this computer)")
            yield Select([(name, name) for name in self.players], value=first, allow_blank=False, id="notes-player")
            yield Select([("no tag", ""), *((name, name) for name in COLOURS)], value=colour, allow_blank=False,
                         id="notes-tag")
            yield Input(text, placeholder="a note: how he plays…", max_length=MAX_NOTE, id="notes-text")
            with Horizontal():
                yield Button("OK", id="ok", variant="success")
                yield Button("Cancel", id="cancel")

    @on(Select.Changed, "#notes-player")
    def _player(self, event: Select.Changed) -> None:
        colour, text = self.notes.get(str(event.value)) or ("", "")
        self.query_one("#notes-tag", Select).value = colour
        self.query_one("#notes-text", Input).value = text

    def _submit(self) -> None:
        self.dismiss((str(self.query_one("#notes-player", Select).value),
                      str(self.query_one("#notes-tag", Select).value), self.query_one("#notes-text", Input).value))

    @on(Input.Submitted)
    def _entered(self) -> None:
        self._submit()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class BetSizesScreen(Window[tuple[str, ...] | None]):
    """The player's bet sizes for keys 1-9 (tui.presets): one field each. OK keeps them when every one reads;
    otherwise each wrong one is named, marked, and the window stays with everything typed. Reset fills in the
    defaults (kept on OK); Escape cancels."""

    DEFAULT_CSS = """
    BetSizesScreen { align: center middle; }
    BetSizesScreen > Vertical { width: 70; max-width: 100%; height: auto; max-height: 100%; border: thick $accent;
                                background: $surface; padding: 0 1; }
    BetSizesScreen Label { width: 100%; }
    BetSizesScreen .size-row { height: 1; }
    BetSizesScreen .size-row Label { width: 4; }
    BetSizesScreen .size-row Input { width: 1fr; }
    BetSizesScreen .size-row Input.-wrong { background: $error 40%; }
    BetSizesScreen #sizes-error { color: $error; height: auto; }
    BetSizesScreen #size-buttons { height: 1; margin-top: 1; }
    BetSizesScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.texts = texts

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("[b]Bet sizes[/b] — keys 1–9 at every table (R or Enter sends the amount)")
            yield Label(f"Each is {SIZE_HELP}; amounts are clamped to the legal bet.", id="sizes-help")
            for number, text in enumerate(self.texts[:COUNT], start=1):
                if number in (1, ALWAYS + 1):
                    yield Label("[b]At every bet (1–6)[/b]" if number == 1 else "[b]Pre-flop opens (7–9)[/b]")
                with Horizontal(classes="size-row"):
                    yield Label(f" {number}")
                    yield Input(text, id=f"size-{number}", max_length=20, compact=True)
            yield Label("", id="sizes-error")
            with Horizontal(id="size-buttons"):
                yield Button("OK", id="ok", variant="success", compact=True)
                yield Button("Reset", id="reset", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def typed(self) -> list[str]:
        return [self.query_one(f"#size-{number}", Input).value for number in range(1, COUNT + 1)]

    def _submit(self) -> None:
        _, errors = parse_all(self.typed())
        for number in range(1, COUNT + 1):
            self.query_one(f"#size-{number}", Input).set_class(number in errors, "-wrong")
        if errors:
            self.query_one("#sizes-error", Label).update(
                escape("\n".join(f"key {number}: {problem}" for number, problem in errors.items())))
            self.query_one(f"#size-{min(errors)}", Input).focus()
            return
        self.dismiss(tuple(self.typed()))

    @on(Input.Submitted)
    def _entered(self) -> None:
        self._submit()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit()
        elif event.button.id == "reset":
            for number, text in enumerate(BetPresets().texts(), start=1):
                self.query_one(f"#size-{number}", Input).value = text
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class GameScreen(ModalScreen[int | None]):
    """Dealer's choice (R-MIX-2): pick the next game of a mixed table, by its number key or a button; the answer
    is its number (1, 2, …). Escape closes it without a pick (the room deals the next game in turn at the
    time out)."""

    DEFAULT_CSS = """
    GameScreen { align: center middle; }
    GameScreen > Vertical { width: 50; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    GameScreen Button { width: 100%; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel"),
                                              *(Binding(str(number), f"pick({number})", show=False)
                                                for number in range(1, 10))]

    def __init__(self, games: list[str], current: str) -> None:
        super().__init__()
        self.games = games
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Your pick: the next game (now {self.current})")
            for number, game in enumerate(self.games, start=1):
                yield Button(f"{number}  {game}", id=f"game-{number}")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_pick(int(str(event.button.id).removeprefix("game-")))

    def action_pick(self, number: int) -> None:
        if 1 <= number <= len(self.games):
            self.dismiss(number)

    def action_cancel(self) -> None:
        self.dismiss(None)


NEED_WORDS = {"password": "the room password", "invite": "an invite code (your name is new here)"}
FIELD_BREAK = re.compile(r"[\t\r\n]+")
"""What separates one field from the next in a paste (a password manager's "password<Tab>invite")."""


class GateInput(Input):
    """A password / invite field: a paste holding a Tab or a line break goes on into the fields after it."""

    def _on_paste(self, event: events.Paste) -> None:
        parts = [part for part in FIELD_BREAK.split(event.text) if part]
        screen = self.screen
        if len(parts) < 2 or not isinstance(screen, AuthScreen):
            return  # Input's own handler (Textual calls each class's) pastes the first line
        event.prevent_default()
        event.stop()
        fields = screen.fields()
        following = fields[fields.index(self):]
        for field, part in zip(following, parts, strict=False):
            field.value = part
            field.cursor_position = len(part)
        screen.set_focus(following[min(len(parts), len(following)) - 1])


class AuthScreen(ModalScreen[dict[str, str] | None]):
    """Ask what the room's ``hello.needs`` lists (``"password"``, ``"invite"``) and dismiss with the
    ``auth`` fields (``{"password": …, "invite": …}``). ``refusal`` is the room's last answer, shown in
    words above the fields, and ``typed`` (what it refused) fills the fields again. Escape dismisses with
    ``None`` (the palette's "Enter the room" asks again)."""

    DEFAULT_CSS = """
    AuthScreen { align: center middle; }
    AuthScreen > Vertical { width: 60; max-width: 100%; height: auto; border: thick $accent;
                            background: $surface; padding: 1 2; }
    AuthScreen Input { width: 100%; }
    AuthScreen Label { width: 100%; }  /* the prompt wraps inside the window instead of being cut */
    AuthScreen #auth-error { color: $error; height: auto; }
    AuthScreen Horizontal { height: auto; margin-top: 1; }
    AuthScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        # Priority: the app moves the focus the moment it reads the key, before it hands the next keys of the
        # same burst (a password manager's "password<Tab>invite<Enter>") to a field; as a field's own key the
        # move came too late and the invite went into the password box (issue 27 item 9).
        Binding("tab", "next_field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", show=False, priority=True),
        Binding("enter", "enter_next_field", show=False, priority=True),
    ]

    def __init__(self, room: str, needs: list[str], refusal: str = "", typed: dict[str, str] | None = None) -> None:
        super().__init__()
        self.room = room
        self.needs = [need for need in needs if need in NEED_WORDS]
        self.refusal = refusal
        self.typed = typed or {}  # what was refused: typed again only where it was wrong

    def compose(self) -> ComposeResult:
        wanted = " and ".join(NEED_WORDS[need] for need in self.needs)
        with Vertical():
            yield Label(f"{self.room or 'This room'} asks for {wanted}.", id="auth-prompt")
            yield Label(self.refusal, id="auth-error")
            for need in self.needs:
                yield Label("Password" if need == "password" else "Invite code")
                yield GateInput(self.typed.get(need, ""), id=f"auth-{need}", password=need == "password",
                                max_length=128)
            with Horizontal():
                yield Button("Enter", id="ok", variant="success")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        for field in self.query(Input).results(Input):
            field.focus()
            break

    def fields(self) -> list[GateInput]:
        return list(self.query(GateInput).results(GateInput))

    def action_next_field(self) -> None:
        self.focus_next()

    def action_enter_next_field(self) -> None:
        """Enter in a field whose next field is still empty goes on to it at once (a burst's "password<Enter>
        invite<Enter>"); otherwise the field takes the Enter in its turn, after the keys typed before it, and
        :meth:`_entered` submits."""
        fields = self.fields()
        focused = self.focused
        if not isinstance(focused, GateInput) or focused not in fields:
            raise SkipAction
        following = fields[fields.index(focused) + 1:]
        if not following or following[0].value:
            raise SkipAction
        self.set_focus(following[0])  # now: Widget.focus() would move it only after the keys already read

    def _submit(self) -> None:
        fields = {need: self.query_one(f"#auth-{need}", Input).value.strip() for need in self.needs}
        empty = [need for need, value in fields.items() if not value]
        if empty:
            self.query_one("#auth-error", Label).update(
                "type " + " and ".join(NEED_WORDS[need] for need in empty) + " first")
            self.query_one(f"#auth-{empty[0]}", Input).focus()
            return
        self.dismiss(fields)

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        inputs = list(self.query(Input))
        following = inputs[inputs.index(event.input) + 1:] if event.input in inputs else []
        if following and not following[0].value:
            following[0].focus()  # Enter in the password field goes on to the invite code
            return
        self._submit()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


HELP = help_text()
"""The help screen's text, from the key map (:mod:`tui.keys`)."""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: auto; max-width: 100%; height: auto; border: thick $accent;
                          background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        yield Static(HELP)

    def on_click(self) -> None:
        self.dismiss()


class ResultsScreen(ModalScreen[None]):
    """Your result: each sitting of this visit and the night (tui.results). Escape, Enter or a click closes."""

    DEFAULT_CSS = """
    ResultsScreen { align: center middle; }
    ResultsScreen > Static { width: auto; max-width: 100%; height: auto; border: thick $accent;
                             background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q", "dismiss", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, markup=False, id="results-text")

    def on_click(self) -> None:
        self.dismiss()
