"""Posting the forced bets of a hand (R-BLIND-1..3, R-ANTE-1, R-STUD-1): antes, dead small blinds, the blinds
and the straddle, as :class:`~engine.hand_state.ForcedBets` plans them; the first events of every hand."""

from __future__ import annotations

from engine.events import AntePosted, BlindPosted, BombPotStarted, HandStarted, positional_builder
from engine.hand_state import HandState
from engine.structures import StructureKind

_ante_posted = positional_builder(AntePosted)
_blind_posted = positional_builder(BlindPosted)
_hand_started = positional_builder(HandStarted)
# A dict lookup is cheaper than an Enum's ``value`` (every hand's first event names its structure).
_STRUCTURE_IDS = {kind: kind.value for kind in StructureKind}


class ForcedBetsMixin(HandState):
    """Posts the forced bets (the hand's first events)."""

    __slots__ = ()

    def _post_forced_bets(self) -> None:
        forced = self._forced
        seats = self._seats
        events = self.events
        events.append(_hand_started(self._variant.id, _STRUCTURE_IDS[self._structure.kind], forced.button_seat,
                                    tuple(zip(seats, self._starting, strict=True))))
        if forced.bomb_pot:  # R-HOME-3: antes only, and no preflop betting round
            events.append(BombPotStarted(forced.ante))
            self._no_betting_street = True
        stacks = self._stacks
        ante = forced.ante
        big_blind_ante_position = -1
        if forced.big_blind_ante > 0 and forced.big_blind_seat is not None:
            big_blind_ante_position = self._position_of[forced.big_blind_seat]
        if ante > 0 or big_blind_ante_position >= 0:
            contributed = self._contributed
            dead_antes = forced.dead_antes
            for position, stack in enumerate(stacks):
                wanted = ante + forced.big_blind_ante if position == big_blind_ante_position else ante
                if wanted <= 0:
                    continue
                # An ante is dead (not a bet of the round) but counts in the poster's contribution, so a
                # player all-in on the ante still contests the pot the antes make (PokerKit).
                amount = wanted if wanted < stack else stack
                stack -= amount
                stacks[position] = stack
                if dead_antes:
                    self._contributed_dead(amount)
                else:
                    contributed[position] += amount
                    self.pot_total += amount
                events.append(_ante_posted(seats[position], amount, stack == 0))
        for seat in forced.dead_small_blinds:
            position = self._position_of[seat]
            amount = min(forced.small_blind, stacks[position])
            if amount:
                stacks[position] -= amount
                self._contributed_dead(amount)
                events.append(BlindPosted(seat, "dead_small_blind", amount, False, stacks[position] == 0))
        # Live blinds in posting order: small, big, big blinds out of position, straddle.
        if forced.small_blind_seat is not None and forced.small_blind > 0:
            self._post_live_blind(forced.small_blind_seat, "small_blind", forced.small_blind)
        if forced.big_blind_seat is not None and forced.big_blind > 0:
            self._post_live_blind(forced.big_blind_seat, "big_blind", forced.big_blind)
        if forced.big_blind > 0:
            for seat in forced.big_blinds_out_of_position:
                self._post_live_blind(seat, "big_blind_out_of_position", forced.big_blind)
        if forced.straddle_seat is not None and forced.straddle > 0:
            self._post_live_blind(forced.straddle_seat, "straddle", forced.straddle)

    def _post_live_blind(self, poster: int, kind: str, wanted: int) -> None:
        """A live blind or straddle: a bet of the first round, capped at the stack."""
        position = self._position_of[poster]
        stacks = self._stacks
        stack = stacks[position]
        amount = wanted if wanted < stack else stack
        if amount:
            self._put_in(position, amount)
            self.events.append(_blind_posted(poster, kind, amount, True, stack == amount))

    def _contributed_dead(self, amount: int) -> None:
        self.dead_money += amount
        self.pot_total += amount

