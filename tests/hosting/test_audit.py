"""``croupier audit``: clean rooms pass; each kind of damage is one finding line and exit 1; bad data
directories are one error line and exit 2 with nothing written."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from hosting.cli import main
from hosting.store import DATABASE_FILE, Store
from tests.hosting.draw_play import reshuffling_room
from tests.hosting.store_play import open_room


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A room directory with 40 finished hands at four tables (hold'em and Omaha, limit and big-bet)."""
    data_dir = tmp_path / "room"
    store = Store.open(data_dir)
    room = open_room(store, 4, seed=8)
    for _ in range(10):
        for table in room:
            table.play_hand(time.time())
    store.close_now()
    return data_dir


def issued(data_dir: Path) -> int:
    connection = sqlite3.connect(data_dir / DATABASE_FILE)
    total = connection.execute("SELECT SUM(amount) FROM ledger WHERE source = 'issue'").fetchone()[0]
    connection.close()
    return int(total)


def damage(data_dir: Path, statement: str, *parameters: object) -> None:
    connection = sqlite3.connect(data_dir / DATABASE_FILE)
    connection.execute(statement, parameters)
    connection.commit()
    connection.close()


def audit_lines(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    status = main(["audit", "--data", str(data_dir)])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def test_a_clean_room_passes(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, summary = audit_lines(played, capsys)
    assert (status, lines) == (0, [])
    assert f"{issued(played)} chips issued; hands: 40 finished, 0 voided, 0 running; clean" in summary


def test_a_balance_changed_behind_the_ledgers_back_is_found(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damage(played, "UPDATE balances SET amount = amount + 5 WHERE name = 'bot1_0'")
    status, lines, _ = audit_lines(played, capsys)
    assert status == 1
    assert any(line.startswith(f"conservation: {issued(played)} chips issued but balances") for line in lines)
    assert any(line.startswith("ledger: bot1_0's balance is") for line in lines)


def test_a_deleted_ledger_row_breaks_conservation(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damage(played, "DELETE FROM ledger WHERE id = (SELECT MIN(id) FROM ledger WHERE reason = 'pot won')")
    status, lines, _ = audit_lines(played, capsys)
    assert status == 1
    assert any(line.startswith(f"conservation: {issued(played)} chips issued but the ledger holds") for line in lines)
    assert any("do not match its result" in line for line in lines)


def test_a_changed_seed_fails_the_shuffle_check(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    connection = sqlite3.connect(played / DATABASE_FILE)
    hand_id, text = connection.execute("SELECT id, transcript FROM hands ORDER BY rowid LIMIT 1").fetchone()
    transcript = json.loads(text)
    transcript["seeds"]["host"] = "00" * 32
    connection.execute("UPDATE hands SET transcript = ? WHERE id = ?", (json.dumps(transcript), hand_id))
    connection.commit()
    connection.close()
    status, lines, _ = audit_lines(played, capsys)
    assert status == 1
    assert f"hand {hand_id}: fairness commitment_mismatch: " in "\n".join(lines)


def test_a_changed_card_fails_the_shuffle_check(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    connection = sqlite3.connect(played / DATABASE_FILE)
    hand_id, text = connection.execute("SELECT id, events FROM hands ORDER BY rowid LIMIT 1").fetchone()
    events = json.loads(text)
    dealt = next(event for event in events if event["event"] == "hole_cards_dealt")
    all_cards = {card for event in events for card in event.get("cards", [])}
    dealt["cards"][0] = next(card for card in ("As", "Ks", "Qs", "Js", "Ts", "9s") if card not in all_cards)
    connection.execute("UPDATE hands SET events = ? WHERE id = ?", (json.dumps(events), hand_id))
    connection.commit()
    connection.close()
    status, lines, _ = audit_lines(played, capsys)
    assert status == 1
    assert f"hand {hand_id}: fairness card_mismatch" in "\n".join(lines)


def test_a_finished_hand_whose_stacks_do_not_add_up_is_found(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    connection = sqlite3.connect(played / DATABASE_FILE)
    hand_id, text = connection.execute("SELECT id, events FROM hands ORDER BY rowid LIMIT 1").fetchone()
    events = json.loads(text)
    events[-1]["stacks"][0][1] += 1  # one chip created at the end of the hand
    connection.execute("UPDATE hands SET events = ? WHERE id = ?", (json.dumps(events), hand_id))
    connection.commit()
    connection.close()
    status, lines, _ = audit_lines(played, capsys)
    assert status == 1
    assert any(line.startswith(f"hand {hand_id}: chip conservation broken") for line in lines)


# --- bad data directories (every command that reads the store, and the store itself) ---------------------


def test_a_missing_data_directory_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("audit", "export", "reports"):
        assert main([command, "--data", str(tmp_path / "nowhere")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not exist" in err
    assert not (tmp_path / "nowhere").exists()


def test_a_corrupted_database_is_refused_and_left_untouched(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = tmp_path / "room"
    data_dir.mkdir()
    garbage = b"this is not a database, it is a shopping list\n" * 200
    (data_dir / DATABASE_FILE).write_bytes(garbage)
    for command in ("audit", "export", "reports"):
        assert main([command, "--data", str(data_dir)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not a usable croupier database" in err
    from hosting.store import StoreError

    with pytest.raises(StoreError, match="not a usable croupier database"):
        Store.open(data_dir)
    assert (data_dir / DATABASE_FILE).read_bytes() == garbage
    assert sorted(path.name for path in data_dir.iterdir()) == [DATABASE_FILE]


def test_a_damaged_page_is_found_by_the_integrity_check(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hosting.store import StoreError

    Store.open(played).close_now()  # checkpoint the WAL into the file
    path = played / DATABASE_FILE
    data = bytearray(path.read_bytes())
    page = 4096
    for number in range(2, 6):  # scribble over the b-tree headers of a few pages
        data[number * page: number * page + 64] = bytes([0xA5]) * 64
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(StoreError) as problem:
        Store.open(played)
    assert "\n" not in str(problem.value)
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused_and_left_untouched(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hosting.store import StoreError

    damage(played, "PRAGMA user_version = 99")
    path = played / DATABASE_FILE
    before = path.read_bytes()
    with pytest.raises(StoreError, match="schema version 99, newer than this croupier understands"):
        Store.open(played)
    assert main(["audit", "--data", str(played)]) == 2
    assert "schema version 99" in capsys.readouterr().err
    assert main(["host", "--port", "0", "--data", str(played)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert path.read_bytes() == before


def test_a_data_directory_that_is_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hosting.store import StoreError

    not_a_directory = tmp_path / "room"
    not_a_directory.write_text("hello")
    with pytest.raises(StoreError, match="is not a directory"):
        Store.open(not_a_directory)
    with pytest.raises(StoreError, match="cannot create data directory"):
        Store.open(not_a_directory / "inside")
    assert main(["audit", "--data", str(not_a_directory)]) == 2
    assert capsys.readouterr().err.strip().endswith("is not a directory")
    assert main(["host", "--port", "0", "--data", str(not_a_directory)]) == 2  # the room refuses to start
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("croupier host: ") and str(not_a_directory) in err
    assert not_a_directory.read_text() == "hello"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere: a read-only directory cannot be tested as root")
def test_an_unwritable_data_directory_is_refused(tmp_path: Path) -> None:
    from hosting.store import StoreError

    data_dir = tmp_path / "room"
    data_dir.mkdir()
    data_dir.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="is not writable"):
            Store.open(data_dir)
    finally:
        data_dir.chmod(0o700)


# --- draw games that reshuffle: the stored transcript carries the reshuffles, the audit replays them ----------


@pytest.fixture
def reshuffled(tmp_path: Path) -> Path:
    """A room directory with 3 finished 6-handed triple-draw hands, each reshuffling its discards 4 times."""
    return reshuffling_room(tmp_path / "draw-room", hands=3)


def _stored(data_dir: Path, column: str) -> tuple[str, Any]:
    connection = sqlite3.connect(data_dir / DATABASE_FILE)
    hand_id, text = connection.execute(f"SELECT id, {column} FROM hands ORDER BY rowid LIMIT 1").fetchone()
    connection.close()
    return hand_id, json.loads(text)


def test_stored_reshuffles_are_replayed_and_audit_clean(reshuffled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, transcript = _stored(reshuffled, "transcript")
    assert [record["draw"] for record in transcript["reshuffles"]] == [4, 8, 12, 16]
    assert [len(record["deals"]) for record in transcript["reshuffles"]] == [18, 20, 20, 10]
    status, lines, summary = audit_lines(reshuffled, capsys)
    assert (status, lines) == (0, [])
    assert "hands: 3 finished, 0 voided, 0 running; clean; 12 reshuffle(s) in 3 draw hand(s) checked" in summary


def test_a_changed_reshuffled_card_is_flagged(reshuffled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand_id, events = _stored(reshuffled, "events")
    # seat 4's first draw: 2 stub cards, then 3 from the first reshuffle; swap two of the reshuffled ones
    drawn = [event for event in events if event["event"] == "drawn_cards_dealt"]
    assert len(drawn) == 18
    cards = drawn[4]["cards"]
    cards[2], cards[3] = cards[3], cards[2]
    damage(reshuffled, "UPDATE hands SET events = ? WHERE id = ?", json.dumps(events), hand_id)
    status, lines, _ = audit_lines(reshuffled, capsys)
    assert status == 1
    flagged = [line for line in lines if line.startswith(f"hand {hand_id}: fairness reshuffle_card_mismatch: ")]
    assert len(flagged) == 2, lines
    assert "dealt from reshuffle 0, but position 0 of that reshuffle holds" in flagged[0]


def test_a_reshuffle_pool_out_of_the_discard_order_is_flagged(reshuffled: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    hand_id, transcript = _stored(reshuffled, "transcript")
    pool = transcript["reshuffles"][1]["pool"]
    pool[0], pool[-1] = pool[-1], pool[0]
    damage(reshuffled, "UPDATE hands SET transcript = ? WHERE id = ?", json.dumps(transcript), hand_id)
    status, lines, _ = audit_lines(reshuffled, capsys)
    assert status == 1
    assert f"hand {hand_id}: fairness reshuffle_mismatch: reshuffle 1 at draw 8: its pool is" in "\n".join(lines)


def test_a_transcript_stripped_of_its_reshuffles_is_flagged(reshuffled: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    hand_id, transcript = _stored(reshuffled, "transcript")
    del transcript["draws"], transcript["reshuffles"]
    damage(reshuffled, "UPDATE hands SET transcript = ? WHERE id = ?", json.dumps(transcript), hand_id)
    status, lines, summary = audit_lines(reshuffled, capsys)
    assert status == 1
    assert any(line.startswith(f"hand {hand_id}: fairness card_mismatch: ") and "deals it only 5" in line
               for line in lines), lines
    assert "8 reshuffle(s) in 2 draw hand(s) checked" in summary
