"""Showdown and award of a hand (R-SHOW-1/2, R-POT-1/2, R-RAKE-1, R-STUD-2, R-RANK-6): evaluating the hands
still in, the order of showing, auto-mucking hands that cannot win, splitting the pots from the last side pot
to the main pot, the rake, and the hand's last event.

Where RULES.md is silent the behaviour is PokerKit's: hands that cannot win any part of any pot are dead before
the pots are split (pots left with the same contenders are merged).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate.thirty_two import telesina_heads_up
from engine.events import HandEnded, HandMucked, HandShown, PotAwarded, RakeTaken, positional_builder
from engine.hand_inputs import variant_facts
from engine.hand_state import OVER, SHOWDOWN
from engine.home.in_hand import HomeMixin
from engine.pots import Pot, award_pot, best_of, build_pots, split_evenly
from engine.showdown import can_still_win
from engine.variants import Opening

_hand_ended = positional_builder(HandEnded)
_hand_shown = positional_builder(HandShown)
_pot_awarded = positional_builder(PotAwarded)
_LEFT_OF_BUTTON = Opening.LEFT_OF_BUTTON  # a global lookup is cheaper than an Enum class attribute


class ShowdownMixin(HomeMixin):
    """Shows, mucks and awards; the hand enters it when the last street is played or one player is left."""

    __slots__ = ()

    def _evaluate(self) -> None:
        """Strengths of every hand still in (once, at showdown); names wait until a hand is shown or wins."""
        ranking = variant_facts(self._variant).ranking
        board = self._board
        strength = ranking.strength
        high = self._high
        lows: dict[int, int | None] | None = {} if ranking.has_low else None
        for position in range(len(self._seats)):
            if self._folded[position]:
                continue
            hole = self._hole[position]
            high[position] = strength(hole, board)
            if lows is not None:
                lows[position] = ranking.low_strength(hole, board) or None
        self._low = lows

    def _start_showdown(self) -> None:
        """R-SHOW-1: last aggressor of the final round first, else the variant's ``showdown_opening``: the first
        player left of the button, the best hand showing (stud), or the first after the big blind (R-DRAW-32)."""
        self.phase = SHOWDOWN
        self._pending = []
        if self._runs_twice():
            self._deal_second_board()  # R-HOME-1: every hand is face up already (all-in)
            self._evaluate()
            self._award()
            return
        if self._split_accepted and all(self._split_pot(pot) for pot in self.pots()):
            self._award()  # R-STUD-2: every pot split by agreement, nothing to show
            return
        self._evaluate()
        count = len(self._seats)
        aggressor = self._final_aggressor
        if aggressor is not None and not self._folded[aggressor]:
            start = aggressor
        else:
            opening = self._variant.showdown_opening
            start = 0 if opening is _LEFT_OF_BUTTON else self._opener(opening)
        self._showdown_order = [
            position for position in ((start + step) % count for step in range(count))
            if not self._folded[position] and not self._shown[position]
        ]
        self._continue_showdown()

    def _split_pot(self, pot: Pot) -> bool:
        """R-STUD-2: whether every player contesting ``pot`` (seats) accepted the split."""
        contenders = [self._position_of[seat] for seat in pot.eligible if not self._folded[self._position_of[seat]]]
        return len(contenders) > 1 and all(position in self._split_accepted for position in contenders)

    def _pot_high(self, eligible: Sequence[int]) -> dict[int, int | None]:
        """High strengths for one pot: R-RANK-6 (Telesina) when exactly two players contest it, the lowest
        straight flush beats the royal flush."""
        high = self._high
        if not self._variant.heads_up_exception:
            return high
        contenders = [position for position in eligible if high.get(position) is not None]
        if len(contenders) != 2:
            return high
        first, second = contenders
        lifted = telesina_heads_up(high[first] or 0, high[second] or 0)
        if lifted == (high[first], high[second]):
            return high
        adjusted = dict(high)
        adjusted[first], adjusted[second] = lifted
        return adjusted

    def _contenders(self) -> list[int]:
        return [position for position in range(len(self._seats)) if not self._folded[position]]

    def _continue_showdown(self) -> None:
        """Show automatically what needs no decision; award when every hand is shown or mucked."""
        order = self._showdown_order
        manual = self.config.manual_showdown
        while order:
            if self._in_hand == 1:
                order.clear()
                break
            position = order[0]
            if position in self._auto_muck and not self._could_win(position):
                self._show_or_muck(position, show=False)
                continue
            if manual:
                return
            self._show_or_muck(position, show=True)
        self._award()

    def _could_win(self, position: int) -> bool:
        shown = [other for other in range(len(self._seats)) if self._shown[other] and not self._folded[other]]
        pots = build_pots(self._contributed, [not folded for folded in self._folded], self.dead_money)
        return can_still_win(position, pots, shown, self._high, self._low)

    def _show_or_muck(self, position: int, show: bool) -> None:
        self._showdown_order.remove(position)
        seat = self._seats[position]
        if show:
            self._shown[position] = True
            self.events.append(_hand_shown(seat, tuple(self._hole[position]), self._describe(position)))
        else:
            self._mucked[position] = True
            self._folded[position] = True
            self._in_hand -= 1
            self.events.append(HandMucked(seat))

    def _describe(self, position: int) -> str:
        ranking = variant_facts(self._variant).ranking
        strength = self._high.get(position)
        name = "" if strength is None else ranking.plain_name(strength)
        if self._low is not None:
            low = self._low.get(position)
            return f"{name} / {ranking.low_name(low)}" if low else f"{name} / no low"
        return name

    def _winning_name(self, position: int, low: bool) -> str:
        """The winner's hand named against the other hands still in (R-RANK-7: the kicker where it decided)."""
        ranking = variant_facts(self._variant).ranking
        rivals = [other for other in self._contenders() if other != position]
        if low:
            lows = self._low or {}
            strength = lows.get(position)
            return ranking.low_name(strength, [lows.get(other) for other in rivals]) if strength else ""
        high = self._high
        strength = high.get(position)
        if strength is None:
            return ""
        return ranking.name(strength, [high.get(other) for other in rivals])

    # ------------------------------------------------------------------ awarding

    def _award(self) -> None:
        """Build the pots, take the rake, award from the last side pot to the main pot (R-POT-1/2), end."""
        self.phase = OVER
        self._pending = []
        count = len(self._seats)
        alive = [not folded for folded in self._folded]
        pots = build_pots(self._contributed, alive, self.dead_money)
        contested = self._in_hand > 1
        boards = self._board_results() if contested else None  # R-HOME-1: a hand run twice, else None
        # Telesina keeps every pot as contested: R-RANK-6 depends on how many players contest each pot (and
        # 32-card hands never tie, so killing hands would only merge pots). A hand run twice keeps every hand:
        # one that loses on one board may win on the other.
        if contested and not self._variant.heads_up_exception and boards is None:
            # Hands that cannot win any part of any pot are dead before the split; pots left with the same
            # contenders merge, so odd chips are counted once (PokerKit's hand killing; RULES is silent).
            winners: set[int] = set()
            for pot in pots:
                if self._split_accepted and self._split_pot(self._as_seats(pot)):
                    winners.update(pot.eligible)
                    continue
                winners.update(best_of(self._pot_high(pot.eligible), pot.eligible))
                if self._low is not None:
                    winners.update(best_of(self._low, pot.eligible))
            if any(alive[position] and position not in winners for position in range(count)):
                alive = [alive[position] and position in winners for position in range(count)]
                pots = build_pots(self._contributed, alive, self.dead_money)
        rake_source = self.config.rake
        if rake_source is not None and pots:
            # "No flop, no drop" (R-RAKE-1) is for flop games only: stud, draw and Telesina (whose one community
            # card is no flop) are always raked.
            saw_flop = not variant_facts(self._variant).flop_game or len(self._board) > 0
            rakes = rake_source.rake_for_pots([pot.amount for pot in pots], count, saw_flop)
        else:
            rakes = [0] * len(pots)
        winnings = [0] * count
        for index in range(len(pots) - 1, -1, -1):
            pot = pots[index]
            rake = rakes[index]
            net = pot.amount - rake
            if rake:
                self._rake_total += rake
                self.events.append(RakeTaken(index, rake))
            eligible = pot.eligible or tuple(position for position in range(count) if alive[position])
            if contested and len(eligible) > 1 and boards is not None:
                self._award_twice(index, net, eligible, boards, winnings)
                continue
            if contested and len(eligible) > 1 and self._split_accepted and self._split_pot(self._as_seats(pot)):
                shares = [(position, chips, "split") for position, chips in split_evenly(net, eligible)]
            elif contested and len(eligible) > 1:
                shares = award_pot(net, eligible, self._pot_high(eligible), self._low)
            else:
                shares = [(eligible[0], net, "whole")] if len(eligible) == 1 else award_pot(net, eligible, {}, None)
            for position, chips, share in shares:
                winnings[position] += chips
                description = ""
                if contested:
                    if share == "split":
                        description = "split by agreement"
                    else:
                        description = self._winning_name(position, share == "low")
                self.events.append(_pot_awarded(index, self._seats[position], chips, share, net, description))
        stacks = self._stacks
        reserved = self._reserved
        for position in range(count):
            stacks[position] += winnings[position] + reserved[position]
        reserved[:] = [0] * count
        self._bets[:] = [0] * count
        self.pot_total = 0
        self._collect_seven_deuce()  # R-HOME-4 (nothing unless the table plays the 7-2 game)
        final = tuple(zip(self._seats, self._stacks, strict=True))
        assert sum(self._stacks) + self._rake_total == sum(self._starting), "chips were created or lost"
        self.events.append(_hand_ended(final, self._rake_total))
