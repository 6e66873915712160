"""Start-up recovery (R-CRASH-1): no chip is created or lost when the host stops or crashes mid-hand.

A hand's chips move in the ledger only when its result commits (one transaction, :meth:`Store.hand_finished`),
so a hand without a result has moved nothing: voiding it leaves every player's stack at its start-of-hand
value — each chip put into it is back with its owner. (Should a future writer put chips in the pot during a
hand, the pot's net holdings for a voided hand are handed back to their owners here.) Tables do not survive a
restart, so every stack then goes back to its owner's balance. Each affected player gets a notice for his
next login. All of it is one transaction: a crash during recovery leaves the database as it was.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hosting import protocol
from hosting.store.db import transaction
from hosting.store.ledger import move


@dataclass
class Recovery:
    """What start-up recovery did: hands voided, and (player, table, chips) returned to balances."""

    voided: list[str] = field(default_factory=list)
    returned: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.voided and not self.returned

    def describe(self) -> str:
        chips = sum(amount for _, _, amount in self.returned)
        return (f"recovery: {len(self.voided)} unfinished hand(s) voided, {chips} chips at "
                f"{len({table for _, table, _ in self.returned})} table(s) returned to "
                f"{len({name for name, _, _ in self.returned})} player(s)")


def refund_every_table(table_id: str) -> bool:
    """Cash tables do not survive a restart: every stack goes back to its owner's balance."""
    return True


def recover(connection: sqlite3.Connection, now: float,
            refund: Callable[[str], bool] = refund_every_table) -> Recovery:
    """Void every hand without a result and return the table stacks to their owners' balances (R-CRASH-1).

    ``refund``: the tables' owners' decision, by table id — True: its stacks go back to the balances (a cash
    table); False: they stay at the table for its owner to resume (a tournament's chips are never balance)."""
    recovery = Recovery()
    with transaction(connection, write=True):
        running = connection.execute(
            "SELECT id, table_id, players FROM hands WHERE status = 'running' ORDER BY started_at, id").fetchall()
        for hand_id, table_id, players_text in running:
            _void_hand(connection, now, hand_id, table_id, sorted(set(json.loads(players_text).values())))
            recovery.voided.append(hand_id)
        stacks = connection.execute(
            "SELECT table_id, name, amount FROM table_stacks WHERE amount > 0 ORDER BY table_id, name").fetchall()
        for table_id, name, amount in stacks:
            if not refund(table_id):
                continue
            move(connection, now, "table", "balance", amount, "returned at restart", player=name, table_id=table_id)
            _notice(connection, name, now, f"The room restarted: your {amount} chips at table {table_id} went back "
                                           "to your balance.")
            recovery.returned.append((name, table_id, amount))
    return recovery


def _void_hand(connection: sqlite3.Connection, now: float, hand_id: str, table_id: str, players: list[str]) -> None:
    in_pot = connection.execute(
        "SELECT player, SUM(CASE WHEN destination = 'pot' THEN amount ELSE -amount END) FROM ledger "
        "WHERE hand_id = ? AND (source = 'pot' OR destination = 'pot') AND player IS NOT NULL GROUP BY player",
        (hand_id,)).fetchall()
    for name, amount in in_pot:
        move(connection, now, "pot", "table", int(amount), "hand voided", player=name, table_id=table_id,
             hand_id=hand_id)
    connection.execute(
        "UPDATE hands SET status = 'voided', finished_at = ?, result = ? WHERE id = ?",
        (now, json.dumps({"voided": "the host stopped before the hand finished (R-CRASH-1)"}), hand_id))
    cancelled = protocol.hand_cancelled(table_id, hand_id, "room_stopped")
    for name in players:
        _notice(connection, name, now, f"Hand {hand_id} at table {table_id} was cancelled when the room stopped; "
                                       "every chip you put into it was returned (R-CRASH-1).", cancelled)


def _notice(connection: sqlite3.Connection, name: str, now: float, text: str,
            message: Mapping[str, Any] | None = None) -> None:
    """A notice for ``name``'s next login: ``text`` for a person, ``message`` (a typed control message such as
    ``hand_cancelled``) for his client to act on."""
    connection.execute("INSERT INTO notices (name, at, text, message) VALUES (?, ?, ?, ?)",
                       (name, now, text, None if message is None else json.dumps(message)))
