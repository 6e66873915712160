"""Tournament hands in PokerStars' tournament layout, and PokerStars' tournament summary (issue 18 "History")."""

from __future__ import annotations

import random
import warnings
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.history import pokerstars_text, summary_game_title
from engine.structures import StructureKind
from engine.tournament_history import (
    BountyTaken,
    Currency,
    Finish,
    Finished,
    TournamentHand,
    TournamentInfo,
    eastern_time,
    roman,
    summary_text,
)
from engine.variants import OMAHA_HI_LO, TEXAS_HOLDEM
from tests.engine.pokerkit_differences import pokerkit_agrees, short_big_blind
from tests.engine.test_history import CONFIG, NAMES, PLAN, small_hand
from tests.engine.test_phh import play_random_hand

USD = Currency(100, "$", "USD")
SUNDAY = TournamentInfo(797469411, 319, 31, currency=USD)
WHEN = datetime(2026, 12, 1, 18, 0, 0, tzinfo=UTC)


def test_a_tournament_hand_has_pokerstars_tournament_header_and_chips_without_a_sign() -> None:
    hand = TournamentHand(SUNDAY, level=1, table_number=15)
    # chip_value/currency are a cash table's; a tournament's amounts are tournament chips whatever is passed
    text = pokerstars_text(small_hand().events, CONFIG, PLAN, hand_id=42, players=NAMES, seat_count=9,
                           played_at=WHEN, chip_value=100, currency="$", tournament=hand)
    lines = text.splitlines()
    assert lines[:5] == [
        "PokerStars Hand #42: Tournament #797469411, $3.19+$0.31 USD Hold'em No Limit - Level I (50/100)"
        " - 2026/12/01 18:00:00 UTC [2026/12/01 13:00:00 ET]",
        "Table '797469411 15' 9-max Seat #3 is the button",
        "Seat 1: Ann (5000 in chips)",
        "Seat 2: Bob (5000 in chips)",
        "Seat 3: Cy (5000 in chips)",
    ]
    assert "Ann: posts small blind 50" in lines and "Cy: raises 200 to 300" in lines
    assert "$" not in "\n".join(lines[1:])


@pytest.mark.parametrize(("info", "entry"), [
    (TournamentInfo(1, 1000, 100, currency=USD), "$10+$1 USD"),
    (TournamentInfo(1, 98, 12, currency=USD), "$0.98+$0.12 USD"),
    (TournamentInfo(1, 440, 60, bounty=500, currency=USD), "$4.40+$5.00+$0.60 USD"),
    (TournamentInfo(1, 1000, 200, bounty=1000, currency=USD), "$10+$10+$2 USD"),
    (TournamentInfo(1, 100, 10), "100+10"),
    (TournamentInfo(1, 50, 10, bounty=50), "50+50+10"),
    (TournamentInfo(1, 60, 10, currency=Currency(points=True)), "70FPP"),
    (TournamentInfo(1, 0, 0), "Freeroll"),
])
def test_the_entry_is_written_as_pokerstars_writes_it(info: TournamentInfo, entry: str) -> None:
    assert info.entry() == entry
    assert info.header(5, "Hold'em No Limit", 11, 400, 800) == (
        f"PokerStars Hand #5: Tournament #1, {entry} Hold'em No Limit - Level XI (400/800)")


def test_levels_are_roman_to_one_hundred() -> None:
    assert [roman(level) for level in (1, 2, 3, 9, 10, 19, 24, 40, 90, 99, 100, 101)] == [
        "I", "II", "III", "IX", "X", "XIX", "XXIV", "XL", "XC", "XCIX", "C", "101"]
    with pytest.raises(ValueError):
        roman(0)


