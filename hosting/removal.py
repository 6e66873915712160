"""A host's kick or ban reaches every place a name can be in the room (issue 27 item 1).

The places, and what each does with a removed player:

* **Seat requests** (``approve_seats``): forgotten.
* **Waiting lists** of every table: taken off.
* **Watchers** of every table: he no longer hears it.
* **Fast-fold pools**: out of the pool; folded at once out of a pool hand he is live in (a pool hand is his
  until he folds anyway); his chips go back to his balance when his hand lets him go
  (:meth:`hosting.pools.PoolOwner.remove`).
* **Tournaments** (:meth:`hosting.tournament_desk.TournamentDesk.remove`): an entry in a tournament that has not
  started is given back and refunded the way it was paid; a player already playing keeps his seat and stack
  but is absent — dealt in, posting blinds and antes, folded at his turn (R-TOUR-6: he is blinded out), as any
  player who lost his connection. His chips stay in that tournament's prize pool: they were paid in.
* **Cash tables**: a kick stands him up when the hand in play ends (as he would leave himself); a ban folds a
  live hand of his at once and frees the seat when that hand ends. His stack goes back to his balance either way.

:func:`remove_everywhere` does all but the cash tables' seats and the connection, which stay with the console
(:mod:`hosting.admin`): it waits for the end of a hand there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from engine.errors import NotSeated, TableRuleError
from engine.events import Event

log = logging.getLogger("croupier.room")


class Table(Protocol):
    """What a removal uses of a table (:class:`hosting.tables.TableState`)."""

    @property
    def id(self) -> str: ...

    engine: Any
    watchers: set[str]


class Pool(Protocol):
    @property
    def id(self) -> str: ...

    def remove(self, name: str) -> bool: ...


class Tournaments(Protocol):
    def remove(self, name: str) -> list[str]: ...


class Watcher(Protocol):
    watching: set[str]


def remove_everywhere(name: str, *, tables: Iterable[Table], pools: Iterable[Pool], tournaments: Tournaments,
                      session: Watcher | None, publish: Callable[[Any, list[Event]], None]) -> list[str]:
    """Take ``name`` off every waiting list and watcher list, out of every pool and every tournament not started
    (see the module); the places he was taken from, in words, for the host's reply and log."""
    places: list[str] = []
    for table in tables:
        engine = table.engine
        waiting: list[str] = getattr(getattr(engine, "waiting_list", None), "players", [])
        if name in waiting:
            try:
                publish(table, engine.leave_waiting_list(name))
                places.append(f"the waiting list of {table.id}")
            except (NotSeated, TableRuleError):
                pass
        if name in table.watchers:
            table.watchers.discard(name)
            places.append(f"watching {table.id}")
        if session is not None:
            session.watching.discard(table.id)
    for pool in pools:
        if pool.remove(name):
            places.append(f"pool {pool.id}")
    places += tournaments.remove(name)
    if places:
        log.info("host removed %s from %s", name, ", ".join(places))
    return places

