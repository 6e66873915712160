"""A mixed table in a room over SSH (R-MIX-1..3): HORSE every two hands, three bot clients. The game changes at
the right hands (3: Omaha hi/lo, 5: razz, 7: stud), each announced with its typed event, a notice and the table
message's ``mixed`` field; every client verifies every hand's deck across the changes (R-FAIR-1); chips are
conserved (`croupier audit` clean); the host picks a game with `game`; dealer's choice asks the button and deals the
next in turn when his time runs out."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from engine.events import HandStarted
from engine.table_events import GameChanged
from hosting import bots
from hosting.cli import main
from hosting.client import RoomClient
from hosting.config import RoomConfig, parse_room
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.waiting import until

PACED = RunnerSettings(commit_seconds=3.0, reveal_seconds=3.0, pause_between_hands=0.2)


def _horse(**keys: str) -> RoomConfig:
    extra = "".join(f"{key} = {value}\n" for key, value in keys.items())
    return parse_room(f'[room]\nname = "mixed"\n[[tables]]\nid = "horse"\ngames = "horse"\nstakes = [2, 4]\n'
                      f"buy_in = [100, 400]\n{extra}")


def _hand_number(hand_id: str) -> int:
    return int(hand_id.rsplit("-", 1)[1])


def _games_by_hand(client: RoomClient) -> dict[int, str]:
    return {_hand_number(message["hand"]): message["event"].variant for message in client.received
            if message["type"] == "event" and isinstance(message["event"], HandStarted)}


async def test_horse_every_two_hands_changes_game_at_the_right_hands_and_every_deck_verifies(
        rooms: Any, connect: Any, capsys: Any, tmp_path: Path) -> None:
    running: RunningRoom = await rooms(_horse(every="2"), runner_settings=PACED)
    clients: list[RoomClient] = [await connect(running, name) for name in ("ana", "bob", "cy")]
    done = asyncio.Event()
    reports = await asyncio.wait_for(asyncio.gather(*(
        bots.play(client, "horse", 8, random.Random(index), buy_in=400, done=done)
        for index, client in enumerate(clients))), timeout=400)
    assert running.room.drivers["horse"].failure is None  # type: ignore[attr-defined]
    games = _games_by_hand(clients[0])
    assert [games[hand] for hand in range(1, 9)] == [
        "texas_holdem", "texas_holdem", "omaha_hi_lo", "omaha_hi_lo", "razz", "razz", "seven_card_stud",
        "seven_card_stud"]
    changes = [(message["event"].from_hand, message["event"].game) for message in clients[0].received
               if message["type"] == "event" and isinstance(message["event"], GameChanged)]
    assert changes[:3] == [(3, "omaha_hi_lo"), (5, "razz"), (7, "seven_card_stud")]
    notices = [message["text"] for message in clients[0].received if message["type"] == "notice"]
    assert "From hand 5: Razz (ante 0, bring-in 1, limits 4/8) for 2 hands. Next: 7-card Stud." in notices
    mixed = [message.get("mixed") for message in clients[0].received if message["type"] == "table"]
    assert {"name": "HORSE", "game": "Razz", "next": "7-card Stud", "hands_left": None} \
        .items() <= next(item for item in mixed if item and item["game"] == "Razz").items()
    for client, report in zip(clients, reports, strict=True):
        assert report.failures == 0 and report.illegal_rejected == 0, report
        fairness = client.fairness
        assert fairness is not None
        verified = {_hand_number(hand) for (_, hand), result in fairness.results.items() if result.ok}
        assert not [result for result in fairness.results.values() if not result.ok]
        assert set(range(1, 8)) <= verified  # every hand it played, across three changes of game
    store = running.room.store
    assert store is not None
    await store.flush()
    capsys.readouterr()
    assert main(["audit", "--data", str(running.data_dir)]) == 0, capsys.readouterr()  # chips conserved
    exported = tmp_path / "horse.txt"  # each hand exported as its own game, its deal checked offline too
    assert main(["export", "--data", str(running.data_dir), "--format", "pokerstars", "-o", str(exported)]) == 0
    text = exported.read_text()
    assert "Hold'em Limit" in text and "Omaha Hi/Lo Limit" in text and "Razz Limit" in text, text[:300]
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()


async def test_dealers_choice_asks_the_button_and_deals_the_next_in_turn_when_his_time_runs_out(
        rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_horse(every="1", choice='"button"', choice_seconds="5"),
                                       runner_settings=PACED)
    clients: list[RoomClient] = [await connect(running, name) for name in ("ana", "bob")]
    done = asyncio.Event()
    play = [asyncio.create_task(bots.play(client, "horse", 3, random.Random(index), buy_in=400, done=done))
            for index, client in enumerate(clients)]
    table = running.room.tables["horse"]
    mixed = running.room.cash.mixed.tables["horse"]
    await until(lambda: mixed.chooser is not None, what="the button asked to pick", quiet=90)  # after hand 1
    chooser = next(client for client in clients if client.hello.get("name") == mixed.chooser)
    picker = mixed.chooser
    asked = await until(lambda: [message for message in chooser.received if message["type"] == "table"
                                 and (message.get("mixed") or {}).get("chooser") == picker],
                        what="the table message saying whose pick it is", quiet=90)
    assert asked[-1]["mixed"]["deadline_seconds"] == 5
    other = next(client for client in clients if client is not chooser)  # their bots read the replies: the
    await other.send("choose_game", table="horse", game="razz")  # test reads what they received
    await chooser.send("choose_game", table="horse", game="razz")
    await until(lambda: [message for message in chooser.received if message["type"] == "ack"
                         and message.get("in_reply_to") == "choose_game"], what="the pick taken", quiet=90)
    assert [message["game"] for message in chooser.received if message.get("in_reply_to") == "choose_game"] == ["Razz"]
    assert [message["message"] for message in other.received if message.get("in_reply_to") == "choose_game"] == [
        "it is not your pick: the player on the button picks the game when the one being dealt is over"]
    await until(lambda: table.config.game == "razz", what="razz dealt next", quiet=90)
    # the next pick: nobody answers; after its 5 s the next game in turn (7-card stud, after razz) is dealt
    await until(lambda: table.config.game == "seven_card_stud", what="the next in turn after the time out",
                quiet=90)
    done.set()
    await asyncio.wait_for(asyncio.gather(*play), timeout=120)


async def test_the_host_picks_the_game_from_the_admin_socket(rooms: Any, connect: Any, capsys: Any) -> None:
    running: RunningRoom = await rooms(_horse(choice='"host"'), runner_settings=PACED)
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["admin", "--data", str(running.data_dir), "game", "horse", "4"]) == 0
    assert "horse deals 7-card Stud from the next hand (now)" in capsys.readouterr().out
    table = running.room.tables["horse"]
    assert (table.config.game, table.engine.config.hand.variant.id, table.engine.stakes.bring_in) == \
        ("seven_card_stud", "seven_card_stud", 1)
    assert await asyncio.to_thread(main, ["admin", "--data", str(running.data_dir), "game", "horse", "badugi"]) == 1
    assert "horse has no game 'badugi'; its games: 1 Limit Hold'em" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["admin", "--data", str(running.data_dir), "level", "horse", "--blinds",
                                           "5/10"]) == 1
    assert "horse is a mixed table" in capsys.readouterr().err
