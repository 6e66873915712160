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

Recovery (R-CRASH-1) runs in :meth:`Store.open`, before the room starts: see :mod:`hosting.recovery`.

Errors: :class:`StoreError` (bad data directory, corrupted or newer database: one line for the host),
:class:`NotEnoughChips` (a buy-in above the balance or a cash-out above the stack; nothing changed).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import sqlite3
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from engine.events import Event, HandEnded, HandStarted, PotAwarded
from engine.fairness import Transcript
from engine.hand import ForcedBets
from engine.jackpot import HandJackpot
from hosting.hand_codec import events_to_json, forced_bets_to_json
from hosting.migrations import MIGRATIONS, SCHEMA_VERSION

DATABASE_FILE: Final = "croupier.sqlite3"
NEW_ACCOUNT_CHIPS: Final = 1_000  # R-PLAY-1 (a host setting; the room passes its own)
BATCH_LIMIT: Final = 500

T = TypeVar("T")
Operation = Callable[[sqlite3.Connection], Any]


class StoreError(Exception):
    """The data directory or database cannot be used; the message is one line for the host. Nothing was changed."""


class NotEnoughChips(ValueError):
    """A move of chips larger than what the player has there (balance or stack); nothing was changed."""


@dataclass(frozen=True)
class HandStart:
    """What the store keeps when a hand starts (the snapshot). Chips; ``started_at`` in epoch seconds.

    ``players``/``stacks``: seat → name / stack before any forced bet, for the seats dealt in.
    ``settings``: the table's settings at that moment (JSON-ready; see :meth:`Store.save_table`).
    """

    hand_id: str
    table_id: str
    number: int
    started_at: float
    players: Mapping[int, str]
    stacks: Mapping[int, int]
    forced_bets: ForcedBets
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HandResult:
    """Where a finished hand's chips went, per seat: ``put_in`` (table → pot, net of uncalled bets returned),
    ``awarded`` (pot → table), ``final`` stacks and the ``rake`` taken from the pot. ``put_in`` sums to
    ``awarded`` + ``rake`` (chip conservation, asserted by :func:`hand_result`).

    Jackpot (R-JACK-1): ``jackpot`` chips of the rake are the drop into ``jackpot_pool`` (pot → jackpot; the
    other ``rake - jackpot`` go pot → rake), and ``jackpot_paid`` (seat → chips) is a bad beat paid out of that
    pool to the players' balances (jackpot → balance); ``jackpot_event`` is the public ``jackpot_paid`` event
    body sent to the table (PROTOCOL.md), kept with the hand."""

    put_in: Mapping[int, int]
    awarded: Mapping[int, int]
    final: Mapping[int, int]
    rake: int
    jackpot: int = 0
    jackpot_pool: str | None = None
    jackpot_paid: Mapping[int, int] = field(default_factory=dict)
    jackpot_event: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        body = {"put_in": {str(seat): amount for seat, amount in self.put_in.items()},
                "awarded": {str(seat): amount for seat, amount in self.awarded.items()},
                "final": {str(seat): amount for seat, amount in self.final.items()},
                "rake": self.rake, "jackpot": self.jackpot}
        if self.jackpot_pool is not None:
            body.update(jackpot_pool=self.jackpot_pool,
                        jackpot_paid={str(seat): amount for seat, amount in self.jackpot_paid.items()},
                        jackpot_event=None if self.jackpot_event is None else dict(self.jackpot_event))
        return body

    @staticmethod
    def from_json(body: Mapping[str, Any]) -> HandResult:
        def seats(name: str) -> dict[int, int]:
            return {int(seat): int(amount) for seat, amount in body[name].items()}

        return HandResult(seats("put_in"), seats("awarded"), seats("final"), int(body["rake"]),
                          int(body.get("jackpot", 0)), body.get("jackpot_pool"),
                          {int(seat): int(amount) for seat, amount in (body.get("jackpot_paid") or {}).items()},
                          body.get("jackpot_event"))


