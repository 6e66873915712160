"""The room's live views: the lobby and the host's status pushed to whoever follows them, when they change.

A client follows the lobby by asking for it with ``follow`` (the TUI does; bots and scripts that ask once do not),
a host follows the console's status by asking for ``status`` with ``follow`` (the Host screen, while it is open).
The room calls :meth:`LiveViews.changed` where something a view shows may have changed (a table's message, a seat
request, a login, a tournament request); the views are built again a moment later (many changes, one push) and
sent to each follower whose view differs from the last one he got. A slow tick catches what changes with time
alone (a tournament's clock, a pool's waiting players).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

PUSH_DELAY: Final = 0.3
"""Seconds between the first change and the push: a hand's many table messages make one push."""
TICK_SECONDS: Final = 2.0
"""How often the views are built anyway (clocks change without any message)."""
log = logging.getLogger("croupier.room")


class Follower(Protocol):
    """A connection (:class:`hosting.room.Session`) as the live views use it."""

    name: str
    ended: bool

    def send(self, message: Mapping[str, Any]) -> None: ...


LobbyView = Callable[[], dict[str, Any]]
"""The lobby message every follower shares (tables, pools, tournaments), without the balance."""
Balance = Callable[[str], int | None]
StatusView = Callable[[], dict[str, Any]]
"""The host's status message (``host_reply`` with ``action: status``)."""


class LiveViews:
    """The followers of the lobby and of the host's status, and the pushes to them (see the module)."""

    def __init__(self, lobby: LobbyView, balance: Balance, status: StatusView, *, delay: float = PUSH_DELAY,
                 tick: float = TICK_SECONDS) -> None:
        self._lobby, self._balance, self._status = lobby, balance, status
        self.delay, self.tick = delay, tick
        self._lobby_followers: dict[int, tuple[Follower, str]] = {}  # id(session) → (session, last pushed)
        self._status_followers: dict[int, tuple[Follower, str]] = {}
        self._scheduled: asyncio.TimerHandle | None = None
        self._ticker: asyncio.Task[None] | None = None

    # --- who follows -----------------------------------------------------------------------------------

    def send_lobby(self, session: Follower, follow: bool) -> None:
        """The lobby to ``session`` now; with ``follow``, again whenever it changes."""
        shared = self._lobby()
        message, key = self._with_balance(session, shared, _key(shared))
        session.send(message)
        if follow:
            self._lobby_followers[id(session)] = (session, key)

    def send_status(self, session: Follower, follow: bool | None) -> None:
        """The console's status to ``session`` (a host) now; ``follow``: again whenever it changes from now on
        (true), no longer (false), as before (``None``)."""
        message = self._status()
        session.send(message)
        if follow:
            self._status_followers[id(session)] = (session, _key(message))
        elif follow is not None:
            self._status_followers.pop(id(session), None)

    def forget(self, session: Follower) -> None:
        """A closed connection follows nothing."""
        self._lobby_followers.pop(id(session), None)
        self._status_followers.pop(id(session), None)

    @property
    def followers(self) -> int:
        return len(self._lobby_followers) + len(self._status_followers)

    # --- pushes ----------------------------------------------------------------------------------------

    def changed(self) -> None:
        """Something a view shows may have changed: push in a moment (once for many changes)."""
        if self._scheduled is not None or not self.followers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a room driven by hand in a test): the next push sees it
            return
        self._scheduled = loop.call_later(self.delay, self.push)

    def start(self) -> None:
        """The slow tick (inside the event loop)."""
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self) -> None:
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None
        if self._ticker is not None:
            self._ticker.cancel()
            await asyncio.gather(self._ticker, return_exceptions=True)
            self._ticker = None

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            if self.followers:
                self.push()

    def push(self) -> None:
        """Each follower whose view changed gets it anew. A failure is the host's log's, never the room's end."""
        self._scheduled = None
        try:
            if self._lobby_followers:
                self._push(self._lobby_followers, self._lobby(), with_balance=True)
            if self._status_followers:
                self._push(self._status_followers, self._status(), with_balance=False)
        except Exception:
            log.exception("live views: a push failed")

    def _push(self, followers: dict[int, tuple[Follower, str]], shared: dict[str, Any], *,
              with_balance: bool) -> None:
        shared_key = _key(shared)
        for number, (session, last) in list(followers.items()):
            if session.ended:
                del followers[number]
                continue
            message, key = self._with_balance(session, shared, shared_key) if with_balance else (shared, shared_key)
            if key != last:
                followers[number] = (session, key)
                session.send(message)

    def _with_balance(self, session: Follower, shared: dict[str, Any], key: str) -> tuple[dict[str, Any], str]:
        """The lobby as ``session`` sees it (his balance in it) and its key."""
        balance = self._balance(session.name)
        return ({**shared, "balance": balance}, f"{key}|{balance}") if balance is not None else (shared, key)


def _key(message: Mapping[str, Any]) -> str:
    """What a view said, to compare with the next one."""
    return json.dumps(message, sort_keys=True, default=str)
