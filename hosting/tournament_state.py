"""A tournament's stored state read back (R-CRASH-1, issue 18): its director's last snapshot with the calls of
each step since replayed in order (:mod:`engine.tournament.journal`; written by
:meth:`hosting.tournaments.TournamentOwner._keep` through :meth:`hosting.store.Store.tournament_step`).

Both are the room's own database, written by its own tournaments — never anything from the wire — so they are
read with :mod:`pickle`."""

from __future__ import annotations

import pickle
from collections.abc import Sequence

from engine.tournament.director import Tournament
from engine.tournament.journal import Call, replay


def pack_calls(calls: Sequence[Call]) -> bytes:
    """One step's calls as stored."""
    return pickle.dumps(list(calls), protocol=pickle.HIGHEST_PROTOCOL)


def load_director(state: bytes, steps: Sequence[bytes] = (), *, name: str = "the tournament") -> Tournament:
    """The director as it was after its last stored step. Raises ``ValueError`` when the state is not a
    tournament's and :class:`engine.tournament.journal.ReplayMismatch` when a step does not replay."""
    director = pickle.loads(state)
    if not isinstance(director, Tournament):
        raise ValueError(f"{name}: the stored state is not a tournament")
    for step in steps:
        calls = pickle.loads(step)
        if not isinstance(calls, list) or not all(isinstance(call, Call) for call in calls):
            raise ValueError(f"{name}: a stored step is not a list of calls")
        replay(director, calls)
    return director
