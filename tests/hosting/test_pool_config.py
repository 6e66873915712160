"""room.toml ``[[pools]]`` (R-FAST-1): a good pool, and one line naming the key for each mistake."""

from __future__ import annotations

import pytest

from hosting.config import ConfigError, parse_room

TABLE = """
[[tables]]
id = "nl"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
"""

POOL = """
[[pools]]
id = "zoom"
name = "Zoom 1/2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 6
buy_in = [40, 200]
rake = "white-label"
fill_seconds = 1.5
"""


def test_a_pool_is_read_with_its_tables_keys() -> None:
    room = parse_room(TABLE + POOL)
    assert [table.id for table in room.tables] == ["nl"]
    (pool,) = room.pools
    assert pool.id == "zoom" and pool.fill_seconds == 1.5
    assert (pool.table.name, pool.table.game, pool.table.structure) == ("Zoom 1/2", "texas_holdem", "no_limit")
    assert (pool.table.small_blind, pool.table.big_blind, pool.table.seats) == (1, 2, 6)
    assert (pool.table.min_buy_in, pool.table.max_buy_in, pool.table.rake) == (40, 200, "white-label")
    assert pool.table_id(3) == "zoom.3"


def test_a_room_without_pools_has_none_and_pool_ids_default_in_file_order() -> None:
    assert parse_room(TABLE).pools == ()
    room = parse_room(TABLE + POOL.replace('id = "zoom"\n', "").replace('name = "Zoom 1/2"\n', "") * 2)
    assert [pool.id for pool in room.pools] == ["p1", "p2"]
    assert room.pools[0].table.name == "Texas Hold'em 1/2"
    assert room.pools[0].fill_seconds == 1.5


@pytest.mark.parametrize(("change", "message"), [
    (('game = "texas_holdem"', 'game = "seven_card_stud"'),
     "room.toml: pools[0].game: seven_card_stud is not a blind game: a pool moves the blinds with its players"),
    (("seats = 6", "seats = 6\nstraddle = true"), "room.toml: pools[0].straddle: unknown key"),
    (("seats = 6", "seats = 6\nante = 1"), "room.toml: pools[0].ante: unknown key"),
    (("fill_seconds = 1.5", "fill_seconds = 61"), "room.toml: pools[0].fill_seconds: expected seconds from 0 to 60"),
    (("fill_seconds = 1.5", 'fill_seconds = "soon"'), "room.toml: pools[0].fill_seconds: expected seconds"),
    (('id = "zoom"', 'id = "zo.om"'), "room.toml: pools[0].id: expected an id of 1-28 letters, digits, _ -"),
    (('id = "zoom"', 'id = "nl"'), "room.toml: pools[0].id: 'nl' clashes with table 'nl'"),
    (("stakes = [1, 2]", "stakes = [1]"), "room.toml: pools[0].stakes: expected [small_blind, big_blind]"),
    (("seats = 6", "seats = 11"), "room.toml: pools[0].seats: expected an integer from 2 to 10"),
])
def test_a_bad_pool_is_one_line_naming_its_key(change: tuple[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_room(TABLE + POOL.replace(*change))
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_pool_ids_and_table_ids_do_not_clash() -> None:
    with pytest.raises(ConfigError, match=r"pools\[1\].id: 'zoom' is used by an earlier pool"):
        parse_room(TABLE + POOL + POOL)
    with pytest.raises(ConfigError, match=r"pools\[0\].id: 'zoom' clashes with table 'zoom.2'"):
        parse_room(TABLE.replace('id = "nl"', 'id = "zoom.2"') + POOL)
    with pytest.raises(ConfigError, match="pools: expected one or more"):
        parse_room("pools = 3\n" + TABLE)
