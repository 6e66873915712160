"""Rake: what the room takes from a hand's pots (R-RAKE-1), and the rulebooks' rake tables as presets.

A :class:`RakeSchedule` turns the pots of one finished hand into the rake taken from each of them:

- a **rate** — a :class:`Percentage` (2.5 % …), a :class:`PerIncrement` step ("1 chip per 20 in the pot")
  or a :class:`Ladder` ("the pot reaches 100 → 10 chips, 250 → 25 …");
- optionally a different rate for small pots ("pots under 4 € pay 1 cent per 20 cents");
- a **minimum**: the rulebooks define it as a threshold, not a floor — seed 000: "5 % del bote, pero no puede
  ser menos de $1. Por lo tanto, no se tomará rake … si el bote es inferior a $20": a hand whose computed rake
  is below the minimum pays none;
- a **cap** that depends on the number of players dealt in (``caps``);
- **no flop, no drop**: no rake when a flop game ends before the flop (R-RAKE-1; seed 001 "Si no hay flop no
  hay comisión").

Rounding: the rulebooks' step tables take whole increments only ("$0.01 por cada $0.20": a pot of 0.39 pays
0.01), i.e. they round down; none says how to round a percentage, and croupier rounds it down as well, in the
players' favour. Chips are integers; rake never exceeds a pot.

The rake is computed on the hand's **total** (all pots together) and then shared among the pots in proportion
to their size; so splitting a hand's chips into side pots never changes what the room takes, and the cap is the
cap of the hand.

Presets are in cents (one chip = 0.01 of the rulebook's currency); :meth:`RakeSchedule.scaled` converts them to
another chip unit. Tournaments and play-money tables take no rake (R-RAKE-1): :data:`NO_RAKE`, or
:func:`select_schedule` with ``tournament=True`` / ``play_money=True``.

>>> CARADEPOKER_BIG_BET_GAMES.rake_for_pots([1_000, 340], players_dealt_in=6, saw_flop=True)
[49, 16]
>>> CARADEPOKER_BIG_BET_GAMES.rake_for_pots([1_000, 340], players_dealt_in=6, saw_flop=False)
[0, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

#: Betting-structure names used to pick a row of a :class:`RakeTable` (R-BET-*).
STRUCTURES: Final = frozenset({"fixed_limit", "spread_limit", "pot_limit", "half_pot_limit", "no_limit"})


class RakeError(ValueError):
    """A rake schedule or a rake request is malformed (negative pot, no players, bad table …)."""


@dataclass(frozen=True)
class Percentage:
    """A rate of ``numerator / denominator`` of the pot, rounded down.

    >>> Percentage(25, 1000).rake(1_000)   # 2.5 % of 10.00 = 0.25
    25
    >>> Percentage(25, 1000).rake(39)      # 0.975 chips round down
    0
    """

    numerator: int
    denominator: int

    def __post_init__(self) -> None:
        if self.numerator < 0 or self.denominator <= 0:
            raise RakeError(f"a percentage needs numerator >= 0 and denominator > 0, got {self}")

    def rake(self, pot: int) -> int:
        """Rake in chips on a pot of ``pot`` chips."""
        return pot * self.numerator // self.denominator

    def scaled(self, factor: int) -> Percentage:
        """The same rate for chips ``factor`` times smaller (a percentage does not change)."""
        return self


@dataclass(frozen=True)
class PerIncrement:
    """``chips`` for every full ``increment`` in the pot ("$0.01 por cada $0.20 en el bote").

    >>> PerIncrement(chips=1, increment=20).rake(39)
    1
    >>> PerIncrement(chips=5, increment=100).rake(399)
    15
    """

    chips: int
    increment: int

    def __post_init__(self) -> None:
        if self.chips < 0 or self.increment <= 0:
            raise RakeError(f"a per-increment rate needs chips >= 0 and increment > 0, got {self}")

    def rake(self, pot: int) -> int:
        """Rake in chips on a pot of ``pot`` chips."""
        return pot // self.increment * self.chips

    def scaled(self, factor: int) -> PerIncrement:
        """The same rate in chips ``factor`` times smaller."""
        return PerIncrement(self.chips * factor, self.increment * factor)


@dataclass(frozen=True)
class Ladder:
    """Steps by pot size: ``steps`` is ``((pot reaches, rake), …)`` ascending; below the first step, no rake.

    >>> TITAN_LIMIT_LADDER_TO_1.rate.rake(799), TITAN_LIMIT_LADDER_TO_1.rate.rake(800)
    (50, 65)
    """

    steps: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        thresholds = [threshold for threshold, _ in self.steps]
        rakes = [rake for _, rake in self.steps]
        if not self.steps or thresholds != sorted(set(thresholds)) or rakes != sorted(rakes) or rakes[0] < 0:
            raise RakeError(f"ladder steps must be non-empty, strictly ascending and non-negative: {self.steps}")

    def rake(self, pot: int) -> int:
        """Rake in chips on a pot of ``pot`` chips: the step of the largest threshold reached."""
        taken = 0
        for threshold, rake in self.steps:
            if pot < threshold:
                break
            taken = rake
        return taken

    def scaled(self, factor: int) -> Ladder:
        """The same ladder in chips ``factor`` times smaller."""
        return Ladder(tuple((threshold * factor, rake * factor) for threshold, rake in self.steps))


RakeRate = Percentage | PerIncrement | Ladder


@dataclass(frozen=True)
class RakeSchedule:
    """How much rake a hand pays (R-RAKE-1). All amounts are integer chips.

    - ``rate``: the rate applied to the hand's total pot.
    - ``small_pot_rate`` / ``small_pot_limit``: the rate used instead when the total is below the limit.
    - ``minimum``: a computed rake below it is not taken (a threshold, see the module docstring).
    - ``caps``: ``((players dealt in from, cap), …)`` ascending; the entry with the largest "from" not above the
      number of players dealt in applies (the first entry below its own "from"). Empty: no cap.
    - ``no_flop_no_drop``: no rake when the hand ended before the flop (for flop games).
    - ``name`` and ``source``: what this preset is and which rulebook it comes from.

    >>> schedule = RakeSchedule(PerIncrement(5, 100), caps=((2, 100), (3, 200), (5, 300)))
    >>> schedule.rake_for_pots([5_000], players_dealt_in=2, saw_flop=True)
    [100]
    >>> schedule.rake_for_pots([5_000], players_dealt_in=6, saw_flop=True)
    [250]
    """

    rate: RakeRate
    caps: tuple[tuple[int, int], ...] = ()
    minimum: int = 0
    small_pot_rate: RakeRate | None = None
    small_pot_limit: int = 0
    no_flop_no_drop: bool = True
    name: str = ""
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        players = [players for players, _ in self.caps]
        if players != sorted(set(players)) or any(cap < 0 for _, cap in self.caps):
            raise RakeError(f"caps must be ascending by players with non-negative caps: {self.caps}")
        if self.minimum < 0 or self.small_pot_limit < 0:
            raise RakeError("minimum and small_pot_limit must be >= 0")
        if (self.small_pot_rate is None) != (self.small_pot_limit == 0):
            raise RakeError("small_pot_rate and small_pot_limit go together")

    def cap_for(self, players_dealt_in: int) -> int | None:
        """The cap of a hand with ``players_dealt_in`` players, or ``None`` when uncapped.

        >>> WHITE_LABEL_POT_LIMIT.cap_for(3), WHITE_LABEL_POT_LIMIT.cap_for(4), WHITE_LABEL_POT_LIMIT.cap_for(9)
        (100, 200, 300)
        """
        if not self.caps:
            return None
        cap = self.caps[0][1]
        for players, players_cap in self.caps:
            if players_dealt_in >= players:
                cap = players_cap
        return cap

    def rake_for_total(self, total: int, players_dealt_in: int, saw_flop: bool) -> int:
        """Rake in chips of a hand whose pots hold ``total`` chips (uncalled bets already returned).

        Raises :class:`RakeError` on a negative total or fewer than one player dealt in.

        >>> CARADEPOKER_BIG_BET_GAMES.rake_for_total(399, players_dealt_in=2, saw_flop=True)  # 1 per 20 under 4 €
        19
        >>> CARADEPOKER_BIG_BET_GAMES.rake_for_total(2_000, players_dealt_in=2, saw_flop=True)  # cap 0.75 € heads-up
        75
        """
        if total < 0:
            raise RakeError(f"a pot cannot be negative, got {total}")
        if players_dealt_in < 1:
            raise RakeError(f"a hand needs players dealt in, got {players_dealt_in}")
        if self.no_flop_no_drop and not saw_flop:
            return 0
        rate = self.small_pot_rate if self.small_pot_rate is not None and total < self.small_pot_limit else self.rate
        rake = rate.rake(total)
        if rake < self.minimum:
            return 0
        cap = self.cap_for(players_dealt_in)
        if cap is not None:
            rake = min(rake, cap)
        return min(rake, total)

    def rake_for_pots(self, pot_amounts: Sequence[int], players_dealt_in: int, saw_flop: bool) -> list[int]:
        """Rake taken from each pot of a finished hand, main pot first (R-RAKE-1).

        ``pot_amounts``: the chips in each pot, main pot first, uncalled bets already returned.
        ``players_dealt_in``: players dealt into the hand (it picks the cap). ``saw_flop``: whether a flop was
        dealt (ignored when ``no_flop_no_drop`` is off; pass ``True`` for games without a flop).

        The hand's rake (:meth:`rake_for_total` of the sum) is shared in proportion to the pots, rounded down;
        the chips left by rounding go one each to the pots with the largest remainders (the main pot first on
        ties). Each pot's rake is at most the pot. Raises :class:`RakeError` on a negative pot.

        >>> WHITE_LABEL_NO_LIMIT.rake_for_pots([3_000, 1_000, 10], players_dealt_in=5, saw_flop=True)
        [75, 25, 0]
        >>> WHITE_LABEL_NO_LIMIT.rake_for_pots([10_000, 4_000], players_dealt_in=3, saw_flop=True)
        [71, 29]
        """
        if any(amount < 0 for amount in pot_amounts):
            raise RakeError(f"a pot cannot be negative, got {list(pot_amounts)}")
        return share_rake(pot_amounts, self.rake_for_total(sum(pot_amounts), players_dealt_in, saw_flop))

    def scaled(self, factor: int) -> RakeSchedule:
        """This schedule for a chip ``factor`` times smaller than the preset's unit (cents → 1/1000: 10).

        >>> CARADEPOKER_BIG_BET_GAMES.scaled(10).rake_for_total(100_000, players_dealt_in=9, saw_flop=True)
        3000
        """
        if factor < 1:
            raise RakeError(f"scale factor must be a positive integer, got {factor}")
        return replace(
            self,
            rate=self.rate.scaled(factor),
            caps=tuple((players, cap * factor) for players, cap in self.caps),
            minimum=self.minimum * factor,
            small_pot_rate=None if self.small_pot_rate is None else self.small_pot_rate.scaled(factor),
            small_pot_limit=self.small_pot_limit * factor,
        )


#: No rake: tournaments (their fee is the entry fee) and play-money tables (R-RAKE-1).
NO_RAKE: Final = RakeSchedule(
    Percentage(0, 1), name="no rake", source="RULES.md R-RAKE-1: tournaments and play-money tables take no rake"
)


def share_rake(pot_amounts: Sequence[int], rake: int) -> list[int]:
    """A hand's ``rake`` (at most the pots' total) shared among its pots in proportion to their size, rounded
    down; the chips left by rounding go one each to the pots with the largest remainders (the main pot first
    on ties), never more than a pot holds.

    >>> share_rake([3_000, 1_000, 10], 100), share_rake([10, 0], 0)
    ([75, 25, 0], [0, 0])
    """
    total = sum(pot_amounts)
    if rake < 0 or rake > total:
        raise RakeError(f"a rake of {rake} cannot come out of pots of {list(pot_amounts)}")
    if rake == 0:
        return [0] * len(pot_amounts)
    shares = [amount * rake // total for amount in pot_amounts]
    left = rake - sum(shares)
    order = sorted(range(len(pot_amounts)), key=lambda index: (-(pot_amounts[index] * rake % total), index))
    for index in order:
        if left == 0:
            break
        if shares[index] < pot_amounts[index]:
            shares[index] += 1
            left -= 1
    assert left == 0 and sum(shares) == rake, "rake allocation must conserve chips"
    return shares


@dataclass(frozen=True)
class RecordedRake:
    """The rake a hand record says was taken (``total`` chips), for replaying that record: shared among the
    pots as :meth:`RakeSchedule.rake_for_pots` shares a computed rake, so the replay awards the same chips.

    >>> RecordedRake(100).rake_for_pots([10_000, 4_000], players_dealt_in=3, saw_flop=True)
    [71, 29]
    """

    total: int

    def rake_for_pots(self, pot_amounts: Sequence[int], players_dealt_in: int, saw_flop: bool) -> list[int]:
        return share_rake(pot_amounts, self.total)


@dataclass(frozen=True)
class StakesBand:
    """Stakes a table row applies to: ``low <= measure <= high`` (``high`` None: no upper bound), in chips."""

    measure: Literal["small_blind", "big_blind"]
    low: int = 0
    high: int | None = None

    def contains(self, small_blind: int, big_blind: int) -> bool:
        """Whether a table with these blinds (in chips) falls in the band."""
        value = small_blind if self.measure == "small_blind" else big_blind
        return self.low <= value and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class RakeRow:
    """One row of a room's rake table: the structures and stakes it covers, and its schedule."""

    structures: frozenset[str]
    band: StakesBand | None
    schedule: RakeSchedule


