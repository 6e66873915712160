"""A bot's connection drops mid-hand in a host-blind Sit & Go (issue 29 leftover): the hand he drops out of
finishes (folded, or void when too few hold his key), he is dealt in absent from then on (a dead hand, R-TOUR-6)
until he is blinded out, and the others play on to the tournament's winner. Chips are conserved in every hand,
every stored transcript verifies, and the audit is clean."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.fairness_v2.referee import verify_transcript
from engine.fairness_v2.transcript import Timeout, loads
from hosting.bots import next_message, stop_all
from hosting.cli import main
from hosting.client import ConnectionClosed, RoomClient
from hosting.config import RoomConfig
from hosting.server import RunningRoom
from hosting.store import connect as connect_store
from hosting.tournament_bots import TournamentBot
from hosting.transcript_signing import sshsig_verifier
from tests.hosting.test_host_blind_tournament import ENTRANTS, PACED, host_blind_sit_and_go


def _drop_at(client: RoomClient, step: str, hand_number: int) -> asyncio.Event:
    """His client answers everything until the room asks it ``step`` in its ``hand_number``-th hand; then its
    connection closes before it answers (and it never comes back)."""
    dropped = asyncio.Event()
    participant = client.host_blind
    assert participant is not None
    handle = participant.handle
    hands: list[str] = []

    def handle_until_dropped(message: dict[str, Any]) -> list[dict[str, Any]]:
        if dropped.is_set():
            return []
        if message.get("type") == "blind_request" and message.get("step") == "seat" \
                and message.get("hand") not in hands:
            hands.append(str(message.get("hand")))
        if message.get("type") == "blind_request" and message.get("step") == step and len(hands) >= hand_number:
            dropped.set()
            asyncio.get_running_loop().create_task(client.close())
            return []
        return handle(message)

    participant.handle = handle_until_dropped  # type: ignore[method-assign]
    return dropped


def _calls(legal: dict[str, Any], view: Any, rng: random.Random) -> dict[str, Any]:
    """Checks or calls small bets, so that hands see their flop; folds to a big one, shows at a showdown."""
    if legal.get("can_show") or legal.get("can_muck"):
        return {"kind": "show"}
    if legal.get("can_check"):
        return {"kind": "check"}
    return {"kind": "call"} if int(legal.get("call_amount") or 0) <= 100 else {"kind": "fold"}


@pytest.mark.parametrize("step", ["board", "deal"])
async def test_a_bot_that_drops_mid_hand_does_not_stall_a_host_blind_sit_and_go(
        rooms: Callable[..., Any], connect: Callable[..., Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], step: str) -> None:
    data_dir = tmp_path / "room"
    config = RoomConfig("blind tournament room", (), tournaments=(host_blind_sit_and_go(),))
    room: RunningRoom = await rooms(config, runner_settings=PACED, data_dir=data_dir, blind_step_seconds=3.0)
    clients: list[RoomClient] = [await connect(room, f"bot{index}", host_blind=True) for index in range(ENTRANTS)]
    rng = random.Random(7)
    bots = [TournamentBot(f"bot{index}", client, (lambda client=client: next_message(client, 60.0)), "blind",
                          rng=random.Random(rng.random()), chooser=_calls)
            for index, client in enumerate(clients)]
    dropper = clients[1]
    dropped = _drop_at(dropper, step, 2)  # in his second hand, asked to open the flop (or his deal shares)
    for bot in bots:
        await bot.register()
    tasks = [asyncio.ensure_future(bot.play()) for bot in bots]
    stayers = [task for index, task in enumerate(tasks) if index != 1]
    try:
        done, _ = await asyncio.wait(stayers, timeout=400)
        assert len(done) == len(stayers), "the tournament stalled after the drop (see the host's log)"
        for task in done:
            task.result()
    finally:
        await stop_all(tasks)
    assert dropped.is_set()
    with pytest.raises(ConnectionClosed):
        tasks[1].result()
    reports = [bots[0].report, bots[2].report]
    assert all(report.finished for report in reports)
    (winner,) = {report.winner for report in reports}
    assert winner in ("bot0", "bot2")
    await room.close()

    connection = connect_store(data_dir, read_only=True)
    try:
        rows = connection.execute("SELECT result, transcript FROM hands WHERE table_id LIKE 'blind.%'").fetchall()
    finally:
        connection.close()
    timeouts = 0
    for result_text, transcript_text in rows:
        hand = loads(json.dumps(json.loads(transcript_text)["host_blind"]))
        timeouts += sum(isinstance(entry.body, Timeout) for entry in hand.entries)
        violations, outcome = verify_transcript(hand, sshsig_verifier(hand.header.host_key), secrets)
        assert violations == [] and outcome is not None, violations
        start = {record.seat: record.stack for record in hand.header.seats} | \
                {seat.seat: seat.stack for seat in hand.header.absent}
        assert sum(outcome.stacks.values()) == sum(start.values())  # chips conserved in every hand
        result = json.loads(result_text)
        assert {int(seat): amount for seat, amount in result["final"].items()} == outcome.stacks
    if step == "board":  # the hand he dropped out of was under way: it timed him out through its transcript
        assert timeouts >= 1  # (at the deal, a level that went up meanwhile gives that deal up: not stored)
    assert main(["audit", "--data", str(data_dir)]) == 0, capsys.readouterr()
