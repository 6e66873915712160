"""Betting rounds in a hand (R-BET-*, R-STUD-1, R-STUD-2): who opens a round, what a player may raise to, and
the chips a fold, call, bring-in, bet or raise moves. Structures' formulas are in :mod:`engine.structures`.

Where RULES.md differs from PokerKit (turn 2): a big blind all-in for less is still called in full and the
minimum raise is to two big blinds. Where RULES.md is silent the behaviour is PokerKit's: a first bet of a round
always reopens the action.
"""

from __future__ import annotations

from functools import cache

from engine.events import BetPlaced, BettingRoundStarted, BringInPosted, Called, Folded, Raised, positional_builder
from engine.hand_state import HandState
from engine.structures import raise_bounds
from engine.variants import Opening

_folded = positional_builder(Folded)
_called = positional_builder(Called)
_bring_in_posted = positional_builder(BringInPosted)
_bet_placed = positional_builder(BetPlaced)
_raised = positional_builder(Raised)
_betting_round_started = positional_builder(BettingRoundStarted)
# Module-level aliases: a global lookup is cheaper than an Enum class attribute on the hot path.
_BLINDS, _LEFT_OF_BUTTON, _BRING_IN = Opening.BLINDS, Opening.LEFT_OF_BUTTON, Opening.BRING_IN


