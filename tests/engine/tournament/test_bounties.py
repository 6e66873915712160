"""Bounties (R-TOUR-1; seed 000): knockout, progressive knockout, room bounties, split and re-entry."""

from __future__ import annotations

from engine.events import BetPlaced, Called, PotAwarded
from engine.tournament.bounties import Bounties, BountySettings, knockers
from engine.tournament.events import BountyWon, Eliminated
from engine.tournament.money import Balance, EntryPrice
from engine.tournament.settings import TournamentSettings
from tests.engine.tournament.helpers import LEVELS, of_type, play_hand, rigged_deck, running


def _ko(players: int, **changes: object) -> TournamentSettings:
    values: dict[str, object] = {"tournament_id": "ko", "start_time": 0.0, "schedule": LEVELS, "seats_per_table": 6,
                                 "starting_stack": 1_000, "price": EntryPrice(100, 10, knockout=100),
                                 "bounties": BountySettings()}
    values.update(changes)
    return TournamentSettings(**values)  # type: ignore[arg-type]


def test_knockout_bounty_goes_whole_to_the_eliminator() -> None:
    tournament = running(_ko(3), 3)
    assert tournament.cashier.bounty_fund == 300
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert of_type(events, BountyWon) == [BountyWon("p1", "p2", 100, "knockout")]
    assert tournament.cashier.bounty_fund == 200 and tournament.cashier.balanced()


def test_progressive_knockout_chain_and_the_winner_collects_his_own_head() -> None:
    bounties = Bounties(BountySettings(progressive=True))
    for entry in (1, 2, 3, 4):
        bounties.add_head(entry, f"p{entry}", 100)
    assert [(p.winner, p.amount, p.added_to_own) for p in bounties.knock_out(2, [1])] == [("p1", 50, 50)]
    assert bounties.heads[1] == 150
    assert [(p.winner, p.amount, p.added_to_own) for p in bounties.knock_out(1, [3])] == [("p3", 75, 75)]
    assert bounties.heads[3] == 175
    assert [(p.winner, p.amount, p.added_to_own) for p in bounties.knock_out(4, [3])] == [("p3", 50, 50)]
    assert [(p.winner, p.amount, p.kind) for p in bounties.collect_own(3)] == [("p3", 225, "own")]
    assert 50 + 75 + 50 + 225 == 4 * 100 and bounties.outstanding() == 0


def test_progressive_odd_unit_is_paid_not_kept() -> None:
    bounties = Bounties(BountySettings(progressive=True))
    bounties.add_head(1, "a", 101)
    bounties.add_head(2, "b", 100)
    (payment,) = bounties.knock_out(1, [2])
    assert (payment.amount, payment.added_to_own) == (51, 50)


def test_pko_in_a_played_tournament_pays_everything_to_the_end() -> None:
    tournament = running(_ko(2, bounties=BountySettings(progressive=True)), 2)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert of_type(events, BountyWon) == [BountyWon("p1", "p2", 50, "progressive", 50),
                                          BountyWon("p1", "p1", 150, "own")]
    assert tournament.cashier.bounty_fund == 0 and tournament.cashier.pool == 0 and tournament.cashier.balanced()


def test_split_pot_knockout_splits_the_bounty() -> None:
    bounties = Bounties(BountySettings())
    for entry in (1, 2, 3):
        bounties.add_head(entry, f"p{entry}", 101)
    assert [(p.winner, p.amount) for p in bounties.knock_out(2, [1, 3])] == [("p1", 51), ("p3", 50)]


def test_split_pot_in_a_real_hand_names_both_winners() -> None:
    tournament = running(_ko(3), 3)
    # p1 and p3 hold the same straight; p2 is out and both share his bounty.
    deck = rigged_deck(tournament, 1, {1: "As Kd", 3: "Ah Kc", 2: "2d 2h"}, "Qs Jh Tc 5d 4c")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2, 3})
    assert sorted((e.winner, e.amount) for e in of_type(events, BountyWon)) == [("p1", 50), ("p3", 50)]  # type: ignore[attr-defined]
    assert [e.by for e in of_type(events, Eliminated)] in ([("p1", "p3")], [("p3", "p1")])  # type: ignore[attr-defined]


def test_room_funded_bounty_on_a_named_player_and_a_pro() -> None:
    settings = _ko(3, bounties=BountySettings(named={"p2": 30}, pro_bounty=20, pro_players=frozenset({"p2"})))
    tournament = running(settings, 3)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    events = play_hand(tournament, 1, deck, 10, shovers={1, 2})
    assert of_type(events, BountyWon) == [BountyWon("p1", "p2", 100, "knockout"), BountyWon("p1", "p2", 30, "bounty"),
                                          BountyWon("p1", "p2", 20, "pro")]
    assert tournament.cashier.house_funded == 50 and tournament.cashier.balanced()


def test_re_entry_pays_a_new_bounty() -> None:
    settings = _ko(3, late_registration_seconds=900, re_entries=1)
    tournament = running(settings, 3)
    deck = rigged_deck(tournament, 1, {1: "As Ah", 2: "Kd Kc"}, "2c 7d 9h Js 3s")
    play_hand(tournament, 1, deck, 10, shovers={1, 2})
    tournament.register("p2", Balance(), 11)
    assert tournament.bounties.heads[4] == 100 and tournament.cashier.bounty_fund == 300  # 400 in, 100 paid


def test_knockers_side_pot_goes_to_the_side_pot_winner() -> None:
    # Seat 1 all in for 100 wins the main pot; seat 3 (400) loses the side pot to seat 4: seat 4 knocks him out.
    events = [BetPlaced(1, 100, 100, all_in=True), Called(2, 100), BetPlaced(3, 400, 400), Called(4, 400),
              PotAwarded(1, 4, 600), PotAwarded(0, 1, 400)]
    assert knockers(events, 3) == (4,)
    assert knockers(events, 2) == (1,)  # seat 2 put in only 100: his chips are in the main pot
