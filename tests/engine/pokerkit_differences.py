"""Where croupier knowingly differs from PokerKit 0.7.7 (RULES.md wins), for the differential tests.

- R-POT-2 (turn 2): the odd chips of a split go **one each** to the tied winners clockwise from the button;
  PokerKit gives them all to the first. :func:`stacks_with_pokerkit_odd_chips` moves croupier's odd chips the
  way PokerKit does, so everything else about the hand is still compared to the chip; the rule itself is
  asserted by ``test_odd_chips_one_each_clockwise_from_the_button_284_three_ways_is_95_95_94``.
- R-BET-ALLIN short big blind (turn 2): a big blind all-in for less is called in full and the minimum raise is
  to two big blinds; PokerKit lets players call the short amount. Such deals take different lines from the
  first action on, so they are not compared (:func:`short_big_blind`); the rule is asserted by
  ``test_short_big_blind_is_called_in_full_and_the_minimum_raise_is_two_big_blinds``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.events import PotAwarded
from engine.hand import ForcedBets, Hand


def stacks_with_pokerkit_odd_chips(hand: Hand, seats: list[int]) -> tuple[list[int], bool]:
    """``(finishing stacks of seats, whether any odd chip moved)``: croupier's finishing stacks with every split's
    indivisible chips given all to the first tied winner clockwise from the button, as PokerKit does."""
    finals = hand.final_stacks()
    shares: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for event in hand.events:
        if isinstance(event, PotAwarded):
            shares.setdefault((event.pot_index, event.share), []).append((event.seat, event.amount))
    moved = False
    for winners in shares.values():
        if len(winners) < 2:
            continue
        total = sum(amount for _, amount in winners)
        share, remainder = divmod(total, len(winners))
        # croupier awards a split's shares in clockwise order from the button: the first event is the first winner.
        for index, (seat, amount) in enumerate(winners):
            pokerkit_amount = share + remainder if index == 0 else share
            if pokerkit_amount != amount:
                finals[seat] += pokerkit_amount - amount
                moved = True
    return [finals[seat] for seat in seats], moved


def short_big_blind(stacks: Mapping[int, int], plan: ForcedBets) -> bool:
    """Whether the big blind (seat → starting stack) is all-in for less than a full big blind (R-BET-ALLIN)."""
    seat = plan.big_blind_seat
    return seat is not None and stacks[seat] < plan.big_blind


def pokerkit_agrees(hand: Hand, plan: ForcedBets, pokerkit_stacks: Sequence[int]) -> bool:
    """Whether PokerKit's finishing stacks (players from the first seat left of the button) are croupier's, odd
    chips moved PokerKit's way; a hand with a short big blind is not compared (True)."""
    if short_big_blind(hand.starting_stacks(), plan):
        return True
    ours, _ = stacks_with_pokerkit_odd_chips(hand, list(hand.seats))
    return ours == list(pokerkit_stacks)