@dataclass(frozen=True)
class RakeTable:
    """A room's rake table: rows tried in order; the first row matching the structure and stakes applies.

    >>> WHITE_LABEL_TABLE.select("fixed_limit", small_blind=100, big_blind=200).minimum
    2
    >>> WHITE_LABEL_TABLE.select("no_limit", small_blind=100, big_blind=200).name
    'white-label no limit'
    """

    name: str
    source: str
    rows: tuple[RakeRow, ...]

    def select(self, structure: str, small_blind: int, big_blind: int) -> RakeSchedule:
        """The schedule for a table of this ``structure`` (one of :data:`STRUCTURES`) and blinds in chips.

        Raises :class:`RakeError` on an unknown structure or when no row covers the table.
        """
        if structure not in STRUCTURES:
            raise RakeError(f"unknown betting structure {structure!r}; expected one of {sorted(STRUCTURES)}")
        for row in self.rows:
            if structure in row.structures and (row.band is None or row.band.contains(small_blind, big_blind)):
                return row.schedule
        raise RakeError(f"the {self.name} rake table has no row for {structure} at {small_blind}/{big_blind}")


def select_schedule(
    table: RakeTable,
    structure: str,
    small_blind: int,
    big_blind: int,
    *,
    tournament: bool = False,
    play_money: bool = False,
) -> RakeSchedule:
    """The rake schedule of a table; :data:`NO_RAKE` for tournaments and play money (R-RAKE-1).

    >>> select_schedule(WHITE_LABEL_TABLE, "no_limit", 50, 100, play_money=True) is NO_RAKE
    True
    """
    if tournament or play_money:
        return NO_RAKE
    return table.select(structure, small_blind, big_blind)


