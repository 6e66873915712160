"""The tournament policy: what a tournament table decides differently from a cash table (RULES.md §7).

* Stacks come and go with the director (:meth:`Table.seat_with_stack`, :meth:`Table.remove_player`,
  :meth:`Table.add_chips` for a rebuy or add-on); nobody buys in, there is no waiting list.
* Missed blinds do not exist: nobody owes a blind, on arrival or after sitting out.
* A player who arrives at a table already playing (moved, late, re-entered) "can get any seat including small or
  big blind or the button and be dealt in except between the small blind and button" (TDA 2022 Rule 12): he
  sits out the one hand in which his seat falls between the button and the small blind.
* R-TOUR-6: an absent player (disconnected, or out of time) is never removed: he is dealt in, posts, and at his
  turn is checked when free, else folded, at once; his seat is never freed by the clock.
* A player with no chips stays seated until the director removes him (a rebuy may still save him).
"""

from __future__ import annotations

from engine.button import BlindPlan
from engine.events import Event
from engine.seating import SeatedPlayer, WaitingList
from engine.table.policy import PolicyTable


class TournamentPolicy:
    """A tournament table's rules (see the module)."""

    kind = "tournament"
    tracks_missed_blinds = False
    frees_held_seats = False
    deals_in_absent = True

    def __init__(self) -> None:
        self.waiting_list = WaitingList()
        self._arrived: set[int] = set()  # seats taken since the last deal at a table already playing

    def arrival(self, table: PolicyTable, seated: SeatedPlayer) -> list[Event]:
        if table.positions is not None:
            self._arrived.add(seated.seat)
        return []

    def out_of_chips(self, table: PolicyTable, seated: SeatedPlayer, now: float) -> list[Event]:
        return []

    def sits_out(self, table: PolicyTable, plan: BlindPlan) -> set[int]:
        """TDA 2022 Rule 12: the newcomers whose seat falls strictly between the button and the small blind."""
        if plan.small_blind_seat is None:
            return set()
        count, button = table.config.seat_count, plan.button_seat
        return {seat for seat in plan.dealt_in if seat in self._arrived
                and 0 < (seat - button) % count < (plan.small_blind_seat - button) % count}

    def hand_started(self, table: PolicyTable) -> None:
        self._arrived.clear()
