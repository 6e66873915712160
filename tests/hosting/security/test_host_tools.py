"""Issue 13 item 2, host tools: ``croupier reports`` prints players' words without their escape sequences.

A report written before the room cleaned reasons (or any row of an older database) may hold ``ESC]0;…`` and
OSC 52: the listing and ``--show`` must not hand them to the host's terminal.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hosting.cli import main
from hosting.store import Store
from tests.hosting.security.wire_room import EVIL, EVIL_CLEAN, assert_clean


def _stored_report(data_dir: Path) -> None:
    async def write() -> None:
        store = Store.open(data_dir)
        store.connection.execute(
            "INSERT INTO reports (at, reporter, hand_id, reason, history, record) VALUES (?, ?, ?, ?, ?, ?)",
            (1_700_000_000.0, "mallory", "t1-a-1", EVIL, f"Seat 1: {EVIL} (200 in chips)\nline two\n", "{}"))
        await store.close()

    asyncio.run(write())


def test_reports_print_reasons_and_histories_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _stored_report(tmp_path / "room")
    assert main(["reports", "--data", str(tmp_path / "room")]) == 0
    listing = capsys.readouterr().out
    assert listing == f"#1  2023-11-14 22:13:20 UTC  mallory  hand t1-a-1  {EVIL_CLEAN}\n"
    assert main(["reports", "--data", str(tmp_path / "room"), "--show", "1"]) == 0
    shown = capsys.readouterr().out
    assert shown.endswith(f"\n\nSeat 1: {EVIL_CLEAN} (200 in chips)\nline two\n")
    assert_clean(shown.replace("\n", " "), "croupier reports --show")


def test_room_and_table_names_from_the_room_file_reach_no_terminal_raw() -> None:
    from hosting.config import parse_room

    text = ('[room]\nname = "The \\u001b]0;owned\\u0007Den"\n'
            '[[tables]]\nid = "t1"\nname = "Hold\'em \\u001b[2J1/2"\ngame = "texas_holdem"\n'
            'structure = "no_limit"\nstakes = [1, 2]\nseats = 6\nbuy_in = [40, 200]\n')
    config = parse_room(text)
    assert config.name == "The Den" and config.tables[0].name == "Hold'em 1/2"


def test_croupier_join_prints_a_rooms_refusal_clean(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from hosting.commands import join

    async def refused(*arguments: object) -> object:  # a room's disconnect reason is the server's words
        raise join.JoinError(f"the room refused the login as 'ana': {EVIL}")

    monkeypatch.setattr(join, "open_connection", refused)
    assert main(["join", "ana@127.0.0.1:2222"]) == 1
    assert capsys.readouterr().err == f"croupier join: the room refused the login as 'ana': {EVIL_CLEAN}\n"
