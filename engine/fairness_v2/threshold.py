"""Dropouts: each player's key is Feldman-VSS-shared among the others at the start, so a player who vanishes
cannot stall the hand: any ``t`` of the others open what still needs his key (board cards, other players' hole
cards), each with a DLEQ proof against his share's public commitment. His own hole cards are never opened:
:func:`cover_share` refuses a position whose audience is the missing player (with the other players' public
shares of that card, a cover would open it to everyone).

``t = max(2, n − 2)``, capped at ``n − 1`` (:func:`threshold_for`): heads-up needs no sharing (the player left
wins when the other folds). Shares travel sealed to their holder (X25519 + ChaCha20-Poly1305,
:func:`seal` / :func:`unseal`): the host that relays them learns nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.fairness_v2.elgamal import DleqProof, PlayerKey, dleq_prove, dleq_verify
from engine.fairness_v2.group import Group, GroupError
from engine.fairness_v2.opening import OpeningSchedule, ScheduleViolation
from engine.fairness_v2.randomness import ProofContext, RandomSource, random_scalar


class ThresholdError(ValueError):
    """Too few valid cover shares to stand in for a missing player."""


def threshold_for(players: int) -> int:
    """How many of the other players must help open a missing player's part: ``max(2, n−2)`` capped at ``n−1``.

    >>> [threshold_for(n) for n in (2, 3, 4, 6, 10)]
    [1, 2, 2, 4, 8]
    """
    return min(max(2, players - 2), players - 1)


def evaluation_point(seat: int) -> int:
    return seat + 1  # never 0: f(0) is the secret


@dataclass(frozen=True, slots=True)
class KeyEscrow:
    """A dealer's public part: commitments ``A_k = a_k·G`` (``A_0`` is his public key) and the holders."""

    dealer: int
    threshold: int
    commitments: tuple[bytes, ...]
    holders: tuple[int, ...]


def deal_key(key: PlayerKey, dealer: int, holders: Sequence[int], threshold: int,
             rng: RandomSource) -> tuple[KeyEscrow, dict[int, int]]:
    """Share ``key``'s secret: the public escrow and each holder's share (to be sealed to that holder only)."""
    group = key.group
    if not 1 <= threshold <= len(holders) or dealer in holders:
        raise ValueError("a key is shared among the other players, threshold between 1 and their number")
    coefficients = [key._secret, *(random_scalar(group, rng) for _ in range(threshold - 1))]
    commitments = (key.public, *(group.base_mult(coefficient) for coefficient in coefficients[1:]))
    shares = {holder: _evaluate(coefficients, evaluation_point(holder), group.order) for holder in holders}
    return KeyEscrow(dealer, threshold, commitments, tuple(holders)), shares


def _evaluate(coefficients: Sequence[int], point: int, order: int) -> int:
    value = 0
    for coefficient in reversed(coefficients):
        value = (value * point + coefficient) % order
    return value


def share_public(group: Group, escrow: KeyEscrow, holder: int) -> bytes:
    """``S = s·G`` of a holder's share, from the commitments alone: ``Σ A_k·i^k``."""
    point = evaluation_point(holder)
    return group.multi_mult((commitment, pow(point, power, group.order))
                            for power, commitment in enumerate(escrow.commitments))


def check_escrow(group: Group, escrow: KeyEscrow, dealer_public: bytes, players: int) -> bool:
    return (escrow.commitments[:1] == (dealer_public,) and len(escrow.commitments) == escrow.threshold
            and escrow.threshold == threshold_for(players) and escrow.dealer not in escrow.holders
            and len(set(escrow.holders)) == len(escrow.holders) == players - 1)


def check_share(group: Group, escrow: KeyEscrow, holder: int, share: int) -> bool:
    """A holder's check of the share he received (Feldman)."""
    if not 0 < share < group.order:
        return False
    try:
        return group.base_mult(share) == share_public(group, escrow, holder)
    except GroupError:
        return False


