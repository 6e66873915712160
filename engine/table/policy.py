"""What differs between tables: the policy a :class:`engine.table.Table` asks at its decision points.

The neutral table (seats, button, blinds, clocks, turns) does not know whether it is a cash table, a
tournament's or a fast-fold pool's (DESIGN.md "Owners, not special cases"); at these points it asks its policy:

* a player arrives (bought in, moved in, seated by a pool) at a table that already plays: what does he owe?
  (cash: a big blind, R-BLIND-3; a tournament: nothing, TDA 2022 Rule 12);
* does the table remember missed blinds (cash: yes; a tournament: "missed blinds do not exist");
* a player's stack reached 0 at the end of a hand (cash: he sits out, his seat held; a tournament: he stays
  seated with nothing until the director removes him — a rebuy may still save him);
* a seat held past its time (sitting out, away): is it freed (cash), or never (R-TOUR-6)?
* an absent player (disconnected, Away): left out of new hands (cash, R-DISC-1), or dealt in and played for
  (R-TOUR-6)? And must a seat the blind plan deals in sit this hand out all the same (TDA 2022 Rule 12)?

:mod:`engine.table.tournament` is a tournament's (absent players dealt in, newcomers between the button and the
small blind wait a hand). Buy-ins, top-ups and the waiting list are the cash policy's own verbs
(:class:`engine.table.cash.CashPolicy`); an owner that brings every stack uses :meth:`Table.seat_with_stack`
and :meth:`Table.remove_player`.
"""

from __future__ import annotations

from typing import Protocol

from engine.button import BlindPlan, Positions
from engine.events import Event
from engine.seating import SeatedPlayer, WaitingList
from engine.table.config import TableConfig


class PolicyTable(Protocol):
    """What a policy reads and changes of its table (:class:`engine.table.neutral.Table` is one): typed here so
    that the policies need not import the table that imports them."""

    @property
    def config(self) -> TableConfig: ...

    @property
    def players(self) -> dict[int, SeatedPlayer]: ...

    @property
    def positions(self) -> Positions | None: ...

    def seat_of(self, player: str) -> int | None: ...

    def player(self, player: str) -> SeatedPlayer: ...

    def free_seats(self) -> list[int]: ...

    def in_hand(self, player: str) -> bool: ...

    def verify_free_seat(self, seat: int) -> None: ...


class TablePolicy(Protocol):
    """The decisions a table leaves to its kind. ``kind`` names it (``"cash"``, ``"tournament"``, ``"pool"``)."""

    kind: str
    waiting_list: WaitingList
    """Players promised the next free seats (always empty where the owner seats everyone)."""
    tracks_missed_blinds: bool
    frees_held_seats: bool
    deals_in_absent: bool
    """Absent players (disconnected, Away) are dealt in and played for at once (R-TOUR-6), not left out."""

    def arrival(self, table: PolicyTable, seated: SeatedPlayer) -> list[Event]:
        """``seated`` just took his seat at ``table`` (``table.positions`` is None before its first hand):
        mark what he owes; the events say it."""
        ...

    def out_of_chips(self, table: PolicyTable, seated: SeatedPlayer, now: float) -> list[Event]:
        """``seated`` ended a hand with no chips: what becomes of his seat."""
        ...

    def sits_out(self, table: PolicyTable, plan: BlindPlan) -> set[int]:
        """Seats ``plan`` deals in that must sit this hand out all the same (the table plans again without
        them), e.g. a tournament newcomer between the button and the small blind (TDA 2022 Rule 12)."""
        ...

    def hand_started(self, table: PolicyTable) -> None:
        """A hand was just dealt at ``table``."""
        ...


class OwnerStacksPolicy:
    """A table whose owner brings and takes every stack (a tournament director, a pool): nobody owes blinds
    on arrival or for missed blinds, a player with no chips stays seated until the owner removes him, and no
    seat is ever freed by the table's clock (R-TOUR-6). Owners with other wishes write their own policy."""

    kind = "owned"
    tracks_missed_blinds = False
    frees_held_seats = False
    deals_in_absent = False

    def __init__(self, kind: str = "owned") -> None:
        self.kind = kind
        self.waiting_list = WaitingList()

    def arrival(self, table: PolicyTable, seated: SeatedPlayer) -> list[Event]:
        return []

    def out_of_chips(self, table: PolicyTable, seated: SeatedPlayer, now: float) -> list[Event]:
        return []

    def sits_out(self, table: PolicyTable, plan: BlindPlan) -> set[int]:
        return set()

    def hand_started(self, table: PolicyTable) -> None:
        pass
