"""Draw games that run out of cards: the reshuffled discards are in the fairness transcript and every client
checks them (R-DRAW-1, R-FAIR-1).

A 6-handed 2-7 triple draw where everyone throws all five cards every draw: 30 cards dealt, a 22-card stub, so
seat 4's first draw already needs the discards of seats 0-3 reshuffled, and the second draw reshuffles again
(the first reshuffle's leftovers, then the discards since).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from engine.actions import Call, Check, Draw, Show
from engine.cards import Card, full_deck
from engine.draw import Reshuffle, keep_order, seeded_reshuffle
from engine.events import CardsDrawn, DrawnCardsDealt, Event, HandShown, HoleCardsDealt
from engine.fairness import (
    HOST,
    Committer,
    Deal,
    DrawRecord,
    FairnessError,
    Observation,
    ObservedDraw,
    ReshuffleRecord,
    ReshuffleRecorder,
    SeenCard,
    Transcript,
    ViolationKind,
    commit,
    deck_deals,
    derive_deck,
    reshuffle_key,
    reshuffle_order,
    verify,
)
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW

ROOM, TABLE, HAND = "friday-room", "t7", "t7-draw-1"
SEATS = tuple(range(6))
LIMIT = BettingStructure.fixed_limit(100, 200)
PLAN = ForcedBets(button_seat=5, small_blind_seat=0, small_blind=50, big_blind_seat=1, big_blind=100)


def _secret(number: int) -> bytes:
    return hashlib.sha256(b"reshuffle test secret %d" % number).digest()


@dataclass
class PlayedHand:
    secrets: dict[Committer, bytes]
    commitments: dict[Committer, bytes]
    deck: tuple[Card, ...]
    hand: Hand
    recorder: ReshuffleRecorder

    @property
    def events(self) -> list[Event]:
        return list(self.hand.events)

    def transcript(self) -> Transcript:
        """What the host publishes: deck deals, then the recorded draws and reshuffles."""
        dealt = [(card, event.seat) for event in self.events if isinstance(event, HoleCardsDealt | DrawnCardsDealt)
                 for card in event.cards]
        draws, reshuffles = self.recorder.records(self.events, len(self.deck))
        return Transcript(ROOM, TABLE, HAND, full_deck(), dict(self.commitments), dict(self.secrets),
                          deck_deals(self.deck, dealt), (), draws, reshuffles)

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` (``None``: a spectator) saw: its cards, the public draws, the hands shown."""
        seen: list[SeenCard] = []
        draws: list[ObservedDraw] = []
        dealt = 0
        for event in self.events:
            if isinstance(event, HoleCardsDealt):
                dealt += len(event.cards)
                if event.seat == seat:
                    seen += [SeenCard(seat, card) for card in event.cards]
            elif isinstance(event, CardsDrawn):
                dealt += event.count
                draws.append(ObservedDraw(event.seat, event.count, () if event.seat == seat else None))
            elif isinstance(event, DrawnCardsDealt) and event.seat == seat:
                draws[-1] = replace(draws[-1], discards=event.discarded)
                seen += [SeenCard(seat, card) for card in event.cards]
            elif isinstance(event, HandShown) and event.seat != seat:
                seen += [SeenCard(event.seat, card, anywhere=True) for card in event.cards]
        secret = self.secrets[seat] if seat is not None else None
        return Observation(seat, secret, self.commitments, tuple(seen), tuple(draws), dealt)


