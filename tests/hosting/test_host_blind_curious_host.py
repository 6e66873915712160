"""The curious host (issue 29, Must show): 50 host-blind hands over the real room, played by bots. Everything the
host process receives (every byte its connections read), stores (its sqlite database) and logs (every record, at
debug level) is handed to a decryption attempt with everything the host holds — every share and cover it ever
saw, and its own SSH host key as a would-be key. The attempt opens every hand that was shown (so it is a real
attempt) and no hole card of any player who did not show; no unshown hand appears anywhere in what the host
received, stored or logged."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.cards import Card, format_cards
from engine.fairness_v2.elgamal import card_lookup
from engine.fairness_v2.group import DEFAULT_GROUP, GroupError
from engine.fairness_v2.referee import Referee
from engine.fairness_v2.transcript import Entry, HandTranscript, Header
from hosting import bots, datadir
from hosting.client import RoomClient
from hosting.config import RoomConfig
from hosting.host_blind_runner import HostBlindRunner
from hosting.server import RunningRoom
from tests.hosting.test_host_blind_play import BLIND, PACED

HANDS = 50
NAMES = ("ana", "bob", "cy", "dee")


def _received(room: RunningRoom) -> list[bytes]:
    """Every byte the room's connections read, as the room reads them."""
    seen: list[bytes] = []
    feed = room.room.feed

    def recording_feed(session: Any, stream: Any, data: bytes) -> None:
        seen.append(bytes(data))
        feed(session, stream, data)

    room.room.feed = recording_feed  # type: ignore[method-assign]
    return seen


def _messages(chunks: list[bytes]) -> list[dict[str, Any]]:
    messages = []
    for line in b"".join(chunks).split(b"\n"):
        try:
            value = msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue
        if isinstance(value, dict):
            messages.append(value)
    return messages


def _stored(data_dir: Path) -> list[str]:
    """Every text value of every row of every table of the host's database."""
    connection = sqlite3.connect(f"file:{data_dir / 'croupier.sqlite3'}?mode=ro", uri=True)
    try:
        names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [str(value) for name in names for row in connection.execute(f'SELECT * FROM "{name}"')
                for value in row if value is not None]
    finally:
        connection.close()


def _host_scalar(data_dir: Path) -> int:
    """The host's own SSH key as a would-be decryption key (a curious host tries what it has)."""
    key = datadir.host_key(data_dir)
    private = key.export_private_key("openssh")
    return int.from_bytes(private[-64:], "big") % DEFAULT_GROUP.order


def _attempt(header: Header, entries: list[Entry], host_scalar: int) -> dict[int, tuple[Card, ...]]:
    """Open every hole card the host's data opens: all shares and covers it saw, with and without its key."""
    referee = Referee(header, random.Random(1), viewer=None, check_proofs=False, check_signatures=False)
    for entry in entries:
        referee.apply(entry)
    group, lookup = referee.group, card_lookup(referee.group)
    opened: dict[int, tuple[Card, ...]] = {}
    for record in header.seats:
        cards = []
        for position in referee.positions_of(record.seat):
            shares = list(referee.share_points(position).values())
            c1, c2 = referee.deck[position].c1, referee.deck[position].c2
            for extra in ([], [group.mult(c1, host_scalar)]):
                try:
                    point = group.subtract(c2, group.add(shares + extra)) if shares + extra else c2
                except GroupError:
                    continue
                if point in lookup:
                    cards.append(lookup[point])
                    break
        if cards:
            opened[record.seat] = tuple(cards)
    return opened


async def _play(client: RoomClient, done: asyncio.Event, seed: int) -> None:
    await bots.play(client, "blind", HANDS, random.Random(seed), done=done)


async def test_a_curious_host_learns_no_hole_card_of_a_player_who_did_not_show(
        rooms: Callable[..., Any], connect: Callable[..., Any], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    data_dir = tmp_path / "curious"
    room: RunningRoom = await rooms(RoomConfig("blind room", (BLIND,)), runner_settings=PACED, data_dir=data_dir)
    received = _received(room)
    runner = room.room.drivers["blind"]
    assert isinstance(runner, HostBlindRunner)
    runner.transcripts_kept = 10 * HANDS
    clients = [await connect(room, name, host_blind=True) for name in NAMES]
    done = asyncio.Event()
    await asyncio.wait_for(asyncio.gather(*(_play(client, done, index) for index, client in enumerate(clients))),
                           600)
    truth: dict[str, dict[str, tuple[str, ...]]] = {}  # hand → player → his cards, as his client decrypted them
    for name, client in zip(NAMES, clients, strict=True):
        assert client.host_blind is not None
        assert client.host_blind.complaints == [], client.host_blind.complaints
        for hand, cards in client.host_blind.hole_cards.items():
            truth.setdefault(hand, {})[name] = cards
    transcripts: dict[str, HandTranscript] = {item.header.hand: item for item in runner.transcripts}
    played = [hand for hand in truth if hand in transcripts]
    assert len(played) >= HANDS

    # what the host received: every entry, as the players sent them
    messages = _messages(received)
    entries: dict[str, list[Entry]] = {}
    for message in messages:
        if message.get("type") == "blind_entry":
            entries.setdefault(str(message["hand"]), []).append(msgspec.json.decode(message["entry"], type=Entry))
    stored = _stored(data_dir)
    logged = [record.getMessage() for record in caplog.records]
    assert not any("hole_cards_dealt" in text for text in [*stored, *logged]), "the host holds a hole card event"
    assert all(message.get("type") != "event" for message in messages)
    host_scalar = _host_scalar(data_dir)

    shown_opened = unshown = 0
    for hand in played:
        transcript = transcripts[hand]
        seat_of = {record.name: record.seat for record in transcript.header.seats}
        chained = list(transcript.entries)  # what the host chained: the received entries and its own
        assert {entry.signature for entry in entries.get(hand, [])} <= {entry.signature for entry in chained}
        opened = _attempt(transcript.header, chained, host_scalar)
        shown = {seat for entry in chained if entry.sender in seat_of.values()
                 for seat in [entry.sender] if getattr(entry.body, "purpose", "") == "show"}
        for name, cards in truth[hand].items():
            seat = seat_of[name]
            if seat in shown:  # the attempt is real: a shown hand opens, to the very cards
                assert format_cards(opened[seat]).split() == list(cards)
                shown_opened += 1
                continue
            unshown += 1
            assert seat not in opened, f"{hand}: the host opened {name}'s unshown hand"
            about = [text for text in [*stored, *logged] if hand in text]  # what the host kept of this hand
            for text in (f'"{cards[0]}","{cards[1]}"', f'"{cards[1]}","{cards[0]}"', f"{cards[0]} {cards[1]}",
                         f"{cards[1]} {cards[0]}"):
                assert not any(text in kept for kept in about), f"{hand}: {name}'s unshown cards are kept"
    assert unshown >= HANDS and shown_opened >= 1
    assert secrets  # the players' keys came from their own CSPRNG, never the host's
