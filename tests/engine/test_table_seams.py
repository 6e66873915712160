"""The neutral table's seams for any owner: set_level between hands (big-blind ante included), seat_with_stack,
remove_player (between hands, and folded during one), and the policy deciding what a cash table decides."""

from __future__ import annotations

from typing import cast

import pytest

from engine.errors import HandInProgress, InvalidAmount, TableRuleError
from engine.hand import Hand
from engine.table import OwnerStacksPolicy, Stakes, Table
from engine.table_events import (
    BlindOwed,
    ChipsAdded,
    LevelChanged,
    PlayerMovedIn,
    PlayerMovedOut,
    PlayerSatOut,
)
from tests.engine.table_helpers import (
    FakeClock,
    decks,
    draw_deck,
    fold_to_big_blind,
    limit_config,
    no_limit_config,
    play_out,
)

BUTTON_TO_SEAT_0 = ("As", "Kd", "2c")  # the dealer draw: seat 0 has the highest card


def _three_handed(policy: OwnerStacksPolicy | None = None) -> tuple[Table, FakeClock]:
    clock = FakeClock()
    if policy is None:
        table = Table(no_limit_config())
        for name in ("ana", "bob", "cid"):
            table.sit(name, 1_000, clock.now)
    else:
        table = Table(no_limit_config(min_buy_in=0, max_buy_in=None), policy=policy)
        for name in ("ana", "bob", "cid"):
            table.seat_with_stack(name, 1_000, clock.now)
    return table, clock


def _pot(table: Table) -> int:
    return cast(Hand, table.hand).pot_total


def _stacks(table: Table) -> dict[str, int]:
    return {seated.player: seated.stack for seated in table.players.values()}


def test_a_level_set_during_a_hand_applies_from_the_next_one_with_its_big_blind_ante() -> None:
    """Hand 1 at 5/10 (button seat 0: bob small blind, cid big blind): pot 15. The owner sets 100/200 with a
    big-blind ante of 200 during it; hand 1 keeps 5/10 (bob folds his 5 to cid). Hand 2: button bob, cid the
    small blind (100), ana the big blind (200) and the big-blind ante (200): pot 500 before any action; all
    fold to ana: ana 1000 - 400 + 500 = 1100, bob 995, cid 1005 - 100 = 905."""
    table, clock = _three_handed()
    deck = decks(7)
    table.start_hand(deck(), clock.now, button_draw_deck=draw_deck(*BUTTON_TO_SEAT_0))
    assert _pot(table) == 15
    changed = table.set_level(Stakes(100, 200, big_blind_ante=200))
    assert changed == [LevelChanged(from_hand=2, small_blind=100, big_blind=200, ante=0, big_blind_ante=200,
                                    bring_in=0)]
    assert _pot(table) == 15  # the running hand keeps its level
    play_out(table, clock, fold_to_big_blind)
    assert _stacks(table) == {"ana": 1_000, "bob": 995, "cid": 1_005}

    table.start_hand(deck(), clock.now)
    forced = table.last_forced_bets
    assert forced is not None
    assert (forced.button_seat, forced.small_blind_seat, forced.big_blind_seat) == (1, 2, 0)
    assert (forced.small_blind, forced.big_blind, forced.big_blind_ante, forced.dead_antes) == (100, 200, 200, True)
    assert _pot(table) == 500
    assert cast(Hand, table.hand).stacks() == {0: 600, 1: 995, 2: 905}
    play_out(table, clock, fold_to_big_blind)
    assert _stacks(table) == {"ana": 1_100, "bob": 995, "cid": 905}
    assert sum(_stacks(table).values()) == 3_000


def test_a_fixed_limit_level_changes_the_bet_sizes_and_a_bad_level_changes_nothing() -> None:
    table = Table(limit_config())
    table.set_level(Stakes(10, 20))
    assert (table.hand_config.structure.small_bet, table.hand_config.structure.big_bet) == (20, 40)
    with pytest.raises(ValueError, match="uses blinds, not a bring-in"):
        table.set_level(Stakes(0, 20, ante=5, bring_in=10))
    assert table.stakes == Stakes(10, 20)
    with pytest.raises(ValueError, match="an ante or a big-blind ante, not both"):
        Stakes(10, 20, ante=5, big_blind_ante=20)


def test_seat_with_stack_at_a_cash_table_owes_a_big_blind_once_it_plays() -> None:
    table, clock = _three_handed()
    assert table.seat_with_stack("dan", 150, clock.now) == [PlayerMovedIn(3, "dan", 150, "moved")]  # no hand yet
    table.start_hand(decks(3)(), clock.now, button_draw_deck=draw_deck(*BUTTON_TO_SEAT_0, "3c"))
    events = table.seat_with_stack("eve", 40, clock.now, reason="pool")  # below the buy-in: the owner's chips
    assert events == [PlayerMovedIn(4, "eve", 40, "pool"), BlindOwed(4, "eve", small_blind=False, big_blind=True)]
    assert not table.in_hand("eve")


