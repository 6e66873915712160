"""One table of the room as the room, its runner and its owner share it: the engine's table, its watchers, its
recent hands (R-LOBBY-1) and what its owner shows in the lobby. Imports neither the room nor the runner."""

from __future__ import annotations

import dataclasses
import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.events import Event
from engine.seating import BlindChoice
from engine.table import Table
from engine.table_events import ChipsReturned, LeavingAfterHand, PlayerMovedIn, PlayerMovedOut, PlayerSeated, SeatFreed
from hosting.config import TableConfig

STATS_WINDOW_SECONDS = 3600.0
log = logging.getLogger("croupier.room")


@dataclass
class TableState:
    """One table: the engine's :class:`~engine.table.Table` (seats, hands), its watchers and its recent hands
    (for R-LOBBY-1 statistics). ``kind``: its owner's kind for the lobby row (``cash``, ``tournament``, ``pool``).
    ``closing``: the room is taking it away: no new hand starts."""

    config: TableConfig
    engine: Table
    watchers: set[str] = field(default_factory=set)
    recent_hands: deque[tuple[float, int]] = field(default_factory=deque)
    jackpot: Callable[[], dict[str, Any] | None] | None = None
    """The table's jackpot for its lobby row and table message (set by its owner, R-JACK-1; PROTOCOL.md)."""
    kind: str = "cash"
    closing: bool = False
    mixed: Callable[[], dict[str, Any]] | None = None
    """A mixed table's rotation for its lobby row and table message (R-MIX-1..4; hosting.mixed_tables)."""

    @property
    def id(self) -> str:
        return self.config.id

    def record_hand(self, now: float, pot: int) -> None:
        """A hand finished with ``pot`` chips in total (for the lobby's average pot and hands per hour)."""
        self.recent_hands.append((now, pot))

    def _prune(self, now: float) -> None:
        while self.recent_hands and self.recent_hands[0][0] < now - STATS_WINDOW_SECONDS:
            self.recent_hands.popleft()

    def summary(self, now: float) -> dict[str, Any]:
        """The lobby row (R-LOBBY-1). ``average_pot`` and ``hands_per_hour`` count the last hour; ``stakes`` are
        the blinds of the next hand (its owner may have changed the level)."""
        self._prune(now)
        config, stakes = self.config, self.engine.stakes
        hands = len(self.recent_hands)
        row = {
            "id": config.id, "name": config.name, "kind": self.kind, "game": config.game,
            "structure": config.structure, "stakes": [stakes.small_blind, stakes.big_blind],
            "buy_in": [config.min_buy_in, config.max_buy_in],
            "players": len(self.engine.players), "seats": config.seats,
            "average_pot": sum(pot for _, pot in self.recent_hands) // hands if hands else 0,
            "hands_per_hour": hands,
            "waiting": len(self.engine.waiting_list), "watchers": len(self.watchers),
            "clock": {"action_seconds": config.clock.get("action_seconds", 20.0),
                      "time_bank_seconds": config.clock.get("time_bank_seconds", 60.0)},
        }
        return self._with_mixed(self._with_jackpot(self._with_dealing(row)))

    def _with_dealing(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with ``dealing: "host-blind"`` at a host-blind table (absent: commit–reveal, as before)."""
        if self.config.host_blind:
            body["dealing"] = self.config.dealing
        return body

    def _with_mixed(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with the ``mixed`` field at a mixed table (absent otherwise)."""
        if self.mixed is not None:
            body["mixed"] = self.mixed()
        return body

    def _with_jackpot(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with the ``jackpot`` field when the table plays for one (absent otherwise)."""
        jackpot = self.jackpot() if self.jackpot is not None else None
        if jackpot is not None:
            body["jackpot"] = jackpot
        return body

    def snapshot(self) -> dict[str, Any]:
        """The ``table`` message body: seats with names, stacks and states, the waiting list, and the stakes of
        the next hand (a level up or the host's new blinds show at once)."""
        stakes = self.engine.stakes
        return self._with_mixed(self._with_jackpot(self._with_dealing({
            "table": self.config.id,
            "kind": self.kind,
            "game": self.config.game,
            "structure": self.config.structure,
            "stakes": [stakes.small_blind, stakes.big_blind],
            "seats": [
                {"seat": seat, "name": seated.player, "stack": seated.stack, "sitting_out": seated.sitting_out,
                 "away": seated.away, "wait_for_big_blind": seated.blind_choice is BlindChoice.WAIT_FOR_BIG_BLIND}
                for seat, seated in sorted(self.engine.players.items())
            ],
            "max_seats": self.config.seats,
            "waiting": list(self.engine.waiting_list.players),
            "hand_running": self.engine.hand_running,
            **self._home_options(),
        })))

    def _home_options(self) -> dict[str, Any]:
        """The table's home-game options that are on (R-HOME-1..4), for the clients' keys: absent when none."""
        home = self.config.home
        if not home.any_on:
            return {}
        return {"home": {key: value for key, value in dataclasses.asdict(home).items() if value}}


def log_seats(table_id: str, happened: Iterable[Event]) -> None:
    """Seats taken and freed at ``table_id``, with the chips that came back or moved, at info (host.log)."""
    events = list(happened)
    returned = {event.player: event.amount for event in events if isinstance(event, ChipsReturned)}
    for event in events:
        if isinstance(event, PlayerSeated):
            log.info("seated: %s at %s, seat %d, %d chips", event.player, table_id, event.seat + 1, event.buy_in)
        elif isinstance(event, SeatFreed):
            log.info("seat freed: %s at %s, seat %d (%s), %d chips back", event.player, table_id, event.seat + 1,
                     event.reason.replace("_", " "), returned.get(event.player, 0))
        elif isinstance(event, LeavingAfterHand):
            log.info("leaving after this hand: %s at %s", event.player, table_id)
        elif isinstance(event, PlayerMovedIn | PlayerMovedOut):
            log.info("%s: %s at %s, seat %d (%s), %d chips", "moved in" if isinstance(event, PlayerMovedIn)
                     else "moved out", event.player, table_id, event.seat + 1, event.reason, event.stack)
