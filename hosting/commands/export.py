"""``croupier export --data DIR --format pokerstars|phh [--player NAME] [--since DATE] [-o FILE]``.

Writes the room's finished hands for trackers and for ``croupier verify`` (each with its fairness transcript,
see :mod:`hosting.hand_records`). ``--player``: only that player's hands, as he saw them (other players' cards
only when shown); without it, the host's full copy. ``--since``: hands started on or after that date
(``YYYY-MM-DD`` or ISO date and time; UTC unless it names its zone).

PokerStars-style text is written for every game. PHH (a several-hands ``.phhs`` text: ``[1]``, ``[2]``…
sections, which ``croupier replay`` and ``croupier verify`` read) names only the games of its fixed list of
variant codes that croupier plays: no-limit and fixed-limit hold'em (NT, FT), pot-limit Omaha (PO), fixed-limit
Omaha hi/lo (FO/8), fixed-limit stud and stud hi/lo (F7S, F7S/8) and fixed-limit 2-7 triple draw (F2L3D). Hands
of any other game or structure (spread limit, pot-limit or half-pot hold'em, 5-card Omaha, 5-card draw, the
32-card games…) and hands with a dead or out-of-position blind are left out of a PHH export, and the export
says so at the end, one line per kind with its count (as ``croupier export --help`` says).
Exit 2 for a bad data directory, date or player.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from engine.history import HistoryError, game_title
from engine.phh import PhhCannotName, PhhError
from hosting.commands.audit import data_dir_of
from hosting.hand_records import iter_hands, phh_hand, pokerstars_export, pokerstars_hand, proof_line
from hosting.store import StoreError, connect


def skip_note(what: str, why: str, count: int) -> str:
    """The end-of-export line for ``count`` hands left out of a PHH file.

    >>> skip_note("Hold'em Spread Limit", "PHH has no variant code for Hold'em Spread Limit", 12)
    "12 Hold'em Spread Limit hands are not in the PHH file (PHH has no variant code for Hold'em Spread Limit); \
use --format pokerstars for them"
    """
    hands = "hand is" if count == 1 else "hands are"
    return f"{count} {what + ' ' if what else ''}{hands} not in the PHH file ({why}); use --format pokerstars for them"


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
                since: float | None = None) -> tuple[str, int, dict[tuple[str, str], int]]:
    """The export's text, the number of hands written and the hands left out, counted per (what, why): PHH
    cannot name the game (what: its title, e.g. ``"Hold'em Spread Limit"``) or express a dead blind."""
    assert isinstance(connection, sqlite3.Connection)
    parts: list[str] = []
    proofs: list[str] = []
    skipped: dict[tuple[str, str], int] = {}
    try:  # each tournament's number: its row (a store from before tournaments has none)
        numbers = {str(name): int(row) for name, row in connection.execute("SELECT id, rowid FROM tournaments")}
    except sqlite3.OperationalError:
        numbers = {}
    for hand in iter_hands(connection, since=since, player=player):
        try:
            if output_format == "phh":
                parts.append(f"[{len(parts) + 1}]\n{phh_hand(hand, player).rstrip(chr(10))}\n")
            else:
                parts.append(pokerstars_hand(hand, player, numbers))
                proofs.append(proof_line(hand))
        except PhhCannotName:
            title = game_title(hand.hand_config())
            key = (title, f"PHH has no variant code for {title}")
            skipped[key] = skipped.get(key, 0) + 1
        except (PhhError, HistoryError) as problem:
            skipped[("", str(problem))] = skipped.get(("", str(problem)), 0) + 1
    if output_format == "phh":
        return "\n".join(parts), len(parts), skipped  # each section ends with a newline, so does the file
    return pokerstars_export(parts, proofs), len(parts), skipped


def _run_tournament(arguments: argparse.Namespace) -> int:
    try:
        connection = connect(data_dir_of(arguments), read_only=True)
    except StoreError as problem:
        print(f"croupier export: {problem}", file=sys.stderr)
        return 2
    try:
        text = tournament_summary(connection, arguments.tournament, getattr(arguments, "player", None))
    except (ValueError, sqlite3.Error) as problem:
        print(f"croupier export: {problem}", file=sys.stderr)
        return 2
    finally:
        connection.close()
    if not _deliver(arguments, text):
        return 2
    output = getattr(arguments, "output", None)
    print("croupier export: wrote the tournament summary" + (f" to {output}" if output else " above"), file=sys.stderr)
    return 0


def _deliver(arguments: argparse.Namespace, text: str) -> bool:
    """``text`` to ``--output`` (atomically) or standard output; false (the reason said) when it cannot be
    written."""
    output = getattr(arguments, "output", None)
    if output:
        try:
            _write(Path(output).expanduser(), text)
        except OSError as problem:
            print(f"croupier export: cannot write {output}: {problem.strerror or problem}", file=sys.stderr)
            return False
    else:
        sys.stdout.write(text)
    return True


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, then rename)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def tournament_summary(connection: sqlite3.Connection, tournament_id: str, player: str | None) -> str:
    """The stored tournament's summary with its draws' proofs (:mod:`hosting.tournament_export`); ``ValueError``
    when the room has no such tournament. Its number (PokerStars' ``Tournament #``) is its row in the store."""
    from engine.fair_draw import DrawProof
    from hosting.store.tournaments import tournament_steps
    from hosting.tournament_export import summary_export
    from hosting.tournament_state import load_director

    row = connection.execute("SELECT rowid, state, updated_at FROM tournaments WHERE id = ?",
                             (tournament_id,)).fetchone()
    if row is None:
        raise ValueError(f"no tournament {tournament_id!r} in this room")
    director = load_director(row[1], tournament_steps(connection, tournament_id), name=f"tournament {tournament_id!r}")
    proofs = [DrawProof.from_json(data) for data in getattr(director, "draw_proofs", [])]
    finished = float(row[2]) if director.phase.value == "complete" else None
    return summary_export(director, int(row[0]), started_at=director.started_at or float(row[2]),
                          finished_at=finished, player=player, proofs=proofs)


def run(arguments: argparse.Namespace) -> int:
    if getattr(arguments, "tournament", None):
        return _run_tournament(arguments)
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
    if not _deliver(arguments, text):
        return 2
    output = getattr(arguments, "output", None)
    left_out = sum(skipped.values())
    note = f"; {left_out} left out (below)" if left_out else ""
    where = f" to {output}" if output else ""
    print(f"croupier export: {written} hand(s) as {output_format}{where}{note}", file=sys.stderr)
    for (what, why), count in sorted(skipped.items(), key=lambda item: (-item[1], item[0])):
        line = skip_note(what, why, count) if output_format == "phh" else f"{count} hand(s) left out ({why})"
        print(f"croupier export: {line}", file=sys.stderr)
    return 0
