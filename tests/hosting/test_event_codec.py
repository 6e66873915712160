"""The one event encoding (hosting/hand_codec.py): every event type round-trips through the wire and the store,
old stored rows still read, bad bodies are refused with their place, clients get typed events."""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import sqlite3
import sys
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import Card
from engine.events import BlindPosted, Event, HandStarted, HoleCardsDealt
from engine.tournament.events import TournamentEvent
from hosting import protocol
from hosting.hand_codec import (
    EVENT_TYPES,
    TABLE_EVENT_TYPES,
    CodecError,
    decode_events,
    encode_events,
    event_from_json,
    event_to_json,
    kind_of,
    view_bodies,
)
from hosting.hand_records import iter_hands
from hosting.ledger import audit
from hosting.migrations import SCHEMA_VERSION
from hosting.store import DATABASE_FILE, Store

OLD_STORE = Path(__file__).parent / "data" / "store_v3_before_wire.sql"

CARDS = st.integers(0, 51).map(Card)


def _values(hint: Any) -> st.SearchStrategy[Any]:
    """Any value of an event field's type (the types events use: chips, seats, names, times, cards)."""
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if hint is Card:
        return CARDS
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-(2**53), 2**53)
    if hint is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if hint is str:
        return st.text(max_size=12)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*[st.none() if option is type(None) else _values(option) for option in arguments])
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        return st.lists(_values(arguments[0]), max_size=5).map(tuple)
    if origin is tuple:
        return st.tuples(*[_values(argument) for argument in arguments])
    raise AssertionError(f"no values for {hint!r}: teach this test the new field type")


def _events_of(cls: type[Event]) -> st.SearchStrategy[Event]:
    hints = typing.get_type_hints(cls)
    return st.builds(cls, **{item.name: _values(hints[item.name]) for item in dataclasses.fields(cls)})


def _subclasses(cls: type[Event]) -> set[type[Event]]:
    return {sub for direct in cls.__subclasses__() for sub in {direct, *_subclasses(direct)}}


def test_the_name_table_holds_every_event_class_of_the_engine() -> None:
    for module in pkgutil.walk_packages(engine.__path__, "engine."):  # every event class there is, wherever
        importlib.import_module(module.name)
    declared = {cls for cls in _subclasses(Event) if cls.__module__.startswith("engine.")
                and getattr(sys.modules[cls.__module__], cls.__name__, None) is cls  # (not a slots dataclass's draft)
                and cls is not TournamentEvent}  # a base
    assert set(EVENT_TYPES.values()) == declared and len(EVENT_TYPES) == len(declared)  # one name each
    assert EVENT_TYPES["blind_posted"] is BlindPosted and kind_of(BlindPosted) == "blind_posted"
    assert set(TABLE_EVENT_TYPES.values()) == {cls for cls in declared
                                               if cls.__module__ in ("engine.table_events", "engine.home.rabbit_hunt")}


@pytest.mark.parametrize("cls", list(EVENT_TYPES.values()), ids=list(EVENT_TYPES))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_event_type_round_trips_through_the_wire_and_the_store(cls: type[Event], data: st.DataObject) -> None:
    event = data.draw(_events_of(cls))
    body = event_to_json(event)
    assert body["event"] == kind_of(cls)
    assert event_from_json(json.loads(json.dumps(body))) == event  # as the store wrote it before msgspec
    assert decode_events(encode_events([event, event])) == [event, event]  # as the store writes it now
    line = protocol.encode(protocol.event("t1", "t1-h-1", body))
    received = protocol.read_room_message(line)  # as every client reads it
    assert received["type"] == "event" and received["event"] == event and type(received["event"]) is cls


def test_a_body_keeps_its_fields_by_name_and_cards_as_text() -> None:
    assert event_to_json(BlindPosted(2, "big_blind", 2)) == {
        "event": "blind_posted", "seat": 2, "kind": "big_blind", "amount": 2, "live": True, "all_in": False}
    assert view_bodies([HoleCardsDealt(3, (Card.parse("As"), Card.parse("Kd")))], seat=5) == [
        {"event": "cards_dealt_face_down", "seat": 3, "count": 2}]


@pytest.mark.parametrize(("body", "reason"), [
    ({"event": "nope"}, "unknown event kind 'nope'"),
    ({"kind": "folded", "seat": 1}, "unknown event kind None"),
    ({"event": "folded", "seat": True}, "folded: Expected `int`, got `bool` - at `$.seat`"),
    ({"event": "hole_cards_dealt", "seat": 1, "cards": ["Xs"]},
     "hole_cards_dealt: 'Xs' is not a card (expected rank 2-9/T/J/Q/K/A and suit s/h/d/c, e.g. 'As')"
     " - at `$.cards[0]`"),
    ({"event": "hole_cards_dealt", "seat": 1, "cards": [12]},
     "hole_cards_dealt: expected a card as text such as 'As', got 12 - at `$.cards[0]`"),
    ({"event": "hand_started", "variant": "omaha", "structure": "pot_limit", "button_seat": 0, "stacks": [[1]]},
     "hand_started: Expected `array` of length 2, got 1 - at `$.stacks[0]`"),
])
def test_a_bad_body_is_refused_with_its_reason_and_place(body: dict[str, Any], reason: str) -> None:
    with pytest.raises(CodecError) as raised:
        event_from_json(body)
    assert str(raised.value) == reason


def test_a_client_gets_a_body_it_cannot_read_as_a_message_naming_the_problem() -> None:
    line = protocol.encode(protocol.event("t1", "h1", {"event": "from_a_newer_room", "seat": 1}))
    assert protocol.read_room_message(line) == {
        "v": 1, "type": protocol.UNREADABLE_EVENT, "table": "t1", "hand": "h1",
        "event": {"event": "from_a_newer_room", "seat": 1}, "problem": "unknown event kind 'from_a_newer_room'"}
    assert protocol.read_room_message(b"{not json")["type"] == protocol.UNREADABLE_EVENT
    other = protocol.message("lobby", tables=[])
    assert protocol.read_room_message(protocol.encode(other)) == other


def _old_data_directory(tmp_path: Path) -> Path:
    data_dir = tmp_path / "room"
    data_dir.mkdir()
    connection = sqlite3.connect(data_dir / DATABASE_FILE)
    connection.executescript(OLD_STORE.read_text())
    connection.execute("PRAGMA user_version = 3")
    connection.commit()
    connection.close()
    return data_dir


def test_hands_stored_before_the_one_encoding_still_read_and_audit_clean(tmp_path: Path) -> None:
    store = Store.open(_old_data_directory(tmp_path))
    assert store.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # migrated to the latest
    hands = list(iter_hands(store.connection))
    assert [hand.hand_id for hand in hands] == ["t1-1", "t1-2", "t1-3"]
    for hand in hands:  # typed events, read back exactly
        assert hand.events and isinstance(hand.events[0], HandStarted)
        stored = store.connection.execute("SELECT events FROM hands WHERE id = ?", (hand.hand_id,)).fetchone()[0]
        assert [event_to_json(event) for event in hand.events] == json.loads(stored)  # nothing lost or renamed
    assert audit(store.connection) == []  # every hand replays and verifies from the old rows
    # a notice written before notices carried typed messages: its words still reach the player, no message
    assert store.pending_notices("bot1_0")[0] == (
        "Hand t0-1 at table t0 was cancelled when the room stopped; every chip you put into it was returned "
        "(R-CRASH-1).")
    assert store.pending_messages("bot1_0") == []  # (the restart's own notice, the stack returned, is words only)
    store.close_now()