# --- The rulebooks' tables (amounts in cents) -------------------------------------------------------------

_WHITE_LABEL_SOURCE: Final = "seeds/000 (white-label room rules), 'Valores de Rake', Texas Hold'em and Omaha tables"
_TWO_AND_A_HALF_PERCENT: Final = Percentage(25, 1000)
_WHITE_LABEL_PLAYER_CAPS: Final = ((2, 100), (4, 200), (6, 300))

#: White-label room, fixed limit ("Fijo"), small blind up to 0.50: 2.5 %, no minimum, cap 3.
WHITE_LABEL_FIXED_LIMIT_LOW: Final = RakeSchedule(
    _TWO_AND_A_HALF_PERCENT, caps=((2, 300),), name="white-label fixed limit, small blind 0-0.50",
    source=_WHITE_LABEL_SOURCE,
)
#: White-label room, fixed limit, small blind 0.51-10: 2.5 %, minimum 0.02, cap 3.
WHITE_LABEL_FIXED_LIMIT_MIDDLE: Final = RakeSchedule(
    _TWO_AND_A_HALF_PERCENT, caps=((2, 300),), minimum=2, name="white-label fixed limit, small blind 0.51-10",
    source=_WHITE_LABEL_SOURCE,
)
#: White-label room, fixed limit, small blind above 10: 2.5 %, no minimum, cap 3.
WHITE_LABEL_FIXED_LIMIT_HIGH: Final = RakeSchedule(
    _TWO_AND_A_HALF_PERCENT, caps=((2, 300),), name="white-label fixed limit, small blind above 10",
    source=_WHITE_LABEL_SOURCE,
)
#: White-label room, "Con Límite" (pot limit; the same rows in its Omaha table): 2.5 %, caps 1/2/3 for 2-3/4-5/6-10.
WHITE_LABEL_POT_LIMIT: Final = RakeSchedule(
    _TWO_AND_A_HALF_PERCENT, caps=_WHITE_LABEL_PLAYER_CAPS, name="white-label pot limit", source=_WHITE_LABEL_SOURCE
)
#: White-label room, no limit ("Sin Límite"): 2.5 %, caps 1/2/3 for 2-3/4-5/6-10 players.
WHITE_LABEL_NO_LIMIT: Final = RakeSchedule(
    _TWO_AND_A_HALF_PERCENT, caps=_WHITE_LABEL_PLAYER_CAPS, name="white-label no limit", source=_WHITE_LABEL_SOURCE
)
#: White-label room, any other table ("Rake por defecto"): 2.5 %, cap 3.
WHITE_LABEL_DEFAULT: Final = RakeSchedule(
    _TWO_AND_A_HALF_PERCENT, caps=((2, 300),), name="white-label default", source=_WHITE_LABEL_SOURCE
)

