"""Where croupier knowingly differs from PokerKit 0.7.7 (RULES.md wins), for the tests that compare the two.

- R-POT-2 (turn 2): the odd chips of a split go **one each** to the tied winners clockwise from the button;
  PokerKit gives them all to the first. :func:`pokerkit_finishing_stacks` moves croupier's odd chips the way
  PokerKit does, so everything else about the hand is still compared to the chip; the rule itself is asserted
  by ``test_odd_chips_one_each_clockwise_from_the_button_284_three_ways_is_95_95_94``.
- R-BET-ALLIN short big blind (turn 2): a big blind all-in for less is called in full and the minimum raise is
  to two big blinds; PokerKit lets players call the short amount (and cannot replay a history where they did
  not). Such deals take different lines from the first action on, so they are not compared
  (:func:`short_big_blind`); the rule is asserted by
  ``test_short_big_blind_is_called_in_full_and_the_minimum_raise_is_two_big_blinds``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.events import Event, HandEnded, HandStarted, PotAwarded
from engine.hand import ForcedBets


def pokerkit_finishing_stacks(events: Sequence[Event]) -> list[int]:
    """A finished hand's finishing stacks (players from the first seat left of the button, as PHH and PokerKit
    number them) with every split's indivisible chips given all to the first tied winner, as PokerKit does."""
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    finals = dict(ended.stacks)
    shares: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for event in events:
        if isinstance(event, PotAwarded):
            shares.setdefault((event.pot_index, event.share), []).append((event.seat, event.amount))
    for winners in shares.values():
        if len(winners) < 2:
            continue
        share, remainder = divmod(sum(amount for _, amount in winners), len(winners))
        # croupier awards a split's shares clockwise from the button: the first event is the first winner.
        for index, (seat, amount) in enumerate(winners):
            finals[seat] += (share + remainder if index == 0 else share) - amount
    return [finals[seat] for seat, _ in ended.stacks]


def short_big_blind(stacks: Mapping[int, int], plan: ForcedBets) -> bool:
    """Whether the big blind (seat → starting stack) is all-in for less than a full big blind (R-BET-ALLIN)."""
    seat = plan.big_blind_seat
    return seat is not None and stacks[seat] < plan.big_blind


def starting_stacks(events: Sequence[Event]) -> dict[int, int]:
    """Seat → stack before the forced bets, from the hand's first event."""
    started = events[0]
    assert isinstance(started, HandStarted)
    return dict(started.stacks)


def pokerkit_agrees(events: Sequence[Event], plan: ForcedBets, pokerkit_stacks: Sequence[int]) -> bool:
    """Whether PokerKit's finishing stacks are croupier's with the odd chips moved PokerKit's way; a hand with a
    short big blind is not compared (True)."""
    if short_big_blind(starting_stacks(events), plan):
        return True
    return pokerkit_finishing_stacks(events) == list(pokerkit_stacks)
