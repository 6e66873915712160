"""Telesina with worked numbers: the vela, five betting rounds, the heads-up exception per pot (R-RANK-6)."""

from __future__ import annotations

from engine.actions import BetOrRaise, BringIn, Call, Check, Fold
from engine.cards import parse_cards
from engine.evaluate import telesina_category, telesina_strength
from engine.events import BettingRoundStarted, BoardDealt, PotAwarded
from engine.hand import ForcedBets, Hand, HandConfig
from engine.rake import WHITE_LABEL_DEFAULT
from engine.structures import BettingStructure
from engine.variants import TELESINA
from tests.engine.deal_helpers import stacked_deck

LIMIT = BettingStructure.fixed_limit(100, 200)
PLAN = ForcedBets(button_seat=2, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                  ante=10, bring_in=25)
# Seat 0: junk (two pair with the vela); seat 1: the royal flush in hearts; seat 2: A-7-8-9-T of spades.
HANDS = ["7c Kc 7d 8c 8d", "Ah Kh Qh Jh Th", "As Ts 7s 8s 9s"]


def _check_down(hand: Hand) -> None:
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Check() if legal.can_check else Call())


def test_vela_and_five_betting_rounds_and_exception_only_heads_up() -> None:
    deck = stacked_deck(TELESINA, HANDS, board="9c")
    hand = Hand.start(HandConfig(TELESINA, LIMIT), {0: 60, 1: 1000, 2: 1000}, deck, PLAN)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1  # up cards Kc, Kh, Ts: Kh (hearts over clubs) brings in
    hand.act(1, BringIn())
    hand.act(2, BetOrRaise(100))
    hand.act(0, Call())  # all-in for 50 more
    hand.act(1, Call())
    _check_down(hand)
    rounds = [event.street for event in hand.events if isinstance(event, BettingRoundStarted)]
    assert rounds == ["second", "third", "fourth", "fifth", "vela"]
    vela = [event for event in hand.events if isinstance(event, BoardDealt)]
    assert [str(card) for card in vela[0].cards] == ["9c"] and vela[0].street == "vela"
    awards = [(event.pot_index, event.seat, event.amount) for event in hand.events if isinstance(event, PotAwarded)]
    # Side pot 100 (seats 1 and 2 only): heads-up, the lowest straight flush beats the royal flush.
    # Main pot 180 (3 antes + 3 x 50): three players contest it, the royal flush wins (R-RANK-6).
    assert awards == [(1, 2, 100), (0, 1, 180)]
    assert hand.final_stacks() == {0: 0, 1: 1070, 2: 990}


def test_heads_up_pot_lowest_straight_flush_wins() -> None:
    deck = stacked_deck(TELESINA, HANDS[1:], board="9c")
    plan = ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=25)
    hand = Hand.start(HandConfig(TELESINA, LIMIT), {0: 1000, 1: 1000}, deck, plan)
    hand.act(0, BringIn())
    hand.act(1, Call())
    _check_down(hand)
    assert hand.final_stacks() == {0: 965, 1: 1035}


def test_telesina_is_raked_even_before_the_vela() -> None:
    deck = stacked_deck(TELESINA, HANDS[1:], board="9c")
    plan = ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=25)
    hand = Hand.start(HandConfig(TELESINA, LIMIT, rake=WHITE_LABEL_DEFAULT), {0: 1000, 1: 1000}, deck, plan)
    hand.act(0, BringIn())
    hand.act(1, BetOrRaise(100))
    hand.act(0, Call())
    hand.act(0, BetOrRaise(100))
    hand.act(1, Fold())
    # Pot 220 (2 antes + 2 x 100; the uncalled 100 returned): 2.5 % = 5 chips, not "no flop, no drop" (R-RAKE-1).
    assert hand.rake == 5 and hand.final_stacks() == {0: 1105, 1: 890}


# ---------------------------------------------------------------- Telesina's own ties (R-RANK-5, turn 2)


def _heads_up_check_down(hands: list[str], vela: str) -> dict[int, int]:
    """Seat 0 brings in 25 (or seat 1, whoever the cards say), the other calls; checked down; the awards."""
    deck = stacked_deck(TELESINA, hands, board=vela)
    plan = ForcedBets(button_seat=1, small_blind_seat=None, small_blind=0, big_blind_seat=None, big_blind=0,
                      ante=10, bring_in=25)
    hand = Hand.start(HandConfig(TELESINA, LIMIT), {0: 1000, 1: 1000}, deck, plan)
    legal = hand.legal_actions()
    assert legal is not None
    hand.act(legal.seat, BringIn())
    _check_down(hand)
    won: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, PotAwarded):
            won[event.seat] = won.get(event.seat, 0) + event.amount
    return won


