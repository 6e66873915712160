"""A bad beat at a real table over SSH (R-JACK-1): the table runner settles the jackpot, every player at the
table gets the public ``jackpot_paid`` event, the players paid get their new ``balance``, and the lobby and
table messages show the pool. The first hand's deck is stacked (the fairness check of that hand fails, as it
must; it is not what this test looks at)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from engine.cards import Card, parse_cards
from hosting.client import RoomClient
from hosting.config import JackpotConfig, RoomConfig, TableConfig
from hosting.ledger import audit, check_conservation, check_ledger
from hosting.server import RunningRoom
from hosting.store import connect as connect_store
from hosting.table_runner import RunnerSettings, cancel_and_wait
from tests.waiting import QUIET, until

FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.02)
# Seats 0 ana, 1 bruno, 2 carla: ana Qs Qh (four queens), bruno Jd Td (straight flush 8-Q), carla 2c 3h; board
# Qd Qc 9d 8d Kd. Cards go one at a time from the seat left of the button.
BUTTON_DRAW = parse_cards("2s 3s As")


def _room() -> RoomConfig:
    table = TableConfig("h1", "Hold'em 5/10", "texas_holdem", "no_limit", 5, 10, 6, 100, 1000, rake="white-label",
                        jackpot=JackpotConfig(share_percent=5, minimum_big_blind=10))
    return RoomConfig("jackpot room", (table,))


async def _check_or_call_forever(client: RoomClient) -> None:
    while True:
        message = await client.receive(30)
        if message["type"] == "action_request":
            legal = message["legal"]
            kind = ("show" if legal.get("can_show") else "check" if legal.get("can_check")
                    else "call" if legal.get("call_amount") is not None else "fold")
            await client.send("action", table=message["table"], hand=message["hand"], kind=kind)


async def _until(check: Any, timeout: float = QUIET) -> Any:
    return await until(check, "the room", quiet=max(timeout, QUIET))


async def test_a_bad_beat_at_a_table_pays_everyone_dealt_in_and_tells_the_table(
        rooms: Any, connect: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from hosting import table_runner

    honest = table_runner.derive_deck
    stacked_hands: list[str] = []
    holdings = {0: parse_cards("Qs Qh"), 1: parse_cards("Jd Td"), 2: parse_cards("2c 3h")}

    def stacked(hand_id: str, seeds: Any, cards: Any) -> tuple[Card, ...]:
        """The first hand with all three dealt in gets the bad beat; every other deck is honest."""
        deck = honest(hand_id, seeds, cards)
        engine = running.room.tables["h1"].engine
        if len(seeds) != 4 or (stacked_hands and not hand_id.startswith(stacked_hands[0])):
            return deck
        if hand_id.endswith("/button"):  # the table's first hand: carla draws the ace, ana is the small blind
            top: tuple[Card, ...] = BUTTON_DRAW
        else:
            stacked_hands.append(hand_id)
            plan = engine.plan_next_hand() if engine.positions is not None else None
            button, seats = (plan.button_seat, sorted(plan.dealt_in)) if plan is not None else (2, [0, 1, 2])
            after = [seat for seat in seats if seat > button] + [seat for seat in seats if seat <= button]
            top = (*[holdings[seat][0] for seat in after], *[holdings[seat][1] for seat in after],
                   *parse_cards("Qd Qc 9d 8d Kd"))
        return top + tuple(card for card in deck if card not in top)

    monkeypatch.setattr(table_runner, "derive_deck", stacked)
    running: RunningRoom = await rooms(_room(), runner_settings=FAST)
    store = running.room.store
    assert store is not None
    store.seed_jackpot("bad_beat_holdem", 10_000)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    lobby = (await ana.request("lobby"))["tables"][0]
    assert lobby["jackpot"] == {"pool": "bad_beat_holdem", "amount": 10_000, "share_percent": 5,
                                "minimum_big_blind": 10, "qualifying_hand": "four_queens"}
    watcher: RoomClient = await connect(running, "dora")
    await watcher.request("watch", table="h1")
    for seat, client in enumerate((ana, bruno, carla)):
        await client.request("sit", table="h1", buy_in=100, seat=seat)
    tasks = [asyncio.create_task(_check_or_call_forever(client)) for client in (ana, bruno, carla)]
    try:
        def paid_event(client: RoomClient) -> list[dict[str, Any]]:
            return [m for m in client.received if m["type"] == "jackpot_paid"]

        (message,) = await _until(lambda: paid_event(watcher))
        # 3 x 10 = 30 in the pot, white-label rake 2.5 % = 0 chips, so no drop: the pool is the seeded 10,000.
        assert message["hand"] == stacked_hands[0] and message["table"] == "h1"
        assert message == {
            "v": 1, "type": "jackpot_paid", "table": "h1", "hand": stacked_hands[0],
            "jackpot": "bad_beat_holdem", "pool": 10_000, "losing_hand": "four of a kind",
            "losing_cards": message["losing_cards"],
            "paid": [{"seat": 0, "name": "ana", "role": "loser", "amount": 4_000},
                     {"seat": 1, "name": "bruno", "role": "winner", "amount": 2_000},
                     {"seat": 2, "name": "carla", "role": "other", "amount": 2_000}],
            "next_pool": 2_000,
        }
        for client in (ana, bruno, carla):
            assert (await _until(lambda client=client: paid_event(client)))[0] == message
        # 1,000 chips each at registration, 100 bought in: the jackpot went to the balance, not the stack.
        balances = {name: store.balance(name) for name in ("ana", "bruno", "carla")}
        assert balances == {"ana": 4_900, "bruno": 2_900, "carla": 2_900}
        told = await _until(lambda: [m for m in ana.received if m["type"] == "balance" and m["reason"] == "jackpot"])
        assert told[0]["balance"] == 4_900
        tables = [m for m in watcher.received if m["type"] == "table" and m.get("jackpot")]
        assert tables and tables[-1]["jackpot"]["amount"] == store.jackpot_pool("bad_beat_holdem")
    finally:
        for task in tasks:
            await cancel_and_wait(task)
    await store.flush()
    reader = connect_store(running.data_dir, read_only=True)
    with contextlib.closing(reader):
        assert [*check_conservation(reader), *check_ledger(reader)] == []
        # the whole audit: only the stacked hand's shuffle is found out; every hand's chips, jackpot included, agree
        findings = audit(reader)
        assert findings and all(line.startswith(f"hand {stacked_hands[0]}: fairness") for line in findings)
        (paid,) = reader.execute("SELECT COUNT(*) FROM ledger WHERE source = 'jackpot'").fetchone()
        assert paid == 3


async def test_r_jack_2_lobby_shows_monte_carlo_and_smart_pools_with_their_conditions(
        rooms: Any, connect: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import time as time_module

    nine_pm = time_module.struct_time((2026, 1, 1, 21, 0, 0, 3, 1, 0))
    monkeypatch.setattr(time_module, "localtime", lambda *args: nine_pm)
    monte_carlo = TableConfig("m1", "Monte-Carlo 5/10", "texas_holdem", "no_limit", 5, 10, 6, 100, 1000,
                              rake="white-label", jackpot=JackpotConfig(kind="monte_carlo",
                                                                        hands=("four of a kind", "royal flush")))
    smart = TableConfig("s1", "Smart 5/10", "texas_holdem", "no_limit", 5, 10, 6, 100, 1000, rake="white-label",
                        jackpot=JackpotConfig(kind="smart", hours=(20, 21, 22)))
    running: RunningRoom = await rooms(RoomConfig("jackpots", (monte_carlo, smart)), runner_settings=FAST)
    store = running.room.store
    assert store is not None
    store.seed_jackpot("monte_carlo_holdem", 7_000)
    ana = await connect(running, "ana")
    rows = {row["id"]: row for row in (await ana.request("lobby"))["tables"]}
    assert rows["m1"]["jackpot"] == {"pool": "monte_carlo_holdem", "amount": 7_000, "share_percent": 5,
                                     "minimum_big_blind": 0, "kind": "monte_carlo",
                                     "hands": ["four of a kind", "royal flush"]}
    assert rows["s1"]["jackpot"] == {"pool": "smart_holdem", "amount": 0, "share_percent": 5, "minimum_big_blind": 0,
                                     "qualifying_hand": "four_queens", "kind": "smart", "hours": [20, 21, 22],
                                     "live": True}  # 21 h, the room's clock