def hand_result(stacks: Mapping[int, int], events: Sequence[Event]) -> HandResult:
    """The chip movements of a finished hand from its start ``stacks`` and its events.

    Raises ``ValueError`` when the events are not a whole hand or chips are not conserved
    (start stacks = final stacks + rake).

    >>> from engine.events import HandEnded, HandStarted, PotAwarded
    >>> events = [HandStarted("texas_holdem", "no_limit", 0, ((1, 1000), (0, 1000))),
    ...           PotAwarded(0, 0, 195), HandEnded(((1, 900), (0, 1095)), rake=5)]
    >>> result = hand_result({0: 1000, 1: 1000}, events)
    >>> dict(result.put_in), dict(result.awarded), result.rake
    ({1: 100, 0: 100}, {0: 195}, 5)
    """
    started = next((event for event in events if isinstance(event, HandStarted)), None)
    ended = events[-1] if events else None
    if started is None or not isinstance(ended, HandEnded):
        raise ValueError("a hand result needs a whole hand: HandStarted, then HandEnded last")
    if dict(started.stacks) != dict(stacks):
        raise ValueError(f"the hand started with stacks {dict(started.stacks)}, the snapshot says {dict(stacks)}")
    awarded: dict[int, int] = defaultdict(int)
    for event in events:
        if isinstance(event, PotAwarded):
            awarded[event.seat] += event.amount
    final = dict(ended.stacks)
    put_in = {seat: stacks[seat] - final[seat] + awarded.get(seat, 0) for seat, _ in started.stacks}
    if any(amount < 0 for amount in put_in.values()):
        raise ValueError(f"a seat ended with more than it started with plus its winnings: {put_in}")
    if sum(put_in.values()) != sum(awarded.values()) + ended.rake:
        raise ValueError(f"chip conservation broken: {sum(put_in.values())} put in, "
                         f"{sum(awarded.values())} awarded + {ended.rake} rake")
    return HandResult({seat: amount for seat, amount in put_in.items() if amount},
                      dict(awarded), final, ended.rake)


@dataclass
class _Queued:
    operation: Operation
    future: asyncio.Future[Any] | None


class ReportRefused(KeyError):
    """A hand report the store will not keep: ``code`` is ``no_hand`` (unknown, running or voided hand),
    ``not_dealt_in`` (the reporter did not play it) or ``already_reported`` (one report per player per hand)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def database_path(data_dir: Path) -> Path:
    return data_dir / DATABASE_FILE


def _check_directory(data_dir: Path, *, create: bool) -> None:
    if data_dir.exists() and not data_dir.is_dir():
        raise StoreError(f"data directory {data_dir} is not a directory")
    if not data_dir.exists():
        if not create:
            raise StoreError(f"data directory {data_dir} does not exist")
        try:
            data_dir.mkdir(parents=True, mode=0o700)
        except OSError as problem:
            raise StoreError(f"cannot create data directory {data_dir}: {problem.strerror or problem}") from None
    if create and not os.access(data_dir, os.W_OK | os.X_OK):
        raise StoreError(f"data directory {data_dir} is not writable")


def connect(data_dir: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """An open, checked connection to the room's database (WAL, foreign keys), migrated when writable.

    ``read_only``: for ``audit``/``export``/``reports`` (nothing can be written, no migration; an older schema
    is refused). Raises :class:`StoreError` with one line for: a data directory that is missing (read-only),
    not a directory or not writable; a file that is not a SQLite database or fails its integrity check; a
    schema newer than this code. Nothing is written in any of those cases.
    """
    _check_directory(data_dir, create=not read_only)
    path = database_path(data_dir)
    if read_only and not path.exists():
        raise StoreError(f"no croupier database in {data_dir} ({DATABASE_FILE} is missing)")
    try:
        if read_only:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None,
                                         check_same_thread=False)
        else:
            _create_private(path)
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as problem:
        raise StoreError(f"cannot open {path}: {problem}") from None
    try:
        _check_database(connection, path)
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"{path} has schema version {version}, newer than this croupier understands "
                             f"({SCHEMA_VERSION}): upgrade croupier; nothing was changed")
        if read_only:
            if version < SCHEMA_VERSION:
                raise StoreError(f"{path} has schema version {version} (current {SCHEMA_VERSION}): "
                                 "start `croupier host` once to migrate it")
        else:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            migrate(connection)
        connection.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error as problem:
        connection.close()
        raise StoreError(f"{path} cannot be used: {problem}") from None
    except StoreError:
        connection.close()
        raise
    return connection


def _create_private(path: Path) -> None:
    """Create the database file 0600 before SQLite does (its WAL and SHM files take the database's mode): it
    holds everyone's hole cards, chat and keys. An existing file of ours is made 0600 too."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        info = path.stat()
        if info.st_uid == os.getuid() and info.st_mode & 0o077:
            os.chmod(path, 0o600)
    except OSError:
        pass  # SQLite opens it next and names the problem


def _check_database(connection: sqlite3.Connection, path: Path) -> None:
    try:
        verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as problem:
        raise StoreError(f"{path} is not a usable croupier database ({problem}); nothing was changed") from None
    if verdict != "ok":
        raise StoreError(f"{path} is corrupted ({verdict}); nothing was changed")


def migrate(connection: sqlite3.Connection) -> int:
    """Apply the migrations this database lacks, each in its own transaction; returns the new version."""
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    for number in range(version, SCHEMA_VERSION):
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number + 1}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    return SCHEMA_VERSION


