"""Recorded protocol v1 message sequences (as the room sends them) and a connection that replays them.

Used where a live room's random cards would make the picture change from run to run: the snapshot tests.
The messages have exactly the shapes ``hosting.room`` / ``hosting.table_runner`` send (captured from a
real room, cards fixed).
"""

from __future__ import annotations

import asyncio
import dataclasses
import typing
from typing import Any

from hosting.hand_codec import EVENT_TYPES, event_from_json
from tui.connection import ConnectionLost


def msg(kind: str, **fields: Any) -> dict[str, Any]:
    return {"v": 1, "type": kind, **fields}


_EMPTY = {int: 0, float: 0.0, str: "", bool: False}


def event(table: str, hand: str, name: str, /, **fields: Any) -> dict[str, Any]:
    """An ``event`` message as a connection hands it to the app: the engine event ``name`` typed by the one
    event encoding (:func:`hosting.hand_codec.event_from_json`, cards as text). Fields a test leaves out are
    empty (0, "", no cards), so a test names only what it is about."""
    cls = EVENT_TYPES[name]
    hints = typing.get_type_hints(cls)
    body: dict[str, Any] = {"event": name}
    for item in dataclasses.fields(cls):
        if item.name in fields:
            body[item.name] = fields[item.name]
        elif item.default is dataclasses.MISSING:
            hint = hints[item.name]
            body[item.name] = None if type(None) in typing.get_args(hint) else _EMPTY.get(hint, [])
    unknown = set(fields) - set(body)
    assert not unknown, f"{name} has no fields {unknown}"
    return msg("event", table=table, hand=hand, event=event_from_json(body))


class ReplayConnection:
    """Gives the app ``messages`` one by one, then waits forever; records what the app sends."""

    def __init__(self, messages: list[dict[str, Any]], name: str = "me") -> None:
        self.name = name
        self.messages = list(messages)
        self.sent: list[dict[str, Any]] = []
        self._closed = asyncio.Event()

    async def send(self, message_type: str, **fields: Any) -> None:
        self.sent.append({"type": message_type, **fields})

    async def receive(self) -> dict[str, Any]:
        if self.messages:
            return self.messages.pop(0)
        await self._closed.wait()
        raise ConnectionLost("closed")

    async def close(self) -> None:
        self._closed.set()


def lobby_rows() -> list[dict[str, Any]]:
    def row(id: str, name: str, game: str, structure: str, blinds: tuple[int, int], players: int, seats: int,
            average_pot: int, hands: int, waiting: int = 0) -> dict[str, Any]:
        return {"id": id, "name": name, "game": game, "structure": structure, "stakes": list(blinds),
                "buy_in": [40 * blinds[1], 100 * blinds[1]], "players": players, "seats": seats,
                "average_pot": average_pot, "hands_per_hour": hands, "waiting": waiting, "watchers": 0}

    return [
        row("holdem-1-2", "Hold'em 1/2 NL", "texas_holdem", "no_limit", (1, 2), 5, 6, 38, 84),
        row("holdem-5-10", "Hold'em 5/10 NL", "texas_holdem", "no_limit", (5, 10), 9, 9, 212, 61, 2),
        row("holdem-25-50", "Hold'em 25/50 NL", "texas_holdem", "no_limit", (25, 50), 0, 6, 0, 0),
        row("omaha-1-2", "Omaha 1/2 PL", "omaha", "pot_limit", (1, 2), 4, 6, 55, 70),
        row("omaha-5-10", "Omaha 5/10 PL", "omaha", "pot_limit", (5, 10), 2, 6, 140, 45),
        row("omaha8-2-4", "Omaha Hi/Lo 2/4 PL", "omaha_hi_lo", "pot_limit", (2, 4), 6, 6, 90, 66, 1),
    ]


def hello(name: str = "me") -> dict[str, Any]:
    return msg("hello", server="croupier", protocol=1, room="Friday night", room_id="c04ac384c010f43e", name=name,
               registered=False, needs=[])


