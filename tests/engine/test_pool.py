"""Fast-fold pools (R-FAST-1): who plays next, with whom, and who posts the blinds (engine.pool)."""

from __future__ import annotations

import random

import pytest

from engine.actions import Call, Fold
from engine.errors import AlreadySeated, InvalidAmount, NotSeated, TableRuleError
from engine.table.pool import FastFoldPool, PoolPlayer, PoolSettings, PoolState, PoolTable, pick_group, seat_group
from engine.table_events import HandPlanned, PlayerMovedOut
from tests.engine.table_helpers import FakeClock, decks, no_limit_config, play_out


def ready_pool(names: list[str], *, seat_count: int = 6, fill_seconds: float = 2.0, now: float = 0.0,
               stack: int = 1_000) -> FastFoldPool:
    pool = FastFoldPool(PoolSettings(seat_count=seat_count, fill_seconds=fill_seconds))
    for name in names:
        pool.join(name, stack, now)
        pool.committed(name)
    return pool


def in_rotation(name: str, since: int, order: int) -> PoolPlayer:
    return PoolPlayer(name, 1_000, order, hands_since_big_blind=since, fresh=False, commitment_ready=True)


def test_a_group_sits_as_one_orbit_of_a_table() -> None:
    # hands since each last posted the big blind: f 5, e 4, d 3, c 2, b 1, a 0 (a just had it)
    group = [in_rotation(name, since, order) for order, (name, since) in enumerate(
        [("a", 0), ("b", 1), ("c", 2), ("d", 3), ("e", 4), ("f", 5)])]
    hand = seat_group(group)
    # button d, small blind e, big blind f, then under the gun a (just had the big blind), b, cutoff c
    assert [hand.seats[seat] for seat in range(6)] == ["d", "e", "f", "a", "b", "c"]
    assert (hand.plan.button_seat, hand.plan.small_blind_seat, hand.plan.big_blind_seat) == (0, 1, 2)
    assert hand.plan.out_of_position_big_blinds == () and hand.plan.blinds_forgiven == ()
    assert hand.stacks == dict.fromkeys(range(6), 1_000)


def test_six_players_each_post_one_big_and_one_small_blind_in_six_hands() -> None:
    pool = ready_pool(["a", "b", "c", "d", "e", "f"])
    big, small, button = [], [], []
    for number in range(7):
        hand = pool.next_hand(now=float(number))
        assert hand is not None and len(hand.seats) == 6
        if number:  # the first hand is the pool's start: everyone fresh, only the big blind posts
            big.append(hand.seats[hand.plan.big_blind_seat])
            small.append(hand.seats[hand.plan.small_blind_seat or 0])
            button.append(hand.seats[hand.plan.button_seat])
        for name in hand.seats.values():
            pool.released(name, 1_000, now=float(number))
            pool.committed(name)
    assert sorted(big) == sorted(small) == sorted(button) == ["a", "b", "c", "d", "e", "f"]
    # the same order as at a table: the small blind of one hand is the big blind of the next
    assert small[:-1] == big[1:]


def test_the_pools_first_hand_forgives_the_fresh_seats_but_the_big_blind() -> None:
    pool = ready_pool(["ana", "bo", "cy", "di"])
    hand = pool.next_hand(now=0.0)
    assert hand is not None
    assert hand.seats == {0: "cy", 1: "bo", 2: "ana", 3: "di"}
    assert hand.plan.out_of_position_big_blinds == ()
    assert hand.plan.blinds_forgiven == (0, 1, 3)
    assert pool.player("ana").hands_since_big_blind == 0
    assert [pool.player(name).hands_since_big_blind for name in ("bo", "cy", "di")] == [1, 1, 1]
    assert not any(player.fresh for player in pool.players.values())


def test_a_player_new_to_a_running_pool_posts_a_big_blind_at_once() -> None:
    group = [in_rotation("a", 0, 0), in_rotation("b", 1, 1), in_rotation("c", 2, 2), in_rotation("d", 3, 3),
             PoolPlayer("new", 500, 4, commitment_ready=True), PoolPlayer("newer", 500, 5, commitment_ready=True)]
    hand = seat_group(group)
    # the first fresh seat takes the big blind in position; the second posts one out of position, live, and
    # sits after the big blind; the small blind and the button go to players already in the rotation
    assert hand.seats[2] == "new"
    assert hand.seats[1] == "d" and hand.seats[0] == "c"
    assert hand.plan.out_of_position_big_blinds == (hand.seat_of("newer"),)
    assert hand.seat_of("newer") > 2
    assert hand.plan.blinds_forgiven == ()
    assert [hand.seats[seat] for seat in range(3, 6)] == ["a", "b", "newer"]


