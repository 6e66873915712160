"""What a table needs from a hand, and what it does for a player who does not act in time.

Shared by every table (cash, tournament, pool): :class:`HandEngine` is the hand as the table drives it
(:class:`engine.hand.Hand` satisfies it), :func:`timeout_action` the action taken for a player out of time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, RunItTwice, Show
from engine.cards import Card
from engine.events import Event
from engine.fairness import Deal
from engine.hand import ForcedBets, Hand, HandConfig


class HandEngine(Protocol):
    """What the table needs from a hand (:class:`engine.hand.Hand` satisfies it)."""

    events: list[Event]

    def legal_actions(self) -> LegalActions | None: ...

    def act(self, seat: int, action: Action) -> list[Event]: ...

    def leave(self, seat: int) -> list[Event]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Where each deck position dealt so far went, in deck order (the fairness transcript's ``deals``)."""
        ...


@runtime_checkable
class SupportsArtificialAllIn(Protocol):
    """A hand that can treat a seat as all-in for what it has put in (R-DISC-2)."""

    def artificial_all_in(self, seat: int) -> list[Event]: ...


@runtime_checkable
class SupportsStacks(Protocol):
    """A hand that tells each dealt-in seat's chips behind (a folded player's stack before the hand ends)."""

    def stacks(self) -> dict[int, int]: ...


HandStarter = Callable[[HandConfig, Mapping[int, int], Sequence[Card], ForcedBets], HandEngine]
"""Builds a hand: (config, seat → stack, deck, forced bets) → a running hand. Default: :meth:`Hand.start`."""


def start_real_hand(
    config: HandConfig, seats: Mapping[int, int], deck: Sequence[Card], forced_bets: ForcedBets,
) -> HandEngine:
    return Hand.start(config, seats, deck, forced_bets)


def timeout_action(options: LegalActions) -> tuple[Action, str]:
    """What the table does for a player out of time: never fold when a check is free (R-DISC-1)."""
    if options.max_discards is not None:
        return Draw((), timed_out=True), "stand_pat"
    if options.can_run_twice:  # R-HOME-1: no answer is a no
        return RunItTwice(False), "run_once"
    if options.bring_in_amount is not None:
        return BringIn(), "bring_in"
    if options.can_show:
        return Show(), "show"
    if options.can_check:
        return Check(), "check"
    if options.can_fold:
        return Fold(), "fold"
    if options.call_amount is not None:  # e.g. a forced bring-in with no fold offered
        return Call(), "call"
    return BetOrRaise(options.min_raise_to or 0), "bet"


def absent_action(options: LegalActions) -> tuple[Action, str]:
    """What a tournament table does for an absent player at his turn (R-TOUR-6, decision of turn 3): folded,
    even where a check is free — an absent big blind does not check his way to a pot. Outside a betting turn
    (a draw, a showdown, a bring-in) as :func:`timeout_action`."""
    if options.can_fold and options.max_discards is None and not options.can_show:
        return Fold(), "fold"
    return timeout_action(options)
