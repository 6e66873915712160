"""hosting.store: schema and migrations, accounts, the chip ledger, hands in one transaction, the writer task,
reports (R-AUDIT-1), notices, and the event codec."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from pathlib import Path

import pytest

from engine.events import HandEnded, HandStarted, PotAwarded
from hosting.hand_codec import CodecError, event_from_json, events_from_json, events_to_json
from hosting.hand_records import iter_hands
from hosting.ledger import audit, holdings
from hosting.migrations import MIGRATIONS, SCHEMA_VERSION
from hosting.store import DATABASE_FILE, NotEnoughChips, Store, connect, hand_result
from tests.hosting.store_play import open_room


def tables(connection: sqlite3.Connection) -> set[str]:
    return {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_new_store_is_wal_at_the_current_schema_version(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
    assert {"accounts", "account_keys", "balances", "ledger", "hands", "tables", "table_stacks", "chat",
            "reports", "notices", "room_sessions"} <= tables(store.connection)
    store.close_now()


def test_an_older_schema_is_migrated_at_start_and_keeps_its_data(tmp_path: Path) -> None:
    data_dir = tmp_path / "room"
    data_dir.mkdir()
    old = sqlite3.connect(data_dir / DATABASE_FILE)
    first = MIGRATIONS[0]
    assert isinstance(first, str)
    old.executescript(first)
    old.execute("PRAGMA user_version = 1")
    old.execute("INSERT INTO accounts VALUES ('ann', 1.0)")
    old.execute("INSERT INTO balances VALUES ('ann', 1000)")
    old.execute("INSERT INTO ledger (at, source, destination, player, amount, reason) "
                "VALUES (1.0, 'issue', 'balance', 'ann', 1000, 'new account')")
    old.commit()
    old.close()
    store = Store.open(data_dir)
    assert store.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
    assert "reports" in tables(store.connection)
    assert store.balance("ann") == 1000
    store.close_now()


def test_register_issues_the_new_account_chips_and_buy_in_moves_them_to_the_table(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.register("ann", "ssh-ed25519 AAAA")
    assert store.keys("ann") == {"ssh-ed25519 AAAA"} and store.balance("ann") == 1000
    store.buy_in("t1", "ann", 400)
    assert (store.balance("ann"), store.stack("t1", "ann")) == (600, 400)
    store.cash_out("t1", "ann", 400)
    assert (store.balance("ann"), store.stack("t1", "ann")) == (1000, 0)
    rows = store.connection.execute("SELECT source, destination, amount FROM ledger ORDER BY id").fetchall()
    assert rows == [("issue", "balance", 1000), ("balance", "table", 400), ("table", "balance", 400)]
    assert audit(store.connection) == []
    store.close_now()


def test_a_buy_in_above_the_balance_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.register("ann", "ssh-ed25519 AAAA", chips=500)
    with pytest.raises(NotEnoughChips, match="500 chips in the bank, not 501"):
        store.buy_in("t1", "ann", 501)
    with pytest.raises(NotEnoughChips, match="0 chips at t1, not 1"):
        store.cash_out("t1", "ann", 1)
    with pytest.raises(ValueError, match="already registered"):
        store.register("ann", "ssh-ed25519 BBBB")
    assert store.balance("ann") == 500 and store.stack("t1", "ann") == 0
    assert store.connection.execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == 1
    store.close_now()


def test_hand_result_follows_the_chips_of_a_hand_with_rake() -> None:
    events = [HandStarted("texas_holdem", "no_limit", 0, ((1, 1000), (2, 800), (0, 1000))),
              PotAwarded(0, 2, 1150), HandEnded(((1, 700), (2, 1150), (0, 900)), rake=50)]
    result = hand_result({0: 1000, 1: 1000, 2: 800}, events)
    assert dict(result.put_in) == {1: 300, 2: 800, 0: 100}
    assert dict(result.awarded) == {2: 1150} and result.rake == 50


def test_hand_result_refuses_events_that_create_chips() -> None:
    events = [HandStarted("texas_holdem", "no_limit", 0, ((1, 1000), (0, 1000))),
              PotAwarded(0, 0, 300), HandEnded(((1, 900), (0, 1200)))]
    with pytest.raises(ValueError, match="chip conservation broken"):
        hand_result({0: 1000, 1: 1000}, events)


def test_played_hands_are_stored_whole_and_their_ledger_rows_match(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    room = open_room(store, 4, seed=3)
    for _ in range(15):
        for table in room:
            table.play_hand(time.time())
    hands = list(iter_hands(store.connection))
    assert len(hands) == 60 and all(hand.status == "finished" for hand in hands)
    for hand in hands[:10]:
        assert hand.events is not None and isinstance(hand.events[0], HandStarted)
        assert hand.transcript is not None and hand.transcript["hand"] == hand.hand_id
    held = holdings(store.connection)
    issued = held["issue"]
    assert issued == held["balance"] + held["table"] + held.get("rake", 0)
    for table in room:  # the store's stacks are the engine table's stacks
        for seated in table.table.players.values():
            assert store.stack(table.config.id, seated.player) == seated.stack
    assert audit(store.connection) == []
    store.close_now()


def test_a_result_for_a_hand_that_is_not_running_writes_no_ledger_row(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    (table,) = open_room(store, 1)
    hand_id = table.begin_hand(time.time())
    while table.step():
        pass
    store.connection.execute("UPDATE hands SET status = 'voided' WHERE id = ?", (hand_id,))
    rows = store.connection.execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
    with pytest.raises(Exception, match="is not running"):
        table.finish_hand()
    assert store.connection.execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == rows  # one transaction
    assert store.running_hands() == [hand_id]  # and the store's view is unchanged
    store.close_now()


async def test_the_writer_task_commits_in_the_background_and_in_batches(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.start()
    room = open_room(store, 6, seed=5)
    futures = []
    for _ in range(10):
        for table in room:
            _, future = table.play_hand(time.time())
            futures.append(future)
    assert all(future is not None and not future.done() for future in futures)  # nobody waited on the disk
    await asyncio.gather(*futures)  # type: ignore[arg-type]
    assert store.commits < len(futures)  # group commit: several hands per transaction
    await store.close()
    reader = connect(tmp_path / "room", read_only=True)
    assert reader.execute("SELECT COUNT(*) FROM hands WHERE status = 'finished'").fetchone()[0] == 60
    assert audit(reader) == []


async def test_a_report_keeps_the_full_history_for_the_host(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.start()
    (table,) = open_room(store, 1, seed=9)
    hand_id, future = table.play_hand(time.time())
    await future  # type: ignore[misc]
    report_id = await store.report_hand("bot1_0", hand_id, "the river looked odd")  # type: ignore[misc]
    with pytest.raises(KeyError, match="unknown"):
        await store.report_hand("bot1_0", "t1-404", "no such hand")  # type: ignore[misc]
    await store.close()
    reader = connect(tmp_path / "room", read_only=True)
    reporter, reported, reason, history, record = reader.execute(
        "SELECT reporter, hand_id, reason, history, record FROM reports WHERE id = ?", (report_id,)).fetchone()
    assert (reporter, reported, reason) == ("bot1_0", hand_id, "the river looked odd")
    assert history.startswith("PokerStars Hand #") and "*** SUMMARY ***" in history
    assert json.loads(record)["transcript"]["hand"] == hand_id


def test_chat_and_notices(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.chat("ann", "t1", "nice hand")
    assert store.connection.execute("SELECT sender, table_id, text FROM chat").fetchall() == [
        ("ann", "t1", "nice hand")]
    store.connection.execute("INSERT INTO notices (name, at, text) VALUES ('ann', 1.0, 'hello')")
    store.close_now()
    store = Store.open(tmp_path / "room")
    assert store.pending_notices("ann") == ["hello"]
    store.notices_delivered("ann")
    assert store.pending_notices("ann") == []
    store.close_now()
    assert Store.open(tmp_path / "room").pending_notices("ann") == []


def test_every_stored_event_reads_back_equal(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    room = open_room(store, 6, seed=11)
    for _ in range(5):
        for table in room:
            table.play_hand(time.time())
    for table in room:
        events = list(table._hand.events)
        assert events_from_json(json.loads(json.dumps(events_to_json(events)))) == events
    store.close_now()


def test_a_bad_event_body_is_refused_with_its_reason() -> None:
    with pytest.raises(CodecError, match="unknown event kind 'nope'"):
        event_from_json({"event": "nope"})
    with pytest.raises(CodecError, match="hole_cards_dealt: Object missing required field `cards`"):
        event_from_json({"event": "hole_cards_dealt", "seat": 1})
    with pytest.raises(CodecError, match=r"folded: Expected `int`, got `str` - at `\$.seat`"):
        event_from_json({"event": "folded", "seat": "one"})


def test_random_buy_ins_and_cash_outs_keep_the_ledger_and_the_balances_equal(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    rng = random.Random(2)
    names = ["ann", "bob", "cy"]
    for name in names:
        store.register(name, f"ssh-ed25519 {name}")
    for _ in range(200):
        name, table_id = rng.choice(names), rng.choice(["t1", "t2"])
        try:
            if rng.random() < 0.5:
                store.buy_in(table_id, name, rng.randint(1, 600))
            else:
                store.cash_out(table_id, name, rng.randint(1, 600))
        except NotEnoughChips:
            pass
    assert audit(store.connection) == []
    assert sum(store.balance(name) + store.stack("t1", name) + store.stack("t2", name) for name in names) == 3000
    store.close_now()


def test_stored_start_of_a_stud_hand_records_antes_and_bring_in_not_blinds() -> None:
    from engine.cards import full_deck
    from engine.hand import HandConfig
    from engine.structures import BettingStructure
    from engine.table import Table, TableConfig
    from engine.variants import SEVEN_CARD_STUD
    from hosting.store import forced_bets_of

    table = Table(TableConfig(HandConfig(SEVEN_CARD_STUD, BettingStructure.fixed_limit(20, 40)), seat_count=8,
                              small_blind=0, big_blind=10, min_buy_in=100, ante=5, bring_in=10))
    for name in ("ana", "bob", "cy"):
        table.sit(name, 500, 0.0)
    table.start_hand(list(full_deck()), 0.0, button_draw_deck=list(full_deck()))
    forced_bets = forced_bets_of(table)
    assert forced_bets == table.last_forced_bets
    assert forced_bets.ante == 5 and forced_bets.bring_in == 10
    assert forced_bets.small_blind_seat is None and forced_bets.big_blind_seat is None
