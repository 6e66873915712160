"""Player notes and colour tags (issue 27): a colour and a line of text about another player, shown on his seat
wherever he sits (tui.notes: a coloured ● before his name, the note on hover and in the notes window, Q).

``croupier join`` and ``croupier play`` keep them in ``player-notes.json`` in the user data directory (platformdirs,
as the logs), readable by the player alone. A screen the room serves over plain ssh runs on the host's machine and
touches no disk: the room keeps that player's notes for his name (:class:`RoomNotes`, ``player-notes/NAME.json`` in
its data directory; the protocol's ``notes`` message), for him alone. Notes are the player's own
words: cleaned of control characters and escape sequences (:func:`engine.text.clean_text`) on the way in and when
read back, each at most :data:`MAX_NOTE` characters, at most :data:`MAX_PLAYERS` players; a file that is not ours
(too big, not JSON, wrong shapes) is read as far as it is sound and never stops the app.

>>> notes = PlayerNotes()
>>> notes.set("bob", "red", "calls\\x1b[2J too wide")
>>> notes.get("bob")
('red', 'calls too wide')
>>> notes.set("bob", "", "")
>>> notes.get("bob") is None
True
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Final

from engine.text import clean_text

log = logging.getLogger("croupier.notes")

COLOURS: Final = ("red", "orange", "yellow", "green", "blue", "purple")
"""The tags a player may give, as rich colour names (the ● on the seat)."""
MAX_NOTE: Final = 200
MAX_PLAYERS: Final = 1000
MAX_FILE_BYTES: Final = 512 * 1024
FILE_NAME: Final = "player-notes.json"


def clean_note(text: str) -> str:
    """A note as it is kept and shown: one line, no control characters, at most :data:`MAX_NOTE` characters.

    >>> clean_note("  tight\\n  early \\u202e  ")
    'tight early'
    """
    return " ".join(clean_text(str(text)).split())[:MAX_NOTE].strip()


class PlayerNotes:
    """Notes by player name: ``(colour, text)``; ``path`` None keeps them in memory only."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.entries: dict[str, tuple[str, str]] = {}
        if path is not None:
            self._read(path)

    def to_json(self) -> dict[str, dict[str, str]]:
        """The notes as the file and the protocol's ``notes`` message carry them."""
        return {name: {"tag": colour, "note": note} for name, (colour, note) in sorted(self.entries.items())}

    def replace_from(self, players: object) -> None:
        """Every note from ``players`` (the room's ``notes`` message, or a file), cleaned and bounded as read."""
        self.entries = {}
        if not isinstance(players, dict):
            return
        for name, entry in list(players.items())[:MAX_PLAYERS]:
            if not isinstance(entry, dict):
                continue
            colour = entry.get("tag") if entry.get("tag") in COLOURS else ""
            note = clean_note(entry["note"]) if isinstance(entry.get("note"), str) else ""
            if colour or note:
                self.entries[clean_text(str(name))[:64]] = (str(colour), note)

    def get(self, name: str) -> tuple[str, str] | None:
        return self.entries.get(name)

    def set(self, name: str, colour: str, text: str) -> None:
        """Tag ``name`` with ``colour`` (one of :data:`COLOURS`, "" for none) and ``text``; both empty forgets him.
        ``ValueError`` for another colour or a full book (nothing changes)."""
        name = clean_text(name)[:64]
        if colour and colour not in COLOURS:
            raise ValueError(f"a tag is one of {', '.join(COLOURS)}, not {colour[:20]!r}")
        note = clean_note(text)
        if not colour and not note:
            self.entries.pop(name, None)
        elif name not in self.entries and len(self.entries) >= MAX_PLAYERS:
            raise ValueError(f"notes are kept on at most {MAX_PLAYERS} players: clear some first")
        else:
            self.entries[name] = (colour, note)
        self._write()

    def _read(self, path: Path) -> None:
        data = read_private_json(path, "player notes")
        self.replace_from(data.get("players") if isinstance(data, dict) else None)

    def _write(self) -> None:
        if self.path is None:
            return
        try:
            write_private_json(self.path, {"players": self.to_json()})
        except OSError as problem:
            log.warning("player notes: could not write %s (%s)", self.path, problem)


def read_private_json(path: Path, what: str) -> object:
    """A small JSON file the client keeps (notes, bet presets); None when missing, too big or not JSON (logged:
    a file that is not ours never stops the app)."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            log.warning("%s: %s is larger than %d bytes: not read", what, path, MAX_FILE_BYTES)
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as problem:
        log.warning("%s: %s could not be read (%s): not used", what, path, problem)
        return None


def write_private_json(path: Path, body: object) -> None:
    """Write ``body`` to ``path``, readable by the player alone, whole or not at all (a crash never leaves half a
    file); ``OSError`` when it cannot (nothing is left behind)."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(body, file, ensure_ascii=False, indent=1)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


class RoomNotes:
    """The notes the room keeps for its plain-ssh players, one file per player name under ``folder``; each player
    reads and writes only his own (the room passes the session's name, never one from the message)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def of(self, player: str) -> PlayerNotes:
        """``player``'s notes (a checked player name: letters, digits, ``_ . -``, so a file name of its own)."""
        if not player or player.startswith(".") or not all(char.isalnum() or char in "_.-" for char in player):
            raise ValueError(f"not a player name: {player[:30]!r}")
        return PlayerNotes(self.folder / f"{player}.json")
