"""ElGamal under a joint key (Barnett–Smart): player keys with Schnorr proofs, the joint key, the deck's card
points, re-masking, and Chaum–Pedersen (DLEQ) proofs for decryption shares.

A ciphertext is ``(C1, C2) = (r·G, M + r·Y)`` with ``Y = Σ X_j`` the joint key of the players dealt in. Nobody
can decrypt alone: each player ``j`` contributes the share ``x_j·C1``, and ``M = C2 − Σ x_j·C1``.

Secret-handling rules this module enforces: a :class:`PlayerKey`'s secret never appears in its ``repr`` or in
anything it returns except :meth:`PlayerKey.share` results (points) and proofs; the secret scalar itself has no
public accessor besides ``_secret`` (used by :mod:`engine.fairness_v2.threshold` to deal it, once).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.cards import Card, full_deck
from engine.fairness_v2.group import Group, GroupError
from engine.fairness_v2.randomness import ProofContext, RandomSource, hash_to_scalar, random_scalar, scalar_bytes

CARD_TAG: Final = "croupier/v2/card/"


@dataclass(frozen=True, slots=True)
class Ciphertext:
    c1: bytes
    c2: bytes


Deck = tuple[Ciphertext, ...]


@dataclass(frozen=True, slots=True)
class SchnorrProof:
    """Proof of knowledge of ``x`` with ``X = x·G`` (compact form: challenge and response)."""

    challenge: int
    response: int


@dataclass(frozen=True, slots=True)
class DleqProof:
    """Chaum–Pedersen: the same ``x`` has ``X = x·G`` and ``D = x·C1`` (compact form)."""

    challenge: int
    response: int


class PlayerKey:
    """A player's ElGamal key for one seated session. Holds its secret; prints none of it."""

    __slots__ = ("_secret", "group", "public")

    def __init__(self, group: Group, secret: int) -> None:
        self.group = group
        self._secret = secret % group.order
        self.public = group.base_mult(self._secret)

    @classmethod
    def generate(cls, group: Group, rng: RandomSource) -> PlayerKey:
        return cls(group, random_scalar(group, rng))

    def __repr__(self) -> str:
        return f"PlayerKey({self.group.name}, public={self.public.hex()[:16]}…)"

    def prove_possession(self, context: ProofContext, rng: RandomSource) -> SchnorrProof:
        return schnorr_prove(self.group, self._secret, self.public, context, rng)

    def share(self, c1: bytes) -> bytes:
        """This player's decryption share ``x·C1`` of a card."""
        return self.group.mult(c1, self._secret)

    def share_with_proof(self, c1: bytes, context: ProofContext, rng: RandomSource) -> tuple[bytes, DleqProof]:
        share = self.share(c1)
        return share, dleq_prove(self.group, self._secret, self.public, c1, share, context, rng)


def schnorr_prove(group: Group, secret: int, public: bytes, context: ProofContext, rng: RandomSource) -> SchnorrProof:
    nonce = random_scalar(group, rng)
    commitment = group.base_mult(nonce)
    challenge = hash_to_scalar(group, "schnorr", [*context.fields(group), public, commitment])
    return SchnorrProof(challenge, (nonce + challenge * secret) % group.order)


def schnorr_verify(group: Group, public: bytes, proof: SchnorrProof, context: ProofContext) -> bool:
    try:
        commitment = group.subtract(group.base_mult(proof.response), group.mult(public, proof.challenge))
    except GroupError:
        return False
    return proof.challenge == hash_to_scalar(group, "schnorr", [*context.fields(group), public, commitment])


def dleq_prove(group: Group, secret: int, public: bytes, base: bytes, share: bytes, context: ProofContext,
               rng: RandomSource) -> DleqProof:
    nonce = random_scalar(group, rng)
    challenge = hash_to_scalar(group, "dleq", [*context.fields(group), public, base, share, group.base_mult(nonce),
                                               group.mult(base, nonce)])
    return DleqProof(challenge, (nonce + challenge * secret) % group.order)


def dleq_verify(group: Group, public: bytes, base: bytes, share: bytes, proof: DleqProof,
                context: ProofContext) -> bool:
    """Whether ``share = x·base`` for the ``x`` of ``public = x·G``."""
    if not (0 <= proof.challenge < group.order and 0 <= proof.response < group.order):
        return False
    try:
        first = group.multi_mult([(group.generator, proof.response), (public, -proof.challenge)])
        second = group.multi_mult([(base, proof.response), (share, -proof.challenge)])
    except GroupError:
        return False
    return proof.challenge == hash_to_scalar(group, "dleq", [*context.fields(group), public, base, share, first,
                                                             second])


def joint_key(group: Group, publics: Iterable[bytes]) -> bytes:
    """``Y = Σ X_j`` over the players dealt in."""
    return group.add(list(publics))


@cache
def card_points(group: Group, cards: tuple[Card, ...] | None = None) -> dict[Card, bytes]:
    """Each card's public point ``M = hash_to_point("croupier/v2/card/<card>")`` (nobody knows their logs)."""
    return {card: group.hash_to_point(f"{CARD_TAG}{card}".encode()) for card in (cards or full_deck())}


@cache
def card_lookup(group: Group, cards: tuple[Card, ...] | None = None) -> dict[bytes, Card]:
    return {point: card for card, point in card_points(group, cards).items()}


def initial_deck(group: Group, key: bytes, cards: Sequence[Card] | None = None) -> Deck:
    """The public starting deck ``(G, M_i + Y)`` in canonical card order: anyone can recompute it."""
    points = card_points(group, tuple(cards) if cards else None)
    return tuple(Ciphertext(group.generator, group.add([points[card], key])) for card in points)


def remask(group: Group, key: bytes, ciphertext: Ciphertext, randomness: int) -> Ciphertext:
    """The same card under fresh randomness: ``(C1 + ρ·G, C2 + ρ·Y)``."""
    return Ciphertext(group.multi_mult([(ciphertext.c1, 1), (group.generator, randomness)]),
                      group.multi_mult([(ciphertext.c2, 1), (key, randomness)]))


def decrypt(group: Group, ciphertext: Ciphertext, shares: Sequence[bytes],
            cards: tuple[Card, ...] | None = None) -> Card | None:
    """The card once every player's share is in; ``None`` when the result is no card (someone cheated)."""
    try:
        point = group.subtract(ciphertext.c2, group.add(list(shares)))
    except GroupError:
        return None
    return card_lookup(group, cards).get(point)


def check_keys(group: Group, publics: Mapping[int, bytes], proofs: Mapping[int, SchnorrProof],
               context_of: Mapping[int, ProofContext]) -> list[int]:
    """The seats whose key proof fails (a rogue key, a copied key, a bad point)."""
    bad = [seat for seat, public in publics.items()
           if seat not in proofs or not schnorr_verify(group, public, proofs[seat], context_of[seat])]
    seen: dict[bytes, int] = {}
    for seat, public in publics.items():
        if public in seen:
            bad.append(seat)
        seen[public] = seat
    return sorted(set(bad))


def scalar_field(scalar: int) -> bytes:
    return scalar_bytes(scalar)