def test_rotation_counts_move_on_when_a_hand_is_dealt() -> None:
    pool = ready_pool(["a", "b", "c"])
    first = pool.next_hand(now=0.0)
    assert first is not None
    for name in first.seats.values():
        pool.released(name, 1_000, 1.0)
        pool.committed(name)
    pool.join("z", 1_000, 1.0)
    pool.committed("z")
    second = pool.next_hand(now=1.0)
    assert second is not None
    assert second.seats[second.plan.big_blind_seat] == "z"  # a fresh seat posts in his first hand
    # a posted the big blind in the first hand (0 since), b and c then one hand each: c joined later, so b
    # (who joined before him) takes the small blind
    assert second.seats[second.plan.small_blind_seat or 0] == "b"
    assert pool.player("z").hands_since_big_blind == 0
    assert pool.player("b").hands_since_big_blind == 2 and pool.player("a").hands_since_big_blind == 1


def test_heads_up_the_button_posts_the_small_blind() -> None:
    hand = seat_group([in_rotation("a", 4, 0), in_rotation("b", 1, 1)])
    assert hand.seats == {0: "b", 1: "a"}
    assert (hand.plan.button_seat, hand.plan.small_blind_seat, hand.plan.big_blind_seat) == (0, 0, 1)
    assert hand.plan.heads_up


def test_a_full_table_is_dealt_at_once_a_short_one_after_the_fill_time() -> None:
    pool = ready_pool([f"p{number}" for number in range(9)], seat_count=6, fill_seconds=2.0)
    first = pool.next_hand(now=0.0)
    assert first is not None and len(first.seats) == 6
    # three wait while six play: no hand until the first in line has waited 2 s
    assert pool.next_hand(now=1.9) is None
    assert pool.next_deadline() == 2.0
    second = pool.next_hand(now=2.0)
    assert second is not None and len(second.seats) == 3
    assert pool.next_hand(now=10.0) is None  # nobody waits


def test_nobody_else_playing_deals_the_waiting_players_at_once() -> None:
    pool = ready_pool(["a", "b", "c"], seat_count=6, fill_seconds=60.0)
    hand = pool.next_hand(now=0.0)
    assert hand is not None and sorted(hand.seats.values()) == ["a", "b", "c"]


def test_a_player_whose_commitment_is_missing_waits() -> None:
    pool = FastFoldPool(PoolSettings(seat_count=2))
    for name in ("a", "b"):
        pool.join(name, 100, 0.0)
    pool.committed("a")
    assert pool.next_hand(now=5.0) is None
    pool.committed("b")
    hand = pool.next_hand(now=5.0)
    assert hand is not None
    assert not pool.player("a").commitment_ready  # used: a new one is needed for the hand after


def test_new_opponents_while_enough_others_wait() -> None:
    line = [PoolPlayer(name, 1, order, commitment_ready=True) for order, name in enumerate("abcdefgh")]
    line[0].last_opponents = frozenset({"b", "c"})
    line[3].last_opponents = frozenset({"e"})
    assert [player.name for player in pick_group(line, 4)] == ["a", "d", "f", "g"]
    assert [player.name for player in pick_group(line, 7)] == ["a", "d", "f", "g", "h", "b", "c"]


def test_players_of_one_hand_are_spread_over_the_next_hands() -> None:
    pool = ready_pool([f"p{number:02}" for number in range(18)])
    hands = [pool.next_hand(now=0.0) for _ in range(3)]
    old = [set(hand.seats.values()) for hand in hands if hand is not None]
    assert len(old) == 3
    now = 1.0
    for players in old:  # each hand's players come back together, one hand after the other
        for name in sorted(players):
            pool.released(name, 1_000, now)
            pool.committed(name)
            now += 0.01
    fresh = [pool.next_hand(now=now) for _ in range(3)]
    for hand in fresh:
        assert hand is not None
        # in line order the first hand would be the six of one old table again; here two of each
        assert [len(set(hand.seats.values()) & players) for players in old] == [2, 2, 2]


def test_blinds_stay_fair_over_many_hands_of_a_busy_pool() -> None:
    shuffler = random.Random(16)
    names = [f"p{number:02}" for number in range(18)]
    pool = ready_pool(names)
    running: list[list[str]] = []
    big_blinds = dict.fromkeys(names, 0)
    now = 0.0
    for _ in range(2_000):
        hand = pool.next_hand(now)
        if hand is not None:
            big_blinds[hand.seats[hand.plan.big_blind_seat]] += 1
            running.append(list(hand.seats.values()))
            continue
        # someone folds (or a hand ends): a random player of a random running hand comes back
        players = shuffler.choice(running)
        name = players.pop(shuffler.randrange(len(players)))
        if not players:
            running.remove(players)
        now += 0.05
        pool.released(name, 1_000, now)
        pool.committed(name)
    for name in names:
        dealt = pool.player(name).hands_dealt
        assert dealt > 50
        # one big blind per orbit: never far from one in six of his hands
        assert abs(big_blinds[name] - dealt / 6) <= 2, (name, big_blinds[name], dealt)


def test_leaving_between_hands_and_during_one() -> None:
    pool = ready_pool(["a", "b", "c"])
    hand = pool.next_hand(now=0.0)
    assert hand is not None
    assert pool.leave("a") is None  # in a hand: he goes when it releases him
    assert pool.released("a", 940, 1.0) == 940
    assert "a" not in pool.players
    pool.released("b", 1_060, 1.0)
    assert pool.leave("b") == 1_060
    with pytest.raises(NotSeated):
        pool.player("b")