@dataclass(frozen=True, slots=True)
class CoverShare:
    """Holder ``holder``'s stand-in for dealer ``dealer``'s share of deck position ``position``: ``s·C1``."""

    dealer: int
    holder: int
    position: int
    share: bytes
    proof: DleqProof


def cover_context(table: str, hand: str, dealer: int, holder: int, position: int) -> ProofContext:
    return ProofContext(table, hand, f"cover/{dealer}/{position}", holder)


def cover_share(group: Group, escrow: KeyEscrow, holder: int, share: int, c1: bytes, position: int,
                schedule: OpeningSchedule, table: str, hand: str, rng: RandomSource) -> CoverShare:
    if schedule.audiences.get(position) == escrow.dealer:
        raise ScheduleViolation(f"deck position {position} is seat {escrow.dealer}'s own card: never covered")
    if position not in schedule.audiences:
        raise ScheduleViolation(f"deck position {position} is not dealt in this hand")
    if position in schedule.discarded:
        raise ScheduleViolation(f"deck position {position} was discarded: it is never opened")
    point = group.mult(c1, share)
    proof = dleq_prove(group, share, group.base_mult(share), c1, point,
                       cover_context(table, hand, escrow.dealer, holder, position), rng)
    return CoverShare(escrow.dealer, holder, position, point, proof)


def check_cover(group: Group, escrow: KeyEscrow, c1: bytes, item: CoverShare, table: str, hand: str) -> bool:
    if item.dealer != escrow.dealer or item.holder not in escrow.holders:
        return False
    return dleq_verify(group, share_public(group, escrow, item.holder), c1, item.share, item.proof,
                       cover_context(table, hand, item.dealer, item.holder, item.position))


def combine(group: Group, escrow: KeyEscrow, covers: Mapping[int, bytes]) -> bytes:
    """The missing player's share ``x·C1`` from ``t`` verified cover shares (Lagrange at 0)."""
    if len(covers) < escrow.threshold:
        raise ThresholdError(f"{len(covers)} of the {escrow.threshold} helpers needed answered")
    chosen = sorted(covers)[: escrow.threshold]
    order = group.order
    terms = []
    for holder in chosen:
        x_i = evaluation_point(holder)
        numerator, denominator = 1, 1
        for other in chosen:
            if other != holder:
                x_j = evaluation_point(other)
                numerator = numerator * x_j % order
                denominator = denominator * (x_j - x_i) % order
        terms.append((covers[holder], numerator * pow(denominator, -1, order) % order))
    return group.multi_mult(terms)


# ------------------------------------------------------------------ sealing to one recipient

def box_key(rng: RandomSource) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(rng.token_bytes(32))


def box_public(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _aead(shared: bytes, context: bytes) -> ChaCha20Poly1305:
    return ChaCha20Poly1305(HKDF(SHA256(), 32, None, b"croupier/v2/seal" + context).derive(shared))


def seal(recipient: bytes, plaintext: bytes, context: bytes, rng: RandomSource) -> bytes:
    """``plaintext`` readable by the holder of ``recipient``'s X25519 key only, bound to ``context``."""
    ephemeral = box_key(rng)
    ephemeral_public = box_public(ephemeral)
    shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(recipient))
    nonce = rng.token_bytes(12)
    return ephemeral_public + nonce + _aead(shared, context + ephemeral_public + recipient).encrypt(
        nonce, plaintext, context)


def unseal(key: X25519PrivateKey, sealed: bytes, context: bytes) -> bytes:
    if len(sealed) < 32 + 12 + 16:
        raise ValueError("sealed message too short")
    ephemeral_public, nonce, body = sealed[:32], sealed[32:44], sealed[44:]
    try:
        shared = key.exchange(X25519PublicKey.from_public_bytes(ephemeral_public))
        return _aead(shared, context + ephemeral_public + box_public(key)).decrypt(nonce, body, context)
    except (InvalidTag, ValueError) as problem:
        raise ValueError("sealed message does not open with this key") from problem
