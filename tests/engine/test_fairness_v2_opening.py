"""Opening cards with DLEQ shares under a schedule every client enforces; dropouts covered by Feldman VSS."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import full_deck
from engine.fairness_v2.elgamal import DleqProof, PlayerKey
from engine.fairness_v2.group import Group
from engine.fairness_v2.opening import (
    BOARD,
    OpeningSchedule,
    ScheduleViolation,
    ShareGuard,
    check_share,
    holdem_audiences,
    open_card,
)
from engine.fairness_v2.randomness import SeededRandom
from engine.fairness_v2.threshold import (
    ThresholdError,
    box_key,
    box_public,
    check_cover,
    check_escrow,
    combine,
    cover_share,
    deal_key,
    seal,
    threshold_for,
    unseal,
)
from engine.fairness_v2.threshold import check_share as check_vss_share
from tests.engine.fairness_v2_helpers import BACKENDS, shuffled_table


def guards(table_keys: list[PlayerKey], audiences: dict[int, int | str]) -> list[ShareGuard]:
    return [ShareGuard(seat, key, OpeningSchedule(audiences), "t1", "h1") for seat, key in enumerate(table_keys)]


@BACKENDS
def test_hole_cards_open_to_their_owner_only_and_the_board_to_all(group: Group) -> None:
    table = shuffled_table(group, 3)
    rng = SeededRandom("open")
    audiences = holdem_audiences([0, 1, 2])
    assert audiences[0] == 0 and audiences[3] == 0 and audiences[6] == BOARD and len(audiences) == 11
    players = guards(table.keys, audiences)
    deck = table.deck
    seen: list[object] = []
    for position in range(6):
        owner = audiences[position]
        assert isinstance(owner, int)
        public = [players[seat].open_for(position, deck, rng) for seat in range(3) if seat != owner]
        assert all(check_share(group, table.keys[item.seat].public, deck, item, "t1", "h1") for item in public)
        card = players[owner].own_card(position, deck, [item.share for item in public])
        assert card is not None
        seen.append(card)
        # everybody else holds the same public shares and still cannot read it: it is no card without x_owner
        assert open_card(group, deck, position, {item.seat: item.share for item in public}) is None
    board = []
    for position in range(6, 11):
        shares = {seat: players[seat].open_for(position, deck, rng) for seat in range(3)}
        board.append(open_card(group, deck, position, {seat: item.share for seat, item in shares.items()}))
    assert None not in board and len(Counter([*seen, *board])) == 11
    assert set([*seen, *board]) <= set(full_deck())


@BACKENDS
def test_bad_share_proofs_fail(group: Group) -> None:
    table = shuffled_table(group, 2)
    rng = SeededRandom("bad")
    players = guards(table.keys, holdem_audiences([0, 1]))
    item = players[1].open_for(0, table.deck, rng)
    key = table.keys[1].public
    assert check_share(group, key, table.deck, item, "t1", "h1")
    forged = type(item)(1, 0, group.base_mult(5), item.proof)
    assert not check_share(group, key, table.deck, forged, "t1", "h1")
    assert not check_share(group, key, table.deck, type(item)(1, 1, item.share, item.proof), "t1", "h1")
    assert not check_share(group, key, table.deck, item, "t1", "h2")
    assert not check_share(group, table.keys[0].public, table.deck, item, "t1", "h1")
    zero = DleqProof(item.proof.challenge, group.order)
    assert not check_share(group, key, table.deck, type(item)(1, 0, item.share, zero), "t1", "h1")


def test_schedule_opens_each_position_once_and_only_to_its_audience() -> None:
    schedule = OpeningSchedule(holdem_audiences([4, 7]))
    schedule.check_open(0, 4)
    with pytest.raises(ScheduleViolation, match="already opened"):
        schedule.check_open(0, 4)
    with pytest.raises(ScheduleViolation, match="belongs to seat 7, not the board"):
        schedule.check_open(1, BOARD)  # a host relabelling a hole card as a board card
    with pytest.raises(ScheduleViolation, match="not dealt"):
        schedule.check_open(30, BOARD)
    schedule.muck(7)
    with pytest.raises(ScheduleViolation, match="mucked"):
        schedule.check_open(3, 7)
    with pytest.raises(ScheduleViolation, match="mucked"):
        schedule.check_show(7)
    schedule.check_show(4)
    with pytest.raises(ScheduleViolation, match="already showed"):
        schedule.check_show(4)


@BACKENDS
def test_share_guard_keeps_my_cards_closed(group: Group) -> None:
    table = shuffled_table(group, 2)
    rng = SeededRandom("guard")
    me = guards(table.keys, holdem_audiences([0, 1]))[0]
    with pytest.raises(ScheduleViolation, match="only when I show"):
        me.open_for(0, table.deck, rng)
    me.open_for(1, table.deck, rng)
    with pytest.raises(ScheduleViolation, match="already opened"):
        me.open_for(1, table.deck, rng)
    with pytest.raises(ScheduleViolation, match="not my card"):
        me.own_card(1, table.deck, [])
    assert [item.position for item in me.show(table.deck, rng)] == [0, 2]
    me.muck()
    with pytest.raises(ScheduleViolation, match="mucked"):
        me.show(table.deck, rng)


@BACKENDS
def test_six_players_one_vanishes_after_the_shuffle(group: Group) -> None:
    """Seat 3 shuffles, then disappears: the others open the board and their own hole cards from covers of his
    share; his hole cards stay closed; with too few helpers the hand is void."""
    table = shuffled_table(group, 6)
    rng = SeededRandom("drop")
    deck = table.deck
    audiences = holdem_audiences(list(range(6)))
    threshold = threshold_for(6)
    assert threshold == 4
    escrows, received = {}, {}
    for dealer, key in enumerate(table.keys):
        holders = [seat for seat in range(6) if seat != dealer]
        escrows[dealer], shares = deal_key(key, dealer, holders, threshold, rng)
        assert check_escrow(group, escrows[dealer], key.public, 6)
        for holder, share in shares.items():
            assert check_vss_share(group, escrows[dealer], holder, share)
            received[dealer, holder] = share
    assert not check_vss_share(group, escrows[0], 1, received[0, 1] + 1)
    gone = 3
    present = [seat for seat in range(6) if seat != gone]
    schedule = OpeningSchedule(audiences)
    players = {seat: ShareGuard(seat, table.keys[seat], OpeningSchedule(audiences), "t1", "h1") for seat in present}

    def covered(position: int, helpers: list[int]) -> bytes:
        covers = [cover_share(group, escrows[gone], holder, received[gone, holder], deck[position].c1, position,
                              schedule, "t1", "h1", rng) for holder in helpers]
        assert all(check_cover(group, escrows[gone], deck[position].c1, item, "t1", "h1") for item in covers)
        return combine(group, escrows[gone], {item.holder: item.share for item in covers})

    # the board opens with four of the five others standing in for seat 3
    board = []
    for position in schedule.board_positions():
        shares = {seat: players[seat].open_for(position, deck, rng).share for seat in present}
        shares[gone] = covered(position, present[:4])
        board.append(open_card(group, deck, position, shares))
    assert None not in board
    # a different four give the same share (Lagrange)
    assert covered(7, present[1:]) == table.keys[gone].share(deck[7].c1)
    # seat 0's hole cards still open to seat 0
    for position in schedule.positions_of(0):
        public = [players[seat].open_for(position, deck, rng).share for seat in present if seat != 0]
        assert players[0].own_card(position, deck, [*public, covered(position, present[1:])]) is not None
    # seat 3's own cards are never covered
    for position in schedule.positions_of(gone):
        with pytest.raises(ScheduleViolation, match="never covered"):
            cover_share(group, escrows[gone], 0, received[gone, 0], deck[position].c1, position, schedule, "t1",
                        "h1", rng)
    # a cover made with a wrong share is caught
    wrong = cover_share(group, escrows[gone], 1, received[gone, 1] + 1, deck[6].c1, 6, schedule, "t1", "h1", rng)
    assert not check_cover(group, escrows[gone], deck[6].c1, wrong, "t1", "h1")
    # three helpers are too few: the hand is void
    with pytest.raises(ThresholdError, match="3 of the 4"):
        combine(group, escrows[gone], {holder: group.generator for holder in present[:3]})


def test_shares_travel_sealed_to_their_holder() -> None:
    rng = SeededRandom("seal")
    holder, stranger = box_key(rng), box_key(rng)
    sealed = seal(box_public(holder), b"share 42", b"t1/h1/3->4", rng)
    assert unseal(holder, sealed, b"t1/h1/3->4") == b"share 42"
    for key, context in ((stranger, b"t1/h1/3->4"), (holder, b"t1/h1/3->5")):
        with pytest.raises(ValueError, match="does not open"):
            unseal(key, sealed, context)
    assert b"share 42" not in sealed