WHITE_LABEL_TABLE: Final = RakeTable(
    name="white-label",
    source=_WHITE_LABEL_SOURCE,
    rows=(
        RakeRow(frozenset({"fixed_limit"}), StakesBand("small_blind", 0, 50), WHITE_LABEL_FIXED_LIMIT_LOW),
        RakeRow(frozenset({"fixed_limit"}), StakesBand("small_blind", 51, 1_000), WHITE_LABEL_FIXED_LIMIT_MIDDLE),
        RakeRow(frozenset({"fixed_limit"}), StakesBand("small_blind", 1_001), WHITE_LABEL_FIXED_LIMIT_HIGH),
        RakeRow(frozenset({"pot_limit", "half_pot_limit"}), None, WHITE_LABEL_POT_LIMIT),
        RakeRow(frozenset({"no_limit"}), None, WHITE_LABEL_NO_LIMIT),
        RakeRow(STRUCTURES, None, WHITE_LABEL_DEFAULT),
    ),
)

_TITAN_SOURCE: Final = (
    "seeds/001 (Titan-style room rules), 'Estructura de cobro/comisiones'; the seed keeps the stakes band of the "
    "first limit table ($0.02/$0.04 to $0.25/$0.50) and of the first PL/NL table ($0.01/$0.02 to $0.02/$0.04) only"
)

