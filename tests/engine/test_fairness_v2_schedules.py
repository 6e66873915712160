"""Opening schedules for draw and stud games (fairness v2): the layout grows as the engine deals; each position
opens once, only to its audience; discards and mucks open nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import BringIn, Call, Check, Draw, Fold, Muck, Show
from engine.cards import Card
from engine.events import DrawnCardsDealt
from engine.fairness_v2.elgamal import Deck, PlayerKey, decrypt
from engine.fairness_v2.group import SECP256K1
from engine.fairness_v2.opening import BOARD, Audience, OpeningSchedule, ScheduleViolation, ShareGuard
from engine.fairness_v2.randomness import SeededRandom
from engine.fairness_v2.threshold import cover_share, deal_key
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import FIVE_CARD_DRAW, SEVEN_CARD_STUD, Variant
from tests.engine.fairness_v2_helpers import shuffled_table

LIMIT = BettingStructure.fixed_limit(10, 20)
STUD = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0, ante=1,
                  bring_in=5)


def blinds(players: int) -> ForcedBets:
    return ForcedBets(button_seat=players - 1, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)


def start(variant: Variant, players: int, forced: ForcedBets) -> tuple[Hand, list[Card]]:
    """The engine on placeholder cards (the variant's deck in order): a dealt card names its deck position."""
    deck = list(variant.deck)
    return Hand.start(HandConfig(variant, LIMIT, manual_showdown=True), dict.fromkeys(range(players), 500), deck,
                      forced), deck


def passive(hand: Hand, folds: frozenset[int] = frozenset(), until: int = 10_000) -> None:
    """Bring in, call or check (``folds`` fold at their first chance) while betting is open."""
    for _ in range(until):
        legal = hand.legal_actions()
        if legal is None or hand.is_over or legal.max_discards is not None or legal.allows(Show()):
            return
        if legal.seat in folds and legal.can_call:
            hand.act(legal.seat, Fold())
        elif legal.bring_in_amount is not None:
            hand.act(legal.seat, BringIn())
        else:
            hand.act(legal.seat, Call() if legal.can_call else Check())


def guards(keys: list[PlayerKey], schedule: OpeningSchedule) -> list[ShareGuard]:
    return [ShareGuard(seat, key, schedule, "t1", "h1") for seat, key in enumerate(keys)]


def open_everything(schedule: OpeningSchedule, players: list[ShareGuard], deck: Deck) -> Counter[int]:
    """Every share each player may give (each guard refuses the rest), checked against the schedule: how many
    times each position was opened."""
    rng = SeededRandom("open all")
    opened: Counter[int] = Counter()
    for position, audience in sorted(schedule.audiences.items()):
        for guard in players:
            try:
                guard.open_for(position, deck, rng)
            except ScheduleViolation:
                assert audience == guard.seat or position in schedule.discarded
                continue
            with pytest.raises(ScheduleViolation):  # and never twice
                guard.open_for(position, deck, rng)
        try:
            schedule.check_open(position, audience)
            opened[position] += 1
        except ScheduleViolation:
            assert position in schedule.discarded or audience in schedule.mucked
        with pytest.raises(ScheduleViolation):
            schedule.check_open(position, audience)
    return opened


def test_a_draw_deals_replacements_from_the_next_positions_to_their_owner_and_discards_open_nothing() -> None:
    table = shuffled_table(SECP256K1, 3)
    hand, deck = start(FIVE_CARD_DRAW, 3, blinds(3))
    schedule = OpeningSchedule({})
    schedule.follow(hand.events, deck)
    # five cards each, one at a time round the table from the first seat left of the button
    assert schedule.positions_of(0) == [0, 3, 6, 9, 12] and schedule.positions_of(2) == [2, 5, 8, 11, 14]
    passive(hand)
    seen = len(hand.events)
    hand.act(0, Draw((deck[0], deck[3])))  # seat 0 throws two
    hand.act(1, Draw(()))  # pat
    hand.act(2, Draw((deck[8],)))
    schedule.follow(hand.events[seen:], deck)
    assert next(event.cards for event in hand.events if isinstance(event, DrawnCardsDealt)) == (deck[15], deck[16])
    assert schedule.positions_of(0) == [6, 9, 12, 15, 16]  # the replacements are the next positions, his
    assert schedule.positions_of(2) == [2, 5, 11, 14, 17]
    assert schedule.discarded == {0, 3, 8}
    assert {schedule.audiences[position] for position in (15, 16)} == {0} and schedule.audiences[17] == 2
    players = guards(table.keys, schedule)
    rng = SeededRandom("draw")
    # the owner reads a replacement from the others' shares; it is the card the whole table would decrypt
    shares = [players[seat].open_for(15, table.deck, rng).share for seat in (1, 2)]
    own = players[0].own_card(15, table.deck, shares)
    assert own is not None
    assert own == decrypt(SECP256K1, table.deck[15], [key.share(table.deck[15].c1) for key in table.keys])
    with pytest.raises(ScheduleViolation, match="discarded"):
        players[1].open_for(0, table.deck, rng)  # a discard opens to nobody
    with pytest.raises(ScheduleViolation, match="discarded"):
        schedule.check_open(3, 0)
    escrow, held = deal_key(table.keys[1], 1, [0, 2], 2, rng)
    with pytest.raises(ScheduleViolation, match="discarded"):  # nor through a dropped player's cover
        cover_share(SECP256K1, escrow, 2, held[2], table.deck[8].c1, 8, schedule, "t1", "h1", rng)
    # a show opens what he holds: never the discards
    assert [share.position for share in players[0].show(table.deck, rng)] == [6, 9, 12, 15, 16]
    with pytest.raises(ScheduleViolation):
        schedule.discard(1, [0])  # not his card


def test_draw_positions_open_once_each_to_their_audience() -> None:
    table = shuffled_table(SECP256K1, 3)
    hand, deck = start(FIVE_CARD_DRAW, 3, blinds(3))
    passive(hand)
    hand.act(0, Draw((deck[0], deck[3], deck[6])))
    hand.act(1, Draw((deck[1],)))
    hand.act(2, Draw(()))
    schedule = OpeningSchedule({})
    schedule.follow(hand.events, deck)
    opened = open_everything(schedule, guards(table.keys, schedule), table.deck)
    assert sorted(opened) == [position for position in range(19) if position not in (0, 1, 3, 6)]
    assert set(opened.values()) == {1}


def test_stud_down_cards_to_their_owner_up_cards_to_everyone() -> None:
    table = shuffled_table(SECP256K1, 3)
    hand, deck = start(SEVEN_CARD_STUD, 3, STUD)
    schedule = OpeningSchedule({})
    schedule.follow(hand.events, deck)
    # third street: two down each (one at a time round the table), then one up each
    assert schedule.positions_of(0) == [0, 3] and schedule.positions_of(2) == [2, 5]
    assert [schedule.audiences[position] for position in (6, 7, 8)] == [BOARD] * 3
    assert [schedule.owners[position] for position in (6, 7, 8)] == [0, 1, 2]
    seen = len(hand.events)
    passive(hand, folds=frozenset({1}))  # seat 1 folds on third street: he gets no more cards
    schedule.follow(hand.events[seen:], deck)
    owned = Counter(schedule.owners.values())
    assert owned == {0: 7, 1: 3, 2: 7}
    assert schedule.positions_of(0) == [0, 3, 15] and schedule.positions_of(2) == [2, 5, 16]  # seventh: down
    up = [position for position, seat in schedule.owners.items() if seat == 0 and schedule.audiences[position] == BOARD]
    assert up == [6, 9, 11, 13]  # third street's, then one a street for the two left
    players = guards(table.keys, schedule)
    opened = open_everything(schedule, players, table.deck)
    assert sorted(opened) == list(range(17)) and set(opened.values()) == {1}


def test_stud_muck_opens_nothing_and_a_show_opens_only_the_down_cards() -> None:
    table = shuffled_table(SECP256K1, 3)
    hand, deck = start(SEVEN_CARD_STUD, 3, STUD)
    passive(hand)
    schedule = OpeningSchedule({})
    schedule.follow(hand.events, deck)
    players = guards(table.keys, schedule)
    rng = SeededRandom("showdown")
    legal = hand.legal_actions()
    assert legal is not None and legal.allows(Show())
    shower = legal.seat
    assert sorted(share.position for share in players[shower].show(table.deck, rng)) == schedule.positions_of(
        shower)
    assert len(schedule.positions_of(shower)) == 3
    with pytest.raises(ScheduleViolation, match="showed already"):
        players[shower].show(table.deck, rng)
    hand.act(shower, Show())
    mucker = hand.legal_actions().seat  # type: ignore[union-attr]
    hand.act(mucker, Muck())
    players[mucker].muck()
    schedule.muck(mucker)
    with pytest.raises(ScheduleViolation, match="mucked"):
        players[mucker].show(table.deck, rng)
    for position in schedule.positions_of(mucker):
        with pytest.raises(ScheduleViolation, match="mucked"):
            schedule.check_open(position, mucker)


def test_stud_with_eight_players_the_last_card_is_a_community_card() -> None:
    """R-GAME-DECK: 8 × 6 = 48 cards by sixth street; seventh street cannot give eight more: one community card,
    face up, opened to everyone and owned by nobody."""
    table = shuffled_table(SECP256K1, 8, shufflers=1)
    hand, deck = start(SEVEN_CARD_STUD, 8, STUD)
    passive(hand)
    schedule = OpeningSchedule({})
    schedule.follow(hand.events, deck)
    assert len(schedule.audiences) == 49 and schedule.audiences[48] == BOARD and 48 not in schedule.owners
    assert all(len(schedule.positions_of(seat)) == 2 for seat in range(8))
    opened = open_everything(schedule, guards(table.keys, schedule), table.deck)
    assert len(opened) == 49 and set(opened.values()) == {1}


def test_a_position_dealt_twice_is_refused() -> None:
    """A draw past the deck's end reuses discards in the engine (a reshuffle); the encrypted deck cannot: it
    would need a new shuffle of the discards. The schedule refuses rather than open a position twice."""
    schedule = OpeningSchedule({})
    schedule.deal_down(0, [0, 1])
    schedule.discard(0, [0])
    with pytest.raises(ScheduleViolation, match="dealt already"):
        schedule.deal_down(1, [0])
    audiences: dict[int, Audience] = {5: 1}
    schedule = OpeningSchedule(audiences)
    assert schedule.positions_of(1) == [5]
