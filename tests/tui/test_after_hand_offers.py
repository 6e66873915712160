"""W (rabbit hunt) and S (show after an uncontested win) stay live after the next deal until its first action
(issue 27, cosmetic list: the second between hands was too short). What the room shows for the finished hand
goes to its record and the log, named by its hand — never onto the new hand's board or seats."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.actions import BetOrRaise
from engine.hand import Hand, HandConfig
from engine.home import HomeOptions
from engine.home.rabbit_hunt import RabbitHuntShown, rabbit_cards
from engine.structures import BettingStructure
from engine.table_events import CardsShownAfterWin
from engine.variants import TEXAS_HOLDEM
from hosting.hand_codec import event_to_json, view_bodies
from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, hello, lobby_rows, msg
from tests.tui.test_home_options import BLINDS, HAND, TABLE, deck, folded_hand, table_message
from tests.tui.test_show_or_muck import won_uncontested
from tui.app import CroupierApp
from tui.widgets.felt import BoardView

NEXT_HAND = "holdem-1-2-h0me01-6"


class AnsweringRoom(ReplayConnection):
    """The recorded messages, then the room's answer to each request named in ``answers``."""

    def __init__(self, messages: list[dict[str, Any]], answers: dict[str, dict[str, Any]]) -> None:
        super().__init__(messages)
        self.answers = answers
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send(self, message_type: str, **fields: Any) -> None:
        await super().send(message_type, **fields)
        if message_type in self.answers:
            self.queue.put_nowait(self.answers[message_type])

    async def receive(self) -> dict[str, Any]:
        if self.messages:
            return self.messages.pop(0)
        return await self.queue.get()

    def more(self, *messages: dict[str, Any]) -> None:
        for message in messages:
            self.queue.put_nowait(message)


def next_hand(table: str, hand_id: str, seat: int) -> tuple[Hand, list[dict[str, Any]]]:
    """The next hand dealt (blinds posted, cards dealt, nobody acted yet), as ``seat`` hears it."""
    hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit(), home=HomeOptions(rabbit_hunt=True)),
                      {0: 300, 1: 300, 2: 300}, deck("Qc Jc Tc 9c 8c 7c"), BLINDS)
    messages = [msg("event", table=table, hand=hand_id, event=body) for body in view_bodies(hand.events, seat)]
    return hand, messages


async def front(app: CroupierApp, pilot: Any, ready: Any) -> Any:
    await wait_until(pilot, lambda: TABLE in app.models and ready(app.models[TABLE]), what="the table")
    app.show_table(TABLE)
    await pilot.pause(0.3)
    view = app.view_of(TABLE)
    assert view is not None
    view.focus()
    return view


async def test_w_still_hunts_the_last_hands_rabbit_while_the_next_is_dealt() -> None:
    first, cards = folded_hand()
    hunt = rabbit_cards(TEXAS_HOLDEM, cards, cards_dealt=first.cards_dealt, board=first.board)
    assert hunt is not None
    shown = RabbitHuntShown(1, "me", hunt.streets, hunt.first_position)
    second, dealt = next_hand(TABLE, NEXT_HAND, 1)
    room = AnsweringRoom([hello(), msg("lobby", tables=lobby_rows()),
                          table_message({"rabbit_hunt": True}, first.starting_stacks()),
                          *[msg("event", table=TABLE, hand=HAND, event=body) for body in view_bodies(first.events, 1)],
                          *dealt],
                         {"rabbit_hunt": msg("event", table=TABLE, hand=HAND, event=event_to_json(shown))})

    async def connect() -> AnsweringRoom:
        return room

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await front(app, pilot, lambda model: model.hand_id == NEXT_HAND and model.seats[1].cards)
        model = app.models[TABLE]
        assert not model.hand_over and model.rabbit_available  # dealt, nobody acted: W is live
        await pilot.press("w")
        await wait_until(pilot, lambda: not model.rabbit_available, what="the rabbit shown")
        assert [item for item in app.sent if item["type"] == "rabbit_hunt"] == [{"type": "rabbit_hunt", "table": TABLE}]
        line = next(line for line in model.log if "rabbit hunt" in line)
        assert line.startswith("Hand ") and line.endswith(
            ": rabbit hunt (asked by you), not played: flop 2c 7h 9d; turn 3s; river 4c")
        assert model.rabbit == [] and model.board == []  # the new hand's felt is not the old hand's
        assert "not played" not in view.query_one(BoardView).render().plain
        assert isinstance(model.records[HAND].events[-1], RabbitHuntShown)  # the viewer shows it with its hand
        assert model.seats[1].cards == [str(card) for card in second.hole_cards(1)]  # my new cards, untouched


