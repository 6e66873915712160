"""Four clients play 2-7 triple draw over SSH, every one throwing all five cards at every draw: the 32-card stub
runs out on the second draw of every hand, so the discards are reshuffled (R-DRAW-1). Each client checks every
card it was dealt, reshuffled ones included, against the published transcript (R-FAIR-1), and
``croupier audit`` replays the stored hands' reshuffles clean."""

from __future__ import annotations

import asyncio
import os
from collections import defaultdict
from typing import Any

from engine.events import DrawnCardsDealt, HoleCardsDealt
from engine.fairness import Transcript
from hosting.cli import main
from hosting.client import RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from tests.waiting import until

FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.02)
BUY_IN = 400


def _move(legal: dict[str, Any], mine: list[str]) -> dict[str, Any]:
    """Show at showdown, throw every card at a draw, else check or call: every hand reaches all three draws."""
    if legal.get("can_show") or legal.get("can_muck"):
        return {"kind": "show" if legal.get("can_show") else "muck"}
    if legal.get("max_discards"):
        return {"kind": "draw", "discard": mine[:int(legal["max_discards"])]}
    if legal.get("can_check"):
        return {"kind": "check"}
    return {"kind": "call"}


async def _play(client: RoomClient, hands: int, done: asyncio.Event) -> dict[str, Any]:
    mine: dict[str, list[str]] = defaultdict(list)
    finished: list[str] = []
    transcripts: dict[str, dict[str, Any]] = {}
    refused: list[dict[str, Any]] = []
    await client.request("sit", table="d1", buy_in=BUY_IN)
    while not done.is_set():
        try:
            message = await client.receive(2.0)
        except TimeoutError:
            continue
        if message["type"] == "action_request":
            await client.send("action", table="d1", hand=message["hand"], **_move(message["legal"],
                                                                                     mine[message["hand"]]))
        elif message["type"] == "error" and message.get("in_reply_to") == "action":
            refused.append(message)
        elif message["type"] == "seeds":
            transcripts[message["hand"]] = message["transcript"]
            finished.append(message["hand"])
            if len(finished) >= hands:
                done.set()
        elif message["type"] == "event":
            body, hand = message["event"], message["hand"]
            if isinstance(body, HoleCardsDealt):
                mine[hand] = [str(card) for card in body.cards]
            elif isinstance(body, DrawnCardsDealt):
                thrown = [str(card) for card in body.discarded]
                mine[hand] = [card for card in mine[hand] if card not in thrown] + [str(card) for card in body.cards]
    await client.request("ping", id=1)  # the verification of the last seeds is sent before the pong
    return {"finished": finished, "transcripts": transcripts, "refused": refused}


async def test_four_clients_check_every_reshuffled_card_of_triple_draw(rooms: Any, connect: Any,
                                                                      capsys: Any) -> None:
    hands = int(os.environ.get("CROUPIER_RESHUFFLE_HANDS", "3"))
    table = TableConfig("d1", "Triple draw", "deuce_to_seven_triple_draw", "fixed_limit", 2, 4, 4, 40, BUY_IN)
    running: RunningRoom = await rooms(RoomConfig("draws", (table,)), runner_settings=FAST)
    watcher: RoomClient = await connect(running, "rail")  # watches from before the first hand
    await watcher.request("watch", table="d1")
    players: list[RoomClient] = [await connect(running, f"d{index}") for index in range(4)]
    done = asyncio.Event()
    reports = await asyncio.wait_for(asyncio.gather(*(_play(client, hands, done) for client in players)),
                                     timeout=120)
    assert running.room.drivers["d1"].failure is None  # type: ignore[attr-defined]
    verified_hands: set[str] = set()
    for client, report in zip(players, reports, strict=True):
        assert report["refused"] == []
        fairness = client.fairness
        assert fairness is not None
        failures = {hand: result.violations for (_, hand), result in fairness.results.items() if not result.ok}
        assert failures == {}
        verified_hands |= {hand for (_, hand) in fairness.results}
        # each client replayed at least one reshuffle and checked reshuffled cards of its own
        assert fairness.reshuffles_checked >= 1 and fairness.reshuffled_cards_checked >= 1
    assert len(verified_hands) >= hands
    # the watcher saw no hidden card, but replayed every reshuffle from the published discards and counts
    await watcher.request("ping", id=2)
    assert watcher.fairness is not None
    assert watcher.fairness.results and all(result.ok for result in watcher.fairness.results.values())
    assert watcher.fairness.reshuffles_checked >= len(verified_hands) - 1
    assert watcher.fairness.reshuffled_cards_checked == 0
    # every hand dealt with four players reshuffled: 20 dealt, a 32-card stub, 60 replacements
    reshuffled = [Transcript.from_json(data) for data in reports[0]["transcripts"].values()]
    four_handed = [transcript for transcript in reshuffled if len({deal.recipient for deal in transcript.deals}) == 4]
    assert four_handed and all(transcript.reshuffles for transcript in four_handed)
    for transcript in four_handed:
        assert sum(len(record.deals) for record in transcript.reshuffles) == 20 + 60 - 52
    checked = sum(client.fairness.reshuffles_checked for client in players if client.fairness is not None)
    assert checked >= 4 * len(four_handed)

    # chips: everyone leaves, the table is empty and the stored room audits clean, reshuffles replayed
    for client in players:
        await client.request("leave", table="d1")
    engine_table = running.room.tables["d1"].engine
    await until(lambda: not engine_table.hand_running and not engine_table.players, "the table empty, no hand running")
    assert not engine_table.players
    store = running.room.store
    assert store is not None
    await store.flush()
    capsys.readouterr()
    status = main(["audit", "--data", str(running.data_dir)])
    captured = capsys.readouterr()
    assert (status, captured.out) == (0, ""), captured.out
    assert "; clean; " in captured.err and " reshuffle(s) in " in captured.err
    cards = sum(client.fairness.reshuffled_cards_checked for client in players if client.fairness is not None)
    assert cards >= 4 * len(four_handed)  # every four-handed hand dealt each player reshuffled cards, all checked