def side_pot_hand(table: str = "holdem-1-2", hand: str = "holdem-1-2-9a611a-7", me: str = "me") -> list[dict[str, Any]]:
    """A four-handed hand on the turn: two short stacks all-in (a main pot and two side pots), me to act."""
    seats = [("ana", 60), (me, 200), ("bruno", 25), ("carla", 180)]
    snapshot = msg("table", table=table, seats=[
        {"seat": seat, "name": name, "stack": stack, "sitting_out": False, "away": False,
         "wait_for_big_blind": False} for seat, (name, stack) in enumerate(seats)
    ], max_seats=6, waiting=[], hand_running=True)
    return [
        snapshot,
        event(table, hand, "hand_planned", hand_number=7, button_seat=3, small_blind_seat=0, big_blind_seat=1,
              straddle_seat=None, dealt_in=[0, 1, 2, 3], heads_up=False, button_is_dead=False,
              big_blinds_out_of_position=[], dead_small_blinds=[], blinds_forgiven=[]),
        event(table, hand, "hand_started", variant="texas_holdem", structure="no_limit", button_seat=3,
              stacks=[[0, 60], [1, 200], [2, 25], [3, 180]]),
        event(table, hand, "blind_posted", kind="small_blind", seat=0, amount=1, live=True, all_in=False),
        event(table, hand, "blind_posted", kind="big_blind", seat=1, amount=2, live=True, all_in=False),
        event(table, hand, "cards_dealt_face_down", seat=0, count=2),
        event(table, hand, "hole_cards_dealt", seat=1, cards=["Ah", "Kd"]),
        event(table, hand, "cards_dealt_face_down", seat=2, count=2),
        event(table, hand, "cards_dealt_face_down", seat=3, count=2),
        event(table, hand, "betting_round_started", round_index=0, street="preflop", pot=3),
        event(table, hand, "raised", seat=2, to=25, added=25, all_in=True, full=True),
        event(table, hand, "called", seat=3, amount=25, all_in=False),
        event(table, hand, "raised", seat=0, to=60, added=59, all_in=True, full=True),
        event(table, hand, "called", seat=1, amount=58, all_in=False),
        event(table, hand, "called", seat=3, amount=35, all_in=False),
        event(table, hand, "board_dealt", street="flop", cards=["Qs", "Jd", "4c"], board=["Qs", "Jd", "4c"]),
        event(table, hand, "betting_round_started", round_index=1, street="flop", pot=205),
        event(table, hand, "checked", seat=1),
        event(table, hand, "bet_placed", seat=3, to=40, added=40, all_in=False),
        event(table, hand, "called", seat=1, amount=40, all_in=False),
        event(table, hand, "board_dealt", street="turn", cards=["Tc"], board=["Qs", "Jd", "4c", "Tc"]),
        event(table, hand, "betting_round_started", round_index=2, street="turn", pot=285),
        event(table, hand, "turn_started", seat=1, player=me, started_at=100.0, deadline=120.0),
        msg("action_request", table=table, hand=hand, seat=1,
            legal={"seat": 1, "can_fold": True, "can_check": True, "call_amount": None, "min_raise_to": 2,
                   "max_raise_to": 100, "is_bet": True, "bring_in_amount": None, "max_discards": None,
                   "can_show": False, "can_muck": False}, deadline=20.0),
    ]


def finished_hand(table: str, hand: str, me: str = "me", verified: bool = True) -> list[dict[str, Any]]:
    """A short heads-up hand that ends before the flop, then its fairness verdict."""
    return [
        event(table, hand, "hand_started", variant="texas_holdem", structure="no_limit", button_seat=0,
              stacks=[[0, 200], [1, 200]]),
        event(table, hand, "blind_posted", kind="small_blind", seat=0, amount=1, live=True, all_in=False),
        event(table, hand, "blind_posted", kind="big_blind", seat=1, amount=2, live=True, all_in=False),
        event(table, hand, "folded", seat=0, left_table=False),
        event(table, hand, "uncalled_bet_returned", seat=1, amount=1),
        event(table, hand, "pot_awarded", pot_index=0, seat=1, amount=2, share="whole", pot_total=2,
              description=""),
        event(table, hand, "hand_ended", stacks=[[0, 199], [1, 201]], rake=0),
        msg("fairness", table=table, hand=hand, ok=verified,
            violations=[] if verified else [{"kind": "card_mismatch",
                                             "message": "board card 1 is not where the deck says"}]),
    ]


