"""Tournaments on the player's screen (issue 18), with Pilot on the real room: its director owning its tables
(hosting.tournaments), its table runners dealing with commit–reveal, its store keeping the money. The player ("me")
is the app; the others are bots (tests.hosting.tournament_play). Me only checks or folds unless a test says so,
so what happens to me comes from the room's rules, not from luck:

* register (a private tournament asks its password), the start (my table opens and is shown by itself), a level
  up on the table's title, the tournament screen's numbers (prize pool, payouts, players ranked by chips), being
  moved when my table breaks for the final table (the client follows: no key; a notice says where and why);
* a rebuy window when my chips are gone (R rebuys), then my elimination with place and prize;
* a deal proposed from the tournament screen, every player sent his share, all accept: paid and complete;
* registering while holding a ticket for the tournament: a window asks ticket (T) or balance (B), Esc registers
  nothing;
* a break's countdown on the table's title; the add-on window (A) when the rebuy period ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from engine.tournament.director import Phase
from engine.tournament.levels import Break, Level
from engine.tournament.seating import initial_tables
from engine.tournament.settings import AddOn, PayoutKind, Rebuys
from hosting.room import Room
from hosting.store import Store
from hosting.store.db import transaction
from hosting.store.ledger import move
from hosting.table_runner import RunnerSettings, TableRunner
from tests.hosting.tournament_play import FAST, Shover, sit_and_go, tournament_room
from tests.tui import helpers
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.tournament_book import ordinal
from tui.tournament_screens import PasswordScreen, QuestionScreen, TournamentScreen
from tui.widgets.table_view import TableView


def in_order(choices: int) -> int:
    """A seat draw that keeps the registration order (seating.shuffled)."""
    return choices - 1


def player_app(room: Room, name: str = "me") -> CroupierApp:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(room, name, key)

    app = CroupierApp(connect)
    app.strict = True  # type: ignore[attr-defined]
    return app


class Decliner(Shover):
    """A bot that declines the rebuy offered when his chips are gone (he is out then)."""

    async def _play(self) -> None:
        watcher = asyncio.get_running_loop().create_task(self._decline())
        try:
            await super()._play()
        finally:
            watcher.cancel()

    async def _decline(self) -> None:
        answered = 0
        while True:
            offers = [offer for offer in self.events("rebuy_offered") if offer["player"] == self.name]
            if len(offers) > answered:
                answered = len(offers)
                await self.connection.send("tournament", action="decline_rebuy", tournament="sng")
            await asyncio.sleep(0.05)


class Dealmaker(Shover):
    """A bot that accepts every deal proposed to him (and keeps every message, as any Shover)."""

    async def _play(self) -> None:
        watcher = asyncio.get_running_loop().create_task(self._accept_deals())
        try:
            await super()._play()
        finally:
            watcher.cancel()

    async def _accept_deals(self) -> None:
        answered = 0
        while True:
            proposals = self.events("deal_proposed")
            if len(proposals) > answered:
                answered = len(proposals)
                await self.connection.send("tournament", action="accept_deal", tournament="sng")
            await asyncio.sleep(0.05)


class Haggler(Shover):
    """A bot who declines a deal someone else proposes, then proposes an equal split himself (once; sent again
    when refused, e.g. during a hand)."""

    async def _play(self) -> None:
        watcher = asyncio.get_running_loop().create_task(self._haggle())
        try:
            await super()._play()
        finally:
            watcher.cancel()

    async def _haggle(self) -> None:
        declined = 0
        errors = -1  # errors seen when my proposal was last sent (-1: not sent)
        while True:
            others = [proposal for proposal in self.events("deal_proposed") if proposal.get("proposer") != self.name]
            if len(others) > declined:
                declined = len(others)
                await self.connection.send("tournament", action="decline_deal", tournament="sng")
            mine = any(proposal.get("proposer") == self.name for proposal in self.events("deal_proposed"))
            refused = len(self.replies("error")) > errors
            if self.events("deal_declined") and not mine and (errors < 0 or refused):
                await asyncio.sleep(0.2)
                errors = len(self.replies("error"))
                await self.connection.send("tournament", action="propose_deal", deal="equal", tournament="sng")
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def checking_or_folding(app: CroupierApp) -> AsyncIterator[None]:
    """Me at every turn: check when I may, else fold (never a chip in by choice)."""

    async def play() -> None:
        answered: set[tuple[str, int]] = set()
        while True:
            for table_id, model in list(app.models.items()):
                legal = model.legal
                if legal is None or model.to_act != model.my_seat or (table_id, model.requests) in answered:
                    continue
                answered.add((table_id, model.requests))
                kind = "check" if legal.get("can_check") else "fold"
                await app.send("action", table=table_id, hand=model.legal_hand, kind=kind)
            await asyncio.sleep(0.05)

    task = asyncio.get_running_loop().create_task(play())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def seen_following(app: CroupierApp, to: str, left: str, seen: list[bool]) -> None:
    """``seen`` gets True once the screen shows ``to`` with my seat there and ``left``'s tab is gone, at one
    moment (I may be out soon after, and a finished tournament's tables close)."""
    while not seen:
        model = app.models.get(to)
        if app.current_table == to and model is not None and model.seated and left not in app.models:
            seen.append(True)
        await asyncio.sleep(0.01)


def title_of(app: CroupierApp, table_id: str) -> str:
    view = app.view_of(table_id)
    assert isinstance(view, TableView)
    return str(view.query_one("#title", Static).render())


async def wait_until(pilot: Pilot[Any], condition: Any, timeout: float = helpers.waiting.QUIET,
                     what: str = "condition") -> None:
    """:func:`tests.tui.helpers.wait_until`; a timeout says what the player was last told."""
    try:
        await helpers.wait_until(pilot, condition, timeout, what)
    except AssertionError as late:
        app: Any = pilot.app
        raise AssertionError(f"{late}; the player's last notices: {app.notices[-12:]}") from None


def paid_in(store: Store, name: str) -> int:
    """What ``name`` paid from his balance into the tournament ``sng`` (entries, fees, rebuys, add-ons)."""
    (paid,) = store.connection.execute("SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE player = ? AND "
                                       "source = 'balance' AND table_id = 'sng'", (name,)).fetchone()
    return int(paid)


def said(app: CroupierApp, words: str) -> bool:
    return any(words in notice for notice in app.notices)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    kept = Store.open(tmp_path / "store")
    yield kept
    await kept.flush()


async def start_room(tmp_path: Path, store: Store, *config: Any, pause: float | None = None) -> Room:
    """The room with ``config``'s tournaments; ``pause``: seconds between hands (the tests' default is 0.02 s)."""
    room = tournament_room(tmp_path / "data", store, tuple(config))
    if pause is not None:
        settings = RunnerSettings(commit_seconds=FAST.commit_seconds, reveal_seconds=FAST.reveal_seconds,
                                  pause_between_hands=pause)
        room = Room(room.config, room.room_id, room.gatekeeper,
                    driver_factory=lambda room, state: TableRunner(room, state, settings), store=store)
    room.start()
    return room


async def stop(room: Room, bots: list[Shover]) -> None:
    for bot in bots:
        await asyncio.wait_for(bot.stop(), 5)
    await asyncio.wait_for(room.stop(), 5)


async def register_with_keys(pilot: Pilot[Any], app: CroupierApp, password: str | None = None) -> None:
    """From the lobby: the tournament list has the keys; E registers (the password window if private)."""
    await wait_until(pilot, lambda: app.query_one("#tournament-list", DataTable).row_count == 1,
                     what="the tournament in the lobby")
    app.query_one("#tournament-list", DataTable).focus()
    await pilot.pause(0.05)
    await pilot.press("e")
    if password is not None:
        await wait_until(pilot, lambda: isinstance(app.screen, PasswordScreen), what="the password window")
        await pilot.press(*password, "enter")
    await wait_until(pilot, lambda: said(app, "Registered in Sit & Go sng"), what="the registration's ack")


async def test_register_start_level_up_screen_numbers_and_being_moved_to_the_final_table(
        tmp_path: Path, store: Store) -> None:
    names = ("me", "ana", "bob", "cy")
    for name in names:
        store.register(name, f"ssh-ed25519 AAAA{name}")  # 1,000 each
    # level 1 lasts 3 s, level 2 (20/40) ten minutes: the level up comes soon, and no blind ever puts me all in
    # (a slow, loaded machine reaching 1,200/2,400 would turn my tournament into a coin flip)
    config = sit_and_go(size=4, seats=3, knockout=0, level_seconds=3.0, password="felt")
    first, second, *later = config.settings.schedule
    assert isinstance(second, Level)
    config = dataclasses.replace(config, settings=dataclasses.replace(
        config.settings, schedule=(first, dataclasses.replace(second, duration=600.0), *later)))
    room = await start_room(tmp_path, store, config)
    owner = room.tournaments.owners["sng"]
    owner.director.draw = in_order
    owner.director.seats_by_draw = False  # this test lays out the seats itself: no commit–reveal seat draw
    # entries 1-4 in registration order; the highest table breaks when three are left (seating.table_to_break)
    layout = initial_tables([1, 2, 3, 4], 3, in_order)
    my_entry, mate = layout[-1]
    others = [entry for entry in (1, 2, 3, 4) if entry not in layout[-1]]
    order = {my_entry: "me", mate: "ana", others[0]: "bob", others[1]: "cy"}
    # my table-mate only checks or folds, as I do: no showdown, no all in, I cannot bust at table 2 (the blinds go
    # back and forth); the other table's two check and call until told to shove, then one of them is out
    bots = {"ana": await Shover.join(room, "ana", shove_rate=0.0), "bob": await Shover.join(room, "bob"),
            "cy": await Shover.join(room, "cy")}
    bots["ana"].folding = True
    bots["bob"].passive = bots["cy"].passive = True
    app = player_app(room)
    try:
        async with app.run_test(size=(140, 44)) as pilot, checking_or_folding(app):
            followed: list[bool] = []
            watcher = asyncio.get_running_loop().create_task(seen_following(app, "sng.1", "sng.2", followed))
            for entry in sorted(order):
                if order[entry] == "me":
                    await register_with_keys(pilot, app, password="felt")
                else:
                    await bots[order[entry]].connection.send("tournament", action="register", tournament="sng",
                                                             password="felt")
                    await wait_until(pilot, lambda count=entry: len(owner.director.entries) == count,  # type: ignore[misc]
                                     what="a registration")
            assert owner.director.entries[my_entry].player == "me"
            assert store.balance("me") == 1_000 - 110
            # the start: my table opens and is shown, no key pressed
            await wait_until(pilot, lambda: app.current_table == "sng.2", what="my table shown at the start")
            assert said(app, "you are at table 2")
            await wait_until(pilot, lambda: "Sit & Go sng · table 2" in title_of(app, "sng.2"), what="its title")
            # a level up, on my table's title (its clock counted down there): table 2, or table 1 if I was moved
            await wait_until(pilot, lambda: app.current_table is not None
                             and "Level 2 20/40" in title_of(app, app.current_table), what="level 2 on my table")
            await wait_until(pilot, lambda: "Level 2 20/40 · next 30/60 in" in title_of(app, str(app.current_table)),
                             what="the next level and its time")
            # the tournament screen: its numbers are the room's
            await pilot.press("i")
            await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen)
                             and "Prize pool" in app.screen.text(), what="the tournament screen")
            screen = app.screen
            assert isinstance(screen, TournamentScreen)
            text = screen.text()
            assert "Prize pool 400" in text  # 4 × 100 (the fees are the room's)
            payouts = [prize.amount for prize in owner.director.projected_prizes()]
            assert sum(payouts) == 400
            assert "Payouts: " + ", ".join(f"{ordinal(place)} {amount}" for place, amount in
                                           enumerate(payouts, start=1)) in text
            ranked = [line.split() for line in text.splitlines()
                      if line[:1] in ("▶", " ") and line[1:4].strip().isdigit()]
            chips = [int(row[-2]) for row in ranked]
            assert len(ranked) in (3, 4) and chips == sorted(chips, reverse=True), text
            assert sum(chips) == 4_000  # the chips of the players left: none lost, none made
            assert [row[0] for row in ranked].count("▶") == 1  # me, marked
            assert f"{app.current_table} (" in text and "← my table" in text
            await pilot.press("escape")
            await wait_until(pilot, lambda: not isinstance(app.screen, TournamentScreen), what="the screen closed")
            bots["bob"].passive = bots["cy"].passive = False
            # one of bob and cy is out; three left: table 2 breaks, I am moved — the client follows by itself
            await wait_until(pilot, lambda: bool(followed), timeout=90, what="my client following me to table 1")
            assert said(app, "moved to table 1")
            assert said(app, "(the final table)")
            # the room's announcement to all, a message of its own: it may land a moment after my move
            await wait_until(pilot, lambda: said(app, "the final table — 3 players at table 1"),
                             what="the final table announced")
            watcher.cancel()
            assert app.internal_errors == []
    finally:
        await stop(room, list(bots.values()))


