"""Home-game table options (issue 19; docs/rules-home.md, R-HOME-1..4), each off by default, set per table by the
host: run it twice (:mod:`.run_it_twice`), rabbit hunt (:mod:`.rabbit_hunt`), bomb pots (:mod:`.bomb_pot`) and the
7-2 game (:mod:`.seven_deuce`). :class:`HomeOptions` is what a table carries; the hand reads it from its
:class:`engine.hand.HandConfig`. Pure like the rest of the engine: the deck comes in, nothing is drawn here.
"""

from __future__ import annotations

from engine.home.options import NO_HOME_OPTIONS, HomeOptions, check_home_options

__all__ = ["NO_HOME_OPTIONS", "HomeOptions", "check_home_options"]
