"""Checks of a hand's inputs (seats, stacks, deck, forced-bet plan) and the per-variant facts they need.

:func:`check_inputs` raises ``ValueError`` naming the first problem before any state is laid out, so a bad plan
never leaves a half-built hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Card
from engine.hand_state import ForcedBets
from engine.home.bomb_pot import bomb_pot_problem
from engine.variants import ForcedBetKind, Variant, check_player_count


class VariantFacts:
    """What a hand needs to know about its variant, computed once per variant (hands start often)."""

    __slots__ = ("board_cards", "deck_set", "flop_game", "has_draws", "hole_cards", "ranking", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant  # keeps the variant alive, so its id() is not reused while cached
        self.hole_cards = variant.hole_card_count
        self.board_cards = variant.board_card_count
        self.deck_set = frozenset(variant.deck)
        self.has_draws = variant.has_draws
        self.flop_game = any(street.board >= 3 for street in variant.streets)
        self.ranking = variant.hand_ranking


_FACTS: dict[int, VariantFacts] = {}


def variant_facts(variant: Variant) -> VariantFacts:
    """The cached :class:`VariantFacts` of ``variant`` (by identity: hashing a variant hashes its deck)."""
    facts = _FACTS.get(id(variant))
    if facts is None or facts.variant is not variant:
        if len(_FACTS) >= 64:  # variants are few; a caller building many must not grow this forever
            _FACTS.clear()
        facts = _FACTS[id(variant)] = VariantFacts(variant)
    return facts


def check_inputs(variant: Variant, seats: Mapping[int, int], deck: Sequence[Card], forced: ForcedBets) -> None:
    """Raise ``ValueError`` naming the first problem with a hand's inputs."""
    facts = variant_facts(variant)
    players = len(seats)
    needed = players * facts.hole_cards + facts.board_cards
    blinds = variant.forced_bets is _BLINDS
    if not variant.min_players <= players <= variant.max_players or (blinds and needed > len(variant.deck)):
        check_player_count(variant, players)  # raises with the reason
    for seat, stack in seats.items():
        if type(stack) is not int or stack <= 0:
            raise ValueError(f"seat {seat} needs a positive whole-chip stack to be dealt in, got {stack!r}")
    if not blinds:
        if forced.small_blind_seat is not None or forced.big_blind_seat is not None or forced.straddle_seat is not None:
            raise ValueError(f"{variant.name} uses antes and a bring-in, not blinds (R-STUD-1)")
        # R-GAME-DECK: when the deck cannot give everyone the last card, it is one community card.
        needed = min(needed, len(variant.deck))
    if len(deck) < needed:
        raise ValueError(f"{variant.name} for {players} players needs {needed} cards, the deck has {len(deck)}")
    allowed = facts.deck_set
    unique = set(deck)
    if len(unique) != len(deck) or not unique <= allowed:  # the fast check; the loop names the first problem
        seen: set[int] = set()
        for card in deck:
            if card not in allowed:
                raise ValueError(f"card {card} is not in the {variant.name} deck")
            if card in seen:
                raise ValueError(f"card {card} appears twice in the deck")
            seen.add(card)
    amounts = (forced.small_blind, forced.big_blind, forced.straddle, forced.ante, forced.bring_in,
               forced.big_blind_ante)
    for name, amount in zip(_FORCED_AMOUNTS, amounts, strict=True):
        if type(amount) is not int or amount < 0:
            raise ValueError(f"{name.replace('_', ' ')} must be a whole number of chips >= 0, got {amount!r}")
    if forced.dead_small_blinds or forced.big_blinds_out_of_position:
        posting: list[int | None] = [forced.small_blind_seat, forced.big_blind_seat, forced.straddle_seat,
                                     *forced.dead_small_blinds, *forced.big_blinds_out_of_position]
    else:
        posting = [forced.small_blind_seat, forced.big_blind_seat, forced.straddle_seat]
    for poster in posting:
        if poster is not None and poster not in seats:
            raise ValueError(f"seat {poster} must post a blind but is not dealt in")
    if forced.bomb_pot and (problem := bomb_pot_problem(variant, forced)) is not None:
        raise ValueError(problem)
    live = [seat for seat in (forced.small_blind_seat, forced.big_blind_seat, forced.straddle_seat) if seat is not None]
    live += forced.big_blinds_out_of_position
    if len(set(live)) != len(live):
        raise ValueError(f"a seat cannot post two live blinds in one hand: {live}")


_BLINDS = ForcedBetKind.BLINDS  # a global lookup is cheaper than an Enum class attribute
_FORCED_AMOUNTS = ("small_blind", "big_blind", "straddle", "ante", "bring_in", "big_blind_ante")
