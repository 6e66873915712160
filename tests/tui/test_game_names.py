"""One name per game everywhere and suit glyphs everywhere (issue 14, item 24): the lobby, the hand history
text and ``croupier play --help`` take their names from engine.variants; a board line of any street (Telesina's
vela too) and the draw picker's buttons show suit glyphs, never "Ac" or "1:Ks"."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from engine.hand import HandConfig
from engine.variants import VARIANTS, game_name
from tests.tui.helpers import wait_until
from tests.tui.recorded import hello, lobby_rows, msg, side_pot_hand
from tests.tui.test_snapshots import replay_app
from tui.widgets.hand_log import log_line
from tui.widgets.lobby import game_name as lobby_game_name


def test_each_game_has_one_name_from_the_engine() -> None:
    assert game_name("thirty_two_card_draw") == "32-card Draw"
    assert game_name("deuce_to_seven_triple_draw") == "2-7 Triple Draw"
    assert lobby_game_name("deuce_to_seven_triple_draw") == "2-7 Triple Draw"  # was "Deuce To Seven Triple Draw"
    assert lobby_game_name("thirty_two_card_draw") == "32-card Draw"  # was "Thirty Two Card Draw"
    for game, variant in VARIANTS.items():
        assert lobby_game_name(game) in (variant.name, game_name(game, short=True))


def test_cli_help_names_the_games_as_the_lobby_does() -> None:
    help_text = subprocess.run([sys.executable, "-m", "hosting.cli", "play", "--help"], capture_output=True,
                               text=True, check=True).stdout
    words = " ".join(help_text.split())
    for game in ("thirty_two_card_draw", "deuce_to_seven_triple_draw", "seven_card_stud"):
        assert f"{game} ({game_name(game)})" in words, game


def test_the_hand_history_names_a_32_card_game_as_the_lobby_does() -> None:
    from engine.history import game_title
    from engine.structures import BettingStructure
    from engine.variants import RAZZ, THIRTY_TWO_CARD_DRAW, variant_by_id

    # PokerStars has no 32-card game: the history uses our own name, read from the variant table.
    assert game_title(HandConfig(THIRTY_TWO_CARD_DRAW, BettingStructure.fixed_limit(2))) == "32-card Draw Limit"
    assert game_title(HandConfig(RAZZ, BettingStructure.fixed_limit(2))) == "Razz Limit"
    single_draw = variant_by_id("deuce_to_seven_single_draw")
    assert game_title(HandConfig(single_draw, BettingStructure.no_limit())) == "Single Draw 2-7 Lowball No Limit"


def test_every_name_and_default_structure_comes_from_the_variant_table() -> None:
    from hosting.commands.play import check_options

    assert (game_name("razz"), game_name("deuce_to_seven_single_draw")) == ("Razz", "2-7 Single Draw")
    assert lobby_game_name("razz") == "Razz" and lobby_game_name("deuce_to_seven_single_draw") == "2-7 Single Draw"
    assert check_options("deuce_to_seven_single_draw", None, None, "1/2").structure == "no_limit"
    assert check_options("razz", None, None, "1/2").structure == "fixed_limit"
    assert check_options("omaha", None, None, "1/2").structure == "pot_limit"


def test_every_board_street_line_shows_suit_glyphs() -> None:
    assert log_line("Vela: Ac").plain == "Vela: A♣"
    assert log_line("River: Qs").plain == "River: Q♠"


async def test_the_draw_picker_shows_suit_glyphs() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "holdem-1-2" in app.models, what="the table")
        app.show_table("holdem-1-2")
        await pilot.pause(0.3)
        view = app.view_of("holdem-1-2")
        assert view is not None
        view.bar.my_cards = ["Ks", "7h", "7d", "3c", "2s"]
        view.bar.legal = {"seat": 1, "can_fold": False, "can_check": False, "call_amount": None,
                          "min_raise_to": None, "max_raise_to": None, "is_bet": False, "bring_in_amount": None,
                          "max_discards": 5}
        await pilot.pause(0.2)
        labels: list[Any] = [str(view.query_one(f"#card-{index}").label) for index in range(5)]
        assert labels == ["1:K♠", "2:7♥", "3:7♦", "4:3♣", "5:2♠"]
