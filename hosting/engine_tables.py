"""The engine's table for a table of the room file: rake preset applied, clocks in seconds. Used by the room and
by stored hands read back (:mod:`hosting.hand_records`)."""

from __future__ import annotations

from collections.abc import Callable

from engine import rake
from engine.clock import ClockSettings
from engine.hand import HandConfig
from engine.rake import RakeSchedule
from engine.structures import BettingStructure
from engine.table import Table
from engine.table import TableConfig as EngineTableConfig
from engine.variants import variant_by_id
from hosting.config import TableConfig
from hosting.errors import RoomError


def build_engine_table(config: TableConfig) -> Table:
    """The pure ``engine.table.Table`` for a configured table (rake preset applied, clocks in seconds).

    Raises :class:`RoomError` (code ``bad_config``) when the engine refuses the settings.
    """
    structures: dict[str, Callable[[], BettingStructure]] = {
        "no_limit": BettingStructure.no_limit, "pot_limit": BettingStructure.pot_limit,
        "half_pot_limit": BettingStructure.half_pot_limit,
        "fixed_limit": lambda: BettingStructure.fixed_limit(config.big_blind),
        # spread limit a-b-c: the room file's ``spread``, else 2/4/4 big blinds
        "spread_limit": lambda: BettingStructure.spread_limit(
            *(config.spread or (2 * config.big_blind, 4 * config.big_blind, 4 * config.big_blind))),
    }
    try:
        schedule: RakeSchedule | None = None
        if config.rake in rake.TABLES:
            schedule = rake.select_schedule(rake.TABLES[config.rake], config.structure, config.small_blind,
                                            config.big_blind)
        elif config.rake in rake.PRESETS:
            schedule = rake.PRESETS[config.rake]
        hand = HandConfig(variant_by_id(config.game), structures[config.structure](), rake=schedule,
                          manual_showdown=config.manual_showdown, home=config.home)
        clock = ClockSettings(action_seconds=config.clock.get("action_seconds", 20.0),
                              time_bank_seconds=config.clock.get("time_bank_seconds", 60.0),
                              disconnection_bank_seconds=config.clock.get("disconnection_bank_seconds", 60.0),
                              seat_hold_seconds=config.clock.get("seat_hold_seconds", 300.0),
                              draw_seconds=config.clock.get("draw_seconds"))
        return Table(EngineTableConfig(hand, config.seats, config.small_blind, config.big_blind, config.min_buy_in,
                                       config.max_buy_in, ante=config.ante, bring_in=config.bring_in,
                                       straddle_allowed=config.straddle, clock=clock))
    except (ValueError, KeyError) as problem:
        raise RoomError("bad_config", f"table {config.id}: {problem}") from None