def test_pokerkit_reads_tournament_hands_back_to_the_same_stacks() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random("tournament-text")
    compared = 0
    for number in range(150):
        played, config, plan = play_random_hand(rng, "NT")
        if short_big_blind(played.starting_stacks(), plan):
            continue  # PokerKit lets players call a short big blind; R-BET-ALLIN does not
        names = {seat: f"Player {seat + 1}" for seat in range(10)}
        tournament = TournamentHand(TournamentInfo(900 + number, 1000, 100, bounty=500 * (number % 2), currency=USD),
                                    level=1 + number % 30, table_number=1 + number % 4)
        text = pokerstars_text(played.events, config, plan, hand_id=number + 1, players=names, seat_count=9,
                               played_at=WHEN, tournament=tournament)
        assert f"Tournament #{900 + number}, " in text.splitlines()[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = list(pokerkit.HandHistory.from_pokerstars(text, error_status=True))
        assert len(parsed) == 1, text
        history = parsed[0]
        starting = dict(played.starting_stacks())
        assert list(history.starting_stacks) == [starting[seat] for seat in sorted(starting)], text
        assert history.table == f"{900 + number} {1 + number % 4}"
        final = list(list(history)[-1].stacks)
        assert pokerkit_agrees(played.events, plan, final), text
        compared += 1
    assert compared >= 130


def test_the_summary_lists_places_and_prizes_as_pokerstars_writes_it() -> None:
    finishes = [Finish(1, "ann", 4_500), Finish(2, "bob", 2_700), Finish(3, "cy", 1_800), Finish(4, "dan")]
    text = summary_text(TournamentInfo(7, 1000, 100, currency=USD), "No Limit Hold'em", entrants=9,
                        prize_pool=9_000, started_at=WHEN, finished_at=datetime(2026, 12, 1, 19, 2, 3, tzinfo=UTC),
                        finishes=finishes, player="bob")
    assert text == """\
PokerStars Tournament #7, No Limit Hold'em
Buy-In: $10/$1 USD
9 players
Total Prize Pool: $90 USD
Tournament started 2026/12/01 18:00:00 UTC [2026/12/01 13:00:00 ET]
  1: ann, $45 (50%)
  2: bob, $27 (30%)
  3: cy, $18 (20%)
  4: dan,
Tournament finished 2026/12/01 19:02:03 UTC [2026/12/01 14:02:03 ET]
You finished in 2nd place.
You received a total of $27.
"""


def test_summary_buy_in_forms_percentages_and_ordinals() -> None:
    ko = summary_text(TournamentInfo(8, 440, 60, 500, USD), "No Limit Hold'em", entrants=27, prize_pool=11_880,
                      started_at=WHEN, finishes=[Finish(1, "ann", 5_346), Finish(22, "vic")], player="vic")
    assert "Buy-In: $4.40/$5.00/$0.60 USD" in ko and "Total Prize Pool: $118.80 USD" in ko
    assert "  1: ann, $53.46 (45%)" in ko and " 22: vic," in ko and ko.endswith("You finished in 22nd place.\n")
    play = summary_text(TournamentInfo(9, 0, 0), "Pot Limit Omaha", entrants=3, prize_pool=300, started_at=WHEN,
                        finishes=[Finish(1, "ann", 200), Finish(2, "bob", 100)], player="ann")
    assert "Buy-In: Freeroll" in play and "  1: ann, 200 (66.67%)" in play and "You received a total of 200." in play
    eleventh = summary_text(SUNDAY, "No Limit Hold'em", entrants=200, prize_pool=1, started_at=WHEN,
                            finishes=[Finish(11, "kim")], player="kim")
    assert "  11: kim," in eleventh and "You finished in 11th place." in eleventh


def test_the_summary_names_the_game_structure_first() -> None:
    assert summary_game_title(TEXAS_HOLDEM, StructureKind.NO_LIMIT) == "No Limit Hold'em"
    assert summary_game_title(OMAHA_HI_LO, StructureKind.POT_LIMIT) == "Pot Limit Omaha Hi/Lo"


def test_a_knockouts_seat_lines_say_the_bounty_on_each_head_and_pokerkit_still_reads_the_stacks() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    info = TournamentInfo(8, 440, 60, 500, USD)
    hand = TournamentHand(info, level=2, table_number=1, bounties={0: 500, 2: 750})
    text = pokerstars_text(small_hand().events, CONFIG, PLAN, hand_id=9, players=NAMES, seat_count=9,
                           played_at=WHEN, tournament=hand)
    assert text.splitlines()[2:5] == ["Seat 1: Ann (5000 in chips, $5 bounty)", "Seat 2: Bob (5000 in chips)",
                                      "Seat 3: Cy (5000 in chips, $7.50 bounty)"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (parsed,) = list(pokerkit.HandHistory.from_pokerstars(text, error_status=True))
    assert list(parsed.starting_stacks) == [5000, 5000, 5000]


def test_the_header_time_has_pokerstars_eastern_time_in_brackets_winter_and_summer() -> None:
    # issue 26: the header ended in UTC and pokerdf read no time ('HandStartTimeCET Unknown'); PokerStars
    # always writes "[… ET]" (the hour unpadded), and the summary's times the same way
    assert eastern_time(datetime(2026, 12, 5, 6, 8, 3, tzinfo=UTC)) == "2026/12/05 1:08:03"
    assert eastern_time(datetime(2026, 7, 4, 16, 0, 0, tzinfo=UTC)) == "2026/07/04 12:00:00"
    assert eastern_time(datetime(2026, 11, 1, 5, 59, tzinfo=UTC)) == "2026/11/01 1:59:00"  # still summer time
    assert eastern_time(datetime(2026, 11, 1, 6, 0, tzinfo=UTC)) == "2026/11/01 1:00:00"  # clocks went back


def test_the_bust_hand_says_who_finished_where_what_he_received_and_which_bounty_he_took() -> None:
    hand = TournamentHand(TournamentInfo(7, 100, 10, 50), level=3, table_number=1,
                          taken=(BountyTaken("Ann", "Bob", 25), BountyTaken("Ann", "Cy", 12, 13, 38)),
                          finished=(Finished("Ann", 1, 300), Finished("Cy", 2, 60), Finished("Bob", 3, 40)))
    lines = pokerstars_text(small_hand().events, CONFIG, PLAN, hand_id=9, players=NAMES, seat_count=9,
                            played_at=WHEN, tournament=hand).splitlines()
    summary = lines.index("*** SUMMARY ***")
    assert lines[summary - 5:summary] == [
        "Ann wins the 25 bounty for eliminating Bob",
        "Ann wins 12 for eliminating Cy and their own bounty increases by 13 to 38",
        "Bob finished the tournament in 3rd place and received 40.",
        "Cy finished the tournament in 2nd place and received 60.",
        "Ann wins the tournament and receives 300 - congratulations!",
    ]


def test_pokerdf_reads_a_tournament_hand_its_ranks_prizes_bounties_and_time(tmp_path: Path) -> None:
    read_and_convert = pytest.importorskip("pokerdf.core.read_and_convert")
    hand = TournamentHand(TournamentInfo(7, 100, 10, 50), level=3, table_number=1, bounties={0: 50, 1: 50, 2: 50},
                          taken=(BountyTaken("Ann", "Bob", 25),),
                          finished=(Finished("Ann", 1, 300), Finished("Bob", 2, 100)))
    text = pokerstars_text(small_hand().events, CONFIG, PLAN, hand_id=9, players=NAMES, seat_count=9,
                           played_at=WHEN, tournament=hand)
    path = tmp_path / "HH one.txt"
    path.write_text(text, encoding="utf-8")
    frame = read_and_convert.convert_txt_to_tabular_data(str(path)).set_index("Player")
    assert set(frame["TournID"]) == {"7"} and set(frame["Level"]) == {"III"}
    assert str(frame["HandStartTimeCET"].iloc[0]) == "2026-12-01 19:00:00"  # 13:00 ET is 19:00 CET
    assert list(frame["Blinds"].iloc[0]) == [50.0, 100.0] and list(frame["Stack"]) == [5_000.0] * 3
    assert set(frame["Bounty"]) == {50.0}
    assert (frame.loc["Ann", "FinalRank"], frame.loc["Ann", "Prize"]) == (1, 300.0)
    assert (frame.loc["Bob", "FinalRank"], frame.loc["Bob", "Prize"]) == (2, 100.0)
    assert frame.loc["Ann", "BountyWon"] == 25.0 and frame.loc["Cy", "FinalRank"] == -1


def test_a_knockouts_summary_lists_the_bounties_won() -> None:
    text = summary_text(TournamentInfo(8, 100, 10, 20), "No Limit Hold'em", entrants=3, prize_pool=300,
                        started_at=WHEN, finishes=[Finish(1, "ann", 300), Finish(2, "bob"), Finish(3, "cy")],
                        player="ann", bounties={"ann": 45, "bob": 15, "cy": 0})
    lines = text.splitlines()
    assert lines[5:11] == ["  1: ann, 300 (100%)", "  2: bob,", "  3: cy,", "Bounties won:", "  ann, 45", "  bob, 15"]
    assert lines[-1] == "You won 45 in bounties."
