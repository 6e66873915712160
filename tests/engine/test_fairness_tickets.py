"""Commitments made ahead for a fast-fold pool (R-FAST-1): a seat's commitment bound to its ticket."""

from __future__ import annotations

import hashlib

import pytest

from engine.cards import full_deck
from engine.fairness import (
    HOST,
    Committer,
    FairnessError,
    Observation,
    SeenCard,
    Transcript,
    ViolationKind,
    commit,
    derive_deck,
    verify,
)
from tests.engine.deal_helpers import DealRecorder

ROOM, POOL, TABLE, HAND = "friday-room", "zoom", "zoom.2", "zoom.2-ab12cd-7"
TICKETS = {0: (POOL, "ab12cd-31"), 3: (POOL, "ab12cd-44")}  # seats 0 and 3 committed ahead; seat 1 did not


def _secret(number: int) -> bytes:
    return hashlib.sha256(b"ticket secret %d" % number).digest()


def _hand() -> tuple[Transcript, dict[Committer, bytes], dict[int, list[object]]]:
    secrets: dict[Committer, bytes] = {HOST: _secret(100), 0: _secret(0), 1: _secret(1), 3: _secret(3)}
    commitments: dict[Committer, bytes] = {HOST: commit(ROOM, TABLE, HAND, HOST, secrets[HOST]),
                                           1: commit(ROOM, TABLE, HAND, 1, secrets[1])}
    commitments |= {seat: commit(ROOM, pool, ticket, 0, secrets[seat]) for seat, (pool, ticket) in TICKETS.items()}
    deck = derive_deck(HAND, secrets, full_deck())
    recorder = DealRecorder(deck)
    dealt: dict[int, list[object]] = {}
    for _ in range(2):
        for seat in (0, 1, 3):
            dealt.setdefault(seat, []).extend(recorder.deal(seat))
    transcript = Transcript(ROOM, TABLE, HAND, full_deck(), commitments, secrets, recorder.deals, tickets=TICKETS)
    return transcript, commitments, dealt


def _observation(transcript: Transcript, seat: int, dealt: dict[int, list[object]]) -> Observation:
    seen = tuple(SeenCard(seat, card) for card in dealt[seat])  # type: ignore[arg-type]
    return Observation(seat, transcript.seeds[seat], dict(transcript.commitments), seen)


def test_a_seat_that_committed_to_its_ticket_verifies() -> None:
    transcript, _, dealt = _hand()
    for seat in (0, 1, 3):
        result = verify(transcript, _observation(transcript, seat, dealt))
        assert result.ok, result.violations


def test_the_ticket_is_part_of_what_is_checked() -> None:
    transcript, _, dealt = _hand()
    # the same commitments read as bound to the table, hand and seat: both pool seats' seeds fail their hash
    plain = Transcript(ROOM, TABLE, HAND, transcript.cards, transcript.commitments, transcript.seeds,
                       transcript.deals)
    mismatched = [violation for violation in verify(plain, _observation(plain, 1, dealt)).violations
                  if violation.kind is ViolationKind.COMMITMENT_MISMATCH]
    assert [violation.evidence["committer"] for violation in mismatched] == ["0", "3"]
    # another ticket for seat 3 (a secret replayed from another hand) fails too
    swapped = Transcript(ROOM, TABLE, HAND, transcript.cards, transcript.commitments, transcript.seeds,
                         transcript.deals, tickets={**TICKETS, 3: (POOL, "ab12cd-45")})
    kinds = [violation.kind for violation in verify(swapped, _observation(swapped, 3, dealt)).violations]
    assert kinds == [ViolationKind.COMMITMENT_MISMATCH]


def test_tickets_survive_json_and_plain_hands_keep_their_shape() -> None:
    transcript, _, _ = _hand()
    data = transcript.to_json()
    assert data["tickets"] == {"0": ["zoom", "ab12cd-31"], "3": ["zoom", "ab12cd-44"]}
    assert Transcript.from_json(data) == transcript
    plain = Transcript(ROOM, TABLE, HAND, transcript.cards, transcript.commitments, transcript.seeds,
                       transcript.deals)
    assert "tickets" not in plain.to_json()
    with pytest.raises(FairnessError, match="a ticket is a seat and"):
        Transcript.from_json(data | {"tickets": {"host": ["zoom", "x"]}})
    with pytest.raises(FairnessError, match="a ticket is a seat and"):
        Transcript.from_json(data | {"tickets": {"0": ["zoom"]}})
