"""``croupier admin status`` in words: the room's tables, pools, tournaments, seat requests, hosts and bans as
a short readable table (``--json`` prints the room's reply as it is, for scripts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.text import counted


def _rows(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(head, *rows, strict=True)]
    return ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in (head, *rows)]


def _table_row(table: Mapping[str, Any]) -> list[str]:
    small, big = table.get("stakes", [0, 0])
    players = table.get("players", [])
    state = "paused" if table.get("paused") else "in a hand" if table.get("hand_running") else "between hands"
    return [str(table.get("id", "")), str(table.get("name", "")), f"{small}/{big}", state,
            ", ".join(f"{row.get('name')} {row.get('stack')}" for row in players) or "—"]


def _pool_row(pool: Mapping[str, Any]) -> list[str]:
    small, big = pool.get("stakes", [0, 0])
    running = counted(int(pool.get("tables", 0)), "table") + (", paused" if pool.get("paused") else "")
    return [str(pool.get("id", "")), str(pool.get("name", "")), f"{small}/{big}",
            counted(int(pool.get("players", 0)), "player"), running]


def _tournament_row(tournament: Mapping[str, Any]) -> list[str]:
    registered = f"{tournament.get('registered', 0)}/{tournament.get('max', '?')} registered"
    left = tournament.get("players_left")
    return [str(tournament.get("id", "")), str(tournament.get("name", "")), str(tournament.get("status", "")),
            registered + (f", {left} left" if left is not None else "")]


def hosts_words(reply: Mapping[str, Any]) -> str:
    """The hosts of a ``status`` reply, each room.toml name no key is confirmed for marked.

    >>> hosts_words({"hosts": ["ana", "boss"], "unconfirmed_hosts": ["boss"]})
    'ana, boss (unconfirmed)'
    >>> hosts_words({"hosts": []})
    'none'
    """
    unconfirmed = set(reply.get("unconfirmed_hosts", []))
    return ", ".join(f"{name} (unconfirmed)" if name in unconfirmed else str(name)
                     for name in reply.get("hosts", [])) or "none"


def unconfirmed_words(reply: Mapping[str, Any]) -> str:
    """What an unconfirmed host means and how to confirm him ("" when every host is confirmed).

    >>> print(unconfirmed_words({"unconfirmed_hosts": ["boss"]}))  # doctest: +NORMALIZE_WHITESPACE
    Unconfirmed hosts: boss — named in room.toml, but no key is pinned there or confirmed, so no host
    yet: pin the key, or make-host NAME --key FINGERPRINT (his refused login shows it)
    """
    names = [str(name) for name in reply.get("unconfirmed_hosts", [])]
    if not names:
        return ""
    return (f"Unconfirmed hosts: {', '.join(names)} — named in room.toml, but no key is pinned there or confirmed, "
            "so no host yet: pin the key, or make-host NAME --key FINGERPRINT (his refused login shows it)")


def status_text(reply: Mapping[str, Any]) -> str:
    """The room's ``status`` reply as the host reads it.

    >>> print(status_text({"tables": [{"id": "home", "name": "Home", "stakes": [1, 2], "hand_running": True,
    ...                                "players": [{"name": "ana", "stack": 200}]}],
    ...                    "pools": [], "tournaments": [], "seat_requests": [], "hosts": ["ana"], "banned": [],
    ...                    "online": ["ana"], "approve_seats": False}))
    Tables (1)
      id    name  stakes  now        players
      home  Home  1/2     in a hand  ana 200
    Pools: none
    Tournaments: none
    Seat requests: none
    Online: 1 player (ana) · hosts: ana · banned: none · seats: anyone may sit
    """
    lines: list[str] = []
    tables = list(reply.get("tables", []))
    lines += [f"Tables ({len(tables)})"] + ["  " + row for row in _rows(
        ("id", "name", "stakes", "now", "players"), [_table_row(table) for table in tables])] if tables \
        else ["Tables: none"]
    pools = list(reply.get("pools", []))
    lines += [f"Pools ({len(pools)})"] + ["  " + row for row in _rows(
        ("id", "name", "stakes", "in the pool", "running"), [_pool_row(pool) for pool in pools])] if pools \
        else ["Pools: none"]
    tournaments = list(reply.get("tournaments", []))
    lines += [f"Tournaments ({len(tournaments)})"] + ["  " + row for row in _rows(
        ("id", "name", "status", "players"), [_tournament_row(item) for item in tournaments])] if tournaments \
        else ["Tournaments: none"]
    requests = list(reply.get("seat_requests", []))
    lines += [f"Seat requests ({len(requests)})"] + [
        f"  {item.get('player')} at {item.get('table')} for {item.get('buy_in')} (approve {item.get('table')} "
        f"{item.get('player')} / deny …)" for item in requests] if requests else ["Seat requests: none"]
    online = list(reply.get("online", []))
    banned = list(reply.get("banned", []))
    keys = int(reply.get("banned_keys", 0) or 0)
    lines.append(" · ".join([
        f"Online: {counted(len(online), 'player')}" + (f" ({', '.join(online)})" if online else ""),
        f"hosts: {hosts_words(reply)}",
        f"banned: {', '.join(banned) or 'none'}" + (f" and {counted(keys, 'key')}" if keys else ""),
        "seats: the host approves each" if reply.get("approve_seats") else "seats: anyone may sit"]))
    if unconfirmed_words(reply):
        lines.append(unconfirmed_words(reply))
    return "\n".join(lines)
