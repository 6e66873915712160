"""Warm the TUI up once in the fork server (tui/zygote.py) so each plain-ssh session starts warm.

A served session is a child forked from the fork server. Whatever the fork server has already computed, every
child inherits for free (copy-on-write): Textual's parsed stylesheets, its style and colour caches, Rich's
cell-width caches, the lazily imported modules. :func:`warm_up` runs the real app once, headless, against a
canned room (a lobby, then a table mid-hand shown as a tab and tiled) and keeps the parsed stylesheet rules,
so a child skips the work that otherwise fills most of its time to the first frame.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from engine.cards import parse_cards
from engine.events import (
    BettingRoundStarted,
    BlindPosted,
    BoardDealt,
    Called,
    CardsDealtFaceDown,
    Event,
    HandStarted,
    HoleCardsDealt,
    Raised,
)
from engine.table_events import TurnStarted
from tui.app import CroupierApp
from tui.connection import ConnectionLost
from tui.served import ServedApp

log = logging.getLogger("croupier.tui")

TABLE = "warm-up"
HAND = "warm-up-1"


def _message(kind: str, **fields: Any) -> dict[str, Any]:
    return {"v": 1, "type": kind, **fields}


def _event(event: Event) -> dict[str, Any]:
    """An ``event`` message as a connection hands it to the app: the event typed."""
    return _message("event", table=TABLE, hand=HAND, event=event)


def canned_room() -> list[dict[str, Any]]:
    """What a room sends a player who sits down at a hold'em table and is asked to act on the flop."""
    lobby_row = {"id": TABLE, "name": "Warm-up", "game": "texas_holdem", "structure": "no_limit", "stakes": [1, 2],
                 "buy_in": [80, 200], "players": 3, "seats": 6, "average_pot": 20, "hands_per_hour": 60,
                 "waiting": 0, "watchers": 0}
    seats = [("ana", 200), ("me", 200), ("bruno", 60)]
    return [
        _message("hello", server="croupier", protocol=1, room="warm-up", room_id="0" * 16, name="me",
                 registered=True, needs=[], balance=1000),
        _message("lobby", tables=[lobby_row], balance=1000),
        _message("table", table=TABLE, seats=[
            {"seat": seat, "name": name, "stack": stack, "sitting_out": False, "away": False,
             "wait_for_big_blind": False} for seat, (name, stack) in enumerate(seats)
        ], max_seats=6, waiting=[], hand_running=True),
        _event(HandStarted("texas_holdem", "no_limit", 0, ((0, 200), (1, 200), (2, 60)))),
        _event(BlindPosted(1, "small_blind", 1)),
        _event(BlindPosted(2, "big_blind", 2)),
        _event(HoleCardsDealt(1, parse_cards("Ah Kd"))),
        _event(CardsDealtFaceDown(0, 2)),
        _event(CardsDealtFaceDown(2, 2)),
        _event(BettingRoundStarted(0, "preflop", 3)),
        _event(Raised(0, 6, 6)),
        _event(Called(1, 5)),
        _event(Raised(2, 60, 58, all_in=True)),
        _event(Called(0, 54)),
        _event(Called(1, 54)),
        _event(BoardDealt("flop", parse_cards("Qs Jd 4c"), parse_cards("Qs Jd 4c"))),
        _event(BettingRoundStarted(1, "flop", 180)),
        _event(TurnStarted(1, "me", 0.0, 20.0)),
        _message("action_request", table=TABLE, hand=HAND, seat=1,
                 legal={"seat": 1, "can_fold": True, "can_check": True, "call_amount": None, "min_raise_to": 2,
                        "max_raise_to": 140, "is_bet": True, "bring_in_amount": None, "max_discards": None,
                        "can_show": False, "can_muck": False}, deadline=20.0),
    ]


class CannedConnection:
    """Gives the app the canned room's messages, then waits until closed; what the app sends is dropped."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.name = ""
        self.messages = list(messages)
        self._closed = asyncio.Event()

    async def send(self, message_type: str, **fields: Any) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        if self.messages:
            return self.messages.pop(0)
        await self._closed.wait()
        raise ConnectionLost("closed")

    async def close(self) -> None:
        self._closed.set()


async def _tour(pilot: Any) -> None:
    """Lobby, the table as a tab, tiled, back to the lobby: every widget the player meets first is built once."""
    app: CroupierApp = pilot.app
    for _ in range(100):  # the canned messages arrive one per loop turn
        if TABLE in app.models and app.models[TABLE].legal is not None:
            break
        await pilot.pause(0.01)
    app.show_table(TABLE)
    await pilot.pause()
    app.action_toggle_tiles()
    await pilot.pause()
    app.action_toggle_tiles()
    app.action_lobby()
    await pilot.pause()
    app.exit()


def warm_up(size: tuple[int, int] = (100, 30)) -> bool:
    """Run the app once headless against :func:`canned_room`; True when it ran to the end.

    Never raises: a warm-up that fails only costs the children their head start (it is logged).
    """

    async def connect() -> CannedConnection:
        return CannedConnection(canned_room())

    app = ServedApp(connect, reconnect=False)  # the class the children run: its parsed CSS is theirs
    try:
        app.run(headless=True, size=size, auto_pilot=_tour)
    except Exception:
        log.exception("TUI warm-up failed; sessions start cold")
        return False
    return app.return_code in (None, 0) and not app.internal_errors


_parsed_rules: dict[tuple[Any, ...], Any] = {}


def share_parsed_stylesheets() -> bool:
    """Keep parsed CSS rules process-wide, so a warm process (and its forked children) never parses twice.

    Textual parses every stylesheet source again for each new :class:`~textual.css.stylesheet.Stylesheet`
    (one per app, and a fresh one on each theme change); its own cache lives and dies with that object. The
    rules of one source depend only on the source and the CSS variables, so they are kept here under both
    (the parsed rule sets are not modified after parsing; Textual already reuses them within one stylesheet).
    Returns False, changing nothing, when Textual's internals are not the ones this was written for.
    """
    from textual.css.stylesheet import Stylesheet

    original = Stylesheet._parse_rules
    if getattr(original, "croupier_shared", False):
        return True
    if original.__code__.co_varnames[:6] != ("self", "css", "read_from", "is_default_rules", "tie_breaker",
                                              "scope"):
        return False

    def parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                    tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(self._variables.items()))
        rules = _parsed_rules.get(key)
        if rules is None:
            rules = _parsed_rules[key] = original(self, css, read_from, is_default_rules, tie_breaker, scope)
        return rules

    parse_rules.croupier_shared = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
    return True