def test_an_owner_table_takes_no_buy_ins_owes_no_blinds_and_keeps_a_busted_player_seated() -> None:
    table, clock = _three_handed(OwnerStacksPolicy("tournament"))
    with pytest.raises(TableRuleError, match="tournament table: its owner seats the players"):
        table.sit("dan", 500, clock.now)
    with pytest.raises(InvalidAmount):
        table.seat_with_stack("dan", -1, clock.now)
    table.start_hand(decks(5)(), clock.now, button_draw_deck=draw_deck(*BUTTON_TO_SEAT_0))
    assert table.seat_with_stack("dan", 700, clock.now) == [PlayerMovedIn(3, "dan", 700, "moved")]
    play_out(table, clock, fold_to_big_blind)
    table.players[1].stack = 0  # as if bob had lost it all
    table.sit_out("cid", clock.now)  # seats held for ever: no deadline to wake a runner for
    assert table.next_deadline() is None
    assert not any(isinstance(event, PlayerSatOut) for event in table.tick(clock.advance(10_000.0)))
    assert table.seat_of("bob") == 1 and table.seat_of("cid") == 2
    assert table.add_chips("bob", 1_000, reason="rebuy") == [ChipsAdded(1, "bob", 1_000, 1_000)]


def test_remove_player_between_hands_and_never_while_he_is_live() -> None:
    table, clock = _three_handed(OwnerStacksPolicy())
    table.start_hand(decks(9)(), clock.now, button_draw_deck=draw_deck(*BUTTON_TO_SEAT_0))
    with pytest.raises(HandInProgress, match="remove him after it"):
        table.remove_player("cid", clock.now)  # the big blind: live
    play_out(table, clock, fold_to_big_blind)
    assert table.remove_player("cid", clock.now, reason="busted") == [PlayerMovedOut(2, "cid", 1_005, "busted")]
    assert table.seat_of("cid") is None and table.free_seats() == [2, 3, 4, 5]


def test_a_folded_player_leaves_with_his_chips_behind_and_the_hand_goes_on() -> None:
    """Fast-fold's seam: ana (button, first to act three-handed) folds at once and is removed with 1000; dan
    takes her seat during the hand and is not dealt in; bob and cid finish it; the chips balance to the chip."""
    table, clock = _three_handed(OwnerStacksPolicy("pool"))
    table.start_hand(decks(11)(), clock.now, button_draw_deck=draw_deck(*BUTTON_TO_SEAT_0))
    table.act("ana", fold_to_big_blind(cast(Hand, table.hand).legal_actions()), clock.advance(1.0))  # type: ignore[arg-type]
    assert table.remove_player("ana", clock.now, reason="pool") == [PlayerMovedOut(0, "ana", 1_000, "pool")]
    table.seat_with_stack("dan", 500, clock.now, seat=0)
    assert not table.in_hand("dan")
    play_out(table, clock, fold_to_big_blind)
    assert _stacks(table) == {"dan": 500, "bob": 995, "cid": 1_005}


def test_a_cash_table_needs_a_minimum_buy_in() -> None:
    with pytest.raises(ValueError, match="a cash table needs a minimum buy-in"):
        Table(no_limit_config(min_buy_in=0, max_buy_in=None))


def test_reconfigure_changes_the_next_hands_settings_and_keeps_the_game() -> None:
    """A host's change between hands: new clocks, straddles and a 10/20 level with a 5 ante; another game is
    refused and nothing changes."""
    from dataclasses import replace

    from engine.clock import ClockSettings
    from engine.hand import HandConfig
    from engine.structures import BettingStructure
    from engine.variants import OMAHA

    table = Table(no_limit_config())
    changed = replace(table.config, small_blind=10, big_blind=20, ante=5, straddle_allowed=True,
                      clock=ClockSettings(action_seconds=12.0))
    assert table.reconfigure(changed) == [LevelChanged(1, 10, 20, 5, 0, 0)]
    assert table.stakes == Stakes(10, 20, ante=5) and table.config.clock.action_seconds == 12.0
    table.sit("ana", 500, 0.0)
    assert table.set_straddle("ana", True)  # allowed now (refused before: TableRuleError)
    other = replace(changed, hand=HandConfig(OMAHA, BettingStructure.pot_limit()))
    with pytest.raises(ValueError, match="keeps its game"):
        table.reconfigure(other)
    assert table.config is changed
