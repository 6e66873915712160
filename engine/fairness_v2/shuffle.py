"""Verifiable shuffles of the encrypted deck: Terelius–Wikström proofs, following Haenni, Locher, Koenig and
Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (FC 2017), Algorithms 4.1–4.5, written
additively with responses ``s = ω + c·secret``.

A shuffle takes deck ``e`` to ``e'`` with ``e'_i = remask(e_{ψ(i)}, ρ_i)``. The proof commits to ψ (``c_j =
r_j·G + H_{ψ⁻¹(j)}``), links it to the challenges ``u`` through a commitment chain ``ĉ``, and proves in zero
knowledge that the output is the input permuted and re-masked. Fiat–Shamir hashes every public input: the
version, the group, table, hand, step and prover seat (:class:`ProofContext`), the joint key, both decks, the
commitments and the chain. The Pedersen bases ``H, H_1..H_N`` are hashed from labels: nobody can know a relation
between them (a trapdoor would break soundness).

Two verifiers: :func:`verify_shuffle` checks each equation on its own (the reference, the tests' oracle), and
:func:`verify_chain` checks a whole chain of shuffles as one multi-scalar sum with 128-bit random weights, the
points shared between neighbouring proofs (a deck is one proof's output and the next one's input) folded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.fairness_v2.elgamal import Ciphertext, Deck, remask
from engine.fairness_v2.group import Group, GroupError
from engine.fairness_v2.randomness import (
    ProofContext,
    RandomSource,
    batch_weight,
    hash_fields,
    random_scalar,
    scalar_bytes,
)

GENERATOR_TAG: Final = "croupier/v2/generator/"


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """Permutation commitment, commitment chain, the prover's t-values and the responses."""

    commitments: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    t1: bytes
    t2: bytes
    t3: bytes
    t4_first: bytes
    t4_second: bytes
    t_hat: tuple[bytes, ...]
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShuffleStep:
    """One shuffle of a chain: the deck it produced, its proof and the context it was proved in."""

    deck: Deck
    proof: ShuffleProof
    context: ProofContext


@cache
def generators(group: Group, size: int) -> tuple[bytes, tuple[bytes, ...]]:
    """``H`` and ``H_1..H_N``, hashed from labels."""
    return (group.hash_to_point(f"{GENERATOR_TAG}h".encode()),
            tuple(group.hash_to_point(f"{GENERATOR_TAG}{index}".encode()) for index in range(1, size + 1)))


def random_permutation(size: int, rng: RandomSource) -> list[int]:
    """Fisher–Yates with exactly uniform draws (rejection sampling)."""
    order = list(range(size))
    for index in range(size - 1, 0, -1):
        bound = index + 1
        while True:
            draw = int.from_bytes(rng.token_bytes(8), "big")
            if draw < 2**64 - 2**64 % bound:
                break
        other = draw % bound
        order[index], order[other] = order[other], order[index]
    return order


def _deck_fields(deck: Deck) -> list[bytes]:
    return [point for ciphertext in deck for point in (ciphertext.c1, ciphertext.c2)]


def _challenges(group: Group, context: ProofContext, key: bytes, before: Deck, after: Deck,
                commitments: Sequence[bytes]) -> list[int]:
    seed = hash_fields(b"tw/u", *context.fields(group), key, *_deck_fields(before), *_deck_fields(after),
                       *commitments)
    return [int.from_bytes(hashlib.sha512(seed + index.to_bytes(4, "big")).digest(), "big") % group.order
            for index in range(len(before))]


def _challenge(group: Group, context: ProofContext, key: bytes, before: Deck, after: Deck,
               proof: ShuffleProof) -> int:
    digest = hash_fields(b"tw/c", *context.fields(group), key, *_deck_fields(before), *_deck_fields(after),
                         *proof.commitments, *proof.chain, proof.t1, proof.t2, proof.t3, proof.t4_first,
                         proof.t4_second, *proof.t_hat)
    return int.from_bytes(digest, "big") % group.order


