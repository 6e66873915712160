"""The one sanitizer for text that came from someone else: player names, chat, reasons, table names, reports.

A terminal obeys what it is sent: an escape sequence inside a chat line could write the reader's clipboard
(OSC 52), retitle or relink his window (OSC 0, OSC 8), clear the screen (``ESC[2J``) or leave the alternate
screen (``ESC[?1049l``). Bidirectional overrides make one text read as another. :func:`clean_text` drops all
of them: whole escape sequences first (so no half of one is left to show), then every control, format,
surrogate, private-use or unassigned character. The room applies it where client text comes in, the TUI to
everything it renders from the wire (:func:`clean_value`), host tools to what they print.

Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any

_ESCAPE_SEQUENCE = re.compile(
    r"""
      \x1b \[ [0-?]* [ -/]* [@-~]?                      # CSI, 7-bit: ESC [ parameters intermediates final
    | \x9b [0-?]* [ -/]* [@-~]?                        # CSI, 8-bit
    | (?: \x1b [\]PX^_] | [\x90\x98\x9d\x9e\x9f] )     # OSC, DCS, SOS, PM, APC (7- or 8-bit) ...
      .*? (?: \x07 | \x1b\\ | \x9c | \Z )              # ... up to BEL or ST (a terminal swallows to there too)
    | \x1b [ -/]* [0-~]?                               # any other ESC sequence (nF, Fp, Fe, Fs)
    """,
    re.VERBOSE | re.DOTALL,
)
_KEPT_FORMAT = frozenset({"\u200d"})
"""Format characters that are kept: the zero-width joiner builds emoji such as 👨‍👩‍👧 and moves nothing."""
_LINE_BREAKS = frozenset({"\n", "\r", "\t", "\u2028", "\u2029", "\x0b", "\x0c", "\x85"})


def _dropped(character: str) -> bool:
    category = unicodedata.category(character)
    return (category[0] == "C" and character not in _KEPT_FORMAT) or category in ("Zl", "Zp")


def clean_text(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` without escape sequences, control characters or bidirectional overrides, trimmed.

    Tabs and line breaks become one space each (``keep_newlines``: newlines stay, for multi-line text such as a
    hand history).

    >>> clean_text("hi\\x1b]52;c;aGk=\\x07 there\\x1b[2J")
    'hi there'
    >>> clean_text("\\u202eevil\\u202c name\\tand\\ttab")
    'evil name and tab'
    >>> clean_text("line one\\nline two", keep_newlines=True)
    'line one\\nline two'
    """
    text = _ESCAPE_SEQUENCE.sub("", text)
    kept: list[str] = []
    for character in text:
        if character == "\n" and keep_newlines:
            kept.append(character)
        elif character in _LINE_BREAKS:
            kept.append(" ")
        elif not _dropped(character):
            kept.append(character)
    return "".join(kept).strip()


def clean_value(value: Any) -> Any:
    """A decoded JSON value with :func:`clean_text` applied to every string in it (keys too), at any depth; a
    typed event (a dataclass) keeps its type, its text fields cleaned.

    >>> clean_value({"name": "x\\x1b]0;owned\\x07y", "seats": [{"name": "\\x1b[2Jz"}], "stack": 5})
    {'name': 'xy', 'seats': [{'name': 'z'}], 'stack': 5}
    >>> from engine.table_events import PlayerSeated
    >>> clean_value(PlayerSeated(1, "a\x1b[2Jb", 100))
    PlayerSeated(seat=1, player='ab', buy_in=100)
    """
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(key) if isinstance(key, str) else key: clean_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [clean_value(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a typed event: its texts, same type
        changes = {item.name: clean_text(text) for item in dataclasses.fields(value)
                   if isinstance(text := getattr(value, item.name), str) and clean_text(text) != text}
        return dataclasses.replace(value, **changes) if changes else value
    return value


def counted(number: object, word: str) -> str:
    """A count and its noun as a player reads it: ``1 player``, ``3 players``, ``0 players`` (a count the room
    did not send stays as it came: ``? players``).

    >>> counted(1, "player"), counted(3, "table"), counted(0, "seat request"), counted(None, "player")
    ('1 player', '3 tables', '0 seat requests', 'None players')
    """
    return f"{number} {word}" if number == 1 else f"{number} {word}s"
