"""Commit–reveal shuffle v1: encoding, deck derivation, transcripts and the client's verifier (R-FAIR-1, R-FAIR-2)."""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from engine.cards import Card, full_deck, short_deck
from engine.fairness import (
    HOST,
    Committer,
    Deal,
    FairnessError,
    Observation,
    Recipient,
    SeenCard,
    Transcript,
    ViolationKind,
    commit,
    deck_key,
    derive_deck,
    shuffle,
    verify,
)
from tests.engine.deal_helpers import DealRecorder

ROOM, TABLE, HAND = "friday-room", "t1", "t1-h42"


def _secret(number: int) -> bytes:
    return hashlib.sha256(b"test secret %d" % number).digest()


# --- encoding, written out byte by byte so a change of the v1 format fails here ---------------------------


def _f(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def test_commitment_is_sha256_of_length_prefixed_fields() -> None:
    secret = _secret(1)
    expected = hashlib.sha256(
        _f(b"croupier/v1/commit") + _f(ROOM.encode()) + _f(b"t1") + _f(HAND.encode()) + _f(b"3") + _f(secret)
    ).digest()
    assert commit(ROOM, TABLE, HAND, 3, secret) == expected
    host = hashlib.sha256(
        _f(b"croupier/v1/commit") + _f(ROOM.encode()) + _f(b"t1") + _f(HAND.encode()) + _f(b"host") + _f(secret)
    ).digest()
    assert commit(ROOM, TABLE, HAND, HOST, secret) == host


def test_length_prefixes_keep_field_boundaries_apart() -> None:
    secret = _secret(1)
    assert commit(ROOM, "ab", "c", 0, secret) != commit(ROOM, "a", "bc", 0, secret)
    assert commit(ROOM, TABLE, "h1", 10, secret) != commit(ROOM, TABLE, "h11", 0, secret)


def test_commitment_binds_room_table_hand_and_seat() -> None:
    secret = _secret(7)
    base = commit(ROOM, TABLE, HAND, 2, secret)
    assert base != commit("other-room", TABLE, HAND, 2, secret)
    assert base != commit(ROOM, "t2", HAND, 2, secret)
    assert base != commit(ROOM, TABLE, "t1-h43", 2, secret)
    assert base != commit(ROOM, TABLE, HAND, 3, secret)
    assert base != commit(ROOM, TABLE, HAND, HOST, secret)


def test_deck_key_hashes_host_first_then_seats_in_ascending_order() -> None:
    seeds: dict[Committer, bytes] = {5: _secret(5), HOST: _secret(0), 1: _secret(1)}
    expected = hashlib.sha256(
        _f(b"croupier/v1/deck") + _f(HAND.encode()) + _f(_secret(0)) + _f(_secret(1)) + _f(_secret(5))
    ).digest()
    assert deck_key(HAND, seeds) == expected
    assert deck_key(HAND, dict(reversed(list(seeds.items())))) == expected
    swapped: dict[Committer, bytes] = {HOST: _secret(0), 1: _secret(5), 5: _secret(1)}
    assert deck_key(HAND, swapped) != expected


def _reference_shuffle(key: bytes, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The module docstring's algorithm, written independently: one byte per draw for decks up to 256 cards."""
    stream = hashlib.shake_256(key).digest(4096)
    offset = 0
    deck = list(cards)
    for index in range(len(deck) - 1, 0, -1):
        bound = index + 1
        while True:
            value = stream[offset]
            offset += 1
            if value < 256 - 256 % bound:
                break
        other = value % bound
        deck[index], deck[other] = deck[other], deck[index]
    return tuple(deck)


@pytest.mark.parametrize("cards", [full_deck(), short_deck()], ids=["52", "32"])
def test_shuffle_follows_the_documented_fisher_yates_with_rejection(cards: tuple[Card, ...]) -> None:
    for number in range(50):
        key = _secret(number)
        deck = shuffle(key, cards)
        assert deck == _reference_shuffle(key, cards)
        assert sorted(deck) == sorted(cards)
    assert shuffle(_secret(1), cards) != shuffle(_secret(2), cards)


def test_rejection_path_is_taken_and_still_uniform_source() -> None:
    """A key whose first SHAKE byte is >= 208 must reject it for the 52-card draw (208 = 256 - 256 % 52)."""
    key = next(
        _secret(number) for number in range(10_000) if hashlib.shake_256(_secret(number)).digest(1)[0] >= 208
    )
    first = hashlib.shake_256(key).digest(2)
    deck = shuffle(key, full_deck())
    assert deck == _reference_shuffle(key, full_deck())
    # the last position received the card at index (second byte % 52) if the second byte was accepted
    if first[1] < 208:
        assert deck[51] == full_deck()[first[1] % 52]


# --- bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("secret", [b"", bytes(31), bytes(33)])
def test_secret_of_wrong_length_is_refused(secret: bytes) -> None:
    with pytest.raises(FairnessError, match="exactly 32 bytes"):
        commit(ROOM, TABLE, HAND, 0, secret)


@pytest.mark.parametrize("committer", [-1, True, "seat1"])
def test_committer_must_be_host_or_seat_index(committer: object) -> None:
    with pytest.raises(FairnessError, match="'host' or a seat index"):
        commit(ROOM, TABLE, HAND, committer, _secret(0))  # type: ignore[arg-type]


def test_deck_key_needs_the_host_secret() -> None:
    with pytest.raises(FairnessError, match="host's secret is missing"):
        deck_key(HAND, {0: _secret(0)})


def test_empty_card_list_cannot_be_shuffled() -> None:
    with pytest.raises(FairnessError, match="empty card list"):
        shuffle(_secret(0), ())


def test_recorder_refuses_to_deal_past_the_deck() -> None:
    recorder = DealRecorder(short_deck())
    recorder.deal("board", 30)
    with pytest.raises(FairnessError, match="2 left"):
        recorder.deal(0, 3)
    assert recorder.remaining == 2 and len(recorder.deals) == 30


# --- a simulated hand: host and three players, hold'em deal order -----------------------------------------

SEATS = (0, 2, 5)


class HonestHand:
    """Hold'em with burns: hole cards one at a time, then burn+flop, burn+turn, burn+river."""

    def __init__(self, cards: tuple[Card, ...] = full_deck()) -> None:
        self.secrets: dict[Committer, bytes] = {HOST: _secret(100)} | {seat: _secret(seat) for seat in SEATS}
        self.commitments = {who: commit(ROOM, TABLE, HAND, who, secret) for who, secret in self.secrets.items()}
        self.published_commitments = dict(self.commitments)
        self.cards = cards
        self.deck = derive_deck(HAND, self.secrets, cards)

    def play(self, deck: Sequence[Card] | None = None) -> tuple[DealRecorder, dict[Recipient, list[Card]]]:
        recorder = DealRecorder(self.deck if deck is None else deck)
        dealt: dict[Recipient, list[Card]] = {}
        for _ in range(2):
            for seat in SEATS:
                dealt.setdefault(seat, []).extend(recorder.deal(seat))
        for count in (3, 1, 1):
            recorder.deal("burn")
            dealt.setdefault("board", []).extend(recorder.deal("board", count))
        return recorder, dealt

    def transcript(self, deals: tuple[Deal, ...]) -> Transcript:
        return Transcript(ROOM, TABLE, HAND, self.cards, dict(self.commitments), dict(self.secrets), deals)

    def observation(self, seat: int | None, dealt: dict[Recipient, list[Card]],
                    shown: Sequence[int] = ()) -> Observation:
        seen = [SeenCard(seat, card) for card in dealt[seat]] if seat is not None else []
        seen += [SeenCard("board", card) for card in dealt["board"]]
        for other in (other for other in shown if other != seat):
            seen += [SeenCard(other, card) for card in dealt[other]]
        secret = self.secrets[seat] if seat is not None else None
        return Observation(seat, secret, self.published_commitments, tuple(seen))


def _kinds(result_violations: Sequence[object]) -> set[ViolationKind]:
    return {violation.kind for violation in result_violations}  # type: ignore[attr-defined]


@pytest.mark.parametrize("cards", [full_deck(), short_deck()], ids=["52", "32"])
def test_honest_hand_verifies_for_every_seat_and_a_spectator(cards: tuple[Card, ...]) -> None:
    hand = HonestHand(cards)
    recorder, dealt = hand.play()
    transcript = hand.transcript(recorder.deals)
    for seat in (*SEATS, None):
        result = verify(transcript, hand.observation(seat, dealt, shown=(2, 5)))
        assert result.ok, result.violations
    assert dealt["board"] == [hand.deck[7], hand.deck[8], hand.deck[9], hand.deck[11], hand.deck[13]]


def test_honest_transcript_survives_json_round_trip() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    transcript = hand.transcript(recorder.deals)
    again = Transcript.from_json(transcript.to_json())
    assert again == transcript
    assert verify(again, hand.observation(2, dealt)).ok


def test_malformed_transcript_json_names_the_problem() -> None:
    hand = HonestHand()
    recorder, _ = hand.play()
    data = hand.transcript(recorder.deals).to_json()
    with pytest.raises(FairnessError, match="missing field 'seeds'"):
        Transcript.from_json({key: value for key, value in data.items() if key != "seeds"})
    with pytest.raises(FairnessError, match="not a seat label"):
        Transcript.from_json(data | {"seeds": {"dealer": "00" * 32}})
    with pytest.raises(FairnessError, match="a deal is"):
        Transcript.from_json(data | {"deals": [[0]]})
    with pytest.raises(FairnessError, match="not a card"):
        Transcript.from_json(data | {"cards": ["Zz"]})


def test_deck_changed_after_commitments_is_caught_by_the_seat_that_saw_the_card() -> None:
    hand = HonestHand()
    tampered = list(hand.deck)
    tampered[0], tampered[20] = tampered[20], tampered[0]  # host slips seat 0 a different first card
    recorder, dealt = hand.play(tampered)
    transcript = hand.transcript(recorder.deals)
    result = verify(transcript, hand.observation(0, dealt))
    assert not result.ok
    (violation,) = result.violations
    assert violation.kind is ViolationKind.CARD_MISMATCH
    assert violation.evidence == {"recipient": "0", "card": str(hand.deck[20]), "position": 0,
                                  "deck_card": str(hand.deck[0])}
    # a seat that never saw position 0 or 20 cannot tell; that is why every client checks every hand
    assert verify(transcript, hand.observation(2, dealt)).ok


def test_host_regrinding_its_own_seed_after_commitments_is_caught() -> None:
    hand = HonestHand()
    hand.secrets[HOST] = _secret(101)  # host picks a new s0 once it has seen the players' commitments
    hand.deck = derive_deck(HAND, hand.secrets, hand.cards)
    recorder, dealt = hand.play()
    result = verify(hand.transcript(recorder.deals), hand.observation(5, dealt))
    assert _kinds(result.violations) == {ViolationKind.COMMITMENT_MISMATCH}
    assert result.violations[0].evidence["committer"] == "host"


def test_seed_swapped_between_two_players_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    seeds = dict(hand.secrets)
    seeds[0], seeds[2] = seeds[2], seeds[0]
    transcript = replace(hand.transcript(recorder.deals), seeds=seeds)
    result = verify(transcript, hand.observation(5, dealt))
    assert [v.kind for v in result.violations][:2] == [ViolationKind.COMMITMENT_MISMATCH] * 2
    assert {v.evidence["committer"] for v in result.violations[:2]} == {"0", "2"}
    mine = verify(transcript, hand.observation(0, dealt))
    assert ViolationKind.OWN_SEED_MISSING in _kinds(mine.violations)


def test_commitment_replaced_after_publication_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    forged_secret = _secret(999)
    seeds = dict(hand.secrets) | {2: forged_secret}
    commitments = dict(hand.commitments) | {2: commit(ROOM, TABLE, HAND, 2, forged_secret)}
    transcript = replace(hand.transcript(recorder.deals), seeds=seeds, commitments=commitments)
    result = verify(transcript, hand.observation(0, dealt))
    assert ViolationKind.COMMITMENT_REPLACED in _kinds(result.violations)
    replaced = next(v for v in result.violations if v.kind is ViolationKind.COMMITMENT_REPLACED)
    assert replaced.evidence["committer"] == "2"
    assert replaced.evidence["published"] == hand.commitments[2].hex()
    victim = verify(transcript, hand.observation(2, dealt))
    assert {ViolationKind.COMMITMENT_REPLACED, ViolationKind.OWN_SEED_MISSING} <= _kinds(victim.violations)


def test_own_seed_left_out_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    seeds = {who: secret for who, secret in hand.secrets.items() if who != 5}
    commitments = {who: digest for who, digest in hand.commitments.items() if who != 5}
    transcript = replace(hand.transcript(recorder.deals), seeds=seeds, commitments=commitments)
    result = verify(transcript, hand.observation(5, dealt))
    assert ViolationKind.OWN_SEED_MISSING in _kinds(result.violations)


def test_missing_seed_for_a_commitment_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    seeds = {who: secret for who, secret in hand.secrets.items() if who != 2}
    result = verify(replace(hand.transcript(recorder.deals), seeds=seeds), hand.observation(0, dealt))
    assert _kinds(result.violations) >= {ViolationKind.SEED_MISSING}


def test_card_dealt_out_of_order_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    deals = list(recorder.deals)
    # the host skips the turn's burn card and deals the river position as the turn
    deals[10], deals[11] = Deal(10, "board"), Deal(11, "burn")
    dealt["board"][3] = hand.deck[10]
    transcript = hand.transcript(tuple(deals))
    assert verify(transcript, hand.observation(0, dealt)).ok  # a re-labelled but top-down deal is consistent
    reordered = list(recorder.deals)
    reordered[7], reordered[8] = reordered[8], reordered[7]  # flop cards taken 8 then 7
    honest_view = hand.observation(0, hand.play()[1])
    result = verify(hand.transcript(tuple(reordered)), honest_view)
    assert [v.kind for v in result.violations][:2] == [ViolationKind.DEALT_OUT_OF_ORDER] * 2
    assert result.violations[0].evidence == {"deal": 7, "position": 8, "recipient": "board"}


def test_card_from_deeper_in_the_deck_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    deals = list(recorder.deals)
    deals[9] = Deal(30, "board")  # the host claims the third flop card came from position 30
    dealt["board"][2] = hand.deck[30]
    result = verify(hand.transcript(tuple(deals)), hand.observation(2, dealt))
    assert _kinds(result.violations) == {ViolationKind.DEALT_OUT_OF_ORDER}


def test_seen_card_the_transcript_never_dealt_is_caught() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    dealt[0].append(hand.deck[40])
    result = verify(hand.transcript(recorder.deals), hand.observation(0, dealt))
    assert _kinds(result.violations) == {ViolationKind.CARD_MISMATCH}


def test_a_card_seen_at_its_place_or_anywhere_among_a_recipients_cards() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    transcript = hand.transcript(recorder.deals)
    second = dealt[2][1]  # seat 2's second hole card, seen alone (as a stud up card after a face-down one)
    base = hand.observation(None, dealt)
    honest = replace(base, seen=(*base.seen, SeenCard(2, second, index=1), SeenCard(5, dealt[5][1], anywhere=True)))
    assert verify(transcript, honest).ok
    wrong_place = replace(base, seen=(*base.seen, SeenCard(2, second, index=0)))
    assert _kinds(verify(transcript, wrong_place).violations) == {ViolationKind.CARD_MISMATCH}
    not_his = replace(base, seen=(*base.seen, SeenCard(5, dealt[0][0], anywhere=True)))  # seat 0's card
    assert _kinds(verify(transcript, not_his).violations) == {ViolationKind.CARD_MISMATCH}


def test_transcript_without_host_seed_is_a_violation_not_a_crash() -> None:
    hand = HonestHand()
    recorder, dealt = hand.play()
    seeds = {who: secret for who, secret in hand.secrets.items() if who != HOST}
    result = verify(replace(hand.transcript(recorder.deals), seeds=seeds), hand.observation(0, dealt))
    assert {ViolationKind.SEED_MISSING, ViolationKind.BAD_TRANSCRIPT} <= _kinds(result.violations)


# --- R-FAIR-2: no position bias over many derived decks ----------------------------------------------------

DECKS = int(os.environ.get("CROUPIER_FAIRNESS_DECKS", "15000"))


def _chi_square_limit(degrees: int, z: float = 5.0) -> float:
    """Wilson–Hilferty upper quantile of chi-square; z = 5 is p ≈ 3e-7, so an unbiased shuffle never trips it."""
    return degrees * (1 - 2 / (9 * degrees) + z * math.sqrt(2 / (9 * degrees))) ** 3


def _position_chi_square(deal: Callable[[int], Sequence[Card]], cards: tuple[Card, ...], decks: int) -> float:
    size = len(cards)
    index_of = {card: index for index, card in enumerate(cards)}
    counts = [[0] * size for _ in range(size)]
    for number in range(decks):
        for position, card in enumerate(deal(number)):
            counts[index_of[card]][position] += 1
    expected = decks / size
    return sum((count - expected) ** 2 / expected for row in counts for count in row)


def _derived(cards: tuple[Card, ...]) -> Callable[[int], Sequence[Card]]:
    secrets = {HOST: _secret(0), 1: _secret(1), 4: _secret(4)}
    return lambda number: derive_deck(f"t1-h{number}", secrets, cards)


@pytest.mark.parametrize("cards", [full_deck(), short_deck()], ids=["52", "32"])
def test_card_positions_show_no_bias_over_many_derived_decks(cards: tuple[Card, ...]) -> None:
    size = len(cards)
    statistic = _position_chi_square(_derived(cards), cards, DECKS)
    degrees = (size - 1) * (size - 1)
    assert statistic < _chi_square_limit(degrees), (statistic, degrees)


def test_the_bias_test_catches_a_modulo_biased_shuffle() -> None:
    """The same statistic on a shuffle with modulo bias (byte % bound, no rejection) fails: the test has teeth."""

    def biased(number: int) -> Sequence[Card]:
        stream = hashlib.shake_256(b"%d" % number).digest(64)
        deck = list(full_deck())
        for index in range(51, 0, -1):
            other = stream[51 - index] % (index + 1)
            deck[index], deck[other] = deck[other], deck[index]
        return deck

    statistic = _position_chi_square(biased, full_deck(), DECKS)
    assert statistic > _chi_square_limit(51 * 51), statistic


def test_a_forfeited_seat_is_left_out_of_the_deck_key_and_verifies() -> None:
    hand = HonestHand()
    seeds = {who: secret for who, secret in hand.secrets.items() if who != 5}
    hand.deck = derive_deck(HAND, seeds, hand.cards)
    recorder, dealt = hand.play()
    transcript = replace(hand.transcript(recorder.deals), seeds=seeds, forfeited=(5,))
    assert verify(transcript, hand.observation(0, dealt)).ok
    assert Transcript.from_json(transcript.to_json()) == transcript
    # the seat itself, had it revealed, sees its seed missing: a host cannot silently drop a seed
    assert _kinds(verify(transcript, hand.observation(5, dealt)).violations) == {ViolationKind.OWN_SEED_MISSING}
    with pytest.raises(FairnessError, match="forfeited must list seat indexes"):
        Transcript.from_json(transcript.to_json() | {"forfeited": ["5"]})


def test_a_hand_knows_which_seat_got_each_deck_position() -> None:
    """Hold'em, seats 0, 2 and 5, button on 5: hole cards one at a time from seat 0 (positions 0-5), then the
    flop, turn and river (6-10), no burns; everyone checks or calls to the end."""
    from engine.actions import Call, Check
    from engine.hand import ForcedBets, Hand, HandConfig
    from engine.structures import BettingStructure
    from engine.variants import TEXAS_HOLDEM

    deck = full_deck()
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), {0: 100, 2: 100, 5: 100}, deck,
                      ForcedBets(button_seat=5, small_blind_seat=0, small_blind=1, big_blind_seat=2, big_blind=2))
    while (legal := hand.legal_actions()) is not None:
        hand.act(legal.seat, Check() if legal.can_check else Call())
    assert hand.deals == tuple(Deal(position, recipient) for position, recipient in enumerate(
        [0, 2, 5, 0, 2, 5, "board", "board", "board", "board", "board"]))
    assert hand.hole_cards(2) == (deck[1], deck[4]) and hand.board == tuple(deck[6:11])
