"""Hands over SSH: bots play, a spectator watches, nobody sees a hidden card, every shuffle verifies (issue 6)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections import defaultdict
from typing import Any

import pytest

from engine.cards import Card
from engine.events import (
    BetPlaced,
    Called,
    Checked,
    DrawnCardsDealt,
    Event,
    Folded,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    Raised,
    UncalledBetReturned,
)
from engine.fairness import Transcript
from engine.table_events import ButtonDrawn, HandFinished
from hosting import bots
from hosting.client import RequestRefused, RoomClient
from hosting.config import RoomConfig, TableConfig
from hosting.hand_codec import event_to_json, kind_of
from hosting.server import RunningRoom
from hosting.table_runner import RunnerSettings, cancel_and_wait
from tests.waiting import QUIET, Stall, until

HANDS = int(os.environ.get("CROUPIER_BOT_HANDS", "100"))
FAST = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.02)
QUICK_DEADLINES = RunnerSettings(commit_seconds=0.3, reveal_seconds=0.3, pause_between_hands=0.02)


def _room(seats: int = 6) -> RoomConfig:
    table = TableConfig("t1", "Hold'em 1/2", "texas_holdem", "no_limit", 1, 2, seats, 40, 200)
    return RoomConfig("play room", (table,))


def _cards_in(value: Any) -> set[str]:
    """Every two-letter card text anywhere inside a message."""
    found: set[str] = set()
    if isinstance(value, str) and len(value) == 2:
        with contextlib.suppress(ValueError):
            found.add(str(Card.parse(value)))
    elif isinstance(value, Event):  # typed by the client: look at it as it came over the wire
        found |= _cards_in(event_to_json(value))
    elif isinstance(value, dict):
        for item in value.values():
            found |= _cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in(item)
    return found


def _hole_cards(transcript: dict[str, Any]) -> dict[int, set[str]]:
    parsed = Transcript.from_json(transcript)
    deck = parsed.deck()
    holes: dict[int, set[str]] = defaultdict(set)
    for deal in parsed.deals:
        if isinstance(deal.recipient, int):
            holes[deal.recipient].add(str(deck[deal.position]))
    return holes


def assert_no_hidden_card_leaks(received: list[dict[str, Any]], own_seat: int | None, who: str) -> int:
    """Replay one connection's messages: before a seat's hand is shown, none of its hole cards may appear."""
    by_hand: dict[str, list[dict[str, Any]]] = defaultdict(list)
    transcripts: dict[str, dict[str, Any]] = {}
    for message in received:
        if message["type"] == "seeds":
            transcripts[message["hand"]] = message["transcript"]
        elif message.get("hand"):
            by_hand[message["hand"]].append(message)
    checked = 0
    for hand, messages in by_hand.items():
        if hand not in transcripts:
            continue
        holes = _hole_cards(transcripts[hand])
        shown: set[int] = set()
        for message in messages:
            body = message.get("event")
            if isinstance(body, HandShown):
                shown.add(body.seat)
            if isinstance(body, ButtonDrawn):
                continue  # the dealer draw's cards come from its own public deck (hand id + "/button")
            for seat, cards in holes.items():
                if seat == own_seat or seat in shown:
                    continue
                leaked = _cards_in(message) & cards
                assert not leaked, f"{who} saw seat {seat}'s hidden {leaked} in hand {hand}: {message}"
        checked += 1
    return checked


async def test_four_bots_play_and_nobody_sees_a_hidden_card(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_room(), runner_settings=FAST)
    spectator: RoomClient = await connect(running, "zoe")
    await spectator.request("watch", table="t1")
    players: list[RoomClient] = [await connect(running, f"bot{index}") for index in range(4)]
    done = asyncio.Event()
    reports = await asyncio.wait_for(asyncio.gather(*(
        bots.play(client, "t1", HANDS, random.Random(index), buy_in=200, done=done, timeout=30)
        for index, client in enumerate(players)
    )), timeout=120)
    summary = bots.summarize(reports)
    assert summary["hands"] >= HANDS
    assert summary["fairness_failures"] == 0 and summary["chips_conserved"] is True
    assert summary["fairness_verified"] >= 4 * HANDS
    assert summary["illegal_rejected"] == 0  # none of their real moves was refused ...
    assert all(not report.refused_moves for report in reports)  # ... and none of their real ones
    runner = running.room.drivers["t1"]
    assert runner.failure is None  # type: ignore[attr-defined]

    for index, client in enumerate(players):
        seats = {message["seat"] for message in client.received if message["type"] == "ack"
                 and message.get("in_reply_to") == "sit"}
        (seat,) = seats
        assert assert_no_hidden_card_leaks(client.received, seat, f"bot{index}") >= HANDS
        dealt = [message["event"] for message in client.received if message["type"] == "event"
                 and kind_of(message["event"]) == "hole_cards_dealt"]
        assert dealt and all(event.seat == seat for event in dealt)
    await spectator.request("ping", id=1)
    assert assert_no_hidden_card_leaks(spectator.received, None, "the spectator") >= HANDS
    assert not [m for m in spectator.received if m["type"] == "event" and kind_of(m["event"]) == "hole_cards_dealt"]
    assert spectator.fairness is not None
    assert spectator.fairness.results and all(result.ok for result in spectator.fairness.results.values())

    lobby = {row["id"]: row for row in (await spectator.request("lobby"))["tables"]}
    assert lobby["t1"]["hands_per_hour"] >= HANDS and lobby["t1"]["average_pot"] > 0
    total = sum(seated.stack for seated in running.room.tables["t1"].engine.players.values())
    assert total == 0  # every bot left: all chips went back


async def test_out_of_turn_and_wrong_hand_actions_are_refused(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_room(2), runner_settings=FAST)
    ana: RoomClient = await connect(running, "ana")
    bruno: RoomClient = await connect(running, "bruno")
    await ana.request("sit", table="t1", buy_in=100)
    await bruno.request("sit", table="t1", buy_in=100)
    first = await ana.wait_for("event", where=lambda m: kind_of(m["event"]) == "turn_started")
    acting, waiting = (ana, bruno) if first["event"].player == "ana" else (bruno, ana)
    request = await acting.wait_for("action_request")
    with pytest.raises(RequestRefused) as refused:
        await waiting.request("action", table="t1", hand=request["hand"], kind="fold")
    assert refused.value.reply["code"] == "not_your_turn"
    with pytest.raises(RequestRefused) as stale:
        await acting.request("action", table="t1", hand="t1-old-1", kind="fold")
    assert stale.value.reply["code"] == "no_hand"
    with pytest.raises(RequestRefused) as illegal:
        await acting.request("action", table="t1", hand=request["hand"], kind="raise_to", amount=10_000)
    assert illegal.value.reply["code"] == "invalid_amount"
    assert "10000" in illegal.value.reply["message"]
    with pytest.raises(RequestRefused) as check:
        await acting.request("action", table="t1", hand=request["hand"], kind="check")  # facing the big blind
    assert check.value.reply["code"] == "illegal_action"
    await acting.send("action", table="t1", hand=request["hand"], kind="fold")
    ended = await acting.wait_for("event", where=lambda m: kind_of(m["event"]) == "hand_finished")
    assert ended["hand"] == request["hand"]


class SilentAt:
    """A client that answers nothing of the fairness protocol at one phase (commit or reveal)."""

    def __init__(self, client: RoomClient, phase: str) -> None:
        self.client = client
        assert client.fairness is not None
        participant = client.fairness
        original = participant.handle

        def handle(message: dict[str, Any]) -> list[dict[str, Any]]:
            replies = original(message)
            return [reply for reply in replies if reply["type"] != phase]

        participant.handle = handle  # type: ignore[method-assign]


async def _until(check: Any, timeout: float = 20.0) -> Any:
    """Poll ``check()`` until it returns something truthy (bots own the clients' queues; tests read logs)."""
    return await until(check, "the room", quiet=max(timeout, QUIET))


async def _with_bots(clients: list[RoomClient], body: Any) -> Any:
    """Run ``body()`` while every client plays as a bot at t1 (so hands move on); stop the bots after."""
    done = asyncio.Event()
    tasks = [asyncio.create_task(bots.play(client, "t1", 10_000, random.Random(index), illegal_rate=0.0,
                                           buy_in=100, done=done, timeout=30))
             for index, client in enumerate(clients)]
    try:
        return await body()
    finally:
        for task in tasks:
            await cancel_and_wait(task)


def _messages(client: RoomClient, kind: str, **match: Any) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == kind and all(m.get(k) == v for k, v in match.items())]


