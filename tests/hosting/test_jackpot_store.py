"""Bad-beat jackpot at a table, through the store (R-JACK-1): stacked decks for the bad beats, real shuffles
for the drops; exact chips paid, pools kept across a restart, the ledger's audit clean.

The stacked-deck hands carry no fairness transcript (their decks are not derived from seeds on purpose), so
for them the audit's chip checks run — conservation, ledger, each hand's rows — and not the transcript check;
the hands played from real shuffles go through the whole ``audit``.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Call, Check, Show
from engine.cards import Card, parse_cards
from engine.events import Event, HandEnded, HandShown, HandStarted
from engine.variants import variant_by_id
from hosting.config import JackpotConfig, TableConfig
from hosting.hand_records import iter_hands
from hosting.jackpots import jackpot_live, jackpot_pool_name, settle_jackpot
from hosting.ledger import audit, check_conservation, check_hand_ledger, check_ledger
from hosting.room import build_engine_table
from hosting.store import Store, hand_start_of, table_settings
from tests.hosting.store_play import BotTable

POOL = "bad_beat_holdem"


def _config(table_id: str = "t1", *, game: str = "texas_holdem", seats: int = 6, blinds: tuple[int, int] = (50, 100),
            share_percent: int = 50, minimum_big_blind: int = 2, qualifying_hand: str = "four_queens",
            kind: str = "bad_beat", hands: tuple[str, ...] = (), hours: tuple[int, ...] = ()) -> TableConfig:
    small_blind, big_blind = blinds
    return TableConfig(table_id, f"Table {table_id}", game, "no_limit" if game == "texas_holdem" else "pot_limit",
                       small_blind, big_blind, seats, 40 * big_blind, 100 * big_blind, rake="white-label",
                       jackpot=JackpotConfig(share_percent, minimum_big_blind, qualifying_hand, kind, hands, hours))


class StackedTable:
    """An engine table of ``names`` (seats 0, 1, …) playing hands from decks the test lays out, into ``store``,
    settled the way ``hosting.table_runner`` settles them (:func:`settle_jackpot`)."""

    def __init__(self, store: Store, config: TableConfig, names: Sequence[str]) -> None:
        self.store, self.config = store, config
        self.table = build_engine_table(config)
        self.clock = 0.0
        self.bodies: list[dict[str, Any] | None] = []
        self.hour: int | None = None  # the room's local hour, for a smart jackpot
        store.save_table(config.id, table_settings(config))
        for seat, name in enumerate(names):
            if not store.keys(name):
                store.register(name, f"ssh-ed25519 KEY-{name}", chips=100 * config.big_blind)
            store.buy_in(config.id, name, 100 * config.big_blind)
            self.table.sit(name, 100 * config.big_blind, self.clock, seat=seat)

    def play(self, top: str) -> list[Event]:
        """One hand dealt from ``top`` (then the rest of the deck in order), the last seat on the button at the
        first hand; everyone checks or calls to the showdown (a table shows every hand there, R-SHOW-1)."""
        cards = parse_cards(top)
        deck = cards + tuple(card for card in self.table.config.hand.variant.deck if card not in cards)
        seats = sorted(self.table.players)
        button_deck = parse_cards(" ".join([*["2s", "3s", "4s", "5s", "6s", "7s"][:len(seats) - 1], "As"]))
        self.clock += 1.0
        events = self.table.start_hand(deck, self.clock, button_draw_deck=button_deck)
        hand_id = f"{self.config.id}-{self.table.hand_number}"
        start = hand_start_of(self.table, self.config.id, hand_id, events, self.clock, table_settings(self.config))
        self.store.hand_started(start)
        hand = self.table.hand
        assert hand is not None
        while self.table.hand is not None:
            turn = self.table.to_act()
            options = self.table.hand.legal_actions()
            assert turn is not None and options is not None
            if options.can_show or options.can_muck:
                action: Any = Show()
            else:
                action = Check() if options.can_check else Call()
            self.table.act(self.table.players[turn[0]].player, action, self.clock)
        log = list(hand.events)
        pool = jackpot_pool_name(self.config)
        if pool is not None and jackpot_live(self.config):
            outcome, body = settle_jackpot(self.config, self.store.jackpot_pool(pool), log, start.players,
                                           hour=self.hour)
            self.store.hand_finished(hand_id, log, None, jackpot_pool=pool, jackpot=outcome, jackpot_event=body)
            self.bodies.append(body)
        else:
            self.store.hand_finished(hand_id, log, None)
            self.bodies.append(None)
        return log


def _rake(events: Sequence[Event]) -> int:
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    return ended.rake


def _chip_findings(connection: sqlite3.Connection) -> list[str]:
    """``audit`` without the transcript check (stacked decks on purpose)."""
    findings = [*check_conservation(connection), *check_ledger(connection)]
    for hand in iter_hands(connection):
        findings += list(check_hand_ledger(connection, hand))
    return findings


# Seat 0 ana: Qs Qh (four queens with both hole cards); seat 1 bo: Jd Td (straight flush 8-Q); seat 2 cy: 2c 3h.
QUEENS_LOSE = "Qs Jd 2c Qh Td 3h Qd Qc 9d 8d Kd"


def test_pocket_queens_losing_to_a_straight_flush_pay_the_pool_forty_twenty_twenty(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    table = StackedTable(store, _config(), ["ana", "bo", "cy"])
    store.seed_jackpot(POOL, 10_000)
    before = {name: store.balance(name) for name in ("ana", "bo", "cy")}
    events = table.play(QUEENS_LOSE)
    # 3 x 100 = 300 in the pot; white-label no-limit rake 2.5 % = 7 (7.5 rounded down); drop 50 % of 7 = 3.
    assert _rake(events) == 7
    # Pool 10,000 + 3 = 10,003: loser 40 % = 4,001, winner 20 % = 2,000, the one other 20 % = 2,000,
    # next pool 10,003 - 8,001 = 2,002 (the 20 % seed 2,000 plus the rounding chips).
    paid = {name: store.balance(name) - before[name] for name in before}
    assert paid == {"ana": 4_001, "bo": 2_000, "cy": 2_000}
    assert store.jackpot_pool(POOL) == 2_002
    assert table.bodies[0] == {
        "jackpot": POOL, "pool": 10_003, "losing_hand": "four of a kind",
        "losing_cards": table.bodies[0]["losing_cards"] if table.bodies[0] else None,
        "paid": [{"seat": 0, "name": "ana", "role": "loser", "amount": 4_001},
                 {"seat": 1, "name": "bo", "role": "winner", "amount": 2_000},
                 {"seat": 2, "name": "cy", "role": "other", "amount": 2_000}],
        "next_pool": 2_002,
    }
    assert sorted(table.bodies[0]["losing_cards"]) == sorted(["Qs", "Qh", "Qd", "Qc", "Kd"])  # type: ignore[index]
    rows = store.connection.execute(
        "SELECT source, destination, player, amount, pool FROM ledger WHERE hand_id = 't1-1' AND "
        "(source IN ('jackpot', 'rake') OR destination IN ('jackpot', 'rake')) ORDER BY id").fetchall()
    assert rows == [("pot", "rake", None, 4, None), ("pot", "jackpot", None, 3, POOL),
                    ("jackpot", "balance", "ana", 4_001, POOL), ("jackpot", "balance", "bo", 2_000, POOL),
                    ("jackpot", "balance", "cy", 2_000, POOL)]
    (hand,) = iter_hands(store.connection)
    assert hand.result is not None and hand.result["jackpot"] == 3 and hand.result["jackpot_pool"] == POOL
    assert hand.result["jackpot_paid"] == {"0": 4_001, "1": 2_000, "2": 2_000}
    assert hand.result["jackpot_event"] == table.bodies[0]
    assert _chip_findings(store.connection) == []
    store.close_now()


# Seat 0 ana: Ts Th (four tens with both hole cards); seat 1 bo: Jd 9d (straight flush 8-Q); seat 2 cy: 2c 3h.
TENS_LOSE = "Ts Jd 2c Th 9d 3h Td Tc 8d 7d Qd"


@pytest.mark.parametrize(("qualifying_hand", "paid", "pool_after"), [
    ("four_queens", {"ana": 0, "bo": 0, "cy": 0}, 10_003),
    ("four_tens", {"ana": 4_001, "bo": 2_000, "cy": 2_000}, 2_002),
], ids=["default_four_queens_pays_nothing", "four_tens_preset_pays"])
def test_r_jack_1_four_tens_lose_pay_only_at_a_four_tens_table(tmp_path: Path, qualifying_hand: str,
                                                              paid: dict[str, int], pool_after: int) -> None:
    store = Store.open(tmp_path / "room")
    table = StackedTable(store, _config(qualifying_hand=qualifying_hand), ["ana", "bo", "cy"])
    store.seed_jackpot(POOL, 10_000)
    before = {name: store.balance(name) for name in ("ana", "bo", "cy")}
    table.play(TENS_LOSE)
    # Pool 10,000 + drop 3 = 10,003: 40 % 4,001 / 20 % 2,000 / 20 % 2,000, 2,002 left (or all of it stays).
    assert {name: store.balance(name) - before[name] for name in before} == paid
    assert store.jackpot_pool(POOL) == pool_after
    assert _chip_findings(store.connection) == []
    store.close_now()


def test_the_pool_survives_a_restart_and_the_next_hand_builds_on_it(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    StackedTable(store, _config(), ["ana", "bo", "cy"]).play(QUEENS_LOSE)  # drop 3 into an empty pool: 3 - 3 + …
    # an empty pool of 0 + drop 3 = 3: loser 1 (3*40//100), winner 0, other 0 → nothing for them; 2 stay
    assert store.jackpot_pool(POOL) == 2
    assert store.balance("ana") == 1 and store.balance("bo") == 0
    store.seed_jackpot(POOL, 998)
    store.close_now()
    again = Store.open(tmp_path / "room")
    assert again.jackpot_pool(POOL) == 1_000
    assert again.recovery.voided == []
    assert _chip_findings(again.connection) == []
    again.close_now()


def test_quads_without_both_hole_cards_pay_nothing_but_the_drop_still_feeds_the_pool(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    table = StackedTable(store, _config(), ["ana", "bo", "cy"])
    store.seed_jackpot(POOL, 10_000)
    # ana: Qs 4h with Qd Qc Qh on the board: four queens with a 9 kicker use one hole card only (with both, Q-Q-Q-Q-4
    # is weaker), and they lose to bo's Jd Td: straight flush 8-Q with 9d 8d and the Qd.
    events = table.play("Qs Jd 2c 4h Td 3h Qd Qc Qh 9d 8d")
    shown = {event.seat: event.description for event in events if isinstance(event, HandShown)}
    assert shown[0].startswith("four queens") and shown[1].startswith("straight flush")
    assert _rake(events) == 7
    assert table.bodies == [None]
    assert store.jackpot_pool(POOL) == 10_003
    assert store.balance("ana") == 0 and store.balance("bo") == 0
    assert _chip_findings(store.connection) == []
    store.close_now()


def test_heads_up_tables_and_heads_up_hands_neither_feed_nor_win(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.seed_jackpot(POOL, 10_000)
    heads_up = _config("hu", seats=2)
    assert not jackpot_live(heads_up)
    # Seat 0 ana (button, small blind heads-up) gets Qs Qh; seat 1 bo Jd Td: four queens lose to a straight flush.
    StackedTable(store, heads_up, ["ana", "bo"]).play("Qs Jd Qh Td Qd Qc 9d 8d Kd")
    assert store.jackpot_pool(POOL) == 10_000 and store.balance("ana") == 0
    # A six-seat table where only two were dealt in: settle_jackpot finds the hand heads-up.
    six = StackedTable(store, _config("six"), ["cy", "di"])
    events = six.play("Qs Jd Qh Td Qd Qc 9d 8d Kd")
    assert _rake(events) > 0 and six.bodies == [None]
    assert store.jackpot_pool(POOL) == 10_000 and store.balance("cy") == 0
    assert _chip_findings(store.connection) == []
    store.close_now()


def test_stakes_below_the_minimum_neither_feed_nor_win(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.seed_jackpot(POOL, 10_000)
    low = _config("low", minimum_big_blind=200)  # big blind 100 < 200
    assert not jackpot_live(low)
    table = StackedTable(store, low, ["ana", "bo", "cy"])
    events = table.play(QUEENS_LOSE)
    assert _rake(events) == 7 and table.bodies == [None]
    assert store.jackpot_pool(POOL) == 10_000 and store.balance("ana") == 0
    rows = store.connection.execute("SELECT SUM(amount) FROM ledger WHERE destination = 'rake'").fetchone()[0]
    assert rows == 7  # the whole rake stays with the house
    store.close_now()


def test_omaha_and_holdem_tables_keep_separate_pools_shared_by_their_family(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    first, second = StackedTable(store, _config("h1"), ["a1", "b1", "c1"]), \
        StackedTable(store, _config("h2"), ["a2", "b2", "c2"])
    omaha = StackedTable(store, _config("o1", game="omaha"), ["a3", "b3", "c3"])
    assert jackpot_pool_name(omaha.config) == "bad_beat_omaha"
    first.play("2c 3c 4c 2d 3d 4d 7h 8s 9c Jd Ks")
    second.play("2c 3c 4c 2d 3d 4d 7h 8s 9c Jd Ks")
    # 4 hole cards each: seat 0 As Ah Ad Ac... any Omaha hand with a raked pot of 300.
    omaha.play("2c 3c 4c 5c 2d 3d 4d 5d 2h 3h 4h 5h 7h 8s 9c Jd Ks")
    assert store.jackpot_pool(POOL) == 3 + 3
    assert store.jackpot_pool("bad_beat_omaha") == 3
    store.close_now()


def test_a_jackpot_settled_on_a_stale_pool_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    config = _config()
    table = StackedTable(store, config, ["ana", "bo", "cy"])
    store.seed_jackpot(POOL, 500)
    cards = parse_cards(QUEENS_LOSE)
    deck = cards + tuple(card for card in variant_by_id("texas_holdem").deck if card not in cards)
    events = table.table.start_hand(deck, 1.0, button_draw_deck=parse_cards("2s 3s As"))
    start = hand_start_of(table.table, "t1", "t1-x", events, 1.0, table_settings(config))
    store.hand_started(start)
    hand = table.table.hand
    assert hand is not None
    while table.table.hand is not None:
        turn = table.table.to_act()
        options = table.table.hand.legal_actions()
        assert turn is not None and options is not None
        move: Any = Show() if options.can_show else Check() if options.can_check else Call()
        table.table.act(table.table.players[turn[0]].player, move, 1.0)
    log = list(hand.events)
    stale, _ = settle_jackpot(config, 400, log, start.players)
    with pytest.raises(ValueError, match="settled on a pool of 400 chips, but bad_beat_holdem holds 500"):
        store.hand_finished("t1-x", log, None, jackpot_pool=POOL, jackpot=stale)
    assert store.jackpot_pool(POOL) == 500 and store.running_hands() == ["t1-x"]
    with pytest.raises(ValueError, match="must be > 0"):
        store.seed_jackpot(POOL, 0)
    store.close_now()


def test_a_tampered_jackpot_row_is_found_by_the_audit(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    store.seed_jackpot(POOL, 10_000)
    StackedTable(store, _config(), ["ana", "bo", "cy"]).play(QUEENS_LOSE)
    connection = store.connection
    connection.execute("UPDATE ledger SET amount = amount + 1 WHERE source = 'jackpot' AND player = 'bo'")
    connection.execute("UPDATE balances SET amount = amount + 1 WHERE name = 'bo'")
    findings = _chip_findings(connection)
    assert findings and all("hand t1-1: ledger rows" in line or "conservation" in line for line in findings)
    assert any("hand t1-1: ledger rows" in line for line in findings)
    connection.execute("INSERT INTO ledger (at, source, destination, amount, reason) "
                       "VALUES (1, 'issue', 'jackpot', 5, 'no pool')")
    assert any("without naming a pool" in line for line in _chip_findings(connection))
    store.close_now()


class JackpotBotTable(BotTable):
    """Bots on real shuffles, each hand's result stored with its jackpot drop (as the table runner does)."""

    drops: list[tuple[int, int]]

    def finish_hand(self) -> Any:
        from engine.fairness import Transcript
        from tests.hosting.store_play import ROOM_ID, deals

        log: list[Event] = list(self._hand.events)
        cards: tuple[Card, ...] = tuple(self.table.config.hand.variant.deck)
        transcript = Transcript(ROOM_ID, self.config.id, self._hand_id, cards, self._commitments, self._seeds,
                                deals(self._deck, self._dealt))
        self.hands.append(self._hand_id)
        started = next(event for event in log if isinstance(event, HandStarted))
        players = {seat: self.table.players[seat].player for seat, _ in started.stacks}
        outcome, body = settle_jackpot(self.config, self.store.jackpot_pool(POOL), log, players)
        assert body is None, "a real shuffle dealt a bad beat: astonishing, but this test expects drops only"
        self.drops.append((_rake(log), outcome.drop))
        return self.store.hand_finished(self._hand_id, log, transcript, jackpot_pool=POOL, jackpot=outcome)


