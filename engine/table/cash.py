"""The cash policy: buy-ins and their limits, top-ups, the waiting list, new players owing a big blind, and a
player with no chips sitting out with his seat held (RULES.md §4 and §8; R-BUYIN-1, R-BLIND-3, R-DISC-1).

:class:`engine.table.Table` keeps its cash verbs (``sit``, ``top_up``, ``join_waiting_list``, …) for the room;
they are this policy's, and a table with another policy refuses them with a :class:`TableRuleError`.
"""

from __future__ import annotations

from dataclasses import dataclass

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


# --- auto top-up and auto rebuy (a player's standing order, R-BUYIN-1) ----------------------------------------


@dataclass(frozen=True, slots=True)
class AutoTopUp:
    """A player's standing order at a cash table, carried out only between his hands (R-BUYIN-1: top-ups between
    hands, up to the maximum): ``below`` > 0 tops him up when 0 < stack < ``below``; ``rebuy`` buys him in
    again when he has no chips. Either brings the stack to ``to`` (None: the table's maximum buy-in)."""

    below: int = 0
    rebuy: bool = False
    to: int | None = None

    @property
    def on(self) -> bool:
        return self.below > 0 or self.rebuy


@dataclass(frozen=True, slots=True)
class AutoChips:
    """What a standing order asks now: ``amount`` chips from the balance (``kind`` "auto top-up" or "auto
    rebuy", the ledger's reason); ``amount`` 0 with ``short``: it is due but the balance cannot pay it."""

    amount: int
    kind: str
    short: str = ""


def verify_auto_top_up(order: AutoTopUp, min_buy_in: int, max_buy_in: int | None) -> None:
    """:class:`InvalidAmount` for an order the table's buy-in limits cannot carry out.

    >>> verify_auto_top_up(AutoTopUp(below=100, to=200), 80, 200)
    >>> verify_auto_top_up(AutoTopUp(below=100, to=250), 80, 200)
    Traceback (most recent call last):
    engine.errors.InvalidAmount: top up to 80 to 200 chips here (the table's buy-in), not 250
    >>> verify_auto_top_up(AutoTopUp(below=201), 80, 200)
    Traceback (most recent call last):
    engine.errors.InvalidAmount: the threshold is a stack below the top-up's 200 chips, not 201
    """
    most = "any number of" if max_buy_in is None else f"{max_buy_in}"
    target = order.to if order.to is not None else max_buy_in
    if order.on and target is None:
        raise InvalidAmount(f"this table has no maximum buy-in: say the stack to top up to (at least {min_buy_in})")
    if target is not None and not (min_buy_in <= target and (max_buy_in is None or target <= max_buy_in)):
        raise InvalidAmount(f"top up to {min_buy_in} to {most} chips here (the table's buy-in), not {target}")
    if order.below < 0 or (target is not None and order.below > target):
        raise InvalidAmount(f"the threshold is a stack below the top-up's {target} chips, not {order.below}")


def auto_chips(order: AutoTopUp, stack: int, min_buy_in: int, max_buy_in: int | None,
               balance: int | None) -> AutoChips | None:
    """What ``order`` asks for a player with ``stack`` chips between his hands and ``balance`` in the bank (None:
    the room keeps no balances), within the table's buy-in limits; None when nothing is due.

    >>> auto_chips(AutoTopUp(below=100), 60, 80, 200, 1000)      # below 100: up to the maximum
    AutoChips(amount=140, kind='auto top-up', short='')
    >>> auto_chips(AutoTopUp(below=100, to=150), 60, 80, 200, 50)  # the bank pays what it holds
    AutoChips(amount=50, kind='auto top-up', short='')
    >>> auto_chips(AutoTopUp(below=100), 0, 80, 200, 1000) is None  # busted: a top-up order does not rebuy
    True
    >>> auto_chips(AutoTopUp(rebuy=True), 0, 80, 200, 70)
    AutoChips(amount=0, kind='auto rebuy', short='you have 70 chips in the bank; the minimum buy-in is 80')
    """
    target = order.to if order.to is not None else max_buy_in
    if target is None:
        return None
    if max_buy_in is not None:
        target = min(target, max_buy_in)
    if stack <= 0:
        if not order.rebuy:
            return None
        amount = target if balance is None else min(target, balance)
        if amount < min_buy_in:
            return AutoChips(0, "auto rebuy", f"you have {balance} chips in the bank; the minimum buy-in is "
                                              f"{min_buy_in}")
        return AutoChips(amount, "auto rebuy")
    if not (order.below > 0 and stack < order.below and stack < target):
        return None
    amount = target - stack if balance is None else min(target - stack, balance)
    if amount <= 0:
        return AutoChips(0, "auto top-up", "your bank is empty")
    return AutoChips(amount, "auto top-up")
