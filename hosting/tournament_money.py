"""A tournament's money as ledger rows (issue 18; :mod:`hosting.store.tournaments` names the locations).

The director's cashier (:class:`engine.tournament.money.Cashier`) decides every amount; this module writes what
its events say moved: an entry, rebuy or add-on paid from a balance (buy-in to the pool, fee to the house,
knockout part to the bounty fund), a refund back the same way, prizes and bounties to balances, a ticket prize to
its holder. What the house adds (an overlay, a freeroll's pool, a Spin's top-up, a room-funded bounty) or keeps (a
Spin drawn below the buy-ins) has no player event: the book follows the cashier's pool, fees and bounty fund and
writes the difference from or to ``issue`` / ``fee``, so that the ledger always holds what the director holds.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.events import Event
from engine.tournament.director import Tournament
from engine.tournament.events import BountyWon, Credited, Paid, PrizeAwarded
from hosting.store.tournaments import MoneyMove


class MoneyBook:
    """The ledger's view of one tournament's pool, fees and bounty fund, and the rows that keep it equal to the
    director's. A restored tournament starts from its cashier (its ledger rows were written with its state)."""

    def __init__(self, director: Tournament, tournament_id: str) -> None:
        self.director = director
        self.tournament_id = tournament_id
        cashier = director.cashier
        self.held = {"tournament": cashier.pool, "fee": cashier.fees, "bounty": cashier.bounty_fund}

    def moves(self, events: Iterable[Event]) -> list[MoneyMove]:
        """The ledger rows of one step's ``events``, then the house's part (see the module docstring)."""
        rows: list[MoneyMove] = []
        for event in events:
            rows += self._rows_of(event)
        cashier = self.director.cashier
        for location, amount in (("tournament", cashier.pool), ("bounty", cashier.bounty_fund),
                                 ("fee", cashier.fees)):
            difference = amount - self.held[location]
            if difference > 0:
                rows.append(self._move("issue", location, difference, None, "house"))
            elif difference < 0:
                rows.append(self._move(location, "issue", -difference, None, "house"))
        return rows

    def _move(self, source: str, destination: str, amount: int, player: str | None, reason: str,
              ticket_for: str | None = None) -> MoneyMove:
        for location, sign in ((source, -1), (destination, 1)):
            if location in self.held:
                self.held[location] += sign * amount
        if "ticket" in (source, destination) and ticket_for is None:
            ticket_for = self.tournament_id  # a ticket for this tournament paid or given back
        return MoneyMove(source, destination, amount, player, f"{self.tournament_id}: {reason}", ticket_for)

    def _entry_parts(self) -> tuple[tuple[int, str], ...]:
        price = self.director.settings.price
        return (price.buy_in, "tournament"), (price.fee, "fee"), (price.knockout, "bounty")

    def _rows_of(self, event: Event) -> list[MoneyMove]:
        settings = self.director.settings
        if isinstance(event, Paid) and event.method == "ticket" and event.what == "entry":
            return [self._move("ticket", location, amount, event.player, "entry by ticket")
                    for amount, location in self._entry_parts() if amount]
        if isinstance(event, Credited) and event.as_ticket is not None and event.amount > 0:
            return [self._move(location, "ticket", amount, event.player, f"{event.reason}: the ticket back")
                    for amount, location in self._entry_parts() if amount]
        if isinstance(event, Paid) and event.method == "balance":
            parts: tuple[tuple[int, str], ...]
            if event.what == "entry":
                price = settings.price
                parts = ((price.buy_in, "tournament"), (price.fee, "fee"), (price.knockout, "bounty"))
            elif event.what == "rebuy" and settings.rebuys is not None:
                parts = ((settings.rebuys.price, "tournament"), (settings.rebuys.fee, "fee"))
            elif event.what == "add_on" and settings.add_on is not None:
                parts = ((settings.add_on.price, "tournament"), (settings.add_on.fee, "fee"))
            else:
                parts = ((event.amount, "tournament"),)
            return [self._move("balance", location, amount, event.player, event.what)
                    for amount, location in parts if amount]
        if isinstance(event, Credited) and event.as_ticket is None and event.amount > 0:
            if event.reason in ("refund", "cancelled"):  # an entry given back the way it was paid
                price = settings.price
                return [self._move(location, "balance", amount, event.player, event.reason) for amount, location
                        in ((price.buy_in, "tournament"), (price.fee, "fee"), (price.knockout, "bounty")) if amount]
            return [self._move("tournament", "balance", event.amount, event.player, event.reason)]
        if isinstance(event, PrizeAwarded) and event.amount:
            if event.secondary is not None:
                return [self._move("issue", "balance", event.amount, event.player, f"secondary prize, place "
                                                                                     f"{event.place}")]
            if event.ticket_to is not None:
                return [self._move("tournament", "ticket", event.amount, event.player,
                                   f"ticket to {event.ticket_to}, place {event.place}", event.ticket_to)]
            return [self._move("tournament", "balance", event.amount, event.player, f"prize, place {event.place}")]
        if isinstance(event, BountyWon) and event.amount:
            return [self._move("bounty", "balance", event.amount, event.winner, f"bounty on {event.loser}")]
        return []