def shuffle(group: Group, key: bytes, before: Deck, context: ProofContext,
            rng: RandomSource) -> tuple[Deck, ShuffleProof]:
    """Permute and re-mask ``before`` under the joint ``key``; the new deck and its proof. The permutation and
    every randomness stay local to this call: only the deck and the proof leave it."""
    size = len(before)
    order = group.order
    h, bases = generators(group, size)
    g = group.generator
    permutation = random_permutation(size, rng)
    masks = [random_scalar(group, rng) for _ in range(size)]
    after = tuple(remask(group, key, before[permutation[index]], masks[index]) for index in range(size))
    randomness = [random_scalar(group, rng) for _ in range(size)]
    commitments: list[bytes] = [b""] * size
    for index, source in enumerate(permutation):
        commitments[source] = group.add([group.base_mult(randomness[source]), bases[index]])
    u = _challenges(group, context, key, before, after, commitments)
    u_permuted = [u[source] for source in permutation]
    chain_randomness = [random_scalar(group, rng) for _ in range(size)]
    chain: list[bytes] = []
    previous = h
    for index in range(size):
        previous = group.multi_mult([(g, chain_randomness[index]), (previous, u_permuted[index])])
        chain.append(previous)
    omega = [random_scalar(group, rng) for _ in range(4)]
    omega_hat = [random_scalar(group, rng) for _ in range(size)]
    omega_prime = [random_scalar(group, rng) for _ in range(size)]
    previous_links = [h, *chain[:-1]]
    partial = ShuffleProof(
        tuple(commitments), tuple(chain),
        group.base_mult(omega[0]), group.base_mult(omega[1]),
        group.multi_mult([(g, omega[2]), *zip(bases, omega_prime, strict=True)]),
        group.multi_mult([(g, -omega[3]), *((c.c1, w) for c, w in zip(after, omega_prime, strict=True))]),
        group.multi_mult([(key, -omega[3]), *((c.c2, w) for c, w in zip(after, omega_prime, strict=True))]),
        tuple(group.multi_mult([(g, omega_hat[index]), (previous_links[index], omega_prime[index])])
              for index in range(size)),
        0, 0, 0, 0, (), ())
    challenge = _challenge(group, context, key, before, after, partial)
    tail = [1] * size  # v_i = Π_{k>i} u'_k
    for index in range(size - 2, -1, -1):
        tail[index] = tail[index + 1] * u_permuted[index + 1] % order
    r_bar = sum(randomness) % order
    r_hat = sum(r * v for r, v in zip(chain_randomness, tail, strict=True)) % order
    r_tilde = sum(r * w for r, w in zip(randomness, u, strict=True)) % order
    r_prime = sum(r * w for r, w in zip(masks, u_permuted, strict=True)) % order
    proof = ShuffleProof(
        partial.commitments, partial.chain, partial.t1, partial.t2, partial.t3, partial.t4_first,
        partial.t4_second, partial.t_hat,
        (omega[0] + challenge * r_bar) % order, (omega[1] + challenge * r_hat) % order,
        (omega[2] + challenge * r_tilde) % order, (omega[3] + challenge * r_prime) % order,
        tuple((w + challenge * r) % order for w, r in zip(omega_hat, chain_randomness, strict=True)),
        tuple((w + challenge * u) % order for w, u in zip(omega_prime, u_permuted, strict=True)))
    return after, proof


def _well_formed(group: Group, size: int, after: Deck, proof: ShuffleProof) -> bool:
    """Sizes, scalar ranges and every point decoding (a bad point fails here, not inside the arithmetic)."""
    if not (len(after) == len(proof.commitments) == len(proof.chain) == len(proof.t_hat) == len(proof.s_hat)
            == len(proof.s_prime) == size) or size < 2:
        return False
    scalars = (proof.s1, proof.s2, proof.s3, proof.s4, *proof.s_hat, *proof.s_prime)
    if any(not 0 <= scalar < group.order for scalar in scalars):
        return False
    try:
        for point in (*_deck_fields(after), *proof.commitments, *proof.chain, proof.t1, proof.t2, proof.t3,
                      proof.t4_first, proof.t4_second, *proof.t_hat):
            group.decode(point)
    except GroupError:
        return False
    return True


def _product(values: Iterable[int], order: int) -> int:
    result = 1
    for value in values:
        result = result * value % order
    return result


def verify_shuffle(group: Group, key: bytes, before: Deck, after: Deck, proof: ShuffleProof,
                   context: ProofContext) -> bool:
    """The reference verifier: every equation of Algorithm 4.5 checked on its own."""
    size = len(before)
    if not _well_formed(group, size, after, proof):
        return False
    order = group.order
    g = group.generator
    h, bases = generators(group, size)
    u = _challenges(group, context, key, before, after, proof.commitments)
    c = _challenge(group, context, key, before, after, proof)
    try:
        c_bar = group.subtract(group.add(list(proof.commitments)), group.add(list(bases)))
        c_hat = group.subtract(proof.chain[-1], group.mult(h, _product(u, order)))
        c_tilde = group.multi_mult(zip(proof.commitments, u, strict=True))
        a = group.multi_mult((ciphertext.c1, weight) for ciphertext, weight in zip(before, u, strict=True))
        b = group.multi_mult((ciphertext.c2, weight) for ciphertext, weight in zip(before, u, strict=True))
        expected = [
            (proof.t1, group.multi_mult([(g, proof.s1), (c_bar, -c)])),
            (proof.t2, group.multi_mult([(g, proof.s2), (c_hat, -c)])),
            (proof.t3, group.multi_mult([(g, proof.s3), (c_tilde, -c), *zip(bases, proof.s_prime, strict=True)])),
            (proof.t4_first, group.multi_mult([(g, -proof.s4), (a, -c), *(
                (ciphertext.c1, s) for ciphertext, s in zip(after, proof.s_prime, strict=True))])),
            (proof.t4_second, group.multi_mult([(key, -proof.s4), (b, -c), *(
                (ciphertext.c2, s) for ciphertext, s in zip(after, proof.s_prime, strict=True))])),
        ]
        links = [h, *proof.chain]
        expected += [(proof.t_hat[index], group.multi_mult([
            (g, proof.s_hat[index]), (links[index], proof.s_prime[index]), (links[index + 1], -c)]))
            for index in range(size)]
    except GroupError:
        return False
    return all(given == computed for given, computed in expected)


