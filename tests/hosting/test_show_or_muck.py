"""Show or muck at showdown in a room (issue 14; R-SHOW-1): ``manual_showdown = true`` makes a table ask each
player at showdown, on the action clock; ``auto_muck`` is each player's setting, acknowledged and announced."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.events import Event, HandEnded, HoleCardsDealt
from hosting.config import ConfigError, parse_room
from hosting.hand_codec import kind_of
from tests.tui.roombots import Bot, make_room, table
from tui.connection import LocalConnection


def event_kind(message: dict[str, Any]) -> str:
    """The wire name of a message's typed event ("" for any other message)."""
    event = message.get("event")
    return kind_of(event) if isinstance(event, Event) else ""


TOML = "[[tables]]\ngame = 'texas_holdem'\nstructure = 'no_limit'\nstakes = [1, 2]\n"


def test_the_room_file_turns_manual_showdown_on_and_refuses_a_wrong_value() -> None:
    assert parse_room(TOML + "manual_showdown = true", "room.toml").tables[0].manual_showdown is True
    assert parse_room(TOML, "room.toml").tables[0].manual_showdown is False
    with pytest.raises(ConfigError, match=r"tables\[0\]\.manual_showdown: expected true or false, got 'yes'"):
        parse_room(TOML + "manual_showdown = 'yes'", "room.toml")


async def _next(connection: LocalConnection, wanted: Any) -> dict[str, Any]:
    while True:
        message = await connection.receive()
        if wanted(message):
            return message


async def test_a_manual_showdown_table_asks_me_to_show_or_muck_on_the_clock(tmp_path: Path) -> None:
    room = make_room(tmp_path / "room", [replace(table("t1", seats=2), manual_showdown=True)])
    room.start()
    me = await LocalConnection.attach(room, "me")
    bot: Bot | None = None
    try:
        await me.send("sit", table="t1", buy_in=200)
        await me.send("auto_muck", table="t1", on=False)
        ack = await _next(me, lambda item: item.get("type") == "ack" and item.get("in_reply_to") == "auto_muck")
        assert ack["on"] is False and ack["table"] == "t1"
        bot = await Bot.seat(room, "bot", ["t1"])
        async with asyncio.timeout(60):
            while True:
                message = await me.receive()
                if message.get("type") == "commit_request":
                    continue  # the local connection commits for us
                if message.get("type") != "action_request":
                    continue
                legal = message["legal"]
                if legal.get("can_show"):
                    assert legal.get("can_muck") and message["deadline"] > 0
                    await me.send("action", table="t1", hand=message["hand"], kind="muck")
                    mucked = await _next(me, lambda item: event_kind(item) == "hand_mucked")
                    assert mucked["event"].seat == message["seat"]
                    break
                kind = "check" if legal.get("can_check") else "call"
                await me.send("action", table="t1", hand=message["hand"], kind=kind)
    finally:
        if bot is not None:
            await bot.stop()
        await me.close()
        await room.stop()


def test_show_cards_refuses_bad_cards_in_words() -> None:
    from hosting.protocol import ProtocolError, parse_message

    for cards, words in ((["Zz"], "'Zz' is not a card"), ([], "needs 'cards'"), ("As", "expected a list")):
        with pytest.raises(ProtocolError, match=words):
            parse_message(json.dumps({"v": 1, "type": "show_cards", "table": "t1", "cards": cards}))


async def test_the_uncontested_winner_shows_a_card_to_the_table_once(tmp_path: Path) -> None:
    from hosting.table_runner import RunnerSettings

    settings = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=3.0)
    room = make_room(tmp_path / "room", [table("t1", seats=2)], settings)
    room.start()
    me = await LocalConnection.attach(room, "me")
    bot: Bot | None = None
    try:
        await me.send("sit", table="t1", buy_in=200)
        bot = await Bot.seat(room, "bot", ["t1"], folds=True)  # folds to any bet
        mine: list[str] = []
        async with asyncio.timeout(60):
            while True:
                message = await me.receive()
                body = message.get("event")
                if isinstance(body, HoleCardsDealt):
                    mine = [str(card) for card in body.cards]
                elif message.get("type") == "action_request":
                    legal = message["legal"]
                    kind, extra = ("raise_to", {"amount": legal["min_raise_to"]}) if legal.get("min_raise_to") \
                        else ("check" if legal.get("can_check") else "call", {})
                    await me.send("action", table="t1", hand=message["hand"], kind=kind, **extra)
                elif isinstance(body, HandEnded):
                    break
            await me.send("show_cards", table="t1", cards=mine[:1])
            shown = await _next(me, lambda item: event_kind(item) == "cards_shown_after_win")
            assert [str(card) for card in shown["event"].cards] == mine[:1] and shown["event"].player == "me"
            await me.send("show_cards", table="t1", cards=mine)
            refused = await _next(me, lambda item: item.get("type") == "error")
            assert "without a showdown" in refused["message"]
    finally:
        if bot is not None:
            await bot.stop()
        await me.close()
        await room.stop()