class BettingMixin(HandState):
    """The mechanics of a betting round; :class:`engine.hand.Hand` decides when rounds open and close."""

    __slots__ = ()

    def _raise_range(self, position: int, owed: int) -> tuple[int, int] | None:
        """``(min_to, max_to)`` for ``position`` now, or ``None``; see :meth:`_why_no_raise`."""
        stacks = self._stacks
        stack = stacks[position]
        if stack <= owed or position in self._penalized:
            return None
        acted_at = self._acted_at[position]
        if acted_at >= 0 and self._highest_bet - acted_at < self._last_raise:
            return None  # R-BET-ALLIN: less than a full raise since this player acted
        cap = self._cap
        if cap is not None and self._raise_count >= cap and not (self._uncapped_heads_up and self._in_hand == 2):
            return None
        highest = self._highest_bet
        bets = self._bets
        folded = self._folded
        for other in range(len(bets)):
            if other != position and not folded[other] and stacks[other] + bets[other] > highest:
                break
        else:
            return None
        street = self._streets[self._street_index]
        completing = self._bring_in_pending or self._completion_pending
        all_in = stack + bets[position]
        if self._fixed_limit:
            # The common case inlined (raise_bounds' fixed-limit formula): one bet of the round's size.
            size = self._big_bet if street.big_bet else self._small_bet
            to = size if completing and size > highest else highest + size
            return (to, to) if to <= all_in else (all_in, all_in)
        minimum, maximum = raise_bounds(
            self._structure,
            round_index=self._round_index,
            big_bet_round=street.big_bet,
            big_blind=self._big_blind,
            highest_bet=0 if completing else highest,
            player_bet=bets[position],
            last_raise=0 if completing else self._last_raise,
            pot_total=self.pot_total,
        )
        if completing and minimum <= highest:
            # R-STUD-1: completing means betting the full small bet; a bring-in at least that large is a bet.
            minimum, maximum = raise_bounds(
                self._structure, round_index=self._round_index, big_bet_round=street.big_bet,
                big_blind=self._big_blind, highest_bet=highest, player_bet=bets[position],
                last_raise=self._last_raise, pot_total=self.pot_total)
        if maximum > all_in:
            maximum = all_in
        if minimum > all_in:
            minimum = all_in
        return minimum, maximum

    def _why_no_raise(self, position: int, owed: int) -> str:
        """The player-readable reason :meth:`_raise_range` gave ``None``."""
        if self._stacks[position] <= owed:
            return "you cannot raise: calling already puts you all-in"
        acted_at = self._acted_at[position]
        if acted_at >= 0 and self._highest_bet - acted_at < self._last_raise:
            return "you cannot raise: a short all-in raise does not reopen the betting (R-BET-ALLIN); call or fold"
        if position in self._penalized:
            return "you cannot bet or raise this round: your draw clock expired (R-DRAW-1); check, call or fold"
        cap = self._structure.raise_cap(self._in_hand)
        if cap is not None and self._raise_count >= cap:
            return f"you cannot raise: the betting is capped ({cap} bets and raises this round)"
        return "you cannot raise: every other player is all-in or has folded"

    def _fold(self, position: int) -> None:
        self._pending.pop(0)
        self._folded[position] = True
        self._in_hand -= 1
        self.events.append(_folded(self._seats[position], False))

    def _call(self, position: int) -> None:
        self._pending.pop(0)
        self._acted_at[position] = self._highest_bet
        bets = self._bets
        owed = self._highest_bet - bets[position]
        stacks = self._stacks
        stack = stacks[position]
        amount = owed if owed < stack else stack
        # _put_in inlined (the most common action)
        stacks[position] = stack - amount
        bets[position] += amount
        self._contributed[position] += amount
        self.pot_total += amount
        self.events.append(_called(self._seats[position], amount, amount == stack))

    def _post_bring_in(self, position: int) -> None:
        """R-STUD-1: the bring-in is a bet below the completion; it does not count toward the cap and the
        player is not asked again unless someone completes."""
        self._pending.pop(0)
        self._bring_in_pending = False
        amount = min(self._forced.bring_in, self._stacks[position])
        self._put_in(position, amount)
        self._completion_pending = True
        self._last_raise = 0
        self._highest_bet = max(self._highest_bet, self._bets[position])
        self._acted_at[position] = self._highest_bet
        self.events.append(_bring_in_posted(self._seats[position], amount, self._stacks[position] == 0))

    def _bet_or_raise(self, position: int, to: int) -> None:
        self._bring_in_pending = False
        self._completion_pending = False
        added = to - self._bets[position]
        highest = self._highest_bet
        increment = to - highest
        self._put_in(position, added)
        all_in = self._stacks[position] == 0
        seat = self._seats[position]
        if highest == 0:
            # A first bet always opens the action, even an all-in for less than the minimum (PokerKit).
            self.events.append(_bet_placed(seat, to, added, all_in))
        else:
            self.events.append(_raised(seat, to, added, all_in, increment >= self._last_raise))
        if increment > self._last_raise:
            self._last_raise = increment
        # R-BET-ALLIN, per player: whether someone who already acted may raise again is judged when he is to
        # act (_raise_range), from what was raised since his own last action — not from a total for the round.
        self._acted_at[position] = to
        self._raise_count += 1
        self._highest_bet = to
        self._aggressor = position
        folded = self._folded
        stacks = self._stacks
        self._pending = [
            other for other in _clockwise(len(stacks), position)[1:] if not folded[other] and stacks[other] > 0
        ]

    def _return_uncalled(self) -> None:
        """R-BET-UNCALLED: the highest bet, if nobody matched it, goes back down to the next highest."""
        bets = self._bets
        top = max(bets)
        if top == 0 or bets.count(top) != 1:
            return
        owner = bets.index(top)
        second = max(bet for other, bet in enumerate(bets) if other != owner)
        self._refund(owner, top - second)


    def _begin_betting(self, opening: Opening) -> bool:
        """Open a betting round; ``False`` when nobody can act in it (all-in or alone with chips)."""
        bets = self._bets
        stacks = self._stacks
        folded = self._folded
        count = len(bets)
        self._highest_bet = highest = max(bets)
        self._aggressor = None
        self._acted_at[:] = [-1] * count
        if opening is _BLINDS:
            forced = self._forced
            # The blind counts as the round's bet (cap, R-BET-FL); a straddle as a raise (R-BLIND-2).
            last_blind = forced.big_blind_seat
            self._last_raise = forced.big_blind
            self._raise_count = 1
            if forced.straddle_seat is not None and forced.straddle > 0:
                last_blind = forced.straddle_seat
                self._last_raise = forced.straddle
                self._raise_count = 2
            opener = (self._position_of[last_blind] + 1) % count if last_blind is not None else 0
            if highest < forced.big_blind and forced.big_blind_seat is not None:
                # R-BET-ALLIN, short big blind: a big blind all-in for less is still called in full.
                self._highest_bet = highest = forced.big_blind
        else:
            self._last_raise = 0
            self._raise_count = 0
            opener = 0 if opening is _LEFT_OF_BUTTON else self._opener(opening)
        if highest == 0:
            # No bet in front (every street after the first): everyone in with chips acts, if two or more do.
            pending = [position for position in _clockwise(count, opener) if not folded[position] and stacks[position]]
            if len(pending) == 1:
                pending = []
        else:
            pending = self._pending_facing_bets(opener, highest)
        self._pending = pending
        # R-STUD-1: the bring-in player (or, if that player is all-in, the next one in turn) must bring in.
        self._bring_in_pending = opening is _BRING_IN and bool(pending) and self._forced.bring_in > 0
        self._completion_pending = False
        street = self._variant.streets[self._street_index]
        # R-STUD-2: the split offer opens with the betting round after the last draw.
        self._split_open = self._variant.split_offer and street.draw > 0 and bool(pending)
        self.events.append(_betting_round_started(self._round_index, street.name, self.pot_total))
        return bool(pending)


    def _pending_facing_bets(self, opener: int, highest: int) -> list[int]:
        """Who acts in a round opened with bets in front (blinds): each player in with chips, clockwise from
        ``opener``, unless nobody else could put in more than he already has."""
        bets = self._bets
        stacks = self._stacks
        folded = self._folded
        # The two largest "could put in" totals among players still in (one pass instead of n^2).
        top = second = -1
        top_position = -1
        for position in range(len(bets)):
            if not folded[position]:
                reach = stacks[position] + bets[position]
                if reach > top:
                    top, second, top_position = reach, top, position
                elif reach > second:
                    second = reach
        pending = [
            position for position in _clockwise(len(bets), opener)
            if not folded[position] and stacks[position] != 0
            and (second if position == top_position else top) > bets[position]
        ]
        if len(pending) == 1 and bets[pending[0]] >= highest:
            return []
        return pending


@cache
def _clockwise(count: int, start: int) -> tuple[int, ...]:
    """Positions ``start, start + 1, …`` around a table of ``count`` players (each once)."""
    return tuple((start + step) % count for step in range(count))

