"""Where v2's randomness comes from (never from here): the caller owns a :class:`RandomSource`.

``hosting`` and the client pass the :mod:`secrets` module (it has ``token_bytes``); tests and benchmarks pass a
:class:`SeededRandom` so a run can be replayed. Also the Fiat–Shamir hashing every proof shares: fields are
length-prefixed (:func:`engine.fairness.field_bytes`) so no two field lists hash alike.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final, Protocol

from engine.fairness import ShakeStream, field_bytes
from engine.fairness_v2.group import Group

VERSION: Final = "croupier/v2"


class RandomSource(Protocol):
    """Anything with ``token_bytes(n)`` (the :mod:`secrets` module is one)."""

    def token_bytes(self, nbytes: int) -> bytes: ...


class SeededRandom:
    """A replayable random source for tests and benchmarks: SHAKE-256 of a seed. Never for real secrets."""

    def __init__(self, seed: bytes | str) -> None:
        self._stream = ShakeStream(hashlib.sha256(seed.encode() if isinstance(seed, str) else seed).digest())

    def token_bytes(self, nbytes: int) -> bytes:
        return self._stream.read(nbytes)


def random_scalar(group: Group, rng: RandomSource) -> int:
    """A uniform non-zero scalar (64 bytes reduced: the bias is below 2⁻²⁵⁰)."""
    while True:
        scalar = int.from_bytes(rng.token_bytes(64), "big") % group.order
        if scalar:
            return scalar


def batch_weight(rng: RandomSource) -> int:
    """A 128-bit non-zero weight for batch verification (a cheater passes with probability ≤ 2⁻¹²⁸)."""
    while True:
        weight = int.from_bytes(rng.token_bytes(16), "big")
        if weight:
            return weight


@dataclass(frozen=True, slots=True)
class ProofContext:
    """Every public input a proof binds besides its statement: which hand, which step, who proves."""

    table: str
    hand: str
    step: str
    prover: int

    def fields(self, group: Group) -> list[bytes]:
        return [VERSION.encode(), group.name.encode(), self.table.encode(), self.hand.encode(), self.step.encode(),
                str(self.prover).encode()]


def hash_fields(*parts: bytes) -> bytes:
    return hashlib.sha512(b"".join(field_bytes(part) for part in parts)).digest()


def hash_to_scalar(group: Group, tag: str, parts: list[bytes]) -> int:
    return int.from_bytes(hash_fields(tag.encode(), *parts), "big") % group.order


def scalar_bytes(scalar: int) -> bytes:
    return scalar.to_bytes(32, "big")
