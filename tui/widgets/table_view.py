"""One table: the felt, the action bar, the hand log and chat, and the seat controls.

Data comes down as :attr:`TableView.model` (set by the app after each room message); requests go up as
:class:`TableView.Request` (a protocol message type and its fields). The view owns the table hotkeys, so the
footer shows them whenever this table has the focus.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Static

from tui.keys import TABLE, bindings
from tui.model import TableModel
from tui.presets import DEFAULTS, Preset
from tui.screens import GameScreen
from tui.widgets.action_bar import MAX_DRAW_CARDS, ActionBar
from tui.widgets.felt import Felt
from tui.widgets.hand_log import ChatPanel, HandLog


def status_hand(model: TableModel) -> Text:
    """The line under the felt when the room has nothing to complain about: my made hand so far."""
    name = model.my_hand_name
    return Text.assemble(("Your hand: ", "dim"), (name, "bold")) if name else Text("")


def play_keys(model: TableModel, top: str) -> dict[str, bool]:
    """Which of the hand's keys the key bar offers now (``top``: the maximum's name, "all-in", "pot" or
    "max"). Fold, Check/Call and Raise while I am in the hand and betting (F and C tick the pre-actions before
    my turn; R only when a bet or raise is allowed); a draw offers D; a showdown S and M; the run-it-twice
    question Y and N; none of them once I have folded or between hands."""
    legal = model.legal
    info = model.seats.get(model.my_seat) if model.my_seat is not None else None
    in_play = bool(info is not None and model.hand_running and not model.hand_over and info.in_hand
                   and not info.folded and not info.all_in)
    asked = bool(legal and legal.get("can_run_twice"))
    showdown = bool(legal and (legal.get("can_show") or legal.get("can_muck")))
    drawing = bool(legal and legal.get("max_discards"))
    betting = (legal is not None or in_play) and not (asked or showdown or drawing)
    can_raise = betting and legal is not None and legal.get("min_raise_to") is not None
    can_push = can_raise or (betting and legal is not None and legal.get("call_amount") is not None)
    return {"fold": betting, "check_call": betting, "raise": can_raise,
            "all_in": can_push and top == "all-in", "max_pot": can_push and top == "pot",
            "max_raise": can_push and top == "max", "draw": drawing,
            "show": bool(legal and legal.get("can_show")) or model.can_show_after_win,
            "muck": bool(legal and legal.get("can_muck")), "run_twice": asked, "run_once": asked,
            "rabbit_hunt": model.rabbit_available}


class TableView(Widget, can_focus=True):
    """A table the player has open (seated or watching)."""

    SCOPED_CSS = False  # its rules also depend on the screen's -compact / -tiled classes

    DEFAULT_CSS = """
    TableView { height: 1fr; width: 1fr; layout: vertical; border: round $panel; }
    TableView.-active { border: round $accent; }
    TableView.-active #title { background: $accent 40%; }
    TableView.-needs-action { border: heavy $warning; }
    TableView #title { height: 1; padding: 0 1; background: $boost; }
    TableView #alarm { height: auto; background: $error; color: $text; text-style: bold; padding: 0 1; }
    TableView #alarm.-none { display: none; }
    TableView #jackpot { height: auto; background: $success; color: $text; text-style: bold; padding: 0 1; }
    TableView #jackpot.-none { display: none; }
    TableView #body { height: 1fr; }
    TableView #play { width: 1fr; height: 1fr; }
    TableView #side { width: 38; height: 1fr; border-left: solid $panel; }
    TableView #controls { height: 1; }
    TableView #controls Button { height: 1; border: none; min-width: 8; width: auto; margin: 0 1 0 0; }
    TableView #status { height: auto; padding: 0 1; color: $warning; }
    TableView #status.-away { background: $warning 30%; color: $text; text-style: bold; }
    TableView .-hidden { display: none; }
    .-compact TableView { border: none; }
    .-compact TableView #body { layout: vertical; }
    .-compact TableView #play { height: auto; }
    .-compact TableView #side { width: 1fr; height: 1fr; min-height: 2; border-left: none;
                                border-top: solid $panel; }
    .-compact TableView #chat { display: none; }
    .-tiled TableView #side { display: none; }
    .-tiled TableView #controls { display: none; }
    .-tiled.-compact TableView #pre-actions Checkbox { display: none; }
    .-tiled TableView { border: round $panel; }
    .-tiled TableView.-active { border: double $accent; }
    .-tiled TableView.-needs-action { border: heavy $warning; }
    .-show-log TableView #side { display: block; width: 1fr; }
    .-show-log TableView #play { display: none; }
    .-show-log TableView #chat { display: block; }
    """

    # every table key acts on the app's current table (the highlighted one), whichever widget has the focus
    BINDINGS: ClassVar[list[BindingType]] = bindings(TABLE)

    class Request(Message):
        """Send ``message_type`` with ``fields`` (the table id is added by the app)."""

        def __init__(self, view: TableView, message_type: str, **fields: Any) -> None:
            super().__init__()
            self.view = view
            self.table_id = view.table_id
            self.message_type = message_type
            self.fields = fields

    class SitWanted(Message):
        def __init__(self, view: TableView) -> None:
            super().__init__()
            self.table_id = view.table_id

    class TopUpWanted(Message):
        def __init__(self, view: TableView) -> None:
            super().__init__()
            self.table_id = view.table_id

    class NotesWanted(Message):
        def __init__(self, view: TableView) -> None:
            super().__init__()
            self.table_id = view.table_id

    model: reactive[TableModel | None] = reactive(None, always_update=True)
    four_colour: reactive[bool] = reactive(False)

    def __init__(self, table_id: str, **options: Any) -> None:
        super().__init__(**options)
        self.table_id = table_id
        self._betting_round: tuple[str, str, bool] | None = None
        self._keys: tuple[Any, ...] | None = None
        self._opened_log_for_chat = False
        self._action_bar: ActionBar | None = None  # kept at compose: key_state runs on every key-bar check
        self.bet_presets: tuple[Preset, ...] = DEFAULTS  # the player's bet sizes (the app's, tui.presets)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="alarm", classes="-none")
        yield Static(id="jackpot", classes="-none")
        with Horizontal(id="body"):
            with Vertical(id="play"):
                yield Felt(id="felt")
                yield Static(id="status")
                self._action_bar = ActionBar(id="actions")
                yield self._action_bar
                with Horizontal(id="controls"):
                    yield Button("Sit down (J)", id="sit-down", compact=True, classes="-hidden")
                    yield Button("Sit out (O)", id="sit-out", compact=True)
                    yield Button("Wait BB (B)", id="wait-bb", compact=True)
                    yield Button("Top-up (U)", id="top-up", compact=True)
                    yield Button("Auto top-up (Z)", id="auto-top-up", compact=True)
                    yield Button("Leave (X)", id="leave", compact=True)
            with Vertical(id="side"):
                yield HandLog(id="log")
                yield ChatPanel(id="chat")

    def watch_model(self, model: TableModel | None) -> None:
        if model is None or not self.is_mounted or not self.query("#title"):
            return  # not composed yet: on_mount draws the model once the children are there
        title = Text()
        title.append(f"{model.name or model.table_id}", style="bold")
        if model.tournament_clock:
            title.append(f"  {model.tournament_clock}")
        elif model.mixed:
            title.append(f"  {model.mixed_words}", style="bold")
        elif model.stakes != (0, 0):
            title.append(f"  {model.stakes[0]}/{model.stakes[1]}")
        if model.hand_number:
            title.append(f"  hand #{model.hand_number}")
        if model.jackpot is not None:
            title.append(f"  Jackpot {model.jackpot.get('amount', 0)}", style="bold")
        if not model.seated:
            title.append("  (watching)", style="italic")
        if model.needs_action:
            title.append("  YOUR TURN", style="bold reverse yellow")
        self.query_one("#title", Static).update(title)
        alarm = self.query_one("#alarm", Static)
        alarm.update(model.alarm)
        alarm.set_class(not model.alarm, "-none")
        banner = self.query_one("#jackpot", Static)
        banner.update(model.jackpot_banner)
        banner.set_class(not model.jackpot_banner, "-none")
        self.set_class(model.needs_action, "-needs-action")
        felt = self.query_one(Felt)
        felt.four_colour = self.four_colour
        felt.model = model
        mine = model.my_seat
        info = model.seats.get(mine) if mine is not None else None
        away = info is not None and (info.away or info.sitting_out)
        status = self.query_one("#status", Static)
        status.update(model.error or self._away_words(info, model.away_warned) or status_hand(model)
                      + (f" · {model.auto_top_up_words}" if info is not None and model.auto_top_up_words else ""))
        status.set_class(away and not model.error, "-away")
        bar = self.query_one(ActionBar)
        bar.watching = info is None  # watching: no buttons to act with, only the turn clock
        bar.my_stack = info.stack if info is not None else 0
        bar.pot_limit = model.structure == "pot_limit"
        bar.preflop = model.uses_blinds and model.hand_running and model.street == "preflop"
        bar.facing = model.facing()
        bar.round_bet = model.current_bet() if model.hand_running else 0
        bar.pot = model.pot_total
        bar.my_bet = model.seats[mine].bet if mine is not None and mine in model.seats else 0
        bar.big_blind = max(1, model.big_blind)
        bar.set_presets(self.bet_presets)
        my_cards = model.seats[mine].cards if mine is not None and mine in model.seats else []
        if bar.my_cards != my_cards:
            bar.my_cards = list(my_cards)
        betting_round = (model.hand_id, model.street, model.hand_running)
        if betting_round != self._betting_round:  # a pre-action is for the round it was ticked in, never later
            self._betting_round = betting_round
            bar.clear_pre_actions()
        bar.can_pre_act = mine is not None and mine in model.seats and model.seats[mine].in_hand \
            and not model.seats[mine].folded and not model.seats[mine].all_in and model.hand_running \
            and not model.hand_over
        if bar.legal != model.legal:
            bar.legal = model.legal
        if model.to_act is not None and model.hand_running:
            acting = model.seats.get(model.to_act)
            who = "your turn" if model.to_act == mine else acting.name if acting is not None else "?"
            bar.set_clock(model.turn_seconds, model.turn_started, model.bank_of(model.to_act), f"{who[:12]} ")
        else:
            bar.set_clock(0.0, 0.0, None, "")
        self.query_one(HandLog).four_colour = self.four_colour
        self.query_one(HandLog).model = model
        self.query_one(ChatPanel).model = model
        if info is not None:
            self.query_one("#sit-out", Button).label = "I'm back (O)" if away else "Sit out (O)"
            self.query_one("#wait-bb", Button).label = f"Wait BB: {'on' if info.wait_for_big_blind else 'off'} (B)"
        cash = model.kind != "tournament"  # a tournament seat: no buy-in, top-up or big blind to wait for
        for button_id in ("sit-out", "wait-bb", "top-up", "auto-top-up"):
            self.query_one(f"#{button_id}", Button).set_class(info is None, "-hidden")
        self.query_one("#wait-bb", Button).set_class(info is None or not model.big_blind_to_wait_for, "-hidden")
        for button_id in ("top-up", "auto-top-up"):
            self.query_one(f"#{button_id}", Button).set_class(info is None or not cash, "-hidden")
        self.query_one("#sit-down", Button).set_class(info is not None or not model.free_seats or not cash,
                                                      "-hidden")
        self.query_one("#leave", Button).label = "Leave (X)" if info is not None else "Close (X)"
        keys = (info is not None, away, bar.top_label(), bool(model.free_seats), model.big_blind_to_wait_for, cash,
                tuple(play_keys(model, bar.top_label()).values()))
        if keys != self._keys:  # the key bar's words follow (I'm back, Max/Pot/All-in, Sit down, Close)
            self._keys = keys
            self.app.refresh_bindings()

    @staticmethod
    def _away_words(info: Any, warned: bool = False) -> str:
        if info is None:
            return ""
        if warned and (info.away or info.sitting_out):  # the seat is given up within a minute (tui.model)
            return "Your seat is given up within a minute and your chips go back. Press O — I'm back to keep it."
        if info.away:
            return "You are away: each of your turns is checked or folded at once. Press O — I'm back."
        if info.sitting_out:
            return "You are sitting out: no hands are dealt to you. Press O — I'm back."
        return ""

    def key_state(self, name: str) -> bool | None:
        """Whether the table key ``name`` is shown now (None: shown greyed); the app's check_action asks."""
        model = self.model
        info = self._my_info()
        seated = info is not None
        back = seated and bool(info.away or info.sitting_out)
        top = self._action_bar.top_label() if self._action_bar is not None else "all-in"
        cash = model is None or model.kind != "tournament"  # tournament seats come from the director
        shown = {"back": back, "sit_out": seated and not back, "leave": seated, "close": not seated,
                 "sit_down": not seated and model is not None and model.free_seats > 0 and cash,
                 "wait_big_blind": seated and (model is None or model.big_blind_to_wait_for),
                 "top_up": seated and cash, "auto_top_up": seated and cash,
                 "pick_game": model is not None and model.mixed.get("chooser") == model.me}
        if model is not None:
            shown.update(play_keys(model, top))
        return shown.get(name, True)

    def on_mount(self) -> None:
        self.call_after_refresh(self.watch_model, self.model)

    def on_mouse_down(self) -> None:
        """A click in this tile: this is the current table now, for the keys and the highlight. (Only the
        player's click: focus that Textual moves by itself, e.g. when a pane is hidden, changes nothing.)"""
        choose = getattr(self.app, "choose_table", None)
        if choose is not None:
            choose(self.table_id)

    # --- requests up ---------------------------------------------------------------------------------

    def _request(self, message_type: str, **fields: Any) -> None:
        self.post_message(self.Request(self, message_type, **fields))

    @on(ActionBar.Act)
    def _act(self, event: ActionBar.Act) -> None:
        event.stop()
        model = self.model
        if model is None or model.legal is None:
            return
        fields: dict[str, Any] = {"hand": model.legal_hand, "kind": event.kind}
        if event.amount is not None:
            fields["amount"] = event.amount
        if event.discard is not None:
            fields["discard"] = event.discard
        self._request("action", **fields)
        focused = self.app.focused
        if focused is None or self in focused.ancestors_with_self:
            # the pressed button is about to be disabled: keep the table hotkeys live — but only when the
            # keyboard is here already (a pre-action firing at a hidden table must not take it away)
            self.focus()

    @on(ChatPanel.Say)
    def _say(self, event: ChatPanel.Say) -> None:
        event.stop()
        self._request("chat", text=event.text)
        if self._opened_log_for_chat:  # a compact screen showed the log for typing: the table comes back
            self.screen.remove_class("-show-log")
            self._opened_log_for_chat = False
        self.focus()  # sent: the keys are the table's again (C must not type "c" into the chat)

    @on(Button.Pressed, "#controls Button")
    def _control(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"sit-out": self.action_sit_out, "wait-bb": self.action_wait_big_blind,
                   "top-up": self.action_top_up, "auto-top-up": self.action_auto_top_up, "leave": self.action_leave,
                   "sit-down": self.action_sit_down}
        actions[event.button.id or ""]()

    # --- hotkeys (also the command palette's targets) ------------------------------------------------

    @property
    def bar(self) -> ActionBar:
        if self._action_bar is None:  # not composed yet: fails as the query did
            return self.query_one(ActionBar)
        return self._action_bar

    def action_fold(self) -> None:
        self._come_back()
        self.bar.fold()

    def action_check_call(self) -> None:
        self._come_back()
        self.bar.check_or_call()

    def action_raise(self) -> None:
        self._come_back()
        self.bar.raise_typed()

    def action_all_in(self) -> None:
        self._come_back()
        self.bar.all_in()

    action_max_pot = action_max_raise = action_all_in

    def _come_back(self) -> None:
        """A table key pressed while Away (timed out): the player is here, so he is back (else his next
        decision would be folded at once). Sitting out by choice is left alone: he may still play out a hand."""
        info = self._my_info()
        if info is not None and info.away:
            self._request("sit_out", on=False)

    def action_preset(self, number: int) -> None:
        """Keys 1-9: a bet size of the player's (tui.presets) in the amount box; in a draw, 1-5 choose cards."""
        if self.bar.drawing:
            if number <= MAX_DRAW_CARDS:
                self.bar.toggle_discard(number - 1)
            return
        self.bar.apply_preset(number)

    def action_draw(self) -> None:
        self.bar.draw()

    def action_split(self) -> None:
        self.bar.split()

    def action_run_twice(self) -> None:
        self.bar.run_twice(True)

    def action_run_once(self) -> None:
        self.bar.run_twice(False)

    def action_rabbit_hunt(self) -> None:
        """R-HOME-2: ask to see the cards that would have come (the room shows them to the table)."""
        if self.model is not None and self.model.rabbit_available:
            self._request("rabbit_hunt")

    def action_amount(self) -> None:
        self.bar.focus_amount()

    def action_show(self) -> None:
        """Show at showdown when asked; after winning without a showdown, show the whole hand."""
        if self.model is not None and self.model.legal and self.model.legal.get("can_show"):
            self.bar.post_message(ActionBar.Act("show"))
        elif self.model is not None and self.model.can_show_after_win:
            self._request("show_cards", cards=self.model.after_win_cards)

    def action_show_card(self, index: int) -> None:
        """After winning without a showdown: show one card (``index`` among mine of that hand)."""
        cards = self.model.after_win_cards if self.model is not None else []
        if index < len(cards):
            self._request("show_cards", cards=[cards[index]])

    def action_muck(self) -> None:
        if self.model is not None and self.model.legal and self.model.legal.get("can_muck"):
            self.bar.post_message(ActionBar.Act("muck"))

    def _my_info(self) -> Any:
        model = self.model
        if model is None or model.my_seat is None:
            return None
        return model.seats.get(model.my_seat)

    def action_sit_out(self) -> None:
        """O: sit out; away or sitting out already, O is "I'm back" (one press, never a second)."""
        info = self._my_info()
        if info is not None:
            self._request("sit_out", on=not (info.sitting_out or info.away))

    action_back = action_sit_out

    def action_sit_down(self) -> None:
        """Watching a table with a free seat: buy in and sit down here (as J in the lobby)."""
        if self._my_info() is None:
            self.post_message(self.SitWanted(self))

    def action_close(self) -> None:
        self._request("leave")  # watching: the app closes the tab

    def action_wait_big_blind(self) -> None:
        info = self._my_info()
        if info is not None:
            self._request("wait_for_big_blind", on=not info.wait_for_big_blind)

    def action_auto_muck(self) -> None:
        """Auto-muck on or off: at showdown, hands of mine that cannot win are mucked without asking me."""
        if self.model is not None and self.model.seated:
            self._request("auto_muck", on=not self.model.auto_muck)

    def action_notes(self) -> None:
        self.post_message(self.NotesWanted(self))

    def action_pick_game(self) -> None:
        """Dealer's choice (R-MIX-2): when it is my pick, the table's games to choose from."""
        model = self.model
        if model is None or model.mixed.get("chooser") != model.me:
            return
        games = [str(game) for game in model.mixed.get("games", [])]

        def picked(number: int | None) -> None:
            if number is not None:
                self._request("choose_game", game=str(number))

        self.app.push_screen(GameScreen(games, str(model.mixed.get("game", ""))), picked)

    def action_top_up(self) -> None:
        self.post_message(self.TopUpWanted(self))

    def action_auto_top_up(self) -> None:
        opener = getattr(self.app, "set_auto_top_up", None)  # at once: the keys typed next go into the window
        if opener is not None:
            opener(self.table_id)

    def action_focus_table(self) -> None:
        self.focus()

    def action_leave(self) -> None:
        self._request("leave")

    def action_chat(self) -> None:
        """Type at the table's chat (on a compact screen the log and chat come up first)."""
        if self.screen.has_class("-compact") and not self.screen.has_class("-show-log"):
            self.screen.add_class("-show-log")
            self._opened_log_for_chat = True
        self.query_one("#chat-input").focus()

    def action_pre_action(self, box: str) -> None:
        """Tick or untick a pre-action box (``check-fold``, ``call-any``, ``fold``) for when the turn comes."""
        self.bar.toggle_pre_action(box)