#: Titan-style limit tables, $0.02/$0.04 to $0.25/$0.50: 0.01 per 0.20 in the pot, cap 1.00.
TITAN_LIMIT_MICRO: Final = RakeSchedule(
    PerIncrement(1, 20), caps=((2, 100),), name="Titan limit $0.02/$0.04-$0.25/$0.50", source=_TITAN_SOURCE
)
#: Titan-style limit table by pot size: 1 → 0.10, 2.5 → 0.25, 5 → 0.50, 8 → 0.65, 12 → 0.75, 15 → 0.85,
#: 20 → 1.00; cap 1.00.
TITAN_LIMIT_LADDER_TO_1: Final = RakeSchedule(
    Ladder(((100, 10), (250, 25), (500, 50), (800, 65), (1_200, 75), (1_500, 85), (2_000, 100))),
    caps=((2, 100),), name="Titan limit, pot-size steps to 1.00", source=_TITAN_SOURCE,
)
#: Titan-style limit table: 0.05 per 1.00, caps 1/2/3 for 2/3-4/5-10 players.
TITAN_LIMIT_5_PER_100: Final = RakeSchedule(
    PerIncrement(5, 100), caps=((2, 100), (3, 200), (5, 300)), name="Titan limit, 5 per 100", source=_TITAN_SOURCE
)
#: Titan-style limit table by pot size: 100 → 2.00, then +0.50 at 125, 150, 200, 250, 300, 350;
#: cap 2.00 for 2-3 players (no further steps), 5.00 for 4-10.
TITAN_LIMIT_LADDER_TO_5: Final = RakeSchedule(
    Ladder(((10_000, 200), (12_500, 250), (15_000, 300), (20_000, 350), (25_000, 400), (30_000, 450),
            (35_000, 500))),
    caps=((2, 200), (4, 500)), name="Titan limit, pot-size steps to 5.00", source=_TITAN_SOURCE,
)
#: Titan-style PL/NL, $0.01/$0.02 to $0.02/$0.04, by pot size: 0.10 → 0.01, 0.25 → 0.02, 0.40 → 0.03,
#: 0.55 → 0.04, 0.70 → 0.05, 0.85 → 0.06, 1.00 → 0.07, 1.15 → 0.08, 1.30 → 0.09, 1.50 → 0.10; cap 0.10.
TITAN_BIG_BET_MICRO: Final = RakeSchedule(
    Ladder(((10, 1), (25, 2), (40, 3), (55, 4), (70, 5), (85, 6), (100, 7), (115, 8), (130, 9), (150, 10))),
    caps=((2, 10),), name="Titan PL/NL $0.01/$0.02-$0.02/$0.04", source=_TITAN_SOURCE,
)
#: Titan-style PL/NL: 0.01 per 0.20, cap 1.00.
TITAN_BIG_BET_1_PER_20: Final = RakeSchedule(
    PerIncrement(1, 20), caps=((2, 100),), name="Titan PL/NL, 1 per 20", source=_TITAN_SOURCE
)
#: Titan-style PL/NL: 0.05 per 1.00, caps 1/2/3 for 2/3-4/5-10 players.
TITAN_BIG_BET_5_PER_100: Final = RakeSchedule(
    PerIncrement(5, 100), caps=((2, 100), (3, 200), (5, 300)), name="Titan PL/NL, 5 per 100, caps 1/2/3",
    source=_TITAN_SOURCE,
)
#: Titan-style PL/NL: 0.05 per 1.00, caps 2/5 for 2-3/4-10 players.
TITAN_BIG_BET_5_PER_100_HIGH: Final = RakeSchedule(
    PerIncrement(5, 100), caps=((2, 200), (4, 500)), name="Titan PL/NL, 5 per 100, caps 2/5", source=_TITAN_SOURCE
)

