"""The action bar: fold, check/call, bet/raise with a typed amount, slider and pot presets, pre-actions;
stud's bring-in or complete, a draw game's discards (select cards, then draw or stand pat), 32-card split.

Amounts are street totals (``raise_to``, R-BET-*), bounded by the room's legal ``min_raise_to`` /
``max_raise_to``. An amount out of range or not a whole number is refused here with an inline error and
nothing is sent. Decisions go up as :class:`ActionBar.Act` messages.
"""

from __future__ import annotations

import string
from functools import partial
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label

from tui.presets import ALWAYS, DEFAULTS, MAXIMUM, Preset
from tui.widgets.cards import card_text
from tui.widgets.slider import Slider
from tui.widgets.tick_box import TickBox
from tui.widgets.time_bar import TimeBar

MAX_DRAW_CARDS = 5
"""Draw games deal five cards: keys 1-5 (and a click) pick the discards."""

PASSED_THROUGH_BOX = frozenset(string.ascii_letters) | {"/", "?", "$"}
"""Keys typed in the amount box that are table keys, not amount text: the box takes digits only, so a letter
never goes into it (A after a refused amount is all-in, not swallowed)."""


def max_label(high: int, my_bet: int, my_stack: int, pot_limit: bool) -> str:
    """What the top of the legal range is, in words: ``"all-in"`` only when it is everything the player has;
    else the pot (pot limit) or the table's maximum.

    >>> max_label(200, 0, 200, False), max_label(45, 0, 200, True), max_label(8, 4, 200, False)
    ('all-in', 'pot', 'max')
    """
    if high >= my_bet + my_stack:
        return "all-in"
    return "pot" if pot_limit else "max"


def check_amount(text: str, legal: dict[str, Any]) -> tuple[int | None, str]:
    """Parse a typed amount: ``(amount, "")`` when legal, else ``(None, reason)``.

    >>> check_amount("30", {"min_raise_to": 4, "max_raise_to": 200})
    (30, '')
    >>> check_amount("3", {"min_raise_to": 4, "max_raise_to": 200})[1]
    'the amount must be between 4 and 200'
    """
    low, high = legal.get("min_raise_to"), legal.get("max_raise_to")
    if low is None or high is None:
        return None, "you cannot bet or raise now"
    cleaned = text.strip().replace(",", "").replace("_", "")
    if not cleaned.isdigit():
        return None, f"type a whole number of chips between {low} and {high}"
    amount = int(cleaned)
    if not low <= amount <= high:
        return None, f"the amount must be between {low} and {high}"
    return amount, ""


def _lay_out_again(button: Button) -> None:
    button.refresh(layout=True)


class AmountInput(Input):
    """The amount box: takes digits; R (bet/raise to the typed amount) and E (select the amount to type a new
    one) still reach the table's keys while the cursor is in it."""

    PASSED_ON = PASSED_THROUGH_BOX

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character not in self.PASSED_ON and super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        if event.character in self.PASSED_ON:
            event.prevent_default()  # Input's own handler would take it: it goes on up to the table's binding


