"""Main and side pots, and how a pot is split among winners (R-POT-1, R-POT-2).

Players are named by **position**: 0 is the first player left of the button, counting clockwise, so the
button is last. "Tied winners clockwise from the button" are then simply in ascending position.

Worked check from RULES.md (R-POT-1): A and B put in 100 each, C 50 and is all-in.

>>> pots = build_pots([100, 100, 50], [True, True, True])
>>> [(pot.amount, pot.eligible) for pot in pots]
[(150, (0, 1, 2)), (100, (0, 1))]
>>> split_evenly(100, [0, 1])
[(0, 50), (1, 50)]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: ``amount`` chips and the positions that may win it (``eligible``, ascending)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], in_hand: Sequence[bool], dead_money: int = 0) -> list[Pot]:
    """Main pot first, then one side pot per all-in level (R-POT-1).

    ``contributions``: each position's chips put in over the hand (bets, live blinds, antes unless dead),
    uncalled bets already returned. ``in_hand``: not folded (nor mucked). ``dead_money`` (dead antes, dead
    small blinds) goes to the main pot, contested by every player still in, even one who put in nothing
    else. Adjacent levels with the same eligible players are merged into one pot; a level nobody in the
    hand reached (only folded money) joins the pot below it, or goes to every player still in
    when there is no pot below.

    >>> [(pot.amount, pot.eligible) for pot in build_pots([10, 40, 40, 25], [False, True, True, True], 4)]
    [(89, (1, 2, 3)), (30, (1, 2))]
    """
    # Fast path (every showdown without an all-in, every uncontested hand): all players still in put in the
    # same amount, at least as much as anyone — the level loop below would merge everything into one pot
    # for them, so build that pot directly.
    top = -1
    level_of_alive = -1
    uniform = True
    for position, contribution in enumerate(contributions):
        if contribution > top:
            top = contribution
        if in_hand[position]:
            if level_of_alive < 0:
                level_of_alive = contribution
            elif contribution != level_of_alive:
                uniform = False
                break
    if uniform and level_of_alive == top:
        total = sum(contributions) + dead_money
        if not total:
            return []
        return [Pot(total, tuple(position for position, alive in enumerate(in_hand) if alive))]
    pots: list[Pot] = []
    amount = dead_money
    previous = 0
    for level in sorted(set(contributions)):
        if level == 0 and not amount:
            continue
        for contribution in contributions:
            if contribution > previous:
                amount += (level if contribution > level else contribution) - previous
        eligible = tuple(
            position for position, contribution in enumerate(contributions)
            if in_hand[position] and contribution >= level
        )
        if not eligible:
            # Money nobody still in the hand matched (folded bets above every all-in): it joins the pot
            # below, or, if there is none (players all-in on their antes), goes to everyone still in.
            eligible = pots[-1].eligible if pots else tuple(
                position for position, alive in enumerate(in_hand) if alive
            )
        if pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, eligible))
        amount = 0
        previous = level
    if amount:
        # Only dead money (e.g. everyone all-in on the antes): one pot for everyone still in.
        pots.append(Pot(amount, tuple(position for position, alive in enumerate(in_hand) if alive)))
    return pots


def split_evenly(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` among ``winners`` (ascending positions): ``[(position, chips), ...]``.

    The indivisible chips go one each to the tied winners clockwise from the button, the lowest positions
    first (R-POT-2, decision of turn 2; PokerKit gives them all to the first winner). Worked check: 284
    three ways is 95/95/94.

    >>> split_evenly(101, [2, 5])
    [(2, 51), (5, 50)]
    >>> split_evenly(284, [0, 2, 4])
    [(0, 95), (2, 95), (4, 94)]
    """
    share, remainder = divmod(amount, len(winners))
    return [(position, share + 1 if index < remainder else share) for index, position in enumerate(winners)]


def void_split(put_in: Mapping[int, int], lost_by: Collection[int], order: Sequence[int]) -> dict[int, int]:
    """A hand that cannot be finished is void (R-CRASH-1): what each seat in ``order`` (clockwise from the
    first seat dealt) gets back from the pot, given what each ``put_in``. Every chip goes back to its owner,
    except that a seat in ``lost_by`` — a player whose dropping out left too few to open the cards (host-blind
    dealing) — loses what he put in, so that aborting never pays: those chips are shared by the others equally,
    odd chips from the first seat dealt (as :func:`split_evenly`). If every seat is in ``lost_by``, nobody
    loses anything.

    Worked: blinds 5/10, seats 0 and 1 (the blinds) and 2 drop with 5, 5 and 0 in (the big blind's uncalled 5
    went back when he was folded); 3, 4 and 5 share the 10:

    >>> void_split({0: 5, 1: 5, 2: 0, 3: 0, 4: 0, 5: 0}, {0, 1, 2}, [0, 1, 2, 3, 4, 5])
    {0: 0, 1: 0, 2: 0, 3: 4, 4: 3, 5: 3}
    >>> void_split({0: 2, 1: 4, 2: 4}, {1}, [1, 2, 0])
    {1: 0, 2: 6, 0: 4}
    """
    others = [seat for seat in order if seat not in lost_by]
    if not others:
        return {seat: put_in.get(seat, 0) for seat in order}
    forfeited = sum(put_in.get(seat, 0) for seat in order if seat in lost_by)
    shares = dict(split_evenly(forfeited, others))
    return {seat: 0 if seat in lost_by else put_in.get(seat, 0) + shares[seat] for seat in order}


def split_high_low(amount: int) -> tuple[int, int]:
    """Halve a hi/lo pot: ``(high half, low half)``, the odd chip to the high half (R-POT-2).

    >>> split_high_low(75)
    (38, 37)
    """
    low = amount // 2
    return amount - low, low


def best_of(strengths: Mapping[int, int | None], eligible: Sequence[int]) -> list[int]:
    """The eligible positions holding the best (highest) non-``None`` strength, ascending; ``[]`` if none."""
    best: int | None = None
    winners: list[int] = []
    for position in eligible:
        strength = strengths.get(position)
        if strength is None:
            continue
        if best is None or strength > best:
            best, winners = strength, [position]
        elif strength == best:
            winners.append(position)
    return winners


def award_pot(
    amount: int,
    eligible: Sequence[int],
    high: Mapping[int, int | None],
    low: Mapping[int, int | None] | None = None,
) -> list[tuple[int, int, str]]:
    """Who gets what of one pot: ``[(position, chips, share)]`` with ``share`` ``"whole"``/``"high"``/``"low"``.

    ``high``/``low``: strength per position still contesting (higher wins; ``None`` or absent = no hand,
    e.g. no qualifying low). With ``low`` given (hi/lo games) the pot is halved, odd chip to high, unless
    no eligible player has a qualifying low: then high scoops (R-POT-2).

    Worked check from RULES.md (R-POT-1): C and B tie best, A loses → C 75, B 175.

    >>> main = award_pot(150, [0, 1, 2], {0: 1, 1: 9, 2: 9})
    >>> side = award_pot(100, [0, 1], {0: 1, 1: 9})
    >>> main, side
    ([(1, 75, 'whole'), (2, 75, 'whole')], [(1, 100, 'whole')])
    """
    high_winners = best_of(high, eligible)
    low_winners = best_of(low, eligible) if low is not None else []
    if not low_winners:
        return [(position, chips, "whole") for position, chips in split_evenly(amount, high_winners)]
    high_half, low_half = split_high_low(amount)
    return [(position, chips, "high") for position, chips in split_evenly(high_half, high_winners)] + [
        (position, chips, "low") for position, chips in split_evenly(low_half, low_winners)
    ]
