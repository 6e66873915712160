"""What host-blind dealing (fairness v2) can deal, in one place for tables, pools and tournaments in room.toml.

The players' own check of a host-blind hand (:mod:`engine.fairness_v2.referee`) lays out blind games with hole
cards dealt one at a time round the table and a five-card board (Texas hold'em, Omaha) and replays their betting,
no-limit, pot-limit or fixed-limit; other games deal cards to other places (stud's up cards, a draw's
replacements) and split pots (hi/lo) in ways it does not cover yet, so room.toml refuses them in one line.
"""

from __future__ import annotations

from typing import Final

from hosting.config_reader import Reader

DEALINGS: Final = ("commit-reveal", "host-blind")
HOST_BLIND: Final = "host-blind"
HOST_BLIND_GAMES: Final = ("texas_holdem", "omaha")
HOST_BLIND_STRUCTURES: Final = ("no_limit", "pot_limit", "fixed_limit")
WHAT: Final = "host-blind dealing deals only Texas hold'em and Omaha (no-limit, pot-limit or fixed-limit)"


def check_host_blind_game(reader: Reader, game: str, structure: str) -> None:
    """:class:`~hosting.config_reader.ConfigError` naming ``dealing`` unless host-blind dealing covers the game."""
    if game not in HOST_BLIND_GAMES:
        raise reader.fail("dealing", f"{WHAT}, not {game}: use dealing = \"commit-reveal\" (the default) for it")
    if structure not in HOST_BLIND_STRUCTURES:
        raise reader.fail("dealing", f"{WHAT}, not {structure.replace('_', ' ')}: use dealing = \"commit-reveal\" "
                                     "for it")
