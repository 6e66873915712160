"""A tournament's state kept as what changed: the calls that changed it (issue 18, 3,000 entrants).

Storing a director's whole state after every step costs an encoding of every entry, seat and table each time (at
3,000 entries most of the room's work). The director is pure: its state after a call depends only on its state
before, the call's arguments and the numbers its fair draw gave. So a room keeps a snapshot now and then and,
after it, each call that changed the director (:class:`Call`: its method, arguments and draws); a snapshot plus
its calls replayed in order (:func:`replay`) is the state again, exactly.

:func:`journaled` marks the director's public methods that change it. While a :class:`Journal` is attached to a
director (``director.journal``) each outermost call of such a method is noted — a call made inside another is
part of it —, raised or not (a call that raised may have changed something before it raised: replayed, it
raises at the same point).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")
RAISED = -1
"""A call's ``outcome`` when it raised."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a journaled method: ``method`` with ``arguments`` and ``keywords``; ``draws``: what the fair
    draw gave during it, in order; ``outcome``: how many events it returned (:data:`RAISED` if it raised) —
    replay checks it."""

    method: str
    arguments: tuple[Any, ...]
    keywords: dict[str, Any]
    draws: tuple[int, ...]
    outcome: int


@dataclass(slots=True)
class Journal:
    """The calls since they were last taken (:meth:`take`). :meth:`began` and :meth:`ended` frame each call noted
    (a room times its director's work there: the engine has no clock)."""

    calls: list[Call] = field(default_factory=list)
    depth: int = 0

    def take(self) -> list[Call]:
        calls, self.calls = self.calls, []
        return calls

    def began(self) -> None:
        """A call to note begins."""

    def ended(self) -> None:
        """The call noted last is over."""


class Journaled(Protocol):
    """What :func:`journaled` needs of its object: a fair draw and a journal (None: nothing noted)."""

    draw: Callable[[int], int]
    journal: Journal | None


class _Noting:
    """A fair draw that notes each number its ``source`` gives."""

    def __init__(self, source: Callable[[int], int], notes: list[int]) -> None:
        self.source = source
        self.notes = notes

    def __call__(self, choices: int) -> int:
        value = self.source(choices)
        self.notes.append(value)
        return value


class _Repeating:
    """A fair draw that gives again the numbers a call was given."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = iter(values)

    def __call__(self, choices: int) -> int:
        value = next(self.values, None)
        if value is None or not 0 <= value < choices:
            raise ReplayMismatch(f"the draw gave {value} where 0..{choices - 1} was asked")
        return value


class ReplayMismatch(Exception):
    """A call replayed did not do what it did when noted."""


_Self = TypeVar("_Self", bound=Journaled)


def journaled(method: Callable[Concatenate[_Self, _Params], _Result]) -> Callable[Concatenate[_Self, _Params], _Result]:
    """Note each outermost call of ``method`` in its object's journal (when it has one)."""
    name = method.__name__

    @functools.wraps(method)
    def noted(self: _Self, /, *arguments: _Params.args, **keywords: _Params.kwargs) -> _Result:
        journal = self.journal
        if journal is None or journal.depth:
            return method(self, *arguments, **keywords)
        given = tuple(_as_given(value) for value in arguments)  # before the call: it may change them
        named = {key: _as_given(value) for key, value in keywords.items()}
        draws: list[int] = []
        source = self.draw
        self.draw = _Noting(source, draws)
        journal.depth += 1
        journal.began()
        outcome = RAISED
        try:
            result = method(self, *arguments, **keywords)
            outcome = len(result) if isinstance(result, list) else 0
            return result
        finally:
            journal.depth -= 1
            if isinstance(self.draw, _Noting):
                self.draw = source
            journal.calls.append(Call(name, given, named, tuple(draws), outcome))
            journal.ended()

    noted.__dict__[_MARK] = True
    return noted


_MARK = "__journaled__"


def journaled_methods(cls: type) -> dict[str, Callable[..., Any]]:
    """The methods of ``cls`` marked :func:`journaled` (unwrapped: their own signatures and annotations), by name:
    what a journal's calls may name."""
    return {name: inspect.unwrap(value) for name, value in vars(cls).items() if getattr(value, _MARK, False)}


def _as_given(value: Any) -> Any:
    """A call's argument as it was given: a caller may change its list, dict or set afterwards (a deck
    reshuffled for the next hand), so a copy is noted (their items are values: cards, events, numbers)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, set):
        return set(value)
    return value


def replay(target: Journaled, calls: Sequence[Call]) -> None:
    """Make each of ``calls`` again on ``target`` (restored from the snapshot they followed), with the numbers
    its draw gave then. Raises :class:`ReplayMismatch` when a call does not do what it did (never, for a pure
    director: a defect)."""
    journal, target.journal = target.journal, None
    own = target.draw
    try:
        for number, call in enumerate(calls):
            target.draw = _Repeating(call.draws)
            try:
                result = getattr(target, call.method)(*call.arguments, **call.keywords)
                outcome = len(result) if isinstance(result, list) else 0
            except ReplayMismatch:
                raise
            except Exception:
                outcome = RAISED
            if outcome != call.outcome:
                raise ReplayMismatch(f"call {number} ({call.method}): {outcome} events, not {call.outcome}")
            left = next(target.draw.values, None) if isinstance(target.draw, _Repeating) else None
            if left is not None:
                raise ReplayMismatch(f"call {number} ({call.method}) drew fewer numbers than when noted")
    finally:
        target.draw = own
        target.journal = journal