async def test_a_player_who_does_not_commit_sits_the_hand_out(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_room(3), runner_settings=QUICK_DEADLINES)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    SilentAt(carla, "commit")

    async def body() -> None:
        asked = await _until(lambda: _messages(carla, "commit_request"))
        hand = asked[0]["hand"]
        commitments = await _until(lambda: _messages(ana, "commitments", hand=hand))
        assert set(commitments[0]["commitments"]) == {"host", "0", "1"}  # carla (seat 2) is not in the deck key
        state = await _until(lambda: [m for m in _messages(ana, "table") if any(s["sitting_out"] for s in m["seats"])])
        assert [seat["name"] for seat in state[0]["seats"] if seat["sitting_out"]] == ["carla"]
        started = await _until(lambda: [m for m in _messages(ana, "event", hand=hand)
                                        if kind_of(m["event"]) == "hand_started"])
        assert sorted(seat for seat, _ in started[0]["event"].stacks) == [0, 1]

    await _with_bots([ana, bruno, carla], body)


async def test_a_player_who_does_not_reveal_is_folded_and_forfeits_the_blind(rooms: Any, connect: Any) -> None:
    running: RunningRoom = await rooms(_room(3), runner_settings=QUICK_DEADLINES)
    ana, bruno, carla = [await connect(running, name) for name in ("ana", "bruno", "carla")]
    SilentAt(carla, "reveal")

    def carla_posted(hand: str) -> int:
        return sum(m["event"].amount for m in _messages(ana, "event", hand=hand)
                   if kind_of(m["event"]) == "blind_posted" and m["event"].seat == 2)

    async def body() -> None:
        # a forfeited hand in which carla had a blind to post (she will be a blind within a few hands)
        found = await _until(lambda: [m for m in _messages(ana, "seeds")
                                      if m["transcript"]["forfeited"] == [2] and carla_posted(m["hand"]) > 0])
        seeds = found[0]
        transcript = Transcript.from_json(seeds["transcript"])
        assert 2 in transcript.commitments and 2 not in transcript.seeds
        events = [m["event"] for m in _messages(ana, "event", hand=seeds["hand"])]
        assert any(isinstance(event, Folded) and event.seat == 2 for event in events), events
        start = next(event for event in events if isinstance(event, HandStarted))
        ended = next(event for event in events if isinstance(event, HandEnded))
        lost = dict(start.stacks)[2] - dict(ended.stacks)[2]
        returned = sum(event.amount for event in events if isinstance(event, UncalledBetReturned)
                       and event.seat == 2)  # R-BET-UNCALLED: a bet nobody matched still comes back
        assert lost == carla_posted(seeds["hand"]) - returned > 0  # the blind stayed in: folded, never a re-deal
        assert not any(isinstance(event, Called | Checked | BetPlaced | Raised) and event.seat == 2
                       for event in events)
        for client in (ana, bruno):  # the honest players verify: the forfeit is part of the protocol
            assert client.fairness is not None
            assert client.fairness.results[("t1", seeds["hand"])].ok

    await _with_bots([ana, bruno, carla], body)


