"""What host-blind dealing (fairness v2) can deal, in one place for tables, pools and tournaments in room.toml.

The players' own check of a host-blind hand (:mod:`engine.fairness_v2.referee`) replays hold'em betting with its
blinds and antes; other games deal cards to other places (stud's up cards, a draw's replacements, Omaha's four
hole cards) that its schedule does not lay out yet, so room.toml refuses them in one line.
"""

from __future__ import annotations

from typing import Final

from hosting.config_reader import Reader

DEALINGS: Final = ("commit-reveal", "host-blind")
HOST_BLIND: Final = "host-blind"
HOST_BLIND_GAMES: Final = ("texas_holdem",)
HOST_BLIND_STRUCTURES: Final = ("no_limit", "pot_limit")


def check_host_blind_game(reader: Reader, game: str, structure: str) -> None:
    """:class:`~hosting.config_reader.ConfigError` naming ``dealing`` unless host-blind dealing covers the game."""
    if game not in HOST_BLIND_GAMES:
        raise reader.fail("dealing", f"host-blind dealing deals no-limit and pot-limit Texas hold'em only, not "
                                     f"{game}: use dealing = \"commit-reveal\" (the default) for it")
    if structure not in HOST_BLIND_STRUCTURES:
        raise reader.fail("dealing", f"host-blind dealing deals no-limit and pot-limit Texas hold'em only, not "
                                     f"{structure.replace('_', ' ')}: use dealing = \"commit-reveal\" for it")
