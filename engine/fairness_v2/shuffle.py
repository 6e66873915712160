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
from functools import cache, lru_cache
from typing import Final

from engine.fairness import field_bytes
from engine.fairness_v2.elgamal import Ciphertext, Deck, remask
from engine.fairness_v2.group import Group, GroupError
from engine.fairness_v2.randomness import (
    ProofContext,
    RandomSource,
    batch_weight,
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


class ShuffleWitness:
    """What a shuffler knows of his own shuffle: the permutation and the masks. It stays with him (never sent,
    never printed); his own referee uses it to fold his output deck into the deck before it while he checks the
    shuffles after his, and drops it then (:func:`verify_chains`)."""

    __slots__ = ("deck", "masks", "permutation", "source")

    def __init__(self, source: Deck, deck: Deck, permutation: Sequence[int], masks: Sequence[int]) -> None:
        self.source = source
        self.deck = deck
        self.permutation = tuple(permutation)
        self.masks = tuple(masks)

    def __repr__(self) -> str:
        return "ShuffleWitness(…)"


@cache
def generators(group: Group, size: int) -> tuple[bytes, tuple[bytes, ...]]:
    """``H`` and ``H_1..H_N``, hashed from labels. ``H`` is a fixed base of half the prover's multiplications."""
    h = group.hash_to_point(f"{GENERATOR_TAG}h".encode())
    group.precompute(h)
    return h, tuple(group.hash_to_point(f"{GENERATOR_TAG}{index}".encode()) for index in range(1, size + 1))


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


@lru_cache(maxsize=64)
def _deck_bytes(deck: Deck) -> bytes:
    """A deck's part of a Fiat–Shamir input, as :func:`hash_fields` lays fields out: each deck is hashed four times
    or more (as one proof's output and the next one's input, for ``u`` and for ``c``, by each verifier)."""
    return b"".join(field_bytes(point) for point in _deck_fields(deck))


def _fields(*parts: bytes | Deck) -> bytes:
    """``hash_fields`` of the parts with each deck's fields spliced in (the same digest, decks laid out once)."""
    return hashlib.sha512(b"".join(_deck_bytes(part) if isinstance(part, tuple) else field_bytes(part)
                                   for part in parts)).digest()


def _challenges(group: Group, context: ProofContext, key: bytes, before: Deck, after: Deck,
                commitments: Sequence[bytes]) -> list[int]:
    seed = _fields(b"tw/u", *context.fields(group), key, before, after, *commitments)
    return [int.from_bytes(hashlib.sha512(seed + index.to_bytes(4, "big")).digest(), "big") % group.order
            for index in range(len(before))]


def _challenge(group: Group, context: ProofContext, key: bytes, before: Deck, after: Deck,
               proof: ShuffleProof) -> int:
    digest = _fields(b"tw/c", *context.fields(group), key, before, after, *proof.commitments, *proof.chain,
                     proof.t1, proof.t2, proof.t3, proof.t4_first, proof.t4_second, *proof.t_hat)
    return int.from_bytes(digest, "big") % group.order


def shuffle(group: Group, key: bytes, before: Deck, context: ProofContext,
            rng: RandomSource) -> tuple[Deck, ShuffleProof]:
    """Permute and re-mask ``before`` under the joint ``key``; the new deck and its proof. The permutation and
    every randomness stay local to this call: only the deck and the proof leave it."""
    deck, proof, _ = shuffle_with_witness(group, key, before, context, rng)
    return deck, proof


def shuffle_with_witness(group: Group, key: bytes, before: Deck, context: ProofContext,
                         rng: RandomSource) -> tuple[Deck, ShuffleProof, ShuffleWitness]:
    """:func:`shuffle`, also returning the shuffler's own :class:`ShuffleWitness` (for his own checks only)."""
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
        commitments[source] = group.multi_mult([(g, randomness[source]), (bases[index], 1)])
    u = _challenges(group, context, key, before, after, commitments)
    u_permuted = [u[source] for source in permutation]
    chain_randomness = [random_scalar(group, rng) for _ in range(size)]
    # ĉ_i = r̂_i·G + u'_i·ĉ_{i−1} = R_i·G + U_i·H with U_i = Π_{k≤i} u'_k, R_i = r̂_i + u'_i·R_{i−1}: the prover
    # knows both logs, so ĉ_i and t̂_i = ω̂_i·G + ω'_i·ĉ_{i−1} are sums over the fixed bases G and H (tables)
    on_g = [0] * (size + 1)
    on_h = [1] + [0] * size
    for index in range(size):
        on_g[index + 1] = (chain_randomness[index] + u_permuted[index] * on_g[index]) % order
        on_h[index + 1] = u_permuted[index] * on_h[index] % order
    chain = [group.multi_mult([(g, on_g[index]), (h, on_h[index])]) for index in range(1, size + 1)]
    omega = [random_scalar(group, rng) for _ in range(4)]
    omega_hat = [random_scalar(group, rng) for _ in range(size)]
    omega_prime = [random_scalar(group, rng) for _ in range(size)]
    masked_omega = sum(w * mask for w, mask in zip(omega_prime, masks, strict=True)) % order
    partial = ShuffleProof(
        tuple(commitments), tuple(chain),
        group.base_mult(omega[0]), group.base_mult(omega[1]),
        group.multi_mult([(g, omega[2]), *zip(bases, omega_prime, strict=True)]),
        # Σ ω'_i·e'_i with e'_i = e_ψ(i) + ρ_i·(G, Y): the masks' part folds into one G and one Y term (and
        # the first shuffler's e_ψ(i) all have C1 = G)
        group.multi_mult([(g, masked_omega - omega[3]), *(
            (before[source].c1, w) for source, w in zip(permutation, omega_prime, strict=True))]),
        group.multi_mult([(key, masked_omega - omega[3]), *(
            (before[source].c2, w) for source, w in zip(permutation, omega_prime, strict=True))]),
        tuple(group.multi_mult([(g, omega_hat[index] + omega_prime[index] * on_g[index]),
                                (h, omega_prime[index] * on_h[index])]) for index in range(size)),
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
    return after, proof, ShuffleWitness(before, after, permutation, masks)


def _well_formed(group: Group, size: int, after: Deck, proof: ShuffleProof, *, decode: bool = True) -> bool:
    """Sizes, scalar ranges and every point decoding (a bad point fails here, not inside the arithmetic).
    ``decode=False``: the points are left to the batched sum, which decodes each point it multiplies and
    :meth:`_Sum.is_zero` the rest (each point parsed once, not twice: ~1,400 parses a check)."""
    if not (len(after) == len(proof.commitments) == len(proof.chain) == len(proof.t_hat) == len(proof.s_hat)
            == len(proof.s_prime) == size) or size < 2:
        return False
    scalars = (proof.s1, proof.s2, proof.s3, proof.s4, *proof.s_hat, *proof.s_prime)
    if any(not 0 <= scalar < group.order for scalar in scalars):
        return False
    if not decode:
        return True
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
    """A multi-scalar sum being gathered: equal points (the same deck entry in two proofs) fold into one term.

    The first equation's weight is 1 (the other weights stay random: a false equation still survives with
    probability ≤ 2⁻¹²⁸), so its point has scalar −1 and moves to the other side for free."""

    def __init__(self, order: int, rng: RandomSource) -> None:
        self.order = order
        self.terms: dict[bytes, int] = {}
        self._rng = rng
        self._first = True

    def weight(self) -> int:
        if self._first:
            self._first = False
            return 1
        return batch_weight(self._rng)

    def is_zero(self, group: Group) -> bool:
        """Whether the sum is the identity. Every point of it is decoded on the way (a proof's points reach the
        sum undecoded): those multiplied by the group's multi-scalar sum, the others here."""
        order = self.order
        terms = []
        unused = []
        for point, scalar in self.terms.items():
            scalar %= order
            (terms.append((point, scalar)) if scalar else unused.append(point))
        minus_one = self.order - 1
        moved = next((point for point, scalar in terms if scalar == minus_one), None)
        try:
            for point in (*unused, *([moved] if moved is not None else [])):
                group.decode(point)
            if len(terms) < 2:
                return not terms
            if moved is not None:  # Σ_rest = P
                return group.multi_mult([(point, scalar) for point, scalar in terms if point != moved]) == moved
            (first, scalar), rest = terms[0], terms[1:]
            return group.multi_mult(rest) == group.mult(first, -scalar)
        except GroupError:
            return False


def verify_chain(group: Group, key: bytes, initial: Deck, steps: Sequence[ShuffleStep], rng: RandomSource) -> bool:
    """Every shuffle of a chain at once: Σ_k w_k·(right side_k − t_k) = 0 over all equations of all proofs, with
    fresh 128-bit weights ``w_k`` from the verifier's ``rng`` (a prover cannot predict them)."""
    return verify_chains(group, key, [(initial, steps)], rng)


def verify_chains(group: Group, key: bytes, segments: Sequence[tuple[Deck, Sequence[ShuffleStep]]],
                  rng: RandomSource, *, own: ShuffleWitness | None = None) -> bool:
    """Several stretches of shuffles (each from its own starting deck) in one weighted sum: a shuffler checks
    the stretch before his own shuffle and the one after it, and the fixed bases ``G, H, H_i`` and the key
    they share are multiplied once, not once per stretch.

    ``own``: a shuffler's witness of his own shuffle, when a stretch starts at his own output. That deck is
    ``source[ψ(i)] + ρ_i·(G, Y)`` by his own computation, so its points fold into the deck he shuffled (already
    in the sum as the stretch before ends there): 104 multiplications fewer, nothing taken on trust."""
    if not segments:
        return True
    size = len(segments[0][0])
    if any(len(start) != size for start, _ in segments):
        return False
    total = _Sum(group.order, rng)
    return all(_gather(group, key, start, steps, total, own if own is not None and own.deck == start else None)
               for start, steps in segments) and total.is_zero(group)


def _gather(group: Group, key: bytes, initial: Deck, steps: Sequence[ShuffleStep], total: _Sum,
            own: ShuffleWitness | None) -> bool:
    """Add one stretch's weighted equations to ``total``; ``False`` when a proof is malformed. (Each point's
    coefficients are summed here first: this loop runs ~500 times per proof.)"""
    size = len(initial)
    order = group.order
    g = group.generator
    h, bases = generators(group, size)
    terms = total.terms
    get = terms.get
    before = initial
    for number, step in enumerate(steps):
        after, proof = step.deck, step.proof
        if not _well_formed(group, size, after, proof, decode=False):  # its points: decoded by the sum
            return False
        u = _challenges(group, step.context, key, before, after, proof.commitments)
        c = _challenge(group, step.context, key, before, after, proof)
        w1, w2, w3, w41, w42 = (total.weight() for _ in range(5))
        w_hat = [total.weight() for _ in range(size)]
        c_w1, c_w3, c_w41, c_w42 = c * w1 % order, c * w3 % order, c * w41 % order, c * w42 % order
        on_g = w1 * proof.s1 + w2 * proof.s2 + w3 * proof.s3 - w41 * proof.s4
        on_key = -w42 * proof.s4
        # t1 = s1·G − c·(Σ c_j − Σ H_i);  t3 = s3·G − c·Σ u_j c_j + Σ s'_i H_i
        for commitment, weight in zip(proof.commitments, u, strict=True):
            terms[commitment] = get(commitment, 0) - c_w1 - c_w3 * weight
        for base, s in zip(bases, proof.s_prime, strict=True):
            terms[base] = get(base, 0) + c_w1 + w3 * s
        # t2 = s2·G − c·(ĉ_N − (Π u)·H)
        terms[proof.chain[-1]] = get(proof.chain[-1], 0) - c * w2
        terms[h] = get(h, 0) + c * w2 * _product(u, order)
        for point, weight in ((proof.t1, w1), (proof.t2, w2), (proof.t3, w3), (proof.t4_first, w41),
                              (proof.t4_second, w42)):
            terms[point] = get(point, 0) - weight
        # t4 = Σ s'_i e'_i − s4·(G, Y) − c·Σ u_j e_j
        if number == 0 and own is not None:  # my own output: before_i = source_ψ(i) + ρ_i·(G, Y)
            masked = 0
            for index, weight in enumerate(u):
                origin = own.source[own.permutation[index]]
                terms[origin.c1] = get(origin.c1, 0) - c_w41 * weight
                terms[origin.c2] = get(origin.c2, 0) - c_w42 * weight
                masked += weight * own.masks[index]
            on_g -= c_w41 * masked
            on_key -= c_w42 * masked
        else:
            for ciphertext, weight in zip(before, u, strict=True):
                terms[ciphertext.c1] = get(ciphertext.c1, 0) - c_w41 * weight
                terms[ciphertext.c2] = get(ciphertext.c2, 0) - c_w42 * weight
        for ciphertext, s in zip(after, proof.s_prime, strict=True):
            terms[ciphertext.c1] = get(ciphertext.c1, 0) + w41 * s
            terms[ciphertext.c2] = get(ciphertext.c2, 0) + w42 * s
        # t̂_i = ŝ_i·G + s'_i·ĉ_{i−1} − c·ĉ_i
        previous = h
        for link, t_hat, weight, s_hat, s in zip(proof.chain, proof.t_hat, w_hat, proof.s_hat, proof.s_prime,
                                                 strict=True):
            on_g += weight * s_hat
            terms[previous] = get(previous, 0) + weight * s
            terms[link] = get(link, 0) - c * weight
            terms[t_hat] = get(t_hat, 0) - weight
            previous = link
        terms[g] = get(g, 0) + on_g
        terms[key] = get(key, 0) + on_key
        before = after
    return True


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
