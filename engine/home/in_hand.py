"""The hand's side of the home-game options (R-HOME-1, R-HOME-4): a mixin over the hand's state, so the hand itself
keeps only small hooks (:mod:`engine.hand` asks and answers, :mod:`engine.hand_showdown` awards).

Run it twice (:mod:`engine.home.run_it_twice`): when the run-out starts, the players still in are asked in turn;
once they all agreed, the first board is dealt as usual and the second from the next deck cards at showdown, and
every pot is halved between the two boards. The 7-2 game (:mod:`engine.home.seven_deuce`): after the awards, a
sole winner of a pot holding 7-2 shows it and collects the bounty from every other player dealt in.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, RunItTwice
from engine.errors import IllegalAction, NotYourTurn
from engine.events import (
    BoardPotAwarded,
    HandShown,
    RunItTwiceAnswered,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    SevenDeuceBountyPaid,
)
from engine.hand_state import RUN_IT_TWICE, HandState
from engine.home import run_it_twice as twice
from engine.home.seven_deuce import bounty_winners, collect


class HomeMixin(HandState):
    """Run it twice and the 7-2 bounty inside a hand."""

    __slots__ = ()

    # ------------------------------------------------------------------ run it twice (R-HOME-1)

    def _offer_run_twice(self) -> bool:
        """At a table that offers it, ask the players still in (all-in) whether to run the rest twice; True when
        the question is open (the hand waits for the answers)."""
        if self._run_twice is not None or not self.config.home.run_it_twice:
            return False
        contenders = self._contenders()
        if not twice.can_offer(self._variant, street_index=self._street_index, deck_size=len(self._deck),
                               deck_index=self._deck_index, contenders=len(contenders)):
            return False
        self._run_twice = twice.Question(contenders, shared=len(self._board))
        self.phase = RUN_IT_TWICE
        self.events.append(RunItTwiceOffered(tuple(self._seats[position] for position in contenders)))
        return True

    def _verify_run_twice(self, position: int, action: Action) -> None:
        question = self._run_twice
        assert question is not None
        actor = question.waiting[0]
        if position != actor:
            raise NotYourTurn(f"seat {self._seats[actor]} answers the run-it-twice question first, "
                              f"not seat {self._seats[position]}")
        if not isinstance(action, RunItTwice):
            raise IllegalAction("everyone is all-in: answer whether to run it twice (yes or no)")
        if type(action.agree) is not bool:
            raise IllegalAction(f"run it twice is answered yes or no, got {action.agree!r}")

    def _answer_run_twice(self, position: int, agree: bool) -> bool:
        """Record an answer; True once the question is settled (the caller goes on with the run-out)."""
        question = self._run_twice
        assert question is not None
        self.events.append(RunItTwiceAnswered(self._seats[position], agree))
        decision = question.answer(position, agree)
        if decision is None:
            return False
        self._settle_run_twice(decision)
        return True

    def _settle_run_twice(self, run_twice: bool) -> None:
        """Close the question (a player leaving closes it with a no)."""
        question = self._run_twice
        assert question is not None
        question.twice = run_twice
        question.waiting.clear()
        self.events.append(RunItTwiceDecided(run_twice))

    def _runs_twice(self) -> bool:
        return self._run_twice is not None and bool(self._run_twice.twice)

    def _deal_second_board(self) -> None:
        """The second run: the streets the first run dealt, again, from the next cards of the same deck."""
        question = self._run_twice
        assert question is not None
        board = list(self._board[:question.shared])
        index = self._deck_index
        dealt = 0
        for street in self._variant.streets:
            if not street.board:
                continue
            dealt += street.board
            if dealt <= question.shared:
                continue
            cards = self._deck[index:index + street.board]
            index += street.board
            board += cards
            self.events.append(SecondBoardDealt(street.name, cards, tuple(board)))
        self._deck_index = index
        question.second_board = board

    def _board_results(self) -> tuple[twice.BoardResult, twice.BoardResult] | None:
        """Both boards' hand values when the hand was run twice, else None."""
        question = self._run_twice
        if question is None or not question.twice:
            return None
        holes = {position: self._hole[position] for position in self._contenders()}
        return (twice.evaluate_board(self._variant, holes, self._board),
                twice.evaluate_board(self._variant, holes, question.second_board))

    def _award_twice(self, index: int, net: int, eligible: Sequence[int],
                     boards: tuple[twice.BoardResult, twice.BoardResult], winnings: list[int]) -> None:
        """Pot ``index`` (``net`` chips after rake) halved, each half to the best hand on its own board."""
        halves = twice.halves(net)
        shares = twice.award_twice(net, eligible, (boards[0].high, boards[1].high), (boards[0].low, boards[1].low))
        rivals = self._contenders()
        for board, position, chips, share in shares:
            winnings[position] += chips
            others = [other for other in rivals if other != position]
            name = twice.winning_name(self._variant, boards[board - 1], position, others, share == "low")
            self.events.append(BoardPotAwarded(index, self._seats[position], chips, share, halves[board - 1], name,
                                               board))

    # ------------------------------------------------------------------ the 7-2 game (R-HOME-4)

    def _collect_seven_deuce(self) -> None:
        """A sole winner of a pot holding 7-2 shows it (if he has not) and collects the bounty from every other
        player dealt in, each paying what he has up to the bounty."""
        bounty = self.config.home.seven_deuce_bounty
        if not bounty:
            return
        seats = self._seats
        holes = {seat: self._hole[position] for position, seat in enumerate(seats)}
        winners = bounty_winners(self.events, holes, seats)
        if not winners:
            return
        for seat in winners:
            position = self._position_of[seat]
            if not self._shown[position]:
                self._shown[position] = True
                self.events.append(HandShown(seat, tuple(self._hole[position])))
        stacks = self._stacks
        paid, after = collect(winners, seats, dict(zip(seats, stacks, strict=True)), bounty)
        for position, seat in enumerate(seats):
            stacks[position] = after[seat]
        self.events += [SevenDeuceBountyPaid(seat, payments, total) for seat, payments, total in paid]