async def test_the_next_hands_first_action_ends_w() -> None:
    first, _ = folded_hand()
    second, dealt = next_hand(TABLE, NEXT_HAND, 1)
    room = AnsweringRoom([hello(), msg("lobby", tables=lobby_rows()),
                          table_message({"rabbit_hunt": True}, first.starting_stacks()),
                          *[msg("event", table=TABLE, hand=HAND, event=body) for body in view_bodies(first.events, 1)],
                          *dealt], {})

    async def connect() -> AnsweringRoom:
        return room

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await front(app, pilot, lambda model: model.hand_id == NEXT_HAND and model.seats[1].cards)
        model = app.models[TABLE]
        assert model.rabbit_available
        start = len(second.events)
        second.act(2, BetOrRaise(30))  # cid, first to act: the new hand's first action
        room.more(*[msg("event", table=TABLE, hand=NEXT_HAND, event=body)
                    for body in view_bodies(second.events[start:], 1)])
        await wait_until(pilot, lambda: model.seats[2].last_action == "raise", what="the raise")
        assert not model.rabbit_available
        await pilot.press("w")
        await pilot.pause(0.3)
        assert not any(item["type"] == "rabbit_hunt" for item in app.sent)


async def test_s_still_shows_the_won_hands_cards_while_the_next_is_dealt_until_its_first_action() -> None:
    table, won = "holdem-1-2", "holdem-1-2-9a611a-8"
    following = "holdem-1-2-9a611a-9"
    answer = event(table, won, "cards_shown_after_win", seat=1, player="me", cards=["Ah", "Kd"])
    deal = [event(table, following, name, **fields) for name, fields in [
        ("hand_started", {"variant": "texas_holdem", "structure": "no_limit", "button_seat": 1,
                          "stacks": [[0, 199], [1, 201]]}),
        ("blind_posted", {"seat": 1, "kind": "small_blind", "amount": 1, "live": True, "all_in": False}),
        ("blind_posted", {"seat": 0, "kind": "big_blind", "amount": 2, "live": True, "all_in": False}),
        ("hole_cards_dealt", {"seat": 1, "cards": ["7s", "2d"]}),
        ("cards_dealt_face_down", {"seat": 0, "count": 2})]]
    room = AnsweringRoom([hello(), msg("lobby", tables=lobby_rows()), *won_uncontested(), *deal],
                         {"show_cards": answer})

    async def connect() -> AnsweringRoom:
        return room

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await front(app, pilot, lambda model: model.hand_id == following and model.seats[1].cards)
        model = app.models[table]
        assert model.can_show_after_win and model.after_win_cards == ["Ah", "Kd"]
        await pilot.press("s")
        await wait_until(pilot, lambda: not model.can_show_after_win, what="the show answered")
        assert [item["cards"] for item in app.sent if item["type"] == "show_cards"] == [["Ah", "Kd"]]
        assert model.log[-1].startswith("Hand ") and model.log[-1].endswith(": you show Ah Kd")
        assert model.seats[1].cards == ["7s", "2d"]  # the new hand's cards stay mine
        assert isinstance(model.records[won].events[-1], CardsShownAfterWin)


async def test_the_next_hands_first_action_ends_s() -> None:
    table, following = "holdem-1-2", "holdem-1-2-9a611a-9"
    deal = [event(table, following, name, **fields) for name, fields in [
        ("hand_started", {"variant": "texas_holdem", "structure": "no_limit", "button_seat": 1,
                          "stacks": [[0, 199], [1, 201]]}),
        ("blind_posted", {"seat": 1, "kind": "small_blind", "amount": 1, "live": True, "all_in": False}),
        ("blind_posted", {"seat": 0, "kind": "big_blind", "amount": 2, "live": True, "all_in": False}),
        ("hole_cards_dealt", {"seat": 1, "cards": ["7s", "2d"]}),
        ("cards_dealt_face_down", {"seat": 0, "count": 2}),
        ("folded", {"seat": 1, "left_table": False})]]
    room = AnsweringRoom([hello(), msg("lobby", tables=lobby_rows()), *won_uncontested(), *deal], {})

    async def connect() -> AnsweringRoom:
        return room

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await front(app, pilot, lambda model: model.hand_id == following and model.seats[1].folded)
        model = app.models[table]
        assert not model.can_show_after_win
        await pilot.press("s")
        await pilot.pause(0.3)
        assert not any(item["type"] == "show_cards" for item in app.sent)
