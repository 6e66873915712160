"""Rabbit hunt and show-after-win over the wire (issue 27, cosmetic list): both lasted the second between hands,
too short to decide and press a key. The room takes them until the next hand's first action — through its
shuffle and deal — and tags what they show with the finished hand's id, not the one being dealt; the clients
check the rabbit against that hand's seeds. After the first action both are refused in words."""

from __future__ import annotations

from typing import Any

import pytest

from engine.events import Folded, HandStarted, HoleCardsDealt
from engine.home import HomeOptions
from engine.home.rabbit_hunt import RabbitHuntShown
from engine.table_events import CardsShownAfterWin
from hosting.client import RequestRefused, RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings

PACED = RunnerSettings(commit_seconds=30.0, reveal_seconds=30.0, pause_between_hands=0.2)
WAIT = 120.0  # a guard, not a pace: every wait below ends as soon as its message comes


def _event(kind: type[Any], hand: str | None = None) -> Any:
    return lambda message: isinstance(message["event"], kind) and (hand is None or message["hand"] == hand)


async def _to_act(running: RunningRoom, players: dict[str, RoomClient], hand: str) -> str:
    """Who the table asks to act first in ``hand`` (his action request comes to him)."""
    engine = running.room.tables["h1"].engine
    turn = engine.to_act()
    assert turn is not None
    name = engine.players[turn[0]].player
    await players[name].wait_for("action_request", timeout=WAIT, where=lambda message: message["hand"] == hand)
    return name


async def test_the_rabbit_and_the_winners_show_are_taken_after_the_next_deal_until_its_first_action(
        rooms: Any, connect: Any) -> None:
    table = TableConfig("h1", "Home game", "texas_holdem", "no_limit", 1, 2, 2, 40, 200,
                        home=HomeOptions(rabbit_hunt=True))
    running: RunningRoom = await rooms(RoomConfig("home", (table,)), runner_settings=PACED, served_tui=False)
    ana: RoomClient = await connect(running, "ana")
    bob: RoomClient = await connect(running, "bob")
    players = {"ana": ana, "bob": bob}
    await ana.request("sit", table="h1", buy_in=200)
    await bob.request("sit", table="h1", buy_in=200)
    holes: dict[str, tuple[Any, ...]] = {}
    for name, client in players.items():
        dealt = await client.wait_for("event", timeout=WAIT, where=_event(HoleCardsDealt))
        holes[name] = dealt["event"].cards
    first_hand = dealt["hand"]
    folder_name = await _to_act(running, players, first_hand)
    winner_name = "bob" if folder_name == "ana" else "ana"
    folder, winner = players[folder_name], players[winner_name]
    await folder.send("action", table="h1", hand=first_hand, kind="fold")
    await winner.wait_for("event", timeout=WAIT, where=_event(Folded, first_hand))

    # the next hand is shuffled and dealt; nobody acts in it yet
    started = await winner.wait_for("event", timeout=WAIT,
                                    where=lambda message: isinstance(message["event"], HandStarted)
                                    and message["hand"] != first_hand)
    second_hand = started["hand"]
    await folder.request("rabbit_hunt", table="h1", timeout=WAIT)
    rabbit = await winner.wait_for("event", timeout=WAIT, where=_event(RabbitHuntShown))
    assert rabbit["hand"] == first_hand  # the finished hand's, not the one being dealt
    assert [card for _, cards in rabbit["event"].streets for card in cards] and rabbit["event"].first_position == 4
    shown_cards = [str(card) for card in holes[winner_name]]
    await winner.request("show_cards", table="h1", cards=shown_cards, timeout=WAIT)
    shown = await folder.wait_for("event", timeout=WAIT, where=_event(CardsShownAfterWin))
    assert shown["hand"] == first_hand and [str(card) for card in shown["event"].cards] == shown_cards

    # the new hand's first action ends both offers
    for client in players.values():
        await client.request("ping", id=1, timeout=WAIT)  # every message above is in
    engine = running.room.tables["h1"].engine  # the action request went by with the pings: the table says whose
    turn, legal = engine.to_act(), engine.hand.legal_actions() if engine.hand is not None else None
    assert turn is not None and legal is not None
    await players[engine.players[turn[0]].player].send("action", table="h1", hand=second_hand,
                                                       kind="check" if legal.can_check else "call")
    await folder.wait_for("event", timeout=WAIT,
                          where=lambda message: message["hand"] == second_hand
                          and type(message["event"]).__name__ in ("Called", "Checked"))
    with pytest.raises(RequestRefused) as refused:
        await folder.request("rabbit_hunt", table="h1", timeout=WAIT)
    assert "no rabbit to hunt" in refused.value.reply["message"]
    with pytest.raises(RequestRefused) as refused:
        await winner.request("show_cards", table="h1", cards=shown_cards, timeout=WAIT)
    assert "first action" in refused.value.reply["message"]
    for client in players.values():
        fairness = client.fairness
        assert fairness is not None
        assert fairness.rabbits_checked == 1 and fairness.rabbit_problems == []
