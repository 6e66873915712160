"""A mixed table in room.toml (R-MIX-1..4): the mixes, a host's own list, stakes per game, and one-line errors."""

from __future__ import annotations

import pytest

from engine.home import HomeOptions
from hosting.config import ConfigError, parse_room
from hosting.mixed_tables import game_config


def _table(body: str) -> str:
    return f'[[tables]]\nid = "mix"\n{body}\n'


def test_horse_in_one_word_deals_five_limit_games_with_stud_antes_from_the_small_bet() -> None:
    (table,) = parse_room(_table('games = "horse"\nstakes = [10, 20]\nevery = 8\nchoice = "button"')).tables
    mixed = table.mixed
    assert mixed is not None
    assert [(game.game, game.structure, game.name) for game in mixed.games] == [
        ("texas_holdem", "fixed_limit", "Limit Hold'em"), ("omaha_hi_lo", "fixed_limit", "Limit Omaha Hi/Lo"),
        ("razz", "fixed_limit", "Razz"), ("seven_card_stud", "fixed_limit", "7-card Stud"),
        ("seven_card_stud_hi_lo", "fixed_limit", "7-card Stud Hi/Lo")]
    assert [(game.ante, game.bring_in) for game in mixed.games[2:]] == [(3, 5)] * 3  # 20/40 stud: ante 3, bring-in 5
    assert (mixed.every, mixed.choice, mixed.choice_seconds) == (8, "button", 20.0)
    assert (table.name, table.game, table.small_blind, table.big_blind, table.seats, table.min_buy_in,
            table.max_buy_in) == ("HORSE 10/20", "texas_holdem", 10, 20, 6, 800, 2000)
    assert mixed.find("3") == mixed.find("razz") == mixed.find("7-CARD stud") - 1 == 2


def test_a_hosts_own_list_gives_each_game_its_structure_and_stakes_and_suits_the_options_to_each() -> None:
    (table,) = parse_room(_table(
        'games = ["texas_holdem", {game = "omaha", structure = "pot_limit", stakes = [1, 2]},'
        ' {game = "seven_card_stud", ante = 2, bring_in = 3}]\nstakes = [2, 4]\nbuy_in = [100, 400]\n'
        'straddle = true\nrabbit_hunt = true\nseven_deuce_bounty = 5')).tables
    assert table.mixed is not None
    omaha = game_config(table, table.mixed, 1)
    stud = game_config(table, table.mixed, 2)
    assert (omaha.game, omaha.structure, omaha.small_blind, omaha.big_blind, omaha.straddle) == \
        ("omaha", "pot_limit", 1, 2, True)
    assert omaha.home == HomeOptions(rabbit_hunt=True)  # the 7-2 game is hold'em's only
    assert (stud.ante, stud.bring_in, stud.big_blind, stud.straddle, stud.home) == (2, 3, 4, False, HomeOptions())
    assert game_config(table, table.mixed, 0).home == HomeOptions(rabbit_hunt=True, seven_deuce_bounty=5)


@pytest.mark.parametrize(("body", "error"), [
    ('games = "horsey"\nstakes = [1, 2]',
     "room.toml: tables[0].games: expected a mix (horse, hose, eight_game) or a list of games, got 'horsey'"),
    ('games = ["razz"]\nstakes = [1, 2]',
     "room.toml: tables[0].games: expected a mix (horse, hose, eight_game) or a list of 2 to 20 games, got ['razz']"),
    ('games = "horse"\ngame = "razz"\nstakes = [1, 2]',
     "room.toml: tables[0].game: a mixed table lists its games (each with its structure) in games = …, not game"),
    ('games = "horse"\nstakes = [1, 2]\nseats = 9',
     "room.toml: tables[0].seats: expected an integer from 2 to 8, got 9"),
    ('games = "horse"\nstakes = [1, 2]\nevery = 0',
     "room.toml: tables[0].every: expected an integer from 1 to 1000, got 0"),
    ('games = "horse"\nstakes = [1, 2]\nchoice = "dealer"',
     "room.toml: tables[0].choice: expected one of rotation, button, host, got 'dealer'"),
    ('games = ["razz", {game = "omaha", structure = "spread_limit"}]\nstakes = [1, 2]',
     "room.toml: tables[0].games[1].structure: expected one of fixed_limit, no_limit, pot_limit, half_pot_limit, "
     "got 'spread_limit'"),
    ('games = ["razz", {game = "omaha", bring_in = 1}]\nstakes = [1, 2]',
     "room.toml: tables[0].games[1].bring_in: omaha uses blinds, not an ante and a bring-in"),
    ('game = "razz"\nstructure = "fixed_limit"\nstakes = [1, 2]\nbring_in = 1\nevery = 3',
     "room.toml: tables[0].every: only a mixed table (games = …) has it"),
    ('games = "horse"\nstakes = [1, 2]\njackpot = { share_percent = 5 }\nrake = "white-label"',
     "room.toml: tables[0].jackpot: a mixed table has no jackpot"),
    ('games = ["razz", "seven_card_stud"]\nstakes = [1, 2]\nrabbit_hunt = true',
     "room.toml: tables[0].rabbit_hunt: Razz has no board to hunt (Hold'em and Omaha games only)"),
])
def test_a_bad_mixed_table_gets_one_line_naming_the_key(body: str, error: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_room(_table(body))
    assert str(refused.value) == error


def test_the_host_screens_box_takes_the_game_command_in_croupier_admins_words() -> None:
    from hosting.admin_requests import parse_request
    from tui.host_screen import parse_command

    request = parse_command("game horse 'stud hi/lo'")
    assert request == {"action": "game", "table": "horse", "game": "stud hi/lo"}
    assert parse_request(request).fields == {"table": "horse", "game": "stud hi/lo"}
