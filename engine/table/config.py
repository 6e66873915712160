"""A table's settings (:class:`TableConfig`) and the forced-bet level it deals at (:class:`Stakes`).

The level is a value, not a setting frozen for ever: :meth:`engine.table.Table.set_level` changes it between
hands (a tournament's level up, a host raising the blinds); the config only gives the first one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.clock import ClockSettings
from engine.hand import ForcedBets, HandConfig
from engine.structures import StructureKind
from engine.variants import ForcedBetKind, Variant

MAX_SEATS = 10
_LIMIT_STRUCTURES = (StructureKind.FIXED_LIMIT, StructureKind.SPREAD_LIMIT)
_CAPPED_BUY_IN_STRUCTURES = (StructureKind.NO_LIMIT, StructureKind.POT_LIMIT, StructureKind.HALF_POT_LIMIT)


@dataclass(frozen=True, slots=True)
class Stakes:
    """The forced bets of a level, in chips. Blind games: ``small_blind``/``big_blind``, an ``ante`` from
    every player or a ``big_blind_ante`` (one ante for the table, posted by the big blind — not both). Stud
    games (ante + bring-in, R-ANTE-1): ``ante`` and ``bring_in`` (> 0); their ``big_blind`` is the minimum
    bet of a no-limit or pot-limit table, ``small_blind`` is ignored. Raises ``ValueError`` naming a bad amount.

    >>> Stakes(100, 200, big_blind_ante=200)
    Stakes(small_blind=100, big_blind=200, ante=0, big_blind_ante=200, bring_in=0)
    >>> Stakes(100, 200, ante=25, big_blind_ante=200)
    Traceback (most recent call last):
    ...
    ValueError: a level has an ante or a big-blind ante, not both
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    bring_in: int = 0

    def __post_init__(self) -> None:
        amounts = (self.small_blind, self.big_blind, self.ante, self.big_blind_ante, self.bring_in)
        if any(not isinstance(amount, int) or isinstance(amount, bool) for amount in amounts):
            raise ValueError(f"forced bets are whole chips, got {amounts}")
        if self.ante < 0:
            raise ValueError(f"the ante must be >= 0, got {self.ante}")
        if self.big_blind_ante < 0:
            raise ValueError(f"the big-blind ante must be >= 0, got {self.big_blind_ante}")
        if self.ante and self.big_blind_ante:
            raise ValueError("a level has an ante or a big-blind ante, not both")
        if self.bring_in < 0:
            raise ValueError(f"the bring-in must be >= 0, got {self.bring_in}")
        if not 0 <= self.small_blind <= self.big_blind or self.big_blind <= 0:
            raise ValueError(f"blinds must satisfy 0 <= small <= big, big > 0; got {self.small_blind}/{self.big_blind}")

    def check_for(self, variant: Variant) -> None:
        """Raise ``ValueError`` unless these forced bets fit ``variant`` (blinds, or ante and bring-in)."""
        if variant.forced_bets is ForcedBetKind.ANTE_BRING_IN:
            if self.bring_in <= 0:
                raise ValueError(f"{variant.name} needs a bring-in > 0 chips and an ante >= 0 (R-STUD-1)")
            if self.big_blind_ante:
                raise ValueError(f"{variant.name} has no big blind to post a big-blind ante")
        elif self.bring_in:
            raise ValueError(f"{variant.name} uses blinds, not a bring-in")

    def forced_bets(self, *, ante_game: bool, button_seat: int, small_blind_seat: int | None,
                    big_blind_seat: int | None, straddle_seat: int | None = None,
                    dead_small_blinds: tuple[int, ...] = (),
                    big_blinds_out_of_position: tuple[int, ...] = ()) -> ForcedBets:
        """The :class:`~engine.hand.ForcedBets` of a hand at this level. A big-blind ante is dead money, and the
        ante is taken first: a big blind too short for both posts the ante, then what is left as his blind
        (:mod:`engine.forced_bets` posts every ante before the blinds)."""
        if ante_game:
            return ForcedBets(button_seat=button_seat, small_blind_seat=None, small_blind=0, big_blind_seat=None,
                              big_blind=self.big_blind, ante=self.ante, bring_in=self.bring_in)
        return ForcedBets(
            button_seat=button_seat, small_blind_seat=small_blind_seat, small_blind=self.small_blind,
            big_blind_seat=big_blind_seat, big_blind=self.big_blind, straddle_seat=straddle_seat,
            straddle=2 * self.big_blind if straddle_seat is not None else 0, ante=self.ante,
            dead_small_blinds=dead_small_blinds, big_blinds_out_of_position=big_blinds_out_of_position,
            big_blind_ante=self.big_blind_ante, dead_antes=self.big_blind_ante > 0,
        )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings.

    ``seat_count``: 2..10 and at most the game's ``max_players`` (R-GAME-DECK). ``small_blind`` /
    ``big_blind`` / ``ante`` / ``bring_in``: the first level (:attr:`stakes`; :meth:`Table.set_level` changes it
    between hands). Stud-family games (ante + bring-in, R-ANTE-1, R-STUD-1) post no blinds: every player ready
    antes ``ante`` and the bring-in is ``bring_in`` (> 0; about 2 × the ante); their ``big_blind`` is the
    minimum bet of a no-limit or pot-limit table (fixed limit uses the structure's sizes) and ``small_blind``
    is ignored; the button still moves (it only breaks ties).

    Buy-ins are the cash policy's (:class:`engine.table.cash.CashPolicy`): ``min_buy_in`` > 0 at a table where
    players buy in, with ``max_buy_in`` required for pot, half-pot and no limit, optional otherwise
    (R-BUYIN-1); ``min_buy_in`` 0 (and no maximum) is a table whose owner brings every stack (tournaments,
    pools). ``straddle_allowed``: R-BLIND-2. ``artificial_all_in``: R-DISC-2, limit tables only, at most
    ``quota`` per player per 24 h (the quota object may be shared by the room; see :class:`Table`). Raises
    ``ValueError`` naming a bad setting.
    """

    hand: HandConfig
    seat_count: int
    small_blind: int
    big_blind: int
    min_buy_in: int = 0
    max_buy_in: int | None = None
    ante: int = 0
    bring_in: int = 0
    straddle_allowed: bool = False
    artificial_all_in: bool = False
    clock: ClockSettings = field(default_factory=ClockSettings)
    big_blind_ante: int = 0

    @property
    def ante_games(self) -> bool:
        """Whether the game opens with antes and a bring-in instead of blinds."""
        return self.hand.variant.forced_bets is ForcedBetKind.ANTE_BRING_IN

    @property
    def stakes(self) -> Stakes:
        """The first level: the forced bets the table deals at until :meth:`Table.set_level`."""
        return Stakes(self.small_blind, self.big_blind, self.ante, self.big_blind_ante, self.bring_in)

    @property
    def buys_in(self) -> bool:
        """Whether players buy in here (a minimum buy-in is set), rather than bring a stack from the owner."""
        return self.min_buy_in != 0

    def __post_init__(self) -> None:
        variant = self.hand.variant
        if self.ante < 0:
            raise ValueError(f"the ante must be >= 0, got {self.ante}")
        if self.ante_games and (self.bring_in <= 0 or self.ante < 0):
            raise ValueError(f"{variant.name} needs a bring-in > 0 chips and an ante >= 0 (R-STUD-1)")
        if self.ante_games and self.straddle_allowed:
            raise ValueError(f"{variant.name} has no blinds to straddle")
        if not self.ante_games and self.bring_in:
            raise ValueError(f"{variant.name} uses blinds, not a bring-in")
        limit = min(MAX_SEATS, variant.max_players)
        if not 2 <= self.seat_count <= limit:
            raise ValueError(f"{variant.name} tables have 2 to {limit} seats, not {self.seat_count} (R-GAME-DECK)")
        if not 0 <= self.small_blind <= self.big_blind or self.big_blind <= 0:
            raise ValueError(f"blinds must satisfy 0 <= small <= big, big > 0; got {self.small_blind}/{self.big_blind}")
        self.stakes.check_for(variant)
        self._check_buy_ins()
        if self.artificial_all_in and self.hand.structure.kind not in _LIMIT_STRUCTURES:
            raise ValueError("artificial all-in is only for limit tables (R-DISC-2)")

    def _check_buy_ins(self) -> None:
        kind = self.hand.structure.kind
        if self.min_buy_in < 0:
            raise ValueError(f"the minimum buy-in must be > 0 chips, got {self.min_buy_in}")
        if not self.buys_in:
            if self.max_buy_in is not None:
                raise ValueError("a maximum buy-in needs a minimum buy-in > 0 chips")
            return
        if self.max_buy_in is None and kind in _CAPPED_BUY_IN_STRUCTURES:
            raise ValueError(f"a {kind.value.replace('_', ' ')} table needs a maximum buy-in (R-BUYIN-1)")
        if self.max_buy_in is not None and self.max_buy_in < self.min_buy_in:
            raise ValueError(f"maximum buy-in {self.max_buy_in} is below the minimum {self.min_buy_in}")
