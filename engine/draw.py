"""Draw rounds: the order of a reshuffled stub (R-DRAW-1).

When the stub runs out during a draw, the discards thrown so far — never the drawing player's own
discards of that draw — are shuffled and dealt from. The engine has no randomness of its own, so the new
order is an input of :meth:`engine.hand.Hand.start`: a :data:`Reshuffle` callback that receives the
discards (in the order they were thrown) and the reshuffle's number in the hand (0, 1, …), and returns the
same cards in the order to deal them.

Hosting derives it from the hand's committed seeds with :func:`seeded_reshuffle` keyed by
:func:`engine.fairness.reshuffle_key`, and records each reshuffle (its pool, in the order handed over, and who
got its cards) with :class:`engine.fairness.ReshuffleRecorder`; a hand that reshuffled publishes every draw's
discards with its seeds, so anyone can rebuild each pool, recompute each reshuffle and check every card dealt
from it (:func:`engine.fairness.verify`). Without a callback the discards are dealt in the order they were
thrown (deterministic, used by replays and tests).

>>> from engine.cards import parse_cards
>>> order = seeded_reshuffle(b"seed")
>>> cards = parse_cards("2c 3d 4h 5s 6c")
>>> sorted(order(cards, 0)) == sorted(cards), order(cards, 0) == order(cards, 0)
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence

from engine.cards import Card

Reshuffle = Callable[[tuple[Card, ...], int], Sequence[Card]]
"""``(discards, reshuffle_number) -> the same cards in dealing order``."""


def keep_order(discards: tuple[Card, ...], reshuffle_number: int) -> Sequence[Card]:
    """The default :data:`Reshuffle`: deal the discards in the order they were thrown."""
    return discards


def seeded_reshuffle(seed: bytes) -> Reshuffle:
    """A deterministic Fisher–Yates reshuffle derived from ``seed`` (HMAC-SHA256 in counter mode, rejection
    sampling: no modulo bias), different for every reshuffle number of the hand."""

    def reshuffle(discards: tuple[Card, ...], reshuffle_number: int) -> Sequence[Card]:
        cards = list(discards)
        counter = 0
        pool = b""

        def next_word() -> int:
            nonlocal counter, pool
            if len(pool) < 4:
                label = f"reshuffle:{reshuffle_number}:{counter}".encode()
                pool += hmac.new(seed, label, hashlib.sha256).digest()
                counter += 1
            word, pool = int.from_bytes(pool[:4], "big"), pool[4:]
            return word

        for top in range(len(cards) - 1, 0, -1):
            span = top + 1
            limit = (1 << 32) - (1 << 32) % span
            while True:
                word = next_word()
                if word < limit:
                    break
            other = word % span
            cards[top], cards[other] = cards[other], cards[top]
        return cards

    return reshuffle


def check_reshuffled(discards: Sequence[Card], reshuffled: Sequence[Card]) -> tuple[Card, ...]:
    """``reshuffled`` as a tuple if it is a permutation of ``discards``; ``ValueError`` otherwise."""
    result = tuple(reshuffled)
    if sorted(result) != sorted(discards):
        raise ValueError("the reshuffle callback must return exactly the discards it was given, reordered")
    return result
