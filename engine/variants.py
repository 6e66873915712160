"""Each game as data (R-GAME-*, R-RANK-2, R-GAME-DECK).

A :class:`Variant` says which deck is used, what every street deals (face-down hole cards, face-up
cards, board cards, a draw), whether a betting round follows and at which fixed-limit size, how the
first bettor of the round is chosen, which forced bets the game uses, how hands are ranked (high,
deuce-to-seven, 32-card; hi/lo 8-or-better) and how many hole cards must be used. One state machine,
:class:`engine.hand.Hand`, plays every variant from this data; stud and draw games are rows of the same
type (their mechanics: ``Street.hole_up``, ``Street.draw``, ``Opening.BRING_IN``/``BEST_SHOWING``).

Deal order (R-BLIND-1, DESIGN.md "Fairness"): the deck is consumed front to back. A street's hole cards
go one at a time clockwise from the first seat left of the button, round after round (``hole_down``
rounds, then ``hole_up`` rounds); then the street's board cards. There are no burn cards: with a
committed shuffle a burn protects nothing, and 9-handed 5-card Omaha needs 50 of the 52 cards.

>>> OMAHA_FIVE_CARD.hole_card_count, OMAHA_FIVE_CARD.max_players
(5, 9)
>>> [street.name for street in TEXAS_HOLDEM.streets]
['preflop', 'flop', 'turn', 'river']
>>> five_card_omaha(must_use_hole=3).must_use_hole
3
>>> [street.name for street in SEVEN_CARD_STUD.streets]
['third', 'fourth', 'fifth', 'sixth', 'seventh']
>>> [(street.name, street.draw) for street in DEUCE_TO_SEVEN_TRIPLE_DRAW.streets]
[('predraw', 0), ('first_draw', 5), ('second_draw', 5), ('third_draw', 5)]
>>> len(TELESINA.deck), TELESINA.board_card_count, TELESINA.max_players
(32, 1, 6)

The four games of the public hand-record corpus added in issue 16 — Razz (``R-GAME-RZ``), 2-7 single draw
(``R-GAME-2S``), badugi (``R-GAME-BD``) and short-deck hold'em (``R-GAME-SD``) — have no RULES.md row yet: they
follow PokerKit, which RULES.md names the default where it is silent, and R-DRAW-1 / R-STUD-1 for their mechanics.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from engine.cards import Card, full_deck, short_deck

if TYPE_CHECKING:
    from engine.evaluate.ranking import HandRanking


class Opening(Enum):
    """Who opens a betting round (R-BET-ORDER, R-STUD-1)."""

    BLINDS = "blinds"
    """Left of the big blind (of the straddle, if any); the blind/straddler acts last with the option."""
    LEFT_OF_BUTTON = "left_of_button"
    """The first player still in the hand left of the button."""
    BRING_IN = "bring_in"
    """Stud first street: the bring-in player, by the variant's ``limit_bring_in`` / ``no_limit_bring_in``."""
    BEST_SHOWING = "best_showing"
    """Stud later streets: the best hand showing on the up cards, by the variant's ``showing_opener``."""
    LEFT_OF_BIG_BLIND = "left_of_big_blind"
    """The first player still in the hand after the big blind (32-card poker after the draw, R-DRAW-32)."""


class OpenerKind(Enum):
    """How a stud game picks a player by the up cards (R-STUD-1; PokerKit's openings of the same names). Suits
    break ties between cards: clubs < diamonds < hearts < spades, in 32-card games spades < clubs < diamonds <
    hearts; equal hands showing: the first player clockwise from the left of the button."""

    LOW_CARD = "low_card"
    """The lowest up card (limit 7-card stud's bring-in)."""
    HIGH_CARD = "high_card"
    """The highest up card (no-limit stud's, Americana's and Telesina's bring-in; Razz's, the king highest)."""
    LOW_HAND = "low_hand"
    """The lowest hand showing, aces low, pairs bad (Razz's later streets)."""
    HIGH_HAND = "high_hand"
    """The best hand showing: pairs, two pair, trips, quads, then the ranks (7-card stud's later streets)."""


