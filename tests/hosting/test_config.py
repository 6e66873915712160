"""Room files: a good file's tables, the default room, and one clear line for each kind of mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from hosting.cli import main
from hosting.config import ConfigError, default_room, load_room, parse_room

GOOD = """
[room]
name = "Friday night"
password = "swordfish"
invite_codes = ["FRIDAY-7"]
allow = ["ana", "bruno"]
connections_per_minute = 5
ready_screens = 4

[[tables]]
id = "nl-1-2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 9
buy_in = [40, 200]
rake = "white-label"
clock = { action_seconds = 15, time_bank_seconds = 30 }

[[tables]]
game = "omaha_hi_lo"
structure = "pot_limit"
stakes = [5, 10]
"""


def test_a_good_file_gives_its_tables_and_gates() -> None:
    room = parse_room(GOOD)
    assert room.name == "Friday night"
    assert room.access.password == "swordfish" and room.access.invite_codes == {"FRIDAY-7"}
    assert room.access.allow == {"ana", "bruno"} and room.access.connections_per_minute == 5
    assert room.ready_screens == 4 and parse_room("[room]\nname = 'x'").ready_screens == 2  # the default
    first, second = room.tables
    assert (first.id, first.small_blind, first.big_blind, first.seats) == ("nl-1-2", 1, 2, 9)
    assert (first.min_buy_in, first.max_buy_in, first.rake) == (40, 200, "white-label")
    assert first.clock == {"action_seconds": 15.0, "time_bank_seconds": 30.0, "disconnection_bank_seconds": 60.0}
    assert (second.id, second.name, second.seats) == ("t2", "Omaha Hi/Lo 8-or-better 5/10", 6)
    assert (second.min_buy_in, second.max_buy_in, second.rake) == (400, 1000, "none")


def test_default_room_has_holdem_and_omaha_at_several_stakes() -> None:
    tables = default_room().tables
    games = {table.game for table in tables}
    assert {"texas_holdem", "omaha"} <= games
    assert len({(table.small_blind, table.big_blind) for table in tables if table.game == "texas_holdem"}) >= 3
    assert all(table.min_buy_in < table.max_buy_in for table in tables)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[tables]]\ngame = 'texas_holdem'\nstructure = 'no_limit'\nstakes = [1]",
         "room.toml: tables[0].stakes: expected [small_blind, big_blind] as positive integers, got [1]"),
        ("[[tables]]\ngame = 'stud'\nstructure = 'no_limit'\nstakes = [1, 2]",
         "room.toml: tables[0].game: expected one of americana, badugi, deuce_to_seven_single_draw, "
         "deuce_to_seven_triple_draw, five_card_draw, omaha, omaha_five_card, omaha_hi_lo, razz, seven_card_stud, "
         "seven_card_stud_hi_lo, short_deck_holdem, telesina, texas_holdem, thirty_two_card_draw, got 'stud'"),
        ("[[tables]]\ngame = 'seven_card_stud'\nstructure = 'fixed_limit'\nstakes = [2, 4]\nante = 1",
         "room.toml: tables[0].bring_in: seven_card_stud needs a bring-in (chips, about 2 x the ante) (R-STUD-1)"),
        ("[[tables]]\ngame = 'texas_holdem'\nstructure = 'no_limit'\nstakes = [1, 2]\nbring_in = 1",
         "room.toml: tables[0].bring_in: texas_holdem uses blinds, not a bring-in"),
        ("[[tables]]\ngame = 'seven_card_stud'\nstructure = 'fixed_limit'\nstakes = [2, 4]\nbring_in = 9",
         "room.toml: tables[0].bring_in: expected an integer from 1 to 4, got 9"),
        ("[[tables]]\ngame = 'seven_card_stud'\nstructure = 'fixed_limit'\nstakes = [2, 4]\nbring_in = 2\n"
         "straddle = true", "room.toml: tables[0].straddle: seven_card_stud has no blinds to straddle"),
        ("[[tables]]\ngame = 'texas_holdem'\nstructure = 'no_limit'\nstakes = [1, 2]\nstraddle = 'yes'",
         "room.toml: tables[0].straddle: expected true or false, got 'yes'"),
        ("[[tables]]\ngame = 'texas_holdem'\nstructure = 'no_limit'\nstakes = [1, 2]\nspread = [4, 8, 8]",
         "room.toml: tables[0].spread: only a spread_limit table takes spread = [a, b, c]"),
        ("[[tables]]\ngame = 'texas_holdem'\nstructure = 'spread_limit'\nstakes = [1, 2]\nspread = [8, 4, 4]",
         "room.toml: tables[0].spread: expected [a, b, c], integers >= the big blind (2) with a <= b <= c, "
         "got [8, 4, 4]"),
        ("[[tables]]\ngame = 'omaha'\nstakes = [1, 2]",
         "room.toml: tables[0].structure: missing (one of: fixed_limit, pot_limit, half_pot_limit, no_limit, "
         "spread_limit)"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [2, 1]",
         "room.toml: tables[0].stakes: the small blind (2) is larger than the big blind (1)"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 11",
         "room.toml: tables[0].seats: expected an integer from 2 to 10, got 11"),
        ("[[tables]]\ngame = 'omaha_five_card'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 10",
         "room.toml: tables[0].seats: expected an integer from 2 to 9, got 10"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 'pokerstars'",
         "room.toml: tables[0].seats: unknown seat preset 'pokerstars'; known: caradepoker"),
        ("[[tables]]\ngame = 'omaha_five_card'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 'caradepoker'",
         "room.toml: tables[0].seats: the caradepoker room has no omaha_five_card tables"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nbuy_in = [200, 100]",
         "room.toml: tables[0].buy_in: the minimum (200) is above the maximum (100)"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nrake = 'greedy'",
         "room.toml: tables[0].rake: expected one of none, white-label, Caradepoker"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nclock = { action_seconds = -1 }",
         "room.toml: tables[0].clock.action_seconds: expected seconds from 0 to 3600, got -1"),
        ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\ncolour = 'green'",
         "room.toml: tables[0].colour: unknown key (allowed here: id, name, game"),
        ("[[tables]]\nid='a'\ngame='omaha'\nstructure='pot_limit'\nstakes=[1,2]\n"
         "[[tables]]\nid='a'\ngame='omaha'\nstructure='pot_limit'\nstakes=[1,2]",
         "room.toml: tables[1].id: 'a' is used by an earlier table"),
        ("[room]\npassword = 3", "room.toml: room.password: expected text, got 3"),
        ("[room]\nready_screens = -1", "room.toml: room.ready_screens: expected an integer from 0 to 64, got -1"),
        ("[room]\nallow = ['good', 'bad name']", "room.toml: room.allow[1]: 'bad name' is not a player name"),
        ("[room]\nallow = [{name = 'ana', key = 'ssh-ed25519'}]",
         "room.toml: room.allow[0].key: expected an OpenSSH public key such as 'ssh-ed25519 AAAA…', got "
         "'ssh-ed25519'"),
        ("[room]\nallow = [{name = 'ana'}]", "room.toml: room.allow[0].key: missing"),
        ("[room]\nallow = [{name = 'ana', key = 'ssh-ed25519 AAAA', keys = 1}]",
         "room.toml: room.allow[0].keys: unknown key (allowed here: name, key)"),
        ("[room]\nallow = [3]", "room.toml: room.allow[0]: expected a name or {name = …, key = …}, got 3"),
        ("[room]\nnames_per_key = 0", "room.toml: room.names_per_key: expected an integer from 1 to 1000"),
        ("tables = []", "room.toml: tables: expected one or more [[tables]]"),
        ("[room\nname='x'", "room.toml: not valid TOML: "),
    ],
)
def test_a_bad_file_gets_one_line_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_room(text)
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_omaha_seats_up_to_ten_and_the_caradepoker_room_preset_seats_nine() -> None:
    # R-GAME-O4: Omaha 2-10; the Caradepoker rulebook's room seats Omaha and Omaha Hi/Lo 9 (a room preset).
    text = ("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 10\n"
            "[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 'caradepoker'\n"
            "[[tables]]\ngame = 'omaha_hi_lo'\nstructure = 'pot_limit'\nstakes = [1, 2]\nseats = 'caradepoker'\n"
            "[[tables]]\ngame = 'texas_holdem'\nstructure = 'no_limit'\nstakes = [1, 2]\nseats = 'caradepoker'\n")
    assert [table.seats for table in parse_room(text).tables] == [10, 9, 9, 10]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml: cannot read"):
        load_room(tmp_path / "nowhere.toml")


def test_croupier_host_refuses_a_bad_file_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "room.toml"
    path.write_text("[[tables]]\ngame = 'omaha'\nstructure = 'pot_limit'\nstakes = [1, 0]\n")
    assert main(["host", "--config", str(path), "--data", str(tmp_path / "data")]) == 2
    error = capsys.readouterr().err
    assert error == f"croupier host: {path}: tables[0].stakes: expected [small_blind, big_blind] as positive " \
                    "integers, got [1, 0]\n"


def test_stud_draw_straddle_and_spread_keys_reach_the_engine_table() -> None:
    from engine.structures import StructureKind
    from hosting.room import build_engine_table

    room = parse_room(
        "[[tables]]\nid = 's'\ngame = 'seven_card_stud'\nstructure = 'fixed_limit'\nstakes = [2, 4]\n"
        "ante = 1\nbring_in = 2\n"
        "[[tables]]\nid = 'd'\ngame = 'deuce_to_seven_triple_draw'\nstructure = 'fixed_limit'\nstakes = [1, 2]\n"
        "[[tables]]\nid = 'h'\ngame = 'texas_holdem'\nstructure = 'spread_limit'\nstakes = [1, 2]\n"
        "spread = [4, 8, 10]\nstraddle = true\n")
    stud, draw, spread = (build_engine_table(table).config for table in room.tables)
    assert (stud.ante, stud.bring_in, stud.big_blind, stud.ante_games) == (1, 2, 4, True)
    assert stud.hand.structure.kind is StructureKind.FIXED_LIMIT and stud.hand.structure.small_bet == 4
    assert draw.hand.variant.has_draws and (draw.ante, draw.bring_in) == (0, 0)
    assert spread.straddle_allowed and not stud.straddle_allowed
    assert spread.hand.structure.spread_maxima == (4, 4, 8, 10)


def test_room_security_settings_and_pinned_keys_are_read() -> None:
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq0rKMNpRbLQCH1yF5l4eOi4R3Vr9Ruc8pWgYVRdNxN"
    room = parse_room(f"""
