"""Hand events and plans as JSON for the store, and back (DESIGN.md "Persistence and recovery").

A stored hand keeps its whole event log (:mod:`engine.events` and :mod:`engine.table_events`) as a JSON list of
bodies ``{"event": "blind_posted", "seat": 2, "kind": "big_blind", …}``: ``event`` is the snake_case class name
(not ``kind``, which :class:`~engine.events.BlindPosted` uses for its own field), the fields follow, cards as
two-letter text. :func:`event_from_json` reads it back
into the same frozen event, using the dataclass field types, so history writers and the auditor work on real
engine events. :func:`forced_bets_to_json` / :func:`forced_bets_from_json` do the same for
:class:`engine.hand.ForcedBets`.

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
import types
import typing
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from engine import events as hand_events
from engine import table_events
from engine.cards import Card
from engine.events import Event
from engine.hand import ForcedBets
from hosting.views import kind_of

__all__ = [
    "CodecError",
    "event_from_json",
    "event_to_json",
    "events_from_json",
    "events_to_json",
    "forced_bets_from_json",
    "forced_bets_to_json",
]


class CodecError(ValueError):
    """A stored body is not an event (unknown ``kind``, missing or mistyped field)."""


def _plain(value: Any) -> Any:
    """Cards as text, tuples as lists; everything else in events is already JSON."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


@cache
def _event_classes() -> dict[str, type[Event]]:
    classes: dict[str, type[Event]] = {}
    for module in (hand_events, table_events):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Event) and value is not Event:
                classes[kind_of(value.__new__(value))] = value
    return classes


@cache
def _field_types(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(value: Any, annotation: Any) -> Any:
    """Turn a JSON value back into the Python value the annotation asks for (cards, tuples, optionals)."""
    origin = typing.get_origin(annotation)
    if annotation is Card:
        if not isinstance(value, str):
            raise CodecError(f"expected a card, got {value!r}")
        return Card.parse(value)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise CodecError(f"expected a list, got {value!r}")
        arguments = typing.get_args(annotation)
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(_convert(item, arguments[0]) for item in value)
        return tuple(_convert(item, argument) for item, argument in zip(value, arguments, strict=True))
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [argument for argument in typing.get_args(annotation) if argument is not type(None)]
        return _convert(value, options[0])
    if origin is list:
        return [_convert(item, typing.get_args(annotation)[0]) for item in value]
    if annotation in (int, str, bool, float):
        if annotation is float and isinstance(value, int):
            return float(value)
        if not isinstance(value, annotation) or (annotation is int and isinstance(value, bool)):
            raise CodecError(f"expected {annotation.__name__}, got {value!r}")
        return value
    return value


def event_from_json(body: Mapping[str, Any]) -> Event:
    """The event a body describes; :class:`CodecError` for an unknown kind or a bad field."""
    kind = body.get("event")
    cls: Any = _event_classes().get(str(kind))
    if cls is None:
        raise CodecError(f"unknown event kind {kind!r}")
    hints = _field_types(cls)
    values: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        if item.name not in body:
            if item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING:
                raise CodecError(f"{kind}: missing field {item.name!r}")
            continue
        try:
            values[item.name] = _convert(body[item.name], hints[item.name])
        except (ValueError, TypeError) as problem:
            raise CodecError(f"{kind}.{item.name}: {problem}") from None
    event: Event = cls(**values)
    return event


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready body (see the module's docstring)."""
    body: dict[str, Any] = {"event": kind_of(event)}
    body.update({item.name: _plain(getattr(event, item.name)) for item in dataclasses.fields(event)})
    return body


def events_to_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [event_to_json(event) for event in events]


def events_from_json(bodies: Iterable[Mapping[str, Any]]) -> list[Event]:
    return [event_from_json(body) for body in bodies]


def forced_bets_to_json(forced_bets: ForcedBets) -> dict[str, Any]:
    """``ForcedBets`` as a JSON-ready dict (tuples as lists)."""
    return {item.name: (list(value) if isinstance(value := getattr(forced_bets, item.name), tuple) else value)
            for item in dataclasses.fields(ForcedBets)}


def forced_bets_from_json(body: Mapping[str, Any]) -> ForcedBets:
    hints = _field_types(ForcedBets)
    try:
        return ForcedBets(**{name: _convert(value, hints[name]) for name, value in body.items() if name in hints})
    except (TypeError, ValueError) as problem:
        raise CodecError(f"forced bets: {problem}") from None
