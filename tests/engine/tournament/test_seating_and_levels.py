"""Seating, balancing, breaking, hand-for-hand, simultaneous eliminations (R-TOUR-4, TDA), levels and breaks
(R-TOUR-3), the table seams, and R-TOUR-6."""

from __future__ import annotations

import pytest

from engine.actions import Call, Check, Fold
from engine.cards import full_deck
from engine.errors import HandInProgress, TableRuleError
from engine.table_events import TimedOut
from engine.tournament.director import Phase
from engine.tournament.events import (
    BreakEnded,
    BreakStarted,
    Eliminated,
    FinalTable,
    HandForHand,
    LevelUp,
    PlayerMoved,
    PrizeAwarded,
    TableBroken,
)
from engine.tournament.levels import Break, Level, stage_at, turbo_schedule, with_breaks
from engine.tournament.money import EntryPrice
from engine.tournament.seating import balance_move, initial_tables, table_to_break
from engine.tournament.settings import TournamentSettings
from engine.tournament.table import TournamentTable
from engine.variants import SEVEN_CARD_STUD, TEXAS_HOLDEM
from tests.engine.tournament.helpers import LEVELS, of_type, play_hand, rigged_deck, running


def test_initial_seats_are_drawn_and_tables_differ_by_at_most_one() -> None:
    tables = initial_tables(list(range(1, 24)), 9, lambda n: n - 1)
    assert [len(table) for table in tables] == [7, 8, 8]
    assert sorted(entry for table in tables for entry in table) == list(range(1, 24))
    other = initial_tables(list(range(1, 24)), 9, lambda n: 0)
    assert other != tables  # the draw decides


def test_balancing_moves_from_the_highest_numbered_largest_idle_table_to_the_smallest() -> None:
    assert balance_move({1: 9, 2: 9, 3: 7}, busy=set()) == (2, 3)
    assert balance_move({1: 9, 2: 9, 3: 7}, busy={2}) == (1, 3)
    assert balance_move({1: 9, 2: 9, 3: 7}, busy={1, 2}) is None  # waits for a hand to end
    assert balance_move({1: 9, 2: 8, 3: 8}, busy=set()) is None  # within one player


def test_tables_break_in_fixed_order_when_players_fit_in_one_fewer() -> None:
    assert table_to_break({1: 6, 2: 6, 3: 6}, 9) == 3
    assert table_to_break({1: 7, 2: 6, 3: 6}, 9) is None  # 19 > 18
    assert table_to_break({1: 5}, 9) is None


def _fold_to_the_end(table: TournamentTable) -> None:
    """Everyone folds (or calls when he cannot fold) until the hand ends; the table closes it."""
    while table.hand is not None and not table.hand.is_over:
        options = table.legal_actions()
        assert options is not None
        table.hand.act(options.seat, Fold() if options.can_fold else Call())
    table.finish_hand()


def test_tda_balancing_moves_the_next_big_blind_to_the_worst_seat() -> None:
    table = TournamentTable(1, TEXAS_HOLDEM, seat_count=9)
    for seat in range(6):
        table.seat_with_stack(100 + seat, f"p{seat}", 1_000, seat=seat)
    table.start_hand(list(full_deck()), Level(10, 20), first_button=0)  # button 0, small blind 1, big blind 2
    _fold_to_the_end(table)
    assert table.next_big_blind_seat() == 3  # the big blind moves on to seat 3
    short = TournamentTable(2, TEXAS_HOLDEM, seat_count=9)
    for seat in (0, 1, 2, 4, 6):
        short.seat_with_stack(200 + seat, f"q{seat}", 1_000, seat=seat)
    short.start_hand(list(full_deck()), Level(10, 20), first_button=0)  # big blind at seat 2
    # The free seat the big blind reaches first (seat 3), never the small blind's.
    assert short.worst_free_seat() == 3


def test_new_player_between_the_button_and_small_blind_waits_one_hand() -> None:
    table = TournamentTable(1, TEXAS_HOLDEM, seat_count=9)
    for seat in (0, 3, 6):
        table.seat_with_stack(seat + 1, f"p{seat}", 1_000, seat=seat)
    table.start_hand(list(full_deck()), Level(10, 20), first_button=0)  # button 0, small blind 3, big blind 6
    _fold_to_the_end(table)
    # Next hand: button 3, small blind 6, big blind 0. Seat 4 lies between button and small blind: waits.
    table.seat_with_stack(50, "late", 1_000, seat=4)
    table.seat_with_stack(51, "other", 1_000, seat=1)  # between big blind and button: dealt in
    assert table.dealing_order() == (6, 0, 1, 3)