class ForcedBetKind(Enum):
    """Which forced bets open the pot (R-BLIND-*, R-ANTE-1, R-STUD-1)."""

    BLINDS = "blinds"
    ANTE_BRING_IN = "ante_bring_in"


class Ranking(Enum):
    """How hands compare at showdown (R-RANK-1, R-RANK-4, R-RANK-5)."""

    HIGH = "high"
    DEUCE_TO_SEVEN = "deuce_to_seven"
    THIRTY_TWO_CARD = "thirty_two_card"
    BADUGI = "badugi"
    """Badugi: the most cards of different ranks and suits of four, then the lowest; aces low."""
    SHORT_DECK = "short_deck"
    """Short-deck (6+) hold'em: sixes to aces, a flush beats a full house, A-6-7-8-9 the lowest straight."""
    ACE_TO_FIVE = "ace_to_five"
    """Ace-to-five low without a qualifier (Razz): the lowest five cards win, aces low, straights and flushes
    do not count."""


class ThirtyTwoTies(Enum):
    """How a 32-card game breaks ties between equal hands (R-RANK-5, decision of turn 2: each game its own
    section of the Caradepoker rulebook)."""

    SUITS = "suits"
    """32-card draw: suits break every tie on the deciding card; pots never split."""
    SPLIT = "split"
    """Americana: equal hands split the pot."""
    TELESINA = "telesina"
    """Telesina's own list: flush by the higher suit; high card and pair kickers by rank and suit card by card."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: what is dealt, then (if ``betting``) one betting round.

    ``hole_down``/``hole_up``: cards dealt face down / face up to each player. ``board``: community cards.
    ``draw``: the most cards a player may exchange on this street (0: no draw). ``replaces``: a draw deals as
    many new cards as were discarded (True), or the street only discards (False: the player keeps fewer cards).
    ``big_bet``: the fixed-limit size is the big bet (R-BET-FL). ``opening``: who acts first in this street's round.
    """

    name: str
    hole_down: int = 0
    hole_up: int = 0
    board: int = 0
    draw: int = 0
    replaces: bool = True
    betting: bool = True
    big_bet: bool = False
    opening: Opening = Opening.LEFT_OF_BUTTON


