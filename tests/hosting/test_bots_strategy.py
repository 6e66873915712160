"""The practice bots' strategy (hosting.strategy): equity against reference numbers, sensible choices, and
whole hands of every game of the engine played by bots of every style, each move legal, chips conserved."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, Muck, Show
from engine.cards import parse_cards
from engine.events import view_for
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import VARIANTS, ForcedBetKind
from hosting.strategy import STYLES, HandView, Tracker, decide, discards, equity


def view(game: str, mine: str, board: str = "", opponents: int = 1, pot: int = 3) -> HandView:
    return HandView(VARIANTS[game], list(parse_cards(mine)), list(parse_cards(board)) if board else [],
                    opponents=opponents, pot=pot)


def test_equity_matches_known_preflop_numbers() -> None:
    # well-known heads-up all-in equities against a random hand: AA 85.2 %, 72o 34.6 %
    rng = random.Random(7)
    assert equity(view("texas_holdem", "As Ad"), rng, samples=4000) == pytest.approx(0.852, abs=0.02)
    assert equity(view("texas_holdem", "7c 2d"), rng, samples=4000) == pytest.approx(0.346, abs=0.02)


def test_equity_made_hands_and_hi_lo() -> None:
    rng = random.Random(3)
    # the nut flush on the river loses only to boards pairing into full houses / quads — none here
    assert equity(view("texas_holdem", "Ah 2h", "Kh Qh 7h 4c 9s"), rng, samples=500) > 0.97
    # A-2 with a made low on the river in Omaha Hi/Lo scoops or quarters: at least half the pot on average
    share = equity(view("omaha_hi_lo", "As 2s Kd Qd", "3c 4h 8s Jc Jd"), rng, samples=500)
    assert 0.5 <= share <= 0.8
    # 2-7: the best hand (7-5-4-3-2) is never beaten
    assert equity(view("deuce_to_seven_triple_draw", "2c 3d 4h 5s 7c"), rng, samples=300) == 1.0


@pytest.mark.parametrize("game", list(VARIANTS))
def test_equity_runs_for_every_game(game: str) -> None:
    variant = VARIANTS[game]
    deck = list(variant.deck)
    own = min(variant.hole_card_count, 5) if not variant.has_board else variant.hole_card_count
    share = equity(HandView(variant, deck[-own:], opponents=2), random.Random(1), samples=50)
    assert 0.0 <= share <= 1.0


def test_strong_hands_raise_weak_hands_fold_to_a_big_bet() -> None:
    legal = {"can_fold": True, "call_amount": 40, "min_raise_to": 80, "max_raise_to": 200, "is_bet": False}
    rng = random.Random(11)
    for style in STYLES.values():
        strong = decide(legal, view("texas_holdem", "As Ad", "Ac Kd 7s", opponents=1, pot=50), style, rng)
        assert strong["kind"] == "raise_to" and 80 <= strong["amount"] <= 200
        weak = [decide(legal, view("texas_holdem", "7c 2d", "As Kd Qs", opponents=3, pot=50), style, rng)["kind"]
                for _ in range(20)]
        assert weak.count("fold") >= 15, (style.name, weak)  # a few bluff-raises allowed, never a call


def test_pot_odds_call_a_tiny_bet_with_a_draw() -> None:
    # a flush draw (about 35 % to win) facing 1 chip into a 60-chip pot: the price is right, call
    legal = {"can_fold": True, "call_amount": 1, "min_raise_to": 4, "max_raise_to": 200, "is_bet": False}
    move = decide(legal, view("texas_holdem", "8h 9h", "2h Kh 4c", opponents=1, pot=60), STYLES["tight"],
                  random.Random(5))
    assert move["kind"] in ("call", "raise_to")


def test_aggressive_bluffs_more_than_tight() -> None:
    legal = {"can_check": True, "min_raise_to": 2, "max_raise_to": 200, "is_bet": True}
    weak = view("texas_holdem", "7c 2d", "As Kd Qs", opponents=2, pot=20)

    def bets(style: str) -> int:
        rng = random.Random(2)
        return sum(decide(legal, weak, STYLES[style], rng, samples=20)["kind"] == "bet" for _ in range(400))

    assert bets("aggressive") > bets("tight") > 0


def test_discards_keep_pairs_and_low_cards() -> None:
    assert [str(card) for card in discards(view("five_card_draw", "As Ad 7c 8d 2h"), 3)] == ["2h", "7c", "8d"]
    assert [str(card) for card in discards(view("deuce_to_seven_triple_draw", "2c 3d 7h Ks Kc"), 5)] == [
        "Ks", "Kc"]


def engine_action(move: dict[str, Any], legal: LegalActions) -> Any:
    kind = move["kind"]
    if kind in ("bet", "raise_to"):
        return BetOrRaise(move["amount"])
    if kind == "draw":
        return Draw(tuple(parse_cards(" ".join(move["discard"]))) if move["discard"] else ())
    return {"fold": Fold(), "check": Check(), "call": Call(), "bring_in": BringIn(), "show": Show(),
            "muck": Muck()}[kind]


def legal_fields(legal: LegalActions) -> dict[str, Any]:
    names = ("can_fold", "can_check", "call_amount", "min_raise_to", "max_raise_to", "is_bet", "bring_in_amount",
             "max_discards", "can_show", "can_muck")
    return {name: getattr(legal, name) for name in names}


def play_hand(game: str, rng: random.Random, stacks: dict[int, int]) -> tuple[Hand, dict[str, int]]:
    variant = VARIANTS[game]
    structure = BettingStructure.fixed_limit(4) if variant.forced_bets is ForcedBetKind.ANTE_BRING_IN else \
        BettingStructure.pot_limit()
    deck = list(variant.deck)
    rng.shuffle(deck)
    if variant.forced_bets is ForcedBetKind.ANTE_BRING_IN:
        forced = ForcedBets(button_seat=0, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=4,
                            ante=1, bring_in=1)
    else:
        forced = ForcedBets(button_seat=0, small_blind_seat=1, small_blind=1, big_blind_seat=2, big_blind=2)
    hand = Hand.start(HandConfig(variant, structure), stacks, deck, forced)
    styles = list(STYLES.values())
    kinds: dict[str, int] = {}
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        seat = legal.seat
        seen = {card for other in hand.seats if other != seat for card in hand.up_cards(other)}
        mine = list(hand.hole_cards(seat))
        board = list(hand.board)
        pot = sum(stacks.values()) - sum(hand.stacks().values())
        opponents = sum(hand.in_hand(other) for other in hand.seats if other != seat)
        position = HandView(variant, mine, board, seen, max(opponents, 1), pot)
        move = decide(legal_fields(legal), position, styles[seat % len(styles)], rng, samples=30)
        kinds[move["kind"]] = kinds.get(move["kind"], 0) + 1
        hand.act(seat, engine_action(move, legal))  # raises if the move were illegal
    assert sum(hand.final_stacks().values()) + hand.rake == sum(stacks.values())  # chips conserved
    return hand, kinds


@pytest.mark.parametrize("game", list(VARIANTS))
def test_bots_play_whole_hands_of_every_game(game: str) -> None:
    rng = random.Random(hash(game) & 0xFFFF)
    players = min(4, VARIANTS[game].max_players)
    totals: dict[str, int] = {}
    for _ in range(25):
        _, kinds = play_hand(game, rng, {seat: 200 for seat in range(players)})
        for kind, count in kinds.items():
            totals[kind] = totals.get(kind, 0) + count
    assert totals.get("fold", 0) > 0, totals  # weak hands are thrown away
    assert totals.get("bet", 0) + totals.get("raise_to", 0) > 0, totals  # strong ones bet
    if VARIANTS[game].has_draws:
        assert totals.get("draw", 0) > 0, totals


@pytest.mark.parametrize("game", ["texas_holdem", "seven_card_stud", "deuce_to_seven_triple_draw"])
def test_tracker_sees_what_the_engine_holds_at_every_decision(game: str) -> None:
    """The bots' Tracker reads the one reducer (engine.view): at each of its decisions a bot's view holds its own
    cards as the engine does, the board, the pot, the opponents still in and the others' up cards it saw."""
    variant = VARIANTS[game]
    stud = game == "seven_card_stud"
    rng = random.Random(game)
    for _ in range(20):
        deck = list(variant.deck)
        rng.shuffle(deck)
        plan = ForcedBets(button_seat=3, small_blind_seat=None if stud else 0, small_blind=0 if stud else 1,
                          big_blind_seat=None if stud else 1, big_blind=2, ante=1 if stud else 0,
                          bring_in=1 if stud else 0)
        hand = Hand.start(HandConfig(variant, BettingStructure.fixed_limit(2)), dict.fromkeys(range(4), 60), deck,
                          plan)
        trackers = {seat: Tracker({"t": seat}.get, {"t": game}.__getitem__) for seat in range(4)}
        fed = dict.fromkeys(range(4), 0)
        while (legal := hand.legal_actions()) is not None:
            seat = legal.seat
            seen = view_for(hand.events, seat)
            for event in seen[fed[seat]:]:
                trackers[seat].on_event("t", event)
            fed[seat] = len(seen)
            position = trackers[seat].view("t")
            assert position.mine == list(hand.hole_cards(seat))
            assert position.board == list(hand.board)
            assert position.pot == hand.pot_total
            assert position.opponents == max(1, sum(hand.in_hand(other) for other in hand.seats if other != seat))
            assert {card for other in hand.seats if other != seat for card in hand.up_cards(other)} <= position.seen
            if legal.max_discards is not None:
                own = hand.hole_cards(seat)
                hand.act(seat, Draw(tuple(card for card in own if rng.random() < 0.3)[:legal.max_discards]))
            elif legal.bring_in_amount is not None:
                hand.act(seat, BringIn())
            else:
                choices = [Check() if legal.can_check else Call(), Fold()]
                if legal.min_raise_to is not None:
                    choices.append(BetOrRaise(legal.min_raise_to))
                hand.act(seat, rng.choice(choices))
