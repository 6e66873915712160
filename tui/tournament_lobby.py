"""Tournaments in the app (issue 18): the lobby's tournament list and what is asked from it (register with a
password when private, unregister), the tournament screen (I), and playing — the player's table opens by itself
at the start and follows him when he is moved (a notice says where and why), the level and the time to the next
(or a break's countdown) on the table's title, a rebuy / add-on window when allowed, a deal window for every
player at the final table, and each director event said in words (elimination with place and prize, hand-for-hand,
the final table, the deal done). What the room said is kept in :class:`tui.tournament_book.TournamentBook`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from textual import on

from engine.table_events import LevelChanged
from engine.text import counted
from tui.keys import Command
from tui.lobby_screen import LobbyScreen
from tui.model import TableModel, level_words
from tui.tournament_book import (
    DEAL_NAMES,
    TournamentBook,
    buy_in_text,
    clock_text,
    event_words,
    read_event,
    split_table_id,
)
from tui.tournament_screens import PasswordScreen, QuestionScreen, TournamentScreen
from tui.widgets.lobby import Lobby

TOURNAMENT_MESSAGES = frozenset({"tournament", "tournament_event", "table_closed"})
TABLE_NOTES = frozenset({"break_started", "break_ended", "hand_for_hand", "final_table",
                         "eliminated", "deal_proposed", "deal_accepted", "deal_declined", "completed"})
"""Events also written in the log of the tournament's tables."""
ASK_STATE_AFTER = frozenset({"tournament_started", "break_started", "break_ended", "player_seated_at",
                             "player_moved", "final_table", "eliminated", "rebought", "added_on", "completed"})
"""Events after which the screen's numbers (clock, players, payouts) are asked again."""


