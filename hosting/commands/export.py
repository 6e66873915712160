"""``croupier export --data DIR --format pokerstars|phh [--player NAME] [--since DATE] [-o FILE]``.

Writes the room's finished hands for trackers and for ``croupier verify`` (each with its fairness transcript,
see :mod:`hosting.hand_records`). ``--player``: only that player's hands, as he saw them (other players' cards
only when shown); without it, the host's full copy. ``--since``: hands started on or after that date
(``YYYY-MM-DD`` or ISO date and time; UTC unless it names its zone).

PokerStars-style text is written for every game; PokerKit 0.7.7's PokerStars parser reads only no-limit
hold'em, so the other games are best exported as PHH. PHH cannot express some hands (dead or out-of-position
blinds; games without a PHH code, such as pot-limit hold'em): a PHH export skips them and says how many.
Exit 2 for a bad data directory, date or player.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from engine.history import HistoryError
from engine.phh import PhhError
from hosting.commands.audit import data_dir_of
from hosting.hand_records import iter_hands, phh_hand, pokerstars_hand
from hosting.store import StoreError, connect


def parse_since(text: str) -> float:
    """``"2026-11-29"`` / ``"2026-11-29T13:05"`` (UTC when no zone is given) → epoch seconds; ``ValueError``."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"--since {text!r} is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def export_text(connection: object, output_format: str, *, player: str | None = None,
                since: float | None = None) -> tuple[str, int, dict[str, int]]:
    """The export's text, the number of hands written and the hands skipped per reason (PHH cannot express
    them: a game without a PHH code, dead or out-of-position blinds)."""
    import sqlite3

    assert isinstance(connection, sqlite3.Connection)
    parts: list[str] = []
    skipped: dict[str, int] = {}
    for hand in iter_hands(connection, since=since, player=player):
        try:
            if output_format == "phh":
                parts.append(f"[{len(parts) + 1}]\n{phh_hand(hand, player)}")
            else:
                parts.append(pokerstars_hand(hand, player))
        except (PhhError, HistoryError) as problem:
            skipped[str(problem)] = skipped.get(str(problem), 0) + 1
    separator = "\n" if output_format == "phh" else "\n\n"
    return separator.join(parts), len(parts), skipped


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, then rename)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def run(arguments: argparse.Namespace) -> int:
    output_format = getattr(arguments, "format", "pokerstars")
    player = getattr(arguments, "player", None)
    try:
        since = parse_since(arguments.since) if getattr(arguments, "since", None) else None
    except ValueError as problem:
        print(f"croupier export: {problem}", file=sys.stderr)
        return 2
    try:
        connection = connect(data_dir_of(arguments), read_only=True)
    except StoreError as problem:
        print(f"croupier export: {problem}", file=sys.stderr)
        return 2
    try:
        if player is not None and connection.execute("SELECT 1 FROM accounts WHERE name = ?",
                                                      (player,)).fetchone() is None:
            print(f"croupier export: no player named {player!r} in this room", file=sys.stderr)
            return 2
        connection.execute("BEGIN")
        text, written, skipped = export_text(connection, output_format, player=player, since=since)
        connection.execute("ROLLBACK")
    finally:
        connection.close()
    output = getattr(arguments, "output", None)
    if output:
        try:
            _write(Path(output).expanduser(), text)
        except OSError as problem:
            print(f"croupier export: cannot write {output}: {problem.strerror or problem}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    note = "".join(f"; {count} skipped ({reason})" for reason, count in skipped.items())
    where = f" to {output}" if output else ""
    print(f"croupier export: {written} hand(s) as {output_format}{where}{note}", file=sys.stderr)
    return 0
