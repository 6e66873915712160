"""ONE-TIME MIGRATION — store migration 10 (issue 28): tournaments kept by croupier before their state was versioned
data were Python pickles (``tournaments.state``: the director; ``tournament_steps.calls``: lists of journal calls).
:func:`convert_pickled_tournaments` reads each of them once, while the store migrates, and rewrites it in the
versioned format of :mod:`hosting.tournament_state`; nothing else reads or writes a pickle. A running tournament
thus survives the upgrade; a state that does not convert stops the migration with one line naming the tournament,
and nothing is changed (the previous croupier can still run it).

The pickles are the room's own, but they are still read through an allow-list: only the engine's classes (and
the few builtins their state uses) load; anything else is refused, never imported or called. The engine's per-entry
and per-seat records were pickled as the list of their values (the ``stored_quickly`` of that release): they are
read back here. The director's draw was pickled as ``hosting.tournaments.SystemDraw``; it is not kept (a restored
director gets the room's draw).

Delete this module (and make migration 10 a no-op) once no room can still hold a pickled tournament.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
import sqlite3
from typing import Any, Final

from engine.tournament.director import Entry, Tournament
from engine.tournament.journal import Call
from engine.tournament.money import _EntryPayment
from engine.tournament.table import TournamentSeat
from hosting.tournament_state import encode_calls, encode_snapshot

_PICKLE_START: Final = b"\x80"
"""A pickle of protocol 2 or later (every one croupier wrote) begins with the PROTO opcode."""
_BUILTINS: Final = frozenset({("builtins", "set"), ("builtins", "frozenset"), ("fractions", "Fraction"),
                              ("copyreg", "_reconstructor"), ("builtins", "object")})


class _DroppedDraw:
    """Where the pickled director's ``SystemDraw`` was: never drawn from (the state is re-encoded without it)."""

    def __call__(self, choices: int) -> int:
        raise RuntimeError("a pickled tournament's draw is not used")


def _reading_value_lists(cls: type) -> type:
    """``cls`` (a slotted dataclass pickled as the list of its values) with a ``__setstate__`` that reads that
    list, and the standard ``(None, {slot: value})`` too."""
    names = tuple(field.name for field in dataclasses.fields(cls))

    def setstate(self: Any, state: list[Any] | tuple[None, dict[str, Any]]) -> None:
        pairs = zip(names, state, strict=True) if isinstance(state, list) else state[1].items()
        for name, value in pairs:
            object.__setattr__(self, name, value)

    return type(cls.__name__, (cls,), {"__slots__": (), "__setstate__": setstate})


_VALUE_LISTS: Final[dict[type, type]] = {cls: _reading_value_lists(cls)
                                          for cls in (Entry, TournamentSeat, _EntryPayment)}


class _LegacyUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if name == "SystemDraw" and module.startswith("hosting."):  # the room's draw: not kept
            return _DroppedDraw
        if not module.startswith("engine.") and (module, name) not in _BUILTINS:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a tournament's state")
        found = super().find_class(module, name)
        return _VALUE_LISTS.get(found, found)


def _unpickled(data: bytes) -> Any:
    return _LegacyUnpickler(io.BytesIO(data)).load()


def converted_state(state: bytes) -> bytes:
    """A pickled director's state in the versioned format (a state already in it is returned as it is)."""
    if not state.startswith(_PICKLE_START):
        return state
    director = _unpickled(state)
    if not isinstance(director, Tournament):
        raise ValueError("the stored state is not a tournament")
    director.journal = None
    return encode_snapshot(director)


def converted_calls(step: bytes) -> bytes:
    """A pickled step's calls in the versioned format (a step already in it is returned as it is)."""
    if not step.startswith(_PICKLE_START):
        return step
    calls = _unpickled(step)
    if not isinstance(calls, list) or not all(isinstance(call, Call) for call in calls):
        raise ValueError("a stored step is not a list of calls")
    return encode_calls(calls)


def convert_pickled_tournaments(connection: sqlite3.Connection) -> None:
    """Store migration 10: every tournament's state and steps rewritten in the versioned format, in the
    migration's transaction. ``sqlite3.DatabaseError`` naming the tournament when one does not convert."""
    for tournament_id, state in connection.execute("SELECT id, state FROM tournaments").fetchall():
        try:
            connection.execute("UPDATE tournaments SET state = ? WHERE id = ?",
                               (converted_state(bytes(state)), tournament_id))
            for row_id, calls in connection.execute("SELECT id, calls FROM tournament_steps WHERE tournament_id = ?",
                                                    (tournament_id,)).fetchall():
                connection.execute("UPDATE tournament_steps SET calls = ? WHERE id = ?",
                                   (converted_calls(bytes(calls)), row_id))
        except (pickle.UnpicklingError, ValueError, TypeError, AttributeError, EOFError, ImportError) as problem:
            raise sqlite3.DatabaseError(
                f"tournament {tournament_id}: its state, kept by an earlier croupier, cannot be converted to this "
                f"version's ({problem}); nothing was changed — run it to its end with the earlier croupier") from None