class TournamentLobby(LobbyScreen):
    """The tournament part of the app."""

    clock: Callable[[], float]

    @property
    def tournaments(self) -> TournamentBook:
        return self.session.tournaments

    def start_tournament_clock(self) -> None:
        """Tournament tables' clock lines count down each second (called once the app is mounted)."""
        self.set_interval(1.0, self._tick_tournament_tables)

    # --- requests ---------------------------------------------------------------------------------------

    def ask_tournament(self, tournament: str) -> None:
        self.run_worker(self.send("tournament", action="state", tournament=tournament), group="send")

    def tournament_request(self, tournament: str, action: str, **fields: Any) -> None:
        self.run_worker(self.send("tournament", action=action, tournament=tournament, **fields), group="send")

    @on(Lobby.TournamentChosen)
    def _tournament_chosen(self, event: Lobby.TournamentChosen) -> None:
        if event.action == "register":
            self.register(event.tournament)
        elif event.action == "unregister":
            self.tournament_request(event.tournament, "unregister")

    def register(self, tournament: str) -> None:
        """Register (a private tournament asks its password first); the room's state then says whether a ticket
        of mine could pay (:meth:`_pay_and_register`)."""
        row = self.tournaments.rows.get(tournament, {})
        if not row.get("private"):
            self._before_paying(tournament, None)
            return

        def typed(password: str | None) -> None:
            if password:
                self._before_paying(tournament, password)

        self.push_screen(PasswordScreen(self.tournaments.name(tournament)), typed)

    def _before_paying(self, tournament: str, password: str | None) -> None:
        self.tournaments.registering[tournament] = password
        self.ask_tournament(tournament)

    def _pay_and_register(self, tournament: str, available: dict[str, Any]) -> None:
        """A registration asked: with a ticket that pays it, the player chooses by key — the ticket (T) or the
        balance (B); Esc registers nothing. Without one, the entry is paid from the balance."""
        password = self.tournaments.registering.pop(tournament)
        fields: dict[str, Any] = {} if password is None else {"password": password}
        if not available.get("ticket"):
            self.tournament_request(tournament, "register", pay="balance", **fields)
            return

        def chosen(ticket: bool | None) -> None:
            if ticket is not None:
                self.tournament_request(tournament, "register", pay="ticket" if ticket else "balance", **fields)

        price = buy_in_text(self.tournaments.states.get(tournament) or {})
        self.push_screen(QuestionScreen(f"{self.tournaments.name(tournament)} — Register", [
            f"You hold a ticket for this tournament. Pay the entry ({price}) with it, or from your balance?",
            "Esc: do not register."], ("t", "Use my ticket"), ("b", "Pay from my balance"), "pay"), chosen)

    def current_tournament(self) -> str | None:
        """The tournament of the table shown, else the one highlighted in the lobby, else the one I play."""
        table = self.current_table
        parts = split_table_id(table) if table is not None else None
        if parts is not None and parts[0] in self.tournaments.rows | self.tournaments.states:
            return parts[0]
        if table is None:
            highlighted = self.query_one(Lobby).highlighted_tournament()
            if highlighted is not None:
                return highlighted
        return next(iter(sorted(self.tournaments.playing)), None)

    def action_tournament(self) -> None:
        tournament = self.current_tournament()
        if tournament is None:
            self.notify("No tournament here: highlight one in the lobby.", severity="warning", timeout=3)
            return
        if not any(isinstance(screen, TournamentScreen) for screen in self.screen_stack):
            self.push_screen(TournamentScreen(tournament))

    def tournament_command(self, command: Command) -> None:
        """A tournament screen command from the palette: for the tournament of the screen, or the current one."""
        screen = self.screen
        if isinstance(screen, TournamentScreen):
            getattr(screen, f"action_{command.action}")(*command.arguments)
            return
        tournament = self.current_tournament()
        if tournament is None:
            self.notify("No tournament here: highlight one in the lobby.", severity="warning", timeout=3)
        elif command.action == "request":
            action, *deal = [str(argument) for argument in command.arguments]
            self.tournament_request(tournament, action, **({"deal": deal[0]} if deal else {}))

    def tournament_refused(self, message: dict[str, Any]) -> bool:
        """A tournament request the room takes only between hands: kept and sent again when my table's hand
        ends (True: said so; the other refusals are the app's to show)."""
        if message.get("in_reply_to") == "unwatch" and \
                (message.get("table") or self.session.last_table) in self.tournaments.left:
            return True  # a table I was moved from, broken since: nothing to stop watching
        if message.get("in_reply_to") != "tournament" or "between hands" not in str(message.get("message")):
            return False
        asked = next((sent for sent in reversed(self.sent) if sent.get("type") == "tournament"
                      and sent.get("action") not in ("state", None)), None)
        if asked is None:
            return False
        fields = {key: value for key, value in asked.items() if key != "type"}
        self.tournaments.queued[str(asked.get("tournament"))] = fields
        self.notify(f"{str(asked.get('action')).replace('_', ' ').capitalize()}: sent when this hand ends.",
                    title=self.tournaments.name(str(asked.get("tournament"))), timeout=5)
        return True

    def tournament_table_changed(self, model: TableModel, message: Mapping[str, Any]) -> None:
        """After ``message`` about ``model``'s table: its level change sets the tournament's clock (the one
        message of a level: the table's ``LevelChanged``); a queued request goes once its hand is over."""
        # the room's table message says whose table it is: a pool's ``zoom.2`` looks like a tournament's ``sng.2``
        parts = split_table_id(model.table_id) if model.kind == "tournament" else None
        if parts is None:
            return
        event = message.get("event") if message.get("type") == "event" else None
        if isinstance(event, LevelChanged) and event.level:
            self.tournaments.level_changed(parts[0], event, self.clock())
            self.notify(f"{self.tournaments.name(parts[0])}: level {event.level} — {level_words(event)} from the "
                        "next hand.", title=self.tournaments.name(parts[0]), timeout=10)
            self._tick_tournament_tables()
        if model.hand_running:
            return
        if model.revision and model.hand_id != self.tournaments.hand_asked.get(parts[0]):
            self.tournaments.hand_asked[parts[0]] = model.hand_id  # a hand ended: my stack, rebuy, add-on anew
            self.ask_tournament(parts[0])
        if parts[0] not in self.tournaments.queued:
            return
        fields = self.tournaments.queued.pop(parts[0])
        self.run_worker(self.send("tournament", **fields), group="send")

    # --- messages from the room -------------------------------------------------------------------------

    def tournament_rows(self, rows: Any) -> None:
        """The lobby's ``tournaments`` (absent: a room without any; the room pushes them as they change). A
        tournament screen open on one whose row changed (or left the list: it ended) asks for its state anew."""
        listed = [dict(row) for row in rows or [] if isinstance(row, dict)]
        before = dict(self.tournaments.rows)
        self.tournaments.set_rows(listed)
        self.query_one(Lobby).tournaments = listed
        shown = {screen.tournament for screen in self.screen_stack if isinstance(screen, TournamentScreen)}
        for tournament in shown:
            if before.get(tournament) != self.tournaments.rows.get(tournament):
                self.ask_tournament(tournament)

    def tournament_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table_closed":
            self._table_closed(str(message.get("table")))
        elif kind == "tournament":
            self._tournament_state(message)
        elif kind == "tournament_event":
            self._tournament_event(str(message.get("tournament")), read_event(message.get("event")))

    def tournament_ack(self, message: dict[str, Any]) -> None:
        tournament = str(message.get("tournament", ""))
        name = self.tournaments.name(tournament)
        action = message.get("action")
        if action == "register":
            paid = " with your ticket" if message.get("paid") == "ticket" else ""
            self.notify(f"Registered in {name}{paid}: {counted(message.get('registered'), 'player')} so far.",
                        title="tournament")
        elif action == "unregister":
            back = "your ticket is back" if message.get("refunded") == "ticket" else "the entry is refunded"
            self.notify(f"Unregistered from {name}: {back}.", title="tournament")
        elif action in ("rebuy", "add_on") and message.get("after_hand"):
            self.notify(f"{name}: {'rebuy' if action == 'rebuy' else 'add-on'} asked — the chips come when your "
                        "hand ends.", title="tournament")
        elif action in ("rebuy", "add_on"):
            self.notify(f"{name}: {'rebuy' if action == 'rebuy' else 'add-on'} done — your stack is "
                        f"{message.get('stack')}.", title="tournament")
        if action in ("register", "unregister"):
            self.run_worker(self.send("lobby"), group="send")
        if action != "state":
            self.ask_tournament(tournament)

    def _tournament_state(self, state: dict[str, Any]) -> None:
        tournament = str(state.get("id"))
        book = self.tournaments
        book.set_state(state, self.clock())
        for screen in self.screen_stack:
            if isinstance(screen, TournamentScreen) and screen.tournament == tournament:
                screen.redraw()
        available = state.get("available") or {}
        if tournament in book.registering:
            self._pay_and_register(tournament, available)
        allowed = book.rebuy_allowed.get(tournament, False)
        book.rebuy_allowed[tournament] = bool(available.get("rebuy"))
        if available.get("rebuy") and not allowed and tournament in book.playing:  # just allowed: offered once
            self._ask("rebuy", tournament, "Rebuy", [f"{book.name(tournament)}: a rebuy is open to you now."],
                      ("r", "Rebuy"), ("n", "Not now"))
        if available.get("add_on") and tournament in book.playing:
            self._ask("add_on", tournament, "Add-on", [f"{book.name(tournament)}: the add-on is open."],
                      ("a", "Take the add-on"), ("n", "No thanks"))
        self._tick_tournament_tables()

    def _tournament_event(self, tournament: str, event: dict[str, Any]) -> None:
        book = self.tournaments
        book.me = self.me
        book.event(tournament, event, self.clock())
        kind = event.get("kind")
        words = event_words(book, tournament, event)
        mine = event.get("player") == self.me
        if words is not None and (mine or kind not in ("eliminated",) or tournament in book.playing):
            self.notify(words, title=book.name(tournament), timeout=10,
                        severity="warning" if kind in ("eliminated", "rebuy_offered") and mine else "information")
        if words is not None and kind in TABLE_NOTES:
            for model in self._tables_of(tournament):
                model.note(words)
                self._push(model.table_id)
        if kind == "player_seated_at" and mine:
            self._follow(f"{tournament}.{event.get('table')}", None, words or "")
        elif kind == "player_moved" and mine:
            self._follow(f"{tournament}.{event.get('to_table')}", f"{tournament}.{event.get('from_table')}",
                         words or "")
        elif kind == "rebuy_offered" and mine:
            seconds = event.get("seconds")
            wait = [f"Your table waits {int(seconds)} s for your answer."] if isinstance(seconds, (int, float)) \
                else []
            self._ask("rebuy", tournament, "Rebuy", [words or "", "Rebuy now, or you are out.", *wait],
                      ("r", "Rebuy"), ("n", "No, I am out"))
        elif kind == "deal_proposed" and tournament in book.playing:
            shares = [(str(who), int(amount)) for who, amount in event.get("shares") or []]
            mine_share = next((amount for who, amount in shares if who == self.me), None)
            if mine_share is not None and event.get("proposer") != self.me:  # his own: accepted by proposing
                lines = [f"{event.get('proposer')} proposes a deal ({DEAL_NAMES.get(str(event.get('deal')), '')}):",
                         *(f"  {who}: {amount}" + ("  ← you" if who == self.me else "") for who, amount in shares),
                         f"You would get {mine_share} chips and the tournament ends when all accept."]
                self._ask("deal", tournament, "Deal", lines, ("y", "Accept"), ("n", "Decline"))
        if kind in ASK_STATE_AFTER:
            self.ask_tournament(tournament)

    def _ask(self, what: str, tournament: str, title: str, lines: list[str], yes: tuple[str, str],
             no: tuple[str, str]) -> None:
        """A question window for ``what`` (once at a time); the answer is the request."""
        if any(isinstance(screen, QuestionScreen) and screen.kind == what for screen in self.screen_stack):
            return
        chips_gone = what == "rebuy" and "Rebuy now, or you are out." in lines
        answers = {"rebuy": ("rebuy", "decline_rebuy" if chips_gone else None), "add_on": ("add_on", None),
                   "deal": ("accept_deal", "decline_deal")}[what]
        if what == "add_on":
            if tournament in self._add_on_asked:
                return
            self._add_on_asked.add(tournament)

        def answered(yes_said: bool | None) -> None:
            action = answers[0] if yes_said else answers[1]
            if action is not None:
                self.tournament_request(tournament, action)

        self.push_screen(QuestionScreen(f"{self.tournaments.name(tournament)} — {title}", lines, yes, no, what),
                         answered)

    @property
    def _add_on_asked(self) -> set[str]:
        asked: set[str] = self.__dict__.setdefault("_asked_add_on", set())
        return asked

    # --- the player's tables ----------------------------------------------------------------------------

    def _tables_of(self, tournament: str) -> list[TableModel]:
        return [model for table_id, model in self.models.items()
                if (split_table_id(table_id) or ("", 0))[0] == tournament]

    def _follow(self, table_id: str, left: str | None, words: str) -> None:
        """The player's seat is at ``table_id`` now (the start, or a move from ``left``): its tab opens and is
        shown, without a key; the table he left closes."""
        self.tournaments.left.discard(table_id)
        if left is not None and left != table_id:
            self.tournaments.left.add(left)
        if table_id not in self.models:
            self._open_table(table_id)
            self.run_worker(self.send("watch", table=table_id), group="send")
        model = self.models[table_id]
        if words:
            model.note(words)
        self.show_table(table_id)
        if left is not None and left != table_id and left in self.models:
            self.run_worker(self.send("unwatch", table=left), group="send")
            self.close_table(left)
            self.show_table(table_id)

    def _open_table(self, table_id: str) -> TableModel:
        model = super()._open_table(table_id)
        if split_table_id(table_id) is not None and not model.name:
            model.name = self.tournaments.table_name(table_id)
        return model

    def _table_closed(self, table_id: str) -> None:
        """The room took a table away (a tournament broke it): its tab closes unless the player still sits
        there (then its last messages are still coming)."""
        model = self.models.get(table_id)
        if model is None or model.seated:
            return
        self.close_table(table_id)

    def _tick_tournament_tables(self) -> None:
        """Each tournament table's clock line, counted down."""
        now = self.clock()
        for table_id, model in self.models.items():
            parts = split_table_id(table_id)
            clock = self.tournaments.clocks.get(parts[0]) if parts is not None else None
            line = clock_text(clock, now) if clock is not None and clock.level else ""
            if line != model.tournament_clock:
                model.tournament_clock = line
                self._push(table_id)
