"""Who is paid what (R-TOUR-5; seed 000 "Existen dos esquemas para la distribución de premios").

A payout is a tuple of :class:`Prize`, one per paid place from 1st down. Amounts are whole units of the
room's money; every function pays the pool exactly (rounding: :mod:`engine.tournament.shares`, odd units to
the higher place).

* :func:`default_payouts` — the schedule shipped by default: about 15% of the field paid, top-heavy.
  Small fields: 1 paid up to 3 entrants, 65/35 up to 6, 50/30/20 up to 10. Larger fields pay
  ``max(3, ⌈15% of entrants⌉)`` places with weights 1/place (harmonic): 1st takes about 15% of the pool at
  3,000 entrants and the last place about one buy-in, as the big online rooms' tables do.
* :func:`table_payouts` — a table of percentages from the settings ("Tabla").
* :func:`winner_takes_all` — one prize.
* :func:`ticket_payouts` — tickets of a fixed value fill places while the pool allows, the remainder goes
  in cash to the next place (seed 000's worked check: 35 entries × 1, ticket 10 → tickets to places 1–3,
  5 in cash to place 4). A satellite is this with tickets to a named tournament.
* :func:`with_secondary_prize` — the next N places after the paid ones get a secondary prize.
* :func:`for_entrants` — a table with more paid places than entrants: the places that exist share the whole
  pool in proportion to their percentages (RULES.md, decision of turn 3: 50/30/20 with 2 entrants pays
  62.5/37.5); a satellite with more tickets than entrants gives each entrant a ticket worth an equal share.
* :func:`split_tied_places` — players finishing in equal places (eliminated in the same hand-for-hand
  deal, TDA Rule 2022 #21) share the prizes of those places equally.

>>> [prize.amount for prize in default_payouts(9, 900)]
[450, 270, 180]
>>> [(prize.amount, prize.ticket_to) for prize in ticket_payouts(35, 10, "main")]
[(10, 'main'), (10, 'main'), (10, 'main'), (5, None)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.tournament.shares import apportion, split_equally


@dataclass(frozen=True, slots=True)
class Prize:
    """One place's prize: ``amount`` in money, or a ticket worth ``amount`` to tournament ``ticket_to``.
    ``secondary``: a secondary prize (its description), paid by the room outside the pool."""

    amount: int
    ticket_to: str | None = None
    secondary: str | None = None

    @property
    def is_ticket(self) -> bool:
        """Whether the prize is a ticket rather than money."""
        return self.ticket_to is not None


DEFAULT_PAID_FRACTION = Fraction(15, 100)


def places_paid(entrants: int) -> int:
    """How many places the default schedule pays.

    >>> [places_paid(n) for n in (2, 6, 9, 18, 100, 3_000)]
    [1, 2, 3, 3, 15, 450]
    """
    if entrants < 1:
        raise ValueError(f"no entrants to pay: {entrants}")
    if entrants <= 3:
        return 1
    if entrants <= 6:
        return 2
    if entrants <= 10:
        return 3
    return max(3, math.ceil(entrants * DEFAULT_PAID_FRACTION))


_SMALL_FIELD_WEIGHTS: dict[int, tuple[int, ...]] = {1: (100,), 2: (65, 35), 3: (50, 30, 20)}


def default_payouts(entrants: int, pool: int) -> tuple[Prize, ...]:
    """The default schedule for ``entrants`` and a prize ``pool`` (see the module docstring)."""
    paid = min(places_paid(entrants), entrants)
    weights: Sequence[Fraction | int] = _SMALL_FIELD_WEIGHTS.get(paid) or [Fraction(1, place)
                                                                           for place in range(1, paid + 1)]
    return tuple(Prize(amount) for amount in apportion(pool, weights))


def table_payouts(pool: int, percentages: Sequence[int | Fraction]) -> tuple[Prize, ...]:
    """A payout table from the settings: ``percentages`` per place from 1st, summing to 100.

    >>> [prize.amount for prize in table_payouts(1_001, [60, 40])]
    [601, 400]
    """
    if sum(percentages) != 100 or any(share <= 0 for share in percentages):
        raise ValueError(f"payout percentages are > 0 and sum to 100, got {list(percentages)}")
    if any(later > earlier for earlier, later in itertools.pairwise(percentages)):
        raise ValueError("a lower place never pays more than a higher one")
    return tuple(Prize(amount) for amount in apportion(pool, percentages))


def winner_takes_all(pool: int) -> tuple[Prize, ...]:
    """The whole pool to 1st place."""
    return (Prize(pool),)


def ticket_payouts(pool: int, ticket_value: int, ticket_to: str | None) -> tuple[Prize, ...]:
    """Tickets worth ``ticket_value`` to places 1, 2, … while the pool allows; the rest in cash to the next
    place (``ticket_to`` ``None``: the tickets are the room's generic tickets). ``ValueError`` if a ticket is
    worth 0.

    >>> [(p.amount, p.is_ticket) for p in ticket_payouts(30, 10, "main")]
    [(10, True), (10, True), (10, True)]
    >>> [(p.amount, p.is_ticket) for p in ticket_payouts(7, 10, "main")]
    [(7, False)]
    """
    if ticket_value <= 0:
        raise ValueError(f"a ticket is worth more than 0, got {ticket_value}")
    tickets, remainder = divmod(pool, ticket_value)
    prizes = [Prize(ticket_value, ticket_to or "ticket") for _ in range(tickets)]
    if remainder:
        prizes.append(Prize(remainder))
    return tuple(prizes)


def with_secondary_prize(prizes: Sequence[Prize], places: int, amount: int, description: str) -> tuple[Prize, ...]:
    """``prizes`` followed by ``places`` secondary prizes worth ``amount`` each (room-funded, seed 000
    "Premio Secundario").

    >>> [(p.amount, p.secondary) for p in with_secondary_prize([Prize(100)], 2, 5, "t-shirt")]
    [(100, None), (5, 't-shirt'), (5, 't-shirt')]
    """
    if places < 0 or amount < 0:
        raise ValueError("secondary prizes: places and amount are >= 0")
    return (*prizes, *(Prize(amount, secondary=description) for _ in range(places)))


def for_entrants(prizes: Sequence[Prize], entrants: int, weights: Sequence[int | Fraction] | None = None,
                 ) -> tuple[Prize, ...]:
    """``prizes`` cut to the places ``entrants`` can fill, paying the same pool: the pool prizes of the places
    that do not exist are shared by those that do, in proportion to ``weights`` (a table's percentages;
    default: the prizes themselves). More tickets than entrants: each entrant's ticket is worth an equal share of
    the pool (odd units to the higher places; the room credits a ticket's value above an entry's cost). Secondary
    prizes (the house's) beyond the entrants are dropped.

    >>> [p.amount for p in for_entrants(table_payouts(200, [50, 30, 20]), 2, [50, 30, 20])]
    [125, 75]
    >>> [(p.amount, p.ticket_to) for p in for_entrants(ticket_payouts(50, 10, "main"), 3)]
    [(17, 'main'), (17, 'main'), (16, 'main')]
    """
    if entrants < 1:
        raise ValueError(f"no entrants to pay: {entrants}")
    pool_prizes = [prize for prize in prizes if prize.secondary is None]
    if len(pool_prizes) <= entrants:
        return tuple(prizes[:entrants])
    pool = sum(prize.amount for prize in pool_prizes)
    kept = pool_prizes[:entrants]
    if kept[0].is_ticket:  # more tickets than entrants: every kept place is a ticket
        return tuple(Prize(amount, kept[0].ticket_to) for amount in split_equally(pool, entrants))
    shares = apportion(pool, list(weights[:entrants]) if weights is not None else [p.amount for p in kept])
    return tuple(Prize(amount) for amount in shares)


def split_tied_places(prizes: Sequence[Prize], first_place: int, count: int) -> list[Prize]:
    """The prizes of ``count`` players tied for places ``first_place``..``first_place + count - 1``
    (1-based): the pooled money of those places in equal shares, odd units to the first listed player
    (TDA 2022 Rule 21: players eliminated on the same hand-for-hand deal at different tables tie). Tickets
    cannot be cut: tied places that include a ticket share its value in money. Places past the end pay 0.

    >>> [prize.amount for prize in split_tied_places([Prize(50), Prize(30), Prize(20)], 2, 2)]
    [25, 25]
    """
    if first_place < 1 or count < 1:
        raise ValueError("tied places start at 1 and number at least one")
    tied = [prizes[index] for index in range(first_place - 1, first_place - 1 + count) if index < len(prizes)]
    if count == 1:
        return [tied[0] if tied else Prize(0)]
    total = sum(prize.amount for prize in tied if prize.secondary is None)
    return [Prize(amount) for amount in split_equally(total, count)]