async def test_a_rebuy_window_then_out_with_place_and_prize(tmp_path: Path, store: Store) -> None:
    for name in ("me", "ana", "bob"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    # a rebuy once my stack is 900 or less (the blinds I fold take it there); out second, or first after a run
    # of won all-ins
    rebuys = Rebuys(until_seconds=600.0, threshold=900, chips=500, price=100, max_rebuys=1)
    room = await start_room(tmp_path, store, sit_and_go(size=3, seats=3, knockout=0, level_seconds=1.0,
                                                        rebuys=rebuys, payout=PayoutKind.TABLE,
                                                        payout_percentages=(65, 35)), pause=3.0)
    # a rebuy offered when the chips are gone holds the table up to REBUY_DECISION_SECONDS (Decliner answers at once)
    owner = room.tournaments.owners["sng"]
    bots: list[Shover] = [await Decliner.join(room, "ana"), await Decliner.join(room, "bob")]  # they shove
    app = player_app(room)
    try:
        async with app.run_test(size=(140, 44)) as pilot, checking_or_folding(app):
            await register_with_keys(pilot, app)
            for bot in bots:
                await bot.connection.send("tournament", action="register", tournament="sng")
            await wait_until(pilot, lambda: app.current_table == "sng.1", what="my table at the start")
            # the blinds I fold take my stack to 900 or less: the rebuy window, R rebuys
            await wait_until(pilot, lambda: isinstance(app.screen, QuestionScreen) and app.screen.kind == "rebuy",
                             timeout=120, what="the rebuy window")
            await pilot.press("r")
            await wait_until(pilot, lambda: said(app, "rebuy 1: +500 chips"), what="the rebuy")
            await store.flush()  # what I paid (a prize may be paid already on a slow machine: not the balance)
            assert paid_in(store, "me") == 110 + 100
            # the second time there is no rebuy left (max 1): out, with the place and the prize
            await wait_until(pilot, lambda: owner.director.phase is Phase.COMPLETE, timeout=180, what="the end")
            (mine,) = owner.director.entries_of("me")
            assert mine.place in (1, 2)  # a shover went out first (his rebuy unanswered)
            pool = 3 * 100 + 100  # entries and my rebuy
            prize = pool * (35 if mine.place == 2 else 65) // 100
            assert prize == {2: 140, 1: 260}[mine.place]
            await wait_until(pilot, lambda: said(app, f"you finished {ordinal(mine.place or 0)} and won {prize} chips"),
                             what="the place and the prize")
            if mine.place == 2:
                assert said(app, "you are out in 2nd place")
            await store.flush()
            assert store.balance("me") == 1_000 - 110 - 100 + prize
            assert app.internal_errors == []
    finally:
        await stop(room, bots)


async def test_a_deal_proposed_on_the_screen_then_one_accepted_by_all_is_paid_and_completes(
        tmp_path: Path, store: Store) -> None:
    for name in ("me", "ana", "bob"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    # a deal is made between hands: a proposal asked during one goes when it ends (a second between them)
    room = await start_room(tmp_path, store, sit_and_go(size=3, seats=3, knockout=0, level_seconds=600.0),
                            pause=1.0)
    owner = room.tournaments.owners["sng"]
    bots: list[Shover] = [await Haggler.join(room, "ana"), await Dealmaker.join(room, "bob")]
    for bot in bots:
        bot.passive = True  # checks and calls: the chips move slowly, nobody is out before the deal
    app = player_app(room)
    try:
        async with app.run_test(size=(140, 44)) as pilot, checking_or_folding(app):
            await register_with_keys(pilot, app)
            for bot in bots:
                await bot.connection.send("tournament", action="register", tournament="sng")
            await wait_until(pilot, lambda: app.current_table == "sng.1", what="the final table at the start")
            await pilot.press("i")
            await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen)
                             and "Prize pool 300" in app.screen.text(), what="the tournament screen")
            # before anyone proposes, the screen shows every finalist's number in each of the four named deals
            await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen) and all(
                line in app.screen.text() for line in ("Deals (propose with 1–4):", "  1 equal shares: ",
                                                       "  2 chip-proportional: ", "  3 ICM: ", "  4 chip-chop: ")),
                what="the four deals on offer")
            offered = next(line for line in app.screen.text().splitlines() if line.startswith("  1 equal shares: "))
            assert all(f"{name} 100" in offered for name in ("ana", "bob", "me"))
            # I propose a chip-proportional deal: every player is sent the numbers; proposing is my acceptance, so
            # I am told my share and not asked; ana declines it
            await pilot.press("2")
            await wait_until(pilot, lambda: bool(bots[1].events("deal_proposed")), what="my proposal sent")
            mine = bots[1].events("deal_proposed")[0]  # ana's may follow at once
            chips = {str(who): int(amount) for who, amount in mine["shares"]}
            assert mine["proposer"] == "me" and sorted(chips) == ["ana", "bob", "me"] and sum(chips.values()) == 300
            await wait_until(pilot, lambda: said(app, "you propose a deal (chip-proportional): you would get "
                                                      f"{chips['me']} chips"), what="my share said")
            await wait_until(pilot, lambda: said(app, "ana declines the deal; play goes on"), what="ana's no")
            # ana proposes equal shares: the window asks me, with my number; Y accepts, bob accepts: paid
            # (ana may propose at once: her window then opens over the tournament screen, and Esc would close it
            # instead, so Esc only while the tournament screen is on top)
            if isinstance(app.screen, TournamentScreen):
                await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, QuestionScreen) and app.screen.kind == "deal",
                             what="the deal window for ana's proposal")
            question = app.screen
            assert isinstance(question, QuestionScreen)
            assert question.lines[0] == "ana proposes a deal (equal shares):"
            assert "  me: 100  ← you" in question.lines and "You would get 100 chips and the tournament ends when " \
                "all accept." in question.lines
            equal = [proposal for proposal in bots[1].events("deal_proposed") if proposal["proposer"] == "ana"]
            assert [sorted(map(tuple, proposal["shares"])) for proposal in equal] == [
                [("ana", 100), ("bob", 100), ("me", 100)]]  # every player sees the numbers
            await pilot.press("y")
            await wait_until(pilot, lambda: owner.director.phase is Phase.COMPLETE, what="the deal done")
            await wait_until(pilot, lambda: said(app, "is complete by a deal"), what="the end said")
            assert said(app, "you accept the deal") and said(app, "won 100 chips")
            await store.flush()
            assert {name: store.balance(name) for name in chips} == {name: 1_000 - 110 + 100 for name in chips}
            assert not [notice for notice in app.notices if "no deal is on the table" in notice
                        or "already accepted" in notice]
            assert app.internal_errors == []
    finally:
        await stop(room, bots)


