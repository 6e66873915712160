"""The store's single writer (DESIGN.md "Persistence and recovery"): the room calls store methods from its event
loop; each updates the in-memory view at once, so the caller can decide synchronously, and queues its SQL here.
The writer task (:meth:`StoreWriter.start`) commits queued work in batches in a worker thread (group commit):
table tasks never wait on the disk unless they choose to await the returned future. Before
:meth:`StoreWriter.start` (and in tools and tests) every write commits at once.

:class:`StoreWriter` is the base of the store's parts (:mod:`hosting.store.ledger`, :mod:`~hosting.store.hands`,
:mod:`~hosting.store.accounts`); each part keeps its own in-memory view and loads it in :meth:`_load`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hosting.store.db import StoreError, transaction

BATCH_LIMIT: Final = 500

Operation = Callable[[sqlite3.Connection], object]
Written = asyncio.Future[object] | None
"""What a write returns: its future (its result, or its error, once committed); None when it was committed at
once (no writer task running)."""


@dataclass
class _Queued:
    operation: Operation
    future: asyncio.Future[object] | None


class StoreWriter:
    """The connection, the clock and the writer queue every part of the store shares."""

    def __init__(self, connection: sqlite3.Connection, data_dir: Path, clock: Callable[[], float]) -> None:
        self.connection = connection
        self.data_dir = data_dir
        self.clock = clock
        self._queue: asyncio.Queue[_Queued | None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0
        self.writer_failure: BaseException | None = None

    def _load(self) -> None:
        """Read the in-memory view back from the database (each part adds its own, then calls this)."""

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

    def _submit(self, operation: Operation) -> Written:
        if self.writer_failure is not None:
            raise StoreError(f"the store's writer stopped: {self.writer_failure}")
        if self._queue is None:
            with transaction(self.connection, write=True):
                operation(self.connection)
            self.commits += 1
            return None
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
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

    def _apply(self, operations: list[Operation]) -> list[tuple[object, BaseException | None]]:
        """Run a batch in one transaction; each operation in a savepoint so one failure spoils only itself."""
        outcomes: list[tuple[object, BaseException | None]] = []
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
