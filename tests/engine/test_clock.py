"""Action clock, time bank, disconnection bank (R-DISC-1) and the artificial all-in quota (R-DISC-2)."""

from __future__ import annotations

import pytest

from engine.artificial_all_in import ArtificialAllInQuota
from engine.clock import ClockSettings, PlayerClock
from engine.errors import TableRuleError


def test_deadline_is_action_clock_plus_the_bank_in_use():
    settings = ClockSettings(action_seconds=20, time_bank_seconds=60, disconnection_bank_seconds=30)
    clock = PlayerClock.fresh(settings)
    assert clock.deadline(10.0, settings, disconnected=False) == 90.0
    assert clock.deadline(10.0, settings, disconnected=True) == 60.0


def test_acting_within_the_action_clock_costs_nothing_overtime_comes_from_the_bank():
    settings = ClockSettings()
    clock = PlayerClock.fresh(settings)
    assert clock.charge(0.0, 20.0, settings, disconnected=False) == 0.0
    assert clock.charge(0.0, 45.5, settings, disconnected=False) == 25.5
    assert clock.time_bank == 34.5 and clock.disconnection_bank == 60.0
    assert clock.charge(0.0, 500.0, settings, disconnected=True) == 60.0
    assert clock.disconnection_bank == 0.0 and clock.time_bank == 34.5


def test_banks_refill_every_n_hands_up_to_their_maximum():
    settings = ClockSettings(time_bank_refill_seconds=10, disconnection_bank_refill_seconds=5, refill_every_hands=3)
    clock = PlayerClock(time_bank=45.0, disconnection_bank=58.0)
    assert [clock.hand_played(settings).time_bank for _ in range(3)] == [0.0, 0.0, 10.0]
    assert (clock.time_bank, clock.disconnection_bank) == (55.0, 60.0)
    for _ in range(3):
        refilled = clock.hand_played(settings)
    assert refilled.time_bank == 5.0 and clock.time_bank == 60.0


def test_no_refill_when_the_setting_is_zero():
    settings = ClockSettings(refill_every_hands=0)
    clock = PlayerClock(time_bank=1.0, disconnection_bank=1.0)
    for _ in range(50):
        clock.hand_played(settings)
    assert clock.time_bank == 1.0


def test_negative_settings_are_refused():
    with pytest.raises(ValueError, match="action_seconds"):
        ClockSettings(action_seconds=-1)


def test_artificial_all_in_quota_per_player_per_rolling_24_hours():
    quota = ArtificialAllInQuota(per_day=2)
    assert quota.use("ana", now=100.0) == 1
    assert quota.use("ana", now=200.0) == 0
    assert quota.remaining("bob", now=200.0) == 2
    with pytest.raises(TableRuleError, match="ana has used all 2 artificial all-ins"):
        quota.use("ana", now=300.0)
    assert quota.remaining("ana", now=99.5 + 86_400) == 0
    assert quota.remaining("ana", now=100.0 + 86_400) == 1  # 24 h after the first it no longer counts
    assert quota.remaining("ana", now=200.5 + 86_400) == 2