class ActionBar(Widget):
    """Everything to act with. :attr:`legal` (the room's ``action_request.legal``) None means not your turn."""

    DEFAULT_CSS = """
    ActionBar { height: auto; padding: 0 1; background: $panel; }
    ActionBar Horizontal { height: auto; }
    ActionBar Button { min-width: 6; width: auto; height: 1; border: none; margin: 0 1 0 0; }
    ActionBar #fold { background: $error 60%; }
    ActionBar #call { background: $success 60%; }
    ActionBar #raise { background: $warning 60%; }
    ActionBar Input { width: 12; height: 1; border: none; padding: 0 1; }
    ActionBar Input.-invalid { background: $error 40%; }
    ActionBar Checkbox { height: 1; border: none; padding: 0; margin: 0 1 0 0; background: transparent; }
    ActionBar #error { color: $error; text-style: bold; width: 1fr; height: auto; }
    ActionBar .-hidden { display: none; }
    ActionBar .-watching { display: none; }
    ActionBar Slider { margin: 0 1; }
    ActionBar #draw { background: $accent 60%; }
    ActionBar #question { margin: 0 1 0 0; text-style: bold; }
    ActionBar .discard.-selected { background: $error 60%; text-style: strike; }
    """

    class Act(Message):
        """The player chose ``kind`` (protocol action kind) with ``amount`` for bets and raises, ``discard``
        (cards) for a draw."""

        def __init__(self, kind: str, amount: int | None = None, discard: list[str] | None = None) -> None:
            super().__init__()
            self.kind = kind
            self.amount = amount
            self.discard = discard

    legal: reactive[dict[str, Any] | None] = reactive(None, always_update=True)
    pot: reactive[int] = reactive(0)
    my_bet: reactive[int] = reactive(0)
    big_blind: reactive[int] = reactive(1)
    error: reactive[str] = reactive("")
    can_pre_act: reactive[bool] = reactive(False)
    """Whether pre-action boxes make sense now: I am in the running hand, not folded nor all-in."""
    my_stack: reactive[int] = reactive(0)
    pot_limit: reactive[bool] = reactive(False)
    preflop: reactive[bool] = reactive(False)
    """Pre-flop in a game with blinds: the big-blind presets (2×, 2.5×, 3×) are offered."""
    facing: reactive[int] = reactive(0)
    """Chips I would need to call now (the bet in front of me), shown on C while it is not my turn."""
    watching: reactive[bool] = reactive(False)
    """A spectator: nothing to act with is shown, only the clock of the player to act (and his time bank)."""
    round_bet: reactive[int] = reactive(0)
    """The highest bet of this betting round (0: the next chips in are a bet, else a raise)."""
    my_cards: reactive[list[str]] = reactive(list, always_update=True)
    """My cards in the running hand: a draw's discards are chosen among them."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._discards: list[str] = []  # the cards chosen to throw in the pending draw
        self.presets: tuple[Preset, ...] = DEFAULTS  # the player's bet sizes, keys 1-9 (the app's, tui.presets)

    def compose(self) -> ComposeResult:
        with Horizontal(id="main-actions"):
            yield Button("Fold (F)", id="fold", compact=True)
            yield Button("Check (C)", id="call", compact=True)
            yield Button("Raise (R)", id="raise", compact=True)
            yield AmountInput(placeholder="amount", id="amount", restrict=r"[0-9,_ ]*", compact=True)
            yield Button("Bring in (C)", id="bring-in", classes="-hidden", compact=True)
            yield Button("Split (P)", id="split", classes="-hidden", compact=True)
        with Horizontal(id="answer-row", classes="-hidden"):  # a question of its own: not betting keys
            yield Label("", id="question")
            yield Button("Show (S)", id="show", classes="-hidden", compact=True)
            yield Button("Muck (M)", id="muck", classes="-hidden", compact=True)
            yield Button("Run it twice (Y)", id="run-twice", classes="-hidden", compact=True)
            yield Button("Run once (N)", id="run-once", classes="-hidden", compact=True)
        with Horizontal(id="draw-row", classes="-hidden"):
            for index in range(MAX_DRAW_CARDS):
                yield Button("", id=f"card-{index}", classes="discard", compact=True)
            yield Button("Stand pat (D)", id="draw", compact=True)
        with Horizontal(id="sizing"):
            for number, preset in enumerate(self.presets, start=1):  # keys 1-9 (tui.presets), 7-9 pre-flop
                yield Button(self._preset_label(number, preset), id=f"preset-{number}", compact=True,
                             classes="preset" if number <= ALWAYS else "preset preflop-preset -hidden")
            yield Slider(id="slider")
        with Horizontal(id="pre-actions"):
            yield TickBox("check/fold", id="pre-check-fold", compact=True)
            yield TickBox("call any", id="pre-call-any", compact=True)
            yield TickBox("fold to any bet", id="pre-fold", compact=True)
            yield TimeBar(id="clock")
        yield Label("", id="error")

    def on_mount(self) -> None:
        for button in self.query(Button).results(Button):
            # a Button's width is laid out once: a longer label ("Call 138 (C)") would be cut ("Call 138")
            self.watch(button, "label", partial(_lay_out_again, button), init=False)
        self.call_after_refresh(self.watch_legal, self.legal)
        self.call_after_refresh(self.watch_watching, self.watching)
        self.call_after_refresh(self._enable_pre_actions)

    # --- data in -------------------------------------------------------------------------------------

    def watch_legal(self, legal: dict[str, Any] | None) -> None:
        if not self.is_mounted or not self.query("#run-twice"):
            return  # not composed yet, or its buttons already gone (a pool's tab closed as it opened)
        mine = legal is not None
        # R-HOME-1: the run-it-twice question has only its two answers (no fold, check or raise then)
        asked = bool(legal and legal.get("can_run_twice"))
        for button_id in ("run-twice", "run-once"):
            self.query_one(f"#{button_id}", Button).set_class(not asked, "-hidden")
        showdown = bool(legal and (legal.get("can_show") or legal.get("can_muck"))) or asked
        for button_id in ("fold", "call", "raise"):
            self.query_one(f"#{button_id}", Button).disabled = not mine or showdown
        for button_id in ("show", "muck"):
            self.query_one(f"#{button_id}", Button).set_class(not showdown, "-hidden")
        self._enable_pre_actions()
        drawing = bool(legal and legal.get("max_discards"))
        self._discards = []
        self.query_one("#draw-row").set_class(not drawing, "-hidden")
        self._show_discards()
        bring_in = bool(legal and legal.get("bring_in_amount") is not None and not legal.get("can_check")
                        and legal.get("call_amount") is None)
        self.query_one("#bring-in", Button).set_class(not bring_in, "-hidden")
        if bring_in and legal is not None:
            self.query_one("#bring-in", Button).label = f"Bring in {legal['bring_in_amount']} (C)"
        self.query_one("#split", Button).set_class(not (legal and legal.get("can_split")), "-hidden")
        for widget_id in ("fold", "raise", "amount", "sizing"):  # a draw: only the draw controls
            self.query_one(f"#{widget_id}").set_class(drawing, "-hidden")
        self.query_one("#call", Button).set_class(drawing, "-hidden")
        self.query_one("#answer-row").set_class(not showdown, "-hidden")
        self.query_one("#question", Label).update("Run it twice?" if asked else "Showdown:" if showdown else "")
        self._arrange()
        if legal is None:  # not my turn: nothing left from an earlier turn, C says what it would do
            self._show_waiting_labels()
            self.query_one("#amount", Input).value = ""
            self.query_one(Slider).set_value(self.query_one(Slider).minimum, announce=False)
            self._label_presets()
            return
        call = legal.get("call_amount")
        self.query_one("#call", Button).label = f"Call {call} (C)" if call is not None else "Check (C)"
        self.query_one("#call", Button).disabled = showdown or (call is None and not legal.get("can_check"))
        self.query_one("#call", Button).set_class(bring_in or drawing, "-hidden")  # C brings in: one button says so
        self.query_one("#fold", Button).disabled = showdown or not legal.get("can_fold")
        low: Any = legal.get("min_raise_to")
        high: Any = legal.get("max_raise_to")
        can_raise = low is not None and high is not None
        self.query_one("#raise", Button).disabled = not can_raise
        for widget_id in ("raise", "amount", "sizing"):  # capped, or facing an all-in: no raise offered
            self.query_one(f"#{widget_id}").set_class(drawing or showdown or not can_raise, "-hidden")
        self.query_one("#raise", Button).label = ("Complete (R)" if bring_in else "Bet (R)" if legal.get("is_bet")
                                                  else "Raise to (R)")
        for button in self.query(".preset").results(Button):
            button.disabled = not can_raise
        self._label_presets()
        slider = self.query_one(Slider)
        if can_raise:
            slider.minimum, slider.maximum = int(low), int(high)
            slider.step = max(1, self.big_blind)
            slider.set_value(int(low), announce=False)
            self.query_one("#amount", Input).value = str(low)
        else:  # no bet or raise possible (e.g. facing an all-in): no amount left from an earlier turn
            self.query_one("#amount", Input).value = ""
        self.error = ""
        self._maybe_pre_act(legal)

    def _arrange(self) -> None:
        """Which rows show: the betting row while I bet or wait for my turn in the hand; none of it once I
        have folded (or between hands); a draw, a showdown or the run-it-twice question have rows of their own."""
        legal = self.legal
        answering = bool(legal and (legal.get("can_show") or legal.get("can_muck") or legal.get("can_run_twice")))
        betting = (legal is not None and not answering) or (legal is None and self.can_pre_act)
        self.query_one("#main-actions").set_class(not betting, "-hidden")
        for box in self.query("#pre-actions Checkbox"):
            box.set_class(not betting, "-hidden")  # the clock stays: whose turn it is
        if not betting:
            self.query_one("#sizing").set_class(True, "-hidden")
        elif legal is None:
            for widget_id in ("raise", "amount", "sizing"):
                self.query_one(f"#{widget_id}").set_class(False, "-hidden")

    def _show_waiting_labels(self) -> None:
        """Between my turns C ticks "call any" and R has nothing to send: the labels say what I face now."""
        self.query_one("#call", Button).label = f"Call {self.facing} (C)" if self.facing else "Check (C)"
        self.query_one("#raise", Button).label = "Raise (R)" if self.facing or self.round_bet else "Bet (R)"

    def watch_watching(self, watching: bool) -> None:
        if not self.is_mounted:
            return
        for selector in ("#main-actions", "#sizing", "#error", "#pre-actions Checkbox"):
            for widget in self.query(selector):
                widget.set_class(watching, "-watching")
        if not watching:
            self.watch_legal(self.legal)  # the draw row and the rest as this turn has them

    def watch_facing(self, facing: int) -> None:
        if self.is_mounted and self.legal is None:
            self._show_waiting_labels()

    def watch_round_bet(self, bet: int) -> None:
        self.watch_facing(self.facing)

    def watch_preflop(self, preflop: bool) -> None:
        if self.is_mounted:
            self._label_presets()

    def watch_pot_limit(self, pot_limit: bool) -> None:
        # The structure comes with the lobby row, which may arrive after the turn that labelled the presets.
        if self.is_mounted:
            self._label_presets()

    def top_label(self) -> str:
        """The maximum's name now: "all-in", "pot" (pot limit) or "max" (A and preset 6 say it)."""
        high = (self.legal or {}).get("max_raise_to")
        if high is None:
            return "all-in" if not self.pot_limit else "pot"
        return max_label(int(high), self.my_bet, self.my_stack, self.pot_limit)

    def _preset_label(self, number: int, preset: Preset) -> str:
        """A preset's button: its key, then its size ("1:½", "8:2.5BB"); the maximum says what it is now."""
        return f"{number}:{self.top_label() if preset.kind == MAXIMUM else preset.label}"

    def set_presets(self, presets: tuple[Preset, ...]) -> None:
        """The player changed his bet sizes (the window, $): the buttons and keys use them from now on."""
        if presets != self.presets:
            self.presets = presets
            if self.is_mounted:
                self._label_presets()

    def _label_presets(self) -> None:
        for number, preset in enumerate(self.presets, start=1):
            button = self.query_one(f"#preset-{number}", Button)
            button.label = self._preset_label(number, preset)
            if number > ALWAYS:
                button.set_class(not self.preflop, "-hidden")

    def watch_my_cards(self, cards: list[str]) -> None:
        if self.is_mounted:
            self._show_discards()

    def _show_discards(self) -> None:
        """The draw row: one button per card of mine, struck through when chosen to throw."""
        if not self.is_mounted:
            return
        discards = self._discards
        for index in range(MAX_DRAW_CARDS):
            button = self.query_one(f"#card-{index}", Button)
            card = self.my_cards[index] if index < len(self.my_cards) else None
            button.set_class(card is None, "-hidden")
            button.set_class(card in discards, "-selected")
            button.label = Text(f"{index + 1}:").append_text(card_text(card)) if card else ""
        count = len(discards)
        self.query_one("#draw", Button).label = f"Draw {count} (D)" if count else "Stand pat (D)"

    def toggle_discard(self, index: int) -> None:
        """Choose (or un-choose) my card number ``index`` (0-based) to throw in this draw."""
        legal = self.legal
        if legal is None or not legal.get("max_discards") or index >= len(self.my_cards):
            return
        card = self.my_cards[index]
        discards = self._discards
        if card in discards:
            discards.remove(card)
        elif len(discards) >= int(legal["max_discards"]):
            self.error = f"you may throw at most {legal['max_discards']} cards"
            return
        else:
            discards.append(card)
        self.error = ""
        self._show_discards()

    @property
    def drawing(self) -> bool:
        """Whether my turn is a draw (keys 1-5 then pick discards instead of bet presets)."""
        return bool(self.legal and self.legal.get("max_discards"))

    def draw(self) -> None:
        """Throw the chosen cards (none: stand pat)."""
        if self.drawing:
            self.post_message(self.Act("draw", discard=list(self._discards)))

    def run_twice(self, agree: bool) -> None:
        """R-HOME-1: answer the run-it-twice question (yes: ``run_it_twice``, no: ``run_it_once``)."""
        if self.legal is not None and self.legal.get("can_run_twice"):
            self.post_message(self.Act("run_it_twice" if agree else "run_it_once"))

    def split(self) -> None:
        if self.legal is not None and self.legal.get("can_split"):
            self.post_message(self.Act("split"))

    def watch_error(self, error: str) -> None:
        if self.is_mounted:
            self.query_one("#error", Label).update(error)
            self.query_one("#amount", Input).set_class(bool(error), "-invalid")

    def set_clock(self, seconds: float, started: float, time_bank: float | None, label: str) -> None:
        clock = self.query_one(TimeBar)
        clock.seconds, clock.started, clock.time_bank, clock.label = seconds, started, time_bank, label

    # --- pre-actions ---------------------------------------------------------------------------------

    def _maybe_pre_act(self, legal: dict[str, Any]) -> None:
        """Fire a ticked pre-action box now that it is our turn; each box is used once."""
        boxes = {name: self.query_one(f"#pre-{name}", Checkbox) for name in ("check-fold", "call-any", "fold")}
        kind: str | None = None
        if boxes["check-fold"].value:
            kind = "check" if legal.get("can_check") else "fold"
        elif boxes["call-any"].value:
            kind = "check" if legal.get("can_check") else "call" if legal.get("call_amount") is not None else None
        elif boxes["fold"].value and not legal.get("can_check"):
            kind = "fold"
        if kind is not None:
            for box in boxes.values():
                box.value = False
            self.post_message(self.Act(kind))

    def watch_can_pre_act(self, can: bool) -> None:
        self._enable_pre_actions()
        if self.is_mounted:
            self._arrange()

    def _enable_pre_actions(self) -> None:
        """The boxes are live while I am in the hand and waiting for my turn; greyed (and unticked) otherwise."""
        if not self.is_mounted:
            return
        for box in self.query("#pre-actions Checkbox").results(Checkbox):
            disabled = not self.can_pre_act or self.legal is not None
            if disabled and box.has_focus:  # a greyed widget takes no keys: give them back to the table
                self._focus_table()
            box.disabled = disabled
            if not self.can_pre_act:
                box.value = False

    def _focus_table(self) -> None:
        node = self.parent
        while node is not None and not getattr(node, "can_focus", False):
            node = node.parent
        if isinstance(node, Widget):
            node.focus()

    def toggle_pre_action(self, name: str) -> None:
        """Tick or untick the box ``name`` (``check-fold``, ``call-any``, ``fold``) when it can be used."""
        if self.legal is not None:
            self.error = "it is your turn: act now"
            return
        if not self.can_pre_act:
            self.error = "pre-actions are for a hand you are playing"
            return
        box = self.query_one(f"#pre-{name}", Checkbox)
        box.value = not box.value

    @on(Checkbox.Changed)
    def _one_box_at_a_time(self, event: Checkbox.Changed) -> None:
        if event.value:
            for box in self.query(Checkbox):
                if box is not event.checkbox:
                    box.value = False

    def clear_pre_actions(self) -> None:
        for box in self.query(Checkbox):
            box.value = False

    # --- actions (buttons, keys through the table view, the command palette) -------------------------

    def fold(self) -> None:
        if self.legal is not None and self.legal.get("can_fold"):
            self.post_message(self.Act("fold"))
        elif self.legal is None and self.can_pre_act:
            box = self.query_one("#pre-check-fold", Checkbox)
            box.value = not box.value  # not our turn: F ticks check/fold instead

    def check_or_call(self) -> None:
        legal = self.legal
        if legal is None:
            if self.can_pre_act:
                box = self.query_one("#pre-call-any", Checkbox)
                box.value = not box.value
            return
        if legal.get("can_check"):
            self.post_message(self.Act("check"))
        elif legal.get("call_amount") is not None:
            self.post_message(self.Act("call"))
        elif legal.get("bring_in_amount") is not None:
            self.post_message(self.Act("bring_in"))

    def raise_typed(self) -> None:
        """Bet/raise to the typed amount; an invalid amount shows why and sends nothing."""
        if self.legal is None:
            self.error = "it is not your turn"
            return
        amount, reason = check_amount(self.query_one("#amount", Input).value, self.legal)
        if amount is None:
            self.error = reason
            return
        self.error = ""
        completing = self.legal.get("bring_in_amount") is not None and self.legal.get("call_amount") is None
        kind = "complete" if completing else "bet" if self.legal.get("is_bet") else "raise_to"
        self.post_message(self.Act(kind, amount))

    def all_in(self) -> None:
        """A: bet or raise to the maximum (all-in, or the pot / the limit where that is less), else call."""
        if self.legal is None:
            return
        if self.legal.get("max_raise_to") is not None:
            self.query_one("#amount", Input).value = str(self.legal["max_raise_to"])
            self.raise_typed()
        elif self.legal.get("call_amount") is not None:
            self.post_message(self.Act("call"))

    def apply_preset(self, number: int) -> None:
        """Put preset ``number``'s amount (keys 1-9) in the box and on the slider (not sent: R or Enter sends)."""
        if self.legal is None:
            return
        if not 1 <= number <= len(self.presets):
            return
        amount = self.presets[number - 1].amount(self.legal, self.pot, self.my_bet, self.big_blind)
        if amount is None:
            self.error = "you cannot bet or raise now"
            return
        self.query_one("#amount", Input).value = str(amount)
        self.query_one(Slider).set_value(amount, announce=False)
        self.error = ""

    def focus_amount(self) -> None:
        """Put the cursor in the amount box with its amount selected: what is typed next replaces it."""
        box = self.query_one("#amount", Input)
        box.focus()
        box.select_all()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button_id = event.button.id or ""
        if button_id == "fold":
            self.fold()
        elif button_id == "call":
            self.check_or_call()
        elif button_id == "raise":
            self.raise_typed()
        elif button_id in ("show", "muck"):
            self.post_message(self.Act(button_id))
        elif button_id == "bring-in":
            self.post_message(self.Act("bring_in"))
        elif button_id == "split":
            self.split()
        elif button_id in ("run-twice", "run-once"):
            self.run_twice(button_id == "run-twice")
        elif button_id == "draw":
            self.draw()
        elif button_id.startswith("card-"):
            self.toggle_discard(int(button_id.removeprefix("card-")))
        elif button_id.startswith("preset-"):
            self.apply_preset(int(button_id.removeprefix("preset-")))

    @on(Input.Submitted, "#amount")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.raise_typed()

    @on(Input.Changed, "#amount")
    def _typed(self, event: Input.Changed) -> None:
        self.error = ""
        if self.legal is not None and event.value.strip().isdigit():
            self.query_one(Slider).set_value(int(event.value.strip()), announce=False)

    @on(Slider.Changed)
    def _slid(self, event: Slider.Changed) -> None:
        event.stop()
        self.query_one("#amount", Input).value = str(event.value)
        self.error = ""