@dataclass(frozen=True, slots=True)
class Variant:
    """A poker game as data.

    ``id``: stable identifier (``"texas_holdem"``…); ``name``: English title; ``rule``: the RULES.md id.
    ``deck``: the cards in play (52, 36 or 32). ``streets``: in order. ``forced_bets``: blinds or ante+bring-in.
    ``ranking``: which ranking (its one object, shared by showdown, bots and names: :attr:`hand_ranking`);
    ``low_eight``: the pot is split high / 8-or-better low (R-RANK-3, R-POT-2). ``must_use_hole``: exactly this
    many hole cards with ``5 - must_use_hole`` board cards (Omaha 2); ``None``: best five of all cards.
    ``min_players``/``max_players``: seat limits (R-GAME-DECK).
    ``split_offer``: after the last draw the players may agree to split the pots (R-STUD-2, 32-card poker).
    ``heads_up_exception``: a pot contested by exactly two players ranks the lowest straight flush above the
    royal flush (R-RANK-6, Telesina). ``thirty_two_ties``: how equal 32-card hands compare. ``showdown_opening``:
    who shows first when nobody bet on the last round (R-SHOW-1: left of the button; stud: the best hand showing;
    32-card poker: after the big blind, R-DRAW-32). ``draw_seconds``: the rulebooks' draw clock (R-DRAW-1: 30 s,
    2-7 24 s); 0 for games without draws. Stud openers (R-STUD-1, :class:`OpenerKind`): ``limit_bring_in`` under
    fixed and spread limit, ``no_limit_bring_in`` under no and pot limit, ``showing_opener`` on later streets and
    at the showdown. Names: ``name`` everywhere, ``short_name`` where a column is narrow (the lobby),
    ``history_name`` in PokerStars-style hand histories. ``default_structure``: the structure a practice table
    gets when none is asked for. ``phh_codes``: the PHH variant code of each structure PHH names (replays,
    exports).
    """

    id: str
    name: str
    rule: str
    streets: tuple[Street, ...]
    deck: tuple[Card, ...] = full_deck()
    forced_bets: ForcedBetKind = ForcedBetKind.BLINDS
    ranking: Ranking = Ranking.HIGH
    low_eight: bool = False
    must_use_hole: int | None = None
    min_players: int = 2
    max_players: int = 10
    split_offer: bool = False
    heads_up_exception: bool = False
    showdown_opening: Opening = Opening.LEFT_OF_BUTTON
    thirty_two_ties: ThirtyTwoTies = ThirtyTwoTies.SUITS
    draw_seconds: float = 0.0
    limit_bring_in: OpenerKind = OpenerKind.LOW_CARD
    no_limit_bring_in: OpenerKind = OpenerKind.HIGH_CARD
    showing_opener: OpenerKind = OpenerKind.HIGH_HAND
    short_name: str = ""
    history_name: str = ""
    default_structure: str = "fixed_limit"
    phh_codes: tuple[tuple[str, str], ...] = ()

    @property
    def hand_ranking(self) -> HandRanking:
        """The game's one ranking object (:mod:`engine.evaluate.ranking`): showdown, bots and hand names."""
        from engine.evaluate.ranking import ranking_for  # the evaluators' tables: built on first use

        return ranking_for(self.ranking.value, self.thirty_two_ties.value, self.must_use_hole, self.low_eight)

    @property
    def pokerstars_name(self) -> str:
        """The game's title in PokerStars-style hand histories: ``history_name``, else ``name``."""
        return self.history_name or self.name

    @property
    def display_short_name(self) -> str:
        """The name where a column is narrow (the lobby): ``short_name``, else ``name``."""
        return self.short_name or self.name

    @property
    def has_draws(self) -> bool:
        """Whether the game has draw rounds (R-DRAW-1)."""
        return any(street.draw for street in self.streets)

    @property
    def hole_card_count(self) -> int:
        """Own cards each player ends with (down + up), e.g. 2 for hold'em, 7 for stud."""
        return sum(street.hole_down + street.hole_up for street in self.streets)

    @property
    def board_card_count(self) -> int:
        """Community cards dealt over the whole hand (5 for hold'em and Omaha)."""
        return sum(street.board for street in self.streets)

    @property
    def hand_size(self) -> int:
        """Cards a hand is made of: five, or all of a player's cards when he gets fewer (badugi's four)."""
        return min(5, self.hole_card_count + self.board_card_count)

    @property
    def has_board(self) -> bool:
        """Whether the game uses community cards."""
        return self.board_card_count > 0

    def cards_needed(self, players: int) -> int:
        """Most cards a deal to ``players`` players can take, draws excluded (R-GAME-DECK).

        >>> TEXAS_HOLDEM.cards_needed(10)
        25
        """
        return players * self.hole_card_count + self.board_card_count


_HOLDEM_STREETS = (
    Street("preflop", hole_down=2, opening=Opening.BLINDS),
    Street("flop", board=3),
    Street("turn", board=1, big_bet=True),
    Street("river", board=1, big_bet=True),
)


def _omaha_streets(hole: int) -> tuple[Street, ...]:
    return (replace(_HOLDEM_STREETS[0], hole_down=hole), *_HOLDEM_STREETS[1:])


TEXAS_HOLDEM = Variant(
    "texas_holdem", "Texas Hold'em", "R-GAME-HE", _HOLDEM_STREETS, short_name="Hold'em", history_name="Hold'em",
    default_structure="no_limit", phh_codes=(("no_limit", "NT"), ("fixed_limit", "FT")),
)
OMAHA = Variant(
    "omaha", "Omaha", "R-GAME-O4", _omaha_streets(4), must_use_hole=2, default_structure="pot_limit",
    phh_codes=(("pot_limit", "PO"),),
)
OMAHA_FIVE_CARD = Variant(
    "omaha_five_card", "5-card Omaha", "R-GAME-O5", _omaha_streets(5), must_use_hole=2, max_players=9,
    history_name="5 Card Omaha", default_structure="pot_limit",
)
OMAHA_HI_LO = Variant(
    "omaha_hi_lo", "Omaha Hi/Lo 8-or-better", "R-GAME-O8", _omaha_streets(4), must_use_hole=2, low_eight=True,
    short_name="Omaha Hi/Lo", history_name="Omaha Hi/Lo", default_structure="pot_limit",
    phh_codes=(("fixed_limit", "FO/8"),),
)


