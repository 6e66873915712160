"""Terelius–Wikström shuffle proofs: the batched chain verifier against the unbatched reference, tampering."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import full_deck
from engine.fairness_v2.elgamal import Ciphertext, card_points, remask
from engine.fairness_v2.group import SECP256K1, Group
from engine.fairness_v2.randomness import ProofContext, SeededRandom, random_scalar
from engine.fairness_v2.shuffle import (
    ShuffleStep,
    ShuffleWitness,
    replace_card,
    shuffle,
    shuffle_with_witness,
    verify_chain,
    verify_chain_reference,
    verify_chains,
    verify_shuffle,
)
from tests.engine.fairness_v2_helpers import BACKENDS, Table, shuffled_table


def both(table: Table, steps: list[ShuffleStep]) -> tuple[bool, bool]:
    """(batched, reference) verdicts on a chain."""
    return (verify_chain(table.group, table.key, table.initial, steps, SeededRandom("weights")),
            verify_chain_reference(table.group, table.key, table.initial, steps))


def chosen_card(table: Table, card_index: int) -> Ciphertext:
    """A fresh encryption of a card the cheater picks (what substitution looks like)."""
    group = table.group
    r = random_scalar(group, SeededRandom("cheat"))
    point = card_points(group)[full_deck()[card_index]]
    return Ciphertext(group.base_mult(r), group.add([point, group.mult(table.key, r)]))


def with_deck(steps: list[ShuffleStep], index: int, deck: tuple[Ciphertext, ...]) -> list[ShuffleStep]:
    return [*steps[:index], replace(steps[index], deck=deck), *steps[index + 1:]]


@BACKENDS
def test_honest_chain_verifies_both_ways(group: Group) -> None:
    table = shuffled_table(group, 3)
    assert both(table, table.steps) == (True, True)
    step = table.steps[0]
    assert verify_shuffle(group, table.key, table.initial, step.deck, step.proof, step.context)


@BACKENDS
def test_substituted_card_fails(group: Group) -> None:
    table = shuffled_table(group, 3)
    cheat = replace_card(table.steps[1].deck, 5, chosen_card(table, 0))
    assert both(table, with_deck(table.steps, 1, cheat)[:2]) == (False, False)
    # in the middle of a chain of three: the rest of the chain cannot launder it
    assert both(table, with_deck(table.steps, 1, cheat)) == (False, False)


@BACKENDS
def test_duplicated_card_fails(group: Group) -> None:
    table = shuffled_table(group, 3)
    deck = table.steps[0].deck
    twin = remask(group, table.key, deck[3], random_scalar(group, SeededRandom("twin")))
    assert both(table, with_deck(table.steps, 0, replace_card(deck, 4, twin))) == (False, False)
    assert both(table, with_deck(table.steps, 2, replace_card(table.steps[2].deck, 9, table.steps[2].deck[8]))) == (
        False, False)


@BACKENDS
def test_swapped_proof_fails(group: Group) -> None:
    table = shuffled_table(group, 3)
    swapped = [table.steps[0], replace(table.steps[1], proof=table.steps[2].proof), table.steps[2]]
    assert both(table, swapped) == (False, False)
    other = shuffled_table(group, 3, seed="another table")
    assert both(table, [replace(table.steps[0], proof=other.steps[0].proof), *table.steps[1:]]) == (False, False)


@BACKENDS
def test_wrong_context_fails(group: Group) -> None:
    table = shuffled_table(group, 3)
    for changed in (ProofContext("t1", "h2", "shuffle", 0), ProofContext("t2", "h1", "shuffle", 0),
                    ProofContext("t1", "h1", "reshuffle", 0), ProofContext("t1", "h1", "shuffle", 1)):
        steps = [replace(table.steps[0], context=changed), *table.steps[1:]]
        assert both(table, steps) == (False, False), changed


@BACKENDS
def test_reordered_chain_fails(group: Group) -> None:
    table = shuffled_table(group, 3)
    assert both(table, [table.steps[1], table.steps[0], table.steps[2]]) == (False, False)


@BACKENDS
def test_tampered_response_fails(group: Group) -> None:
    table = shuffled_table(group, 2)
    proof = table.steps[1].proof
    bad = replace(proof, s_prime=(proof.s_prime[0] + 1, *proof.s_prime[1:]))
    assert both(table, [table.steps[0], replace(table.steps[1], proof=bad)]) == (False, False)
    bad = replace(proof, t_hat=(proof.t_hat[1], proof.t_hat[0], *proof.t_hat[2:]))
    assert both(table, [table.steps[0], replace(table.steps[1], proof=bad)]) == (False, False)


@BACKENDS
def test_a_point_that_does_not_decode_fails_without_an_error(group: Group) -> None:
    """The batched verifier leaves decoding to its sum (each point parsed once): a proof point, a deck point or
    the moved first t-value that is no point of the group still fails the check, as a False, never an error."""
    table = shuffled_table(group, 2)
    step = table.steps[1]
    not_a_point = bytes(group.point_size)  # the identity's encoding (ristretto255) or no encoding (secp256k1)
    for bad in (replace(step.proof, t1=not_a_point), replace(step.proof, t_hat=(not_a_point, *step.proof.t_hat[1:])),
                replace(step.proof, commitments=(not_a_point, *step.proof.commitments[1:]))):
        assert both(table, [table.steps[0], replace(step, proof=bad)]) == (False, False)
    deck = replace_card(step.deck, 3, Ciphertext(not_a_point, step.deck[3].c2))
    assert both(table, [table.steps[0], replace(step, deck=deck)]) == (False, False)


SMALL = full_deck()[:5]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(2, 5), shufflers=st.integers(1, 3))
def test_property_honest_shuffles_verify(seed: int, size: int, shufflers: int) -> None:
    table = shuffled_table(SECP256K1, 3, seed=str(seed), cards=SMALL[:size], shufflers=shufflers)
    assert both(table, table.steps) == (True, True)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(2, 5), step=st.integers(0, 2), position=st.integers(0, 4),
       kind=st.sampled_from(["remask", "duplicate", "swap"]))
def test_property_tampered_decks_fail_in_both_verifiers(seed: int, size: int, step: int, position: int,
                                                       kind: str) -> None:
    group = SECP256K1
    table = shuffled_table(group, 3, seed=str(seed), cards=SMALL[:size])
    deck = table.steps[step].deck
    position %= size
    other = (position + 1) % size
    if kind == "remask":  # same card, fresh mask the proof did not account for
        changed = replace_card(deck, position, remask(group, table.key, deck[position], 7))
    elif kind == "duplicate":
        changed = replace_card(deck, position, deck[other])
    else:  # two cards swapped after proving
        changed = replace_card(replace_card(deck, position, deck[other]), other, deck[position])
    assert both(table, with_deck(table.steps, step, changed)) == (False, False)


def chain_with_my_shuffle(group: Group, mine: int, shufflers: int = 4) -> tuple[Table, ShuffleWitness]:
    """A chain where shuffler ``mine`` kept his witness (as a client's own referee does)."""
    table = shuffled_table(group, shufflers, shufflers=0)
    rng = SeededRandom("my chain")
    deck = table.initial
    witness = None
    for seat in range(shufflers):
        context = ProofContext("t1", "h1", "shuffle", seat)
        if seat == mine:
            deck, proof, witness = shuffle_with_witness(group, table.key, deck, context, rng)
        else:
            deck, proof = shuffle(group, table.key, deck, context, rng)
        table.steps.append(ShuffleStep(deck, proof, context))
    assert witness is not None
    return table, witness


def around(table: Table, mine: int) -> list[tuple[tuple[Ciphertext, ...], list[ShuffleStep]]]:
    """The stretches a shuffler checks: before his shuffle and after it."""
    return [(table.initial, table.steps[:mine]), (table.steps[mine].deck, table.steps[mine + 1:])]


@BACKENDS
def test_my_own_shuffle_folds_and_the_others_are_still_checked(group: Group) -> None:
    for mine in (0, 1, 3):
        table, witness = chain_with_my_shuffle(group, mine)
        segments = [(start, steps) for start, steps in around(table, mine) if steps]
        assert verify_chains(group, table.key, segments, SeededRandom("w"), own=witness)
        assert verify_chains(group, table.key, segments, SeededRandom("w"))
    table, witness = chain_with_my_shuffle(group, 1)
    for cheat_at in (0, 2, 3):  # a card substituted before my shuffle, right after it, at the end
        cheat = replace_card(table.steps[cheat_at].deck, 5, chosen_card(table, 0))
        steps = with_deck(table.steps, cheat_at, cheat)
        cheated = Table(group, table.keys, table.key, table.initial, steps)
        segments = around(cheated, 1)
        assert not verify_chains(group, table.key, segments, SeededRandom("w"), own=witness), cheat_at
        assert not all(verify_chain_reference(group, table.key, start, part) for start, part in segments)


@BACKENDS
def test_a_changed_copy_of_my_deck_is_not_folded(group: Group) -> None:
    """If the deck relayed as mine is not the one I made, the fold does not apply: the next shuffle is checked
    against the relayed deck (and fails, since it was proved on mine)."""
    table, witness = chain_with_my_shuffle(group, 1)
    changed = replace_card(table.steps[1].deck, 2, chosen_card(table, 3))
    segments = [(table.initial, table.steps[:1]), (changed, table.steps[2:])]
    assert not verify_chains(group, table.key, segments, SeededRandom("w"), own=witness)


@BACKENDS
def test_two_stretches_in_one_sum_agree_with_the_reference(group: Group) -> None:
    table = shuffled_table(group, 4)
    segments = around(table, 2)
    assert verify_chains(group, table.key, segments, SeededRandom("w"))
    cheat = replace_card(table.steps[3].deck, 0, chosen_card(table, 9))
    bad = around(Table(group, table.keys, table.key, table.initial, with_deck(table.steps, 3, cheat)), 2)
    assert not verify_chains(group, table.key, bad, SeededRandom("w"))
    assert verify_chain_reference(group, table.key, *bad[0]) and not verify_chain_reference(group, table.key, *bad[1])
