"""Attack pass on a clean clone after issue 25 (strangers part 2): a stranger registered ``croupier``, ``host``,
``admin``, ``room``, ``system`` and ``dealer``, and his lobby chat then read ``croupier: the room moves to …`` on
every screen. A new name may not read like the room's own voice (``identity.RESERVED_NAMES``, read as names are:
``H0ST``, ``ad.min``); the host may still choose one (his ``hosts`` or his allow-list)."""

from __future__ import annotations

from typing import Any

import pytest

from hosting.client import LoginRefused
from hosting.config import AccessConfig
from hosting.server import RunningRoom
from tests.hosting.security.helpers import small_room


async def test_a_stranger_cannot_take_a_name_that_reads_like_the_room(rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(), deal=False, served_tui=False)
    for name in ("croupier", "Host", "admin", "ROOM", "system", "dealer", "H0ST", "ad.min", "Cr0upier_"):
        with pytest.raises(LoginRefused) as refused:  # before: "your key is now registered for this name"
            await connect(running, name, new_key())
        assert refused.value.args[0].startswith(f"the name {name!r} reads like the room's own voice")
    assert list(running.room.gatekeeper.accounts.names()) == []
    for name in ("hostess", "dealer2", "roomba", "ghost"):  # other names are names
        assert (await connect(running, name, new_key())).hello["registered"] is True


async def test_the_host_may_choose_such_a_name(rooms: Any, connect: Any, new_key: Any) -> None:
    running: RunningRoom = await rooms(small_room(AccessConfig(allow=frozenset({"dealer", "ana"}))), deal=False,
                                       served_tui=False)
    assert (await connect(running, "dealer", new_key())).hello["registered"] is True
