"""Tables: the neutral table any owner drives (:mod:`engine.table.neutral`) and the policies that make it a
cash table (:mod:`engine.table.cash`), a tournament's or a pool's (:mod:`engine.table.policy`).

``from engine.table import Table, TableConfig`` is a cash table, as before the split.
"""

from engine.table.cash import CashPolicy
from engine.table.config import MAX_SEATS, Stakes, TableConfig
from engine.table.hands import (
    HandEngine,
    HandStarter,
    SupportsArtificialAllIn,
    SupportsStacks,
    absent_action,
    start_real_hand,
    timeout_action,
)
from engine.table.neutral import AFTER_HAND_EVENTS, Table
from engine.table.policy import OwnerStacksPolicy, TablePolicy
from engine.table.tournament import TournamentPolicy

__all__ = [
    "AFTER_HAND_EVENTS",
    "MAX_SEATS",
    "CashPolicy",
    "HandEngine",
    "HandStarter",
    "OwnerStacksPolicy",
    "Stakes",
    "SupportsArtificialAllIn",
    "SupportsStacks",
    "Table",
    "TableConfig",
    "TablePolicy",
    "TournamentPolicy",
    "absent_action",
    "start_real_hand",
    "timeout_action",
]
