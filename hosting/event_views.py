"""A batch of a table's events as the protocol messages each listener gets, every message encoded once.

A public event is one message for the whole audience; a private one (a seat's hole cards) is one message for
its seat and one public trace (:func:`engine.events.view_for`: face-down cards, or nothing) for everyone else.
Before (issue 20), each listener's view was built and encoded on its own: seven times the same work at a full
table with a watcher.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.events import Event, view_for
from hosting import protocol
from hosting.hand_codec import event_to_json


class EventViews:
    """``events`` of ``table``'s hand ``hand``; :meth:`for_seat` gives one seat's (or a spectator's) messages."""

    def __init__(self, table: str, hand: str, events: Iterable[Event]) -> None:
        self._table = table
        self._hand = hand
        self._events = list(events)
        self._messages: dict[tuple[int, bool], list[protocol.Shared]] = {}  # (event index, its owner's view?)
        self._views: dict[int | None, list[protocol.Shared]] = {}

    def for_seat(self, seat: int | None) -> list[protocol.Shared]:
        """The messages ``seat`` may see, in order (``None``: a spectator, or a player not in the hand)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = [message for index, event in enumerate(self._events)
                                        for message in self._event_for(index, event, seat)]
        return view

    def _event_for(self, index: int, event: Event, seat: int | None) -> list[protocol.Shared]:
        key = (index, seat is not None and event.private_to == seat)
        messages = self._messages.get(key)
        if messages is None:
            messages = self._messages[key] = [
                protocol.shared(protocol.event(self._table, self._hand, event_to_json(seen)))
                for seen in view_for([event], seat)]
        return messages
