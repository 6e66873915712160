"""Seating and balancing decisions (R-TOUR-4), as pure functions over table numbers and player counts.

Randomness comes in as a :data:`Draw`: ``draw(n)`` returns an integer in ``0..n-1`` (the room derives it
from the tournament's commit–reveal seed; tests pass ``random.Random(seed).randrange``).

* Initial seats: entries shuffled by the draw, then dealt round the tables so table sizes differ by at most
  one (TDA 2022 Rule 1: "random seating").
* Balancing (TDA 2022 Rule 13, "should balance"): while the largest table has two or more players more than
  the smallest, a player moves from a largest table that is between hands to the smallest table. Which
  largest table: the highest-numbered (the "predetermined procedure" of TDA Rule 13C). Which player and
  which seat: :meth:`engine.tournament.table.TournamentTable.next_big_blind_seat` and
  :meth:`~engine.tournament.table.TournamentTable.worst_free_seat`.
* Breaking (TDA Rule 12): when the players fit in one table fewer, the highest-numbered table breaks
  (fixed order, highest first) as soon as its hand is over; its players go one by one, in drawn order, to
  the table with the fewest players (lowest number among equals), to a drawn free seat there.

>>> initial_tables([1, 2, 3, 4, 5, 6, 7], 3, lambda n: n - 1)
[[3, 6], [2, 5], [1, 4, 7]]
>>> balance_move({1: 9, 2: 9, 3: 7}, busy=set())
(2, 3)
>>> table_to_break({1: 5, 2: 4, 3: 3}, seats_per_table=6)
3
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TypeVar

Draw = Callable[[int], int]
"""``draw(n)`` → a fair integer in ``0..n-1``."""

_Item = TypeVar("_Item")


def shuffled(items: Sequence[_Item], draw: Draw) -> list[_Item]:
    """``items`` in a drawn order (Fisher–Yates with the caller's draw).

    >>> shuffled([1, 2, 3], lambda n: n - 1)
    [1, 2, 3]
    """
    order = list(items)
    for index in range(len(order) - 1, 0, -1):
        other = draw(index + 1)
        if not 0 <= other <= index:
            raise ValueError(f"draw({index + 1}) returned {other}")
        order[index], order[other] = order[other], order[index]
    return order


def tables_needed(players: int, seats_per_table: int) -> int:
    """The fewest tables that seat ``players``."""
    return max(1, math.ceil(players / seats_per_table))


def initial_tables(entries: Sequence[int], seats_per_table: int, draw: Draw) -> list[list[int]]:
    """The entries of each table (table 1 first), sizes within one of each other, order drawn; dealt round
    the tables from the last one, so when sizes differ the higher-numbered tables hold one more."""
    order = shuffled(entries, draw)
    count = tables_needed(len(order), seats_per_table)
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, entry in enumerate(order):
        tables[count - 1 - index % count].append(entry)
    return tables


def balance_move(counts: Mapping[int, int], busy: Collection[int], *, not_to: Collection[int] = ()) -> \
        tuple[int, int] | None:
    """The next balancing move (from table, to table), or ``None`` when the tables are within one player
    or every largest table is in a hand (the move waits for its end). ``not_to``: tables that take nobody
    (one about to break)."""
    targets = {table: count for table, count in counts.items() if table not in not_to}
    if not targets:
        return None
    smallest = min(targets.values())
    low = min(table for table, count in targets.items() if count == smallest)
    sources = [table for table, count in counts.items() if count >= smallest + 2 and table not in busy]
    if not sources:
        return None
    largest = max(counts[table] for table in sources)
    return max(table for table in sources if counts[table] == largest), low


def table_to_break(counts: Mapping[int, int], seats_per_table: int) -> int | None:
    """The table to break when the players fit in one table fewer (the highest-numbered), else ``None``."""
    if len(counts) < 2:
        return None
    if sum(counts.values()) > (len(counts) - 1) * seats_per_table:
        return None
    return max(counts)


def breaking_target(counts: Mapping[int, int], breaking: int) -> int:
    """Where the next player of a broken table goes: the table with the fewest players (lowest number)."""
    others = {table: count for table, count in counts.items() if table != breaking}
    smallest = min(others.values())
    return min(table for table, count in others.items() if count == smallest)
