"""Commit–reveal draws from a table of outcomes (engine.fair_draw): the mapping, the proof, tampering."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import replace

import pytest

from engine.fair_draw import (
    DrawProof,
    KeyDraw,
    check_proof,
    draw_commit,
    draw_index,
    draw_key,
    make_proof,
    outcome_at,
)
from engine.fairness import FairnessError
from engine.tournament.formats import SPIN_MULTIPLIERS, spin_row
from engine.tournament.seating import initial_tables

SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)
HOST = bytes(32)
PLAYERS = {"ann": bytes([1]) * 32, "bob": bytes([2]) * 32, "cy": bytes([3]) * 32}


def spin_proof() -> DrawProof:
    return make_proof("room", "spin:1", SPIN, HOST, PLAYERS)


def test_the_cumulative_mapping_gives_each_row_its_weight_and_matches_the_directors_spin_row() -> None:
    table = ((2, 3), (5, 1), (9, 2))
    assert [outcome_at(table, index) for index in range(6)] == [2, 2, 2, 5, 9, 9]
    with pytest.raises(FairnessError):
        outcome_at(table, 6)
    # The Spin's index is the director's spin_draw: the same row either way, at every edge of the table.
    edges = [0, 587_999, 588_000, 837_999, 838_000, 999_989, 999_990, 999_999]
    assert [outcome_at(SPIN, index) for index in edges] == [spin_row(index).multiplier for index in edges]
    assert [outcome_at(SPIN, index) for index in edges] == [2, 2, 3, 3, 5, 100, 1000, 1000]


def test_rejection_sampling_throws_away_the_values_a_modulo_would_favour() -> None:
    # total 3 in one byte: 256 % 3 == 1, so the byte 255 is thrown away (255 % 3 == 0 would favour 0) and
    # the next byte decides. A key whose stream starts 255, then a byte that is not 0 mod 3:
    def stream(key: bytes) -> bytes:
        return hashlib.shake_256(key).digest(2)

    key = next(key for key in (hashlib.sha256(n.to_bytes(4, "big")).digest() for n in range(100_000))
               if stream(key)[0] == 255 and stream(key)[1] % 3 != 0 and stream(key)[1] != 255)
    assert draw_index(key, 3) == stream(key)[1] % 3 != 0


def test_the_draw_is_uniform_over_many_keys() -> None:
    counts = Counter(draw_index(hashlib.sha256(n.to_bytes(4, "big")).digest(), 6) for n in range(12_000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    # 2,000 expected each; 5 standard deviations (~183) is never crossed by a fair draw
    assert all(abs(count - 2_000) < 200 for count in counts.values()), counts


def test_a_made_proof_checks_out_and_its_index_is_the_keys() -> None:
    proof = spin_proof()
    assert check_proof(proof, outcomes=SPIN, own=("ann", PLAYERS["ann"])) == []
    key = draw_key("room", "spin:1", SPIN, HOST, PLAYERS)
    assert proof.index == draw_index(key, 1_000_000)
    assert proof.outcome == spin_row(proof.index).multiplier
    assert proof.commitments["bob"] == draw_commit("room", "spin:1", "bob", PLAYERS["bob"])
    assert DrawProof.from_json(proof.to_json()) == proof


def test_every_secret_changes_the_draw_and_the_key_binds_room_draw_and_table() -> None:
    base = draw_key("room", "spin:1", SPIN, HOST, PLAYERS)
    assert draw_key("room", "spin:1", SPIN, HOST, {**PLAYERS, "cy": bytes([4]) * 32}) != base
    assert draw_key("room", "spin:1", SPIN, bytes([9]) * 32, PLAYERS) != base
    assert draw_key("other", "spin:1", SPIN, HOST, PLAYERS) != base
    assert draw_key("room", "spin:2", SPIN, HOST, PLAYERS) != base
    assert draw_key("room", "spin:1", (*SPIN[:-1], (1000, 11)), HOST, PLAYERS) != base
    # the host's and a player's commitments differ even for the same bytes
    assert draw_commit("room", "d", None, HOST) != draw_commit("room", "d", "host", HOST)


def test_a_tampered_multiplier_index_secret_or_table_fails() -> None:
    proof = spin_proof()
    other = 1000 if proof.outcome != 1000 else 2
    assert check_proof(replace(proof, outcome=other)) == [
        f"the outcome is {proof.outcome}, the proof says {other}"]
    assert check_proof(replace(proof, index=(proof.index + 1) % 1_000_000))[0].startswith("the draw is ")
    forged = {**PLAYERS, "bob": bytes([7]) * 32}
    assert "the secret of bob does not match its commitment" in check_proof(replace(proof, secrets=forged))
    bad_host = replace(proof, host_secret=bytes([8]) * 32)
    assert "the host's secret does not match its commitment" in check_proof(bad_host)
    richer = ((2, 1), (1000, 999_999))
    tampered_table = make_proof("room", "spin:1", richer, HOST, PLAYERS)
    assert check_proof(tampered_table, outcomes=SPIN) == ["the outcome table is not the published one"]


def test_what_the_verifier_knew_before_the_reveal_must_be_in_the_proof() -> None:
    proof = spin_proof()
    sent = dict(proof.commitments)
    assert check_proof(proof, commitments=sent, host_commitment=proof.host_commitment) == []
    swapped = make_proof("room", "spin:1", SPIN, HOST, {**PLAYERS, "ann": bytes([5]) * 32})
    assert check_proof(swapped, commitments=sent) == ["the commitment of ann changed after it was sent"]
    assert check_proof(swapped, own=("ann", PLAYERS["ann"])) == [
        "the secret of ann is not the one ann revealed"]


def test_a_player_who_committed_and_did_not_reveal_is_withheld_and_left_out_of_the_key() -> None:
    committed = {name: draw_commit("room", "spin:1", name, secret) for name, secret in PLAYERS.items()}
    revealed = {name: PLAYERS[name] for name in ("ann", "cy")}
    proof = make_proof("room", "spin:1", SPIN, HOST, revealed, committed=committed)
    assert proof.withheld == ("bob",)
    assert proof.index == draw_index(draw_key("room", "spin:1", SPIN, HOST, revealed), 1_000_000)
    assert check_proof(proof, commitments=committed) == []
    # hiding that someone withheld is caught
    assert check_proof(replace(proof, withheld=())) == [
        "the withheld players are not those who committed and did not reveal"]
    with pytest.raises(FairnessError, match="did not commit"):
        make_proof("room", "spin:1", SPIN, HOST, {"dan": HOST}, committed=committed)


def test_bad_proofs_are_refused_with_the_field_named() -> None:
    data = spin_proof().to_json()
    with pytest.raises(FairnessError, match="index"):
        DrawProof.from_json({**data, "index": "7"})
    with pytest.raises(FairnessError, match="host_secret"):
        DrawProof.from_json({**data, "host_secret": "zz"})
    with pytest.raises(FairnessError, match="not a"):
        DrawProof.from_json({**data, "protocol": "v0"})
    assert check_proof(replace(spin_proof(), host_secret=b"short")) == ["a draw secret is exactly 32 bytes"]
    with pytest.raises(FairnessError, match="positive integer"):
        make_proof("room", "d", ((2, 0),), HOST, {})


def test_initial_seats_replay_from_the_key() -> None:
    key = draw_key("room", "seats:1", ((0, 1),), HOST, PLAYERS)
    first = initial_tables(list(range(20)), 9, KeyDraw(key))
    assert first == initial_tables(list(range(20)), 9, KeyDraw(key))
    assert sorted(entry for table in first for entry in table) == list(range(20))
    other = draw_key("room", "seats:1", ((0, 1),), HOST, {**PLAYERS, "ann": bytes([6]) * 32})
    assert initial_tables(list(range(20)), 9, KeyDraw(other)) != first


def test_a_key_draw_survives_pickling_mid_stream() -> None:
    import pickle

    key = draw_key("room", "seats:1", ((0, 1),), HOST, PLAYERS)
    straight = KeyDraw(key)
    expected = [straight(bound) for bound in (9, 9, 300, 2, 70_000, 5)]
    resumed = KeyDraw(key)
    assert [resumed(bound) for bound in (9, 9)] == expected[:2]
    copy = pickle.loads(pickle.dumps(resumed))
    assert [copy(bound) for bound in (300, 2, 70_000, 5)] == expected[2:]
    long_draw = KeyDraw(key)
    values = [long_draw(1_000) for _ in range(400)]  # past the first 256 bytes of the stream
    again = pickle.loads(pickle.dumps(KeyDraw(key)))
    assert [again(1_000) for _ in range(400)] == values
