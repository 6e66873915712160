"""room.toml keys for the home-game options (issue 19, docs/rules-home.md): off by default, set per table, one-line
errors naming the key; the table's hands get them, and a stored hand's settings give them back for its export."""

from __future__ import annotations

import pytest

from engine.home import HomeOptions
from hosting.config import ConfigError, parse_room
from hosting.engine_tables import build_engine_table
from hosting.hand_records import hand_config
from hosting.store import table_settings

TABLE = "[[tables]]\ngame = '{game}'\nstructure = 'no_limit'\nstakes = [1, 2]\n"


def test_home_options_are_off_unless_the_host_sets_them_and_reach_the_hand() -> None:
    plain = parse_room(TABLE.format(game="texas_holdem")).tables[0]
    assert plain.home == HomeOptions() and not plain.home.any_on
    text = TABLE.format(game="texas_holdem") + (
        "run_it_twice = true\nrabbit_hunt = true\nbomb_pot_every = 10\nbomb_pot_ante = 4\nseven_deuce_bounty = 5\n")
    table = parse_room(text).tables[0]
    assert table.home == HomeOptions(run_it_twice=True, rabbit_hunt=True, bomb_pot_every=10, bomb_pot_ante=4,
                                     seven_deuce_bounty=5)
    assert build_engine_table(table).config.hand.home == table.home
    # the store keeps the table's settings as JSON; the export rebuilds the same hand settings from them
    assert hand_config(table_settings(table)).home == table.home


@pytest.mark.parametrize(("game", "extra", "message"), [
    ("texas_holdem", "run_it_twice = 'yes'", r"tables\[0\]\.run_it_twice: expected true or false, got 'yes'"),
    ("seven_card_stud", "run_it_twice = true\nante = 1\nbring_in = 2",
     r"tables\[0\]\.run_it_twice: .* has no board to run twice"),
    ("five_card_draw", "rabbit_hunt = true", r"tables\[0\]\.rabbit_hunt: .* has no board to hunt"),
    ("texas_holdem", "bomb_pot_every = 10", r"tables\[0\]\.bomb_pot_ante: a bomb pot needs an ante of at least 1"),
    ("texas_holdem", "bomb_pot_ante = 4", r"tables\[0\]\.bomb_pot_ante: set bomb_pot_every too"),
    ("texas_holdem", "bomb_pot_every = -1", r"tables\[0\]\.bomb_pot_every: expected an integer from 0 to 1000"),
    ("omaha", "seven_deuce_bounty = 5", r"tables\[0\]\.seven_deuce_bounty: the 7-2 game is for Texas Hold'em only"),
    ("texas_holdem", "seven_deuce_bounty = 1.5", r"tables\[0\]\.seven_deuce_bounty: expected an integer"),
    ("texas_holdem", "run_it_thrice = true", r"tables\[0\]\.run_it_thrice: unknown key"),
])
def test_a_bad_home_option_gets_one_line_naming_the_key(game: str, extra: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as raised:
        parse_room(TABLE.format(game=game) + extra + "\n")
    assert "\n" not in str(raised.value)


def test_the_store_counts_a_seven_deuce_bounty_as_collected_and_keeps_chips_conserved() -> None:
    """R-HOME-4's worked hand: seat 2 takes a 5-chip pot and a 15-chip bounty; the store's movements balance."""
    from engine.events import HandEnded, HandStarted, PotAwarded, SevenDeuceBountyPaid
    from hosting.store.hands import hand_result

    start = {0: 100, 1: 100, 2: 100, 3: 100}
    events = [HandStarted("texas_holdem", "no_limit", 3, ((0, 100), (1, 100), (2, 100), (3, 100))),
              PotAwarded(0, 2, 5), SevenDeuceBountyPaid(2, ((3, 5), (0, 5), (1, 5)), 15),
              HandEnded(((0, 94), (1, 93), (2, 118), (3, 95)))]
    result = hand_result(start, events)
    assert dict(result.put_in) == {0: 6, 1: 7, 2: 2, 3: 5} and dict(result.awarded) == {2: 20}
    assert sum(result.put_in.values()) == sum(result.awarded.values()) + result.rake
