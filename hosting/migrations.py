"""The store's schema, as numbered migrations applied in order at start (DESIGN.md "Persistence and recovery").

``PRAGMA user_version`` holds the number of migrations applied. A migration is SQL, or a function given the
connection when data must be rewritten (migration 10), run in the migration's transaction all the same. A database
whose version is higher than :data:`SCHEMA_VERSION` was written by a newer croupier: the store refuses it and changes
nothing. Never edit a migration that has shipped; add the next one.

Chip locations in the ledger (``source`` → ``destination``): ``issue`` (outside the room: chips created for a new
account or a refill), ``balance`` (a player's bankroll), ``table`` (a player's stack at a table), ``pot`` (chips
of a hand in play), ``rake`` and ``jackpot`` (the host's and the jackpot pools'). Amounts are integer chips > 0.
Every row into or out of ``jackpot`` names its ``pool`` (e.g. ``bad_beat_holdem``, R-JACK-1; migration 3).
Tournaments (migration 6, :mod:`hosting.store.tournaments`): ``tournament`` (a prize pool), ``fee`` (its fees, the
house's), ``bounty`` (its bounty fund) and ``ticket`` (a player's ticket), each row naming the tournament in
``table_id``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Final

from hosting.tournament_legacy import convert_pickled_tournaments

LOCATIONS: Final = ("issue", "balance", "table", "pot", "rake", "jackpot", "tournament", "fee", "bounty", "ticket")

_LOCATION_CHECK = "IN ('issue', 'balance', 'table', 'pot', 'rake', 'jackpot')"
_TOURNAMENT_LOCATIONS = ("IN ('issue', 'balance', 'table', 'pot', 'rake', 'jackpot', 'tournament', 'fee', 'bounty', "
                         "'ticket')")

Migration = str | Callable[[sqlite3.Connection], None]

MIGRATIONS: Final[tuple[Migration, ...]] = (
    # 1: accounts and keys, balances, table stacks, tables, the chip ledger, hands.
    f"""
    CREATE TABLE accounts (
        name TEXT PRIMARY KEY,
        registered_at REAL NOT NULL
    );
    CREATE TABLE account_keys (
        name TEXT NOT NULL REFERENCES accounts(name),
        public_key TEXT NOT NULL,
        added_at REAL NOT NULL,
        PRIMARY KEY (name, public_key)
    );
    CREATE TABLE balances (
        name TEXT PRIMARY KEY REFERENCES accounts(name),
        amount INTEGER NOT NULL CHECK (amount >= 0)
    );
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE table_stacks (
        table_id TEXT NOT NULL,
        name TEXT NOT NULL,
        amount INTEGER NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (table_id, name)
    );
    CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        source TEXT NOT NULL CHECK (source {_LOCATION_CHECK}),
        destination TEXT NOT NULL CHECK (destination {_LOCATION_CHECK}),
        player TEXT,
        table_id TEXT,
        hand_id TEXT,
        amount INTEGER NOT NULL CHECK (amount > 0),
        reason TEXT NOT NULL,
        CHECK (source <> destination)
    );
    CREATE INDEX ledger_by_hand ON ledger(hand_id);
    CREATE INDEX ledger_by_player ON ledger(player);
    CREATE TABLE hands (
        id TEXT PRIMARY KEY,
        table_id TEXT NOT NULL,
        number INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'voided')),
        started_at REAL NOT NULL,
        finished_at REAL,
        players TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        events TEXT,
        result TEXT,
        transcript TEXT
    );
    CREATE INDEX hands_by_status ON hands(status);
    CREATE INDEX hands_by_start ON hands(started_at);
    """,
    # 2: chat, hand reports (R-AUDIT-1) and notices shown at a player's next login (R-CRASH-1).
    """
    CREATE TABLE chat (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        sender TEXT NOT NULL,
        table_id TEXT,
        text TEXT NOT NULL
    );
    CREATE TABLE reports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        reporter TEXT NOT NULL,
        hand_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        history TEXT NOT NULL,
        record TEXT NOT NULL
    );
    CREATE TABLE notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        at REAL NOT NULL,
        text TEXT NOT NULL,
        delivered_at REAL
    );
    CREATE INDEX notices_pending ON notices(name, delivered_at);
    """,
    # 3: jackpot pools (R-JACK-1): the pool a jackpot row feeds or pays from (NULL for every other row).
    """
    ALTER TABLE ledger ADD COLUMN pool TEXT
    """,
    # 4: the room's sessions for the settle-up ledger (hosting.settle_up): from open to close, or a night the
    # host names; a session still open has no closed_at.
    """
    CREATE TABLE room_sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        opened_at REAL NOT NULL,
        closed_at REAL
    );
    CREATE INDEX room_sessions_by_name ON room_sessions(name)
    """,
    # 5: a notice may carry a typed control message (JSON, e.g. ``hand_cancelled``) besides its words, so a
    # client acts on the fields, never on the text; NULL for words alone (and for every notice written before).
    """
    ALTER TABLE notices ADD COLUMN message TEXT
    """,
    # 6: tournaments (issue 18): their money in the ledger (new locations: the ledger is rebuilt with the wider
    # check, rows and ids kept) and each tournament's director state (hosting.store.tournaments).
    f"""
    CREATE TABLE ledger_v6 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        source TEXT NOT NULL CHECK (source {_TOURNAMENT_LOCATIONS}),
        destination TEXT NOT NULL CHECK (destination {_TOURNAMENT_LOCATIONS}),
        player TEXT,
        table_id TEXT,
        hand_id TEXT,
        amount INTEGER NOT NULL CHECK (amount > 0),
        reason TEXT NOT NULL,
        pool TEXT,
        CHECK (source <> destination)
    );
    INSERT INTO ledger_v6 (id, at, source, destination, player, table_id, hand_id, amount, reason, pool)
        SELECT id, at, source, destination, player, table_id, hand_id, amount, reason, pool FROM ledger;
    DROP TABLE ledger;
    ALTER TABLE ledger_v6 RENAME TO ledger;
    CREATE INDEX ledger_by_hand ON ledger(hand_id);
    CREATE INDEX ledger_by_player ON ledger(player);
    CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        pool INTEGER NOT NULL,
        fees INTEGER NOT NULL,
        bounties INTEGER NOT NULL,
        state BLOB NOT NULL,
        clock REAL NOT NULL,
        config TEXT NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
    # 7: a ticket's target (issue 18): every row into or out of ``ticket`` names the tournament the ticket enters
    # in ``ticket_for`` (``table_id`` is the tournament the row belongs to: the satellite that awarded it, or the
    # one it paid or was given back by); NULL for every other row.
    """
    ALTER TABLE ledger ADD COLUMN ticket_for TEXT
    """,
    # 8: a tournament's state as what changed (issue 18): ``tournaments.state`` is its director's last snapshot and
    # each step since adds a row of the calls that changed the director (engine.tournament.journal), in order;
    # a snapshot removes the rows it contains. A store of migration 7 has a full state and no rows.
    """
    CREATE TABLE tournament_steps (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id TEXT NOT NULL,
        calls BLOB NOT NULL
    );
    CREATE INDEX tournament_steps_by_tournament ON tournament_steps(tournament_id, id)
    """,
    # 9: a night the host names (issue 27 item 8) spans restarts and crashes until he ends it: ``night`` is 1 for
    # such a session, 0 for a run of the room (opened and closed with it).
    """
    ALTER TABLE room_sessions ADD COLUMN night INTEGER NOT NULL DEFAULT 0
    """,
    # 10: a tournament's stored state is versioned data (issue 28; hosting.tournament_state): the pickles that
    # migrations 6 and 8 held are converted, once, here (hosting.tournament_legacy); nothing reads one again.
    convert_pickled_tournaments,
)

SCHEMA_VERSION: Final = len(MIGRATIONS)
