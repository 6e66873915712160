"""One ranking object per game: how its hands compare and what they are called (R-RANK-1 … R-RANK-7).

The showdown (:mod:`engine.hand_showdown` through :mod:`engine.showdown`), the practice bots
(``hosting.strategy``) and the hand names a player reads all ask the variant's :class:`HandRanking`
(``variant.hand_ranking``), so a new game is a variant row plus its ranking here, never a new branch in each.

Strengths are plain ints, higher is better (lows included). ``strength(hole, board)`` judges the best hand under
the game's must-use rule; ``low_strength`` the 8-or-better low half of a hi/lo game (0: no qualifying low).

>>> from engine.cards import parse_cards
>>> from engine.variants import RAZZ, TEXAS_HOLDEM
>>> razz = RAZZ.hand_ranking
>>> wheel, seven = (razz.strength(parse_cards(cards), ()) for cards in ("5c 4d 3h 2s Ac Kd Kh", "7c 5d 4h 3s 2c Kd Qh"))
>>> wheel > seven, razz.name(wheel), razz.name(seven, [wheel])
(True, 'five-four low', 'seven-five low')
>>> holdem = TEXAS_HOLDEM.hand_ranking
>>> holdem.name(holdem.strength(parse_cards("Jd As"), parse_cards("Jc 9c 4d 2s 7h")))
'pair of jacks'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.evaluate.ace_to_five import ace_to_five_classes, ace_to_five_strength
from engine.evaluate.badugi import badugi_name, badugi_ranks, badugi_strength
from engine.evaluate.classes import CATEGORY_NAMES, HIGH_CARD, STRAIGHT_FLUSH, HandClass
from engine.evaluate.deuce_to_seven import DEUCE_TO_SEVEN_CLASSES, deuce_to_seven_strength
from engine.evaluate.high import HIGH_CLASSES, high_strength, omaha_high_strength
from engine.evaluate.low import low_eight_strength, low_ranks, omaha_low_eight_strength
from engine.evaluate.names import (
    LOW_OWN_GROUPS,
    OWN_GROUPS,
    class_name,
    deuce_to_seven_name,
    groups,
    low_depth,
    low_words,
)
from engine.evaluate.short_deck import short_deck_classes, short_deck_strength
from engine.evaluate.thirty_two import (
    SUIT_CODE_SPAN,
    americana_strength,
    telesina_class_strength,
    telesina_strength,
    telesina_suit_words,
    thirty_two_classes,
    thirty_two_strength,
)


class HandRanking:
    """How one game ranks and names hands. Subclasses give :meth:`strength` and :meth:`hand_class`.

    ``lowball``: the lowest hand wins (2-7, Razz): a no-pair hand is named as a low ("seven-five low") and is a
    made hand. ``ace_low``: the ace is the lowest card (Razz; the stud opener reads it). ``has_low``: the pot is
    split with an 8-or-better low (:meth:`low_strength`).
    """

    __slots__ = ("_groups", "_names", "_plain", "ace_low", "has_low", "lowball", "must_use_hole")

    def __init__(self, *, lowball: bool = False, ace_low: bool = False, has_low: bool = False,
                 must_use_hole: int | None = None) -> None:
        self.lowball = lowball
        self.ace_low = ace_low
        self.has_low = has_low
        self.must_use_hole = must_use_hole
        self._names: dict[int, str] = {}
        self._plain: dict[int, str] = {}
        self._groups: dict[int, tuple[int, tuple[int, ...]]] = {}

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """The best hand of ``hole`` with ``board`` (ints, not validated); higher is better."""
        raise NotImplementedError

    def hand_class(self, strength: int) -> HandClass:
        """The suit-blind class of a strength (its category and ranks, for names)."""
        raise NotImplementedError

    def name(self, strength: int, rivals: Iterable[int | None] = ()) -> str:
        """The hand's name (R-RANK-7), naming as many kickers as it takes to tell it from ``rivals`` (the other
        hands shown for the pot, as strengths; ``None`` entries skipped). Cached by strength and depth: every
        pot awarded at a showdown names its winner this way."""
        category, mine = self._groups_of(strength)
        depth = LOW_OWN_GROUPS if self.lowball and category == HIGH_CARD else OWN_GROUPS[category]
        for rival in rivals:
            if rival is None:
                continue
            rival_category, theirs = self._groups_of(rival)
            if rival_category != category:
                continue
            # deciding_depth: one group past the last group shared with a rival (every group on a tie).
            shared = len(mine)
            for index, (own_group, rival_group) in enumerate(zip(mine, theirs, strict=False)):
                if own_group != rival_group:
                    shared = index
                    break
            if shared + 1 > depth:
                depth = shared + 1
        if depth > len(mine):
            depth = len(mine)
        key = strength << 3 | depth
        name = self._names.get(key)
        if name is None:
            own = self.hand_class(strength)
            name = deuce_to_seven_name(own, depth) if self.lowball else class_name(own, depth)
            if len(self._names) < 1 << 16:
                self._names[key] = name
        return name

    def _groups_of(self, strength: int) -> tuple[int, tuple[int, ...]]:
        """``(category, groups)`` of a strength's class (:func:`engine.evaluate.names.groups`), cached."""
        found = self._groups.get(strength)
        if found is None:
            own = self.hand_class(strength)
            found = self._groups[strength] = (own.category, tuple(groups(own)))
        return found

    def plain_name(self, strength: int) -> str:
        """The name without rivals, cached: every showdown names every hand shown."""
        name = self._plain.get(strength)
        if name is None:
            own = self.hand_class(strength)
            name = deuce_to_seven_name(own) if self.lowball else class_name(own)
            if len(self._plain) < 1 << 16:
                self._plain[strength] = name
        return name

    def category(self, strength: int) -> str:
        """The category in words ("one pair", "flush", "royal flush"…): a history's name for a hand shown before
        the engine named it. Lowball games have no royal flush (it is their worst straight flush)."""
        own = self.hand_class(strength)
        if own.category == STRAIGHT_FLUSH and own.ranks[0] == 12 and not self.lowball:
            return "royal flush"
        return CATEGORY_NAMES[own.category]

    def is_made(self, strength: int) -> bool:
        """Whether the hand is worth naming to its holder while he plays it: any low in a lowball game, a pair
        or better otherwise (a high card is no made hand)."""
        return self.lowball or self.hand_class(strength).category != HIGH_CARD

    def low_strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """The best 8-or-better low (R-RANK-3) under the must-use rule; 0 when none qualifies or the game has no
        low half."""
        if not self.has_low:
            return 0
        must_use = self.must_use_hole
        if must_use is None:
            return low_eight_strength([*hole, *board])
        return omaha_low_eight_strength(hole, board, must_use)

    @staticmethod
    def low_name(strength: int, rivals: Iterable[int | None] = ()) -> str:
        """An 8-or-better low's name by its top two cards, and more where they decided against ``rivals``."""
        own = low_ranks(strength)
        return low_words(own, low_depth(own, [low_ranks(rival) for rival in rivals if rival]))


