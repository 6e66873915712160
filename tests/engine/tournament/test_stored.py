"""A director's state as typed records (engine.tournament.stored): written as JSON and read back it is the same
director — entries, seats in their order, stacks, money, settings down to a bounty's fraction and the game — and a
state with a hand running on the director's own table is refused, not half kept."""

from __future__ import annotations

from fractions import Fraction

import msgspec
import pytest

from engine.cards import full_deck
from engine.tournament.bounties import BountySettings
from engine.tournament.director import Tournament
from engine.tournament.formats import Format
from engine.tournament.levels import Break, Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import AddOn, PayoutKind, Rebuys, TournamentSettings
from engine.tournament.stored import TournamentRecord, director_of, record_of
from engine.variants import five_card_omaha
from tests.engine.tournament.helpers import LEVELS, first, running


def read_back(director: Tournament) -> Tournament:
    return director_of(msgspec.json.decode(msgspec.json.encode(record_of(director)), type=TournamentRecord), first)


def test_a_directors_state_reads_back_the_same() -> None:
    settings = TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=20, max_players=20, seats_per_table=9,
                                  price=EntryPrice(100, 10), starting_stack=1_000, schedule=LEVELS)
    director = running(settings, 20)
    director.entries[3].rebuys, director.entries[3].knocked_by = 2, (5, 7)
    table = director.tables[2]
    winner, loser = list(table.seats)[:2]
    table.seats[winner].stack, table.seats[loser].stack, table.seats[winner].absent = 1_250, 750, True  # a hand
    back = read_back(director)
    assert back.entries == director.entries and back.entries[3].knocked_by == (5, 7)
    assert {number: list(table.seats.items()) for number, table in back.tables.items()} == \
        {number: list(table.seats.items()) for number, table in director.tables.items()}  # in their order
    assert back.tables[2].seats[winner].stack == 1_250 and back.tables[2].seats[winner].absent
    assert back.cashier == director.cashier and back.live_count == 20 and back.chips_in_play() == 20_000
    assert back.cashier.pool == 2_000 and back.cashier.fees == 200
    assert record_of(back) == record_of(director) and back.journal is None


def test_every_setting_reads_back() -> None:
    settings = TournamentSettings(
        "mtt", Format.SCHEDULED, variant=five_card_omaha(must_use_hole=3), seats_per_table=6,
        price=EntryPrice(50, 5, knockout=25), starting_stack=3_000, start_time=3_600.0, password="owl",
        schedule=(Level(25, 50, duration=600), Break(300.0), Level(50, 100, big_blind_ante=100, duration=600)),
        late_registration_seconds=1_200.0, re_entries=1, rebuys=Rebuys(1_200.0, 3_000, 3_000, 50, 5, max_rebuys=2),
        add_on=AddOn(5_000, 50, 5, 300.0), guarantee=10_000, payout=PayoutKind.TABLE, payout_percentages=(60, 40),
        secondary_places=1, secondary_amount=200, secondary_description="a hoodie",
        bounties=BountySettings(progressive=True, progressive_share=Fraction(1, 3), named={"ann": 500}, pro_bounty=100,
                                pro_players=frozenset({"bob", "cy"})),
        time_limit_seconds=14_400.0, ticket_refund_as_money=True)
    back = read_back(Tournament(settings, first))
    assert back.settings == settings and back.settings.variant.must_use_hole == 3
    assert back.bounties.settings.progressive_share == Fraction(1, 3)
    spin = TournamentSettings("spin", Format.SPIN, sit_and_go_size=3, max_players=3, seats_per_table=3,
                              schedule=LEVELS)
    assert read_back(Tournament(spin, first)).settings == spin


def test_a_hand_running_on_the_directors_own_table_is_not_kept() -> None:
    settings = TournamentSettings("t", Format.SIT_AND_GO, sit_and_go_size=3, max_players=3, seats_per_table=3,
                                  price=EntryPrice(100, 10), starting_stack=1_000, schedule=LEVELS)
    director = running(settings, 3)
    director.start_hand(1, list(full_deck()), 1.0)
    with pytest.raises(ValueError, match="table 1 deals a hand of its own"):
        record_of(director)
