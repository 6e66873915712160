"""Tournaments in the room (issue 18), in process: players register from the lobby, the director deals through the
room's own table runners (commit–reveal, clocks), opens, balances and breaks tables while the room runs, levels
rise on its clock, players are eliminated with place and prize, a winner is paid — and every unit of money is a
ledger row the audit checks (entries = pool + fees + bounties; prizes + fees + bounties = entries to the chip).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from engine.table_events import LevelChanged
from engine.tournament.director import Phase
from engine.tournament.settings import AddOn, Rebuys
from hosting.admin_requests import parse_request
from hosting.ledger import audit
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay")


def _ledger_sums(store: Store, tournament: str) -> dict[tuple[str, str], int]:
    return {(source, destination): amount for source, destination, amount in store.connection.execute(
        "SELECT source, destination, SUM(amount) FROM ledger WHERE table_id = ? GROUP BY source, destination",
        (tournament,))}


async def test_a_sit_and_go_runs_in_the_room_to_a_winner_and_every_chip_of_money_is_in_the_ledger(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")  # 1,000 each
    room = tournament_room(tmp_path / "data", store, (sit_and_go(recurring=True, level_seconds=0.5),))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        lobby = bots[0]
        await lobby.connection.send("lobby")
        await until(lambda: bool(lobby.replies("lobby")))
        (row,) = lobby.replies("lobby")[-1]["tournaments"]
        assert (row["id"], row["type"], row["buy_in"], row["registered"], row["max"], row["status"]) == \
            ("sng", "sit_and_go", [100, 10], 0, 6, "registering")
        balances_at_the_draw: list[list[int]] = []
        run_draw = room.run_draw

        async def watching(*arguments: Any, **options: Any) -> Any:
            balances_at_the_draw.append([store.balance(name) for name in NAMES])
            return await run_draw(*arguments, **options)

        room.run_draw = watching  # type: ignore[method-assign]
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        await until(lambda: owner.director.phase is not Phase.REGISTERING)
        # paid at registration; the start waits for the first seats' draw with the six
        assert balances_at_the_draw == [[870] * 6]  # 100 + 10 + 20 each
        await until(lambda: all(bot.replies("ack") for bot in bots))
        assert [bot.replies("ack")[0]["action"] for bot in bots] == ["register"] * 6
        (proof,) = owner.director.draw_proofs  # the first seats came from a commit–reveal with the six
        assert proof["draw_id"] == "seats:sng" and sorted(proof["secrets"]) == sorted(NAMES)  # type: ignore[arg-type]
        # two tables of three opened in the room; each player is seated at his and hears it
        seated = {bot.name: bot.events("player_seated_at")[0]["table"] for bot in bots}
        assert sorted(seated.values()) == [1, 1, 1, 2, 2, 2]
        assert all(any(message.get("type") == "table" and message.get("table") == f"sng.{seated[bot.name]}"
                       for message in bot.messages) for bot in bots)
        assert "sng-2" in room.tournaments.owners  # the recurring Sit & Go opened its next copy
        await until(lambda: owner.director.phase is Phase.COMPLETE, timeout=240)
        await store.flush()

        out = bots[0].events("eliminated")
        places = {event["player"]: event["place"] for event in out}
        winner = next(name for name in NAMES if name not in places)
        assert len(places) == 5 and all(2 <= place <= 6 for place in places.values())
        for event in out:  # players out in one hand with equal stacks share a place (TDA), the others do not
            assert list(places.values()).count(event["place"]) == event["tied"]
        # every entrant heard every elimination, with the place
        assert all(len(bot.events("eliminated")) == 5 for bot in bots)
        # every level the tournament's clock reached was heard at its tables (the winner's sat through them all),
        # naming the level, and nowhere else
        heard = {message["event"].level for bot in bots for message in bot.messages
                 if message.get("type") == "event" and isinstance(message.get("event"), LevelChanged)}
        assert heard == set(range(2, owner.director.level_number + 1))
        assert not any(bot.events("level_up") for bot in bots)
        moved = [event for bot in bots for event in bot.events("player_moved")]
        assert moved and all(event["player"] == bot.name for bot in bots for event in bot.events("player_moved"))
        assert len(bots[0].events("table_broken")) == 1 and len(bots[0].events("final_table")) == 1
        await until(lambda: not any(table.startswith("sng.") for table in room.tables))  # closed with the end
        prizes = {event["player"]: event["amount"] for event in bots[0].events("prize_awarded")}
        assert sum(prizes.values()) == 600 and winner in prizes  # the whole pool: 6 × 100
        bounties = sum(event["amount"] for event in bots[0].events("bounty_won"))
        assert bounties == 120  # 6 heads × 20, the winner's own included

        sums = _ledger_sums(store, "sng")
        entries = sum(amount for (source, _), amount in sums.items() if source == "balance")
        assert entries == 6 * 130 == sums[("balance", "tournament")] + sums[("balance", "fee")] + \
            sums[("balance", "bounty")]
        paid = sums[("tournament", "balance")] + sums[("bounty", "balance")]
        assert paid + sums[("balance", "fee")] == entries  # prizes + bounties + fees = entries, to the chip
        assert sum(store.balance(name) for name in NAMES) == 6 * 1_000 - 6 * 10
        assert audit(store.connection) == []
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()


@pytest.mark.parametrize(("how", "expected"), [("equal", "equal"), ("chips", "chips")])
async def test_the_hosts_cancel_refunds_the_pool_left_equal_or_by_chips(tmp_path: Path, how: str,
                                                                       expected: str) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES[:3]:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(size=3, seats=3, level_seconds=600.0,
                                                                 cancel_refund=how),))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES[:3]]
    for bot in bots:
        bot.passive = True  # nobody busts: stacks move a little, the pool stays whole
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        await until(lambda: owner.director.hands >= 2)
        stacks = {entry.player: owner.director.stack_of(entry.number) for entry in owner.director.entries.values()}
        reply = room.console.perform("host", parse_request({"action": "cancel_tournament", "tournament": "sng"}),
                                     0.0)  # the host's command; the room file's cancel_refund decides how
        assert reply["refunded"] == 300 and "cancelled" in reply["text"]
        await until(lambda: all(bot.events("credited") for bot in bots))  # each told his share, privately
        await store.flush()
        refunds = {bot.name: sum(event["amount"] for event in bot.events("credited")) for bot in bots}
        assert sum(refunds.values()) == 300 and owner.director.phase is Phase.CANCELLED
        if expected == "equal":
            assert sorted(refunds.values()) == [100, 100, 100]
        else:  # in proportion to the stacks when cancelled (3,000 chips in play)
            for name, stack in stacks.items():
                assert abs(refunds.get(name, 0) - 300 * stack / 3_000) < 1
        # each own bounty (20) comes back too; the fees stay the house's
        assert {name: store.balance(name) for name in NAMES[:3]} == \
            {name: 1_000 - 130 + refunds.get(name, 0) + 20 for name in NAMES[:3]}
        await until(lambda: not any(table.startswith("sng.") for table in room.tables))
        assert audit(store.connection) == []
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()


async def test_requests_are_refused_with_a_reason_and_change_nothing(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    store.register("ana", "ssh-ed25519 AAAAana")
    store.register("bob", "ssh-ed25519 AAAAbob")
    store.adjust_balance("bob", -950, "test: nearly broke")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(password="secret"),))
    room.start()
    ana, bob = await Shover.join(room, "ana"), await Shover.join(room, "bob")
    try:
        await ana.connection.send("tournament", action="register", tournament="nope")
        await ana.connection.send("tournament", action="register", tournament="sng")
        await ana.connection.send("tournament", action="register", tournament="sng", password="wrong")
        await ana.connection.send("tournament", action="unregister", tournament="sng")
        await ana.connection.send("tournament", action="cheat", tournament="sng")
        await bob.connection.send("tournament", action="register", tournament="sng", password="secret")
        await until(lambda: len(ana.replies("error")) == 5 and len(bob.replies("error")) == 1)
        codes = [(error["code"], error["message"]) for error in ana.replies("error")]
        assert codes[0][0] == "no_such_tournament"
        assert "private" in codes[1][1] and "private" in codes[2][1]
        assert "not registered" in codes[3][1]
        assert codes[4][0] == "bad_field" and "tournament action" in codes[4][1]
        assert "costs 130" in bob.replies("error")[0]["message"]
        assert store.balance("ana") == 1_000 and store.balance("bob") == 50
        assert not room.tournaments.owners["sng"].director.entries

        await ana.connection.send("tournament", action="register", tournament="sng", password="secret")
        await ana.connection.send("tournament", action="state", tournament="sng")
        await until(lambda: bool(ana.replies("tournament")))
        state = ana.replies("tournament")[-1]
        assert (state["registered"], state["private"], state["status"], state["available"]["register"]) == \
            (1, True, "registering", True)
        assert state["players"][0]["name"] == "ana" and state["levels"][0]["big_blind"] == 20
        await ana.connection.send("tournament", action="unregister", tournament="sng")
        await until(lambda: len(ana.replies("ack")) == 2)
        await store.flush()
        assert store.balance("ana") == 1_000 and audit(store.connection) == []
    finally:
        for bot in (ana, bob):
            await bot.stop()
        await asyncio.sleep(0)
        await room.stop()
        await store.close()


async def test_a_rebuy_an_add_on_and_a_deal_accepted_by_all_through_the_players_requests(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES[:3]:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    config = sit_and_go(size=3, seats=3, level_seconds=600.0, knockout=0,
                        rebuys=Rebuys(4.0, 1_000, 1_000, 100, 10), add_on=AddOn(2_000, 100, 0, 600.0))
    room = tournament_room(tmp_path / "data", store, (config,))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES[:3]]
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        owner = room.tournaments.owners["sng"]
        await until(lambda: any(bot.events("rebuy_offered") for bot in bots))
        for bot in bots:
            bot.passive = True  # nobody shoves any more: the deal is made at a table that still plays
        offered = [bot for bot in bots if bot.events("rebuy_offered")]
        rebuyer = offered[0]
        await rebuyer.connection.send("tournament", action="rebuy", tournament="sng")
        for bot in offered[1:]:
            await bot.connection.send("tournament", action="decline_rebuy", tournament="sng")
        await until(lambda: any(ack.get("action") == "rebuy" for ack in rebuyer.replies("ack"))
                    or bool(rebuyer.replies("error")))
        assert not rebuyer.replies("error"), rebuyer.replies("error")
        assert [ack["stack"] for ack in rebuyer.replies("ack") if ack.get("action") == "rebuy"] == [1_000]
        assert store.balance(rebuyer.name) == 1_000 - 110 - 110  # entry 100 + 10, rebuy 100 + 10
        assert rebuyer.events("rebought")

        await until(lambda: owner.director.elapsed(owner.clock.now()) >= 4.0)  # the rebuy period is over
        live = [bot for bot in bots if any(entry.live for entry in owner.director.entries_of(bot.name))]
        await live[0].connection.send("tournament", action="state", tournament="sng")
        await until(lambda: bool(live[0].replies("tournament")))
        available = live[0].replies("tournament")[-1]["available"]
        assert available["add_on"] and not available["rebuy"]
        before = store.balance(live[0].name)
        await live[0].connection.send("tournament", action="add_on", tournament="sng")
        await until(lambda: any(ack.get("action") == "add_on" and "stack" in ack for ack in live[0].replies("ack")))
        # asked during his hand, it is made when the hand ends (the first ack says after_hand)
        assert store.balance(live[0].name) == before - 100 and live[0].events("added_on")

        proposer, others = live[0], live[1:]
        while not proposer.events("deal_proposed"):  # deals are made between hands: asked until one is
            await proposer.connection.send("tournament", action="propose_deal", tournament="sng", deal="chips")
            await asyncio.sleep(0.05)
        (proposal,) = proposer.events("deal_proposed")
        assert all(bot.events("deal_proposed") == [proposal] for bot in others)  # every player sees the numbers
        for bot in others:
            await bot.connection.send("tournament", action="accept_deal", tournament="sng")
        await until(lambda: owner.director.phase is Phase.COMPLETE)
        await store.flush()
        shares = {name: amount for name, amount in proposal["shares"]}
        await until(lambda: len(proposer.events("prize_awarded")) == sum(1 for amount in shares.values() if amount))
        paid = {event["player"]: event["amount"] for event in proposer.events("prize_awarded")}
        assert paid == {name: amount for name, amount in shares.items() if amount}
        assert sum(shares.values()) == owner.director.cashier.paid_out == 300 + 100 + 100  # entries, rebuy, add-on
        assert audit(store.connection) == []
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()
