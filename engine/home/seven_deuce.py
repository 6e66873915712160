"""The 7-2 game (R-HOME-4, docs/rules-home.md): at a Hold'em table with ``seven_deuce_bounty`` set, a player who
wins a pot alone holding 7-2 (any suits) with the hand shown collects the bounty from every other player dealt
into the hand, folded or not.

Decisions (docs/rules-home.md): "wins a pot" means takes a whole pot (main or side) without sharing it — in a
hand run twice, a pot's half on one board; a split pot does not pay. The 7-2 must be shown: a winner at
showdown has shown it; one who won uncontested has it turned face up by the table (he can only gain by it).
The bounty is paid from the stacks after the pots are awarded; a payer with fewer chips than the bounty pays
what he has and owes nothing more. Two 7-2 winners in one hand (main and side pot) each collect, in clockwise
order from the button; each pays the other.

Worked example (R-HOME-4): bounty 5, three others dealt in with 40, 3 and 0 chips after the hand: they pay
5, 3 and 0: the winner collects 8.

>>> paid, stacks = collect([0], [0, 1, 2, 3], {0: 100, 1: 40, 2: 3, 3: 0}, bounty=5)
>>> paid, stacks
([(0, ((1, 5), (2, 3)), 8)], {0: 108, 1: 35, 2: 0, 3: 0})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.cards import Card, Rank
from engine.events import Event, PotAwarded

_SEVEN_DEUCE = frozenset((Rank.SEVEN, Rank.TWO))


def is_seven_deuce(cards: Sequence[Card]) -> bool:
    """Whether two hole cards are a seven and a deuce, any suits."""
    return len(cards) == 2 and {card.rank for card in cards} == _SEVEN_DEUCE


def sole_winners(events: Iterable[Event]) -> list[int]:
    """Seats that took some pot (per board, in a hand run twice) without sharing it, in the order awarded."""
    takers: dict[tuple[int, int], set[int]] = {}
    for event in events:
        if isinstance(event, PotAwarded):
            takers.setdefault((getattr(event, "board", 0), event.pot_index), set()).add(event.seat)
    winners: list[int] = []
    for seats in takers.values():
        if len(seats) == 1 and (seat := next(iter(seats))) not in winners:
            winners.append(seat)
    return winners


def bounty_winners(events: Iterable[Event], holes: Mapping[int, Sequence[Card]], order: Sequence[int]) -> list[int]:
    """Seats due a bounty: sole winners of a pot holding 7-2, in ``order`` (clockwise from the button's left)."""
    winners = set(sole_winners(events))
    return [seat for seat in order if seat in winners and is_seven_deuce(holes.get(seat, ()))]


def collect(winners: Sequence[int], order: Sequence[int], stacks: Mapping[int, int],
            bounty: int) -> tuple[list[tuple[int, tuple[tuple[int, int], ...], int]], dict[int, int]]:
    """Each winner collects ``bounty`` from every other seat in ``order`` (the seats dealt in), capped at what the
    payer has: ``([(winner, ((payer, chips), …), total)], stacks after)``. Payers who pay nothing are left out."""
    after = dict(stacks)
    results: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
    for winner in winners:
        start = order.index(winner)
        paid: list[tuple[int, int]] = []
        for step in range(1, len(order)):
            payer = order[(start + step) % len(order)]
            chips = min(bounty, after[payer])
            if chips > 0:
                after[payer] -= chips
                after[winner] += chips
                paid.append((payer, chips))
        results.append((winner, tuple(paid), sum(chips for _, chips in paid)))
    return results, after