class HighRanking(HandRanking):
    """High hands (R-RANK-1), best five of all cards or exactly ``must_use_hole`` hole cards (R-RANK-2); with
    ``has_low`` the 8-or-better low half too (R-RANK-3)."""

    __slots__ = ()

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        must_use = self.must_use_hole
        if must_use is None:
            cards = [*hole, *board]
            return high_strength(cards)
        return omaha_high_strength(hole, board, must_use)

    def hand_class(self, strength: int) -> HandClass:
        return HIGH_CLASSES[strength - 1]


class DeuceToSevenRanking(HandRanking):
    """Deuce-to-seven low (R-RANK-4): the five own cards; aces high only, straights and flushes count."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(lowball=True)

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        return deuce_to_seven_strength(hole)

    def hand_class(self, strength: int) -> HandClass:
        return DEUCE_TO_SEVEN_CLASSES[strength - 1]


class AceToFiveRanking(HandRanking):
    """Ace-to-five low without a qualifier (Razz, :mod:`engine.evaluate.ace_to_five`): the best five of the
    player's cards (and a community card when the deck ran short, R-GAME-DECK)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(lowball=True, ace_low=True)

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        return ace_to_five_strength([*hole, *board] if board else hole)

    def hand_class(self, strength: int) -> HandClass:
        return ace_to_five_classes()[strength - 1]