async def test_a_tampered_deck_is_caught_by_the_clients(rooms: Any, connect: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from hosting import table_runner

    honest = table_runner.derive_deck

    def stacked(hand_id: str, seeds: Any, cards: Any) -> tuple[Card, ...]:
        deck = list(honest(hand_id, seeds, cards))
        if not hand_id.endswith("/button"):
            deck[0], deck[-1] = deck[-1], deck[0]  # the host slips seat-first player a different card
        return tuple(deck)

    monkeypatch.setattr(table_runner, "derive_deck", stacked)
    running: RunningRoom = await rooms(_room(2), runner_settings=FAST)
    ana: RoomClient = await connect(running, "ana")
    bruno: RoomClient = await connect(running, "bruno")

    async def body() -> None:
        alarms = await _until(lambda: [m for m in _messages(ana, "verification_result") if not m["ok"]
                                       and m["violations"][0]["kind"] == "card_mismatch"])
        assert alarms[0]["violations"][0]["evidence"]["position"] == 0
        assert any(not report["ok"] for report in running.room.verification_reports)
        assert ana.fairness is not None and not all(result.ok for result in ana.fairness.results.values())

    await _with_bots([ana, bruno], body)


def _any_game_move(legal: dict[str, Any], rng: random.Random, mine: list[str]) -> dict[str, Any]:
    """A legal move in any game: show, draw (throw a random few of my cards), bring-in or complete, split
    offers accepted, else check/call with a few bets and raises."""
    if legal.get("can_show") or legal.get("can_muck"):
        return {"kind": "show" if legal.get("can_show") else "muck"}
    if legal.get("max_discards"):
        count = rng.randint(0, min(int(legal["max_discards"]), len(mine)))
        return {"kind": "draw", "discard": rng.sample(mine, count)}
    if legal.get("can_split"):
        return {"kind": "split"}
    if legal.get("bring_in_amount") is not None and not legal.get("can_check"):
        if legal.get("min_raise_to") is not None and rng.random() < 0.3:
            return {"kind": "complete", "amount": legal["min_raise_to"]}
        return {"kind": "bring_in"}
    if legal.get("min_raise_to") is not None and rng.random() < 0.2:
        return {"kind": "bet" if legal.get("is_bet") else "raise_to", "amount": legal["min_raise_to"]}
    if legal.get("can_check"):
        return {"kind": "check"}
    return {"kind": "call" if legal.get("call_amount") is not None else "fold"}


async def _play_any_game(client: RoomClient, table: str, hands: int, seed: int, done: asyncio.Event) -> dict[str, Any]:
    """Sit, play ``hands`` hands with :func:`_any_game_move`, leave; what happened, for the assertions."""
    rng = random.Random(seed)
    seen: dict[str, int] = defaultdict(int)
    refused: list[dict[str, Any]] = []
    mine: dict[str, list[str]] = defaultdict(list)
    finished: set[str] = set()
    await client.request("sit", table=table, buy_in=200)
    while not done.is_set():
        try:
            message = await client.receive(2.0)
        except TimeoutError:
            continue
        if message["type"] == "action_request":
            move = _any_game_move(message["legal"], rng, mine[message["hand"]])
            seen[move["kind"]] += 1
            await client.send("action", table=table, hand=message["hand"], **move)
        elif message["type"] == "error" and message.get("in_reply_to") == "action":
            refused.append(message)
        elif message["type"] == "event":
            body, hand = message["event"], message["hand"]
            if isinstance(body, HoleCardsDealt):
                mine[hand] += [str(card) for card in body.cards]
            elif isinstance(body, DrawnCardsDealt):
                thrown = [str(card) for card in body.discarded]
                mine[hand] = [card for card in mine[hand] if card not in thrown] + [str(card) for card in body.cards]
            elif isinstance(body, HandFinished):
                finished.add(hand)
                if len(finished) >= hands:
                    done.set()
    assert client.fairness is not None
    # every finished hand's seeds follow its end; waited for while they keep coming (tests.waiting), not for a
    # fixed 5 s that a loaded machine could outlast
    stall = Stall(QUIET, lambda: len(client.fairness.results))  # type: ignore[union-attr]
    while not finished <= {hand for _, hand in client.fairness.results}:
        with contextlib.suppress(TimeoutError):
            await client.wait_for("seeds", timeout=1.0)
        if stall.stalled():
            raise AssertionError(stall.failure(f"the seeds of hands {sorted(finished)}"))
    await client.request("leave", table=table)
    results = [result for (_, hand), result in client.fairness.results.items() if hand in finished]
    return {"moves": dict(seen), "refused": refused, "hands": len(finished),
            "verified": sum(result.ok for result in results), "violations": [r for r in results if not r.ok]}


@pytest.mark.parametrize(("game", "structure", "extra"), [
    ("seven_card_stud", "fixed_limit", {"ante": 1, "bring_in": 2}),
    ("deuce_to_seven_triple_draw", "fixed_limit", {}),
    ("thirty_two_card_draw", "pot_limit", {}),
    ("razz", "fixed_limit", {"ante": 1, "bring_in": 2}),
    ("deuce_to_seven_single_draw", "no_limit", {}),
])
async def test_stud_and_draw_games_are_dealt_played_and_verified_over_the_room(
        rooms: Any, connect: Any, game: str, structure: str, extra: dict[str, Any]) -> None:
    hands = int(os.environ.get("CROUPIER_GAME_HANDS", "6"))
    table = TableConfig("g1", game, game, structure, 2, 4, 4, 40, 400, **extra)
    running: RunningRoom = await rooms(RoomConfig("games", (table,)), runner_settings=FAST)
    players: list[RoomClient] = [await connect(running, f"p{index}") for index in range(4)]
    done = asyncio.Event()
    reports = await asyncio.wait_for(asyncio.gather(*(
        _play_any_game(client, "g1", hands, index, done) for index, client in enumerate(players))), timeout=120)
    assert running.room.drivers["g1"].failure is None  # type: ignore[attr-defined]
    for report in reports:
        assert report["refused"] == [] and report["violations"] == []
        assert report["hands"] >= hands - 1 and report["verified"] >= report["hands"] - 1
    moves: dict[str, int] = defaultdict(int)
    for report in reports:
        for kind, count in report["moves"].items():
            moves[kind] += count
    if game in ("seven_card_stud", "razz"):
        assert moves["bring_in"] + moves["complete"] >= hands  # one of them opens every stud hand
    else:
        assert moves["draw"] >= hands
    assert sum(seated.stack for seated in running.room.tables["g1"].engine.players.values()) == 0


async def _check_or_call_forever(client: RoomClient) -> None:
    while True:
        message = await client.receive(30)
        if message["type"] == "action_request":
            legal = message["legal"]
            kind = ("show" if legal.get("can_show") else "check" if legal.get("can_check")
                    else "call" if legal.get("call_amount") is not None else "fold")
            await client.send("action", table=message["table"], hand=message["hand"], kind=kind)


async def test_a_player_back_mid_hand_gets_his_cards_and_turn_and_still_verifies_the_hand(
        rooms: Any, connect: Any) -> None:
    import asyncssh

    running: RunningRoom = await rooms(_room(seats=2), runner_settings=FAST)
    key = asyncssh.generate_private_key("ssh-ed25519")
    ana: RoomClient = await connect(running, "ana", key)
    bob: RoomClient = await connect(running, "bob")
    await ana.request("sit", table="t1", buy_in=200)
    await bob.request("sit", table="t1", buy_in=200)
    helper = asyncio.get_running_loop().create_task(_check_or_call_forever(bob))
    try:
        dealt = await ana.wait_for("event", timeout=20, where=lambda m: kind_of(m["event"]) == "hole_cards_dealt")
        hand, cards = dealt["hand"], dealt["event"].cards
        await ana.close()  # gone mid-hand, before acting
        ana = await connect(running, "ana", key)  # back with the same key
        commitments = await ana.wait_for("commitments", timeout=10)
        assert commitments["hand"] == hand
        again = await ana.wait_for("event", timeout=10, where=lambda m: kind_of(m["event"]) == "hole_cards_dealt")
        assert (again["hand"], again["event"].cards) == (hand, cards)
        finished = False
        while not finished:
            message = await ana.receive(20)
            if message["type"] == "action_request" and message["hand"] == hand:
                legal = message["legal"]
                kind = ("show" if legal.get("can_show") else "check" if legal.get("can_check")
                        else "call" if legal.get("call_amount") is not None else "fold")
                await ana.send("action", table="t1", hand=hand, kind=kind)
            finished = message["type"] == "seeds" and message["hand"] == hand
        await ana.request("ping", id=1)  # the verification is sent after the seeds
        assert ana.fairness is not None
        assert ana.fairness.results[("t1", hand)].ok, ana.fairness.results[("t1", hand)].violations
    finally:
        await cancel_and_wait(helper)