@contextlib.contextmanager
def transaction(connection: sqlite3.Connection, *, write: bool = False) -> Iterator[sqlite3.Connection]:
    """One transaction (``BEGIN IMMEDIATE`` when writing); commit on success, roll back on any error."""
    connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def move(connection: sqlite3.Connection, at: float, source: str, destination: str, amount: int, reason: str, *,
         player: str | None = None, table_id: str | None = None, hand_id: str | None = None,
         pool: str | None = None) -> None:
    """One ledger row, and the materialized balance/stack it changes (inside the caller's transaction).
    ``pool``: the jackpot pool of a row into or out of ``jackpot``."""
    if amount <= 0:
        return
    if "jackpot" in (source, destination) and not pool:
        raise ValueError(f"a jackpot movement ({source} -> {destination}) must name its pool")
    connection.execute(
        "INSERT INTO ledger (at, source, destination, player, table_id, hand_id, amount, reason, pool) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (at, source, destination, player, table_id, hand_id, amount, reason, pool))
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


class Store:
    """The room's store. Build with :meth:`open`; call :meth:`start` inside the event loop to write in the
    background; :meth:`close` drains the queue.

    Synchronous reads come from memory: :meth:`balance`, :meth:`stack`, :meth:`keys`, :meth:`pending_notices`.
    """

    def __init__(self, connection: sqlite3.Connection, data_dir: Path, clock: Callable[[], float]) -> None:
        self.connection = connection
        self.data_dir = data_dir
        self.clock = clock
        self.recovery: Any = None  # hosting.recovery.Recovery, set by open()
        self._balances: dict[str, int] = {}
        self._stacks: dict[tuple[str, str], int] = {}
        self._keys: dict[str, set[str]] = {}
        self._notices: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self._running: dict[str, HandStart] = {}
        self._pools: dict[str, int] = {}
        self._queue: asyncio.Queue[_Queued | None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0
        self.writer_failure: BaseException | None = None

    # --- opening -------------------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path, *, clock: Callable[[], float] = time.time) -> Store:
        """Open (create, migrate) the store in ``data_dir`` and recover from an unclean stop (R-CRASH-1).

        Raises :class:`StoreError` (see :func:`connect`).
        """
        from hosting.recovery import recover

        connection = connect(data_dir)
        store = cls(connection, data_dir, clock)
        try:
            store.recovery = recover(connection, clock())
        except sqlite3.Error as problem:
            connection.close()
            raise StoreError(f"{database_path(data_dir)}: recovery failed: {problem}") from None
        store._load()
        return store

    def _load(self) -> None:
        connection = self.connection
        self._balances = {name: amount for name, amount in connection.execute("SELECT name, amount FROM balances")}
        self._stacks = {(table_id, name): amount for table_id, name, amount
                        in connection.execute("SELECT table_id, name, amount FROM table_stacks WHERE amount > 0")}
        self._keys = defaultdict(set)
        for name, key in connection.execute("SELECT name, public_key FROM account_keys"):
            self._keys[name].add(key)
        self._keys = dict(self._keys)
        for notice_id, name, text in connection.execute(
                "SELECT id, name, text FROM notices WHERE delivered_at IS NULL ORDER BY id"):
            self._notices[name].append((notice_id, text))
        self._pools = jackpot_pools(connection)

    # --- the writer ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the writer task (inside the running event loop). Later writes are queued, not awaited."""
        if self._writer is None:
            self._queue = asyncio.Queue()
            self._writer = asyncio.get_running_loop().create_task(self._write_loop(), name="store writer")

    async def close(self) -> None:
        """Commit everything queued, stop the writer, close the database."""
        if self._writer is not None and self._queue is not None:
            self._queue.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
            self._queue = None
        self.connection.close()

    def close_now(self) -> None:
        """Close without a writer (tools, tests)."""
        self.connection.close()

    async def flush(self) -> None:
        """Wait until everything queued so far is committed."""
        if self._queue is not None:
            future = self._submit(lambda connection: None)
            if future is not None:
                await future

    def _submit(self, operation: Operation) -> asyncio.Future[Any] | None:
        if self.writer_failure is not None:
            raise StoreError(f"the store's writer stopped: {self.writer_failure}")
        if self._queue is None:
            with transaction(self.connection, write=True):
                operation(self.connection)
            self.commits += 1
            return None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Queued(operation, future))
        return future

    async def _write_loop(self) -> None:
        assert self._queue is not None
        queue = self._queue
        stopping = False
        while not stopping:
            item = await queue.get()
            batch: list[_Queued] = []
            while item is not None:
                batch.append(item)
                if len(batch) >= BATCH_LIMIT or queue.empty():
                    break
                item = queue.get_nowait()
            stopping = item is None
            if not batch:
                continue
            try:
                outcomes = await asyncio.to_thread(self._apply, [queued.operation for queued in batch])
            except BaseException as problem:  # the disk failed: every waiting caller learns it
                self.writer_failure = problem
                for queued in batch:
                    if queued.future is not None and not queued.future.done():
                        queued.future.set_exception(StoreError(f"store write failed: {problem}"))
                raise
            self.commits += 1
            for queued, (result, failure) in zip(batch, outcomes, strict=True):
                if queued.future is None or queued.future.done():
                    continue
                if failure is not None:
                    queued.future.set_exception(failure)
                else:
                    queued.future.set_result(result)

    def _apply(self, operations: list[Operation]) -> list[tuple[Any, BaseException | None]]:
        """Run a batch in one transaction; each operation in a savepoint so one failure spoils only itself."""
        outcomes: list[tuple[Any, BaseException | None]] = []
        with transaction(self.connection, write=True) as connection:
            for operation in operations:
                connection.execute("SAVEPOINT operation")
                try:
                    result = operation(connection)
                except Exception as problem:  # handed to the caller's future
                    connection.execute("ROLLBACK TO operation")
                    connection.execute("RELEASE operation")
                    outcomes.append((None, problem))
                else:
                    connection.execute("RELEASE operation")
                    outcomes.append((result, None))
        return outcomes

    # --- accounts ------------------------------------------------------------------------------------

    def keys(self, name: str) -> set[str]:
        """The registered public keys of ``name`` (empty: not registered)."""
        return set(self._keys.get(name, ()))

    def names(self) -> list[str]:
        return sorted(self._keys)

    def names_with_key(self, public_key: str) -> list[str]:
        """The names ``public_key`` is registered for."""
        return sorted(name for name, keys in self._keys.items() if public_key in keys)

    def register(self, name: str, public_key: str, *, chips: int = NEW_ACCOUNT_CHIPS) -> asyncio.Future[Any] | None:
        """A new account with its first key and ``chips`` issued to its balance (R-PLAY-1).

        ``ValueError`` if the name is already registered (nothing changed)."""
        if name in self._keys:
            raise ValueError(f"the name {name!r} is already registered")
        if chips < 0:
            raise ValueError(f"a new account's chips must be >= 0, got {chips}")
        now = self.clock()

        def write(connection: sqlite3.Connection) -> None:
            connection.execute("INSERT INTO accounts (name, registered_at) VALUES (?, ?)", (name, now))
            connection.execute("INSERT INTO account_keys (name, public_key, added_at) VALUES (?, ?, ?)",
                               (name, public_key, now))
            connection.execute("INSERT INTO balances (name, amount) VALUES (?, 0)", (name,))
            move(connection, now, "issue", "balance", chips, "new account", player=name)

        future = self._submit(write)
        self._keys[name] = {public_key}
        self._balances[name] = chips
        return future

    def add_key(self, name: str, public_key: str) -> asyncio.Future[Any] | None:
        """Another key for a registered name (``KeyError`` if it is not registered)."""
        keys = self._keys[name]
        if public_key in keys:
            return None
        keys.add(public_key)
        now = self.clock()
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO account_keys (name, public_key, added_at) VALUES (?, ?, ?)", (name, public_key, now)))

    # --- chips between balance and tables ------------------------------------------------------------

    def balance(self, name: str) -> int:
        return self._balances.get(name, 0)

    def stack(self, table_id: str, name: str) -> int:
        return self._stacks.get((table_id, name), 0)

    def issue(self, name: str, amount: int, reason: str) -> asyncio.Future[Any] | None:
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

    def buy_in(self, table_id: str, name: str, amount: int, reason: str = "buy-in") -> asyncio.Future[Any] | None:
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
                 ) -> asyncio.Future[Any] | None:
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

    # --- jackpot pools (R-JACK-1) --------------------------------------------------------------------

    def jackpot_pool(self, pool: str) -> int:
        """Chips in jackpot pool ``pool`` (e.g. ``"bad_beat_holdem"``); 0 for a pool never fed."""
        return self._pools.get(pool, 0)

    def seed_jackpot(self, pool: str, amount: int, reason: str = "jackpot seed") -> asyncio.Future[Any] | None:
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

    # --- tables and hands ----------------------------------------------------------------------------

    def save_table(self, table_id: str, settings: Mapping[str, Any]) -> asyncio.Future[Any] | None:
        """Record a table's settings (JSON-ready: game, structure, blinds, seats, buy-ins, rake…)."""
        text = json.dumps(dict(settings), sort_keys=True)
        now = self.clock()
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO tables (id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
            (table_id, text, now)))

    def hand_started(self, start: HandStart) -> asyncio.Future[Any] | None:
        """Keep a hand's start snapshot. Raises ``ValueError`` if a stack differs from the store's (the room and
        the store disagree about chips: conservation would break) or the hand id is already running."""
        if start.hand_id in self._running:
            raise ValueError(f"hand {start.hand_id} is already running")
        for seat, name in start.players.items():
            if self.stack(start.table_id, name) != start.stacks[seat]:
                raise ValueError(f"{name} starts hand {start.hand_id} with {start.stacks[seat]} chips, but the store "
                                 f"has {self.stack(start.table_id, name)} at {start.table_id}")
        self._running[start.hand_id] = start
        snapshot = json.dumps({"stacks": {str(seat): stack for seat, stack in start.stacks.items()},
                               "forced_bets": forced_bets_to_json(start.forced_bets),
                               "settings": dict(start.settings)}, sort_keys=True)
        players = json.dumps({str(seat): name for seat, name in start.players.items()}, sort_keys=True)
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO hands (id, table_id, number, status, started_at, players, snapshot) "
            "VALUES (?, ?, ?, 'running', ?, ?, ?)",
            (start.hand_id, start.table_id, start.number, start.started_at, players, snapshot)))

    def hand_finished(self, hand_id: str, events: Sequence[Event], transcript: Transcript | Mapping[str, Any] | None,
                      *, jackpot_pool: str | None = None, jackpot: HandJackpot | None = None,
                      jackpot_event: Mapping[str, Any] | None = None) -> asyncio.Future[Any] | None:
        """Store a finished hand: events, result, transcript and its ledger rows, in one transaction.

        ``events``: the hand's whole log (HandStarted … HandEnded, every card). ``jackpot``: what the hand did to
        ``jackpot_pool`` (:func:`engine.jackpot.settle_hand` on :meth:`jackpot_pool`'s amount): its drop moves
        pot → jackpot instead of pot → rake, its bad-beat payout moves jackpot → each player's balance (the
        player's account, as card rooms pay jackpots), and the pool is updated at once; ``jackpot_event`` is
        kept with the result. Raises ``KeyError`` for a hand that was not started here, ``ValueError`` when the
        events do not conserve chips or the jackpot does not fit the pool or the hand (nothing changed)."""
        start = self._running[hand_id]
        result = hand_result(start.stacks, events)
        if jackpot is not None:
            result = self._with_jackpot(start, result, jackpot_pool, jackpot, jackpot_event)
        now = self.clock()
        transcript_json = transcript.to_json() if isinstance(transcript, Transcript) else transcript
        body = (json.dumps(events_to_json(events)), json.dumps(result.to_json()),
                None if transcript_json is None else json.dumps(transcript_json, sort_keys=True))

        def write(connection: sqlite3.Connection) -> None:
            updated = connection.execute(
                "UPDATE hands SET status = 'finished', finished_at = ?, events = ?, result = ?, transcript = ? "
                "WHERE id = ? AND status = 'running'", (now, *body, hand_id)).rowcount
            if updated != 1:
                raise StoreError(f"hand {hand_id} is not running in the store")
            table_id = start.table_id
            for seat, amount in sorted(result.put_in.items()):
                move(connection, now, "table", "pot", amount, "hand", player=start.players[seat],
                     table_id=table_id, hand_id=hand_id)
            move(connection, now, "pot", "rake", result.rake - result.jackpot, "rake", table_id=table_id,
                 hand_id=hand_id)
            move(connection, now, "pot", "jackpot", result.jackpot, "jackpot drop", table_id=table_id,
                 hand_id=hand_id, pool=result.jackpot_pool)
            for seat, amount in sorted(result.awarded.items()):
                move(connection, now, "pot", "table", amount, "pot won", player=start.players[seat],
                     table_id=table_id, hand_id=hand_id)
            for seat, amount in sorted(result.jackpot_paid.items()):
                reason = "monte carlo jackpot" if str(result.jackpot_pool).startswith("monte_carlo") \
                    else "bad beat jackpot"
                move(connection, now, "jackpot", "balance", amount, reason, player=start.players[seat],
                     table_id=table_id, hand_id=hand_id, pool=result.jackpot_pool)

        future = self._submit(write)
        del self._running[hand_id]
        if result.jackpot_pool is not None and jackpot is not None:
            self._pools[result.jackpot_pool] = jackpot.pool_after
            for seat, amount in result.jackpot_paid.items():
                name = start.players[seat]
                self._balances[name] = self._balances.get(name, 0) + amount
        for seat, name in start.players.items():
            key = (start.table_id, name)
            self._stacks[key] = result.final[seat]
            if self._stacks[key] == 0:
                del self._stacks[key]
        return future

    def _with_jackpot(self, start: HandStart, result: HandResult, pool: str | None, jackpot: HandJackpot,
                      event: Mapping[str, Any] | None) -> HandResult:
        """``result`` with the hand's jackpot drop and payout, after checking they fit (``ValueError``)."""
        if not pool:
            raise ValueError("a hand's jackpot needs the name of its pool")
        if jackpot.pool_before != self.jackpot_pool(pool):
            raise ValueError(f"the jackpot was settled on a pool of {jackpot.pool_before} chips, but {pool} holds "
                             f"{self.jackpot_pool(pool)}")
        if not 0 <= jackpot.drop <= result.rake:
            raise ValueError(f"a jackpot drop of {jackpot.drop} chips does not fit a rake of {result.rake}")
        if any(seat not in start.players or amount < 0 for seat, amount in jackpot.paid.items()):
            raise ValueError(f"jackpot paid to seats not dealt in: {jackpot.paid}")
        if jackpot.pool_after != jackpot.pool_before + jackpot.drop - jackpot.payout_total or jackpot.pool_after < 0:
            raise ValueError(f"jackpot pool {pool} would not conserve chips: {jackpot}")
        return dataclasses.replace(result, jackpot=jackpot.drop, jackpot_pool=pool, jackpot_paid=dict(jackpot.paid),
                                   jackpot_event=event)

    def running_hands(self) -> list[str]:
        return sorted(self._running)

    # --- chat, reports, notices ----------------------------------------------------------------------

    def chat(self, sender: str, table_id: str | None, text: str) -> asyncio.Future[Any] | None:
        now = self.clock()
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO chat (at, sender, table_id, text) VALUES (?, ?, ?, ?)", (now, sender, table_id, text)))

    def report_hand(self, reporter: str, hand_id: str, reason: str) -> asyncio.Future[Any] | None:
        """Flag a stored hand for the host (R-AUDIT-1): the report keeps the full history (PokerStars-style text
        when the game allows, else PHH) and the hand's whole record (events, result, transcript) as JSON.

        The future's result is the report id; it fails with :class:`ReportRefused` (a ``KeyError``) for a hand the
        store does not have finished (unknown, still running or voided), a reporter who was not dealt into it,
        or his second report of it: nothing is written then."""
        from hosting.hand_records import load_hand, render_history

        now = self.clock()

        def write(connection: sqlite3.Connection) -> int:
            hand = load_hand(connection, hand_id)
            if hand is None or hand.status != "finished":
                state = "unknown" if hand is None else hand.status
                raise ReportRefused("no_hand", f"hand {hand_id} cannot be reported: it is {state}")
            if reporter not in hand.players.values():
                raise ReportRefused("not_dealt_in", f"only its players report a hand: you were not in {hand_id}")
            if connection.execute("SELECT 1 FROM reports WHERE hand_id = ? AND reporter = ?",
                                  (hand_id, reporter)).fetchone() is not None:
                raise ReportRefused("already_reported", f"you already reported hand {hand_id}")
            history = render_history(hand)
            record = json.dumps(hand.to_json(), sort_keys=True)
            cursor = connection.execute(
                "INSERT INTO reports (at, reporter, hand_id, reason, history, record) VALUES (?, ?, ?, ?, ?, ?)",
                (now, reporter, hand_id, reason, history, record))
            return int(cursor.lastrowid or 0)

        return self._submit(write)

    def pending_notices(self, name: str) -> list[str]:
        """Notices ``name`` has not seen yet (e.g. hands voided by a restart, R-CRASH-1), oldest first."""
        return [text for _, text in self._notices.get(name, [])]

    def notices_delivered(self, name: str) -> asyncio.Future[Any] | None:
        """Mark ``name``'s pending notices as shown."""
        pending = self._notices.pop(name, [])
        if not pending:
            return None
        ids = [notice_id for notice_id, _ in pending]
        now = self.clock()
        return self._submit(lambda connection: connection.executemany(
            "UPDATE notices SET delivered_at = ? WHERE id = ?", [(now, notice_id) for notice_id in ids]))