# Short-deck (6+) hold'em (PokerKit's NoLimitShortDeckHoldem; RULES.md has no row yet): hold'em dealt from the
# 36 cards sixes to aces, no limit. The PHH records post antes and one blind, by the button (the engine's big blind).
SHORT_DECK_HOLDEM = Variant(
    "short_deck_holdem", "Short Deck Hold'em", "R-GAME-SD", _HOLDEM_STREETS,
    deck=tuple(card for card in full_deck() if card >> 2 >= 4), ranking=Ranking.SHORT_DECK, max_players=9,
    short_name="Short Deck", history_name="6+ Hold'em", default_structure="no_limit",
    phh_codes=(("no_limit", "NS"),),
)


def five_card_omaha(*, must_use_hole: int = 2) -> Variant:
    """5-card Omaha; ``must_use_hole=3`` is the 3 hole + 2 board house rule (R-RANK-2 decision).

    ``ValueError`` for any other count.
    """
    if must_use_hole not in (2, 3):
        raise ValueError(f"5-card Omaha uses 2 (standard) or 3 (house rule) hole cards, not {must_use_hole}")
    if must_use_hole == 2:
        return OMAHA_FIVE_CARD
    return replace(OMAHA_FIVE_CARD, id="omaha_five_card_3_hole", must_use_hole=3)


# Draw games (R-GAME-5D, R-GAME-27, R-GAME-32): five cards down, blinds; each draw street is a draw (in turn
# from the left of the button, R-DRAW-1) followed by a betting round opened left of the button (32-card poker:
# after the big blind, R-DRAW-32).
def _draw_streets(cards: int, draws: int) -> tuple[Street, ...]:
    """``cards`` dealt down before a betting round, then ``draws`` draws of up to as many cards, each followed by a
    betting round (big bets from the second draw on, R-BET-FL; a single draw's round is a big-bet round)."""
    names = ("draw",) if draws == 1 else ("first_draw", "second_draw", "third_draw")[:draws]
    return (Street("predraw", hole_down=cards, opening=Opening.BLINDS),
            *(Street(name, draw=cards, big_bet=draws == 1 or index > 0) for index, name in enumerate(names)))


FIVE_CARD_DRAW = Variant(
    "five_card_draw", "5-card Draw", "R-GAME-5D", _draw_streets(5, 1),
    max_players=6,
    draw_seconds=30.0,
    history_name="5 Card Draw",
)
DEUCE_TO_SEVEN_TRIPLE_DRAW = Variant(
    "deuce_to_seven_triple_draw", "2-7 Triple Draw", "R-GAME-27", _draw_streets(5, 3),
    ranking=Ranking.DEUCE_TO_SEVEN,
    max_players=6,
    draw_seconds=24.0,
    history_name="Triple Draw 2-7 Lowball",
    phh_codes=(("fixed_limit", "F2L3D"),),
)
# 2-7 single draw (PokerKit's NoLimitDeuceToSevenLowballSingleDraw; RULES.md has no row yet: R-GAME-27's draw and
# ranking rules with one draw): bet, draw 0-5, bet; played no limit.
DEUCE_TO_SEVEN_SINGLE_DRAW = Variant(
    "deuce_to_seven_single_draw", "2-7 Single Draw", "R-GAME-2S", _draw_streets(5, 1),
    ranking=Ranking.DEUCE_TO_SEVEN,
    max_players=6,
    draw_seconds=24.0,
    history_name="Single Draw 2-7 Lowball",
    default_structure="no_limit",
    phh_codes=(("no_limit", "N2L1D"),),
)
# Badugi (PokerKit's FixedLimitBadugi; RULES.md has no row yet): four cards, blinds, triple draw as in 2-7.
BADUGI = Variant(
    "badugi", "Badugi", "R-GAME-BD", _draw_streets(4, 3),
    ranking=Ranking.BADUGI,
    max_players=6,
    draw_seconds=24.0,
    phh_codes=(("fixed_limit", "FB"),),
)
THIRTY_TWO_CARD_DRAW = Variant(
    "thirty_two_card_draw", "32-card Draw", "R-GAME-32",
    (Street("predraw", hole_down=5, opening=Opening.BLINDS),
     Street("draw", draw=4, big_bet=True, opening=Opening.LEFT_OF_BIG_BLIND)),
    deck=short_deck(),
    ranking=Ranking.THIRTY_TWO_CARD,
    max_players=5,
    split_offer=True,
    showdown_opening=Opening.LEFT_OF_BIG_BLIND,
    draw_seconds=30.0,
)

