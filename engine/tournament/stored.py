"""Quick pickling of the records a tournament holds thousands of (one per entry, one per seat).

The room stores its director's whole state after every step (hosting.tournaments): at 3,000 entries the standard
pickling of a ``dataclass(slots=True)`` — a Python call that lists the class's fields again for every object —
is a large share of that step. :func:`stored_quickly` gives such a class a state that is the list of its values
(field names read once) and reads back both that and the standard state of states stored before (``(None,
{slot: value})``)."""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, TypeVar

_Record = TypeVar("_Record", bound=type)


def stored_quickly(cls: _Record) -> _Record:
    """Put above ``@dataclass(slots=True)`` on a class of at least two fields."""
    names = tuple(field.name for field in dataclasses.fields(cls))
    if len(names) < 2 or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__}: a slotted dataclass of two fields or more")
    getter = operator.attrgetter(*names)

    def getstate(self: Any) -> list[Any]:
        return list(getter(self))

    def setstate(self: Any, state: list[Any] | tuple[None, dict[str, Any]]) -> None:
        pairs = zip(names, state, strict=True) if isinstance(state, list) else state[1].items()
        for name, value in pairs:
            object.__setattr__(self, name, value)

    setattr(cls, "__getstate__", getstate)  # noqa: B010 (mypy: methods set on the class)
    setattr(cls, "__setstate__", setstate)  # noqa: B010
    return cls
