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
from collections.abc import Callable, Iterable, Mapping
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


Converter = Callable[[Any], Any]


def _parse_card(value: Any) -> Card:
    if not isinstance(value, str):
        raise CodecError(f"expected a card, got {value!r}")
    return Card.parse(value)


def _scalar(kind: type) -> Converter:
    def convert(value: Any) -> Any:
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise CodecError(f"expected {kind.__name__}, got {value!r}")
        return value

    return convert


def _sequence(item: Converter, make: Callable[[Any], Any]) -> Converter:
    def convert(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise CodecError(f"expected a list, got {value!r}")
        return make(item(element) for element in value)

    return convert


def _fixed_tuple(items: list[Converter]) -> Converter:
    def convert(value: Any) -> Any:
        if not isinstance(value, list | tuple) or len(value) != len(items):
            raise CodecError(f"expected a list of {len(items)}, got {value!r}")
        return tuple(item(element) for item, element in zip(items, value, strict=True))

    return convert


def _optional(inner: Converter) -> Converter:
    return lambda value: None if value is None else inner(value)


def _converter(annotation: Any) -> Converter:
    """How to turn a JSON value back into the Python value the annotation asks for (built once per field)."""
    origin = typing.get_origin(annotation)
    if annotation is Card:
        return _parse_card
    if origin is tuple:
        arguments = typing.get_args(annotation)
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return _sequence(_converter(arguments[0]), tuple)
        return _fixed_tuple([_converter(argument) for argument in arguments])
    if origin in (typing.Union, types.UnionType):
        options = [argument for argument in typing.get_args(annotation) if argument is not type(None)]
        return _optional(_converter(options[0]))
    if origin is list:
        return _sequence(_converter(typing.get_args(annotation)[0]), list)
    if annotation in (int, str, bool, float):
        return _scalar(annotation)
    return lambda value: value


@cache
def _fields_of(cls: Any) -> tuple[tuple[str, Converter, bool], ...]:
    """(name, converter, required) per dataclass field of ``cls``."""
    hints = typing.get_type_hints(cls)
    return tuple((item.name, _converter(hints[item.name]),
                  item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING)
                 for item in dataclasses.fields(cls))


def event_from_json(body: Mapping[str, Any]) -> Event:
    """The event a body describes; :class:`CodecError` for an unknown kind or a bad field."""
    kind = body.get("event")
    cls: Any = _event_classes().get(str(kind))
    if cls is None:
        raise CodecError(f"unknown event kind {kind!r}")
    values: dict[str, Any] = {}
    for name, convert, required in _fields_of(cls):
        if name not in body:
            if required:
                raise CodecError(f"{kind}: missing field {name!r}")
            continue
        try:
            values[name] = convert(body[name])
        except CodecError as problem:
            raise CodecError(f"{kind}.{name}: {problem}") from None
        except (ValueError, TypeError) as problem:
            raise CodecError(f"{kind}.{name}: {problem}") from None
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
    converters = {name: convert for name, convert, _ in _fields_of(ForcedBets)}
    try:
        return ForcedBets(**{name: converters[name](value) for name, value in body.items() if name in converters})
    except (TypeError, ValueError) as problem:
        raise CodecError(f"forced bets: {problem}") from None
