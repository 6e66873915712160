"""Tournaments in the store (issue 18): money as ledger rows, the director's state as a snapshot.

Money (R-TOUR-2; DESIGN.md "Tournament chips are not money"): a tournament's entries, fees, bounties, prizes and
refunds move between a player's ``balance`` and three ledger locations named by the tournament's id
(``table_id``): ``tournament`` (its prize pool), ``fee`` (the house's) and ``bounty`` (its bounty fund); the house's
overlay, freeroll pool, Spin top-up or room-funded bounty comes from ``issue``. A ticket prize is a ``ticket``
row to its holder (``ticket_for``: the tournament it enters; ``table_id``: the satellite); an entry paid by it
moves ``ticket`` → pool, fees and bounty fund, and an unregister gives it back the same way.
Tournament chips never appear in the ledger: they are the director's, not the room's.

State (R-CRASH-1 for tournaments): after each step of its director what changed its state is written in the
same transaction as that step's ledger rows, so a restart finds the money and the state of one moment — a prize
is paid exactly once. What is written is either a snapshot of the director (``tournaments.state``; the step rows
it contains are removed) or the step's calls (a ``tournament_steps`` row: :mod:`engine.tournament.journal`); the
state is the snapshot with the rows after it replayed in order (:mod:`hosting.tournament_state`). ``clock`` is the
tournament's clock then (its levels pause while the room is down).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hosting.store.ledger import ChipLedger, NotEnoughChips, move


@dataclass(frozen=True)
class MoneyMove:
    """One ledger row of a tournament: ``amount`` from ``source`` to ``destination`` for ``player``."""

    source: str
    destination: str
    amount: int
    player: str | None
    reason: str
    ticket_for: str | None = None
    """The tournament a row into or out of ``ticket`` enters."""


@dataclass(frozen=True)
class SavedTournament:
    """A tournament as the store kept it: its status, its director's state and its clock then."""

    id: str
    status: str
    state: bytes
    clock: float
    config: str
    steps: tuple[bytes, ...] = ()
    """The calls of each step since the snapshot ``state``, oldest first."""


class TournamentBook(ChipLedger):
    """Tournaments' money and state; tickets held in memory (read synchronously, as balances are), by holder and
    the tournament they enter."""

    _tickets: dict[tuple[str, str], int]
    _unsettled: dict[str, list[str]]  # the hand book's: tournament hands written, finished by the next step

    def _load(self) -> None:
        super()._load()
        self._tickets = {}
        for name, target, destination, amount in self.connection.execute(
                "SELECT player, ticket_for, destination, SUM(amount) FROM ledger WHERE 'ticket' IN "
                "(source, destination) GROUP BY player, ticket_for, destination"):
            key = (name, target)
            self._tickets[key] = self._tickets.get(key, 0) + (amount if destination == "ticket" else -amount)

    def tournament_step(self, tournament_id: str, moves: Sequence[MoneyMove], *, status: str, state: bytes | None,
                        clock: float, money: tuple[int, int, int], config: str = "", calls: bytes | None = None,
                        ) -> asyncio.Future[Any] | None:
        """One step of a tournament: its ledger rows and what changed its state, one transaction: ``state`` (a
        snapshot of its director: the step rows before it go) or, when None, ``calls`` (the step's, a new row
        after the snapshot; the tournament's first step is a snapshot). ``money``: what its director holds now
        (pool, fees, bounty fund), for the audit. Balances change in memory at once; a payment above a balance
        raises :class:`NotEnoughChips` (nothing changed)."""
        if state is None and calls is None:
            raise ValueError("a tournament step keeps a snapshot or its calls")
        changes: dict[str, int] = {}
        tickets: dict[tuple[str, str], int] = {}
        for item in moves:
            for location, sign in ((item.source, -1), (item.destination, 1)):
                if location == "balance":
                    assert item.player is not None
                    changes[item.player] = changes.get(item.player, 0) + sign * item.amount
                elif location == "ticket":
                    assert item.player is not None and item.ticket_for is not None
                    key = (item.player, item.ticket_for)
                    tickets[key] = tickets.get(key, 0) + sign * item.amount
        for name, change in changes.items():
            if self._balances.get(name, 0) + change < 0:
                raise NotEnoughChips(f"{name} has {self._balances.get(name, 0)} chips in the bank, not {-change}")
        for (name, target), change in tickets.items():
            if self._tickets.get((name, target), 0) + change < 0:
                raise NotEnoughChips(f"{name}'s tickets for {target} are worth {self._tickets.get((name, target), 0)}")
        now = self.clock()
        rows = list(moves)
        hands = self._unsettled.pop(tournament_id, [])

        def write(connection: sqlite3.Connection) -> None:
            for item in rows:
                move(connection, now, item.source, item.destination, item.amount, item.reason, player=item.player,
                     table_id=tournament_id, ticket_for=item.ticket_for)
            for hand_id in hands:  # the hands whose stacks this step takes: played, with the state that has them
                connection.execute("UPDATE hands SET status = 'finished' WHERE id = ? AND status = 'running'",
                                   (hand_id,))
            if state is None:
                connection.execute("INSERT INTO tournament_steps (tournament_id, calls) VALUES (?, ?)",
                                   (tournament_id, calls))
                connection.execute(  # the row is there: a tournament's first step is a snapshot
                    "UPDATE tournaments SET status = ?, pool = ?, fees = ?, bounties = ?, clock = ?, updated_at = ? "
                    "WHERE id = ?", (status, *money, clock, now, tournament_id))
                return
            connection.execute("DELETE FROM tournament_steps WHERE tournament_id = ?", (tournament_id,))
            connection.execute(
                "INSERT INTO tournaments (id, status, pool, fees, bounties, state, clock, config, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, "
                "pool = excluded.pool, fees = excluded.fees, bounties = excluded.bounties, state = excluded.state, "
                "clock = excluded.clock, updated_at = excluded.updated_at",
                (tournament_id, status, *money, state, clock, config, now))

        future = self._submit(write)
        for name, change in changes.items():
            self._balances[name] = self._balances.get(name, 0) + change
        for key, change in tickets.items():
            self._tickets[key] = self._tickets.get(key, 0) + change
        return future

    def saved_tournaments(self) -> list[SavedTournament]:
        """Every tournament the store kept, oldest first (read from the database: at start-up)."""
        return [SavedTournament(identifier, status, state, clock, config, tournament_steps(self.connection, identifier))
                for identifier, status, state, clock, config in self.connection.execute(
                    "SELECT id, status, state, clock, config FROM tournaments ORDER BY rowid")]

    def tickets(self, name: str) -> dict[str, int]:
        """``name``'s tickets: value held per tournament they enter."""
        return {target: value for (holder, target), value in self._tickets.items() if holder == name and value}


def tournament_steps(connection: sqlite3.Connection, tournament_id: str) -> tuple[bytes, ...]:
    """The calls of each step of ``tournament_id`` since its snapshot, oldest first."""
    return tuple(bytes(calls) for (calls,) in connection.execute(
        "SELECT calls FROM tournament_steps WHERE tournament_id = ? ORDER BY id", (tournament_id,)))
