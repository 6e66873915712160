"""Bots in a fast-fold pool (R-FAST-1), over real SSH: join the pool, play whatever hand they are dealt at
whichever of its tables, verify every hand, and time each fold to the next hand's cards.

Used by the pool's room test and ``tests/benchmarks/fast_fold.py``; the moves are :func:`hosting.bots.
choose_action`'s. A bot counts a hand once its proof (``seeds``) arrived and checked, so a hand it folded early
counts too (it left that table at once); at a host-blind pool, once its own client's referee judged the hand
(``blind_end``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.events import Event, HoleCardsDealt
from hosting.bots import BotReport, Mover, next_message
from hosting.client import ConnectionClosed, RoomClient


@dataclass
class PoolBotReport(BotReport):
    """A pool bot's report: ``fold_to_next_cards`` seconds from each fold it sent to its next hand's cards,
    ``tables`` the pool tables it was dealt at."""

    fold_to_next_cards: list[float] = field(default_factory=list)
    tables: set[str] = field(default_factory=set)
    folds: int = 0
    dealt: set[str] = field(default_factory=set)
    """Every hand it was dealt into (asked to reveal for)."""


def _own_cards(event: Event | dict[str, Any]) -> bool:
    """Whether an ``event`` body is this player's own hole cards (the typed event or its JSON)."""
    if isinstance(event, dict):
        return event.get("kind") == "hole_cards_dealt" and bool(event.get("cards"))
    return isinstance(event, HoleCardsDealt) and bool(event.cards)


async def play_pool(client: RoomClient, pool: str, hands: int, rng: random.Random, *,
                    done: asyncio.Event | None = None, fold_rate: float = 0.0,
                    silence: float = 60.0, proof_seconds: float = 15.0,
                    report: PoolBotReport | None = None, style: str | None = None,
                    think: tuple[float, float] = (0.0, 0.0)) -> PoolBotReport:
    """Join ``pool`` for its maximum buy-in and play until ``hands`` hands of this bot are verified (or ``done``
    is set), then leave. ``fold_rate``: share of turns folded outright (a fast folder); otherwise ``style``'s
    play (None: the simple strategy), each move after ``think`` seconds (:class:`hosting.bots.Mover`). Tops up
    to the maximum when below half of it. After leaving it waits (``proof_seconds`` at most for each) for the
    proofs of the hands it was dealt into that were still running. ``report``: filled as it plays (a benchmark
    reads it while the bot runs), else a new one."""
    done = done if done is not None else asyncio.Event()
    report = report if report is not None else PoolBotReport(client.hello.get("name", "?"))
    lobby = await client.request("lobby")
    info = next(row for row in lobby.get("pools", []) if row["id"] == pool)
    maximum = int(info["buy_in"][1])
    mover = Mover(str(info.get("game", "texas_holdem")), style, think)
    await client.request("sit", table=pool, buy_in=maximum)
    folded_at: float | None = None
    dealt: set[tuple[str, str]] = set()  # hands this bot was dealt into (asked to reveal its secret)
    left = leaving = False
    proofs_until: float | None = None
    try:
        while not (left and len(report.hands) >= len(dealt)):
            if done.is_set() and not leaving:  # leave, and play on what is dealt until the pool lets us go
                leaving = True
                await client.send("leave", table=pool)
            if left and proofs_until is None:
                proofs_until = time.monotonic() + proof_seconds
            if proofs_until is not None and time.monotonic() > proofs_until:
                break  # a proof that never came: the caller sees it missing from ``hands``
            try:
                message = await asyncio.wait_for(next_message(client, silence), 0.5)
            except TimeoutError:
                continue
            kind = message["type"]
            if kind == "action_request" and message.get("seat") is not None:
                legal = message["legal"]
                action = {"kind": "fold"} if legal.get("can_fold") and rng.random() < fold_rate \
                    else await mover.move(str(message["table"]), message, rng)
                if action["kind"] == "fold":
                    report.folds += 1
                    folded_at = time.perf_counter()
                await client.send("action", table=message["table"], hand=message["hand"], **action)
            elif kind == "reveal_request":
                dealt.add((str(message["table"]), str(message["hand"])))
            elif kind == "event":
                mover.saw(str(message["table"]), message["event"])
                if _own_cards(message["event"]):
                    report.tables.add(str(message["table"]))
                    if folded_at is not None:
                        report.fold_to_next_cards.append(time.perf_counter() - folded_at)
                        folded_at = None
            elif kind == "error" and message.get("in_reply_to") == "action":
                if message.get("code") not in ("no_hand", "not_your_turn"):
                    report.illegal_rejected += 1
                    report.refused_moves.append(message)
            elif kind == "pool_left" and message.get("pool") == pool:
                left = True
            elif kind == "pool" and message.get("pool") == pool and not leaving \
                    and int(message.get("stack", 0)) < maximum // 2:
                await client.send("top_up", table=pool, amount=maximum - int(message.get("stack", 0)))
            elif kind == "verification_result" and not message.get("ok"):
                report.violations.append(message)
            elif kind == "blind_header":  # a host-blind hand: this bot's client takes part in its dealing
                dealt.add((str(message["table"]), str(message["hand"])))
            elif kind == "blind_end" and (str(message["table"]), str(message["hand"])) in dealt:
                key = (str(message["table"]), str(message["hand"]))
                if message.get("void") and key not in (client.host_blind.results if client.host_blind else {}):
                    dealt.discard(key)  # given up before it started: no hand to count
                    continue
                violations = client.host_blind.results.get(key) if client.host_blind is not None else None
                if violations is not None:
                    report.hands.add(key[1])
                    report.verified += not violations
                    report.failures += bool(violations)
                    if len(report.hands) >= hands:
                        done.set()
            elif kind == "seeds" and (str(message["table"]), str(message["hand"])) in dealt:
                assert client.fairness is not None
                result = client.fairness.results.get((str(message["table"]), str(message["hand"])))
                if result is not None:
                    report.hands.add(str(message["hand"]))
                    report.verified += result.ok
                    report.failures += not result.ok
                    if len(report.hands) >= hands:
                        done.set()
    finally:
        if not leaving:  # cancelled or failed: never a ghost in the pool
            with contextlib.suppress(ConnectionClosed, OSError):
                await client.send("leave", table=pool)
    report.dealt = {hand for _, hand in dealt}
    return report
