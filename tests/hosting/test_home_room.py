"""Home-game options in a room over SSH (issue 19): two clients at a Hold'em table with run it twice, rabbit hunt,
a bomb pot every second hand and the 7-2 game. They shove and answer yes, so hands run twice; now and then one
folds and asks for the rabbit. Every client checks every hand's deck, both boards included (R-FAIR-1), and the
rabbit against the published seeds (R-HOME-2); the stored hands export to PokerStars text that `croupier verify`
passes, and `croupier audit` is clean."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from engine.events import BombPotStarted, HandEnded, SecondBoardDealt
from engine.home import HomeOptions
from engine.home.rabbit_hunt import RabbitHuntShown
from hosting.cli import main
from hosting.client import RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings

PACED = RunnerSettings(commit_seconds=3.0, reveal_seconds=3.0, pause_between_hands=1.0)
BUY_IN = 200
HOME = HomeOptions(run_it_twice=True, rabbit_hunt=True, bomb_pot_every=2, bomb_pot_ante=4, seven_deuce_bounty=10)


def _move(legal: dict[str, Any], fold_now: bool) -> dict[str, Any]:
    if legal.get("can_run_twice"):
        return {"kind": "run_it_twice"}
    if legal.get("can_show") or legal.get("can_muck"):
        return {"kind": "show"}
    if fold_now and legal.get("call_amount"):
        return {"kind": "fold"}
    if legal.get("max_raise_to") is not None:
        return {"kind": "all_in"}
    return {"kind": "call"} if legal.get("call_amount") else {"kind": "check"}


async def _play(client: RoomClient, hands: int, done: asyncio.Event) -> dict[str, Any]:
    seen: dict[str, list[str]] = {"second_board": [], "rabbit": [], "bomb": [], "refused": [], "hands": [],
                                  "rabbit_refused": []}
    stack: int | None = None
    seat: int | None = None
    await client.request("sit", table="h1", buy_in=BUY_IN)
    while not done.is_set():
        try:
            message = await client.receive(2.0)
        except TimeoutError:
            continue
        kind = message["type"]
        if kind == "commit_request":
            seat = int(message["seat"])
        elif kind == "action_request":
            fold_now = len(seen["hands"]) % 3 == 1
            await client.send("action", table="h1", hand=message["hand"], **_move(message["legal"], fold_now))
        elif kind == "error" and message.get("in_reply_to") == "rabbit_hunt":
            seen["rabbit_refused"].append(message["message"])  # both ask: the slower one is told it is shown
        elif kind == "error" and message.get("in_reply_to") == "action":
            seen["refused"].append(str(message))
        elif kind == "event":
            body = message["event"]
            if isinstance(body, SecondBoardDealt):
                seen["second_board"].append(message["hand"])
            elif isinstance(body, BombPotStarted):
                seen["bomb"].append(message["hand"])
            elif isinstance(body, RabbitHuntShown):
                seen["rabbit"].append(body.player)
            elif isinstance(body, HandEnded):
                stack = dict(body.stacks).get(seat or 0, stack)
        elif kind == "seeds":
            seen["hands"].append(message["hand"])
            transcript = message["transcript"]
            boards = sum(1 for deal in transcript["deals"] if deal[1] == "board")
            if boards < 5 and len(seen["hands"]) % 3 == 2:  # the hand ended early: hunt its rabbit
                await client.send("rabbit_hunt", table="h1")
            if stack == 0:  # busted: buy again and sit in
                await client.send("top_up", table="h1", amount=BUY_IN)
                await client.send("sit_out", table="h1", on=False)
            if len(seen["hands"]) >= hands:
                done.set()
    await client.request("ping", id=1)  # the verification of the last seeds goes before the pong
    return seen


async def test_two_clients_run_it_twice_hunt_rabbits_and_verify_every_deck(rooms: Any, connect: Any, capsys: Any,
                                                                           tmp_path: Path) -> None:
    table = TableConfig("h1", "Home game", "texas_holdem", "no_limit", 1, 2, 6, 40, BUY_IN, home=HOME)
    running: RunningRoom = await rooms(RoomConfig("home", (table,)), runner_settings=PACED)
    players: list[RoomClient] = [await connect(running, name) for name in ("ana", "bob")]
    done = asyncio.Event()
    reports = await asyncio.wait_for(asyncio.gather(*(_play(client, 7, done) for client in players)), timeout=240)
    assert running.room.drivers["h1"].failure is None  # type: ignore[attr-defined]
    for client, report in zip(players, reports, strict=True):
        assert report["refused"] == [], report["refused"]
        fairness = client.fairness
        assert fairness is not None and fairness.results
        assert {hand: result.violations for (_, hand), result in fairness.results.items() if not result.ok} == {}
        assert fairness.rabbit_problems == []
        assert set(report["rabbit_refused"]) <= {"the rabbit of this hand is already shown"}
    twice = set(reports[0]["second_board"])
    assert twice, "no hand was run twice"
    assert reports[0]["bomb"], "no bomb pot was dealt"
    assert reports[0]["rabbit"] and reports[1]["rabbit"], "nobody hunted a rabbit"
    assert sum(client.fairness.rabbits_checked for client in players if client.fairness is not None) >= 2
    # the stored hands: PokerStars text with both boards, checked by `croupier verify`; the room audits clean
    for client in players:
        await client.request("leave", table="h1")
    store = running.room.store
    assert store is not None
    await store.flush()
    exported = tmp_path / "home.txt"
    capsys.readouterr()
    assert main(["export", "--data", str(running.data_dir), "--format", "pokerstars", "-o", str(exported)]) == 0
    text = exported.read_text()
    assert "*** SECOND FLOP ***" in text or "*** SECOND TURN ***" in text
    assert "Hand was run twice" in text and "FIRST Board [" in text and "SECOND Board [" in text
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()
    status = main(["audit", "--data", str(running.data_dir)])
    assert status == 0, capsys.readouterr()