def test_sitting_out_and_no_chips() -> None:
    pool = ready_pool(["a", "b", "c"])
    hand = pool.next_hand(now=0.0)
    assert hand is not None
    pool.sit_out("a")
    pool.released("a", 500, 1.0)
    pool.released("b", 0, 1.0)
    pool.released("c", 2_500, 1.0)
    assert pool.player("a").state is PoolState.SITTING_OUT
    assert pool.player("b").state is PoolState.SITTING_OUT
    with pytest.raises(TableRuleError, match="no chips"):
        pool.sit_in("b", 2.0)
    assert pool.top_up("b", 300) == 300
    pool.sit_in("b", 2.0)
    pool.committed("b")
    pool.committed("c")
    second = pool.next_hand(now=2.0)
    assert second is not None and sorted(second.seats.values()) == ["b", "c"]
    assert pool.chips() == 500


def test_bad_requests_change_nothing() -> None:
    pool = FastFoldPool(PoolSettings(seat_count=6, min_buy_in=200, max_buy_in=1_000))
    with pytest.raises(InvalidAmount, match="minimum buy-in is 200"):
        pool.join("a", 100, 0.0)
    with pytest.raises(InvalidAmount, match="maximum buy-in is 1000"):
        pool.join("a", 1_001, 0.0)
    assert pool.players == {}
    pool.join("a", 900, 0.0)
    with pytest.raises(AlreadySeated):
        pool.join("a", 500, 0.0)
    with pytest.raises(InvalidAmount, match="would make 1101"):
        pool.top_up("a", 201)
    assert pool.player("a").stack == 900
    with pytest.raises(TableRuleError, match="not in a hand"):
        pool.released("a", 900, 1.0)
    with pytest.raises(ValueError, match="2 to 10 seats"):
        PoolSettings(seat_count=11)


# --- a pool's table: seated with a group, left at the fold -------------------------------------------------


def test_a_pool_table_deals_the_groups_plan_and_lets_a_folder_go_at_once() -> None:

    group = [in_rotation(name, since, order) for order, (name, since) in enumerate(
        [("a", 0), ("b", 1), ("c", 2), ("d", 5)])]
    group[2].stack = 400
    hand = seat_group(group)
    assert hand.seats == {0: "b", 1: "c", 2: "d", 3: "a"}
    table = PoolTable(no_limit_config(min_buy_in=0, max_buy_in=None))
    table.seat_group(hand, 0.0)
    events = table.start_hand(decks(3)(), 0.0)
    planned = next(event for event in events if isinstance(event, HandPlanned))
    assert (planned.button_seat, planned.small_blind_seat, planned.big_blind_seat) == (0, 1, 2)
    assert not any(type(event).__name__ == "ButtonDrawn" for event in events)  # the pool placed the button
    # a (under the gun) folds and leaves with his 1000 behind; b calls 10; c (small blind, 5 in) folds: 395
    table.act("a", Fold(), 1.0)
    assert table.remove_player("a", 1.0) == [PlayerMovedOut(3, "a", 1_000, "moved")]
    table.act("b", Call(), 2.0)
    table.act("c", Fold(), 3.0)
    (moved,) = table.remove_player("c", 3.0)
    assert moved == PlayerMovedOut(1, "c", 395, "moved")
    assert table.plan_next_hand() is None  # nobody is seated for a next hand until the pool seats a group
    play_out(table, FakeClock(4.0))
    stacks = {seated.player: seated.stack for seated in table.players.values()}
    # b and d played it out: their 2 000 and c's small blind are all still here
    assert sum(stacks.values()) + 1_000 + 395 + table.rake_taken == 3_400
    assert set(stacks) == {"b", "d"}
    for name in ("b", "d"):
        table.remove_player(name, 9.0)
    assert table.players == {}
    table.seat_group(seat_group([in_rotation("a", 1, 0), in_rotation("b", 2, 1)]), 10.0)
    assert table.plan_next_hand() is not None


def test_one_persons_names_are_never_dealt_into_one_hand() -> None:
    """Issue 25 item 6: twinA and twinB (one SSH key) were dealt into the same hand 19 times of 19."""
    pool = FastFoldPool(PoolSettings(seat_count=6, fill_seconds=0.0))
    for name, person in [("twinA", "key1"), ("twinB", "key1")]:
        pool.join(name, 100, now=0.0, player_id=person)
        pool.committed(name)
    assert pool.next_hand(now=10.0) is None and pool.next_deadline() is None  # one person: no hand, no wake-up
    pool.join("cy", 100, now=0.0)
    pool.committed("cy")
    first = pool.next_hand(now=10.0)
    assert first is not None and sorted(first.seats.values()) == ["cy", "twinA"]
    assert pool.next_hand(now=10.0) is None  # twinB waits for a hand without twinA
