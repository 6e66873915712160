"""The room keeps a plain-ssh player's notes on others (issue 27: his screen runs on the host and writes no file):
per name, private to him, cleaned and bounded, kept across his connections; a bad request is refused in words."""

from __future__ import annotations

import stat
from typing import Any

import asyncssh
import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.server import RunningRoom


async def _notes(client: RoomClient, **fields: Any) -> dict[str, Any]:
    await client.send("notes", **fields)
    reply = await client.wait_for("notes", "error", timeout=30)
    if reply["type"] == "error":
        raise RequestRefused(reply)
    return dict(reply["notes"])


async def test_each_player_reads_and_writes_only_his_own_notes_and_they_last(room: RunningRoom, connect: Any) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    ana: RoomClient = await connect(room, "ana", key)
    bob: RoomClient = await connect(room, "bob")
    assert await _notes(ana) == {}
    assert await _notes(ana, player="cleo", tag="red", note="3-bets light\u001b[2J from the button") == {
        "cleo": {"tag": "red", "note": "3-bets light from the button"}}
    assert await _notes(bob) == {}  # ana's notes are hers alone
    with pytest.raises(RequestRefused, match=r"notes\.tag: expected red, orange"):
        await _notes(ana, player="cleo", tag="plaid")
    with pytest.raises(RequestRefused, match=r"notes\.player: expected a player name"):
        await _notes(ana, player="../../etc", tag="red")
    with pytest.raises(RequestRefused, match="longer than 200"):
        await _notes(ana, player="cleo", note="x" * 201)
    await ana.close()
    again: RoomClient = await connect(room, "ana", key)  # a new connection, the same player: the same notes
    assert await _notes(again) == {"cleo": {"tag": "red", "note": "3-bets light from the button"}}
    kept = room.data_dir / "player-notes" / "ana.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert await _notes(again, player="cleo") == {}  # no tag, no note: forgotten
