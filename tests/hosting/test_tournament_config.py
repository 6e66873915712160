"""``[[tournaments]]`` in room.toml (issue 18): every setting read into the director's settings; one-line errors
naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tournament.formats import Format
from engine.tournament.levels import Break, Level
from engine.tournament.settings import PayoutKind
from hosting.config import ConfigError, parse_room

FULL = '''
[[tournaments]]
id = "sunday"
name = "Sunday 100"
type = "scheduled"
game = "texas_holdem"
structure = "no_limit"
buy_in = 100
fee = 10
knockout = 50
progressive = true
starting_chips = 20000
levels = "regular"
level_minutes = 15
break_every = 4
break_minutes = 10
late_registration_minutes = 60
re_entries = 2
rebuys = { minutes = 60, threshold = 20000, chips = 20000, price = 100, fee = 10, max = 3 }
add_on = { chips = 30000, price = 100, fee = 5, minutes = 10 }
guarantee = 5000
payouts = [50, 30, 20]
seats = 8
start = 2026-12-06T20:00:00Z
min_players = 10
max_players = 500
password = "secret"
deals = false
hand_for_hand = false
time_limit_minutes = 240
cancel_refund = "equal"

[[tournaments]]
id = "sng"
sit_and_go_size = 6
seats = 6
levels = "turbo"
recurring = true

[[tournaments]]
id = "spin"
type = "spin"
buy_in = 10
spin_multipliers = [{ multiplier = 2, chances = 999000, percentages = [100] },
                    { multiplier = 100, chances = 1000, percentages = [80, 10, 10] }]
'''


def test_every_setting_is_read_into_the_directors_settings() -> None:
    sunday, sng, spin = parse_room(FULL).tournaments
    settings = sunday.settings
    assert (sunday.id, sunday.name, settings.format, settings.seats_per_table) == \
        ("sunday", "Sunday 100", Format.SCHEDULED, 8)
    assert (settings.price.buy_in, settings.price.fee, settings.price.knockout) == (100, 10, 50)
    assert settings.bounties is not None and settings.bounties.progressive
    assert settings.starting_stack == 20_000 and settings.start_time == 1_796_587_200.0
    # regular: 100 big blinds at the start (20,000 chips: 100/200), 15-minute levels, a break every 4
    assert settings.schedule[0] == Level(100, 200, duration=900.0)
    assert settings.schedule[4] == Break(600.0)
    assert (settings.late_registration_seconds, settings.re_entries) == (3600.0, 2)
    assert settings.rebuys is not None and (settings.rebuys.until_seconds, settings.rebuys.max_rebuys) == (3600.0, 3)
    assert settings.add_on is not None and (settings.add_on.chips, settings.add_on.window_seconds) == (30_000, 600.0)
    assert (settings.guarantee, settings.payout, settings.payout_percentages) == (5000, PayoutKind.TABLE, (50, 30, 20))
    assert (settings.min_players, settings.max_players, settings.password) == (10, 500, "secret")
    assert (settings.deals_allowed, settings.hand_for_hand, settings.time_limit_seconds) == (False, False, 14_400.0)
    assert sunday.cancel_refund == "equal" and not sunday.recurring
    assert sng.recurring and sng.settings.sit_and_go_size == 6 and sng.settings.schedule[0].duration == 180.0
    assert sng.cancel_refund == "chips"  # the default: the pool left by chips
    assert sng.numbered(2).id == "sng-2" and sng.numbered(1) is sng
    assert spin.settings.format is Format.SPIN and spin.settings.seats_per_table == 3
    assert [row.multiplier for row in spin.settings.spin_table] == [2, 100]


@pytest.mark.parametrize(("text", "error"), [
    ('bogus = 1', "tournaments[0].bogus: unknown key"),
    ('type = "scheduled"', "tournaments[0].start: a scheduled tournament needs its start"),
    ('type = "scheduled"\nstart = 2026-12-06T20:00:00',
     "tournaments[0].start: expected a TOML date-time with its zone"),
    ('type = "league"', "tournaments[0].type: expected one of sit_and_go"),
    ('levels = "fast"', "tournaments[0].levels: expected one of turbo, regular, deep"),
    ('levels = [{small_blind = 10, big_blind = 20, blinds = 3}]', "tournaments[0].levels[0].blinds: unknown key"),
    ('starting_chips = 0', "tournaments[0].starting_chips: expected an integer from 1"),
    ('payouts = [50, 40]', "tournaments[0].payouts: a payout table is positive percentages that sum to 100"),
    ('seats = 11', "tournaments[0].seats: expected an integer from 2 to 10"),
    ('type = "spin"\nseats = 6', "tournaments[0].seats: a spin table has 3 seats"),
    ('rebuys = 3', "tournaments[0].rebuys: expected { minutes"),
    ('add_on = { chips = 10 }', "tournaments[0].add_on: comes at the end of a rebuy period"),
    ('progressive = true', "tournaments[0].progressive: a progressive knockout needs a knockout part"),
    ('recurring = true\ntype = "scheduled"\nstart = 2026-12-06T20:00:00Z', "tournaments[0].recurring: only a Sit & Go"),
    ('cancel_refund = "coin"', "tournaments[0].cancel_refund: expected one of chips, equal"),
    ('id = "a.b"', "tournaments[0].id: expected an id"),
    ('id = "holdem-1-2"', "tournaments[0].id: 'holdem-1-2' is used by a table"),
    ('spin_multipliers = [{ multiplier = 2, chances = 5 }]', "tournaments[0].spin_multipliers: the chances sum to"),
    ('deals = "yes"', "tournaments[0].deals: expected true or false"),
    # issue 26: a payout table that can never be filled is said in one line
    ('sit_and_go_size = 2\npayouts = [50, 30, 20]', "tournaments[0].payouts: the table pays 3 places but at most 2 "
                                                     "players can enter: it can never be filled"),
    ('type = "spin"\nspin_multipliers = [{ multiplier = 2, chances = 1000000, percentages = [70, 20, 5, 5] }]',
     "tournaments[0].spin_multipliers: the table pays 4 places but at most 3 players can enter"),
])
def test_a_bad_key_is_one_line_naming_it(text: str, error: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_room("[[tournaments]]\n" + text)
    message = str(caught.value)
    assert message.startswith("room.toml: " + error), message
    assert "\n" not in message


def test_the_readme_example_is_a_valid_room_file() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Tournaments"):]
    example = section[section.index("```toml") + len("```toml"):section.index("```\n", section.index("```toml") + 7)]
    sng, sunday = parse_room(example).tournaments
    assert (sng.id, sng.recurring, sng.settings.sit_and_go_size, sng.settings.price.knockout) == ("sng", True, 6, 20)
    assert sunday.settings.rebuys is not None and sunday.settings.add_on is not None
    assert (sunday.settings.password, sunday.cancel_refund) == ("friday", "chips")