def jackpot_pools(connection: sqlite3.Connection) -> dict[str, int]:
    """Chips in each jackpot pool, from the ledger (rows into ``jackpot`` minus rows out of it, per ``pool``)."""
    pools: dict[str, int] = defaultdict(int)
    for pool, destination, amount in connection.execute(
            "SELECT pool, destination, SUM(amount) FROM ledger WHERE 'jackpot' IN (source, destination) "
            "GROUP BY pool, destination"):
        pools[pool] += amount if destination == "jackpot" else -amount
    return dict(pools)


# --- glue for table runners ------------------------------------------------------------------------------


def table_settings(config: Any) -> dict[str, Any]:
    """A :class:`hosting.config.TableConfig` as the JSON-ready settings the store keeps with tables and hands."""
    import dataclasses

    settings = dataclasses.asdict(config)
    settings["clock"] = dict(settings.get("clock", {}))
    return settings


def forced_bets_of(table: Any) -> ForcedBets:
    """The forced bets of the hand ``table`` (an ``engine.table.Table``) just started, from its public plan."""
    forced_bets: ForcedBets | None = getattr(table, "last_forced_bets", None)
    if forced_bets is not None:
        # The table's own record: right for stud (antes and bring-in) as well as blind games.
        return forced_bets
    plan = table.last_plan
    config = table.config
    if plan is None:
        raise ValueError("the table has not planned a hand")
    return ForcedBets(
        button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat, small_blind=config.small_blind,
        big_blind_seat=plan.big_blind_seat, big_blind=config.big_blind, straddle_seat=plan.straddle_seat,
        straddle=2 * config.big_blind if plan.straddle_seat is not None else 0, ante=config.ante,
        dead_small_blinds=plan.dead_small_blinds, big_blinds_out_of_position=plan.out_of_position_big_blinds)


