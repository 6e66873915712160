"""The room's mixed tables (R-MIX-1..4, docs/rules-home.md): which game each deals next, and the picks.

The cash tables' owner (:class:`hosting.cash.CashTables`) asks here between hands. When the game being dealt has
dealt its hands (:func:`engine.mixed.due`), the next one comes in turn, or (dealer's choice) the player on the
button of the next hand picks it within ``choice_seconds`` (his time out: the next in turn), or the host picks it
(``croupier admin game``), at any time, for the next hand. Every change is announced at the table: the typed
``GameChanged`` event (its log line and its game), a notice, and the table message's ``mixed`` field (the header's
current and next game). Each hand keeps its own commit–reveal deal: the deck is the new game's, and the
transcript names it, so every client verifies every hand across a change (R-FAIR-1).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.events import Event
from engine.mixed import Choice, RotationState, due, hand_dealt, next_in_turn, switch_to
from engine.table import TableConfig as EngineTableConfig
from hosting import protocol
from hosting.config import TableConfig
from hosting.engine_tables import build_engine_table
from hosting.errors import RoomError
from hosting.mixed_config import MixedConfig, home_for
from hosting.owner import Mailroom
from hosting.tables import TableState

log = logging.getLogger("croupier.room")

Publish = Callable[[TableState, list[Event]], None]


def game_config(config: TableConfig, mixed: MixedConfig, index: int) -> TableConfig:
    """The room-file settings of ``mixed``'s game ``index`` at the table ``config``: its game, structure, stakes,
    the straddle in blind games and the home-game options that suit it (R-MIX-4)."""
    game = mixed.games[index]
    return replace(config, game=game.game, structure=game.structure, small_blind=game.small_blind,
                   big_blind=game.big_blind, ante=game.ante, bring_in=game.bring_in,
                   straddle=mixed.straddle and not game.stud, home=home_for(config.home, game.game))


@dataclass
class MixedTable:
    """One mixed table: its games' settings (room file and engine), where it is in the rotation, and a pick
    under way (dealer's choice: who picks, until when) or made ahead (the host's, for the next hand)."""

    mixed: MixedConfig
    configs: tuple[TableConfig, ...]
    engines: tuple[EngineTableConfig, ...]
    state: RotationState
    chooser: str | None = None
    deadline: float = 0.0
    picked: int | None = None

    def summary(self) -> dict[str, Any]:
        """The table message's and lobby row's ``mixed`` field (PROTOCOL.md): the mix, the game being dealt,
        the next (``None`` while a player or the host picks it), hands left, and a pick under way."""
        games = self.mixed.games
        current = games[self.state.game]
        upcoming = self.upcoming()
        body: dict[str, Any] = {
            "name": self.mixed.name, "game": current.name, "number": self.state.game + 1,
            "games": [game.name for game in games], "choice": self.mixed.choice,
            "next": games[upcoming].name if upcoming is not None else None,
            "hands_left": self.state.hands_left if self.mixed.choice != Choice.HOST.value else None,
        }
        if self.chooser is not None:
            body["chooser"] = self.chooser
            body["deadline_seconds"] = self.mixed.choice_seconds
        return body

    def upcoming(self) -> int | None:
        """The game after this one, when it is known: the host's pick, or the next in turn (not while a player
        or the host is to choose it)."""
        if self.picked is not None:
            return self.picked
        if self.mixed.choice == Choice.ROTATION.value:
            return next_in_turn(self.mixed.rotation, self.state)
        return None


class MixedTables:
    """The mixed tables of one room's cash tables: ``mailroom`` to tell the table, ``publish`` to send events
    and wake its runner."""

    def __init__(self, mailroom: Mailroom, publish: Publish) -> None:
        self.mailroom = mailroom
        self.publish = publish
        self.tables: dict[str, MixedTable] = {}

    def adopt(self, table: TableState) -> None:
        """``table`` is a mixed table (its config has ``mixed``): every game's settings built now, so a game the
        engine refuses stops the room at its start (``bad_config``), never in the middle of a night."""
        mixed = table.config.mixed
        if mixed is None:
            return
        configs = tuple(game_config(table.config, mixed, index) for index in range(len(mixed.games)))
        engines = tuple(build_engine_table(config).config for config in configs)
        if any(engine.seat_count != engines[0].seat_count for engine in engines):
            raise RoomError("bad_config", f"table {table.id}: its games do not fit the same seats")
        self.tables[table.id] = MixedTable(mixed, configs, engines, RotationState())
        table.config = configs[0]
        table.mixed = self.tables[table.id].summary

    def release(self, table: TableState) -> None:
        self.tables.pop(table.id, None)

    def choosing(self, table: TableState) -> bool:
        """Whether the next hand waits for a pick (dealer's choice under way)."""
        mixed = self.tables.get(table.id)
        return mixed is not None and mixed.chooser is not None

    def hand_started(self, table: TableState) -> None:
        """A hand of the current game was dealt: counted (its first fixes an orbit's length, R-MIX-1)."""
        mixed = self.tables.get(table.id)
        plan = table.engine.last_plan
        if mixed is None or plan is None:
            return
        mixed.state = hand_dealt(mixed.mixed.rotation, mixed.state, players=len(plan.dealt_in))

    def between_hands(self, table: TableState) -> None:
        """Before the next hand: the host's pick, or when the game is over the next in turn or the button's pick
        (asked, or its time out: the next in turn)."""
        mixed = self.tables.get(table.id)
        if mixed is None or table.engine.hand_running:
            return
        if mixed.picked is not None:
            self._switch(table, mixed, mixed.picked, "the host's pick")
            return
        if not due(mixed.state) or mixed.mixed.choice == Choice.HOST.value:
            return
        if mixed.mixed.choice == Choice.ROTATION.value:
            self._switch(table, mixed, next_in_turn(mixed.mixed.rotation, mixed.state), "in turn")
            return
        now = self.mailroom.clock()
        if mixed.chooser is None:
            self._ask_button(table, mixed, now)
        elif now >= mixed.deadline or table.engine.seat_of(mixed.chooser) is None:
            game = next_in_turn(mixed.mixed.rotation, mixed.state)
            self._switch(table, mixed, game, f"{mixed.chooser} did not pick in time: the next in turn")

    def pick(self, table: TableState, wanted: str, by: str, *, host: bool) -> str:
        """``by`` picks the next game at ``table`` (``wanted``: its number, id or name). The player on the button
        only while he is asked; the host at any time, for the next hand. Returns the game's name; :class:`RoomError`
        when the table is not mixed, the game unknown or the picker not the one asked."""
        mixed = self.tables.get(table.id)
        if mixed is None:
            raise RoomError("not_mixed", f"{table.id} deals one game: it has no games to pick from")
        index = mixed.mixed.find(wanted)
        if index is None:
            names = ", ".join(f"{number} {game.name}" for number, game in enumerate(mixed.mixed.games, 1))
            raise RoomError("no_such_game", f"{table.id} has no game {wanted[:40]!r}; its games: {names}")
        if not host and by != mixed.chooser:
            raise RoomError("not_your_pick", "it is not your pick: the player on the button picks the game when "
                                             "the one being dealt is over")
        mixed.picked = index
        if not table.engine.hand_running:
            self.between_hands(table)  # at once; the runner, woken, deals it
        else:
            self.mailroom.broadcast_table(table)  # the header shows the pick as the next game
        return mixed.mixed.games[index].name

    def _ask_button(self, table: TableState, mixed: MixedTable, now: float) -> None:
        plan = table.engine.plan_next_hand()
        if plan is None:
            return  # nobody to deal to yet: asked when a hand can start
        mixed.chooser = table.engine.players[plan.button_seat].player
        mixed.deadline = now + mixed.mixed.choice_seconds
        self._notice(table, f"Dealer's choice: {mixed.chooser} (on the button) picks the next game "
                            f"({round(mixed.mixed.choice_seconds)} s).")
        self.mailroom.broadcast_table(table)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no runner to wake (a test driving the owner by hand)
        loop.call_later(mixed.mixed.choice_seconds, self.publish, table, [])  # wakes the runner at the deadline

    def _switch(self, table: TableState, mixed: MixedTable, game: int, why: str) -> None:
        events = table.engine.change_game(mixed.engines[game])
        table.config = mixed.configs[game]
        mixed.state = switch_to(mixed.mixed.rotation, game)
        mixed.chooser, mixed.picked = None, None
        chosen = mixed.mixed.games[game]
        upcoming = mixed.upcoming()
        length = mixed.mixed.every or "an orbit of"
        later = f" Next: {mixed.mixed.games[upcoming].name}." if upcoming is not None else ""
        text = (f"From hand {table.engine.hand_number + 1}: {chosen.name} ({chosen.stakes_words()})"
                + (f" for {length} hands." if mixed.mixed.choice != Choice.HOST.value else ".") + later)
        log.info("mixed table %s: %s (%s)", table.id, chosen.name, why)
        self.publish(table, events)
        self._notice(table, text)
        self.mailroom.broadcast_table(table)

    def _notice(self, table: TableState, text: str) -> None:
        message = protocol.message("notice", table=table.id, text=text)
        for listener in self.mailroom.audience(table):
            listener.send(message)