def holding_a_ticket(path: Path, name: str, value: int, target: str) -> Store:
    """The store at ``path`` with ``name`` registered (1,000 in the bank) and holding a ticket worth ``value`` for
    ``target`` (as a satellite's prize row would leave it), opened again so that it reads the ticket back."""
    store = Store.open(path)
    store.register(name, f"ssh-ed25519 AAAA{name}")
    with transaction(store.connection, write=True):
        move(store.connection, 0.0, "issue", "ticket", value, "test: a satellite's ticket", player=name,
             table_id="sat", ticket_for=target)
    store.close_now()
    return Store.open(path)


def lobby_row(app: CroupierApp) -> list[str]:
    return [str(cell) for cell in app.query_one("#tournament-list", DataTable).get_row_at(0)]


async def press_register(pilot: Pilot[Any], app: CroupierApp) -> QuestionScreen:
    """E on the tournament in the lobby; the ticket-or-balance window that it opens."""
    await wait_until(pilot, lambda: app.query_one("#tournament-list", DataTable).row_count == 1,
                     what="the tournament in the lobby")
    app.query_one("#tournament-list", DataTable).focus()
    await pilot.pause(0.05)
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(app.screen, QuestionScreen) and app.screen.kind == "pay",
                     what="the ticket-or-balance window")
    question = app.screen
    assert isinstance(question, QuestionScreen)
    return question