# Stud games (R-GAME-S7, R-GAME-S8): antes and a bring-in; big bets from fifth street (R-BET-FL).
_STUD_STREETS = (
    Street("third", hole_down=2, hole_up=1, opening=Opening.BRING_IN),
    Street("fourth", hole_up=1, opening=Opening.BEST_SHOWING),
    Street("fifth", hole_up=1, big_bet=True, opening=Opening.BEST_SHOWING),
    Street("sixth", hole_up=1, big_bet=True, opening=Opening.BEST_SHOWING),
    Street("seventh", hole_down=1, big_bet=True, opening=Opening.BEST_SHOWING),
)
SEVEN_CARD_STUD = Variant(
    "seven_card_stud", "7-card Stud", "R-GAME-S7", _STUD_STREETS,
    forced_bets=ForcedBetKind.ANTE_BRING_IN, max_players=8, showdown_opening=Opening.BEST_SHOWING,
    history_name="7 Card Stud", phh_codes=(("fixed_limit", "F7S"),),
)
SEVEN_CARD_STUD_HI_LO = Variant(
    "seven_card_stud_hi_lo", "7-card Stud Hi/Lo 8-or-better", "R-GAME-S8", _STUD_STREETS,
    forced_bets=ForcedBetKind.ANTE_BRING_IN, low_eight=True, max_players=8, showdown_opening=Opening.BEST_SHOWING,
    short_name="7-card Stud Hi/Lo", history_name="7 Card Stud Hi/Lo", phh_codes=(("fixed_limit", "F7S/8"),),
)
# Razz (PokerKit's FixedLimitRazz; RULES.md has no row yet): stud's deal and betting, the ace-to-five low of the
# best five cards wins; the highest up card brings in (the king highest, the ace lowest; spades highest on a
# tie), the lowest hand showing opens the later streets and shows first.
RAZZ = Variant(
    "razz", "Razz", "R-GAME-RZ", _STUD_STREETS,
    forced_bets=ForcedBetKind.ANTE_BRING_IN, ranking=Ranking.ACE_TO_FIVE, max_players=8,
    showdown_opening=Opening.BEST_SHOWING, limit_bring_in=OpenerKind.HIGH_CARD, showing_opener=OpenerKind.LOW_HAND,
    phh_codes=(("fixed_limit", "FR"),),
)

# 32-card stud games (R-GAME-AM, R-GAME-TE): one down and one up, then three more up cards, each with a
# betting round; Telesina adds the community "vela" card and a fifth round. Big bets on the last two
# rounds of Americana and the last three of Telesina (the rulebooks give no sizes; hold'em's proportion).
_THIRTY_TWO_STUD_STREETS = (
    Street("second", hole_down=1, hole_up=1, opening=Opening.BRING_IN),
    Street("third", hole_up=1, opening=Opening.BEST_SHOWING),
    Street("fourth", hole_up=1, big_bet=True, opening=Opening.BEST_SHOWING),
    Street("fifth", hole_up=1, big_bet=True, opening=Opening.BEST_SHOWING),
)
AMERICANA = Variant(
    "americana", "Americana", "R-GAME-AM", _THIRTY_TWO_STUD_STREETS, deck=short_deck(),
    forced_bets=ForcedBetKind.ANTE_BRING_IN, ranking=Ranking.THIRTY_TWO_CARD, max_players=6,
    thirty_two_ties=ThirtyTwoTies.SPLIT, limit_bring_in=OpenerKind.HIGH_CARD,
)
TELESINA = Variant(
    "telesina", "Telesina", "R-GAME-TE",
    (*_THIRTY_TWO_STUD_STREETS, Street("vela", board=1, big_bet=True, opening=Opening.BEST_SHOWING)),
    deck=short_deck(), forced_bets=ForcedBetKind.ANTE_BRING_IN, ranking=Ranking.THIRTY_TWO_CARD, max_players=6,
    heads_up_exception=True, thirty_two_ties=ThirtyTwoTies.TELESINA, limit_bring_in=OpenerKind.HIGH_CARD,
)

