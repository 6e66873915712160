"""The ``jackpot`` key of a room file's tables (R-JACK-1): read, defaults, and one line for each mistake."""

from __future__ import annotations

import re

import pytest

import hosting.config
from hosting.config import ConfigError, JackpotConfig, parse_room
from hosting.store import table_settings

TABLE = "[[tables]]\ngame = '{game}'\nstructure = 'pot_limit'\nstakes = [1, 2]\nrake = '{rake}'\n"


def _room(jackpot: str, game: str = "texas_holdem", rake: str = "white-label") -> str:
    return TABLE.format(game=game, rake=rake) + (f"jackpot = {jackpot}\n" if jackpot else "")


def test_jackpot_is_read_with_its_defaults_and_is_off_when_absent() -> None:
    (table,) = parse_room(_room("{ share_percent = 10, minimum_big_blind = 2 }")).tables
    assert table.jackpot == JackpotConfig(share_percent=10, minimum_big_blind=2)
    (table,) = parse_room(_room("{}", game="omaha_hi_lo")).tables
    assert table.jackpot == JackpotConfig(share_percent=5, minimum_big_blind=0)
    assert table.jackpot.qualifying_hand == "four_queens"  # R-JACK-1 decision: the default
    (table,) = parse_room(_room("{ qualifying_hand = 'four_tens' }")).tables  # Caradepoker's preset
    assert table.jackpot == JackpotConfig(qualifying_hand="four_tens")
    (table,) = parse_room(_room("")).tables
    assert table.jackpot is None
    assert table_settings(table)["jackpot"] is None  # JSON-ready for the store


def test_the_module_docstring_example_parses() -> None:
    example = hosting.config.__doc__ or ""
    text = example.split("::", 1)[1].split("A bad file raises")[0]
    text = re.sub(r"^    ", "", text, flags=re.MULTILINE)
    tables = parse_room(text).tables
    assert tables[-1].jackpot == JackpotConfig(share_percent=5, minimum_big_blind=2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_room("5"), "room.toml: tables[0].jackpot: expected { share_percent = 5, minimum_big_blind = 2 }, got 5"),
        (_room("{ share_percent = 0 }"),
         "room.toml: tables[0].jackpot.share_percent: expected an integer from 1 to 100, got 0"),
        (_room("{ share_percent = 101 }"),
         "room.toml: tables[0].jackpot.share_percent: expected an integer from 1 to 100, got 101"),
        (_room("{ share_percent = 2.5 }"),
         "room.toml: tables[0].jackpot.share_percent: expected an integer from 1 to 100, got 2.5"),
        (_room("{ minimum_big_blind = -1 }"),
         "room.toml: tables[0].jackpot.minimum_big_blind: expected an integer from 0 to 1000000000000, got -1"),
        (_room("{ minimum_big_blind = true }"),
         "room.toml: tables[0].jackpot.minimum_big_blind: expected an integer from 0 to 1000000000000, got True"),
        (_room("{ share = 5 }"),
         "room.toml: tables[0].jackpot.share: unknown key (allowed here: share_percent, minimum_big_blind, "
         "qualifying_hand, kind, hands, hours)"),
        (_room("{ kind = 'monte_carlo', hands = ['four of a kind'] }", game="omaha"),
         "room.toml: tables[0].jackpot.kind: monte_carlo jackpots are for Hold'em tables only (R-JACK-2)"),
        (_room("{ kind = 'monte_carlo' }"),
         "room.toml: tables[0].jackpot.hands: expected a list of some of: one pair, two pair, three of a kind, "
         "straight, flush, full house, four of a kind, straight flush, royal flush, got None"),
        (_room("{ kind = 'smart', hours = [24] }"),
         "room.toml: tables[0].jackpot.hours: expected a list of hours from 0 to 23, got [24]"),
        (_room("{ hours = [20] }"),
         "room.toml: tables[0].jackpot.hours: only a smart jackpot has hours"),
        (_room("{ kind = 'lottery' }"),
         "room.toml: tables[0].jackpot.kind: expected one of bad_beat, monte_carlo, smart, got 'lottery'"),
        (_room("{ qualifying_hand = 'four_elevens' }"),
         "room.toml: tables[0].jackpot.qualifying_hand: expected one of four_deuces, four_threes, four_fours, "
         "four_fives, four_sixes, four_sevens, four_eights, four_nines, four_tens, four_jacks, four_queens, "
         "four_kings, four_aces, got 'four_elevens'"),
        (_room("{ qualifying_hand = 'four_tens' }", game="omaha"),
         "room.toml: tables[0].jackpot.qualifying_hand: only Hold'em bad-beat and smart jackpots choose it (Omaha: "
         "a straight flush 6-10, 5-card draw: four aces; R-JACK-1)"),
        (_room("{}", game="deuce_to_seven_triple_draw"),
         "room.toml: tables[0].jackpot: deuce_to_seven_triple_draw has no bad-beat jackpot (R-JACK-1: hold'em, "
         "Omaha and 5-card draw tables only)"),
        (_room("{}", rake="none"),
         "room.toml: tables[0].jackpot: a jackpot is funded by the rake: set the table's rake too"),
    ],
)
def test_a_bad_jackpot_gets_one_line_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_room(text)
    assert str(raised.value) == message


def test_r_jack_2_monte_carlo_and_smart_jackpots_are_read() -> None:
    (table,) = parse_room(_room("{ kind = 'monte_carlo', hands = ['royal flush', 'four of a kind'] }")).tables
    assert table.jackpot == JackpotConfig(kind="monte_carlo", hands=("four of a kind", "royal flush"))
    (table,) = parse_room(_room("{ kind = 'smart', hours = [23, 20, 21], qualifying_hand = 'four_tens' }")).tables
    assert table.jackpot == JackpotConfig(kind="smart", hours=(20, 21, 23), qualifying_hand="four_tens")
