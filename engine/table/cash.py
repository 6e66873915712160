"""The cash policy: buy-ins and their limits, top-ups, the waiting list, new players owing a big blind, and a
player with no chips sitting out with his seat held (RULES.md §4 and §8; R-BUYIN-1, R-BLIND-3, R-DISC-1).

:class:`engine.table.Table` keeps its cash verbs (``sit``, ``top_up``, ``join_waiting_list``, …) for the room;
they are this policy's, and a table with another policy refuses them with a :class:`TableRuleError`.
"""

from __future__ import annotations

from engine.button import BlindPlan
from engine.clock import PlayerClock
from engine.errors import AlreadySeated, HandInProgress, InvalidAmount, NotSeated, TableFull, TableRuleError
from engine.events import Event
from engine.seating import BlindChoice, SeatedPlayer, WaitingList
from engine.table.policy import PolicyTable
from engine.table_events import BlindOwed, ChipsAdded, PlayerSatOut, PlayerSeated, WaitingListJoined, WaitingListLeft


class CashPolicy:
    """A cash table's rules. Its buy-in limits are the table config's ``min_buy_in``/``max_buy_in``."""

    kind = "cash"
    tracks_missed_blinds = True
    frees_held_seats = True
    deals_in_absent = False

    def __init__(self) -> None:
        self.waiting_list = WaitingList()

    # --- the policy's decisions (engine.table.policy.TablePolicy) ----------------------------------------

    def arrival(self, table: PolicyTable, seated: SeatedPlayer) -> list[Event]:
        """At a table already playing he is new and owes a big blind (R-BLIND-3)."""
        if table.positions is None:
            return []
        seated.owes_big_blind = True
        return [BlindOwed(seated.seat, seated.player, small_blind=False, big_blind=True)]

    def out_of_chips(self, table: PolicyTable, seated: SeatedPlayer, now: float) -> list[Event]:
        """No chips: he sits out, his seat held for ``clock.seat_hold_seconds`` (time to top up)."""
        if seated.sitting_out:
            return []
        seated.sitting_out = True
        seated.inactive_since = now if seated.inactive_since is None else seated.inactive_since
        return [PlayerSatOut(seated.seat, seated.player, "no_chips",
                             seated.inactive_since + table.config.clock.seat_hold_seconds)]

    def sits_out(self, table: PolicyTable, plan: BlindPlan) -> set[int]:
        return set()  # who waits for the big blind is the blind plan's (R-BLIND-3)

    def hand_started(self, table: PolicyTable) -> None:
        pass

    # --- buy-ins, top-ups, the waiting list (R-BUYIN-1) --------------------------------------------------

    def verify_sit(self, table: PolicyTable, player: str, buy_in: int, *, seat: int | None = None) -> int:
        """Raise the reason ``player`` may not sit (in ``seat``, or the first free seat) with ``buy_in`` chips;
        returns the seat he would get. :class:`AlreadySeated`, :class:`TableFull` (no seat, or the free seats
        are promised to players ahead on the waiting list), :class:`TableRuleError` (no such seat, taken),
        :class:`InvalidAmount` (buy-in outside min..max)."""
        current = table.seat_of(player)
        if current is not None:
            raise AlreadySeated(f"{player} already sits in seat {current}")
        free = table.free_seats()
        if not free:
            raise TableFull(f"the table is full ({table.config.seat_count} seats); join the waiting list")
        waiting = self.waiting_list
        ahead = waiting.players.index(player) if player in waiting else len(waiting)
        if ahead >= len(free):
            raise TableFull(
                f"the free seat{'s are' if len(free) > 1 else ' is'} promised to "
                f"{', '.join(waiting.players[:len(free)])} on the waiting list"
            )
        if seat is not None:
            table.verify_free_seat(seat)
        self.verify_amount(table, buy_in, stack=0, what="buy-in")
        return free[0] if seat is None else seat

    def sit(self, table: PolicyTable, player: str, buy_in: int, now: float, *, seat: int | None = None,
            blind_choice: BlindChoice = BlindChoice.WAIT_FOR_BIG_BLIND) -> list[Event]:
        """Seat ``player`` with ``buy_in`` chips from his balance (see :meth:`engine.table.Table.sit`)."""
        chosen = self.verify_sit(table, player, buy_in, seat=seat)
        seated = SeatedPlayer(player, chosen, buy_in, PlayerClock.fresh(table.config.clock), blind_choice=blind_choice)
        events: list[Event] = []
        if player in self.waiting_list:
            self.waiting_list.players.remove(player)
            events.append(WaitingListLeft(player))
        table.players[chosen] = seated
        events.append(PlayerSeated(chosen, player, buy_in))
        return events + self.arrival(table, seated)

    def top_up(self, table: PolicyTable, player: str, amount: int, now: float) -> list[Event]:
        """Add ``amount`` chips from the balance between hands, up to the maximum buy-in (R-BUYIN-1)."""
        seated = table.player(player)
        if table.in_hand(player):
            raise HandInProgress(f"{player} is in a hand: top up after it ends")
        self.verify_amount(table, amount, stack=seated.stack, what="top-up")
        seated.stack += amount
        return [ChipsAdded(seated.seat, player, amount, seated.stack)]

    def join_waiting_list(self, table: PolicyTable, player: str) -> list[Event]:
        """Put ``player`` at the end of the waiting list. :class:`AlreadySeated` if seated or already listed."""
        if table.seat_of(player) is not None:
            raise AlreadySeated(f"{player} already sits at this table")
        if player in self.waiting_list:
            raise AlreadySeated(f"{player} is already number {self.waiting_list.position(player)} on the waiting list")
        self.waiting_list.players.append(player)
        return [WaitingListJoined(player, len(self.waiting_list))]

    def leave_waiting_list(self, player: str) -> list[Event]:
        """Take ``player`` off the waiting list; :class:`NotSeated` if he is not on it."""
        if player not in self.waiting_list:
            raise NotSeated(f"{player} is not on the waiting list")
        self.waiting_list.players.remove(player)
        return [WaitingListLeft(player)]

    @staticmethod
    def verify_amount(table: PolicyTable, amount: int, *, stack: int, what: str) -> None:
        """Raise :class:`InvalidAmount` for a ``what`` (buy-in, top-up) of ``amount`` onto ``stack`` chips
        outside the table's limits; :class:`TableRuleError` at a table where nobody buys in."""
        config = table.config
        if not config.buys_in:
            raise TableRuleError("nobody buys in at this table: its owner brings every stack")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidAmount(f"a {what} must be a whole number of chips > 0, got {amount!r}")
        maximum = config.max_buy_in
        if stack == 0 and amount < config.min_buy_in:
            raise InvalidAmount(f"the minimum buy-in is {config.min_buy_in} chips, got {amount}")
        if maximum is not None and stack + amount > maximum:
            room = maximum - stack
            raise InvalidAmount(
                f"the maximum buy-in is {maximum} chips: {what} of {amount} would make {stack + amount}"
                + (f" (at most {room} more)" if stack else "")
            )
