"""The store's database: the data directory, the SQLite file (WAL, 0600), its checks and migrations, and
one transaction at a time (DESIGN.md "Persistence and recovery").

Errors: :class:`StoreError` (bad data directory, corrupted or newer database: one line for the host).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from hosting.migrations import MIGRATIONS, SCHEMA_VERSION

DATABASE_FILE: Final = "croupier.sqlite3"


class StoreError(Exception):
    """The data directory or database cannot be used; the message is one line for the host. Nothing was changed."""



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
            migration = MIGRATIONS[number]
            if callable(migration):
                migration(connection)
            else:
                for statement in migration.split(";"):
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
