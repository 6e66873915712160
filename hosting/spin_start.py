"""A tournament's start in the room: a Spin's multiplier, and every tournament's first seats and first button, drawn
by commit–reveal with its registered players (DESIGN.md "Fairness everywhere"; issue 18 "Spin"; issue 29).

:func:`start_spin` runs the draw with the registered players' clients (:meth:`hosting.room.Room.run_draw`) from
the tournament's published table, then starts the director with the proof's index as its ``spin_draw`` (the
index in ``0..999,999`` is exactly the director's draw: :func:`engine.tournament.formats.spin_row` maps it to the
same row) and with :class:`engine.fair_draw.KeyDraw` over the proof's key as its draw for the start only — the
first seats and button — so that anyone replays them from the proof; the director's own draw is put back after.
The proof goes into the tournament's record and its export (:mod:`hosting.tournament_export`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.events import Event
from engine.fair_draw import DrawProof, KeyDraw, Outcomes
from engine.tournament.director import Tournament
from hosting.draw_round import DrawSeconds


class DrawingRoom(Protocol):
    """The room as a Spin's start needs it."""

    async def run_draw(self, draw_id: str, outcomes: Outcomes, players: Sequence[str],
                       seconds: DrawSeconds | None = None, *, publish: bool = True) -> DrawProof: ...


def spin_draw_id(tournament_id: str) -> str:
    """The draw's id: the tournament's, so a proof names its tournament."""
    return f"spin:{tournament_id}"


def spin_outcomes(director: Tournament) -> tuple[tuple[int, int], ...]:
    """The Spin's published table as a draw's outcomes: ``(multiplier, chances)`` rows in order."""
    return tuple((row.multiplier, row.chances) for row in director.settings.spin_table)


def seats_draw_id(tournament_id: str) -> str:
    """Any other tournament's start draw: its first seats and button (no multiplier)."""
    return f"seats:{tournament_id}"


def seats_outcomes(director: Tournament) -> tuple[tuple[int, int], ...]:
    """A seat draw's table: one row, the number of entries (so the key binds how many were seated)."""
    return ((len(director.entries), 1),)


def start_with_proof(director: Tournament, proof: DrawProof, now: float) -> list[Event]:
    """Start the director from a draw's proof: its index as the multiplier draw (a Spin's), its key for the first
    seats (every format)."""
    own = director.draw
    director.draw = KeyDraw(proof.key)
    try:
        return director.start(now, spin_draw=proof.index)
    finally:
        director.draw = own  # later moves and buttons: the director's own draw (not predictable from the key)


async def start_spin(room: DrawingRoom, director: Tournament, now: Callable[[], float],
                     seconds: DrawSeconds | None = None) -> tuple[list[Event], DrawProof]:
    """Draw a full Spin's multiplier with its players and start it; the start's events and the proof."""
    players = [entry.player for entry in director.entries.values()]
    proof = await room.run_draw(spin_draw_id(director.settings.tournament_id), spin_outcomes(director), players,
                                seconds)
    return start_with_proof(director, proof, now()), proof
