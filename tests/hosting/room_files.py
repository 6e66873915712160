"""room.toml text for the tests' rooms, block by block (issue 24: the same ``[[tables]]`` and ``[[pools]]`` blocks
were copied into each test file). Each function writes the lines a host would write; ``parse_room`` reads them.

>>> print(table_block("t1", seats=2), end="")
[[tables]]
id = "t1"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 2
buy_in = [40, 200]
>>> print(pool_block("zoom", fill_seconds=0.5, action_seconds=90), end="")
[[pools]]
id = "zoom"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 6
buy_in = [40, 200]
fill_seconds = 0.5
clock = { action_seconds = 90, time_bank_seconds = 0 }
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def toml_value(value: Any) -> str:
    """``value`` as TOML writes it: strings (backslashes and quotes escaped), numbers, booleans, arrays, inline
    tables.

    >>> toml_value(["ana"]), toml_value(True), toml_value(0.25), toml_value((1, 2)), toml_value({"a": 90})
    ('["ana"]', 'true', '0.25', '[1, 2]', '{ a = 90 }')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)


def room_block(name: str, **settings: Any) -> str:
    """The ``[room]`` block: its name and any other keys (``connections_per_minute=1000``, ``hosts=["ana"]``…)."""
    return block("[room]", {"name": name, **settings})


def _holdem(id: str, name: str | None, stakes: tuple[int, int], seats: int,
            buy_in: tuple[int, int]) -> dict[str, Any]:
    return {"id": id, **({"name": name} if name is not None else {}), "game": "texas_holdem",
            "structure": "no_limit", "stakes": stakes, "seats": seats, "buy_in": buy_in}


def table_block(id: str, *, name: str | None = None, stakes: tuple[int, int] = (1, 2), seats: int = 6,
               buy_in: tuple[int, int] = (40, 200)) -> str:
    """A ``[[tables]]`` block: a no-limit hold'em cash table."""
    return block("[[tables]]", _holdem(id, name, stakes, seats, buy_in))


def pool_block(id: str, *, name: str | None = None, stakes: tuple[int, int] = (1, 2), seats: int = 6,
               buy_in: tuple[int, int] = (40, 200), fill_seconds: float = 0, action_seconds: int | None = None,
               **other: Any) -> str:
    """A ``[[pools]]`` block: a no-limit hold'em fast-fold pool; with ``action_seconds``, a clock with no time
    bank; ``other``: any other key of a pool (``rake="white-label"``, ``dealing="host_blind"``…)."""
    keys = {**_holdem(id, name, stakes, seats, buy_in), "fill_seconds": float(fill_seconds)}
    if action_seconds is not None:
        keys["clock"] = {"action_seconds": action_seconds, "time_bank_seconds": 0}
    return block("[[pools]]", {**keys, **other})


def pool_room(**pool: Any) -> str:
    """The room file of the pool tests: one fast-fold pool ``zoom`` (:func:`pool_block`'s options), no table,
    logins from loopback unthrottled.

    >>> pool_room(seats=3).splitlines()[:3]
    ['[room]', 'name = "pool room"', 'connections_per_minute = 1000']
    """
    return room_block("pool room", connections_per_minute=1000) + "\n" + pool_block("zoom", **pool)


def block(header: str, keys: Mapping[str, Any]) -> str:
    """Any block: ``block("[[tournaments]]", {"id": "sng", "sit_and_go_size": 6, …})``."""
    return "\n".join([header, *(f"{key} = {toml_value(value)}" for key, value in keys.items())]) + "\n"
