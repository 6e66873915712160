"""Blind levels and breaks (R-TOUR-3): what the forced bets are at any moment of a tournament.

A schedule is a tuple of :class:`Level` and :class:`Break` items played in order; the last level lasts for
ever. The clock is the caller's (seconds since the start, pauses already removed): :func:`stage_at` says
which item runs at a given elapsed time. A table changes level **between hands**: a hand started keeps
the level it was dealt at (TDA Rule 2022 #20: "the new level applies to the next hand"); the director
reads the level when a hand starts.

Stud and 32-card levels carry an ``ante`` and a ``bring_in`` (no blinds); fixed-limit levels bet the big
blind on the early streets and twice it later (:meth:`Level.structure`); pot and no limit use the big
blind as the minimum bet.

>>> schedule = with_breaks(
...     [Level(10, 20, duration=600), Level(15, 30, duration=600), Level(25, 50, big_blind_ante=50, duration=600)],
...     every=2, seconds=300)
>>> [type(item).__name__ for item in schedule]
['Level', 'Level', 'Break', 'Level']
>>> stage = stage_at(schedule, 1_250.0)
>>> stage.index, stage.is_break, stage.ends_at
(2, True, 1500.0)
>>> stage_at(schedule, 99_999.0).level_number
3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.hand import ForcedBets
from engine.structures import BettingStructure, StructureKind
from engine.table.config import Stakes


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level, chips and seconds.

    ``small_blind``/``big_blind``: blinds (0/0 in stud games, where ``bring_in`` > 0 and the minimum bet of a
    no- or pot-limit stud table is ``big_blind`` if set, else twice the bring-in). ``ante``: every player's
    ante. ``big_blind_ante``: one ante for the whole table, posted by the big blind (TDA 2022: "big blind
    ante"; the ante is taken first — a big blind too short for both posts the ante, then the rest as his
    blind, as :mod:`engine.forced_bets` does); an ante and a big-blind ante are not combined. ``duration``:
    seconds of play.
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    bring_in: int = 0
    duration: float = 600.0

    def __post_init__(self) -> None:
        values = (self.small_blind, self.big_blind, self.ante, self.big_blind_ante, self.bring_in)
        if any(not isinstance(value, int) or value < 0 for value in values):
            raise ValueError(f"level amounts are whole chips >= 0, got {values}")
        if self.duration <= 0:
            raise ValueError(f"a level lasts more than 0 seconds, got {self.duration}")
        if self.ante and self.big_blind_ante:
            raise ValueError("a level has an ante or a big-blind ante, not both")
        if self.bring_in:
            if self.small_blind or self.big_blind_ante:
                raise ValueError("a stud level has an ante and a bring-in, no blinds")
            return
        if not self.big_blind > 0 or self.small_blind > self.big_blind:
            raise ValueError(f"blinds must satisfy 0 <= small <= big, big > 0; got {self.small_blind}/{self.big_blind}")

    @property
    def is_stud(self) -> bool:
        """Whether the level is for an ante-and-bring-in game."""
        return self.bring_in > 0

    @property
    def minimum_bet(self) -> int:
        """The smallest bet of the level: the big blind, or for stud the big blind if set, else 2 × bring-in."""
        return self.big_blind if self.big_blind else 2 * self.bring_in

    def stakes(self) -> Stakes:
        """The level as a neutral table's forced bets (:meth:`engine.table.Table.set_level`).

        >>> Level(0, 0, ante=5, bring_in=10).stakes()
        Stakes(small_blind=0, big_blind=20, ante=5, big_blind_ante=0, bring_in=10)
        """
        return Stakes(self.small_blind, self.minimum_bet, self.ante, self.big_blind_ante, self.bring_in)

    def structure(self, kind: StructureKind) -> BettingStructure:
        """The betting structure of a hand dealt at this level. Fixed limit: small bet = the minimum bet,
        big bet = twice it (R-BET-FL); other kinds need no sizes.

        >>> Level(0, 0, ante=5, bring_in=10).structure(StructureKind.FIXED_LIMIT).big_bet
        40
        """
        if kind is StructureKind.FIXED_LIMIT:
            return BettingStructure.fixed_limit(self.minimum_bet)
        if kind is StructureKind.SPREAD_LIMIT:
            raise ValueError("tournaments are played fixed, pot or no limit")
        return BettingStructure(kind)

    def forced_bets(
        self, *, button_seat: int, small_blind_seat: int | None, big_blind_seat: int | None,
    ) -> ForcedBets:
        """The :class:`~engine.hand.ForcedBets` of a hand at this level. The big-blind ante is dead money
        (PokerKit's ``ante_trimming_status`` False, as TDA: "if the big blind is short, the blind is taken
        first and the rest is the ante")."""
        if self.is_stud:
            return ForcedBets(
                button_seat=button_seat, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                big_blind=self.minimum_bet, ante=self.ante, bring_in=self.bring_in,
            )
        return ForcedBets(
            button_seat=button_seat, small_blind_seat=small_blind_seat, small_blind=self.small_blind,
            big_blind_seat=big_blind_seat, big_blind=self.big_blind, ante=self.ante,
            big_blind_ante=self.big_blind_ante, dead_antes=self.big_blind_ante > 0,
        )


@dataclass(frozen=True, slots=True)
class Break:
    """A pause of ``duration`` seconds: no hand starts (hands already running finish)."""

    duration: float = 300.0

    def __post_init__(self) -> None:
        if self.duration <= 0:
            raise ValueError(f"a break lasts more than 0 seconds, got {self.duration}")


Stage = Level | Break


@dataclass(frozen=True, slots=True)
class StageAt:
    """Where the schedule stands: item ``index``; ``level_number`` (1-based, of the level running or, in a
    break, of the level before it); ``ends_at`` in elapsed seconds (``None`` for the last level)."""

    index: int
    level_number: int
    level: Level
    is_break: bool
    ends_at: float | None


def with_breaks(levels: Sequence[Level], *, every: int, seconds: float) -> tuple[Stage, ...]:
    """The levels with a :class:`Break` of ``seconds`` after every ``every`` levels (none after the last)."""
    if every <= 0:
        raise ValueError(f"breaks come every 1 or more levels, got {every}")
    schedule: list[Stage] = []
    for number, level in enumerate(levels, start=1):
        schedule.append(level)
        if number % every == 0 and number < len(levels):
            schedule.append(Break(seconds))
    return tuple(schedule)


def check_schedule(schedule: Sequence[Stage]) -> None:
    """``ValueError`` unless the schedule starts with a level, ends with a level and has one game kind."""
    if not schedule or not isinstance(schedule[0], Level) or not isinstance(schedule[-1], Level):
        raise ValueError("a level schedule starts and ends with a level")
    kinds = {item.is_stud for item in schedule if isinstance(item, Level)}
    if len(kinds) > 1:
        raise ValueError("a schedule has blind levels or stud levels, not both")


def stage_at(schedule: Sequence[Stage], elapsed: float) -> StageAt:
    """The item of ``schedule`` running ``elapsed`` seconds after the start (the last level never ends)."""
    start = 0.0
    level_number = 0
    last_level: Level | None = None
    for index, item in enumerate(schedule):
        if isinstance(item, Level):
            level_number += 1
            last_level = item
        end = start + item.duration
        is_last = index == len(schedule) - 1
        if elapsed < end or is_last:
            assert last_level is not None, "a schedule starts with a level"
            return StageAt(index, level_number, last_level, isinstance(item, Break), None if is_last else end)
        start = end
    raise ValueError("an empty level schedule")


def levels_of(schedule: Sequence[Stage]) -> list[Level]:
    """The levels only, in order (level number n is ``levels_of(schedule)[n - 1]``)."""
    return [item for item in schedule if isinstance(item, Level)]


def time_until_level(schedule: Sequence[Stage], level_number: int) -> float:
    """Elapsed seconds at which level ``level_number`` (1-based) starts: the end of a rebuy period given in
    levels, for example.

    >>> time_until_level((Level(1, 2, duration=60), Break(30), Level(2, 4, duration=60)), 2)
    90.0
    """
    start = 0.0
    number = 0
    for item in schedule:
        if isinstance(item, Level):
            number += 1
            if number == level_number:
                return start
        start += item.duration
    raise ValueError(f"the schedule has no level {level_number}")


# Common big-blind steps (about 1.3-1.5x apart), in units of the first big blind / 20.
_BIG_BLIND_STEPS = (20, 30, 50, 80, 120, 160, 200, 300, 400, 600, 800, 1_000, 1_500, 2_000, 3_000, 4_000, 6_000,
                    8_000, 10_000, 15_000, 20_000, 30_000, 40_000, 60_000, 80_000, 100_000, 150_000, 200_000)


def turbo_schedule(starting_big_blind: int = 20, *, minutes: float = 3.0, count: int = 20) -> tuple[Stage, ...]:
    """A no-limit schedule of ``count`` levels of ``minutes``, blinds from the common steps 20, 30, 50, 80…
    scaled to ``starting_big_blind`` (a multiple of 20), a big-blind ante from level 4.

    >>> [(level.small_blind, level.big_blind, level.big_blind_ante) for level in turbo_schedule()[2:5]]
    [(25, 50, 0), (40, 80, 80), (60, 120, 120)]
    """
    if starting_big_blind % 20 or not 0 < count <= len(_BIG_BLIND_STEPS):
        raise ValueError(f"a multiple of 20 to start and 1..{len(_BIG_BLIND_STEPS)} levels")
    scale = starting_big_blind // 20
    return tuple(
        Level(step * scale // 2, step * scale, big_blind_ante=step * scale if number >= 4 else 0,
              duration=minutes * 60)
        for number, step in enumerate(_BIG_BLIND_STEPS[:count], start=1)
    )
