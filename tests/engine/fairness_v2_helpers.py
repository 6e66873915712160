"""Shared fixtures for the v2 tests: both group backends, seeded players, shuffled decks."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.cards import Card, full_deck
from engine.fairness_v2.elgamal import Deck, PlayerKey, initial_deck, joint_key
from engine.fairness_v2.group import RISTRETTO255, SECP256K1, Group
from engine.fairness_v2.randomness import ProofContext, SeededRandom
from engine.fairness_v2.shuffle import ShuffleStep, shuffle

BACKENDS = pytest.mark.parametrize("group", [SECP256K1, RISTRETTO255], ids=lambda group: group.name)


@dataclass
class Table:
    group: Group
    keys: list[PlayerKey]
    key: bytes
    initial: Deck
    steps: list[ShuffleStep]

    @property
    def deck(self) -> Deck:
        return self.steps[-1].deck if self.steps else self.initial


def shuffled_table(group: Group, players: int, seed: str = "table", cards: tuple[Card, ...] | None = None,
                   shufflers: int | None = None) -> Table:
    rng = SeededRandom(seed)
    keys = [PlayerKey.generate(group, rng) for _ in range(players)]
    key = joint_key(group, [player.public for player in keys])
    deck = initial_deck(group, key, cards or full_deck())
    start = deck
    steps = []
    for seat in range(players if shufflers is None else shufflers):
        context = ProofContext("t1", "h1", "shuffle", seat)
        deck, proof = shuffle(group, key, deck, context, rng)
        steps.append(ShuffleStep(deck, proof, context))
    return Table(group, keys, key, start, steps)
