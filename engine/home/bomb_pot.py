"""Bomb pots (R-HOME-3, docs/rules-home.md): every ``bomb_pot_every``-th hand of a table, every player dealt in
antes ``bomb_pot_ante``, nobody posts a blind, there is no preflop betting and the flop opens the first betting
round (first to act: the first player still in left of the button; the minimum bet is the big blind).

The table decides which hand is one (:func:`is_bomb_pot`) and says so in the hand's
:class:`engine.hand.ForcedBets` (``bomb_pot=True``, ``ante`` the bomb's ante, no blind seats); the hand checks
the plan (:func:`bomb_pot_problem`), announces it (:class:`engine.events.BombPotStarted`) and skips the
preflop round. Antes are posted as ante chips are (a player short of the ante is all-in for what he has and
contests what it matched, R-POT-1).

>>> [hand for hand in range(1, 13) if is_bomb_pot(hand, every=5)]
[5, 10]
>>> is_bomb_pot(5, every=0)
False
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, TypeVar

from engine.home.options import board_game
from engine.variants import Variant


class BombPotPlan(Protocol):
    """What :func:`bomb_pot_problem` reads of an :class:`engine.hand.ForcedBets`."""

    @property
    def bomb_pot(self) -> bool: ...
    @property
    def ante(self) -> int: ...
    @property
    def small_blind_seat(self) -> int | None: ...
    @property
    def big_blind_seat(self) -> int | None: ...
    @property
    def straddle_seat(self) -> int | None: ...
    @property
    def big_blinds_out_of_position(self) -> tuple[int, ...]: ...
    @property
    def dead_small_blinds(self) -> tuple[int, ...]: ...


def is_bomb_pot(hand_number: int, every: int) -> bool:
    """Whether the table's hand number ``hand_number`` (its first hand is 1) is a bomb pot: every ``every``-th
    hand (0: never)."""
    return every > 0 and hand_number > 0 and hand_number % every == 0


def bomb_pot_problem(variant: Variant, plan: BombPotPlan) -> str | None:
    """Why a bomb-pot plan cannot be dealt, or None (also None for a plan that is no bomb pot)."""
    if not plan.bomb_pot:
        return None
    if not board_game(variant):
        return f"{variant.name} has no flop: no bomb pot (R-HOME-3)"
    if plan.ante <= 0:
        return "a bomb pot needs an ante of at least 1 chip (R-HOME-3)"
    if plan.small_blind_seat is not None or plan.big_blind_seat is not None or plan.straddle_seat is not None \
            or plan.big_blinds_out_of_position or plan.dead_small_blinds:
        return "a bomb pot has no blinds: everyone antes instead (R-HOME-3)"
    return None


_Plan = TypeVar("_Plan")


def as_bomb_pot(forced_bets: _Plan, *, hand_number: int, every: int, ante: int) -> _Plan:
    """The table's hook: ``forced_bets`` (an :class:`engine.hand.ForcedBets`) turned into hand ``hand_number``'s
    bomb pot when it is one (:func:`is_bomb_pot`), else unchanged. The button stays where the plan put it; no
    blind, straddle or owed blind is posted (the ante replaces them all); the big blind stays the minimum bet."""
    if not is_bomb_pot(hand_number, every):
        return forced_bets
    return replace(forced_bets, small_blind_seat=None, big_blind_seat=None, straddle_seat=None,  # type: ignore[type-var]
                   straddle=0, ante=ante, dead_small_blinds=(), big_blinds_out_of_position=(), big_blind_ante=0,
                   bomb_pot=True)
