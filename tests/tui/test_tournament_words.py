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
