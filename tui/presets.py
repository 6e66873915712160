"""Bet-size presets (issue 27, "custom bet-size buttons"): keys 1–9 put a size in the amount box, as the buttons
under the betting row do. Keys 1–6 are always there (by default ½, ⅔, ¾ pot, pot, the minimum, the maximum);
7–9 are the pre-flop opens (by default 2, 2.5 and 3 big blinds), shown while the blinds are in.

Each is the player's to change (the bet sizes window): a fraction of the pot (``1/2``, ``3/4 pot``, ``60%``,
``pot``, ``1.5 pot``), big blinds (``2.5bb``), times the bet to call (``3x``: a raise to three times the last
bet or raise), ``min`` or ``max``. ``croupier join`` and ``croupier play`` keep them in ``bet-presets.json`` beside
the player notes (the user data directory, platformdirs); a screen the room serves over plain ssh touches no disk
and keeps them for the session. A missing file, or one that is not ours, gives the defaults and never stops the
app. Every amount is a whole number of chips clamped to the legal bet or raise of the moment.

>>> parse_preset("3/4 pot").label, parse_preset("2.5BB").label, parse_preset("3x").label
('¾', '2.5BB', '3×')
>>> preset_text(parse_preset("60 %")), preset_text(parse_preset(" Pot ")), preset_text(parse_preset("all-in"))
('60% pot', 'pot', 'max')
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from hosting.player_notes import read_private_json, write_private_json

log = logging.getLogger("croupier.presets")

POT: Final = "pot"
BIG_BLINDS: Final = "big_blinds"
TIMES_BET: Final = "times_bet"
MINIMUM: Final = "min"
MAXIMUM: Final = "max"

FILE_NAME: Final = "bet-presets.json"
COUNT: Final = 9
"""Keys 1–9: 1–6 at every bet, 7–9 the pre-flop opens."""
ALWAYS: Final = 6
"""Presets 1–6 show at every bet or raise; 7–9 only pre-flop in a game with blinds."""
MAX_POTS: Final = Fraction(10)
MAX_MULTIPLE: Final = Fraction(100)
DEFAULT_TEXTS: Final = ("1/2 pot", "2/3 pot", "3/4 pot", "pot", "min", "max", "2bb", "2.5bb", "3bb")
HELP: Final = "a pot fraction (1/2, 3/4 pot, 60%, pot, 1.5 pot), big blinds (2.5bb), times the bet (3x), min or max"

_VULGAR = {Fraction(1, 4): "¼", Fraction(1, 3): "⅓", Fraction(1, 2): "½", Fraction(2, 3): "⅔", Fraction(3, 4): "¾"}
_NUMBER = r"(\d{1,3}(?:\.\d{1,2})?|\d{1,2}/\d{1,2})"
_POT = re.compile(rf"{_NUMBER}\s*(%)?\s*(?:pot|of\s+the\s+pot|of\s+pot)?")
_BIG_BLINDS = re.compile(rf"{_NUMBER}\s*(?:bb|big\s*blinds?|×\s*bb|x\s*bb)")
_TIMES = re.compile(rf"{_NUMBER}\s*(?:x|×|times)(?:\s*(?:the\s+)?(?:last\s+)?bet)?")


@dataclass(frozen=True)
class Preset:
    """One size: ``kind`` (:data:`POT`, :data:`BIG_BLINDS`, :data:`TIMES_BET`, :data:`MINIMUM`,
    :data:`MAXIMUM`) and ``size`` (pots, big blinds or times the bet; 0 for min and max)."""

    kind: str
    size: Fraction = Fraction(0)

    @property
    def label(self) -> str:
        """The button's word (the key goes before it): ``½``, ``pot``, ``60%``, ``2.5BB``, ``3×``, ``min``."""
        if self.kind == POT:
            if self.size == 1:
                return "pot"
            if self.size in _VULGAR:
                return _VULGAR[self.size]
            return f"{_decimal(self.size * 100)}%"
        if self.kind == BIG_BLINDS:
            return f"{_decimal(self.size)}BB"
        if self.kind == TIMES_BET:
            return f"{_decimal(self.size)}×"
        return self.kind

    def amount(self, legal: Mapping[str, Any], pot: int, my_bet: int, big_blind: int) -> int | None:
        """The street total this preset stands for now, a whole number of chips clamped to the legal
        ``min_raise_to``…``max_raise_to``; ``None`` when no bet or raise is allowed.

        A pot fraction is: call first, then raise by the fraction of the pot after the call. Times the bet is
        a raise to that many times the bet to call (none yet: the minimum).

        >>> legal = {"call_amount": 10, "min_raise_to": 20, "max_raise_to": 500}
        >>> [parse_preset(text).amount(legal, 25, 0, 2) for text in ("pot", "1/2", "3x", "2.5bb", "min", "max")]
        [45, 27, 30, 20, 20, 500]
        """
        low, high = legal.get("min_raise_to"), legal.get("max_raise_to")
        if low is None or high is None:
            return None
        call = int(legal.get("call_amount") or 0)
        if self.kind == MINIMUM:
            target = int(low)
        elif self.kind == MAXIMUM:
            target = int(high)
        elif self.kind == BIG_BLINDS:
            target = int(self.size * big_blind)
        elif self.kind == TIMES_BET:
            target = int(self.size * (my_bet + call)) if call else int(low)
        else:
            target = my_bet + call + int(self.size * (pot + call))
        return max(int(low), min(int(high), target))


