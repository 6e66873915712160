"""Per-connection views of hand events (DESIGN.md "protocol"): what each seat, and a spectator, may see.

The filtering itself is :func:`engine.events.view_for`; this module turns the events it keeps into JSON
bodies for the protocol's ``event`` message: ``{"kind": "hole_cards_dealt", "seat": 3, "cards": ["As", "Kd"]}``.
Cards become their two-letter text, tuples become lists, the class name becomes a snake_case ``kind``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from engine.cards import Card
from engine.events import Event, view_for

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def kind_of(event: Event) -> str:
    """``HoleCardsDealt`` → ``"hole_cards_dealt"``."""
    return _CAMEL.sub("_", type(event).__name__).lower()


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: _plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if hasattr(value, "value") and not isinstance(value, int | str | float | bool):
        return value.value  # an Enum
    return value


_RENAMED = {"kind": "blind"}
"""Event fields whose name would clash with the body's ``kind`` (``BlindPosted.kind`` is sent as ``blind``)."""


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready dict with its ``kind``, e.g. ``{"kind": "blind_posted", "blind": "big_blind",
    "seat": 3, "amount": 2, …}``."""
    body = {"kind": kind_of(event)}
    body.update({_RENAMED.get(item.name, item.name): _plain(getattr(event, item.name))
                 for item in dataclasses.fields(event)})
    return body


def view_bodies(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The JSON bodies ``seat`` may see (``None``: a spectator, public events only)."""
    return [event_to_json(event) for event in view_for(list(events), seat)]