def play(reshuffle: Callable[[bytes], Reshuffle] = seeded_reshuffle,
         discard: Callable[[int, tuple[Card, ...]], tuple[Card, ...]] = lambda seat, hole: hole) -> PlayedHand:
    """Everyone calls and throws ``discard(seat, hand)`` at every draw; the host reshuffles with
    ``reshuffle(key)`` (the honest one: :func:`seeded_reshuffle`)."""
    secrets: dict[Committer, bytes] = {HOST: _secret(100)} | {seat: _secret(seat) for seat in SEATS}
    commitments = {who: commit(ROOM, TABLE, HAND, who, secret) for who, secret in secrets.items()}
    deck = derive_deck(HAND, secrets, full_deck())
    recorder = ReshuffleRecorder(reshuffle(reshuffle_key(HAND, secrets)))
    hand = Hand.start(HandConfig(DEUCE_TO_SEVEN_TRIPLE_DRAW, LIMIT), dict.fromkeys(SEATS, 1000), deck, PLAN,
                      reshuffle=recorder)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.max_discards is not None:
            hand.act(legal.seat, Draw(discard(legal.seat, hand.hole_cards(legal.seat))))
        elif legal.can_show:
            hand.act(legal.seat, Show())
        else:
            hand.act(legal.seat, Check() if legal.can_check else Call())
    assert sum(hand.final_stacks().values()) == 6000  # chips conserved
    return PlayedHand(secrets, commitments, deck, hand, recorder)


@pytest.fixture(scope="module")
def honest() -> PlayedHand:
    return play()