def _decimal(number: Fraction) -> str:
    """``Fraction(5, 2)`` → ``2.5``; at most two decimals (the parser takes no more)."""
    text = f"{float(number):.2f}".rstrip("0").rstrip(".")
    return text


def _number(text: str) -> Fraction:
    if "/" in text:
        top, _, bottom = text.partition("/")
        if int(bottom) == 0:
            raise ValueError("a fraction cannot have 0 below the line")
        return Fraction(int(top), int(bottom))
    return Fraction(text)


def parse_preset(text: str) -> Preset:
    """A preset as the player types it; ``ValueError`` says what is wrong, in words.

    >>> parse_preset("2/3")
    Preset(kind='pot', size=Fraction(2, 3))
    >>> parse_preset("7 pots")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: '7 pots' is not a size: type a pot fraction (1/2, 3/4 pot, 60%, pot, 1.5 pot), big blinds ...
    """
    words = " ".join(str(text).lower().replace("×", "x ").split()).replace("x bb", "bb").strip()
    if words in ("min", "minimum", "min raise", "minimum raise"):
        return Preset(MINIMUM)
    if words in ("max", "maximum", "all-in", "all in", "allin"):
        return Preset(MAXIMUM)
    if words in ("pot", "full pot"):
        return Preset(POT, Fraction(1))
    shown = str(text).strip()[:20]
    for pattern, kind in ((_BIG_BLINDS, BIG_BLINDS), (_TIMES, TIMES_BET), (_POT, POT)):
        match = pattern.fullmatch(words)
        if match is None:
            continue
        size = _number(match.group(1))
        if kind == POT and match.group(2):
            size /= 100
        limit = MAX_POTS if kind == POT else MAX_MULTIPLE
        if not 0 < size <= limit:
            what = "pots" if kind == POT else "big blinds" if kind == BIG_BLINDS else "times the bet"
            raise ValueError(f"{shown!r}: a size is more than 0 and at most {_decimal(limit)} {what}")
        return Preset(kind, size)
    raise ValueError(f"{shown!r} is not a size: type {HELP}")


def preset_text(preset: Preset) -> str:
    """The preset as the window shows it and the file keeps it; :func:`parse_preset` reads it back."""
    if preset.kind in (MINIMUM, MAXIMUM):
        return preset.kind
    if preset.kind == BIG_BLINDS:
        return f"{_decimal(preset.size)}bb"
    if preset.kind == TIMES_BET:
        return f"{_decimal(preset.size)}x"
    if preset.size == 1:
        return "pot"
    if preset.size.denominator in (2, 3, 4) and preset.size < 1:
        return f"{preset.size.numerator}/{preset.size.denominator} pot"
    return f"{_decimal(preset.size * 100)}% pot" if preset.size < 1 else f"{_decimal(preset.size)} pot"


DEFAULTS: Final = tuple(parse_preset(text) for text in DEFAULT_TEXTS)


def parse_all(texts: Sequence[str]) -> tuple[tuple[Preset, ...], dict[int, str]]:
    """Each typed preset read: the presets (the defaults where one is wrong) and, by key number, what is wrong."""
    presets: list[Preset] = []
    errors: dict[int, str] = {}
    for number, text in enumerate(list(texts)[:COUNT], start=1):
        try:
            presets.append(parse_preset(text))
        except ValueError as problem:
            errors[number] = str(problem)
            presets.append(DEFAULTS[number - 1])
    presets.extend(DEFAULTS[len(presets):])
    return tuple(presets), errors


class BetPresets:
    """The player's nine presets; ``path`` None keeps them for this session only (a served screen)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.presets: tuple[Preset, ...] = DEFAULTS
        if path is not None:
            self._read(path)

    def texts(self) -> list[str]:
        return [preset_text(preset) for preset in self.presets]

    def set_all(self, texts: Sequence[str]) -> str:
        """Replace all nine from what the player typed; ``ValueError`` naming each wrong key, and then nothing
        changes. The answer is "" once kept, or why the file could not be written (they stay for this session)."""
        presets, errors = parse_all(texts)
        if errors:
            raise ValueError("; ".join(f"key {number}: {problem}" for number, problem in errors.items()))
        self.presets = presets
        if self.path is None:
            return ""
        try:
            write_private_json(self.path, {"presets": self.texts()})
        except OSError as problem:
            log.warning("bet presets: could not write %s (%s)", self.path, problem)
            return f"could not save them on this computer ({problem.strerror or problem}): kept for this session"
        return ""

    def _read(self, path: Path) -> None:
        data = read_private_json(path, "bet presets")
        if data is None:
            return
        texts = data.get("presets") if isinstance(data, dict) else None
        if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
            log.warning("bet presets: %s has no list of presets: the defaults are used", path)
            return
        presets, errors = parse_all([text[:40] for text in texts])
        for number, problem in errors.items():
            log.warning("bet presets: %s, key %d: %s (the default is used)", path, number, problem)
        self.presets = presets