def test_drops_over_many_hands_are_exactly_the_share_of_the_rake_and_the_audit_is_clean(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    names = [f"bot{seat}" for seat in range(4)]
    for name in names:
        store.register(name, f"ssh-ed25519 KEY-{name}")
    config = _config(blinds=(5, 10), share_percent=5)
    table = JackpotBotTable(store, config, names, random.Random(7))
    table.drops = []
    for number in range(40):
        table.play_hand(float(number))
    rakes = [rake for rake, _ in table.drops]
    assert sum(rakes) > 0
    assert [drop for _, drop in table.drops] == [rake * 5 // 100 for rake in rakes]
    dropped = sum(drop for _, drop in table.drops)
    assert 0 < dropped <= sum(rakes) * 5 // 100  # each hand rounds down on its own
    assert store.jackpot_pool(POOL) == dropped
    ledger = dict(store.connection.execute(
        "SELECT destination, SUM(amount) FROM ledger WHERE source = 'pot' AND destination IN ('rake', 'jackpot') "
        "GROUP BY destination").fetchall())
    assert ledger.get("jackpot", 0) == dropped and ledger["rake"] == sum(rakes) - dropped
    assert audit(store.connection) == []
    store.close_now()


# Seat 0 ana: Qs Qh wins with four queens (a pocket pair, both cards playing); bo a diamond flush; cy nothing.
QUEENS_WIN = "Qs 2d 3c Qh 4d 5h Qd Qc 9d 8s Kd"


def test_r_jack_2_monte_carlo_four_queens_win_eighty_percent_of_their_own_pool(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "room")
    config = _config(kind="monte_carlo", hands=("four of a kind", "straight flush", "royal flush"))
    assert jackpot_pool_name(config) == "monte_carlo_holdem"
    table = StackedTable(store, config, ["ana", "bo", "cy"])
    store.seed_jackpot("monte_carlo_holdem", 10_000)
    before = {name: store.balance(name) for name in ("ana", "bo", "cy")}
    table.play(QUEENS_WIN)
    # Rake 7 of the 300 pot, drop 50 % = 3; pool 10,003: 80 % = 8,002 to ana, 2,001 seed the next pool.
    assert {name: store.balance(name) - before[name] for name in before} == {"ana": 8_002, "bo": 0, "cy": 0}
    assert store.jackpot_pool("monte_carlo_holdem") == 2_001 and store.jackpot_pool(POOL) == 0
    body = table.bodies[0]
    assert body is not None and body["winning_hand"] == "four of a kind" and body["pool"] == 10_003
    assert body["paid"] == [{"seat": 0, "name": "ana", "role": "winner", "amount": 8_002}]
    rows = store.connection.execute(
        "SELECT source, destination, player, amount, reason, pool FROM ledger WHERE hand_id = 't1-1' AND "
        "source = 'jackpot'").fetchall()
    assert rows == [("jackpot", "balance", "ana", 8_002, "monte carlo jackpot", "monte_carlo_holdem")]
    assert _chip_findings(store.connection) == []
    store.close_now()


@pytest.mark.parametrize(("hour", "paid", "pool_after"), [
    (21, {"ana": 4_001, "bo": 2_000, "cy": 2_000}, 2_002),
    (9, {"ana": 0, "bo": 0, "cy": 0}, 10_000),
], ids=["in_its_hours_pays", "outside_its_hours_neither_feeds_nor_wins"])
def test_r_jack_2_smart_jackpot_is_a_bad_beat_live_only_in_its_hours(tmp_path: Path, hour: int,
                                                                   paid: dict[str, int], pool_after: int) -> None:
    store = Store.open(tmp_path / "room")
    config = _config(kind="smart", hours=(20, 21, 22, 23))
    table = StackedTable(store, config, ["ana", "bo", "cy"])
    table.hour = hour
    store.seed_jackpot("smart_holdem", 10_000)
    before = {name: store.balance(name) for name in ("ana", "bo", "cy")}
    table.play(QUEENS_LOSE)
    # In its hours: pool 10,000 + drop 3 = 10,003 split 4,001 / 2,000 / 2,000, 2,002 left (as the bad beat).
    assert {name: store.balance(name) - before[name] for name in before} == paid
    assert store.jackpot_pool("smart_holdem") == pool_after and store.jackpot_pool(POOL) == 0
    assert _chip_findings(store.connection) == []
    store.close_now()
