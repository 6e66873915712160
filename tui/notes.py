"""Player notes and colour tags on screen (issue 27): the notes themselves are :mod:`hosting.player_notes`'s (the
file ``croupier join`` and ``croupier play`` keep, and the room's copy for a plain-ssh screen); here, the colour
each tag shows in."""

from __future__ import annotations

from typing import Final

from hosting.player_notes import COLOURS, FILE_NAME, MAX_NOTE, PlayerNotes

__all__ = ["COLOURS", "FILE_NAME", "MAX_NOTE", "STYLES", "PlayerNotes"]

STYLES: Final = {"red": "bold red", "orange": "bold dark_orange", "yellow": "bold yellow", "green": "bold green",
                 "blue": "bold dodger_blue1", "purple": "bold magenta"}
"""Each tag's ● on a seat (rich styles)."""