class _Sum:
    """A multi-scalar sum being gathered: equal points (the same deck entry in two proofs) fold into one term."""

    def __init__(self, order: int) -> None:
        self.order = order
        self.terms: dict[bytes, int] = {}

    def add(self, point: bytes, scalar: int) -> None:
        self.terms[point] = (self.terms.get(point, 0) + scalar) % self.order

    def is_zero(self, group: Group) -> bool:
        terms = [(point, scalar) for point, scalar in self.terms.items() if scalar]
        if not terms:
            return True
        (first, scalar), rest = terms[0], terms[1:]
        if not rest:
            return False
        try:
            return group.multi_mult(rest) == group.mult(first, -scalar)
        except GroupError:
            return False


def verify_chain(group: Group, key: bytes, initial: Deck, steps: Sequence[ShuffleStep], rng: RandomSource) -> bool:
    """Every shuffle of a chain at once: Σ_k w_k·(right side_k − t_k) = 0 over all equations of all proofs, with
    fresh 128-bit weights ``w_k`` from the verifier's ``rng`` (a prover cannot predict them)."""
    size = len(initial)
    order = group.order
    g = group.generator
    h, bases = generators(group, size)
    total = _Sum(order)
    before = initial
    for step in steps:
        after, proof = step.deck, step.proof
        if not _well_formed(group, size, after, proof):
            return False
        u = _challenges(group, step.context, key, before, after, proof.commitments)
        c = _challenge(group, step.context, key, before, after, proof)
        w1, w2, w3, w41, w42 = (batch_weight(rng) for _ in range(5))
        w_hat = [batch_weight(rng) for _ in range(size)]
        # t1 = s1·G − c·(Σ c_j − Σ H_i)
        total.add(g, w1 * proof.s1)
        for commitment in proof.commitments:
            total.add(commitment, -c * w1)
        for base in bases:
            total.add(base, c * w1)
        total.add(proof.t1, -w1)
        # t2 = s2·G − c·(ĉ_N − (Π u)·H)
        total.add(g, w2 * proof.s2)
        total.add(proof.chain[-1], -c * w2)
        total.add(h, c * w2 * _product(u, order))
        total.add(proof.t2, -w2)
        # t3 = s3·G − c·Σ u_j c_j + Σ s'_i H_i
        total.add(g, w3 * proof.s3)
        for commitment, weight in zip(proof.commitments, u, strict=True):
            total.add(commitment, -c * w3 * weight)
        for base, s in zip(bases, proof.s_prime, strict=True):
            total.add(base, w3 * s)
        total.add(proof.t3, -w3)
        # t4 = Σ s'_i e'_i − s4·(G, Y) − c·Σ u_j e_j
        total.add(g, -w41 * proof.s4)
        total.add(key, -w42 * proof.s4)
        for ciphertext, weight in zip(before, u, strict=True):
            total.add(ciphertext.c1, -c * w41 * weight)
            total.add(ciphertext.c2, -c * w42 * weight)
        for ciphertext, s in zip(after, proof.s_prime, strict=True):
            total.add(ciphertext.c1, w41 * s)
            total.add(ciphertext.c2, w42 * s)
        total.add(proof.t4_first, -w41)
        total.add(proof.t4_second, -w42)
        # t̂_i = ŝ_i·G + s'_i·ĉ_{i−1} − c·ĉ_i
        links = [h, *proof.chain]
        for index in range(size):
            total.add(g, w_hat[index] * proof.s_hat[index])
            total.add(links[index], w_hat[index] * proof.s_prime[index])
            total.add(links[index + 1], -c * w_hat[index])
            total.add(proof.t_hat[index], -w_hat[index])
        before = after
    return total.is_zero(group)


def verify_chain_reference(group: Group, key: bytes, initial: Deck, steps: Sequence[ShuffleStep]) -> bool:
    """The chain checked proof by proof with the reference verifier (the batched verifier's oracle)."""
    before = initial
    for step in steps:
        if not verify_shuffle(group, key, before, step.deck, step.proof, step.context):
            return False
        before = step.deck
    return True


def replace_card(deck: Deck, index: int, ciphertext: Ciphertext) -> Deck:
    """``deck`` with one entry replaced (for tests and tamper checks)."""
    return (*deck[:index], ciphertext, *deck[index + 1:])


def proof_scalars(proof: ShuffleProof) -> list[bytes]:
    return [scalar_bytes(value) for value in (proof.s1, proof.s2, proof.s3, proof.s4, *proof.s_hat, *proof.s_prime)]
