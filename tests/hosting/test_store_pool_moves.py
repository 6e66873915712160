"""Chips that leave a hand before it ends (a fast-fold player's chips behind after his fold, R-FAST-1)."""

from __future__ import annotations

from pathlib import Path

from engine.events import HandEnded, HandStarted, PotAwarded
from engine.hand import ForcedBets
from hosting.ledger import holdings
from hosting.store import HandStart, Store


def test_chips_behind_moved_on_mid_hand_are_not_counted_again_when_the_hand_ends(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    for name in ("ann", "bob"):
        store.register(name, f"ssh-ed25519 {name.upper()}")
        store.buy_in("zoom", name, 500)  # joined the pool
        store.cash_out("zoom", name, 500, "to a pool table")
        store.buy_in("zoom.1", name, 500, "seated by the pool")
    forced = ForcedBets(button_seat=0, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)
    store.hand_started(HandStart("h1", "zoom.1", 1, 0.0, {0: "ann", 1: "bob"}, {0: 500, 1: 500}, forced))
    # ann (small blind) folds: her 495 behind go back to the pool at once, while the hand is still open
    store.cash_out("zoom.1", "ann", 495, "folded: back to the pool")
    store.buy_in("zoom", "ann", 495, "back in the pool")
    events = [HandStarted("texas_holdem", "no_limit", 0, ((0, 500), (1, 500))), PotAwarded(0, 1, 15),
              HandEnded(((0, 495), (1, 505)), rake=0)]
    store.hand_finished("h1", events, None)
    # without the difference ann would hold 495 at zoom.1 again: 495 chips counted twice
    assert (store.stack("zoom.1", "ann"), store.stack("zoom", "ann")) == (0, 495)
    assert store.stack("zoom.1", "bob") == 505
    stacks = dict(store.connection.execute("SELECT table_id || '/' || name, amount FROM table_stacks "
                                           "WHERE amount != 0").fetchall())
    assert stacks == {"zoom/ann": 495, "zoom.1/bob": 505}
    held = holdings(store.connection)
    assert held["issue"] == held["balance"] + held["table"] == 2_000
    store.close_now()


def test_the_difference_is_the_old_rule_for_a_hand_nobody_left(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    for name in ("ann", "bob"):
        store.register(name, f"ssh-ed25519 {name.upper()}")
        store.buy_in("t1", name, 300)
    forced = ForcedBets(button_seat=0, small_blind_seat=0, small_blind=5, big_blind_seat=1, big_blind=10)
    store.hand_started(HandStart("h1", "t1", 1, 0.0, {0: "ann", 1: "bob"}, {0: 300, 1: 300}, forced))
    events = [HandStarted("texas_holdem", "no_limit", 0, ((0, 300), (1, 300))), PotAwarded(0, 0, 600),
              HandEnded(((0, 600), (1, 0)), rake=0)]
    store.hand_finished("h1", events, None)
    assert (store.stack("t1", "ann"), store.stack("t1", "bob")) == (600, 0)
    assert holdings(store.connection)["table"] == 600
    store.close_now()