def _mtt(players: int, seats: int = 6, **changes: object) -> TournamentSettings:
    values: dict[str, object] = {"tournament_id": "mtt", "start_time": 0.0, "schedule": LEVELS,
                                 "seats_per_table": seats, "starting_stack": 1_000, "price": EntryPrice(100, 10)}
    values.update(changes)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def test_an_elimination_triggers_a_balancing_move_to_the_short_table() -> None:
    tournament = running(_mtt(12), 12)
    assert sorted(t.player_count for t in tournament.tables.values()) == [6, 6]
    # Two players bust at table 1: 4 against 6 → one moves from table 2 (idle) to table 1.
    table1 = tournament.tables[1]
    entries = [s.entry for s in table1.seats.values()]
    deck = rigged_deck(tournament, 1, {entries[0]: "As Ah", entries[1]: "Kd Kc", entries[2]: "Qd Qc"},
                       "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={entries[0], entries[1], entries[2]})
    moves = of_type(events, PlayerMoved)
    assert len(moves) == 1 and moves[0].reason == "balance"  # type: ignore[attr-defined]
    assert (moves[0].from_table, moves[0].to_table) == (2, 1)  # type: ignore[attr-defined]
    assert sorted(t.player_count for t in tournament.tables.values()) == [5, 5]


def test_simultaneous_eliminations_at_one_table_bigger_starting_stack_finishes_higher() -> None:
    tournament = running(_mtt(6), 6)
    table = tournament.tables[1]
    by_entry = {s.entry: seat for seat, s in table.seats.items()}
    table.seats[by_entry[2]].stack = 600
    table.seats[by_entry[3]].stack = 400
    table.seats[by_entry[1]].stack = 2_000
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc", 3: "Qd Qc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2, 3})
    out = [(e.player, e.place, e.tied) for e in of_type(events, Eliminated)]  # type: ignore[attr-defined]
    assert out == [("p2", 5, 1), ("p3", 6, 1)]


def test_simultaneous_eliminations_with_equal_stacks_tie_and_share_prizes() -> None:
    # 4 players, 2 paid (65/35 of 400): p2 and p3 bust together with equal stacks → tied 3rd, no prize.
    tournament = running(_mtt(4, seats=4), 4)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc", 3: "Qd Qc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2, 3})
    out = sorted((e.player, e.place, e.tied) for e in of_type(events, Eliminated))  # type: ignore[attr-defined]
    assert out == [("p2", 3, 2), ("p3", 3, 2)]
    assert not of_type(events, PrizeAwarded)


