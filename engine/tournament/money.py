"""Entries and money (R-TOUR-2; seed 000 "Torneos"): every unit paid in is accounted, always.

An entry costs ``buy_in`` (to the prize pool) + ``fee`` (to the house) + ``knockout`` (to the bounties,
knockout tournaments). It is paid from the balance, by a **ticket**, or nothing (freerolls). A ticket must be
worth at least the cost and be valid for this tournament; the excess is credited to the player or — setting
off — added to the prize pool (seed 000: "el costo de este es añadido al bote de premios"). Unregistering
before play refunds the way it was paid (the ticket back, or its value in money, a setting). The house
funds the guarantee's overlay, a freeroll's pool, a Spin's multiplied pool, room bounties and secondary
prizes. Rebuys and add-ons pay their own price and fee.

The invariant, checked by :meth:`Cashier.balanced` and by the tests after every step::

    paid in by players + funded by the house = pool + fees + bounty fund + paid out to players

where "paid out" counts refunds, credits, prizes and bounties (money or ticket value). When the tournament
is complete the pool and the bounty fund are 0: everything paid in went to prizes, fees and bounties.

>>> cashier = Cashier(EntryPrice(buy_in=10, fee=1))
>>> _ = cashier.pay_entry("ana", 1, Balance())
>>> _ = cashier.pay_entry("bob", 2, Ticket(15, "t-7"))
>>> cashier.pool, cashier.fees, cashier.paid_out, cashier.balanced()
(20, 2, 4, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import InvalidAmount, TableRuleError
from engine.events import Event
from engine.tournament.events import Credited, Paid


@dataclass(frozen=True, slots=True)
class EntryPrice:
    """What one entry costs: ``buy_in`` to the pool, ``fee`` to the house, ``knockout`` to the bounties."""

    buy_in: int
    fee: int = 0
    knockout: int = 0

    def __post_init__(self) -> None:
        if min(self.buy_in, self.fee, self.knockout) < 0:
            raise ValueError(f"entry amounts are >= 0, got {self.buy_in}+{self.fee}+{self.knockout}")

    @property
    def total(self) -> int:
        """Everything the player pays."""
        return self.buy_in + self.fee + self.knockout


@dataclass(frozen=True, slots=True)
class Balance:
    """Pay from the player's balance."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """Pay with a ticket worth ``value``, id ``ticket_id``, valid for ``valid_for`` (a tournament id;
    ``None``: any tournament)."""

    value: int
    ticket_id: str
    valid_for: str | None = None


@dataclass(frozen=True, slots=True)
class Free:
    """A freeroll entry: nothing paid."""


Payment = Balance | Ticket | Free


@dataclass(slots=True)
class _EntryPayment:
    player: str
    payment: Payment
    cost: int  # what went to pool + fees + bounties for this entry
    buy_in: int
    fee: int
    knockout: int


@dataclass(slots=True)
class Cashier:
    """The money of one tournament. ``excess_ticket_credit``: credit a ticket's value above the cost (else it
    goes to the pool). ``ticket_refund_as_money``: an unregistering ticket holder gets money, not the ticket.
    ``tournament_id``: tickets valid for another tournament are refused."""

    price: EntryPrice
    excess_ticket_credit: bool = True
    ticket_refund_as_money: bool = False
    tournament_id: str = ""
    paid_in: int = 0
    house_funded: int = 0
    pool: int = 0
    fees: int = 0
    bounty_fund: int = 0
    paid_out: int = 0
    by_player_in: dict[str, int] = field(default_factory=dict)
    by_player_out: dict[str, int] = field(default_factory=dict)
    _entries: dict[int, _EntryPayment] = field(default_factory=dict)

    def balanced(self) -> bool:
        """The accounting identity of the module docstring."""
        return self.paid_in + self.house_funded == self.pool + self.fees + self.bounty_fund + self.paid_out

    # --- paying in ---------------------------------------------------------------------------------

    def verify_payment(self, payment: Payment, cost: int) -> None:
        """Raise the reason ``payment`` cannot pay ``cost`` (a ticket worth less, or for another tournament)."""
        if isinstance(payment, Ticket):
            if payment.valid_for is not None and payment.valid_for != self.tournament_id:
                raise TableRuleError(f"ticket {payment.ticket_id} is for tournament {payment.valid_for}")
            if payment.value < cost:
                raise InvalidAmount(f"ticket {payment.ticket_id} is worth {payment.value}, the entry costs {cost}")
        elif isinstance(payment, Free) and cost:
            raise InvalidAmount(f"this tournament costs {cost}: it is not a freeroll")

    def _take(self, player: str, payment: Payment, cost: int, entry: int, what: str) -> list[Event]:
        """Take ``cost`` from ``player`` by ``payment``; returns the events (excess credited or not)."""
        self.verify_payment(payment, cost)
        amount = payment.value if isinstance(payment, Ticket) else cost
        method = "ticket" if isinstance(payment, Ticket) else "free" if isinstance(payment, Free) else "balance"
        self.paid_in += amount
        self.by_player_in[player] = self.by_player_in.get(player, 0) + amount
        events: list[Event] = [Paid(player, entry, what, method, amount)]
        excess = amount - cost
        if excess:
            if self.excess_ticket_credit:
                self._pay_out(player, excess)
                events.append(Credited(player, excess, "excess_ticket_value"))
            else:
                self.pool += excess
        return events

    def pay_entry(self, player: str, entry: int, payment: Payment) -> list[Event]:
        """Entry ``entry`` paid: buy-in to the pool, fee to the house, knockout part to the bounties."""
        price = self.price
        events = self._take(player, payment, price.total, entry, "entry")
        self.pool += price.buy_in
        self.fees += price.fee
        self.bounty_fund += price.knockout
        self._entries[entry] = _EntryPayment(player, payment, price.total, price.buy_in, price.fee, price.knockout)
        return events

    def pay_extra(self, player: str, entry: int, what: str, to_pool: int, fee: int, payment: Payment) -> list[Event]:
        """A rebuy or add-on (``what``): ``to_pool`` + ``fee`` paid by ``payment``."""
        events = self._take(player, payment, to_pool + fee, entry, what)
        self.pool += to_pool
        self.fees += fee
        return events

    def refund_entry(self, entry: int, reason: str = "refund") -> list[Event]:
        """Give entry ``entry`` back the way it was paid (before it played): money as money; a ticket comes back
        as itself — and an excess credited at registration is debited again (a negative :class:`Credited`) —
        or, with ``ticket_refund_as_money``, as the money it paid for (cost, plus the excess if that went to
        the pool). The player ends exactly where he started."""
        paid = self._entries.pop(entry)
        self.pool -= paid.buy_in
        self.fees -= paid.fee
        self.bounty_fund -= paid.knockout
        payment = paid.payment
        if isinstance(payment, Free):
            return []
        if not isinstance(payment, Ticket):
            self._pay_out(paid.player, paid.cost)
            return [Credited(paid.player, paid.cost, reason)]
        excess = payment.value - paid.cost
        if not self.excess_ticket_credit:
            self.pool -= excess
        events: list[Event] = []
        if self.ticket_refund_as_money:
            amount = paid.cost if self.excess_ticket_credit else payment.value
            self._pay_out(paid.player, amount)
            return [Credited(paid.player, amount, reason)]
        if self.excess_ticket_credit and excess:
            self._pay_out(paid.player, -excess)
            events.append(Credited(paid.player, -excess, "excess_returned"))
        self._pay_out(paid.player, payment.value)
        events.append(Credited(paid.player, payment.value, reason, payment.ticket_id))
        return events

    def fund(self, amount: int, *, to_pool: bool = True) -> None:
        """The house adds ``amount``: to the pool (overlay, freeroll, Spin) or to the bounty fund."""
        if amount < 0:
            raise ValueError(f"the house funds amounts >= 0, got {amount}")
        self.house_funded += amount
        if to_pool:
            self.pool += amount
        else:
            self.bounty_fund += amount

    def house_keeps(self, amount: int) -> None:
        """Move ``amount`` of the pool to the house (a Spin drawn below the buy-ins paid)."""
        if not 0 <= amount <= self.pool:
            raise ValueError(f"the house keeps 0..{self.pool} of the pool, not {amount}")
        self.pool -= amount
        self.fees += amount

    def guarantee(self, guaranteed: int) -> int:
        """Top the pool up to ``guaranteed`` (seed 000: the minimum pool even if entries, rebuys and add-ons
        fall short); returns the overlay the house paid."""
        overlay = max(0, guaranteed - self.pool)
        self.fund(overlay)
        return overlay

    # --- paying out --------------------------------------------------------------------------------

    def _pay_out(self, player: str, amount: int) -> None:
        self.paid_out += amount
        self.by_player_out[player] = self.by_player_out.get(player, 0) + amount

    def pay_prize(self, player: str, amount: int) -> None:
        """A prize (money or ticket value) from the pool."""
        if amount > self.pool:
            raise RuntimeError(f"a prize of {amount} exceeds the pool left, {self.pool}")
        self.pool -= amount
        self._pay_out(player, amount)

    def pay_secondary(self, player: str, amount: int) -> None:
        """A secondary prize: the house pays it directly."""
        self.house_funded += amount
        self._pay_out(player, amount)

    def pay_bounty(self, player: str, amount: int) -> None:
        """A bounty from the bounty fund."""
        if amount > self.bounty_fund:
            raise RuntimeError(f"a bounty of {amount} exceeds the bounty fund left, {self.bounty_fund}")
        self.bounty_fund -= amount
        self._pay_out(player, amount)
