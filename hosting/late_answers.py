"""Late answers to a shuffle: a slow link's, not abuse (issue 25, the open sub-point of its item 10).

A player's ``commit`` or ``reveal`` that reaches the room after the shuffle's deadline is refused — ``too_late``
while the hand goes on, ``no_hand`` once it is over (or ``no_such_table`` once a tournament closed the table) —
and the player misses that hand (sat out, R-FAIR-1). Every refusal also spends the name's error budget
(:mod:`hosting.budgets`), so a client on a slow link, honest but late hand after hand, was disconnected as an
abuser. A late answer to a shuffle that asked this very player is still refused, but it does not count against
the error budget: it spends a bucket of its own (:data:`LATE_ANSWERS`, per name), and only past that one does it
count as any other refusal. A player the shuffle never asked gets nothing from this. A draw that is not a deck
(hosting.draw_round) is kept the same way, under :data:`DRAWS_ASKED`.

:class:`ShufflesAsked` is who each recent shuffle asked (the table runners tell it as they ask), kept after the
hand and its table are gone, bounded like :class:`hosting.verdicts.FinishedHands`.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Final

from hosting.errors import NO_HAND, NO_SUCH_TABLE
from hosting.protocol import TokenBucket
from hosting.verdicts import FinishedHands

LATE_ANSWERS: Final = (10.0, 0.5)
"""Per name, ``(burst, per second)`` of late commits and reveals not counted as abuse. An honest client sends at
most one commit and one reveal a hand, and a miss sits him out, so it is late a few times an hour at most."""
DRAWS_ASKED: Final = "draw:"
"""Where :class:`ShufflesAsked` keeps who a commit–reveal draw asked (a Spin's multiplier, first seats;
hosting.draw_round), its draw id as the hand: no table id holds a colon."""
LATE_CODES: Final = frozenset({"too_late", NO_HAND, NO_SUCH_TABLE})
"""The refusals a late answer gets (the shuffle's phase is over, its hand or its table is gone)."""


class ShufflesAsked:
    """Who each recent shuffle asked for a commitment (by table and hand), its table closed or not."""

    def __init__(self) -> None:
        self._asked = FinishedHands()

    def asked(self, table: str, hand: str, players: Iterable[str]) -> None:
        """The shuffle of ``hand`` at ``table`` has asked ``players`` (everyone it asked so far)."""
        self._asked.add(table, hand, players)

    def forgiven(self, limits: MutableMapping[str, TokenBucket], table: str, hand: str, name: str, code: str,
                 now: float) -> bool:
        """Whether ``name``'s answer refused with ``code`` is a late answer to a shuffle that asked him, within
        his allowance (``limits``: his buckets, shared by all his channels): then it is not counted as abuse."""
        if code not in LATE_CODES or name not in (self._asked.dealt_in(table, hand) or ()):
            return False
        burst, rate = LATE_ANSWERS
        return limits.setdefault("late_shuffle_answer", TokenBucket(burst, rate, now)).take(now)
