"""The small tournament the stored-state fixtures hold (``tests/hosting/fixtures/tournament_state/``): a progressive
knockout Sit & Go of four — two registered when the snapshot is taken, then steps: a ticket entry, the fourth
entry (the start: seats drawn), a draw's proof kept, a hand the room deals and plays (a real engine hand: the
first to act moves all in, the next calls, the others fold), a tick.

The same play wrote both fixtures: ``legacy_*.pickle`` with croupier cda8350 (pickled, before issue 28) and
``*_v1.json`` in format version 1 (``python -m tests.hosting.tournament_state_fixture`` writes the latter again; do
not, once the format moved on: the point is a state written by the version before)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.actions import Action, BetOrRaise, Call, Check, Fold, Show
from engine.button import Positions
from engine.cards import full_deck, parse_cards
from engine.events import Event, HandEnded
from engine.hand import Hand, HandConfig
from engine.tournament.bounties import BountySettings
from engine.tournament.director import Tournament
from engine.tournament.formats import Format
from engine.tournament.journal import Call as NotedCall
from engine.tournament.journal import Journal
from engine.tournament.levels import Break, Level
from engine.tournament.money import Balance, EntryPrice, Ticket
from engine.tournament.settings import TournamentSettings
from engine.tournament.table import TournamentTable

FIXTURES = Path(__file__).parent / "fixtures" / "tournament_state"
SETTINGS = TournamentSettings("night", Format.SIT_AND_GO, sit_and_go_size=4, max_players=4, seats_per_table=4,
                              price=EntryPrice(100, 10, knockout=20), starting_stack=1_000,
                              schedule=(Level(10, 20, duration=300), Break(60), Level(20, 40, duration=300)),
                              bounties=BountySettings(progressive=True))
_ORDER = parse_cards("2c 7d 9h As 3c 8d Th Ad Kc Qd 5s 6h 2d")
DECK = [*_ORDER, *(card for card in full_deck() if card not in _ORDER)]
"""Dealt from the seat after the button: the fourth seat dealt (the button, who calls the shove) holds aces."""
PROOF = {"draw_id": "seats:night", "outcome": 0, "secrets": {"ann": "00"}}


def first(choices: int) -> int:
    """The fixtures' draw: always the first choice (seats 0, 1, 2, 3 in entry order)."""
    return 0


def _room_hand(director: Tournament, table: TournamentTable) -> tuple[dict[int, int], list[Event], Positions]:
    level = director.level
    plan = table._plan(min(table.seats))
    assert plan is not None
    forced = level.forced_bets(button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat,
                               big_blind_seat=plan.big_blind_seat)
    hand = Hand.start(HandConfig(table.variant, level.structure(table.structure)),
                      {seat: table.seats[seat].stack for seat in plan.dealt_in}, DECK, forced)
    acted = 0
    while not hand.is_over:
        options = hand.legal_actions()
        assert options is not None
        action: Action
        if options.can_show:
            action = Show()
        elif acted == 0 and options.max_raise_to is not None:
            action = BetOrRaise(options.max_raise_to)
        elif acted == 1 and options.call_amount is not None:
            action = Call()
        else:
            action = Check() if options.can_check else Fold()
        hand.act(options.seat, action)
        acted += 1
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    return dict(ended.stacks), list(hand.events), plan.positions


def play(snapshot: Callable[[Tournament], None], step: Callable[[list[NotedCall]], None]) -> Tournament:
    """Play the fixture's tournament; ``snapshot`` keeps the director once, ``step`` each step's calls after it."""
    director = Tournament(SETTINGS, first)
    journal = Journal()
    director.journal = journal
    director.open_registration(0.0)
    director.register("ann", Balance(), 1.0)
    director.register("bob", Balance(), 2.0)
    journal.take()
    snapshot(director)
    director.register("cy", Ticket(130, "t-1", "night"), 3.0)
    step(journal.take())
    director.register("dee", Balance(), 4.0)
    director.keep_proof(dict(PROOF))
    step(journal.take())
    (table,) = director.tables.values()
    director.prepare_hand(table.number, 10.0)
    director.hand_dealt(table.number, [seated.entry for seated in table.seats.values()])
    step(journal.take())
    final, events, positions = _room_hand(director, table)
    director.hand_played(table.number, final, events, 20.0, positions)
    director.tick(30.0)
    step(journal.take())
    return director


def write_version_1() -> None:
    from hosting.tournament_state import encode_calls, encode_snapshot

    steps: list[bytes] = []
    states: list[bytes] = []
    play(lambda director: states.append(encode_snapshot(director)), lambda calls: steps.append(encode_calls(calls)))
    FIXTURES.mkdir(parents=True, exist_ok=True)
    (FIXTURES / "snapshot_v1.json").write_bytes(states[0] + b"\n")
    (FIXTURES / "steps_v1.json").write_bytes(b"\n".join(steps) + b"\n")


if __name__ == "__main__":
    write_version_1()
