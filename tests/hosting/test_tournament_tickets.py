"""Paying an entry with a ticket (issue 18): a satellite's ticket records the tournament it enters, a player
registers with it (his balance untouched, the target's pool grows by the buy-in), unregisters and has it back;
every row is in the ledger and the audit is clean. In process: the real room, its table runners and store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.tournament.director import Phase
from engine.tournament.settings import PayoutKind
from hosting.ledger import audit
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob", "cy")


def _sums(store: Store, tournament: str) -> dict[tuple[str, str], int]:
    return {(source, destination): amount for source, destination, amount in store.connection.execute(
        "SELECT source, destination, SUM(amount) FROM ledger WHERE table_id = ? GROUP BY source, destination",
        (tournament,))}


def _acks(bot: Shover, action: str) -> list[dict[str, Any]]:
    """``bot``'s acks of ``action`` in the main tournament (the satellite's came before)."""
    return [ack for ack in bot.replies("ack") if ack.get("action") == action and ack.get("tournament") == "main"]


async def test_a_satellite_ticket_pays_the_entry_it_was_won_for_and_comes_back_at_unregister(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")  # 1,000 each
    # the satellite: 3 × (100 + 10), its pool of 300 is two tickets worth 110 to "main" and 80 in cash
    satellite = sit_and_go("sat", size=3, seats=3, level_seconds=0.5, knockout=0, payout=PayoutKind.TICKETS,
                           ticket_value=110, ticket_to="main")
    main = sit_and_go("main", size=6, seats=6, level_seconds=600.0, knockout=0)  # 100 + 10: one ticket
    room = tournament_room(tmp_path / "data", store, (satellite, main))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sat")
        sat = room.tournaments.owners["sat"]
        await until(lambda: sat.director.phase is Phase.COMPLETE)
        await store.flush()
        places = {entry.player: entry.place for entry in sat.director.entries.values()}
        winner = next(name for name, place in places.items() if place == 1)
        assert store.tickets(winner) == {"main": 110}  # the target recorded, not the satellite
        balance = store.balance(winner)
        assert balance == 1_000 - 110

        player = next(bot for bot in bots if bot.name == winner)
        await player.connection.send("tournament", action="register", tournament="main")  # a ticket by default
        await until(lambda: bool(_acks(player, "register")) or bool(player.replies("error")))
        assert not player.replies("error"), player.replies("error")
        assert [ack["paid"] for ack in _acks(player, "register")] == ["ticket"]
        await store.flush()
        owner = room.tournaments.owners["main"]
        assert store.balance(winner) == balance  # the ticket paid, not the balance
        assert store.tickets(winner) == {}
        assert owner.director.cashier.pool == 100 and owner.director.cashier.fees == 10
        assert _sums(store, "main") == {("ticket", "tournament"): 100, ("ticket", "fee"): 10}
        assert audit(store.connection) == []

        await player.connection.send("tournament", action="unregister", tournament="main")
        await until(lambda: bool(_acks(player, "unregister")))
        assert [ack["refunded"] for ack in _acks(player, "unregister")] == ["ticket"]
        await store.flush()
        assert store.tickets(winner) == {"main": 110} and store.balance(winner) == balance
        assert owner.director.cashier.pool == 0
        assert _sums(store, "main") == {("ticket", "tournament"): 100, ("ticket", "fee"): 10,
                                        ("tournament", "ticket"): 100, ("fee", "ticket"): 10}
        assert audit(store.connection) == []

        # "ticket" asked by someone who holds none: one clear error, nothing changed
        store.register("dee", "ssh-ed25519 AAAAdee")
        dee = await Shover.join(room, "dee")
        bots.append(dee)
        await dee.connection.send("tournament", action="register", tournament="main", pay="ticket")
        await until(lambda: bool(dee.replies("error")))
        assert "your tickets for main are worth 0" in dee.replies("error")[-1]["message"]
        assert store.balance("dee") == 1_000 and len(owner.director.entries) == 0
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()
    reopened = Store.open(tmp_path / "store")  # a restart reads the tickets back from the ledger
    try:
        assert reopened.tickets(winner) == {"main": 110}
    finally:
        await reopened.close()
