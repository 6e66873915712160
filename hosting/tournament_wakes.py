"""Which of a tournament's tables a director step changed (issue 18, 3,000 entrants): the room mirrors and wakes
those, not all of its tables after every hand (334 tables and 3,000 seats per step at 3,000 entrants).

The events name them: a seat taken or left, a table opened or broken, chips added to an entry's stack, and the
table whose hand brought the step (``at``: its stacks, its busts). Anything else that can change tables — a level,
a break, hand-for-hand (a new round wakes every table), a deal, the start or the end, or an event this module
does not know — changes them all (``None``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Event
from engine.tournament.director import Tournament
from engine.tournament.events import (
    AddedOn,
    BountyWon,
    Credited,
    Eliminated,
    LateRegistrationClosed,
    Paid,
    PlayerMoved,
    PlayerSeatedAt,
    PrizeAwarded,
    Ranked,
    Rebought,
    RebuyOffered,
    Registered,
    TableBroken,
    TableOpened,
    Unregistered,
)

TABLELESS = (BountyWon, Credited, LateRegistrationClosed, Paid, PrizeAwarded, Ranked, Registered, Unregistered,
             RebuyOffered)
"""Events that change no table by themselves (a rebuy offer waits at the table whose hand brought it: ``at``)."""


def changed_tables(director: Tournament, events: Sequence[Event], at: int | None) -> set[int] | None:
    """The director's tables this step changed; None: every table (see the module docstring)."""
    if director.hand_for_hand:
        return None
    tables: set[int] = set() if at is None else {at}
    for event in events:
        if isinstance(event, PlayerSeatedAt):
            tables.add(event.table)
        elif isinstance(event, PlayerMoved):
            tables.update((event.from_table, event.to_table))
        elif isinstance(event, (TableOpened, TableBroken)):
            tables.add(event.table)
        elif isinstance(event, (Rebought, AddedOn)):
            table = director.entries[event.entry].table
            if table is None:
                return None
            tables.add(table)
        elif isinstance(event, Eliminated):
            if at is None:
                return None  # taken off a table no event names (a rebuy period's end, a declined rebuy)
        elif not isinstance(event, TABLELESS):
            return None
    return tables
