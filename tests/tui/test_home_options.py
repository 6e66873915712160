"""Home-game options at the table (issue 19, docs/rules-home.md), driven with Pilot on the engine's own events as
the room sends them to "me": the run-it-twice question (Y / N, only while asked: N stays "next table" otherwise),
both boards on the felt, the rabbit-hunt key and its "not played" cards, the bomb pot announced, the 7-2 bounty in
the log."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from engine.actions import BetOrRaise, Call, Check, Fold, RunItTwice
from engine.cards import parse_cards
from engine.hand import ForcedBets, Hand, HandConfig
from engine.home import HomeOptions
from engine.home.bomb_pot import as_bomb_pot
from engine.home.rabbit_hunt import RabbitHuntShown, rabbit_cards
from engine.structures import BettingStructure
from engine.variants import TEXAS_HOLDEM
from hosting.hand_codec import event_to_json, view_bodies
from tests.tui.helpers import actions_sent, wait_until
from tests.tui.recorded import ReplayConnection, event, hello, lobby_rows, msg
from tests.tui.test_snapshots import replay_app
from tui.app import CroupierApp
from tui.widgets.felt import BoardView

TABLE = "holdem-1-2"
HAND = "holdem-1-2-h0me01-5"
NAMES = ["ana", "me", "cid"]
BLINDS = ForcedBets(button_seat=2, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)


def deck(order: str) -> list[Any]:
    first = list(parse_cards(order))
    return first + [card for card in TEXAS_HOLDEM.deck if card not in first]


def table_message(home: dict[str, Any], stacks: dict[int, int]) -> dict[str, Any]:
    return msg("table", table=TABLE, seats=[
        {"seat": seat, "name": name, "stack": stacks[seat], "sitting_out": False, "away": False,
         "wait_for_big_blind": False} for seat, name in enumerate(NAMES)], max_seats=6, waiting=[],
        hand_running=True, home=home)


def as_sent(hand: Hand, first: int = 0, seat: int = 1) -> list[dict[str, Any]]:
    return [msg("event", table=TABLE, hand=HAND, event=body) for body in view_bodies(hand.events[first:], seat)]


def all_in_hand(options: HomeOptions) -> Hand:
    """R-HOME-1's worked hand: cid shoves, ana and me call; me is the big blind (seat 1)."""
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), home=options),
                      {0: 301, 1: 1000, 2: 1000}, deck("As Ks Qs Ad Kd Qd 2c 7h 9d 3s 4c Qh 8c 5d Jh 2s"), BLINDS)
    hand.act(2, BetOrRaise(1000))
    hand.act(0, Call())
    hand.act(1, Call())
    hand.act(0, RunItTwice(True))
    return hand


def asked_messages(hand: Hand) -> list[dict[str, Any]]:
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.can_run_twice
    body = dataclasses.asdict(legal)
    return [hello(), msg("lobby", tables=lobby_rows()), table_message({"run_it_twice": True}, hand.starting_stacks()),
            *as_sent(hand),
            event(TABLE, HAND, "turn_started", seat=1, player="me", started_at=100.0, deadline=120.0),
            msg("action_request", table=TABLE, hand=HAND, seat=1, legal=body, deadline=20.0)]


async def shown_when_asked(app: Any, pilot: Any) -> Any:
    """The table in front once the room asks me the run-it-twice question: its view."""
    await wait_until(pilot, lambda: TABLE in app.models and app.models[TABLE].needs_action, what="asked")
    app.show_table(TABLE)
    await pilot.pause(0.3)
    view = app.view_of(TABLE)
    assert view is not None
    return view


