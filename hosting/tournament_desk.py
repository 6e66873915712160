"""The room's tournament desk (issue 18): every tournament of the room, its clock tick, and players' requests.

* At start: tournaments the store kept and that are not over are restored where they were (R-CRASH-1: the hand
  at each table is void, the levels paused while the room was down); each ``[[tournaments]]`` of the room file
  that has none open gets one. A recurring Sit & Go opens its next copy (``<id>-2``, ``<id>-3``, …) when one
  fills and starts.
* Every second the desk ticks each tournament (:meth:`hosting.tournaments.TournamentOwner.tick`).
* The ``tournament`` request (:class:`hosting.protocol.TournamentRequest`): ``state``, ``register`` (with the
  ``password`` of a private one), ``unregister``, ``rebuy``, ``add_on``, ``decline_rebuy``, ``propose_deal``
  (``deal``: equal, chips, icm or chip_chop), ``accept_deal``, ``decline_deal``.
* The host's ``cancel`` (:meth:`TournamentDesk.cancel`): refunds before the start, the pool left split equal or
  by chips once running.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.events import Event
from hosting.errors import RoomError
from hosting.identity import twin_of
from hosting.tables import TableState
from hosting.tournament_config import TournamentConfig
from hosting.tournament_guard import EntryThrottle, PasswordGuard, StateThrottle
from hosting.tournaments import Publish, TournamentOwner, TournamentRoom

if TYPE_CHECKING:
    from hosting.store import Store

log = logging.getLogger("croupier.room")

TICK_SECONDS = 1.0
ACTIONS = ("state", "register", "unregister", "rebuy", "add_on", "decline_rebuy", "propose_deal", "accept_deal",
           "decline_deal")


class TournamentDesk:
    """The room's tournaments. ``configs``: the room file's; ``store``: a callable giving the room's store (it
    may be set after the room is built); ``publish``: table events out."""

    def __init__(self, configs: tuple[TournamentConfig, ...], room: TournamentRoom,
                 store: Callable[[], Store | None], publish: Publish) -> None:
        self.configs = configs
        self.room = room
        self._store = store
        self.publish = publish
        self.owners: dict[str, TournamentOwner] = {}
        self._task: asyncio.Task[None] | None = None
        self._copies: dict[str, int] = {}
        self.passwords = PasswordGuard()
        self.states = StateThrottle()
        self.entries = EntryThrottle()

    @property
    def store(self) -> Store | None:
        return self._store()

    # --- start and stop ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Restore the kept tournaments, open the room file's, start the clock (inside the event loop)."""
        store = self.store
        by_id = {config.id: config for config in self.configs}
        saved = store.saved_tournaments() if store is not None else []
        for item in saved:
            base = _base_id(item.id, by_id)
            if base is None:
                if item.status not in ("complete", "cancelled"):
                    log.warning("tournament %s: kept, but not in the room file: not resumed", item.id)
                continue
            self._copies[base] = max(self._copies.get(base, 1), _copy_number(item.id, base))
            if item.status in ("complete", "cancelled"):
                continue
            config = by_id[base].numbered(_copy_number(item.id, base))
            owner = TournamentOwner.restore(config, self.room, store, self.publish, item.state, item.clock,
                                            item.steps)
            self._add(owner)
            log.info("tournament %s resumed (%s, %d entries)", owner.id, owner.director.phase.value,
                     len(owner.director.entries))
        for config in self.configs:
            if not any(_base_id(owner.id, by_id) == config.id and not owner.over for owner in self.owners.values()):
                if config.id in {item.id for item in saved}:
                    if not config.recurring:
                        continue  # played (or cancelled) already: a one-off tournament runs once
                    config = config.numbered(self._next_copy(config.id))
                self._add(TournamentOwner(config, self.room, store, self.publish))
        for owner in list(self.owners.values()):
            owner.start()
        self._task = asyncio.get_running_loop().create_task(self._ticks(), name="tournament clock")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _add(self, owner: TournamentOwner) -> None:
        self.owners[owner.id] = owner
        base = owner.config
        if base.recurring:
            owner.on_started = self._open_next

    def _next_copy(self, base: str) -> int:
        self._copies[base] = self._copies.get(base, 1) + 1
        return self._copies[base]

    def _open_next(self, started: TournamentOwner) -> None:
        """A recurring Sit & Go filled and started: the next copy opens for registration."""
        by_id = {config.id: config for config in self.configs}
        base = _base_id(started.id, by_id)
        if base is None:
            return
        owner = TournamentOwner(by_id[base].numbered(self._next_copy(base)), self.room, self.store, self.publish)
        self._add(owner)
        owner.start()
        log.info("tournament %s opened (the next %s)", owner.id, base)

    async def _ticks(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            for owner in list(self.owners.values()):
                try:
                    owner.tick()
                except Exception:  # one tournament's bug must not stop the others' clocks
                    log.exception("tournament %s: its clock tick failed", owner.id)

    # --- the room asks -------------------------------------------------------------------------------------

    def owner_of(self, table: TableState) -> TournamentOwner | None:
        """The tournament ``table`` belongs to, or None."""
        prefix = table.id.rsplit(".", 1)[0]
        owner = self.owners.get(prefix)
        return owner if owner is not None and table.id in {state.id for state in owner.tables.values()} else None

    def rows(self) -> list[dict[str, Any]]:
        """The lobby's tournament rows (R-LOBBY-1); finished ones are not listed."""
        return [owner.summary() for owner in self.owners.values() if not owner.over]

    def handle(self, name: str, action: str, tournament: str, password: str | None, deal: str | None,
               pay: str | None = None, *, key: str = "", now: float = 0.0,
               key_names: Sequence[str] = (), address: str = "unknown", host: bool = False) -> dict[str, Any]:
        """One ``tournament`` request of ``name`` (whose session holds ``key``, registered for ``key_names``, from
        ``address``, at room time ``now``; ``host``: a host of the room); the reply (``tournament`` state or ``ack``
        fields). :class:`RoomError` for a refusal."""
        owner = self.owners.get(tournament)
        if owner is None:
            raise RoomError("no_such_tournament", f"there is no tournament {tournament!r}; ask for the lobby")
        if action == "state":
            if password is not None and not self._sees_all(owner, name, host):
                expected = owner.director.settings.password
                assert expected is not None
                self.passwords.check(owner.id, expected, password, name, key, now, address)  # a guess counts
                return owner.state(name)
            return self._state(owner, name, host)
        if action in ("register", "unregister"):
            self.entries.check(name, tournament, now)  # each is a store transaction: no loop of them
            if action == "register":
                reply = self._register(owner, name, password, pay, key, now, key_names, address)
            else:
                reply = owner.unregister(name)
            self.entries.done(name, tournament, now)
            return reply
        if action == "rebuy":
            return owner.rebuy(name)
        if action == "add_on":
            return owner.add_on(name)
        if action == "decline_rebuy":
            return owner.decline_rebuy(name)
        if action == "propose_deal":
            if deal is None:
                raise RoomError("bad_value", "propose_deal needs \"deal\": equal, chips, icm or chip_chop")
            return owner.propose_deal(name, deal)
        if action in ("accept_deal", "decline_deal"):
            return owner.answer_deal(name, action == "accept_deal")
        raise RoomError("bad_value", f"a tournament action is one of {', '.join(ACTIONS)}")

    def _register(self, owner: TournamentOwner, name: str, password: str | None, pay: str | None, key: str,
                  now: float, key_names: Sequence[str], address: str) -> dict[str, Any]:
        expected = owner.director.settings.password
        if expected is not None:  # guessed no faster than the room's own password
            self.passwords.check(owner.id, expected, password, name, key, now, address)
        twin = twin_of(name, key_names, lambda other: bool(owner.director.entries_of(other)))
        if twin is not None:  # one player seated twice would see two hands at a table
            raise RoomError("tournament_rule", f"{twin}, a name of the same key, has an entry in this "
                                               "tournament: one player, one entry")
        return owner.register(name, password, pay)

    def state_now(self, name: str, tournament: str, now: float) -> bool:
        """Whether ``name``'s ``state`` request is answered now; if not, it is answered once, late
        (:class:`hosting.tournament_guard.StateThrottle`)."""
        if tournament not in self.owners or self.states.allow(name, now):
            return True
        wait = self.states.later(name, tournament)
        if wait is not None:
            asyncio.get_running_loop().call_later(wait, self._state_later, name, tournament)
        return False

    def _state_later(self, name: str, tournament: str) -> None:
        self.states.answered(name, tournament)
        owner = self.owners.get(tournament)
        if owner is not None:
            self.room.send_to(name, self._state(owner, name, host=False))

    @staticmethod
    def _sees_all(owner: TournamentOwner, name: str, host: bool) -> bool:
        """Whether ``name`` sees the whole screen of ``owner``: a public tournament, its players, the hosts."""
        return owner.director.settings.password is None or host or bool(owner.director.entries_of(name))

    def _state(self, owner: TournamentOwner, name: str, host: bool) -> dict[str, Any]:
        """The tournament screen for ``name``; of a private tournament he has no entry in (and gave no password
        for), only what its lobby row shows: no players, tables, chips or deal (issue 25 item 8)."""
        body = owner.state(name)
        if self._sees_all(owner, name, host):
            return body
        hidden: dict[str, Any] = {"players": [], "tables": [], "my_table": None, "deal": None, "deal_offers": {}}
        return {**body, **hidden, "private": True}

    def cancel(self, tournament: str, how: str | None = None) -> list[Event]:
        """The host cancels ``tournament`` (see :meth:`TournamentOwner.cancel`)."""
        owner = self.owners.get(tournament)
        if owner is None:
            raise RoomError("no_such_tournament", f"there is no tournament {tournament!r}")
        return owner.cancel(how)

    def remove(self, name: str) -> list[str]:
        """The host removes ``name`` (a kick or a ban, :mod:`hosting.removal`): his entry in every tournament not
        started is given back and refunded; where he already plays he stays, absent (blinded out, R-TOUR-6).
        The places, in words."""
        places: list[str] = []
        for owner in self.owners.values():
            live = [entry for entry in owner.director.entries_of(name) if entry.live]
            if not live or owner.over:
                continue
            try:
                owner.unregister(name)
                places.append(f"tournament {owner.id} (entry refunded)")
            except RoomError:  # started (or drawing a Spin): his seat stays, played for while he is away
                places.append(f"tournament {owner.id} (in play: his seat is played for while he is away)")
        return places

    def connected(self, name: str) -> None:
        for owner in self.owners.values():
            owner.connected(name)


def _copy_number(tournament_id: str, base: str) -> int:
    match = re.fullmatch(re.escape(base) + r"-(\d+)", tournament_id)
    return int(match.group(1)) if match else 1


def _base_id(tournament_id: str, configs: dict[str, TournamentConfig]) -> str | None:
    if tournament_id in configs:
        return tournament_id
    base = tournament_id.rsplit("-", 1)[0]
    return base if base in configs and _copy_number(tournament_id, base) > 1 else None

