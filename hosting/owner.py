"""The two small interfaces of a table runner (DESIGN.md "Second wave": owners, not special cases).

* :class:`TableOwner` — whoever owns the table (:class:`hosting.cash.CashTables` for cash tables; a tournament's
  director, a fast-fold pool next) decides when a hand may start, keeps each hand's start and result, and
  decides where chips go when they leave the table. The runner never reaches the store or the room's tables.
* :class:`Mailroom` — the room as the runner sees it: its id and clock, the players and watchers to send to,
  and the owner of a table. The runner never reads the room's sessions.

Neither imports the room or the runner: the room implements :class:`Mailroom`, owners implement
:class:`TableOwner`, and the runner (:mod:`hosting.table_runner`) uses both.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from engine.events import Event
from engine.fairness import Transcript
from engine.table_events import ChipsReturned
from hosting.tables import TableState, log_seats


class Listener(Protocol):
    """One connection hearing a table: its player's name and a way to send to it."""

    name: str

    def send(self, message: Mapping[str, Any]) -> None: ...


class TableOwner(Protocol):
    """What a table runner asks and tells its table's owner. ``kind`` names the owner in the lobby."""

    kind: str

    def adopt(self, table: TableState) -> None:
        """``table`` is the owner's from now on (the room added it)."""
        ...

    def release(self, table: TableState) -> None:
        """``table`` left the room (its players stood up, their chips released)."""
        ...

    def between_hands(self, table: TableState) -> None:
        """The runner is between hands at ``table`` (before it asks :meth:`may_start_hand`): what waited for the
        hand's end happens now (a level up, a move, the host's changes)."""
        ...

    def may_start_hand(self, table: TableState) -> bool:
        """Whether the next hand may be dealt now (False: paused, a break, a pool still filling …); asked before
        the shuffle and again just before the deal. The runner asks again when woken."""
        ...

    def hand_started(self, table: TableState, hand_id: str, events: Sequence[Event]) -> None:
        """Hand ``hand_id`` was just dealt (``events``: what ``Table.start_hand`` returned)."""
        ...

    def hand_finished(self, table: TableState, hand_id: str, events: Sequence[Event],
                      transcript: Transcript | Mapping[str, Any]) -> Awaitable[Any] | None:
        """Hand ``hand_id`` ended (``events``: its whole log) and its events went out; what it returns is
        awaited before the hand's seeds are published (the result is kept before the next hand)."""
        ...

    def chips_released(self, table: TableState, player: str, amount: int) -> None:
        """``amount`` chips of ``player`` left the table (he left, his seat was freed): the owner sends them
        where they belong (a cash table: his balance). Called after :meth:`hand_finished` of the hand that
        freed them."""
        ...


    def commitment_ahead(self, table: TableState, player: str) -> tuple[tuple[str, str], bytes] | None:
        """``player`` is about to be dealt in at ``table``: the commitment he made ahead for it, with the
        ``(pool, ticket)`` it is bound to (a fast-fold pool, R-FAST-1), or None to ask him as usual."""
        ...

    def events_published(self, table: TableState, events: Sequence[Event]) -> None:
        """``events`` of ``table`` just went out to its audience (a pool follows its players' folds)."""
        ...

    def shuffle_missed(self, table: TableState, player: str) -> None:
        """``player`` missed his commit or reveal deadline at ``table`` and is sat out there (a tournament's
        table deals him in instead and never asks): a pool takes him out of its line until he sits in himself."""
        ...


class Mailroom(Protocol):
    """The room as a table runner sees it."""

    room_id: str

    def clock(self) -> float: ...

    def send_to(self, name: str, message: Mapping[str, Any]) -> None:
        """``message`` to ``name``'s connection, if he is connected."""
        ...

    def connected(self, name: str) -> bool: ...

    def audience(self, table: TableState) -> Iterable[Listener]:
        """Everyone hearing ``table`` (its players and watchers), once each."""
        ...

    def broadcast_table(self, table: TableState) -> None:
        """The ``table`` message (seats, stacks, waiting list) to ``table``'s audience."""
        ...

    def owner_of(self, table: TableState) -> TableOwner: ...

    def hand_finished(self, table: str, hand: str, dealt_in: Iterable[str]) -> None:
        """Hand ``hand`` at ``table`` is over and its proof sent: its players' verdicts are welcome."""
        ...

    def shuffle_asked(self, table: str, hand: str, players: Iterable[str]) -> None:
        """The shuffle of ``hand`` at ``table`` has asked ``players`` for their commitments: their answers that
        come too late are a slow link's (hosting.late_answers)."""
        ...


def release_chips(owner: TableOwner, table: TableState, events: Iterable[Event]) -> None:
    """Each stack a batch of table events gave back (:class:`ChipsReturned`: he left, his seat was freed) to
    ``owner``, and every seat change of the table to the host's log."""
    events = list(events)
    log_seats(table.id, events)
    for event in events:
        if isinstance(event, ChipsReturned):
            owner.chips_released(table, event.player, event.amount)
