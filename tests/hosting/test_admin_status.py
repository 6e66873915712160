"""``croupier admin status`` (issue 27): a readable table of tables, pools and tournaments; ``--json`` for scripts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hosting.admin_status import status_text
from hosting.cli import main


async def test_status_prints_a_table_and_json_on_request(rooms: Any, capsys: Any) -> None:
    running = await rooms(deal=False, served_tui=False)
    data = str(running.data_dir)
    assert await asyncio.to_thread(main, ["admin", "--data", data, "status"]) == 0
    text = capsys.readouterr().out
    assert not text.lstrip().startswith("{")
    first_table = next(iter(running.room.cash.tables))
    assert text.startswith(f"Tables ({len(running.room.cash.tables)})\n  id ")
    assert f"\n  {first_table} " in text and "Pools: none" in text and "Tournaments: none" in text
    assert "Online: 0 players" in text
    assert await asyncio.to_thread(main, ["admin", "--data", data, "status", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["pools"] == [] and reply["tournaments"] == [] and reply["tables"][0]["id"] == first_table


def test_pools_and_tournaments_have_their_rows() -> None:
    text = status_text({
        "tables": [], "seat_requests": [{"player": "bob", "table": "home", "buy_in": 150}],
        "pools": [{"id": "zoom", "name": "Zoom 1/2", "stakes": [1, 2], "players": 1, "tables": 1}],
        "tournaments": [{"id": "sng", "name": "Sit & Go", "status": "registering", "registered": 3, "max": 6}],
        "online": ["ana", "bob"], "hosts": ["ana"], "banned": ["eve"], "banned_keys": 1, "approve_seats": True})
    assert text.splitlines() == [
        "Tables: none",
        "Pools (1)",
        "  id    name      stakes  in the pool  running",
        "  zoom  Zoom 1/2  1/2     1 player     1 table",
        "Tournaments (1)",
        "  id   name      status       players",
        "  sng  Sit & Go  registering  3/6 registered",
        "Seat requests (1)",
        "  bob at home for 150 (approve home bob / deny …)",
        "Online: 2 players (ana, bob) · hosts: ana · banned: eve and 1 key · seats: the host approves each"]


async def test_status_marks_a_room_toml_host_no_key_is_confirmed_for(rooms: Any, capsys: Any) -> None:
    """Found by a new-host trial: `status` listed boss (in room.toml's hosts, no key pinned, none vouched for)
    as a host beside ana (pinned), though whoever logs in as boss gets no Host screen."""
    from hosting.admin_requests import AdminRequest
    from tests.hosting.test_host_console import _room

    running = await rooms(_room(hosts=("ana", "boss")), deal=False, served_tui=False)
    reply = running.room.console.perform("ana", AdminRequest("status", {}), 0.0)
    assert (reply["hosts"], reply["unconfirmed_hosts"]) == (["ana", "boss"], ["boss"])
    assert await asyncio.to_thread(main, ["admin", "--data", str(running.data_dir), "status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "hosts: ana, boss (unconfirmed)" in lines[-2], lines
    assert lines[-1].startswith("Unconfirmed hosts: boss — named in room.toml, but no key is pinned there or "
                                "confirmed, so no host yet"), lines
