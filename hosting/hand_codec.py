"""The one JSON encoding of events, for the wire and the store alike (DESIGN.md "protocol", "Persistence").

Every event of :mod:`engine.events` and :mod:`engine.table_events` (and the home games' rabbit hunt) is one
JSON object: ``event`` names its class in snake_case, the fields follow under their own names, cards as
two-letter text::

    {"event": "blind_posted", "seat": 2, "kind": "big_blind", "amount": 2, "live": true, "all_in": false}

The room sends these bodies in its ``event`` messages (each connection's view, :func:`view_bodies`), the store
keeps a hand's whole log as a list of them, and every client turns them back into the same frozen engine
event (:func:`event_from_json`) — the TUI, ``croupier join``, the bots and the fairness check read typed
events, never dicts. :data:`EVENT_TYPES` is the one table of names. Decoding is msgspec's, typed by the
dataclass fields (a bool is not an int, a card must read as a card), so a bad body is refused with its place
(``folded: Expected `int`, got `str` - at `$.seat```). ``tests/benchmarks/codec.py`` measures it against the
hand-written decoder it replaced.

>>> from engine.cards import parse_cards
>>> from engine.events import HoleCardsDealt
>>> body = event_to_json(HoleCardsDealt(seat=3, cards=parse_cards("As Kd")))
>>> body
{'event': 'hole_cards_dealt', 'seat': 3, 'cards': ['As', 'Kd']}
>>> event_from_json(body) == HoleCardsDealt(seat=3, cards=parse_cards("As Kd"))
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import msgspec

from engine import bankroll, table_events
from engine import events as hand_events
from engine.cards import Card
from engine.events import Event, view_for
from engine.hand import ForcedBets
from engine.home import rabbit_hunt
from engine.tournament import events as tournament_events
from engine.tournament.events import TournamentEvent

__all__ = [
    "EVENT_KEY",
    "EVENT_TYPES",
    "TABLE_EVENT_TYPES",
    "CodecError",
    "decode_events",
    "encode_events",
    "event_from_json",
    "event_to_json",
    "events_from_json",
    "events_to_json",
    "forced_bets_from_json",
    "forced_bets_to_json",
    "kind_of",
    "view_bodies",
]

EVENT_KEY: Final = "event"
"""The key naming an event's type in its body (not ``kind``: :class:`~engine.events.BlindPosted` has a field
of that name)."""


class CodecError(ValueError):
    """A body is not an event (unknown ``event``, missing or mistyped field)."""


_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def kind_of(event: Event | type[Event]) -> str:
    """An event's (or event class's) name on the wire: ``HoleCardsDealt`` → ``"hole_cards_dealt"``."""
    cls = event if isinstance(event, type) else type(event)
    return _CAMEL.sub("_", cls.__name__).lower()


def _classes_of(*modules: Any) -> dict[str, type[Event]]:
    classes: dict[str, type[Event]] = {}
    for module in modules:
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, Event) and value.__module__ == module.__name__
                    and value not in _BASES):
                assert kind_of(value) not in classes, f"two events named {kind_of(value)}"
                classes[kind_of(value)] = value
    return classes


_BASES: Final = frozenset({Event, TournamentEvent})
"""Bases of events, never sent themselves."""
TABLE_EVENT_TYPES: Final[Mapping[str, type[Event]]] = _classes_of(table_events, rabbit_hunt)
"""The table's events (:mod:`engine.table_events`, and the rabbit hunt shown after a hand) by wire name."""
EVENT_TYPES: Final[Mapping[str, type[Event]]] = _classes_of(hand_events, table_events, rabbit_hunt, tournament_events,
                                                            bankroll)
"""Every event class by its wire name (the hand's, the table's, a tournament director's, a play-money account's):
the one name table of the encoding."""


# --- encoding ------------------------------------------------------------------------------------------------

Encoder = Callable[[Any], Any]


def _plain(value: Any) -> Any:
    """Cards as text, tuples as lists; everything else in events is already JSON."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


_FIELD_NAMES: Final[dict[type[Event], tuple[str, ...]]] = {
    cls: tuple(item.name for item in dataclasses.fields(cls)) for cls in EVENT_TYPES.values()}


_KINDS: Final[dict[type[Event], str]] = {cls: kind for kind, cls in EVENT_TYPES.items()}


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready body (see the module's docstring)."""
    body: dict[str, Any] = {EVENT_KEY: _KINDS[type(event)]}
    for name in _FIELD_NAMES[type(event)]:
        value = getattr(event, name)
        body[name] = _plain(value) if isinstance(value, tuple) else value
    return body


def events_to_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [event_to_json(event) for event in events]


def view_bodies(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The bodies ``seat`` may see (``None``: a spectator, public events only; :func:`engine.events.view_for`)."""
    return [event_to_json(event) for event in view_for(list(events), seat)]


_ENCODER = msgspec.json.Encoder()


def encode_events(events: Iterable[Event]) -> str:
    """A hand's event log as the store keeps it: one JSON list of bodies."""
    return _ENCODER.encode(events_to_json(events)).decode()


# --- decoding ------------------------------------------------------------------------------------------------


def _card_hook(cls: type, value: Any) -> Any:
    """msgspec asks this for the one type it does not know: a card, sent as its two-letter text."""
    if cls is Card:
        if not isinstance(value, str):
            raise TypeError(f"expected a card as text such as 'As', got {value!r}")
        return Card.parse(value)  # a ValueError names the bad token
    raise NotImplementedError(cls)


def _convert(body: Any, cls: type[Any], what: str) -> Any:
    try:
        return msgspec.convert(body, cls, dec_hook=_card_hook)
    except msgspec.ValidationError as problem:
        raise CodecError(f"{what}: {problem}") from None


def event_from_json(body: Mapping[str, Any]) -> Event:
    """The event a body describes; :class:`CodecError` for an unknown kind or a bad field."""
    if not isinstance(body, Mapping):
        raise CodecError(f"an event is a JSON object, got {type(body).__name__}")
    kind = body.get(EVENT_KEY)
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CodecError(f"unknown event kind {kind!r}")
    event: Event = _convert(body, cls, str(kind))  # the ``event`` key itself is not a field: msgspec skips it
    return event


def events_from_json(bodies: Iterable[Mapping[str, Any]]) -> list[Event]:
    return [event_from_json(body) for body in bodies]


_DECODER = msgspec.json.Decoder()


def decode_events(text: str | bytes) -> list[Event]:
    """A stored event log (:func:`encode_events`, or ``json.dumps(events_to_json(...))`` as written before)."""
    try:
        bodies = _DECODER.decode(text)
    except msgspec.DecodeError as problem:
        raise CodecError(f"stored events: {problem}") from None
    if not isinstance(bodies, list):
        raise CodecError(f"stored events: expected a list, got {type(bodies).__name__}")
    return events_from_json(bodies)


# --- forced bets -----------------------------------------------------------------------------------------------


def forced_bets_to_json(forced_bets: ForcedBets) -> dict[str, Any]:
    """``ForcedBets`` as a JSON-ready dict (tuples as lists)."""
    return {item.name: (list(value) if isinstance(value := getattr(forced_bets, item.name), tuple) else value)
            for item in dataclasses.fields(ForcedBets)}


def forced_bets_from_json(body: Mapping[str, Any]) -> ForcedBets:
    forced_bets: ForcedBets = _convert(body, ForcedBets, "forced bets")
    return forced_bets
