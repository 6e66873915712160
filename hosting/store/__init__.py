"""The room's memory: one SQLite file (WAL) in the data directory (DESIGN.md "Persistence and recovery").

What it keeps: accounts and their SSH keys, balances, each player's stack at each table, the chip ledger (one
row per movement of chips between ``issue``/``balance``/``table``/``pot``/``rake``/``jackpot``, see
:mod:`hosting.migrations`), the jackpot pools (R-JACK-1: the ledger's ``jackpot`` rows per ``pool``, read back
at start so a pool survives a restart), tables and their settings, every hand (start snapshot, event log, result,
fairness transcript), chat, hand reports (R-AUDIT-1) and notices for players.

How it writes: the room calls :class:`Store` methods from its event loop; each updates the in-memory view
(balances, stacks) at once, so the caller can decide synchronously, and queues the SQL for the single writer
task (:meth:`Store.start`), which commits queued work in batches in a worker thread (group commit): table tasks
never wait on the disk unless they choose to await the returned future. A hand's result and its ledger rows
are one operation, hence one transaction. Before :meth:`Store.start` (and in tools and tests) every write
commits at once.

Recovery (R-CRASH-1) runs in :meth:`Store.open`, before the room starts: see :mod:`hosting.store.recovery`.

The parts: :mod:`~hosting.store.db` (the file, migrations, transactions), :mod:`~hosting.store.writer` (the
single writer), :mod:`~hosting.store.ledger` (chips: balances, stacks, jackpot pools), :mod:`~hosting.store.hands`
(tables, hands, reports), :mod:`~hosting.store.accounts` (names and keys, chat, notices),
:mod:`~hosting.store.recovery`. :class:`Store` is all of them over one connection.

Errors: :class:`StoreError` (bad data directory, corrupted or newer database: one line for the host),
:class:`NotEnoughChips` (a buy-in above the balance or a cash-out above the stack; nothing changed).
"""


from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from hosting.store.accounts import NEW_ACCOUNT_CHIPS, AccountBook, StoreAccounts
from hosting.store.db import DATABASE_FILE, StoreError, connect, database_path, migrate, transaction
from hosting.store.hands import (
    HandBook,
    HandResult,
    HandStart,
    ReportRefused,
    forced_bets_of,
    hand_result,
    hand_start_of,
    table_settings,
)
from hosting.store.ledger import NotEnoughChips, jackpot_pools, move
from hosting.store.recovery import Recovery, recover, refund_every_table
from hosting.store.tournaments import MoneyMove, SavedTournament, TournamentBook
from hosting.store.writer import BATCH_LIMIT

__all__ = [
    "BATCH_LIMIT",
    "DATABASE_FILE",
    "NEW_ACCOUNT_CHIPS",
    "HandResult",
    "HandStart",
    "MoneyMove",
    "NotEnoughChips",
    "Recovery",
    "ReportRefused",
    "SavedTournament",
    "Store",
    "StoreAccounts",
    "StoreError",
    "connect",
    "database_path",
    "forced_bets_of",
    "hand_result",
    "hand_start_of",
    "jackpot_pools",
    "migrate",
    "move",
    "table_settings",
    "transaction",
]


class Store(AccountBook, HandBook, TournamentBook):
    """The room's store. Build with :meth:`open`; call :meth:`start` inside the event loop to write in the
    background; :meth:`close` drains the queue.

    Synchronous reads come from memory: :meth:`balance`, :meth:`stack`, :meth:`keys`, :meth:`pending_notices`.
    """

    def __init__(self, connection: sqlite3.Connection, data_dir: Path, clock: Callable[[], float]) -> None:
        super().__init__(connection, data_dir, clock)
        self.recovery: Recovery | None = None  # set by open()

    @classmethod
    def open(cls, data_dir: Path, *, clock: Callable[[], float] = time.time,
             refund_at_restart: Callable[[str], bool] = refund_every_table) -> Store:
        """Open (create, migrate) the store in ``data_dir`` and recover from an unclean stop (R-CRASH-1);
        ``refund_at_restart``: by table id, whether its stacks go back to the balances (its owner's decision).

        Raises :class:`StoreError` (see :func:`connect`).
        """
        connection = connect(data_dir)
        store = cls(connection, data_dir, clock)
        try:
            store.recovery = recover(connection, clock(), refund_at_restart)
        except sqlite3.Error as problem:
            connection.close()
            raise StoreError(f"{database_path(data_dir)}: recovery failed: {problem}") from None
        store._load()
        return store
