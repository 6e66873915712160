"""Start-up recovery (R-CRASH-1): unfinished hands voided, every chip back with its owner, notices at login."""

from __future__ import annotations

import json
import time
from pathlib import Path

from hosting.hand_records import load_hand
from hosting.ledger import audit
from hosting.store import Store
from tests.hosting.store_play import open_room


def test_a_hand_cut_off_mid_way_is_voided_and_its_chips_go_back(tmp_path: Path) -> None:
    data_dir = tmp_path / "room"
    store = Store.open(data_dir)
    (table,) = open_room(store, 1, seed=4)
    for _ in range(3):
        table.play_hand(time.time())
    hand_id = table.begin_hand(time.time())  # the store has the start snapshot (after any top-up)
    balances = {name: store.balance(name) for name in table.players}
    stacks = {name: store.stack("t1", name) for name in table.players}
    table.step()  # some chips are in the pot now, in the engine only
    store.close_now()  # the host dies here

    store = Store.open(data_dir)
    assert store.recovery.voided == [hand_id]
    assert {name: amount for name, _, amount in store.recovery.returned} == {
        name: stack for name, stack in stacks.items() if stack}
    for name in table.players:  # every chip put in, and the whole stack, is back in the balance
        assert store.balance(name) == balances[name] + stacks[name]
        assert store.stack("t1", name) == 0
    hand = load_hand(store.connection, hand_id)
    assert hand is not None and hand.status == "voided" and hand.events is None
    assert store.connection.execute("SELECT COUNT(*) FROM ledger WHERE hand_id = ?", (hand_id,)).fetchone()[0] == 0
    dealt_in = set(hand.players.values())
    for name in table.players:
        notices = store.pending_notices(name)
        assert any("went back to your balance" in text for text in notices)
        assert any(hand_id in text for text in notices) == (name in dealt_in)
        # and for his client, the same as a typed message, never to be read from the words
        assert store.pending_messages(name) == ([{"v": 1, "type": "hand_cancelled", "table": "t1", "hand": hand_id,
                                                  "reason": "room_stopped"}] if name in dealt_in else [])
    assert audit(store.connection) == []
    store.close_now()
    assert Store.open(data_dir).recovery.clean  # recovery ran once: the next start finds nothing to do


def test_chips_a_writer_put_in_a_pot_of_an_unfinished_hand_return_to_their_owners(tmp_path: Path) -> None:
    data_dir = tmp_path / "room"
    store = Store.open(data_dir)
    (table,) = open_room(store, 1, seed=6)
    hand_id = table.begin_hand(time.time())
    total = sum(store.balance(name) + store.stack("t1", name) for name in table.players)
    owner = next(iter(json.loads(store.connection.execute("SELECT players FROM hands WHERE id = ?",
                                                          (hand_id,)).fetchone()[0]).values()))
    from hosting.store import move, transaction

    with transaction(store.connection, write=True) as connection:  # a pot in play, as a finer writer might keep
        move(connection, 1.0, "table", "pot", 30, "blind", player=owner, table_id="t1", hand_id=hand_id)
    assert audit(store.connection) == []  # conservation counts pots in play
    store.close_now()
    store = Store.open(data_dir)
    assert store.recovery.voided == [hand_id]
    assert sum(store.balance(name) for name in table.players) == total
    assert audit(store.connection) == []
    store.close_now()


def test_a_table_whose_owner_keeps_its_stacks_is_not_refunded_at_restart(tmp_path: Path) -> None:
    """Recovery asks the tables' owners: a table kept (a tournament's) keeps every stack of its voided hand's
    players, from the hand's start; nothing goes to a balance and the audit still balances."""
    data_dir = tmp_path / "room"
    store = Store.open(data_dir)
    (table,) = open_room(store, 1, seed=4)
    table.play_hand(time.time())
    hand_id = table.begin_hand(time.time())
    balances = {name: store.balance(name) for name in table.players}
    stacks = {name: store.stack("t1", name) for name in table.players}
    table.step()
    store.close_now()

    store = Store.open(data_dir, refund_at_restart=lambda table_id: table_id != "t1")
    assert store.recovery is not None and store.recovery.voided == [hand_id] and store.recovery.returned == []
    assert {name: store.stack("t1", name) for name in table.players} == stacks
    assert {name: store.balance(name) for name in table.players} == balances
    assert audit(store.connection) == []
    store.close_now()