VARIANTS: dict[str, Variant] = {
    variant.id: variant for variant in (
        TEXAS_HOLDEM, SHORT_DECK_HOLDEM, OMAHA, OMAHA_FIVE_CARD, OMAHA_HI_LO, FIVE_CARD_DRAW,
        DEUCE_TO_SEVEN_TRIPLE_DRAW, DEUCE_TO_SEVEN_SINGLE_DRAW, BADUGI, THIRTY_TWO_CARD_DRAW, SEVEN_CARD_STUD,
        SEVEN_CARD_STUD_HI_LO, RAZZ, AMERICANA, TELESINA,
    )
}
"""Every game the engine plays, by id."""


ROOM_SEAT_PRESETS: dict[str, dict[str, int]] = {
    "caradepoker": {
        "texas_holdem": 10, "omaha": 9, "omaha_hi_lo": 9, "five_card_draw": 6, "deuce_to_seven_triple_draw": 6,
        "seven_card_stud": 8, "seven_card_stud_hi_lo": 8, "americana": 6, "telesina": 6, "thirty_two_card_draw": 5,
    },
}
"""Seat counts of a rulebook's room, by game id (seeds/004, each game's "Número de jugadores"). The games allow
up to ``max_players`` seats; the Caradepoker room seats Omaha and Omaha Hi/Lo 9 (R-GAME-O4: 2–10, "one
rulebook: 2–9, a room preset")."""


def preset_seats(preset: str, variant_id: str) -> int:
    """The seat count of ``variant_id`` in the room preset ``preset``; ``KeyError`` saying what is missing.

    >>> preset_seats("caradepoker", "omaha"), OMAHA.max_players
    (9, 10)
    """
    seats = ROOM_SEAT_PRESETS.get(preset)
    if seats is None:
        raise KeyError(f"unknown seat preset {preset!r}; known: {', '.join(sorted(ROOM_SEAT_PRESETS))}")
    if variant_id not in seats:
        raise KeyError(f"the {preset} room has no {variant_id} tables")
    return seats[variant_id]


def variant_by_id(variant_id: str) -> Variant:
    """The variant with this id; ``KeyError`` naming the known ids otherwise."""
    try:
        return VARIANTS[variant_id]
    except KeyError:
        raise KeyError(f"unknown variant {variant_id!r}; known: {', '.join(sorted(VARIANTS))}") from None


def check_player_count(variant: Variant, players: int) -> None:
    """Raise ``ValueError`` if ``players`` cannot be dealt this game (R-GAME-DECK, seat limits).

    >>> check_player_count(OMAHA_FIVE_CARD, 10)
    Traceback (most recent call last):
    ...
    ValueError: 5-card Omaha is for 2 to 9 players, not 10
    """
    if not variant.min_players <= players <= variant.max_players:
        raise ValueError(f"{variant.name} is for {variant.min_players} to {variant.max_players} players, not {players}")
    if variant.cards_needed(players) > len(variant.deck) and variant.forced_bets is ForcedBetKind.BLINDS:
        raise ValueError(
            f"{variant.name} with {players} players needs {variant.cards_needed(players)} cards;"
            f" the deck has {len(variant.deck)}"
        )


def game_name(variant_id: str, short: bool = False) -> str:
    """The one display name of a game (lobby, hand history, CLI help), by id; an id this engine does not know
    (a newer room's game) is shown as its words.

    >>> game_name("deuce_to_seven_triple_draw"), game_name("texas_holdem", short=True), game_name("razz_hi")
    ('2-7 Triple Draw', "Hold'em", 'razz hi')
    """
    variant = VARIANTS.get(variant_id)
    if variant is None:
        return variant_id.replace("_", " ")
    return variant.display_short_name if short else variant.name