def test_telesina_high_card_compares_rank_and_suit_card_by_card() -> None:
    # The section's example: A♥ Q♣ beats A♦ K♣.
    assert telesina_strength(parse_cards("Ah Qc Tc 8s 7d")) > telesina_strength(parse_cards("Ad Kc Jd 9s 7s"))
    # At the table, vela 9♠ (nobody holds a ten: no straight): A♥ Q♣ J♦ 9♠ 8♠ against A♦ K♣ Q♦ 9♠ 8♥.
    # Pot 2 x 10 antes + 2 x 25 = 70 to the ace of hearts (the engine gave it to A♦ K♣).
    assert _heads_up_check_down(["Ah Qc Jd 8s 7c", "Ad Kc 8h 7d Qd"], "9s") == {0: 70}


def test_telesina_flush_beats_flush_by_the_higher_suit_not_by_rank() -> None:
    hearts = telesina_strength(parse_cards("7h 8h 9h Jh Qh"))
    spades = telesina_strength(parse_cards("As Ks Qs Js 9s"))
    assert hearts > spades
    assert telesina_strength(parse_cards("7d 8d 9d Jd Qd")) > telesina_strength(parse_cards("Ac Kc Qc Jc 9c"))
    assert telesina_category(hearts) == "flush"
    assert spades > telesina_strength(parse_cards("Ah Ad Ac Kh Kd"))  # a flush still beats a full house
    # At the table: the diamond flush (Q-high) beats the club flush (A-high). Vela 7♠.
    assert _heads_up_check_down(["Qd Td 9d 8d 7d", "Ac Kc Jc 9c 8c"], "7s") == {0: 70}


def test_telesina_pair_highest_kicker_then_its_suit() -> None:
    # Both pair the vela 7♥: kickers A♥ Q♣ T♣ against A♦ K♣ J♦ — the ace's suit decides, not the king.
    assert _heads_up_check_down(["Ah Qc Tc 8s 7d", "Ad Kc Jd 9s 7s"], "7h") == {0: 70}
    # The highest kicker's rank first (an ace of spades beats a king of hearts), then its suit (A♥ Q♥ beats A♠ K♠).
    assert telesina_strength(parse_cards("9c 9d As Qs 8s")) > telesina_strength(parse_cards("9h 9s Kh Qh 8h"))
    assert telesina_strength(parse_cards("9h 9s Ah Qh 8h")) > telesina_strength(parse_cards("9c 9d As Ks 8s"))
    # A higher pair wins whatever the kickers.
    assert telesina_strength(parse_cards("Tc Ts 9s 8s 7c")) > telesina_strength(parse_cards("9h 9d Ah Kh Qh"))


def test_telesina_two_pair_vela_kicker_goes_to_the_higher_suit_of_the_top_pair() -> None:
    # K♥K♦ 9♥9♦ and K♣K♠ 9♣9♠, the vela A♠ is both kickers: the top pair with hearts wins.
    assert _heads_up_check_down(["Kh Kd 9h 9d 8c", "Kc Ks 9c 9s 8d"], "As") == {0: 70}
    # Equal pairs, different kicker ranks: the higher kicker wins whatever the suits.
    assert telesina_strength(parse_cards("Kc Ks 9c 9s As")) > telesina_strength(parse_cards("Kh Kd 9h 9d Qh"))


def test_telesina_straight_by_top_card_then_its_suit() -> None:
    assert telesina_strength(parse_cards("Kh Qc Js Tc 9c")) > telesina_strength(parse_cards("Kd Qh Jh Th 9h"))
    assert telesina_strength(parse_cards("Ks Qc Js Tc 9c")) > telesina_strength(parse_cards("Qh Jh Th 9d 8h"))


def test_telesina_hand_names_name_the_deciding_suit() -> None:
    # issue 26 item 8, R-RANK-7: where a suit decides, the name says it (before: "flush, queen high" against
    # "flush, ace high" read as if the lower flush won)
    ranking = TELESINA.hand_ranking
    hearts = telesina_strength(parse_cards("7h 8h 9h Jh Qh"))
    spades = telesina_strength(parse_cards("As Ks Qs Js 9s"))
    assert ranking.name(hearts, [spades]) == "flush of hearts, queen high"
    assert ranking.name(spades, [hearts]) == "flush of spades, ace high"
    ace_hearts = telesina_strength(parse_cards("Ah Qc Tc 8s 7d"))
    ace_diamonds = telesina_strength(parse_cards("Ad Qd Tc 8s 7d"))
    assert ranking.name(ace_hearts, [ace_diamonds]) == "ace-queen-ten-eight-seven high, the ace of hearts decides"
    # A♥ Q♣ beats A♦ K♣ (card by card, rank then suit): the ace's suit decides, not the queen
    assert ranking.name(ace_hearts, [telesina_strength(parse_cards("Ad Kc Jd 9s 7s"))]) == \
        "ace-queen high, the ace of hearts decides"
    assert ranking.name(ace_hearts, [telesina_strength(parse_cards("Kd Qd Tc 8s 7d"))]) == "ace high"
    straight = telesina_strength(parse_cards("Jh Tc 9c 8s 7d"))
    assert ranking.name(straight, [telesina_strength(parse_cards("Jd Ts 9s 8c 7c"))]) == \
        "straight, jack high, hearts decide"
