"""The result type shared by every evaluator."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card


@dataclass(frozen=True, order=True, slots=True)
class HandValue:
    """A hand's value under one ranking.

    ``strength``: an ``int``; for two values of the same ranking, higher is better (for lows too).
    ``category``: English name, e.g. ``"full house"`` or ``"eight-six low"``.
    ``cards``: the five cards that make the hand, most significant first.
    Ordering and equality use ``strength`` only, so equal strengths split a pot.
    """

    strength: int
    category: str = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)
