"""The host console: what a home game's host does while the room runs (issue 19; README "Hosting a home game").

Who is a host: a name in room.toml's ``hosts`` or one a host made host since, each with a key the host knows —
pinned to the name in room.toml (``allow``), or vouched for once by a host (``make_host`` from the Host screen or
``croupier admin make-host``, kept in the data directory with the key it vouched for); never the first login
that registered the name (issue 25 item 1: a stranger quicker than the host's friend, after a restart) — and the
owner of the machine's room — the account running ``croupier host`` when he plays under his login name with one
of his own SSH keys (``~/.ssh/*.pub`` or ``authorized_keys``). The admin socket (:mod:`hosting.admin_socket`,
``croupier admin``) speaks for the machine's owner and is always a host.

Every action comes as an :class:`~hosting.admin_requests.AdminRequest` (one schema for the wire's ``host``
message and the socket) and returns a JSON-ready reply. Changes to a table that must not touch a running hand
(a level, a stack adjustment, a kick, a pause) wait for the hand's end: :meth:`HostConsole.between_hands`.
Chips stay conserved: an adjustment is chips issued to (or withdrawn from) a stack or balance, one ledger row
with the host's reason, and the player is told.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import getpass
import hashlib
import hmac
import json
import logging
import os
import secrets
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from engine import rake
from engine.errors import InvalidAmount, TableRuleError
from engine.table_events import ChipsReturned
from engine.text import counted
from engine.tournament.events import Credited
from hosting import protocol
from hosting.admin_requests import AdminRefusal, AdminRequest
from hosting.engine_tables import build_engine_table
from hosting.errors import RoomError
from hosting.identity import key_fingerprint, normalize_key
from hosting.removal import remove_everywhere

if TYPE_CHECKING:
    from engine.table import Table
    from engine.table import TableConfig as EngineTableConfig
    from hosting.cash import CashTables
    from hosting.config import TableConfig
    from hosting.pools import PoolOwner
    from hosting.store import Store


NOW_A_HOST = "You are now a host of this room: Ctrl+O opens the Host screen."
"""The notice a player made host reads (the TUI's key for the Host screen, tui.keys)."""


class Session(Protocol):
    """What the console uses of a connection (:class:`hosting.room.Session`)."""

    name: str
    public_key: str
    new_name: bool
    watching: set[str]

    def send(self, message: Mapping[str, Any]) -> None: ...


class TableState(Protocol):
    """What the console uses of a table (:class:`hosting.room.TableState`)."""

    config: TableConfig
    engine: Table
    watchers: set[str]

    @property
    def id(self) -> str: ...


class Tournaments(Protocol):
    """The room's tournaments as the console uses them (:class:`hosting.tournament_desk.TournamentDesk`)."""

    def cancel(self, tournament: str, how: str | None = None) -> list[Any]: ...

    def rows(self) -> list[dict[str, Any]]: ...

    def remove(self, name: str) -> list[str]: ...

    @property
    def owners(self) -> Mapping[str, Any]: ...

    def owner_of(self, table: Any) -> Any: ...


class Room(Protocol):
    """What the console uses of the room (:class:`hosting.room.Room`, which imports this module)."""

    store: Store | None
    tournaments: Tournaments
    room_file_tables: Mapping[str, TableConfig]
    registered_tonight: set[str]
    clock: Callable[[], float]

    @property
    def tables(self) -> Mapping[str, TableState]: ...

    @property
    def sessions(self) -> Mapping[str, Session]: ...

    @property
    def drivers(self) -> Mapping[str, Any]: ...

    def audience(self, table: Any) -> Iterator[Session]: ...

    def seat_player(self, name: str, table: Any, buy_in: int, seat: int | None, now: float) -> int: ...

    def publish_seat_change(self, table: Any, events: list[Any]) -> None: ...

    def publish_level_change(self, table: Any, events: list[Any]) -> None: ...

    def close_session(self, session: Any, reason: str, code: str | None = None) -> None: ...

    def broadcast_table(self, table: Any) -> None: ...

    @property
    def cash(self) -> CashTables: ...

    @property
    def pools(self) -> Mapping[str, PoolOwner]: ...

    def names_with_key(self, public_key: str) -> list[str]: ...

    def pool_of(self, table_id: str) -> PoolOwner | None: ...

    def join_pool(self, name: str, pool: PoolOwner, buy_in: int, now: float) -> dict[str, Any]: ...

STATE_FILE: Final = "host_console.json"
ADMIN: Final = "(console)"
"""The actor of requests from the admin socket, in logs and announcements."""
MAX_SEAT_REQUESTS: Final = 200
security_log = logging.getLogger("croupier.security")
log = logging.getLogger("croupier.room")


@dataclass(frozen=True)
class SeatRequest:
    """A sit waiting for the host (``approve_seats``): the buy-in and seat the player asked for."""

    table: str
    player: str
    buy_in: int
    seat: int | None
    at: float


def owner_keys(home: Path | None = None) -> frozenset[str]:
    """The public keys of the account running the room (its ``~/.ssh/*.pub`` and ``authorized_keys``)."""
    folder = (home or Path.home()) / ".ssh"
    keys: set[str] = set()
    try:
        files = [*folder.glob("*.pub"), folder / "authorized_keys"]
    except OSError:
        return frozenset()
    for path in files:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[:200]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            index = next((index for index, part in enumerate(parts) if part.startswith(("ssh-", "ecdsa-", "sk-"))),
                         None)
            if index is None or _not_a_login(" ".join(parts[:index])):
                continue
            key = " ".join(parts[index:index + 2])
            if key:
                try:
                    keys.add(normalize_key(key))
                except ValueError:
                    continue
    return frozenset(keys)


def _not_a_login(options: str) -> bool:
    """An ``authorized_keys`` line whose options deny its key a shell of his own (a forced command, ``restrict``,
    a certificate authority): whoever holds that key (a backup job, a git server's user) is not the owner."""
    lowered = options.lower()
    return any(word in lowered for word in ("command=", "restrict", "cert-authority"))


LEVEL_KEYS: Final = ("small_blind", "big_blind", "ante", "straddle", "rake", "clock")
"""The settings of a cash table the host's ``level`` changes (and :class:`ConsoleState` keeps)."""


def level_of(config: TableConfig) -> dict[str, Any]:
    """``config``'s level settings (:data:`LEVEL_KEYS`) as JSON."""
    return {"small_blind": config.small_blind, "big_blind": config.big_blind, "ante": config.ante,
            "straddle": config.straddle, "rake": config.rake, "clock": dict(config.clock)}


def level_words(config: TableConfig) -> str:
    """A level as the host's announcement says it: "2/4, ante 1, straddles allowed, rake none"."""
    return f"{config.small_blind}/{config.big_blind}" + (f", ante {config.ante}" if config.ante else "") \
        + (", straddles allowed" if config.straddle else "") + f", rake {config.rake}"


class ConsoleState:
    """What the host set that outlives a restart: hosts he named and the keys he vouched for, bans, spectators,
    chat and mutes per table, the one-time codes of key resets, and each table's level (``levels``: the table's
    id → ``{"room_file": its room.toml level, "level": the host's}``; the host's applies again only while
    room.toml still says what it said then). Kept in ``host_console.json`` (0600, written atomically); ``None``
    path: in memory only."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.hosts: set[str] = set()
        """Names a host made host before keys were kept (version 1 files): hosts by name, as then."""
        self.host_keys: dict[str, set[str]] = {}
        """Host names and the keys a host vouched for (``make_host``): the name is a host with these keys only."""
        self.reset_codes: dict[str, str] = {}
        """Names whose key the host reset → the SHA-256 of the one-time code the next login must give."""
        self.banned_names: dict[str, str] = {}
        self.banned_keys: dict[str, str] = {}
        self.spectators: dict[str, str] = {}
        self.chat_off: set[str] = set()
        self.muted: dict[str, set[str]] = {}
        self.levels: dict[str, dict[str, dict[str, Any]]] = {}
        if path is not None and path.exists():
            self._read(path)

    def _read(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.hosts = set(data.get("hosts", []))
            self.banned_names = dict(data.get("banned_names", {}))
            self.banned_keys = dict(data.get("banned_keys", {}))
            self.spectators = dict(data.get("spectators", {}))
            self.chat_off = set(data.get("chat_off", []))
            self.muted = {table: set(names) for table, names in data.get("muted", {}).items()}
            self.host_keys = {name: set(keys) for name, keys in data.get("host_keys", {}).items()}
            self.reset_codes = {str(name): str(digest) for name, digest in data.get("reset_codes", {}).items()}
            self.levels = {str(table): {"room_file": dict(kept["room_file"]), "level": dict(kept["level"])}
                           for table, kept in data.get("levels", {}).items()}
        except (OSError, ValueError, TypeError, AttributeError) as problem:
            log.error("host console: %s is unreadable (%s): starting with no bans or hosts added", path, problem)

    def save(self) -> None:
        if self.path is None:
            return
        body = {"version": 1, "hosts": sorted(self.hosts),
                "host_keys": {name: sorted(keys) for name, keys in sorted(self.host_keys.items())},
                "reset_codes": dict(sorted(self.reset_codes.items())), "banned_names": self.banned_names,
                "banned_keys": self.banned_keys, "spectators": self.spectators, "chat_off": sorted(self.chat_off),
                "muted": {table: sorted(names) for table, names in self.muted.items() if names},
                "levels": self.levels}
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".host_console-")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(body, file, indent=1, sort_keys=True)
        os.replace(temporary, self.path)


class HostConsole:
    """The host's actions on a :class:`~hosting.room.Room` (see the module's docstring)."""

    def __init__(self, room: Room, *, hosts: Iterable[str] = (), approve_seats: bool = False,
                 data_dir: Path | None = None, owner: str | None = None,
                 owner_keys: frozenset[str] | None = None, pinned: frozenset[str] = frozenset()) -> None:
        self.room = room
        self.config_hosts = frozenset(hosts)
        self.pinned = pinned
        """Names room.toml pins to a key (``allow``): such a name is its key's, registered tonight or not."""
        self.approve_seats = approve_seats
        self.state = ConsoleState(data_dir / STATE_FILE if data_dir is not None else None)
        self.owner = owner if owner is not None else _login_name()
        self._owner_keys = owner_keys
        self.seat_requests: dict[tuple[str, str], SeatRequest] = {}
        self._pending: dict[str, list[Callable[[], None]]] = {}
        self.next_levels: dict[str, TableConfig] = {}  # a cash table's level the host set, until its next hand
        self.on_close: Callable[[], None] | None = None
        """Closes the room (set by ``croupier host``: the same as Ctrl+C); ``close`` calls it after its count."""
        self.closing: asyncio.TimerHandle | None = None
        self.on_change: Callable[[], None] = lambda: None
        """The room's live views may have changed (hosting.live): set by the room."""
        self.on_host_made: Callable[[str], None] = lambda name: None
        """A host made this player one (``make_host``): set by the room (his open Host screen goes live)."""
        self._told_of_host_keys: dict[str, int] = {}
        self.waiting_host_keys: dict[str, dict[str, str]] = {}
        """Host name → fingerprint → key of logins refused under it (a key no host confirmed), newest last, at
        most :data:`WAITING_KEYS_PER_NAME` a name: ``make_host NAME --key FINGERPRINT`` confirms one of them."""

    def restore_levels(self, room_file: Mapping[str, TableConfig]) -> None:
        """At the room's start: each cash table and fast-fold pool plays the level the host last set there
        (``level``), unless room.toml's level for it changed since (the file is newer: the host's is dropped)."""
        for table_id, kept in list(self.state.levels.items()):
            table = self.room.cash.tables.get(table_id)
            pool = self.room.pools.get(table_id)
            original = room_file.get(table_id)
            if (table is None and pool is None) or original is None:
                continue
            if kept["room_file"] != level_of(original):
                log.info("host console: room.toml changed %s's level since the host set it: room.toml's kept",
                         table_id)
                del self.state.levels[table_id]
                continue
            try:
                changed = dataclasses.replace(original if table is None else table.config, **kept["level"])
                engine_config = build_engine_table(changed).config
            except (RoomError, ValueError, TypeError) as problem:
                log.error("host console: the level kept for %s does not fit it (%s): room.toml's kept", table_id,
                          problem)
                continue
            if pool is not None:
                pool.change_level(changed)
            elif table is not None:
                table.engine.reconfigure(engine_config)
                table.config = changed
            log.info("host console: %s plays the host's level, blinds %d/%d", table_id, changed.small_blind,
                     changed.big_blind)

    # --- who is a host ---------------------------------------------------------------------------------

    def hosts(self) -> list[str]:
        return sorted(self.config_hosts | self.state.hosts | set(self.state.host_keys))

    def unconfirmed_hosts(self) -> list[str]:
        """room.toml's host names no key holds yet: none pinned there, none a host vouched for (``make_host``).
        Whoever logs in under one is no host (:meth:`_vouched`) until a host confirms his key. The room's own user
        is confirmed by his own SSH keys (:meth:`is_host`)."""
        return sorted(name for name in self.config_hosts if name not in self.state.hosts and name != self.owner
                      and name not in self.pinned and not self.state.host_keys.get(name))

    def is_host(self, name: str, public_key: str | None = None) -> bool:
        """Whether ``name`` holding ``public_key`` (``None``: whatever key holds the name now) is a host."""
        if name in self.state.hosts or self._vouched(name, public_key):
            return True
        if public_key is None or name != self.owner:
            return False
        if self._owner_keys is None:
            self._owner_keys = owner_keys()
        try:
            return normalize_key(public_key) in self._owner_keys
        except ValueError:
            return False

    def _vouched(self, name: str, public_key: str | None) -> bool:
        """A host's name holding a key the host knows: pinned to it in room.toml (the room lets no other key use
        the name), or a key a host vouched for (``make_host``). Being the first to register a room.toml host's
        name is not enough, tonight or after a restart (issue 25 item 1)."""
        if name in self.config_hosts and name in self.pinned:
            return True
        vouched = self.state.host_keys.get(name)
        if not vouched:
            return False
        return bool(vouched & self._keys_of(name, public_key))

    def _keys_of(self, name: str, public_key: str | None) -> set[str]:
        """``public_key`` normalised; without one, the keys that hold ``name`` now (its connection's, the store's)."""
        keys: list[str] = [public_key] if public_key is not None else []
        if public_key is None:
            session = self.room.sessions.get(name)
            if session is not None:
                keys.append(session.public_key)
            elif self.room.store is not None:
                keys += self.room.store.keys(name)
        normalized: set[str] = set()
        for key in keys:
            try:
                normalized.add(normalize_key(key))
            except ValueError:
                continue
        return normalized

    def vouch(self, name: str, keys: Iterable[str]) -> None:
        """``name`` is a host with ``keys`` (kept across restarts)."""
        self.state.host_keys[name] = {normalize_key(key) for key in keys}
        self.state.hosts.discard(name)
        self.state.save()

    def host_key_refused(self, name: str, public_key: str) -> None:
        """A login as host name ``name`` was refused: its key had no host's word. Kept (bounded) for make_host
        ``--key``; the hosts are told of each new key, the first :data:`WAITING_KEYS_PER_NAME` of them."""
        try:
            key = normalize_key(public_key)
        except ValueError:
            return
        fingerprint = key_fingerprint(key)
        waiting = self.waiting_host_keys.setdefault(name, {})
        if fingerprint in waiting:
            return  # asked at the key check, the channel and the gates: told once
        if len(waiting) >= WAITING_KEYS_PER_NAME:
            del waiting[next(iter(waiting))]
        waiting[fingerprint] = key
        self._told_of_host_keys[name] = told = self._told_of_host_keys.get(name, 0) + 1
        security_log.warning("refused a login as host name %s: key %s is not confirmed by a host (make-host %s "
                             "--key %s confirms it)", name, fingerprint, name, fingerprint)
        if told <= WAITING_KEYS_PER_NAME:  # a stranger with fresh keys does not flood the host's screen
            self._tell_hosts(protocol.message("notice", text=f"Someone tried to log in as {name} (a host name) with "
                                                             f"key {fingerprint}, refused. If that is {name}, run "
                                                             f"make-host {name} --key {fingerprint}."))

    def remember_pinned_host(self, session: Session) -> None:
        """A room.toml host's name logged in with the key room.toml pins to it (the room lets no other key use a
        pinned name): the host's own word for that key, kept as a make_host would keep it, so taking the
        ``allow`` line out later (to open the room to bots or new friends) does not take the Host screen away."""
        if session.name not in self.config_hosts or session.name not in self.pinned:
            return
        try:
            key = normalize_key(session.public_key)
        except ValueError:
            return
        keys = self.state.host_keys.setdefault(session.name, set())
        if key not in keys:
            keys.add(key)
            self.state.save()

    def unconfirmed_host(self, session: Session) -> bool:
        """A room.toml host's name logged in with a key no host vouched for yet (the host is told and asked)."""
        return session.name in self.config_hosts and not self.is_host(session.name, session.public_key)

    def ask_to_vouch(self, session: Session) -> None:
        """Tell a room.toml host's name without a vouched key, and the hosts, how the host confirms it."""
        fingerprint = key_fingerprint(session.public_key)
        security_log.warning("a room.toml host name logged in with a key no host vouched for: %s key %s (no host "
                             "powers until a host runs make-host %s)", session.name, fingerprint, session.name)
        session.send(protocol.message("notice", text=f"{session.name} is on this room's host list, but the host "
                                                     f"has not confirmed your key ({fingerprint}) yet: ask him to "
                                                     f"run make-host {session.name} --key {fingerprint}."))
        self._tell_hosts(protocol.message("notice", text=f"{session.name} (on the host list) logged in with key "
                                                         f"{fingerprint}: if that is your friend, run make-host "
                                                         f"{session.name} --key {fingerprint}."))

    # --- checks the room asks --------------------------------------------------------------------------

    def ban_reason(self, name: str, public_key: str) -> str | None:
        """Why ``name``/``public_key`` may not log in (banned), else ``None``."""
        if name in self.state.banned_names:
            return "the host banned this name from the room"
        try:
            key = normalize_key(public_key)
        except ValueError:
            return None
        if key in self.state.banned_keys:
            return "the host banned this key from the room"
        return self._banned_twin(name, key)

    def _banned_twin(self, name: str, key: str) -> str | None:
        """A ban of a name reaches every name of its keys: the player behind it, not one of his names (a second
        name of the same key, or a new one, walked straight back in). A host's own name is never refused so."""
        if not self.state.banned_names or self.is_host(name, key):
            return None
        banned = [other for other in self.room.names_with_key(key) if other in self.state.banned_names]
        return f"the host banned {banned[0]}, a name of this key, from the room" if banned else None

    def _scopes(self, table_id: str) -> list[str]:
        """Where the host's watcher, chat and mute settings for ``table_id`` may be kept: the table's own id,
        and its pool's or tournament's (set once for all of their tables, which come and go)."""
        group = self._group_of(table_id)
        return [table_id] if group is None or group[0] == table_id else [table_id, group[0]]

    def _group_of(self, table_id: str) -> tuple[str, list[TableState]] | None:
        """The pool or tournament ``table_id`` names (its id, or one of its tables) and its tables now."""
        pool = self.room.pool_of(table_id)
        if pool is not None:
            return pool.id, list(pool.tables.values())
        tournaments = self.room.tournaments
        table = self.room.tables.get(table_id)
        owner = tournaments.owners.get(table_id) if table is None else tournaments.owner_of(table)
        if owner is None:
            return None
        return owner.id, [table for table in self.room.tables.values() if tournaments.owner_of(table) is owner]

    def may_watch(self, session: Session, table_id: str) -> str | None:
        """Why ``session`` may not watch ``table_id`` (``spectators``), else ``None``. Players seated there and
        hosts always may."""
        who = next((self.state.spectators[scope] for scope in self._scopes(table_id)
                    if scope in self.state.spectators), "everyone")
        table = self.room.tables[table_id]
        if who == "everyone" or table.engine.seat_of(session.name) is not None \
                or self.is_host(session.name, session.public_key):
            return None
        if who == "registered" and not session.new_name and self._registered_before(session.name):
            return None
        return ("the host lets nobody watch this table: sit down to see it" if who == "nobody"
                else "the host lets only registered players watch this table")

    def _registered_before(self, name: str) -> bool:
        """A regular: his name was registered before this run of the room (not a name made tonight)."""
        return name not in self.room.registered_tonight

    def may_chat(self, name: str, table_id: str | None, public_key: str | None = None) -> str | None:
        """Why ``name`` (holding ``public_key``) may not chat at ``table_id``, else ``None``. A mute reaches every
        name of the muted name's key: a second name is the same player."""
        if table_id is None:
            return None
        scopes = self._scopes(table_id)
        if any(scope in self.state.chat_off for scope in scopes) and not self.is_host(name):
            return "the host turned chat off at this table"
        muted = set().union(*(self.state.muted.get(scope, set()) for scope in scopes))
        if name in muted:
            return "the host muted you at this table"
        if muted and public_key is not None and not self.is_host(name, public_key) \
                and muted.intersection(self.room.names_with_key(public_key)):
            return "the host muted you (another of your names) at this table"
        return None

    # --- seat requests ---------------------------------------------------------------------------------

    def wants_approval(self, session: Session) -> bool:
        return self.approve_seats and not self.is_host(session.name, session.public_key)

    def request_seat(self, session: Session, table_id: str, buy_in: int, seat: int | None, now: float) -> None:
        if len(self.seat_requests) >= MAX_SEAT_REQUESTS and (table_id, session.name) not in self.seat_requests:
            raise AdminRefusal("too_many_requests", "the host has too many seat requests waiting: try later")
        self.seat_requests[(table_id, session.name)] = SeatRequest(table_id, session.name, buy_in, seat, now)
        session.send(protocol.ack("sit", table=table_id, pending=True, text="waiting for the host"))
        self._tell_hosts(protocol.message("seat_request", table=table_id, player=session.name, buy_in=buy_in))
        self.on_change()
        log.info("seat request: %s at %s for %d chips (waiting for the host)", session.name, table_id, buy_in)

    def forget_requests(self, name: str) -> None:
        for key in [key for key in self.seat_requests if key[1] == name]:
            del self.seat_requests[key]

    def _tell_hosts(self, message: dict[str, Any]) -> None:
        for session in list(self.room.sessions.values()):
            if self.is_host(session.name, session.public_key):
                session.send(message)

    # --- between hands ---------------------------------------------------------------------------------

    def between_hands(self, table_id: str) -> None:
        """The table's runner is between hands: apply what waited for the hand to end (in order)."""
        for change in self._pending.pop(table_id, []):
            try:
                change()
            except Exception:  # one failed change must not stop the table
                log.exception("host console: a change waiting for the end of a hand at %s failed", table_id)

    @property
    def paused(self) -> set[str]:
        """The paused tables: their owner keeps them (:class:`hosting.cash.CashTables`), the runner asks it."""
        return self.room.cash.paused

    def is_paused(self, table_id: str) -> bool:
        return table_id in self.paused

    def _at_break(self, table: TableState, change: Callable[[], None]) -> str:
        """Run ``change`` now if no hand runs at ``table``, else after the hand; says which."""
        if not table.engine.hand_running:
            change()
            return "now"
        self._pending.setdefault(table.config.id, []).append(change)
        return "after this hand"

    # --- the actions -----------------------------------------------------------------------------------

    def perform(self, actor: str, request: AdminRequest, now: float) -> dict[str, Any]:
        """Do ``request`` for host ``actor``; the reply's fields. :class:`AdminRefusal` when it cannot be done
        (nothing changed)."""
        handler = getattr(self, f"_do_{request.action}")
        reply: dict[str, Any] = handler(request, now)
        self.on_change()
        if request.action != "status":
            log.info("host %s: %s %s -> %s", actor, request.action, dict(request.fields), reply.get("text", ""))
        return reply

    def _table(self, table_id: str) -> TableState:
        """A cash table of the room (a tournament's tables are its director's, not the host console's)."""
        table = self.room.tables.get(table_id)
        if table is None:
            raise AdminRefusal("no_such_table", f"there is no table {table_id!r}")
        if table_id not in self.room.cash.tables:
            raise AdminRefusal("not_cash", f"{table_id} is a tournament's table: its director runs it")
        return table

    def _do_status(self, request: AdminRequest, now: float) -> dict[str, Any]:
        tables = []
        for table_id, table in self.room.cash.tables.items():  # a tournament's tables are its director's
            config = self.next_levels.get(table_id, table.config)  # the host's new level shown at once
            tables.append({
                "level_next_hand": table_id in self.next_levels,
                "id": table_id, "name": config.name, "paused": table_id in self.paused,
                "stakes": [config.small_blind, config.big_blind], "ante": config.ante, "straddle": config.straddle,
                "rake": config.rake, "clock": dict(config.clock), "hand_running": table.engine.hand_running,
                "players": [{"name": seated.player, "stack": seated.stack}
                            for _, seated in sorted(table.engine.players.items())],
                "spectators": self.state.spectators.get(table_id, "everyone"),
                "chat": table_id not in self.state.chat_off,
                "muted": sorted(self.state.muted.get(table_id, set()))})
        return {"text": f"{len(tables)} tables, {len(self.seat_requests)} seat requests", "tables": tables,
                "seat_requests": [dataclasses.asdict(item) for item in self.seat_requests.values()],
                "hosts": self.hosts(), "unconfirmed_hosts": self.unconfirmed_hosts(),
                "banned": sorted(self.state.banned_names),
                "banned_keys": len(self.state.banned_keys), "online": sorted(self.room.sessions),
                "approve_seats": self.approve_seats,
                "pools": [{**pool.summary(now), "members": sorted(pool.pool.players)}
                          for pool in self.room.pools.values()],
                "tournaments": self.room.tournaments.rows()}

    def _do_approve(self, request: AdminRequest, now: float) -> dict[str, Any]:
        key = (request.get("table"), request.get("player"))
        wanted = self.seat_requests.get(key)
        if wanted is None:
            raise AdminRefusal("no_request", f"{key[1]} has no seat request at {key[0]}")
        stack = request.get("stack", wanted.buy_in)
        pool = self.room.pool_of(wanted.table)
        if pool is not None:  # a fast-fold pool: he joins it, and is dealt each hand at one of its tables
            try:
                self.room.join_pool(wanted.player, pool, stack, now)
            except RoomError as refusal:
                raise AdminRefusal(refusal.code, f"{wanted.player} cannot join: {refusal}") from None
            del self.seat_requests[key]
            self._send(wanted.player, protocol.message("seat_approved", table=pool.id, stack=stack, pool=True))
            return {"text": f"{wanted.player} joins pool {pool.id} with {stack} chips"}
        table = self._table(wanted.table)
        try:
            seat = self.room.seat_player(wanted.player, table, stack, wanted.seat, now)
        except RoomError as refusal:
            raise AdminRefusal(refusal.code, f"{wanted.player} cannot sit: {refusal}") from None
        del self.seat_requests[key]
        self._send(wanted.player, protocol.message("seat_approved", table=wanted.table, seat=seat, stack=stack))
        return {"text": f"{wanted.player} sits at {wanted.table} seat {seat + 1} with {stack} chips"}

    def _do_deny(self, request: AdminRequest, now: float) -> dict[str, Any]:
        key = (request.get("table"), request.get("player"))
        if self.seat_requests.pop(key, None) is None:
            raise AdminRefusal("no_request", f"{key[1]} has no seat request at {key[0]}")
        reason = request.get("reason") or "the host said no"
        self._send(key[1], protocol.message("seat_denied", table=key[0], reason=reason))
        return {"text": f"{key[1]}'s seat request at {key[0]} denied"}

    def _do_pause(self, request: AdminRequest, now: float) -> dict[str, Any]:
        pool = self.room.pools.get(request.get("table"))
        if pool is not None:  # a fast-fold pool: its hands in play finish, no new one is dealt
            pool.pause()
            self._tell_pool(pool, f"The host paused {pool.config.table.name}: no new hand until he resumes it; "
                                  "you keep your chips in the pool.")
            return {"text": f"{pool.id} paused (its hands in play finish)"}
        table = self._table(request.get("table"))
        self.room.cash.pause(table.config.id)
        when = "after this hand" if table.engine.hand_running else "now"
        self._announce(table, f"The host paused the table ({when}).")
        return {"text": f"{table.config.id} paused {when}"}

    def _do_resume(self, request: AdminRequest, now: float) -> dict[str, Any]:
        pool = self.room.pools.get(request.get("table"))
        if pool is not None:
            pool.resume()
            self._tell_pool(pool, f"The host resumed {pool.config.table.name}.")
            return {"text": f"{pool.id} resumed"}
        table = self._table(request.get("table"))
        self.room.cash.resume(table.config.id)  # wakes its runner
        self._announce(table, "The host resumed the table.")
        return {"text": f"{table.config.id} resumed"}

    def _do_pause_all(self, request: AdminRequest, now: float) -> dict[str, Any]:
        places = [*self.room.cash.tables, *self.room.pools]
        for place in places:
            self._do_pause(AdminRequest("pause", {"table": place}), now)
        return {"text": f"paused: {self._counted_places()}"}

    def _do_resume_all(self, request: AdminRequest, now: float) -> dict[str, Any]:
        for place in [*self.room.cash.tables, *self.room.pools]:
            self._do_resume(AdminRequest("resume", {"table": place}), now)
        return {"text": f"resumed: {self._counted_places()}"}

    def _counted_places(self) -> str:
        """"2 tables and 1 fast-fold pool": what pause-all and resume-all reach."""
        pools = len(self.room.pools)
        return counted(len(self.room.cash.tables), "table") + (f" and {counted(pools, 'fast-fold pool')}" if pools
                                                                else "")

    def _tell_pool(self, pool: PoolOwner, text: str) -> None:
        message = protocol.message("notice", table=pool.id, text=text)
        for name in pool.members():
            self._send(name, message)

    def _do_level(self, request: AdminRequest, now: float) -> dict[str, Any]:
        pool = self.room.pools.get(request.get("table"))
        if pool is not None:  # a fast-fold pool: in its lobby row at once, from each of its tables' next hand
            changed, _ = self._level(pool.config.table, request)
            pool.change_level(changed)
            self._keep_level(changed)
            text = (f"The host changed {pool.config.table.name or pool.id} from each table's next hand: blinds "
                    f"{level_words(changed)}.")
            self._tell_pool(pool, text)
            return {"text": text}
        table = self._table(request.get("table"))
        changed, engine_config = self._level(table.config, request)

        def apply() -> None:
            table.config = changed
            if self.next_levels.get(table.config.id) is changed:
                del self.next_levels[table.config.id]
            self._keep_level(changed)
            # clocks, straddles, rake and the level from the next hand; the typed level_changed event to the
            # table (control data for clients; the notice is for people)
            self.room.publish_level_change(table, table.engine.reconfigure(engine_config))

        self.next_levels[table.config.id] = changed  # the Host screen's status shows it at once
        self._at_break(table, apply)
        text = f"The host changed the table from the next hand: blinds {level_words(changed)}."
        self._announce(table, text)
        return {"text": text.replace("the table", table.config.id, 1)}

    def _keep_level(self, changed: TableConfig) -> None:
        """The host's level of a table or pool of room.toml, kept for the room's next start (restore_levels)."""
        original = self.room.room_file_tables.get(changed.id)
        if original is not None:
            self.state.levels[changed.id] = {"room_file": level_of(original), "level": level_of(changed)}
            self.state.save()

    def _level(self, config: TableConfig, request: AdminRequest) -> tuple[TableConfig, EngineTableConfig]:
        """``config`` at the level ``request`` asks, and its engine's config; :class:`AdminRefusal` if it cannot
        be played (nothing changed)."""
        if config.mixed is not None:
            raise AdminRefusal("bad_level", f"{config.id} is a mixed table: each of its games has its stakes "
                                            "in room.toml (games = …); pick its game with `game`")
        clock = dict(config.clock)
        for name in ("action_seconds", "time_bank_seconds"):
            if request.get(name) is not None:
                clock[name] = float(request.get(name))
        rake_name = request.get("rake", config.rake)
        if rake_name not in ("none", *rake.TABLES, *rake.PRESETS):  # as room.toml's rake (`croupier rake`)
            raise AdminRefusal("bad_level", f"there is no rake {rake_name!r}: `croupier rake` lists them, or none")
        small = request.get("small_blind", config.small_blind)
        big = request.get("big_blind", config.big_blind)
        if small > big:
            raise AdminRefusal("bad_level", f"the small blind ({small}) is above the big blind ({big})")
        changed = dataclasses.replace(config, small_blind=small, big_blind=big, ante=request.get("ante", config.ante),
                                      straddle=request.get("straddle", config.straddle),
                                      rake=request.get("rake", config.rake), clock=clock)
        try:
            return changed, build_engine_table(changed).config  # refused here, before the table is touched
        except RoomError as refusal:
            raise AdminRefusal("bad_level", str(refusal)) from None

    def _do_game(self, request: AdminRequest, now: float) -> dict[str, Any]:
        """A mixed table's next game (R-MIX-2): dealt from the next hand, announced at the table."""
        table = self._table(request.get("table"))
        try:
            name = self.room.cash.mixed.pick(self.room.cash.tables[table.config.id], request.get("game"), "the host",
                                             host=True)
        except RoomError as refusal:
            raise AdminRefusal(refusal.code, str(refusal)) from None
        when = "after this hand" if table.engine.hand_running else "now"
        return {"text": f"{table.config.id} deals {name} from the next hand ({when})"}

    def _do_adjust_stack(self, request: AdminRequest, now: float) -> dict[str, Any]:
        table = self._table(request.get("table"))
        name, amount, reason = request.get("player"), request.get("amount"), request.get("reason")
        seat = table.engine.seat_of(name)
        if seat is None:
            raise AdminRefusal("not_seated", f"{name} has no seat at {table.config.id}")
        stack = table.engine.players[seat].stack
        if amount < 0 and stack + amount < 0 and not table.engine.hand_running:
            raise AdminRefusal("bad_amount", f"{name} has {stack} chips there, not {-amount}")
        # during a hand his stack after it is not known yet, but never more than every chip at the table: a
        # typed -5000 for -50 is refused now, not carried out as "all he has" once the hand ends
        at_most = sum(seated.stack for seated in table.engine.players.values())
        if amount < 0 and -amount > at_most:
            raise AdminRefusal("bad_amount", f"{name} has {stack} chips at {table.config.id} and cannot have more "
                                             f"than {at_most} after this hand (every chip there): not {-amount}")

        def apply() -> None:
            seated = table.engine.players.get(seat)
            if seated is None or seated.player != name:
                return  # he left meanwhile: nothing to adjust
            change = max(amount, -seated.stack)
            if change != amount:  # he lost chips in the hand: the hosts read what was taken, not what they asked
                self._tell_hosts(protocol.message(
                    "notice", text=f"{name} had only {seated.stack} chips at {table.config.id} after the hand: "
                                   f"{-change} taken, not {-amount}."))
            seated.stack += change
            if self.room.store is not None:
                self.room.store.adjust_stack(table.config.id, name, change, reason)
            self._send(name, protocol.message("notice", table=table.config.id,
                                              text=f"The host {_verb(change)} your stack at {table.config.id}: "
                                                   f"{reason}. Stack now {seated.stack}."))
            self.room.broadcast_table(table)

        when = self._at_break(table, apply)
        return {"text": f"{name}'s stack at {table.config.id}: {amount:+d} chips, {when}"}

    def _do_adjust_balance(self, request: AdminRequest, now: float) -> dict[str, Any]:
        store = self.room.store
        name, amount, reason = request.get("player"), request.get("amount"), request.get("reason")
        if store is None:
            raise AdminRefusal("no_bank", "this room keeps no balances")
        if not store.has_account(name):
            raise AdminRefusal("no_such_player", f"there is no player {name!r}")
        if store.balance(name) + amount < 0:
            raise AdminRefusal("bad_amount", f"{name} has {store.balance(name)} chips in the bank, not {-amount}")
        store.adjust_balance(name, amount, reason)
        self._send(name, protocol.balance(store.balance(name), "host"))
        self._send(name, protocol.message("notice", text=f"The host {_verb(amount)} your bank: {reason}. "
                                                         f"Balance now {store.balance(name)}."))
        return {"text": f"{name}'s bank: {amount:+d} chips, now {store.balance(name)}"}

    def _do_kick(self, request: AdminRequest, now: float, reason: str | None = None) -> dict[str, Any]:
        """Off every table, pool, tournament not started, waiting list, seat request and watcher list
        (:mod:`hosting.removal`); the connection closes once his hands at cash tables have ended."""
        name = request.get("player")
        reason = reason or request.get("reason") or "removed by the host"
        places, tables = self._remove(name, at_once=False)
        session = self.room.sessions.get(name)
        if not tables and not places and session is None:
            raise AdminRefusal("not_here", f"{name} is neither seated nor connected")
        if session is not None:  # closed once his last hand ends, his chips back in his bank first
            self._after_all(tables, lambda: self._close(name, reason))
        security_log.warning("host kicked %s: %s", name, reason)
        return {"text": f"{name} kicked ({reason}); chips back to the bank"}

    def _remove(self, name: str, *, at_once: bool) -> tuple[list[str], list[TableState]]:
        """``name`` out of every place (:mod:`hosting.removal`); his cash seats freed after the hand in play
        (``at_once``: a live hand of his folded now, the seat freed when it ends). The places and the cash tables
        whose hand he is waited for."""
        self.forget_requests(name)
        places = remove_everywhere(name, tables=list(self.room.tables.values()), pools=self.room.pools.values(),
                                   tournaments=self.room.tournaments, session=self.room.sessions.get(name),
                                   publish=self.room.publish_seat_change)
        tables: list[TableState] = [table for table in self.room.cash.tables.values()
                                    if table.engine.seat_of(name) is not None]
        for table in tables:
            if at_once and table.engine.hand_running:
                self._leave_now(table, name)
            else:
                self._at_break(table, functools.partial(self._unseat, table, name))
        return places + [table.config.id for table in tables], tables

    def _leave_now(self, table: TableState, name: str) -> None:
        """A live hand of ``name`` folded now; his seat (and stack, to his balance) freed when the hand ends. He
        is told the chips that go back (``table_left``) now, before a ban's bye: he no longer hears the table,
        and his result would say them still on it. Not when they are not sure yet (all in: a pot may be his)."""
        try:
            events = table.engine.leave(name, self.room.clock())
        except (TableRuleError, InvalidAmount):
            return
        self.room.publish_seat_change(table, events)
        if table.engine.seat_of(name) is None:  # his fold ended the hand: his seat is freed already
            chips: int | None = sum(event.amount for event in events
                                    if isinstance(event, ChipsReturned) and event.player == name)
        else:
            chips = table.engine.stack_after_hand(name)
        if chips is not None:
            self._send(name, protocol.message("table_left", table=table.config.id, chips=chips))

    def _unseat(self, table: TableState, name: str) -> None:
        if table.engine.seat_of(name) is None:
            return
        try:
            events = table.engine.leave(name, self.room.clock())
        except (TableRuleError, InvalidAmount):
            return
        self.room.publish_seat_change(table, events)
        returned = sum(event.amount for event in events if isinstance(event, ChipsReturned))
        # he no longer hears the table (off its seats and watchers): told himself, before a kick's bye
        self._send(name, protocol.message("table_left", table=table.config.id, chips=returned))
        log.info("host removed %s from %s, %d chips back to the bank", name, table.config.id, returned)

    def _after_all(self, tables: list[TableState], done: Callable[[], None]) -> None:
        """``done`` once every table of ``tables`` has let its hand end (at once if none runs)."""
        waiting = {table.config.id for table in tables if table.engine.hand_running}
        if not waiting:
            done()
            return
        left = set(waiting)

        def one(table_id: str) -> None:
            left.discard(table_id)
            if not left:
                done()

        for table_id in waiting:
            self._pending.setdefault(table_id, []).append(functools.partial(one, table_id))

    def _close(self, name: str, reason: str) -> None:
        session = self.room.sessions.get(name)
        if session is not None:
            self.room.close_session(session, reason, protocol.KICKED)

    def _do_ban(self, request: AdminRequest, now: float) -> dict[str, Any]:
        """The name (or every name of the key) is refused at login from now on, its connection ends at once and
        it is taken out of every place (:mod:`hosting.removal`): a live hand folded, chips back to the bank."""
        reason = request.get("reason") or "banned by the host"
        name, key = request.get("player"), request.get("key")
        if name is not None:
            if self.is_host(name):
                raise AdminRefusal("is_host", f"{name} is a host: a host cannot be banned")
            self.state.banned_names[name] = reason
            targets = [name, *sorted(session.name for session in self.room.sessions.values()  # his other names
                                     if session.name != name and not self.is_host(session.name, session.public_key)
                                     and name in self.room.names_with_key(session.public_key))]
        else:
            self.state.banned_keys[key] = reason
            targets = sorted({session.name for session in self.room.sessions.values() if _same_key(session, key)}
                             | set(self.room.names_with_key(key)))
        self.state.save()
        removed = []
        for target in targets:
            session = self.room.sessions.get(target)
            places, _ = self._remove(target, at_once=True)
            if session is not None:
                self.room.close_session(session, reason, protocol.BANNED)
            if places or session is not None:
                removed.append(target)
        security_log.warning("host banned %s: %s", name or "a key", reason)
        return {"text": f"banned {name or 'that key'}" + (f" ({', '.join(removed)} removed)" if removed else "")}

    def _do_unban(self, request: AdminRequest, now: float) -> dict[str, Any]:
        name, key = request.get("player"), request.get("key")
        removed = self.state.banned_names.pop(name, None) if name else self.state.banned_keys.pop(key, None)
        if removed is None:
            raise AdminRefusal("not_banned", f"{name or 'that key'} is not banned")
        self.state.save()
        return {"text": f"unbanned {name or 'that key'}"}

    def _do_reset_key(self, request: AdminRequest, now: float) -> dict[str, Any]:
        """Forget the name's keys and issue a one-time code for its owner: the next login with the name must give
        it (where the room asks for an invite code), on top of the room's password (issue 25 item 5: the first
        login after a reset took the account, chips and all)."""
        name = request.get("player")
        if not request.get("confirm"):
            raise AdminRefusal("not_confirmed", f"resetting {name}'s key needs confirm: the next login with the "
                                                "name and the code it gives takes it")
        store = self.room.store
        if store is None or not store.has_account(name):
            raise AdminRefusal("no_such_player", f"there is no player {name!r}")
        code = new_reset_code()
        self.state.reset_codes[name] = _digest(code)
        self.state.host_keys.pop(name, None)  # a host's new key is confirmed again (make_host)
        self.state.save()
        store.reset_keys(name)
        session = self.room.sessions.get(name)
        if session is not None:  # the old key no longer holds the name
            self.room.close_session(session, "the host reset this name's key")
        security_log.warning("host reset the key of %s: the next login with the name and the code given to the "
                             "host registers its key", name)
        return {"text": f"{name}'s key reset. Give {name} this one-time code: {code} — his next login as {name} "
                        f"types it where the room asks for an invite code, and registers the key it brings",
                "code": code}

    def reset_code_matches(self, name: str, code: str) -> bool:
        """Whether ``code`` is the one-time code of the host's last key reset of ``name``."""
        expected = self.state.reset_codes.get(name)
        return expected is not None and hmac.compare_digest(expected, _digest(code))

    def reset_code_used(self, name: str) -> None:
        """``name``'s owner came back with the code: it is spent."""
        if self.state.reset_codes.pop(name, None) is not None:
            self.state.save()

    def _do_make_host(self, request: AdminRequest, now: float) -> dict[str, Any]:
        """The host vouches for the key that holds the name now (a room.toml host's first login included): the
        name is a host with that key only, kept across restarts."""
        name = request.get("player")
        fingerprint = request.get("key")
        if fingerprint is not None:
            return self._confirm_host_key(name, fingerprint)
        store = self.room.store
        if store is not None and not store.has_account(name):  # else the first stranger to register it is host
            waiting = ", ".join(self.waiting_host_keys.get(name, {}))
            if waiting:
                raise AdminRefusal("no_such_player", f"{name} has not registered yet: logins as {name} were refused "
                                                     f"with keys {waiting}; confirm his with make-host {name} --key "
                                                     f"FINGERPRINT")
            raise AdminRefusal("no_such_player", f"there is no player {name!r}: make him host once he has logged in")
        keys = self._keys_of(name, None)
        if not keys:
            raise AdminRefusal("no_key", f"{name} holds no key now (reset): make him host once he has logged in")
        self.vouch(name, keys)
        self._send(name, protocol.message("notice", text=NOW_A_HOST))
        self.on_host_made(name)
        return {"text": f"{name} is now a host"}

    def _confirm_host_key(self, name: str, fingerprint: str) -> dict[str, Any]:
        """The host confirms the key with ``fingerprint`` for ``name``: one a refused login under the name showed
        (his first login), or one that holds the name now. The name is a host with that key only."""
        key = self.waiting_host_keys.get(name, {}).get(fingerprint)
        if key is None:
            key = next((held for held in self._keys_of(name, None) if key_fingerprint(held) == fingerprint), None)
        if key is None:
            raise AdminRefusal("no_such_key", f"no login as {name} showed key {fingerprint}: ask him to log in "
                                              f"and read you the key his refusal shows")
        self.vouch(name, {key})
        self.waiting_host_keys.get(name, {}).pop(fingerprint, None)
        self._send(name, protocol.message("notice", text=NOW_A_HOST))
        self.on_host_made(name)
        return {"text": f"{name} is now a host with key {fingerprint}"
                        + ("" if name in self.room.sessions else ": his next login with it comes in")}

    def _do_close(self, request: AdminRequest, now: float) -> dict[str, Any]:
        seconds, message = request.get("seconds"), request.get("message")
        for session in list(self.room.sessions.values()):
            session.send(protocol.message("room_closing", text=message, seconds=seconds))
            session.send(protocol.message("notice", text=f"The room closes in {seconds} s: {message}"))
        if self.closing is not None:
            self.closing.cancel()
        if self.on_close is not None:
            self.closing = asyncio.get_running_loop().call_later(seconds, self.on_close)
        return {"text": f"the room closes in {seconds} s"}

    def _moderated(self, table_id: str) -> tuple[str, list[TableState]]:
        """Where a watcher, chat or mute setting goes: a cash table, or a whole pool or tournament (named by its
        id or any of its tables: a pool deals each hand at another table, a tournament moves its players);
        the id it is kept under and the tables it reaches now."""
        group = self._group_of(table_id)
        if group is not None:
            return group
        return table_id, [self._table(table_id)]

    def _do_spectators(self, request: AdminRequest, now: float) -> dict[str, Any]:
        scope, tables = self._moderated(request.get("table"))
        who = request.get("who")
        self.state.spectators[scope] = who
        self.state.save()
        for table in tables:
            for name in list(table.watchers):
                session = self.room.sessions.get(name)
                if session is not None and self.may_watch(session, table.config.id) is not None:
                    table.watchers.discard(name)
                    session.watching.discard(table.config.id)
                    session.send(protocol.message("notice", table=table.config.id,
                                                  text=f"The host closed {table.config.id} to watchers."))
            self._announce(table, f"Watchers at this table: {who}.")
        return {"text": f"{scope}: watchers {who}"}

    def _do_chat(self, request: AdminRequest, now: float) -> dict[str, Any]:
        scope, tables = self._moderated(request.get("table"))
        on = request.get("on")
        (self.state.chat_off.discard if on else self.state.chat_off.add)(scope)
        self.state.save()
        for table in tables:
            self._announce(table, f"The host turned chat {'on' if on else 'off'} at this table.")
        return {"text": f"{scope}: chat {'on' if on else 'off'}"}

    def _do_mute(self, request: AdminRequest, now: float) -> dict[str, Any]:
        scope, _ = self._moderated(request.get("table"))
        name, on = request.get("player"), request.get("on")
        muted = self.state.muted.setdefault(scope, set())
        (muted.add if on else muted.discard)(name)
        self.state.save()
        self._send(name, protocol.message("notice", table=scope,
                                          text=f"The host {'muted' if on else 'unmuted'} you at {scope}."))
        return {"text": f"{name} {'muted' if on else 'unmuted'} at {scope}"}

    def _do_night(self, request: AdminRequest, now: float) -> dict[str, Any]:
        store = self.room.store
        if store is None:
            raise AdminRefusal("no_bank", "this room keeps no ledger")
        name = request.get("name")
        if request.get("end"):  # the night is over: the room's own session from now on
            store.begin_session(time.strftime("%Y-%m-%d %H:%M"))
            return {"text": "the night ended: `croupier ledger --session NAME` settles it"}
        if name is None:
            raise AdminRefusal("missing_field", "night needs a name, or --end")
        store.begin_session(name, night=True)
        return {"text": f"the night {name!r} begins, across restarts until `night --end`: `croupier ledger` "
                        "settles it"}

    def _do_cancel_tournament(self, request: AdminRequest, now: float) -> dict[str, Any]:
        """Cancel a tournament (hosting.tournament_desk): refunds before its start, the pool left split equal or by
        chips once running (issue 18)."""
        try:
            events = self.room.tournaments.cancel(request.get("tournament"), request.get("refund"))
        except RoomError as refusal:
            raise AdminRefusal(refusal.code, str(refusal)) from None
        refunded = sum(event.amount for event in events if isinstance(event, Credited))
        return {"text": f"tournament {request.get('tournament')} cancelled: {refunded} refunded",
                "refunded": refunded}

    # --- telling people --------------------------------------------------------------------------------

    def _send(self, name: str, message: dict[str, Any]) -> None:
        session = self.room.sessions.get(name)
        if session is not None:
            session.send(message)

    def _announce(self, table: TableState, text: str) -> None:
        message = protocol.message("notice", table=table.config.id, text=text)
        for session in self.room.audience(table):
            session.send(message)



WAITING_KEYS_PER_NAME: Final = 8
"""Refused keys a host name keeps for ``make_host --key`` (and new ones the hosts are told of, per run)."""


RESET_CODE_LETTERS: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A key reset's code is read out or texted: no 0/O, 1/I/L to confuse (31 letters, 8 of them: ~40 bits, and
wrong answers wait as the room password's do)."""


def new_reset_code() -> str:
    letters = "".join(secrets.choice(RESET_CODE_LETTERS) for _ in range(8))
    return f"{letters[:4]}-{letters[4:]}"


def _digest(code: str) -> str:
    """A code as kept on disk (its SHA-256): host_console.json does not hand out a pending reset."""
    cleaned = code.strip().upper().replace(" ", "").replace("-", "")
    return hashlib.sha256(cleaned.encode()).hexdigest()


def _verb(amount: int) -> str:
    return f"added {amount} chips to" if amount > 0 else f"took {-amount} chips from"


def _same_key(session: Session, key: str) -> bool:
    try:
        return normalize_key(session.public_key) == key
    except ValueError:
        return False


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""