async def test_y_answers_the_run_it_twice_question_and_the_bar_offers_only_the_two_answers() -> None:
    app = replay_app(asked_messages(all_in_hand(HomeOptions(run_it_twice=True))))
    async with app.run_test(size=(120, 36)) as pilot:
        view = await shown_when_asked(app, pilot)
        assert not view.query_one("#run-twice").has_class("-hidden")
        assert not view.query_one("#run-once").has_class("-hidden")
        assert view.query_one("#fold").disabled and view.query_one("#raise").disabled
        model = app.models[TABLE]
        assert model.run_twice == "asked" and any("run it twice?" in line for line in model.log)
        assert any(line == "ana says yes to running it twice" for line in model.log)
        view.focus()
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(actions_sent(app)), what="the answer sent")
        assert actions_sent(app)[-1] == {"type": "action", "table": TABLE, "hand": HAND, "kind": "run_it_twice"}


async def test_n_answers_no_while_asked() -> None:
    app = replay_app(asked_messages(all_in_hand(HomeOptions(run_it_twice=True))))
    async with app.run_test(size=(120, 36)) as pilot:
        view = await shown_when_asked(app, pilot)
        view.focus()
        await pilot.press("n")
        await wait_until(pilot, lambda: bool(actions_sent(app)), what="the answer sent")
        assert actions_sent(app)[-1]["kind"] == "run_it_once"


async def test_both_boards_are_on_the_felt_and_each_half_in_the_log() -> None:
    hand = all_in_hand(HomeOptions(run_it_twice=True))
    hand.act(1, RunItTwice(True))
    hand.act(2, RunItTwice(True))
    messages = [hello(), msg("lobby", tables=lobby_rows()), table_message({"run_it_twice": True},
                                                                          hand.starting_stacks()), *as_sent(hand)]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: TABLE in app.models and app.models[TABLE].hand_over, what="the hand")
        app.show_table(TABLE)
        await pilot.pause(0.3)
        model = app.models[TABLE]
        assert model.board == ["2c", "7h", "9d", "3s", "4c"]
        assert model.second_board == ["Qh", "8c", "5d", "Jh", "2s"]
        assert "Running it twice: two boards, each pot halved" in model.log
        assert "Second board river: Qh 8c 5d Jh 2s" in model.log
        assert "ana wins 452 from the main pot on the first board with pair of aces" in model.log
        assert "cid wins 451 from the main pot on the second board with three queens" in model.log
        assert {seat: info.stack for seat, info in model.seats.items()} == {0: 452, 1: 699, 2: 1150}
        view = app.view_of(TABLE)
        assert view is not None
        shown = view.query_one(BoardView).render().plain
        assert "1st 2♣ 7♥ 9♦ 3♠ 4♣" in shown and "2nd Q♥ 8♣ 5♦ J♥ 2♠" in shown


def folded_hand() -> tuple[Hand, list[Any]]:
    cards = deck("As Ks Qs Ad Kd Qd 2c 7h 9d 3s 4c")
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), home=HomeOptions(rabbit_hunt=True)),
                      {0: 300, 1: 300, 2: 300}, cards, BLINDS)
    hand.act(2, BetOrRaise(30))
    hand.act(0, Fold())
    hand.act(1, Fold())
    return hand, cards


class RabbitRoom(ReplayConnection):
    """The recorded messages, then the room's answer to a ``rabbit_hunt``: the engine's event to the table."""

    def __init__(self, messages: list[dict[str, Any]], answer: dict[str, Any]) -> None:
        super().__init__(messages)
        self.answer = answer
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send(self, message_type: str, **fields: Any) -> None:
        await super().send(message_type, **fields)
        if message_type == "rabbit_hunt":
            self.queue.put_nowait(self.answer)

    async def receive(self) -> dict[str, Any]:
        if self.messages:
            return self.messages.pop(0)
        return await self.queue.get()