class BadugiRanking(HandRanking):
    """Badugi (:mod:`engine.evaluate.badugi`): the four own cards; the most cards of different ranks and suits,
    then the lowest. Every name says every card that plays, so rivals add nothing."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(lowball=True, ace_low=True)

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        return badugi_strength(hole)

    def hand_class(self, strength: int) -> HandClass:
        return HandClass(HIGH_CARD, badugi_ranks(strength), False)

    def name(self, strength: int, rivals: Iterable[int | None] = ()) -> str:
        return self.plain_name(strength)

    def plain_name(self, strength: int) -> str:
        return badugi_name(strength)


class ShortDeckRanking(HandRanking):
    """Short-deck (6+) hold'em (:mod:`engine.evaluate.short_deck`): a flush beats a full house, A-6-7-8-9 is the
    lowest straight; the best five of hole and board cards."""

    __slots__ = ()

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        return short_deck_strength([*hole, *board])

    def hand_class(self, strength: int) -> HandClass:
        return short_deck_classes()[strength - 1]


class ThirtyTwoRanking(HandRanking):
    """The 32-card ranking (R-RANK-5) with one game's ties: ``"suits"`` (32-card draw), ``"split"`` (Americana),
    ``"telesina"``."""

    __slots__ = ("_strength", "_telesina")

    def __init__(self, ties: str) -> None:
        super().__init__()
        self._telesina = ties == "telesina"
        self._strength = {"suits": thirty_two_strength, "split": americana_strength,
                          "telesina": telesina_strength}[ties]

    def strength(self, hole: Sequence[int], board: Sequence[int]) -> int:
        return self._strength([*hole, *board])

    def hand_class(self, strength: int) -> HandClass:
        if self._telesina:
            return thirty_two_classes()[telesina_class_strength(strength) - 1]
        return thirty_two_classes()[strength // SUIT_CODE_SPAN - 1]

    def name(self, strength: int, rivals: Iterable[int | None] = ()) -> str:
        """As every game's (R-RANK-7), and in Telesina the suit when a suit decides: a flush against a flush
        ("flush of hearts, queen high"), equal ranks ("pair of jacks, ace kicker, the ace of hearts decides")."""
        shown = [rival for rival in rivals if rival is not None]
        name = super().name(strength, shown)
        if not self._telesina:
            return name
        words = telesina_suit_words(strength, shown)
        if words is None:
            return name
        if words.startswith("of "):
            return name.replace("flush", f"flush {words}", 1)
        return f"{name}, {words}"


_RANKINGS: dict[tuple[str, str, int | None, bool], HandRanking] = {}


def ranking_for(kind: str, ties: str = "suits", must_use_hole: int | None = None,
                low_eight: bool = False) -> HandRanking:
    """The one :class:`HandRanking` of a game's ranking data (``engine.variants.Ranking`` and
    ``ThirtyTwoTies`` values, its must-use rule, its 8-or-better low): one object per distinct ranking, so its
    name cache is shared by every table of the game. ``ValueError`` for an unknown kind.

    >>> ranking_for("high") is ranking_for("high"), ranking_for("deuce_to_seven").lowball
    (True, True)
    """
    key = (kind, ties, must_use_hole, low_eight)
    ranking = _RANKINGS.get(key)
    if ranking is None:
        if kind == "high":
            ranking = HighRanking(has_low=low_eight, must_use_hole=must_use_hole)
        elif kind == "deuce_to_seven":
            ranking = DeuceToSevenRanking()
        elif kind == "ace_to_five":
            ranking = AceToFiveRanking()
        elif kind == "badugi":
            ranking = BadugiRanking()
        elif kind == "short_deck":
            ranking = ShortDeckRanking()
        elif kind == "thirty_two_card":
            ranking = ThirtyTwoRanking(ties)
        else:
            raise ValueError(f"unknown ranking {kind!r}")
        ranking = _RANKINGS[key] = ranking
    return ranking