def test_tables_break_in_order_and_a_final_table_forms() -> None:
    tournament = running(_mtt(8, seats=4), 8)
    assert sorted(t.player_count for t in tournament.tables.values()) == [4, 4]
    # Table 1: AA beats KK and QQ, two out → 2 against 4: one player moves from table 2 (balance).
    entries = sorted(s.entry for s in tournament.tables[1].seats.values())
    deck = rigged_deck(tournament, 1, {entries[0]: "As Ah", entries[1]: "Kd Kc", entries[2]: "Qd Qc"},
                       "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers=set(entries[:3]))
    assert [(e.from_table, e.to_table, e.reason) for e in of_type(events, PlayerMoved)] == \
        [(2, 1, "balance")]  # type: ignore[attr-defined]
    # Table 2 loses two more: 3 + 1 fit in one table → table 2 breaks, its player goes to the final table.
    entries = sorted(s.entry for s in tournament.tables[2].seats.values())
    deck = rigged_deck(tournament, 2, {entries[0]: "As Ah", entries[1]: "Kd Kc", entries[2]: "Qd Qc"},
                       "2c 7d 9h Js 3s")
    events = play_hand(tournament, 2, deck, 20, shovers=set(entries))
    assert [(e.from_table, e.to_table, e.reason) for e in of_type(events, PlayerMoved)] == \
        [(2, 1, "final_table")]  # type: ignore[attr-defined]
    assert TableBroken(2) in events and FinalTable(1, 4) in events
    assert tournament.phase is Phase.FINAL_TABLE and list(tournament.tables) == [1]


def test_hand_for_hand_on_the_bubble_ties_eliminations_across_tables() -> None:
    # 12 entrants at 6 two-seat tables; 3 paid (50/30/20 of 1,200). The bubble: 4 left, 2 + 2.
    tournament = running(_mtt(12, seats=2), 12)
    assert [p.amount for p in tournament.prizes or ()] == [600, 360, 240]
    keep = {number: sorted(s.entry for s in tournament.tables[number].seats.values())[:2] for number in (1, 2)}
    out = [e.number for e in tournament.entries.values() if e.table not in (1, 2) or e.number not in keep[e.table]]
    # Knock the others out as the director does after hands (each alone, bigger places first).
    for entry in out:
        tournament._take_off(entry)
        tournament._eliminate_group([(entry, 0, ())], 0, across_tables=False)
    tournament._rebalance()
    events = tournament._maybe_complete(0)
    counts = sorted(t.player_count for t in tournament.tables.values())
    assert counts == [2, 2] and HandForHand(True) in events
    (first_table, second_table) = sorted(tournament.tables)
    # Table A plays its hand: its loser waits for table B's hand; table A may not deal again.
    a_entries = sorted(s.entry for s in tournament.tables[first_table].seats.values())
    deck = rigged_deck(tournament, first_table, {a_entries[0]: "As Ah", a_entries[1]: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, first_table, deck, 10, shovers=set(a_entries))
    assert not of_type(events, Eliminated)
    assert not tournament.may_start_hand(first_table, 11)
    b_entries = sorted(s.entry for s in tournament.tables[second_table].seats.values())
    deck = rigged_deck(tournament, second_table, {b_entries[0]: "As Ah", b_entries[1]: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, second_table, deck, 12, shovers=set(b_entries))
    out = sorted((e.place, e.tied) for e in of_type(events, Eliminated))  # type: ignore[attr-defined]
    assert out == [(3, 2), (3, 2)]  # tied for 3rd–4th: they share 3rd prize
    awarded = sorted(e.amount for e in of_type(events, PrizeAwarded))  # type: ignore[attr-defined]
    third = (tournament.prizes or ())[2].amount
    assert awarded == sorted([third - third // 2, third // 2])
    assert HandForHand(False) in events


def test_levels_change_between_hands_and_breaks_stop_new_hands() -> None:
    schedule = with_breaks([Level(50, 100, duration=600), Level(100, 200, duration=600),
                            Level(150, 300, big_blind_ante=300, duration=600)], every=2, seconds=300)
    tournament = running(_mtt(4, seats=4, schedule=schedule), 4)
    deck = list(full_deck())
    tournament.start_hand(1, deck, 590)  # dealt at level 1
    events = tournament.tick(601)
    assert of_type(events, LevelUp) == [LevelUp(2, 100, 200, 0, 0, 0)]
    hand = tournament.tables[1].hand
    assert hand is not None and hand.pot_total == 150  # the running hand keeps 50/100
    events = tournament.tick(1_200)
    assert of_type(events, BreakStarted) == [BreakStarted(1_500)]
    assert tournament.phase in (Phase.BREAK, Phase.FINAL_TABLE) and tournament.in_break
    assert not tournament.may_start_hand(1, 1_200)
    events = tournament.tick(1_500)
    assert BreakEnded() in events and LevelUp(3, 150, 300, 0, 300, 0) in events


def test_stud_and_limit_levels() -> None:
    level = Level(0, 0, ante=5, bring_in=10, duration=600)
    bets = level.forced_bets(button_seat=0, small_blind_seat=None, big_blind_seat=None)
    assert (bets.ante, bets.bring_in, bets.small_blind_seat) == (5, 10, None)
    table = TournamentTable(1, SEVEN_CARD_STUD, seat_count=8)
    table.seat_with_stack(1, "a", 500, seat=0)
    table.seat_with_stack(2, "b", 500, seat=1)
    table.start_hand(list(full_deck()), level, first_button=0)
    assert table.hand is not None and table.hand.pot_total == 2 * 5  # two antes; the bring-in is to act
    options = table.legal_actions()
    assert options is not None and options.bring_in_amount == 10
    holdem = TournamentTable(2, TEXAS_HOLDEM, seat_count=9)
    holdem.seat_with_stack(1, "a", 500, seat=0)
    holdem.seat_with_stack(2, "b", 500, seat=1)
    with pytest.raises(ValueError, match="needs blind levels"):
        holdem.start_hand(list(full_deck()), level, first_button=0)
    from engine.structures import StructureKind
    assert Level(10, 20).structure(StructureKind.FIXED_LIMIT).big_bet == 40
    assert Level(10, 20).structure(StructureKind.POT_LIMIT).kind is StructureKind.POT_LIMIT


def test_stage_at_and_turbo_schedule() -> None:
    schedule = (Level(10, 20, duration=60), Break(30), Level(20, 40, duration=60))
    assert [stage_at(schedule, t).index for t in (0, 59.9, 60, 89.9, 90, 10_000)] == [0, 0, 1, 1, 2, 2]
    assert [level.big_blind for level in turbo_schedule(40)[:4]] == [40, 60, 100, 160]  # type: ignore[union-attr]


def test_table_seams_remove_and_seat_with_stack_refuse_during_his_hand() -> None:
    table = TournamentTable(1, TEXAS_HOLDEM, seat_count=6)
    table.seat_with_stack(1, "a", 500, seat=0)
    table.seat_with_stack(2, "b", 500, seat=1)
    table.start_hand(list(full_deck()), Level(10, 20), first_button=0)
    with pytest.raises(HandInProgress):
        table.remove_player(1)
    with pytest.raises(TableRuleError, match="not free"):
        table.seat_with_stack(3, "c", 500, seat=1)
    seat = table.seat_with_stack(3, "c", 500)  # arrives mid-hand: waits for the next
    assert seat == 2 and not table.in_hand(3)


def test_disconnected_player_is_dealt_in_posts_and_is_folded_never_removed() -> None:
    # R-TOUR-6
    tournament = running(_mtt(3, seats=3), 3)
    tournament.disconnect(3)
    events = tournament.start_hand(1, list(full_deck()), 10)
    table = tournament.tables[1]
    while table.hand is not None:
        options = table.legal_actions()
        assert options is not None
        action = Call() if options.call_amount is not None else Check()
        events += tournament.act(1, table.seats[options.seat].entry, action, 11)
    timed_out = of_type(events, TimedOut)
    assert timed_out and all(e.player == "p3" for e in timed_out)  # type: ignore[attr-defined]
    assert tournament.entries[3].live and tournament.entries[3].table == 1
    assert {e.action for e in timed_out} <= {"check", "fold"}  # type: ignore[attr-defined]


def test_big_blind_ante_is_posted_by_the_big_blind_alone() -> None:
    table = TournamentTable(1, TEXAS_HOLDEM, seat_count=6)
    for seat in range(4):
        table.seat_with_stack(seat + 1, f"p{seat}", 5_000, seat=seat)
    # small blind seat 1, big blind seat 2
    table.start_hand(list(full_deck()), Level(100, 200, big_blind_ante=200), first_button=0)
    assert table.hand is not None and table.hand.pot_total == 100 + 200 + 200
    assert table.hand.stacks()[2] == 5_000 - 400 and table.hand.stacks()[3] == 5_000


def test_thirty_two_card_game_at_an_ante_and_bring_in_level() -> None:
    from engine.variants import TELESINA

    table = TournamentTable(1, TELESINA, seat_count=4)
    for seat in range(3):
        table.seat_with_stack(seat + 1, f"p{seat}", 800, seat=seat)
    from engine.cards import short_deck

    table.start_hand(list(short_deck()), Level(0, 0, ante=10, bring_in=20), first_button=0)
    options = table.legal_actions()
    assert table.hand is not None and table.hand.pot_total == 30
    assert options is not None and options.bring_in_amount == 20


def test_fixed_limit_table_bets_the_levels_sizes() -> None:
    from engine.structures import StructureKind

    table = TournamentTable(1, TEXAS_HOLDEM, seat_count=6, structure=StructureKind.FIXED_LIMIT)
    for seat in range(3):
        table.seat_with_stack(seat + 1, f"p{seat}", 1_000, seat=seat)
    table.start_hand(list(full_deck()), Level(20, 40), first_button=0)
    options = table.legal_actions()
    assert options is not None and (options.min_raise_to, options.max_raise_to) == (80, 80)


def test_bad_requests_get_a_clear_error_and_change_nothing() -> None:
    from engine.errors import IllegalAction, NotSeated

    tournament = running(_mtt(3, seats=3), 3)
    with pytest.raises(TableRuleError, match="there is no table 7"):
        tournament.start_hand(7, list(full_deck()), 1)
    tournament.start_hand(1, list(full_deck()), 1)
    table = tournament.tables[1]
    options = table.legal_actions()
    assert options is not None
    waiting = next(s.entry for seat, s in table.seats.items() if seat != options.seat)
    before = (table.hand.pot_total if table.hand else None, table.hand.stacks() if table.hand else None)
    with pytest.raises(IllegalAction):
        tournament.act(1, waiting, Check(), 2)
    with pytest.raises(NotSeated, match="does not sit at table 1"):
        tournament.act(1, 99, Check(), 2)
    with pytest.raises(TableRuleError, match="cannot deal now"):
        tournament.start_hand(1, list(full_deck()), 2)
    assert table.hand is not None and (table.hand.pot_total, table.hand.stacks()) == before