async def test_registering_with_a_ticket_asks_ticket_or_balance_by_key(tmp_path: Path) -> None:
    store = holding_a_ticket(tmp_path / "store", "me", 110, "sng")
    assert store.tickets("me") == {"sng": 110} and store.balance("me") == 1_000
    room = await start_room(tmp_path, store, sit_and_go(size=3, seats=3, knockout=0, level_seconds=600.0))
    owner = room.tournaments.owners["sng"]
    app = player_app(room)
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            # the lobby's row (R-LOBBY-1): name, type, game, buy-in + fee, registered / max, start, status
            await wait_until(pilot, lambda: app.query_one("#tournament-list", DataTable).row_count == 1,
                             what="the tournament in the lobby")
            assert lobby_row(app) == ["Sit & Go sng", "Sit & Go", "Hold'em", "100+10", "0/3", "starts at 3",
                                      "registering"]
            question = await press_register(pilot, app)
            assert "You hold a ticket for this tournament. Pay the entry (100+10) with it" in question.lines[0]
            await pilot.press("escape")  # no answer: nothing registered, nothing paid
            await wait_until(pilot, lambda: not isinstance(app.screen, QuestionScreen), what="the window closed")
            await pilot.pause(0.2)
            assert not owner.director.entries and store.balance("me") == 1_000
            # B: the balance pays, the ticket stays mine
            await press_register(pilot, app)
            await pilot.press("b")
            await wait_until(pilot, lambda: said(app, "Registered in Sit & Go sng: 1 player so far"), what="registered")
            assert not said(app, "with your ticket")
            assert store.balance("me") == 1_000 - 110 and store.tickets("me") == {"sng": 110}
            await wait_until(pilot, lambda: lobby_row(app)[4] == "1/3", what="the lobby counting me")
            await pilot.press("u")
            await wait_until(pilot, lambda: said(app, "the entry is refunded"), what="unregistered")
            assert store.balance("me") == 1_000 and not owner.director.entries
            # T: the ticket pays, the balance is untouched; unregistering gives the ticket back
            await press_register(pilot, app)
            await pilot.press("t")
            await wait_until(pilot, lambda: said(app, "Registered in Sit & Go sng with your ticket"),
                             what="registered with the ticket")
            assert store.balance("me") == 1_000 and store.tickets("me") == {}
            (entry,) = owner.director.entries.values()
            assert entry.player == "me" and owner.director.cashier.pool == 100
            await pilot.press("u")
            await wait_until(pilot, lambda: said(app, "your ticket is back"), what="the ticket back")
            assert store.tickets("me") == {"sng": 110} and store.balance("me") == 1_000
            assert app.internal_errors == []
    finally:
        await stop(room, [])
        await store.flush()