[room]
allow = ["bruno", {{name = "ana", key = "{key} ana@laptop"}}]
names_per_key = 2
max_pending_logins = 50
pending_logins_per_address = 4
login_seconds = 8

[[tables]]
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
clock = {{ seat_hold_seconds = 120 }}
""")
    access = room.access
    assert access.allow == {"ana", "bruno"} and dict(access.pinned_keys) == {"ana": key}  # comment dropped
    assert (access.names_per_key, access.max_pending_logins, access.pending_logins_per_address,
            access.login_seconds) == (2, 50, 4, 8.0)
    assert room.tables[0].clock["seat_hold_seconds"] == 120.0
    defaults = parse_room("").access
    assert (defaults.names_per_key, defaults.max_pending_logins, defaults.pending_logins_per_address,
            defaults.login_seconds, dict(defaults.pinned_keys)) == (3, 100, 10, 10.0, {})


def test_r_draw_1_draw_clock_from_the_room_file_or_the_game() -> None:
    from hosting.room import build_engine_table

    room = parse_room(
        "[[tables]]\nid = 'd'\ngame = 'deuce_to_seven_triple_draw'\nstructure = 'fixed_limit'\nstakes = [1, 2]\n"
        "[[tables]]\nid = 'f'\ngame = 'five_card_draw'\nstructure = 'fixed_limit'\nstakes = [1, 2]\n"
        "clock = { draw_seconds = 40 }\n")
    deuce, five = (build_engine_table(table).config for table in room.tables)
    assert deuce.clock.draw_seconds is None and deuce.hand.variant.draw_seconds == 24.0  # the game's: 24 s
    assert five.clock.draw_seconds == 40.0