async def test_w_hunts_the_rabbit_after_a_hand_that_ended_early_and_it_shows_as_not_played() -> None:
    hand, cards = folded_hand()
    messages = [hello(), msg("lobby", tables=lobby_rows()), table_message({"rabbit_hunt": True},
                                                                          hand.starting_stacks()), *as_sent(hand)]
    hunt = rabbit_cards(TEXAS_HOLDEM, cards, cards_dealt=hand.cards_dealt, board=hand.board)
    assert hunt is not None
    shown = RabbitHuntShown(1, "me", hunt.streets, hunt.first_position)
    room = RabbitRoom(messages, msg("event", table=TABLE, hand="", event=event_to_json(shown)))

    async def connect() -> RabbitRoom:
        return room

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: TABLE in app.models and app.models[TABLE].hand_over, what="the hand")
        app.show_table(TABLE)
        await pilot.pause(0.3)
        model = app.models[TABLE]
        assert model.rabbit_available
        view = app.view_of(TABLE)
        assert view is not None
        view.focus()
        await pilot.press("w")
        await wait_until(pilot, lambda: any(item["type"] == "rabbit_hunt" for item in app.sent), what="the ask")
        assert [item for item in app.sent if item["type"] == "rabbit_hunt"] == [{"type": "rabbit_hunt",
                                                                                 "table": TABLE}]
        # the room shows it to the table (RabbitRoom answers with the engine's event)
        await wait_until(pilot, lambda: bool(model.rabbit), what="the rabbit")
        assert model.rabbit == ["2c", "7h", "9d", "3s", "4c"] and not model.rabbit_available
        assert "Rabbit hunt (asked by you), not played: flop 2c 7h 9d; turn 3s; river 4c" in model.log
        await pilot.pause(0.2)
        assert "rabbit, not played: 2♣ 7♥ 9♦ 3♠ 4♣" in view.query_one(BoardView).render().plain


async def test_the_rabbit_key_does_nothing_at_a_table_without_the_option() -> None:
    hand, _ = folded_hand()
    messages = [hello(), msg("lobby", tables=lobby_rows()), table_message({}, hand.starting_stacks()),
                *as_sent(hand)]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: TABLE in app.models and app.models[TABLE].hand_over, what="the hand")
        app.show_table(TABLE)
        await pilot.pause(0.3)
        assert not app.models[TABLE].rabbit_available
        view = app.view_of(TABLE)
        assert view is not None
        view.focus()
        await pilot.press("w")
        await pilot.press("n")  # not asked to run it twice: N is the app's "next table", no answer is sent
        await pilot.pause(0.3)
        assert not any(item["type"] == "rabbit_hunt" for item in app.sent) and not actions_sent(app)


async def test_a_bomb_pot_is_announced_and_a_seven_deuce_bounty_is_in_the_log() -> None:
    plan = as_bomb_pot(BLINDS, hand_number=5, every=5, ante=20)
    options = HomeOptions(bomb_pot_every=5, bomb_pot_ante=20, seven_deuce_bounty=10)
    # me (seat 1) holds 7-2 and bets the flop; everyone folds: the 7-2 is shown and collects 10 from each
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), home=options),
                      {0: 300, 1: 300, 2: 300}, deck("Ah 7c Kd As 2d Ks 3h 8h 9s"), plan)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0  # no preflop round: seat 0, left of the button, opens the flop
    hand.act(0, Check())
    hand.act(1, BetOrRaise(40))
    hand.act(2, Fold())
    hand.act(0, Fold())
    messages = [hello(), msg("lobby", tables=lobby_rows()),
                table_message({"bomb_pot_every": 5, "bomb_pot_ante": 20, "seven_deuce_bounty": 10},
                              hand.starting_stacks()), *as_sent(hand)]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: TABLE in app.models and app.models[TABLE].hand_over, what="the hand")
        model = app.models[TABLE]
        assert "Bomb pot: everyone antes 20, no preflop betting, straight to the flop" in model.log
        assert model.bomb_pot == 20
        assert "You show 7c 2d" in model.log
        assert "You collect the 7-2 bounty: 20 (cid 10, ana 10)" in model.log
        # 300 - 20 ante + the 60 pot + 20 bounty; the others 300 - 20 - 10
        assert {seat: info.stack for seat, info in model.seats.items()} == {0: 270, 1: 360, 2: 270}
