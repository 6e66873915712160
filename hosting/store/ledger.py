"""The chip ledger (DESIGN.md "Persistence and recovery"): one row per movement of chips between
``issue``/``balance``/``table``/``pot``/``rake``/``jackpot`` (see :mod:`hosting.migrations`), the balances and
stacks it materializes, and the jackpot pools (R-JACK-1: the ledger's ``jackpot`` rows per ``pool``, read back
at start so a pool survives a restart).

Errors: :class:`NotEnoughChips` (a buy-in above the balance or a cash-out above the stack; nothing changed).
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from hosting.settle_up import close_sessions, open_room_session, open_session
from hosting.store.writer import StoreWriter, Written


class NotEnoughChips(ValueError):
    """A move of chips larger than what the player has there (balance or stack); nothing was changed."""


def move(connection: sqlite3.Connection, at: float, source: str, destination: str, amount: int, reason: str, *,
         player: str | None = None, table_id: str | None = None, hand_id: str | None = None,
         pool: str | None = None, ticket_for: str | None = None) -> None:
    """One ledger row, and the materialized balance/stack it changes (inside the caller's transaction).
    ``pool``: the jackpot pool of a row into or out of ``jackpot``; ``ticket_for``: the tournament a ticket
    row's ticket enters."""
    if amount <= 0:
        return
    if "jackpot" in (source, destination) and not pool:
        raise ValueError(f"a jackpot movement ({source} -> {destination}) must name its pool")
    if "ticket" in (source, destination) and not ticket_for:
        raise ValueError(f"a ticket movement ({source} -> {destination}) must name the tournament it enters")
    connection.execute(
        "INSERT INTO ledger (at, source, destination, player, table_id, hand_id, amount, reason, pool, ticket_for) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (at, source, destination, player, table_id, hand_id, amount, reason, pool, ticket_for))
    for location, sign in ((source, -1), (destination, 1)):
        if location == "balance":
            connection.execute("UPDATE balances SET amount = amount + ? WHERE name = ?", (sign * amount, player))
        elif location == "table":
            # update first: an upsert would check the new row's (negative) amount before resolving the conflict
            changed = connection.execute("UPDATE table_stacks SET amount = amount + ? WHERE table_id = ? AND name = ?",
                                         (sign * amount, table_id, player)).rowcount
            if not changed:
                connection.execute("INSERT INTO table_stacks (table_id, name, amount) VALUES (?, ?, ?)",
                                   (table_id, player, sign * amount))


def jackpot_pools(connection: sqlite3.Connection) -> dict[str, int]:
    """Chips in each jackpot pool, from the ledger (rows into ``jackpot`` minus rows out of it, per ``pool``)."""
    pools: dict[str, int] = defaultdict(int)
    for pool, destination, amount in connection.execute(
            "SELECT pool, destination, SUM(amount) FROM ledger WHERE 'jackpot' IN (source, destination) "
            "GROUP BY pool, destination"):
        pools[pool] += amount if destination == "jackpot" else -amount
    return dict(pools)


class ChipLedger(StoreWriter):
    """Balances, stacks and jackpot pools in memory (read synchronously), moved through the ledger."""

    def __init__(self, connection: sqlite3.Connection, data_dir: Path, clock: Callable[[], float]) -> None:
        super().__init__(connection, data_dir, clock)
        self._balances: dict[str, int] = {}
        self._stacks: dict[tuple[str, str], int] = {}
        self._pools: dict[str, int] = {}

    def _load(self) -> None:
        super()._load()
        connection = self.connection
        self._balances = {name: amount for name, amount in connection.execute("SELECT name, amount FROM balances")}
        self._stacks = {(table_id, name): amount for table_id, name, amount
                        in connection.execute("SELECT table_id, name, amount FROM table_stacks WHERE amount > 0")}
        self._pools = jackpot_pools(connection)

    # --- chips between balance and tables ------------------------------------------------------------

    def balance(self, name: str) -> int:
        return self._balances.get(name, 0)

    def stack(self, table_id: str, name: str) -> int:
        return self._stacks.get((table_id, name), 0)

    def stacks_of(self, name: str) -> dict[str, int]:
        """``name``'s chips kept at each table (or pool) id, by id: what a restart gives back to his balance."""
        return {table_id: amount for (table_id, player), amount in self._stacks.items() if player == name}

    def issue(self, name: str, amount: int, reason: str) -> Written:
        """Chips created for ``name``'s balance (a refill, R-PLAY-1). ``KeyError`` for an unknown name."""
        if name not in self._balances:
            raise KeyError(f"no account {name!r}")
        if amount <= 0:
            raise ValueError(f"chips issued must be > 0, got {amount}")
        now = self.clock()
        future = self._submit(lambda connection: move(connection, now, "issue", "balance", amount, reason,
                                                      player=name))
        self._balances[name] += amount
        return future

    def buy_in(self, table_id: str, name: str, amount: int, reason: str = "buy-in") -> Written:
        """``amount`` chips from ``name``'s balance to his stack at ``table_id`` (R-BUYIN-1).

        Raises :class:`NotEnoughChips` if the balance is smaller (nothing changed)."""
        if amount <= 0:
            raise ValueError(f"a buy-in must be > 0 chips, got {amount}")
        balance = self._balances.get(name, 0)
        if amount > balance:
            raise NotEnoughChips(f"{name} has {balance} chips in the bank, not {amount}")
        now = self.clock()
        future = self._submit(lambda connection: move(connection, now, "balance", "table", amount, reason,
                                                      player=name, table_id=table_id))
        self._balances[name] = balance - amount
        self._stacks[(table_id, name)] = self._stacks.get((table_id, name), 0) + amount
        return future

    def cash_out(self, table_id: str, name: str, amount: int, reason: str = "left the table",
                 ) -> Written:
        """``amount`` chips from ``name``'s stack at ``table_id`` back to his balance.

        Raises :class:`NotEnoughChips` if the stack is smaller (nothing changed)."""
        stack = self._stacks.get((table_id, name), 0)
        if amount > stack:
            raise NotEnoughChips(f"{name} has {stack} chips at {table_id}, not {amount}")
        if amount <= 0:
            return None
        now = self.clock()
        future = self._submit(lambda connection: move(connection, now, "table", "balance", amount, reason,
                                                      player=name, table_id=table_id))
        self._stacks[(table_id, name)] = stack - amount
        if self._stacks[(table_id, name)] == 0:
            del self._stacks[(table_id, name)]
        self._balances[name] = self._balances.get(name, 0) + amount
        return future

    # --- the host's adjustments (hosting.admin) ----------------------------------------------------------

    def adjust_stack(self, table_id: str, name: str, amount: int, reason: str) -> Written:
        """The host's adjustment of a stack between hands: ``amount`` chips issued to it (> 0) or withdrawn
        from it (< 0), one ledger row with his ``reason``. Chips stay conserved: the audit counts them issued.
        Raises :class:`NotEnoughChips` for a withdrawal above the stack (nothing changed)."""
        stack = self._stacks.get((table_id, name), 0)
        if stack + amount < 0:
            raise NotEnoughChips(f"{name} has {stack} chips at {table_id}, not {-amount}")
        now = self.clock()
        source, destination = ("issue", "table") if amount > 0 else ("table", "issue")
        future = self._submit(lambda connection: move(connection, now, source, destination, abs(amount),
                                                      f"host: {reason}", player=name, table_id=table_id))
        self._stacks[(table_id, name)] = stack + amount
        if self._stacks[(table_id, name)] == 0:
            del self._stacks[(table_id, name)]
        return future

    def adjust_balance(self, name: str, amount: int, reason: str) -> Written:
        """As :meth:`adjust_stack`, for ``name``'s bank balance. ``KeyError`` for an unknown name."""
        balance = self._balances[name]
        if balance + amount < 0:
            raise NotEnoughChips(f"{name} has {balance} chips in the bank, not {-amount}")
        now = self.clock()
        source, destination = ("issue", "balance") if amount > 0 else ("balance", "issue")
        future = self._submit(lambda connection: move(connection, now, source, destination, abs(amount),
                                                      f"host: {reason}", player=name))
        self._balances[name] = balance + amount
        return future

    # --- sessions of the room (the settle-up ledger: hosting.settle_up) ----------------------------------

    def begin_session(self, name: str, night: bool = False) -> Written:
        """Close the open session and open ``name`` (a night the host names: ``night``, it spans restarts)."""
        now = self.clock()
        return self._submit(lambda connection: open_session(connection, name, now, night))

    def open_room_session(self, name: str) -> Written:
        """The room opens: the host's night goes on if one is open, else session ``name`` opens."""
        now = self.clock()
        return self._submit(lambda connection: open_room_session(connection, name, now))

    def end_session(self) -> Written:
        """The room closes: its session closes, not a host's night (that ends when he says)."""
        now = self.clock()
        return self._submit(lambda connection: close_sessions(connection, now, nights=False))

    # --- jackpot pools (R-JACK-1) --------------------------------------------------------------------

    def jackpot_pool(self, pool: str) -> int:
        """Chips in jackpot pool ``pool`` (e.g. ``"bad_beat_holdem"``); 0 for a pool never fed."""
        return self._pools.get(pool, 0)

    def seed_jackpot(self, pool: str, amount: int, reason: str = "jackpot seed") -> Written:
        """Chips the host adds to jackpot pool ``pool`` (issue → jackpot: new chips, counted as issued, so
        conservation holds). ``ValueError`` for an amount <= 0 or an empty pool name (nothing changed)."""
        if amount <= 0:
            raise ValueError(f"a jackpot seed must be > 0 chips, got {amount}")
        if not pool:
            raise ValueError("a jackpot seed needs the pool's name")
        now = self.clock()
        future = self._submit(lambda connection: move(connection, now, "issue", "jackpot", amount, reason, pool=pool))
        self._pools[pool] = self._pools.get(pool, 0) + amount
        return future
