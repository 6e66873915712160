"""Fairness v2 group interface and ElGamal under a joint key: both backends run every test."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import Card, full_deck
from engine.fairness_v2.elgamal import (
    Ciphertext,
    PlayerKey,
    card_points,
    check_keys,
    decrypt,
    initial_deck,
    joint_key,
    remask,
    schnorr_verify,
)
from engine.fairness_v2.group import Group, GroupError
from engine.fairness_v2.randomness import ProofContext, SeededRandom, random_scalar
from tests.engine.fairness_v2_helpers import BACKENDS, shuffled_table


@BACKENDS
def test_group_laws(group: Group) -> None:
    rng = SeededRandom("laws")
    a, b = random_scalar(group, rng), random_scalar(group, rng)
    g = group.generator
    assert group.add([group.base_mult(a), group.base_mult(b)]) == group.base_mult(a + b)
    assert group.mult(group.base_mult(a), b) == group.base_mult(a * b)
    assert group.mult(g, group.order + 5) == group.base_mult(5)
    assert group.subtract(group.base_mult(a + b), group.base_mult(b)) == group.base_mult(a)
    assert group.multi_mult([(g, a), (group.base_mult(b), 3), (g, 0)]) == group.base_mult(a + 3 * b)
    assert group.hash_to_point(b"label") == group.hash_to_point(b"label") != group.hash_to_point(b"label2")
    assert group.decode(group.hash_to_point(b"label")) == group.hash_to_point(b"label")


@BACKENDS
def test_multi_mult_on_fixed_bases_short_and_negative_scalars(group: Group) -> None:
    """The fast paths (a precomputed table for G and H, a scalar of 1 added as is, −w·P as w·(−P)) give the
    same points as one multiplication at a time."""
    rng = SeededRandom("fast paths")
    h = group.hash_to_point(b"fixed base")
    group.precompute(h)
    other = group.hash_to_point(b"other")
    g = group.generator
    for _ in range(4):
        a, b, c = (random_scalar(group, rng) for _ in range(3))
        for terms in ([(g, a), (h, b)], [(h, -b), (other, 1)], [(other, -(2**100 + c % 2**64)), (g, 1)],
                      [(h, a), (h, b), (other, c), (g, -a)], [(h, 2**8 - 1), (g, 2**248 * 255)]):
            expected = group.add([group.mult(point, scalar) for point, scalar in terms])
            assert group.multi_mult(terms) == expected, terms
    assert group.multi_mult([(h, group.order - 1), (h, 2)]) == h
    with pytest.raises(GroupError):
        group.multi_mult([(h, 5), (h, -5)])


@BACKENDS
def test_identity_and_junk_are_not_points(group: Group) -> None:
    g = group.generator
    with pytest.raises(GroupError):
        group.add([g, group.negate(g)])
    with pytest.raises(GroupError):
        group.base_mult(group.order)
    with pytest.raises(GroupError):
        group.decode(b"\x00" * group.point_size)
    with pytest.raises(GroupError):
        group.decode(b"\x04" + b"\x01" * (group.point_size - 1))
    with pytest.raises(GroupError):
        group.decode(g[:-1])


@BACKENDS
def test_card_points_are_distinct_and_decode_back(group: Group) -> None:
    points = card_points(group)
    assert len(set(points.values())) == 52
    rng = SeededRandom("cards")
    keys = [PlayerKey.generate(group, rng) for _ in range(3)]
    key = joint_key(group, [player.public for player in keys])
    deck = initial_deck(group, key)
    assert deck[0].c1 == group.generator
    masked = remask(group, key, deck[7], random_scalar(group, rng))
    assert masked != deck[7]
    assert decrypt(group, masked, [player.share(masked.c1) for player in keys]) == full_deck()[7]
    # without one player's share the result is no card at all
    assert decrypt(group, masked, [player.share(masked.c1) for player in keys[1:]]) is None


@BACKENDS
def test_schnorr_key_proofs(group: Group) -> None:
    rng = SeededRandom("pok")
    keys = [PlayerKey.generate(group, rng) for _ in range(3)]
    contexts = {seat: ProofContext("t1", "session", "key", seat) for seat in range(3)}
    proofs = {seat: keys[seat].prove_possession(contexts[seat], rng) for seat in range(3)}
    publics = {seat: keys[seat].public for seat in range(3)}
    assert check_keys(group, publics, proofs, contexts) == []
    assert not schnorr_verify(group, keys[0].public, proofs[0], contexts[1])  # bound to the prover's seat
    # a rogue key (Y' = Z − X_0, secret unknown) cannot carry a proof; a copied key is caught too
    rogue = group.subtract(group.base_mult(99), keys[0].public)
    assert check_keys(group, {**publics, 2: rogue}, proofs, contexts) == [2]
    assert check_keys(group, {**publics, 2: keys[1].public}, {**proofs, 2: proofs[1]}, contexts) == [2]


@BACKENDS
def test_shuffled_deck_opens_to_every_card_once(group: Group) -> None:
    table = shuffled_table(group, 3)
    opened = [decrypt(group, item, [key.share(item.c1) for key in table.keys]) for item in table.deck]
    assert Counter(opened) == Counter(full_deck())
    assert opened != list(full_deck())  # shuffled (probability 1/52! of a false failure)


@BACKENDS
def test_player_key_never_prints_its_secret(group: Group) -> None:
    key = PlayerKey(group, 123456789)
    assert "123456789" not in repr(key) and hex(123456789)[2:] not in repr(key)


def test_decrypt_of_garbage_is_no_card() -> None:
    from engine.fairness_v2.group import SECP256K1 as group
    junk = Ciphertext(group.generator, group.hash_to_point(b"not a card"))
    assert decrypt(group, junk, [group.base_mult(1)]) is None
    assert isinstance(next(iter(card_points(group))), Card)
