"""Mixed games and dealer's choice: which game a table deals next (R-MIX-1..4, docs/rules-home.md).

Pure: the rotation's "what next" is a function of the hands dealt in the current game, nothing else. A table's
games are numbered 0..n-1 in the order the host listed them (HORSE: hold'em, Omaha hi/lo, razz, stud, stud
hi/lo); the same game may appear twice with other stakes or structures (an 8-game mix has limit and no-limit
hold'em), so a game of the rotation is its number, not its engine id.

A game lasts ``every`` hands, or an orbit: as many hands as players were dealt into its first hand (the way mixed
games count an orbit live, also in stud, which has no button to go round). Worked, HORSE every 8 hands: hands
1-8 hold'em, 9-16 Omaha hi/lo, 17-24 razz, 25-32 stud, 33-40 stud hi/lo, 41 hold'em again.

>>> horse = Rotation(games=5, every=8)
>>> [game_of_hand(horse, hand) for hand in (1, 8, 9, 17, 40, 41)]
[0, 0, 1, 2, 4, 0]
>>> state = RotationState()
>>> for _ in range(8):
...     state = hand_dealt(horse, state, players=6)
>>> due(state), next_in_turn(horse, state)
(True, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Choice(Enum):
    """Who picks the next game when the current one is over (R-MIX-2)."""

    ROTATION = "rotation"
    """Nobody: the next game of the list, in turn."""
    BUTTON = "button"
    """Dealer's choice: the player on the button of the next hand picks one of the table's games; if he lets
    his time run out, the next game of the list is dealt."""
    HOST = "host"
    """The host picks (``croupier admin game``); the game stays until he does."""


@dataclass(frozen=True, slots=True)
class Rotation:
    """A table's rotation: ``games`` games (numbered 0..games-1), each for ``every`` hands (0: an orbit)."""

    games: int
    every: int = 0

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"a rotation needs at least one game, got {self.games}")
        if self.every < 0:
            raise ValueError(f"every: a number of hands >= 1 (0: an orbit), got {self.every}")

    def length(self, players: int) -> int:
        """Hands a game lasts when ``players`` are dealt into its first hand (R-MIX-1).

        >>> Rotation(5).length(6), Rotation(5, every=8).length(6)
        (6, 8)
        """
        return self.every or max(1, players)


@dataclass(frozen=True, slots=True)
class RotationState:
    """Where a table is in its rotation: the game being dealt (``game``), hands of it dealt so far (``played``)
    and how many it lasts (``length``, fixed at its first hand; 0 before it)."""

    game: int = 0
    played: int = 0
    length: int = 0

    @property
    def hands_left(self) -> int | None:
        """Hands of the current game still to deal (``None`` before its first hand: an orbit is not known yet)."""
        return max(0, self.length - self.played) if self.length else None


def hand_dealt(rotation: Rotation, state: RotationState, *, players: int) -> RotationState:
    """The state after a hand of the current game was dealt to ``players`` players (its first hand fixes the
    game's length, R-MIX-1)."""
    length = state.length or rotation.length(players)
    return replace(state, played=state.played + 1, length=length)


def due(state: RotationState) -> bool:
    """Whether the current game has dealt all its hands: the next hand is another game's (or a pick's)."""
    return state.length > 0 and state.played >= state.length


def next_in_turn(rotation: Rotation, state: RotationState) -> int:
    """The game after the current one in the list (after the last, the first again)."""
    return (state.game + 1) % rotation.games


def switch_to(rotation: Rotation, game: int) -> RotationState:
    """A fresh start of ``game`` (its hands counted from 0): in turn, picked by the button or by the host.
    ``ValueError`` for a game the table does not have."""
    if not 0 <= game < rotation.games:
        raise ValueError(f"there is no game {game}: the table has games 0 to {rotation.games - 1}")
    return RotationState(game=game)


def game_of_hand(rotation: Rotation, hand: int) -> int:
    """The game of the table's ``hand``-th hand (1, 2, …) in a rotation of ``every`` hands with no picks.

    >>> game_of_hand(Rotation(3, every=2), 7)
    0
    """
    if rotation.every < 1:
        raise ValueError("an orbit's length depends on the players dealt in: play the hands (hand_dealt)")
    return ((hand - 1) // rotation.every) % rotation.games
