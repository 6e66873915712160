"""What a tournament's announcements say on the player's screen (issue 18 "Playing": hand-for-hand is announced,
the final table is announced): the director's events through the room's messages (who hears them, their wire
form) to the words the app shows and writes in the table's log."""

from __future__ import annotations

from engine.tournament.events import FinalTable, HandForHand
from hosting.tournament_messages import event_messages
from tests.hosting.test_tournament_messages import _owner
from tui.tournament_book import TournamentBook, event_words, read_event
from tui.tournament_lobby import TABLE_NOTES


def test_hand_for_hand_and_the_final_table_reach_every_entrant_in_words() -> None:
    owner = _owner(12)  # 12 entrants at two tables
    entrants = {entry.player for entry in owner.director.entries.values()}
    events = [HandForHand(True), HandForHand(False), FinalTable(1, 9)]
    heard = list(event_messages(owner, events, None))
    assert {name for name, _ in heard} == entrants and len(heard) == 3 * len(entrants)
    book = TournamentBook(me="p1")
    book.set_rows([{"id": "t", "name": "Sunday 100"}])
    said = [event_words(book, "t", read_event(message["event"])) for name, message in heard if name == "p1"]
    assert said == ["Sunday 100: hand-for-hand play — every table plays one hand, then waits.",
                    "Sunday 100: hand-for-hand play is over.",
                    "Sunday 100: the final table — 9 players at table 1."]
    kinds = {read_event(message["event"]).get("kind") for _, message in heard}
    assert kinds == {"hand_for_hand", "final_table"} and kinds <= TABLE_NOTES  # also in the tables' logs


def test_out_in_a_shootout_round_the_player_is_no_longer_playing_and_learns_his_place_at_the_rounds_end() -> None:
    # issue 26: a shootout round's busts have no place until the round ends (ranked); the client took such a
    # player for one still playing (only an eliminated event with a place ended it)
    book = TournamentBook(me="p3")
    book.set_rows([{"id": "t", "name": "Shootout"}])
    book.playing.add("t")
    book.event("t", {"kind": "eliminated", "player": "p3", "place": None, "by": ["p1"], "tied": 2}, 0.0)
    assert "t" not in book.playing and "t" not in book.places
    book.event("t", {"kind": "ranked", "player": "p3", "place": 5}, 1.0)
    assert book.places["t"] == 5
    assert event_words(book, "t", {"kind": "ranked", "player": "p3", "place": 5}) == "Shootout: you finished 5th."
