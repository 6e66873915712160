"""Show or muck at showdown (issue 14; R-SHOW-1: a player who cannot win may muck, the client can auto-muck):
a table option asks each player in showdown order, on the action clock (out of time: the hand is shown), and
each player's auto-muck setting mucks his hands that cannot win without asking."""

from __future__ import annotations

from dataclasses import replace

from engine.actions import Muck, Show
from engine.events import HandMucked, HandShown, PotAwarded
from engine.table import Table
from engine.table_events import PlayerSettingChanged, TimedOut, TurnStarted
from tests.engine.table_helpers import FakeClock, decks, draw_deck, no_limit_config, passive


def _table(manual: bool) -> tuple[Table, FakeClock]:
    config = no_limit_config(3)
    config = replace(config, hand=replace(config.hand, manual_showdown=manual))
    table, clock = Table(config), FakeClock()
    for name in ("ana", "bob", "cy"):
        table.sit(name, 500, clock.now)
    return table, clock


def _to_showdown(table: Table, clock: FakeClock) -> list[object]:
    """Check or call every betting decision; stop at the first showdown decision (or the hand's end)."""
    events: list[object] = list(table.start_hand(decks(3)(), clock.now, button_draw_deck=draw_deck("As 2c 3c")))
    while table.hand is not None:
        options = table.hand.legal_actions()
        assert options is not None
        if options.can_show:
            break
        events += table.act(table.players[options.seat].player, passive(options), clock.advance(1.0))
    return events


def test_manual_showdown_asks_each_player_on_the_clock() -> None:
    table, clock = _table(manual=True)
    events = _to_showdown(table, clock)
    assert table.hand is not None
    options = table.hand.legal_actions()
    assert options is not None and options.can_show and options.can_muck
    turn = table.to_act()
    assert turn is not None and turn[0] == options.seat and turn[1] > clock.now  # a clock runs at the decision
    assert isinstance(events[-1], TurnStarted) and events[-1].seat == options.seat
    first = table.players[options.seat].player
    shown = table.act(first, Show(), clock.advance(1.0))
    assert [event.seat for event in shown if isinstance(event, HandShown)] == [options.seat]
    second = table.hand.legal_actions() if table.hand is not None else None
    assert second is not None and second.can_muck
    mucked = table.act(table.players[second.seat].player, Muck(), clock.advance(1.0))
    assert [event.seat for event in mucked if isinstance(event, HandMucked)] == [second.seat]
    third = table.hand.legal_actions() if table.hand is not None else None
    assert third is not None
    deadline = table.to_act()
    assert deadline is not None
    timed_out = table.tick(deadline[1] + 0.1)  # out of time at the showdown: his hand is shown, never lost
    assert [event.action for event in timed_out if isinstance(event, TimedOut)] == ["show"]
    assert [event.seat for event in timed_out if isinstance(event, HandShown)] == [third.seat]
    assert table.hand is None and any(isinstance(event, PotAwarded) for event in timed_out)


def test_an_automatic_showdown_asks_nobody() -> None:
    table, clock = _table(manual=False)
    events = _to_showdown(table, clock)
    assert table.hand is None
    assert len([event for event in events if isinstance(event, HandShown)]) >= 2


def test_auto_muck_mucks_a_hand_that_cannot_win_without_asking() -> None:
    table, clock = _table(manual=True)
    for name in ("ana", "bob", "cy"):
        assert table.set_auto_muck(name, True) == [PlayerSettingChanged(table.seat_of(name) or 0, name, "auto_muck",
                                                                        "true")]
    events = _to_showdown(table, clock)
    # the first in order still decides (nothing shown yet: he can win); after his show the beaten hands muck
    while table.hand is not None:
        options = table.hand.legal_actions()
        assert options is not None
        events += table.act(table.players[options.seat].player, Show(), clock.advance(1.0))
    shown = [event.seat for event in events if isinstance(event, HandShown)]
    mucked = [event.seat for event in events if isinstance(event, HandMucked)]
    winners = {event.seat for event in events if isinstance(event, PotAwarded)}
    assert mucked and not winners & set(mucked) and len(shown) + len(mucked) == 3


def test_the_uncontested_winner_may_show_one_card_or_his_hand_once_before_the_next_deal() -> None:
    import pytest

    from engine.errors import TableRuleError
    from engine.events import PotAwarded as Awarded
    from engine.table_events import CardsShownAfterWin
    from tests.engine.table_helpers import fold_to_big_blind, play_out

    table, clock = _table(manual=False)
    events = list(table.start_hand(decks(5)(), clock.now, button_draw_deck=draw_deck("As 2c 3c")))
    events += play_out(table, clock, fold_to_big_blind)
    assert not any(isinstance(event, HandShown) for event in events)  # R-SHOW-2: never shown unasked
    (winner,) = {event.seat for event in events if isinstance(event, Awarded)}
    name = table.players[winner].player
    loser = next(seated.player for seated in table.players.values() if seated.seat != winner)
    hole = next(event.cards for event in events if getattr(event, "seat", None) == winner and
                type(event).__name__ == "HoleCardsDealt")
    with pytest.raises(TableRuleError, match="won the last hand without a showdown"):
        table.show_after_win(loser, hole[:1])
    with pytest.raises(TableRuleError, match="one of your cards or all of them"):
        table.show_after_win(name, [card for card in decks(9)() if card not in hole][:1])
    assert table.show_after_win(name, hole[:1]) == [CardsShownAfterWin(winner, name, hole[:1])]
    with pytest.raises(TableRuleError):  # once
        table.show_after_win(name, hole)


def test_a_shown_down_hand_has_nothing_to_show_after() -> None:
    import pytest

    from engine.errors import TableRuleError

    table, clock = _table(manual=False)
    _to_showdown(table, clock)
    with pytest.raises(TableRuleError):
        table.show_after_win("ana", [])


def test_the_uncontested_winner_may_still_show_after_the_next_deal_until_its_first_action() -> None:
    """Issue 27: the show lasted the second between hands. It stays through the next deal and ends with the new
    hand's first action (a fold, a check, a bet: anyone's)."""
    import pytest

    from engine.errors import TableRuleError
    from engine.events import HoleCardsDealt
    from engine.events import PotAwarded as Awarded
    from engine.table_events import CardsShownAfterWin
    from tests.engine.table_helpers import fold_to_big_blind, play_out

    for show_before_action in (True, False):
        table, clock = _table(manual=False)
        events = list(table.start_hand(decks(5)(), clock.now, button_draw_deck=draw_deck("As 2c 3c")))
        events += play_out(table, clock, fold_to_big_blind)
        (winner,) = {event.seat for event in events if isinstance(event, Awarded)}
        name = table.players[winner].player
        hole = next(event.cards for event in events if isinstance(event, HoleCardsDealt) and event.seat == winner)
        table.start_hand(decks(6)(), clock.advance(1.0))  # the next deal
        assert table.hand is not None
        if show_before_action:
            assert table.show_after_win(name, hole) == [CardsShownAfterWin(winner, name, hole)]
            continue
        options = table.hand.legal_actions()
        assert options is not None
        table.act(table.players[options.seat].player, fold_to_big_blind(options), clock.advance(1.0))
        with pytest.raises(TableRuleError, match="first action"):
            table.show_after_win(name, hole)
