"""R-TOUR-6 in the room: a disconnected tournament player is never removed. He is dealt in without his seed,
posts every blind and ante, and the table checks for him when free, else folds him, at once; his table keeps
dealing, every other client's fairness check passes, and when he comes back he plays again.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from engine.events import (
    AntePosted,
    BetPlaced,
    BlindPosted,
    Called,
    Checked,
    Event,
    Folded,
    PotAwarded,
)
from engine.table_events import HandFinished, PlayerAway, PlayerMovedIn, TimedOut, TurnStarted
from engine.tournament.formats import Format
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting import tournaments
from hosting.store import Store
from hosting.tournament_config import TournamentConfig
from tests.hosting.tournament_play import Shover, tournament_room, until
from tui.connection import ConnectionLost


class Bettor(Shover):
    """Bets the minimum when nobody has bet, calls a bet, checks his option: never folds, so every hand the
    absent player is in has a bet he must fold to (his stack then moves by his blinds and antes only)."""

    async def _play(self) -> None:
        with contextlib.suppress(ConnectionLost):
            while True:
                message = await self.connection.receive()
                self.messages.append(message)
                if message.get("type") != "action_request":
                    continue
                legal: dict[str, Any] = message["legal"]
                fields: dict[str, Any] = {}
                if legal.get("can_show"):
                    kind = "show"
                elif legal.get("is_bet") and legal.get("min_raise_to") is not None:
                    kind, fields = "bet", {"amount": legal["min_raise_to"]}
                elif legal.get("call_amount") is not None:
                    kind = "call"
                else:
                    kind = "check"
                await self.connection.send("action", kind=kind, table=message["table"], hand=message["hand"],
                                           **fields)


class Sleeper(Shover):
    """Connected, commits and reveals (his client does), but never answers a turn: he times out."""

    async def _play(self) -> None:
        with contextlib.suppress(ConnectionLost):
            while True:
                self.messages.append(await self.connection.receive())


def _events(bot: Shover) -> list[Event]:
    return [message["event"] for message in bot.messages if message.get("type") == "event"]


def _finished(bot: Shover) -> list[HandFinished]:
    return [event for event in _events(bot) if isinstance(event, HandFinished)]


def _by_hand(bot: Shover) -> list[list[Event]]:
    """The events of each hand this bot saw to its end, in order, each ending with its ``HandFinished``."""
    hands: dict[str, list[Event]] = {}
    for message in bot.messages:
        if message.get("type") == "event" and message.get("hand"):
            hands.setdefault(message["hand"], []).append(message["event"])
    return [events for events in hands.values() if events and isinstance(events[-1], HandFinished)]


def _sit_and_go() -> TournamentConfig:
    """Three players at one table, 1,000 chips, blinds 10/20 with a 5 ante for ten minutes (no level up here)."""
    settings = TournamentSettings("absent", Format.SIT_AND_GO, sit_and_go_size=3, max_players=3, seats_per_table=3,
                                  price=EntryPrice(100, 10, 0), starting_stack=1_000,
                                  schedule=(Level(10, 20, ante=5, duration=600.0),))
    return TournamentConfig(settings, "Sit & Go absent", False, "chips")


async def test_a_disconnected_player_is_blinded_and_folded_his_table_keeps_dealing_and_he_plays_on_return(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in ("ana", "bob", "cy"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (_sit_and_go(),))
    room.start()
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    cy = await Bettor.join(room, "cy", public_key=key)
    bots: list[Shover] = []
    try:
        await cy.connection.send("tournament", action="register", tournament="absent")
        await until(lambda: bool(cy.replies("ack")))
        await cy.stop()  # gone before the first hand
        bots = [await Bettor.join(room, name) for name in ("ana", "bob")]
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="absent")
        ana = bots[0]
        await until(lambda: len(_finished(ana)) >= 6, timeout=120)
        (seat,) = {event.seat for event in _events(ana) if isinstance(event, PlayerMovedIn) and event.player == "cy"}
        hands = _by_hand(ana)[:6]
        # two orbits of three: he posts the 5 ante six times, the 10 small blind twice, the 20 big blind twice
        antes = [event.amount for hand in hands for event in hand
                 if isinstance(event, AntePosted) and event.seat == seat]
        blinds = sorted(event.amount for hand in hands for event in hand
                        if isinstance(event, BlindPosted) and event.seat == seat)
        assert antes == [5] * 6 and blinds == [10, 10, 20, 20]
        # the table acted for him at once (checked when free, else folded) and he never won a chip
        his = [event for hand in hands for event in hand if getattr(event, "seat", None) == seat]
        assert not [event for event in his if isinstance(event, TurnStarted | Called | BetPlaced | PotAwarded)]
        assert {event.action for event in his if isinstance(event, TimedOut)} <= {"check", "fold"}
        assert sum(isinstance(event, Folded) for event in his) == 6  # folded in every hand
        stacks = [dict(hand[-1].stacks)[seat] for hand in hands]  # HandFinished: after each hand
        assert stacks[-1] == 1_000 - 30 - 20 - 40 == 910
        posted = 0
        for hand, stack in zip(hands, stacks, strict=True):
            posted += sum(event.amount for event in hand
                          if isinstance(event, AntePosted | BlindPosted) and event.seat == seat)
            assert stack == 1_000 - posted
        # dealt in without a seed: his seat is in no commitment, and every other client verified every hand
        transcripts = [message["transcript"] for message in ana.replies("seeds")[:6]]
        assert all(str(seat) not in transcript["commitments"] and str(seat) not in transcript["seeds"]
                   for transcript in transcripts)
        for bot in bots:
            assert bot.connection.fairness is not None
            results = bot.connection.fairness.results
            assert len(results) >= 6 and all(result.ok for result in results.values())

        back = await Bettor.join(room, "cy", public_key=key)  # he returns and plays for himself
        bots.append(back)
        await until(lambda: any(str(seat) in message["transcript"]["seeds"] for message in back.replies("seeds")))
        assert back.replies("action_request")
        acted = [event for event in _events(back) if isinstance(event, Called | BetPlaced | Checked)
                 and event.seat == seat]
        assert acted
        assert back.connection.fairness is not None
        assert all(result.ok for result in back.connection.fairness.results.values())
        assert all(result.ok for bot in bots for result in bot.connection.fairness.results.values()
                   if bot.connection.fairness is not None)
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()


async def test_a_tournament_player_away_after_a_time_out_acts_for_himself_again_when_he_returns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournaments, "ACTION_SECONDS", 1.0)  # he times out in 1 + 1 seconds, not 20 + 30
    monkeypatch.setattr(tournaments, "TIME_BANK_SECONDS", 1.0)
    store = Store.open(tmp_path / "store")
    for name in ("ana", "bob", "cy"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (_sit_and_go(),))
    room.start()
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    bots: list[Shover] = [await Sleeper.join(room, "cy", public_key=key)]
    try:
        bots += [await Bettor.join(room, name) for name in ("ana", "bob")]
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="absent")
        sleeper = bots[0]
        await until(lambda: any(isinstance(event, PlayerAway) and event.player == "cy" for event in _events(sleeper)))
        await sleeper.stop()
        bots.remove(sleeper)
        back = await Bettor.join(room, "cy", public_key=key)
        bots.append(back)
        await until(lambda: bool(back.replies("action_request")), timeout=60)
        (seat,) = {event.seat for event in _events(bots[0]) if isinstance(event, PlayerMovedIn)
                   and event.player == "cy"}
        await until(lambda: any(isinstance(event, Called | BetPlaced | Checked) and event.seat == seat
                                for event in _events(back)), timeout=60)
        assert all(result.ok for bot in bots if bot.connection.fairness is not None
                   for result in bot.connection.fairness.results.values())
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()


async def test_sit_out_at_a_tournament_table_does_not_dodge_blinds_and_a_table_of_absent_players_still_deals(
        tmp_path: Path) -> None:
    """Issue 25 item 2 (R-TOUR-6): ``sit_out`` at a tournament table is "away": dealt in, posting every blind
    and ante, folded at each turn (before: 61 hands dealt without him, his stack frozen). When a second player
    sits out too, the table still deals (before: 0 hands in 30 s while the level clock ran)."""
    store = Store.open(tmp_path / "store")
    for name in ("ana", "bob", "cy"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (_sit_and_go(),))
    room.start()
    bots: list[Shover] = []
    try:
        bots = [await Bettor.join(room, name) for name in ("ana", "bob", "cy")]
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="absent")
        ana, bob, cy = bots
        await until(lambda: bool(ana.replies("action_request")), timeout=60)
        table = ana.replies("action_request")[0]["table"]
        await ana.connection.send("sit_out", table=table, on=True)
        await until(lambda: bool(ana.replies("ack") and any(r.get("in_reply_to") == "sit_out"
                                                            for r in ana.replies("ack"))))
        seat = next(event.seat for event in _events(ana) if isinstance(event, PlayerMovedIn) and event.player == "ana")
        before = len(_by_hand(cy))
        await until(lambda: len(_by_hand(cy)) >= before + 4, timeout=120)
        later = _by_hand(cy)[before + 1:before + 4]  # hands dealt wholly after her sit_out
        for hand in later:
            assert any(isinstance(event, AntePosted) and event.seat == seat for event in hand)
            mine = [event for event in hand if getattr(event, "seat", None) == seat]
            assert not [event for event in mine if isinstance(event, TurnStarted | Called | BetPlaced | Checked)]
        timed = [event.action for hand in later for event in hand if isinstance(event, TimedOut) and event.seat == seat]
        assert timed and set(timed) == {"fold"}  # folded at each turn, never checked
        assert any(isinstance(event, BlindPosted) and event.seat == seat for hand in later for event in hand)
        await bob.connection.send("sit_out", table=table, on=True)
        await until(lambda: sum(r.get("in_reply_to") == "sit_out" for r in bob.replies("ack")) >= 1)
        dealt = len(_by_hand(cy))
        await until(lambda: len(_by_hand(cy)) >= dealt + 3, timeout=120)  # two of three away: still dealing
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