def hand_start_of(table: Any, table_id: str, hand_id: str, events: Sequence[Event], started_at: float,
                  settings: Mapping[str, Any]) -> HandStart:
    """The :class:`HandStart` of the hand ``table.start_hand`` just began (``events``: what it returned)."""
    started = next(event for event in events if isinstance(event, HandStarted))
    stacks = dict(started.stacks)
    return HandStart(hand_id, table_id, table.hand_number, started_at,
                     {seat: table.players[seat].player for seat in stacks}, stacks, forced_bets_of(table), settings)


class StoreAccounts:
    """:class:`hosting.identity.AccountStore`'s interface (names bound to SSH keys) kept in the store, so that
    a new account and the chips issued to it (R-PLAY-1) are one transaction. ``legacy``: an ``accounts.json``
    from before the store; its accounts are imported once (each with ``chips``), the file is left as it was."""

    def __init__(self, store: Store, *, chips: int = NEW_ACCOUNT_CHIPS, legacy: Path | None = None) -> None:
        self.store = store
        self.chips = chips
        if legacy is not None and legacy.exists():
            data = json.loads(legacy.read_text(encoding="utf-8"))
            for name, account in sorted(data.get("accounts", {}).items()):
                keys = list(account.get("keys", []))
                if keys and not store.keys(name):
                    store.register(name, keys[0], chips=chips)
                    for key in keys[1:]:
                        store.add_key(name, key)

    def status(self, name: str, public_key: str) -> Any:
        from hosting.identity import KeyStatus, normalize_key

        keys = self.store.keys(name)
        if not keys:
            return KeyStatus.NEW_NAME
        return KeyStatus.KNOWN if normalize_key(public_key) in keys else KeyStatus.TAKEN

    def is_registered(self, name: str) -> bool:
        return bool(self.store.keys(name))

    def register(self, name: str, public_key: str, now: float) -> None:
        """Bind ``name`` to ``public_key`` and issue the new account's chips; ``ValueError`` if the name is bad or
        taken by another key (nothing changed)."""
        from hosting.identity import KeyStatus, check_name, normalize_key

        problem = check_name(name)
        if problem:
            raise ValueError(problem)
        status = self.status(name, public_key)
        if status is KeyStatus.TAKEN:
            raise ValueError(f"the name {name!r} is registered to another key")
        if status is KeyStatus.NEW_NAME:
            self.store.register(name, normalize_key(public_key), chips=self.chips)

    def names(self) -> Iterator[str]:
        return iter(self.store.names())

    def names_with_key(self, public_key: str) -> list[str]:
        from hosting.identity import normalize_key

        return self.store.names_with_key(normalize_key(public_key))
