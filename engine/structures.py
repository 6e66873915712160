"""Betting structures: the smallest and largest bet or raise allowed (R-BET-FL/NL/PL/HPL/SL).

All amounts are integer chips and street totals ("raise *to*"). :func:`raise_bounds` is the one
formula; :class:`engine.hand.Hand` caps the result at the player's stack (all-in for less is always
allowed, R-BET-ALLIN) and applies the raise cap and the reopening rule.

Worked check from RULES.md (R-BET-PL): pot 50 from earlier rounds, A bets 10, B calls 10: C may raise
to at most 90.

>>> pot_limit = BettingStructure.pot_limit()
>>> raise_bounds(pot_limit, round_index=1, big_bet_round=False, big_blind=10, highest_bet=10,
...              player_bet=0, last_raise=10, pot_total=70)
(20, 90)
>>> half_pot = BettingStructure.half_pot_limit()
>>> raise_bounds(half_pot, round_index=1, big_bet_round=False, big_blind=10, highest_bet=10,
...              player_bet=0, last_raise=10, pot_total=70)
(20, 50)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

NO_MAXIMUM = 1 << 62
"""Stands for "no upper limit" (no limit); the hand caps it at the stack."""


class StructureKind(Enum):
    """The five structures of RULES.md §3."""

    FIXED_LIMIT = "fixed_limit"
    POT_LIMIT = "pot_limit"
    HALF_POT_LIMIT = "half_pot_limit"
    NO_LIMIT = "no_limit"
    SPREAD_LIMIT = "spread_limit"


@dataclass(frozen=True, slots=True)
class BettingStructure:
    """A structure and its sizes.

    ``small_bet``/``big_bet``: fixed-limit sizes (R-BET-FL; 0 for the others). ``spread_maxima``: spread
    limit's largest bet or raise per betting round (``a, a, b, c`` for ``a-b-c``, R-BET-SL).
    ``max_raises``: raises allowed after the bet in one round (fixed limit default 3; ``None`` = no cap).
    ``uncapped_heads_up``: lift the cap when only two players are in the hand.
    The minimum bet of no, pot, half-pot and spread limit is the hand's big blind.
    Build with the class methods; ``ValueError`` on nonsense sizes.
    """

    kind: StructureKind
    small_bet: int = 0
    big_bet: int = 0
    spread_maxima: tuple[int, ...] = ()
    max_raises: int | None = None
    uncapped_heads_up: bool = False

    def __post_init__(self) -> None:
        if self.kind is StructureKind.FIXED_LIMIT and not 0 < self.small_bet <= self.big_bet:
            raise ValueError(f"fixed limit needs 0 < small bet <= big bet, got {self.small_bet}/{self.big_bet}")
        if self.kind is StructureKind.SPREAD_LIMIT and (
            not self.spread_maxima or min(self.spread_maxima) <= 0
        ):
            raise ValueError(f"spread limit needs positive maxima per round, got {self.spread_maxima}")
        if self.max_raises is not None and self.max_raises < 0:
            raise ValueError(f"max_raises must be >= 0 or None, got {self.max_raises}")

    @property
    def id(self) -> str:
        """The structure's id, e.g. ``"pot_limit"``."""
        return self.kind.value

    @classmethod
    def fixed_limit(
        cls, small_bet: int, big_bet: int | None = None, *, max_raises: int | None = 3, uncapped_heads_up: bool = False
    ) -> BettingStructure:
        """Fixed limit: ``small_bet`` (= the big blind) on the first two rounds, ``big_bet`` (default
        2 × small bet) later; 1 bet + ``max_raises`` raises per round (R-BET-FL).

        >>> BettingStructure.fixed_limit(10).big_bet
        20
        """
        return cls(
            StructureKind.FIXED_LIMIT,
            small_bet=small_bet,
            big_bet=2 * small_bet if big_bet is None else big_bet,
            max_raises=max_raises,
            uncapped_heads_up=uncapped_heads_up,
        )

    @classmethod
    def no_limit(cls) -> BettingStructure:
        """No limit: minimum bet the big blind, minimum raise the last full raise, maximum the stack (R-BET-NL)."""
        return cls(StructureKind.NO_LIMIT)

    @classmethod
    def pot_limit(cls) -> BettingStructure:
        """Pot limit: raise at most to call + pot after the call (R-BET-PL)."""
        return cls(StructureKind.POT_LIMIT)

    @classmethod
    def half_pot_limit(cls) -> BettingStructure:
        """Half-pot limit: as pot limit with half the maximum raise (R-BET-HPL)."""
        return cls(StructureKind.HALF_POT_LIMIT)

    @classmethod
    def spread_limit(cls, first: int, third: int, fourth: int, *, max_raises: int | None = None) -> BettingStructure:
        """Spread limit ``a-b-c``: bets and raises of the big blind up to ``a`` on rounds 1-2, ``b`` on
        round 3, ``c`` on round 4 (and later rounds, for games with more) (R-BET-SL).

        >>> BettingStructure.spread_limit(20, 40, 60).spread_maxima
        (20, 20, 40, 60)
        """
        return cls(StructureKind.SPREAD_LIMIT, spread_maxima=(first, first, third, fourth), max_raises=max_raises)

    def fixed_size(self, big_bet_round: bool) -> int:
        """The fixed-limit bet of a round: the small or the big bet."""
        return self.big_bet if big_bet_round else self.small_bet

    def spread_maximum(self, round_index: int) -> int:
        """Spread limit's largest bet or raise in betting round ``round_index`` (0-based)."""
        maxima = self.spread_maxima
        return maxima[round_index] if round_index < len(maxima) else maxima[-1]

    def raise_cap(self, players_in_hand: int) -> int | None:
        """How many bets plus raises a round allows (``None``: unlimited), R-BET-FL."""
        if self.max_raises is None or (self.uncapped_heads_up and players_in_hand == 2):
            return None
        return self.max_raises + 1