_CARADEPOKER_SOURCE: Final = "seeds/004 (Caradepoker rules), 'COMISIÓN (Rake)'"

#: Caradepoker no limit, pot limit and half-pot limit: 0.05 per 1.00, caps 0.75/2/3 for 2/3-4/5-10 players;
#: pots under 4.00 pay 0.01 per 0.20.
CARADEPOKER_BIG_BET_GAMES: Final = RakeSchedule(
    PerIncrement(5, 100), caps=((2, 75), (3, 200), (5, 300)), small_pot_rate=PerIncrement(1, 20),
    small_pot_limit=400, name="Caradepoker NL/PL/half-PL", source=_CARADEPOKER_SOURCE,
)
#: Caradepoker limit and spread limit, 0.02/0.04 to 0.50/1.00: 0.05 per 1.00, caps 0.75/1.00 for 2-3/4-10
#: players; pots under 2.00 pay 0.01 per 0.20.
CARADEPOKER_LIMIT_MICRO: Final = RakeSchedule(
    PerIncrement(5, 100), caps=((2, 75), (4, 100)), small_pot_rate=PerIncrement(1, 20), small_pot_limit=200,
    name="Caradepoker limit 0.02/0.04-0.50/1.00", source=_CARADEPOKER_SOURCE,
)
#: Caradepoker limit and spread limit 1/2: 0.25 per 5.00, caps 0.75/2.00 for 2-3/4-10 players.
CARADEPOKER_LIMIT_1_2: Final = RakeSchedule(
    PerIncrement(25, 500), caps=((2, 75), (4, 200)), name="Caradepoker limit 1/2", source=_CARADEPOKER_SOURCE
)
#: Caradepoker limit and spread limit 2/4 and above: 0.50 per 5.00, caps 0.75/2.00 for 2-3/4-10 players.
CARADEPOKER_LIMIT_2_4_UP: Final = RakeSchedule(
    PerIncrement(50, 500), caps=((2, 75), (4, 200)), name="Caradepoker limit 2/4 and above",
    source=_CARADEPOKER_SOURCE,
)