def countdown(title: str) -> int:
    """The seconds of a break's countdown on a table's title (``Break: play resumes in 9:58 at 20/40``)."""
    after = title.split("Break: play resumes in ", 1)[1]
    minutes, seconds = after.split()[0].split(":")
    return int(minutes) * 60 + int(seconds)


async def test_the_add_on_window_by_key_then_a_breaks_countdown_on_the_table(tmp_path: Path, store: Store) -> None:
    for name in ("me", "ana", "bob"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    # rebuys for 1 s, then the add-on (1,500 chips for 100) for ten minutes; level 1 lasts 1.5 s, then a break of
    # ten minutes: the add-on window opens before or as the break starts, and the break outlasts the test
    config = sit_and_go(size=3, seats=3, knockout=0, level_seconds=1.5,
                        rebuys=Rebuys(until_seconds=1.0, threshold=0, chips=1_000, price=100),
                        add_on=AddOn(chips=1_500, price=100, window_seconds=600.0))
    first, *later = config.settings.schedule
    config = dataclasses.replace(config, settings=dataclasses.replace(
        config.settings, schedule=(first, Break(600.0), *later)))
    room = await start_room(tmp_path, store, config)
    owner = room.tournaments.owners["sng"]
    bots = [await Shover.join(room, "ana"), await Shover.join(room, "bob")]
    for bot in bots:
        bot.passive = True  # they check and call, I check or fold: nobody is out, nobody is offered a rebuy
    app = player_app(room)
    try:
        async with app.run_test(size=(140, 44)) as pilot, checking_or_folding(app):
            await register_with_keys(pilot, app)
            for bot in bots:
                await bot.connection.send("tournament", action="register", tournament="sng")
            await wait_until(pilot, lambda: app.current_table == "sng.1", what="my table at the start")
            # the add-on window, by key (A)
            await wait_until(pilot, lambda: isinstance(app.screen, QuestionScreen) and app.screen.kind == "add_on",
                             what="the add-on window")
            question = app.screen
            assert isinstance(question, QuestionScreen)
            assert question.lines == ["Sit & Go sng: the add-on is open."] and question.yes[0] == "a"
            (mine,) = owner.director.entries_of("me")
            await pilot.press("a")
            await wait_until(pilot, lambda: owner.director.entries[mine.number].added_on, what="the add-on made")
            await wait_until(pilot, lambda: said(app, "add-on done — your stack is"), what="the add-on's ack")
            assert owner.director.cashier.pool == 3 * 100 + 100
            await store.flush()
            assert store.balance("me") == 1_000 - 110 - 100
            assert said(app, "add-on: +1500 chips")
            # the tournament screen says what is open to me: the add-on taken, nothing
            await pilot.press("i")
            await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen)
                             and "Prize pool 400" in app.screen.text(), what="the tournament screen")
            await wait_until(pilot, lambda: "Open now: nothing" in app.screen.text(),  # type: ignore[attr-defined]
                             what="nothing open once the add-on is taken")
            assert "[1: 10/20] · break 10:00 · 2: 20/40 · 3: 30/60" in app.screen.text()  # type: ignore[attr-defined]
            await pilot.press("escape")
            # made at once (between hands), or asked during my hand and made when it ended: a stack, never "None"
            (done,) = [notice for notice in app.notices if "add-on done — your stack is" in notice]
            stack = int(done.rsplit(" ", 1)[1].rstrip("."))
            assert 1_500 < stack <= 3 * 1_000 + 1_500, app.notices
            # the break: its countdown on my table's title, going down second by second, to level 2 at 20/40
            await wait_until(pilot, lambda: "Break: play resumes in" in title_of(app, "sng.1"),
                             what="the break on the table")
            assert owner.director.in_break
            first_seen = countdown(title_of(app, "sng.1"))
            assert 540 <= first_seen <= 600 and "at 20/40" in title_of(app, "sng.1")
            await wait_until(pilot, lambda: countdown(title_of(app, "sng.1")) < first_seen,
                             what="the countdown going down")
            assert countdown(title_of(app, "sng.1")) >= first_seen - 20  # seconds, not minutes, went by
            assert app.internal_errors == []
    finally:
        await stop(room, bots)