def raise_bounds(
    structure: BettingStructure,
    *,
    round_index: int,
    big_bet_round: bool,
    big_blind: int,
    highest_bet: int,
    player_bet: int,
    last_raise: int,
    pot_total: int,
) -> tuple[int, int]:
    """``(min_to, max_to)`` for a bet or raise, before capping at the player's stack.

    ``highest_bet``: the largest street total in front of anyone; ``player_bet``: the actor's street total;
    ``last_raise``: the size of the last full bet or raise this round (0 if none); ``pot_total``: every chip
    committed in the hand so far, bets in front of players included. A raise must add at least
    ``max(last_raise, minimum bet)`` over ``highest_bet`` (R-BET-NL).

    >>> fixed = BettingStructure.fixed_limit(10)
    >>> raise_bounds(fixed, round_index=2, big_bet_round=True, big_blind=10, highest_bet=20,
    ...              player_bet=0, last_raise=20, pot_total=80)
    (40, 40)
    >>> spread = BettingStructure.spread_limit(20, 40, 60)
    >>> raise_bounds(spread, round_index=3, big_bet_round=True, big_blind=10, highest_bet=0,
    ...              player_bet=0, last_raise=0, pot_total=80)
    (10, 60)
    """
    kind = structure.kind
    if kind is StructureKind.FIXED_LIMIT:
        # Every fixed-limit raise is one bet of the round's size (R-BET-FL), also over a straddle: at 50/100
        # with a 200 straddle the raise is to 300 (PokerKit); the straddle counts as a raise for the cap.
        to = highest_bet + (structure.big_bet if big_bet_round else structure.small_bet)
        return to, to
    increment = last_raise if last_raise > big_blind else big_blind
    if kind is StructureKind.NO_LIMIT:
        return highest_bet + increment, NO_MAXIMUM
    if kind is StructureKind.POT_LIMIT:
        maximum = 2 * highest_bet - player_bet + pot_total
    elif kind is StructureKind.HALF_POT_LIMIT:
        maximum = highest_bet + (pot_total + highest_bet - player_bet) // 2
    else:
        maximum = highest_bet + structure.spread_maximum(round_index)
    minimum = highest_bet + increment
    if maximum < minimum:
        maximum = minimum
    return minimum, maximum
