"""What a table's home-game options are (R-HOME-1..4), and which games each one suits.

>>> HomeOptions().any_on
False
>>> check_home_options(HomeOptions(seven_deuce_bounty=5), "omaha")
"seven_deuce_bounty: the 7-2 game is for Texas Hold'em only (two hole cards)"
>>> check_home_options(HomeOptions(bomb_pot_every=10, bomb_pot_ante=4, run_it_twice=True), "texas_holdem") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.variants import Variant, variant_by_id


@dataclass(frozen=True, slots=True)
class HomeOptions:
    """A table's home-game options, every one off by default (chips are integers).

    ``run_it_twice``: R-HOME-1, offer to deal the rest of the board twice when everyone still in is all-in.
    ``rabbit_hunt``: R-HOME-2, after a hand ends before the board is complete a player may see what would have
    come. ``bomb_pot_every``/``bomb_pot_ante``: R-HOME-3, every N-th hand of the table (0: never) everyone antes
    ``bomb_pot_ante`` and the hand goes straight to the flop. ``seven_deuce_bounty``: R-HOME-4, chips each other
    player dealt in pays to a player who wins a pot with 7-2 (0: off).
    """

    run_it_twice: bool = False
    rabbit_hunt: bool = False
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    seven_deuce_bounty: int = 0

    @property
    def any_on(self) -> bool:
        """Whether any option is on."""
        return self.run_it_twice or self.rabbit_hunt or self.bomb_pot_every > 0 or self.seven_deuce_bounty > 0


def board_game(variant: Variant) -> bool:
    """A game with a flop and no draws or face-up cards: the games whose board can be run twice, rabbit-hunted
    and bombed (Hold'em and the Omaha family; not stud, draw or Telesina's single "vela")."""
    streets = variant.streets
    return any(street.board >= 3 for street in streets) and not variant.has_draws \
        and not any(street.hole_up for street in streets)


def check_home_options(options: HomeOptions, game: str) -> str | None:
    """The first problem with ``options`` at a table of ``game`` (a variant id) as ``"key: reason"``, else None."""
    variant = variant_by_id(game)
    board = board_game(variant)
    if options.run_it_twice and not board:
        return f"run_it_twice: {variant.name} has no board to run twice (Hold'em and Omaha games only)"
    if options.rabbit_hunt and not board:
        return f"rabbit_hunt: {variant.name} has no board to hunt (Hold'em and Omaha games only)"
    if options.bomb_pot_every < 0:
        return "bomb_pot_every: a number of hands >= 0 (0: no bomb pots)"
    if options.bomb_pot_every > 0:
        if not board:
            return f"bomb_pot_every: {variant.name} has no flop to go straight to (Hold'em and Omaha games only)"
        if options.bomb_pot_ante <= 0:
            return "bomb_pot_ante: a bomb pot needs an ante of at least 1 chip"
    elif options.bomb_pot_ante:
        return "bomb_pot_ante: set bomb_pot_every too (every how many hands)"
    if options.seven_deuce_bounty < 0:
        return "seven_deuce_bounty: chips >= 0 (0: no 7-2 game)"
    if options.seven_deuce_bounty and variant.id != "texas_holdem":
        return "seven_deuce_bounty: the 7-2 game is for Texas Hold'em only (two hole cards)"
    return None


NO_HOME_OPTIONS: Final = HomeOptions()
"""Every option off: a table's default."""
