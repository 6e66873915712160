"""Host-blind dealing beyond no-limit hold'em (issue 29): a fixed-limit hold'em table and a pot-limit Omaha table,
bots over SSH taking part in the dealing. Omaha's four hole cards are laid out one at a time round the table like
hold'em's two; each client opens its own four, every hand verifies offline with the table's result, and the
export verifies with ``croupier verify``."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.fairness_v2.referee import verify_transcript
from hosting.cli import main
from hosting.config import RoomConfig, TableConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings
from hosting.transcript_signing import sshsig_verifier

PACED = RunnerSettings(commit_seconds=3.0, reveal_seconds=3.0, pause_between_hands=0.05)
CLOCK = {"action_seconds": 30.0, "time_bank_seconds": 30.0}


@pytest.mark.parametrize(("game", "structure", "header"), [
    ("texas_holdem", "fixed_limit", ("holdem", "fixed-limit")),
    ("omaha", "pot_limit", ("omaha", "pot-limit")),
])
async def test_bots_play_fixed_limit_holdem_and_omaha_host_blind(
        rooms: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, structure: str,
        header: tuple[str, str]) -> None:
    from hosting import bots
    table = TableConfig("blind", "Blind 2/4", game, structure, 2, 4, 6, 80, 400, "none", CLOCK,
                        manual_showdown=True, dealing="host-blind")
    data_dir = tmp_path / "room"
    room: RunningRoom = await rooms(RoomConfig("blind room", (table,)), runner_settings=PACED, data_dir=data_dir)
    summary = await asyncio.wait_for(bots.run_bots("127.0.0.1", room.port, 3, 5, seed=7, table="blind"), 300)
    assert summary["hands"] >= 5 and summary["chips_conserved"], summary
    assert summary["fairness_failures"] == 0 and summary["fairness_verified"] >= 15, summary
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner) and runner.transcripts
    shown = 0
    for transcript in runner.transcripts:
        assert (transcript.header.variant, transcript.header.structure) == header
        violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
        assert violations == [] and outcome is not None, violations
        for cards in outcome.shown.values():  # a shown hand opens every hole card of the game
            assert len(cards) == (4 if game == "omaha" else 2)
            shown += 1
    assert shown > 0, "no hand went to a showdown"
    await room.close()
    exported = tmp_path / "hands.txt"
    assert main(["export", "--data", str(data_dir), "-o", str(exported)]) == 0
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()
