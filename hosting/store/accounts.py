"""Accounts in the store: names bound to SSH keys, each new account's chips issued in the same transaction
(R-PLAY-1); chat; notices for players (e.g. hands voided by a restart, R-CRASH-1)."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from hosting.identity import KeyStatus, check_name, normalize_key
from hosting.store.ledger import ChipLedger, move
from hosting.store.writer import Written

NEW_ACCOUNT_CHIPS: Final = 1_000  # R-PLAY-1 (a host setting; the room passes its own)


class AccountBook(ChipLedger):
    """Keys per name and undelivered notices in memory; chat written through."""

    def __init__(self, connection: sqlite3.Connection, data_dir: Path, clock: Callable[[], float]) -> None:
        super().__init__(connection, data_dir, clock)
        self._keys: dict[str, set[str]] = {}
        self._notices: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self._notice_messages: dict[int, dict[str, Any]] = {}  # notice id → its typed message (migration 5)

    def _load(self) -> None:
        super()._load()
        keys: dict[str, set[str]] = defaultdict(set)
        for name, key in self.connection.execute("SELECT name, public_key FROM account_keys"):
            keys[name].add(key)
        self._keys = dict(keys)
        for notice_id, name, text, message in self.connection.execute(
                "SELECT id, name, text, message FROM notices WHERE delivered_at IS NULL ORDER BY id"):
            self._notices[name].append((notice_id, text))
            if message is not None:
                self._notice_messages[notice_id] = json.loads(message)

    def keys(self, name: str) -> set[str]:
        """The registered public keys of ``name`` (empty: not registered)."""
        return set(self._keys.get(name, ()))

    def names(self) -> list[str]:
        return sorted(self._keys)

    def has_account(self, name: str) -> bool:
        """Whether ``name`` has an account here (even with its keys reset)."""
        return name in self._balances

    def reset_keys(self, name: str) -> Written:
        """Forget every key of ``name`` (the host's key reset, hosting.admin): the next login with the name
        registers its key (:meth:`StoreAccounts.register`); balance, stacks and history stay. ``KeyError`` for an
        unknown name."""
        if name not in self._balances:
            raise KeyError(f"no account {name!r}")
        self._keys.pop(name, None)
        return self._submit(lambda connection: connection.execute("DELETE FROM account_keys WHERE name = ?",
                                                                  (name,)))

    def keys_reset_taken(self, name: str, public_key: str) -> Written:
        """The first login after the host reset ``name``'s key: ``public_key`` is now its key."""
        self._keys[name] = set()
        return self.add_key(name, public_key)

    def names_with_key(self, public_key: str) -> list[str]:
        """The names ``public_key`` is registered for."""
        return sorted(name for name, keys in self._keys.items() if public_key in keys)

    def register(self, name: str, public_key: str, *, chips: int = NEW_ACCOUNT_CHIPS) -> Written:
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

    def add_key(self, name: str, public_key: str) -> Written:
        """Another key for a registered name (``KeyError`` if it is not registered)."""
        keys = self._keys[name]
        if public_key in keys:
            return None
        keys.add(public_key)
        now = self.clock()
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO account_keys (name, public_key, added_at) VALUES (?, ?, ?)", (name, public_key, now)))

    # --- chat, reports, notices ----------------------------------------------------------------------

    def chat(self, sender: str, table_id: str | None, text: str) -> Written:
        now = self.clock()
        return self._submit(lambda connection: connection.execute(
            "INSERT INTO chat (at, sender, table_id, text) VALUES (?, ?, ?, ?)", (now, sender, table_id, text)))


    def pending_notices(self, name: str) -> list[str]:
        """Notices ``name`` has not seen yet (e.g. hands voided by a restart, R-CRASH-1), oldest first."""
        return [text for _, text in self._notices.get(name, [])]

    def pending_messages(self, name: str) -> list[dict[str, Any]]:
        """The typed control messages of ``name``'s pending notices (e.g. ``hand_cancelled``), oldest first."""
        return [self._notice_messages[notice_id] for notice_id, _ in self._notices.get(name, [])
                if notice_id in self._notice_messages]

    def notices_delivered(self, name: str) -> Written:
        """Mark ``name``'s pending notices as shown."""
        pending = self._notices.pop(name, [])
        if not pending:
            return None
        ids = [notice_id for notice_id, _ in pending]
        for notice_id in ids:
            self._notice_messages.pop(notice_id, None)
        now = self.clock()
        return self._submit(lambda connection: connection.executemany(
            "UPDATE notices SET delivered_at = ? WHERE id = ?", [(now, notice_id) for notice_id in ids]))


class StoreAccounts:
    """:class:`hosting.identity.AccountStore`'s interface (names bound to SSH keys) kept in the store, so that
    a new account and the chips issued to it (R-PLAY-1) are one transaction. ``legacy``: an ``accounts.json``
    from before the store; its accounts are imported once (each with ``chips``), the file is left as it was."""

    def __init__(self, store: AccountBook, *, chips: int = NEW_ACCOUNT_CHIPS, legacy: Path | None = None) -> None:
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

    def status(self, name: str, public_key: str) -> KeyStatus:
        keys = self.store.keys(name)
        if not keys:
            return KeyStatus.NEW_NAME
        return KeyStatus.KNOWN if normalize_key(public_key) in keys else KeyStatus.TAKEN

    def is_registered(self, name: str) -> bool:
        return bool(self.store.keys(name))

    def key_was_reset(self, name: str) -> bool:
        """The host reset ``name``'s key (hosting.admin): an account with no key, waiting for its next login."""
        return self.store.has_account(name) and not self.store.keys(name)

    def register(self, name: str, public_key: str, now: float) -> None:
        """Bind ``name`` to ``public_key`` and issue the new account's chips; ``ValueError`` if the name is bad or
        taken by another key (nothing changed)."""
        problem = check_name(name)
        if problem:
            raise ValueError(problem)
        status = self.status(name, public_key)
        if status is KeyStatus.TAKEN:
            raise ValueError(f"the name {name!r} is registered to another key")
        if status is KeyStatus.NEW_NAME and self.store.has_account(name):  # the host reset its key
            self.store.keys_reset_taken(name, normalize_key(public_key))
        elif status is KeyStatus.NEW_NAME:
            self.store.register(name, normalize_key(public_key), chips=self.chips)

    def names(self) -> Iterator[str]:
        return iter(self.store.names())

    def names_with_key(self, public_key: str) -> list[str]:
        return self.store.names_with_key(normalize_key(public_key))