def showdown_rows() -> list[dict[str, Any]]:
    """The lobby with a stud and a triple draw table too (the showdown snapshots open one of each game)."""
    rows = lobby_rows()
    extra = [("stud-2-4", "Stud 2/4", "seven_card_stud", (2, 4)),
             ("triple-2-4", "2-7 Triple Draw 2/4", "deuce_to_seven_triple_draw", (2, 4))]
    for table_id, name, game, blinds in extra:
        rows.append({"id": table_id, "name": name, "game": game, "structure": "fixed_limit", "stakes": list(blinds),
                     "buy_in": [40 * blinds[1], 100 * blinds[1]], "players": 4, "seats": 6, "average_pot": 30,
                     "hands_per_hour": 50, "waiting": 0, "watchers": 0})
    return rows


def engine_showdown(table: str, game: str, deck_order: list[str] | None = None, seed: int = 7,
                    me: str = "me") -> list[dict[str, Any]]:
    """A four-handed hand of ``game`` played to a showdown by the real engine (everyone checks or calls, a
    draw stands pat on its low cards), as the room sends it to ``me`` at seat 1; then its fairness verdict.

    ``deck_order`` puts those cards on top of the deck (the rest follows in a seeded order), so a hand can be
    rigged; the messages are the engine's own events through the room's per-seat view."""
    import random

    from engine.actions import BringIn, Call, Check, Draw, Show
    from engine.cards import Card
    from engine.hand import ForcedBets, Hand, HandConfig
    from engine.structures import BettingStructure
    from engine.variants import VARIANTS, ForcedBetKind
    from hosting.hand_codec import view_bodies

    variant = VARIANTS[game]
    top = [Card.parse(text) for text in deck_order or []]
    rest = [card for card in variant.deck if card not in top]
    random.Random(seed).shuffle(rest)
    stud = variant.forced_bets is ForcedBetKind.ANTE_BRING_IN
    forced = ForcedBets(button_seat=3, small_blind_seat=None if stud else 0, small_blind=0 if stud else 1,
                        big_blind_seat=None if stud else 1, big_blind=0 if stud else 2,
                        ante=1 if stud else 0, bring_in=1 if stud else 0)
    structure = BettingStructure.no_limit() if game == "texas_holdem" else \
        BettingStructure.pot_limit() if game.startswith("omaha") else BettingStructure.fixed_limit(4)
    names = ["ana", me, "bruno", "carla"]
    stacks = {0: 150, 1: 200, 2: 120, 3: 180}
    hand = Hand.start(HandConfig(variant, structure), stacks, top + rest, forced)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.max_discards is not None:
            mine = hand.hole_cards(legal.seat)
            action: Any = Draw(tuple(card for card in mine if card.rank > 8)[:legal.max_discards])
        elif legal.can_show:
            action = Show()
        elif legal.bring_in_amount is not None and legal.call_amount is None and not legal.can_check:
            action = BringIn()
        elif legal.can_check:
            action = Check()
        else:
            action = Call()
        hand.act(legal.seat, action)
    hand_id = f"{table}-e2e0f1-12"
    snapshot = msg("table", table=table, seats=[
        {"seat": seat, "name": name, "stack": stacks[seat], "sitting_out": False, "away": False,
         "wait_for_big_blind": False} for seat, name in enumerate(names)], max_seats=6, waiting=[], hand_running=True)
    messages = [snapshot]
    if not stud:
        messages.append(event(table, hand_id, "hand_planned", hand_number=12, button_seat=3, small_blind_seat=0,
                              big_blind_seat=1, straddle_seat=None, dealt_in=[0, 1, 2, 3], heads_up=False,
                              button_is_dead=False, big_blinds_out_of_position=[], dead_small_blinds=[],
                              blinds_forgiven=[]))
    messages += [msg("event", table=table, hand=hand_id, event=body) for body in view_bodies(hand.events, 1)]
    messages.append(msg("fairness", table=table, hand=hand_id, ok=True, violations=[]))
    return messages