_LIMIT_STRUCTURES: Final = frozenset({"fixed_limit", "spread_limit"})

#: Caradepoker's table. Limit stakes are read as small bet/big bet, i.e. big blind/2 × big blind.
CARADEPOKER_TABLE: Final = RakeTable(
    name="Caradepoker",
    source=_CARADEPOKER_SOURCE,
    rows=(
        RakeRow(frozenset({"no_limit", "pot_limit", "half_pot_limit"}), None, CARADEPOKER_BIG_BET_GAMES),
        RakeRow(_LIMIT_STRUCTURES, StakesBand("big_blind", 0, 50), CARADEPOKER_LIMIT_MICRO),
        RakeRow(_LIMIT_STRUCTURES, StakesBand("big_blind", 51, 100), CARADEPOKER_LIMIT_1_2),
        RakeRow(_LIMIT_STRUCTURES, StakesBand("big_blind", 101), CARADEPOKER_LIMIT_2_4_UP),
    ),
)

#: Every named preset schedule, by name.
PRESETS: Final[dict[str, RakeSchedule]] = {
    schedule.name: schedule
    for schedule in (
        NO_RAKE,
        WHITE_LABEL_FIXED_LIMIT_LOW, WHITE_LABEL_FIXED_LIMIT_MIDDLE, WHITE_LABEL_FIXED_LIMIT_HIGH,
        WHITE_LABEL_POT_LIMIT, WHITE_LABEL_NO_LIMIT, WHITE_LABEL_DEFAULT,
        TITAN_LIMIT_MICRO, TITAN_LIMIT_LADDER_TO_1, TITAN_LIMIT_5_PER_100, TITAN_LIMIT_LADDER_TO_5,
        TITAN_BIG_BET_MICRO, TITAN_BIG_BET_1_PER_20, TITAN_BIG_BET_5_PER_100, TITAN_BIG_BET_5_PER_100_HIGH,
        CARADEPOKER_BIG_BET_GAMES, CARADEPOKER_LIMIT_MICRO, CARADEPOKER_LIMIT_1_2, CARADEPOKER_LIMIT_2_4_UP,
    )
}

#: The room tables that pick a schedule by structure and stakes.
TABLES: Final[dict[str, RakeTable]] = {table.name: table for table in (WHITE_LABEL_TABLE, CARADEPOKER_TABLE)}