def test_the_hand_reshuffles_twice_and_records_where_and_what(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    assert len(transcript.deals) == 52  # the whole deck is dealt before any reshuffle
    assert [(draw.seat, len(draw.discards)) for draw in transcript.draws] == [(seat, 5) for seat in SEATS] * 3
    first, second, *more = transcript.reshuffles
    # Seat 4 (draw 4) gets the last 2 stub cards, then 3 from the 20 discards of seats 0-3, in the order thrown.
    assert first.draw == 4
    assert first.pool == tuple(card for draw in transcript.draws[:4] for card in draw.discards)
    # 17 left: seat 5 takes 5, then seats 0 and 1 on the second draw: 2 left when seat 2 needs 5.
    assert [deal.recipient for deal in first.deals] == [4] * 3 + [5] * 5 + [0] * 5 + [1] * 5
    assert second.draw == 8
    order = reshuffle_order(reshuffle_key(HAND, honest.secrets), first.pool, 0)
    leftovers = order[18:]
    assert second.pool == leftovers + tuple(card for draw in transcript.draws[4:8] for card in draw.discards)
    assert len(second.pool) == 22
    # Then every 4 draws (20 cards) leave 2: reshuffles at draws 4, 8, 12 and 16, each of 22 cards after the first.
    assert [record.draw for record in transcript.reshuffles] == [4, 8, 12, 16]
    assert [len(record.pool) for record in more] == [22, 22]
    # 90 replacements in all: the 22 stub cards, the other 68 from reshuffles (18 + 20 + 20 + 10).
    assert [len(record.deals) for record in transcript.reshuffles] == [18, 20, 20, 10]
    # What the engine dealt from the reshuffle is the recomputed order: seat 4's replacements end with it.
    seat_four = next(event for event in honest.events if isinstance(event, DrawnCardsDealt) and event.seat == 4)
    assert seat_four.cards == (honest.deck[50], honest.deck[51], *order[:3])


def test_an_honest_reshuffled_hand_verifies_for_every_seat_and_a_spectator(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    for seat in (*SEATS, None):
        observation = honest.observation(seat)
        result = verify(transcript, observation)
        assert result.ok, result.violations
    # every seat saw reshuffled cards of its own: each one was checked against a recomputed reshuffle
    own_reshuffled = {seat: sum(deal.recipient == seat for record in transcript.reshuffles for deal in record.deals)
                      for seat in SEATS}
    assert all(count >= 5 for count in own_reshuffled.values()), own_reshuffled


def test_a_reshuffled_transcript_survives_json_and_old_hands_keep_their_shape(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    data = transcript.to_json()
    assert data["draws"][0] == [0, [str(card) for card in transcript.draws[0].discards]]  # type: ignore[index]
    assert data["reshuffles"][0]["draw"] == 4  # type: ignore[index]
    assert Transcript.from_json(data) == transcript
    plain = replace(transcript, draws=(), reshuffles=())
    assert "draws" not in plain.to_json() and "reshuffles" not in plain.to_json()
    with pytest.raises(FairnessError, match="a draw is"):
        Transcript.from_json(data | {"draws": [[0]]})
    with pytest.raises(FairnessError, match="reshuffle's draw"):
        Transcript.from_json(data | {"reshuffles": [{"draw": "4", "pool": [], "deals": []}]})
    with pytest.raises(FairnessError, match="not a card"):
        Transcript.from_json(data | {"reshuffles": [{"draw": 4, "pool": ["Zz"], "deals": []}]})


def _kinds(transcript: Transcript, observation: Observation) -> set[ViolationKind]:
    return {violation.kind for violation in verify(transcript, observation).violations}


def test_a_host_dealing_the_discards_in_an_order_of_its_choosing_is_caught() -> None:
    cheat = play(reshuffle=lambda key: keep_order)  # the pool recorded honestly, but never shuffled
    transcript = cheat.transcript()
    receiver = transcript.reshuffles[0].deals[0].recipient
    assert isinstance(receiver, int)
    result = verify(transcript, cheat.observation(receiver))
    # what follows from the unshuffled deal (later pools, shown hands) no longer replays either
    assert {violation.kind for violation in result.violations} == {
        ViolationKind.RESHUFFLE_CARD_MISMATCH, ViolationKind.RESHUFFLE_MISMATCH, ViolationKind.CARD_MISMATCH}
    evidence = next(v for v in result.violations if v.kind is ViolationKind.RESHUFFLE_CARD_MISMATCH).evidence
    assert evidence["reshuffle"] == 0 and evidence["position"] == 0 and evidence["recipient"] == str(receiver)
    # seat 4's 3rd replacement was the pool's first card (thrown order), not the seeded reshuffle's first
    assert evidence["card"] == str(transcript.reshuffles[0].pool[0])
    expected = reshuffle_order(reshuffle_key(HAND, cheat.secrets), transcript.reshuffles[0].pool, 0)[0]
    assert evidence["reshuffled_card"] == str(expected)


def test_a_tampered_reshuffle_card_in_the_record_is_caught_with_evidence(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    first = transcript.reshuffles[0]
    # The host swaps two cards of the pool: the order it publishes no longer recomputes the cards dealt.
    pool = list(first.pool)
    pool[0], pool[1] = pool[1], pool[0]
    tampered = replace(transcript, reshuffles=(replace(first, pool=tuple(pool)), *transcript.reshuffles[1:]))
    kinds = _kinds(tampered, honest.observation(4))
    assert ViolationKind.RESHUFFLE_MISMATCH in kinds
    # Even a spectator, who saw no drawn card, finds the pool out of the order thrown.
    spectator = verify(tampered, honest.observation(None))
    mismatch = next(v for v in spectator.violations if v.kind is ViolationKind.RESHUFFLE_MISMATCH)
    assert mismatch.evidence["reshuffle"] == 0 and mismatch.evidence["draw"] == 4


def test_a_lie_about_a_players_discards_is_caught_by_that_player(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    draws = list(transcript.draws)
    first = draws[0]
    draws[0] = DrawRecord(first.seat, (first.discards[1], first.discards[0], *first.discards[2:]))
    tampered = replace(transcript, draws=tuple(draws))
    assert ViolationKind.DISCARD_MISMATCH in _kinds(tampered, honest.observation(0))
    # a discard the seat never held is caught by anyone
    stranger = next(card for card in transcript.draws[1].discards)
    draws[0] = DrawRecord(first.seat, (stranger, *first.discards[1:]))
    assert ViolationKind.DISCARD_MISMATCH in _kinds(replace(transcript, draws=tuple(draws)),
                                                    honest.observation(None))


def test_a_transcript_that_hides_its_reshuffles_is_caught(honest: PlayedHand) -> None:
    hidden = replace(honest.transcript(), draws=(), reshuffles=())
    spectator = verify(hidden, honest.observation(None))
    missing = next(v for v in spectator.violations if v.kind is ViolationKind.RESHUFFLE_MISSING)
    assert missing.evidence == {"cards_dealt": 120, "deck": 52, "reshuffled": 0}  # 30 dealt + 90 drawn
    assert ViolationKind.CARD_MISMATCH in _kinds(hidden, honest.observation(4))  # its own cards past the deck


def test_reshuffle_deals_out_of_order_or_to_another_seat_are_caught(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    first = transcript.reshuffles[0]
    swapped = (first.deals[1], first.deals[0], *first.deals[2:])
    tampered = replace(transcript, reshuffles=(replace(first, deals=swapped), *transcript.reshuffles[1:]))
    out_of_order = [v for v in verify(tampered, honest.observation(None)).violations
                    if v.kind is ViolationKind.DEALT_OUT_OF_ORDER]
    assert [v.evidence["reshuffle"] for v in out_of_order] == [0, 0]
    elsewhere = (Deal(0, 3), *first.deals[1:])
    tampered = replace(transcript, reshuffles=(replace(first, deals=elsewhere), *transcript.reshuffles[1:]))
    assert ViolationKind.RESHUFFLE_MISMATCH in _kinds(tampered, honest.observation(None))


def test_a_reshuffle_recorded_where_the_stub_sufficed_is_caught(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    early = replace(transcript.reshuffles[0], draw=3)
    tampered = replace(transcript, reshuffles=(early, *transcript.reshuffles[1:]))
    assert ViolationKind.RESHUFFLE_MISMATCH in _kinds(tampered, honest.observation(None))


def test_a_shown_hand_is_checked_against_the_replayed_draws(honest: PlayedHand) -> None:
    transcript = honest.transcript()
    shown = next(event for event in honest.events if isinstance(event, HandShown))
    assert verify(transcript, honest.observation(None)).ok
    # a card the seat held before its last draw, but threw: not in its final hand
    thrown = next(draw.discards[0] for draw in reversed(transcript.draws) if draw.seat == shown.seat)
    observation = honest.observation(None)
    fake = tuple(item if item.recipient != shown.seat or item.card != shown.cards[0]
                 else SeenCard(shown.seat, thrown, anywhere=True) for item in observation.seen)
    violations = verify(transcript, replace(observation, seen=fake)).violations
    assert [v.kind for v in violations] == [ViolationKind.CARD_MISMATCH]
    assert violations[0].evidence["card"] == str(thrown)


def test_partial_draws_reshuffle_from_the_discards_only(honest: PlayedHand) -> None:
    # Seats throw 5, 4, 3, ... cards: fewer reshuffles, stand-pats recorded, and it verifies clean.
    def some(seat: int, hole: tuple[Card, ...]) -> tuple[Card, ...]:
        return hole[:5 - seat] if seat < 5 else ()

    played = play(discard=some)
    transcript = played.transcript()
    assert transcript.reshuffles, "5+4+3+2+1 per draw, three draws: 45 > 22 stub cards"
    assert any(draw.discards == () for draw in transcript.draws)
    for seat in (*SEATS, None):
        assert verify(transcript, played.observation(seat)).ok
    assert Transcript.from_json(transcript.to_json()) == transcript


def test_a_hand_that_never_reshuffles_publishes_no_discards() -> None:
    played = play(discard=lambda seat, hole: hole[:1])
    assert played.recorder.calls == []
    transcript = played.transcript()
    assert (transcript.draws, transcript.reshuffles) == ((), ())
    assert verify(transcript, played.observation(2)).ok


def test_recorded_pool_is_what_the_engine_handed_over(honest: PlayedHand) -> None:
    assert [pool for pool, _ in honest.recorder.calls] == [record.pool for record in honest.transcript().reshuffles]
    assert isinstance(honest.transcript().reshuffles[0], ReshuffleRecord)

