"""Draw rounds in a hand (R-DRAW-1): checking a draw and dealing its replacements, from the stub, then from the
discards reshuffled by the caller's :data:`engine.draw.Reshuffle` (never the drawing player's own discards of that
draw). A ``timed_out`` draw stands pat and bars that player from betting or raising in the next round."""

from __future__ import annotations

from engine.actions import Action, Draw
from engine.cards import Card
from engine.draw import check_reshuffled
from engine.errors import IllegalAction, NotYourTurn
from engine.events import CardsDrawn, DrawnCardsDealt, positional_builder
from engine.hand_state import HandState

_cards_drawn = positional_builder(CardsDrawn)
_drawn_cards_dealt = positional_builder(DrawnCardsDealt)


class DrawMixin(HandState):
    """Checks and deals draws; the caller opens the next betting round once nobody is left to draw."""

    __slots__ = ()

    def _verify_draw(self, position: int, action: Action) -> None:
        actor = self._draw_pending[0]
        if position != actor:
            raise NotYourTurn(f"it is seat {self._seats[actor]}'s turn to draw, not seat {self._seats[position]}'s")
        if not isinstance(action, Draw):
            raise IllegalAction(f"this is a draw: discard 0 or more cards, not {type(action).__name__.lower()}")
        discards = action.discards
        if type(discards) is not tuple:
            raise IllegalAction(f"discards must be a tuple of cards, got {discards!r}")
        if action.timed_out and discards:
            raise IllegalAction("a timed-out draw stands pat: it discards nothing (R-DRAW-1)")
        limit = self._variant.streets[self._street_index].draw
        if len(discards) > limit:
            raise IllegalAction(f"you may discard at most {limit} cards, not {len(discards)}")
        if not discards:
            return  # standing pat
        own = self._hole[position]
        if len(set(discards)) != len(discards):
            raise IllegalAction("a card cannot be discarded twice")
        for card in discards:
            if card not in own:
                raise IllegalAction(f"you cannot discard {card}: it is not in your hand")

    def _draw(self, position: int, action: Draw) -> None:
        """R-DRAW-1: discard, receive replacements from the stub, then from the reshuffled discards (never the
        player's own discards of this draw: they join the discards only after the replacements are dealt). A
        discard-only street (``Street.replaces`` False) deals nothing: the player keeps fewer cards."""
        discards = action.discards
        count = len(discards)
        seat = self._seats[position]
        events = self.events
        if count:
            wanted = count if self._streets[self._street_index].replaces else 0
            index = self._deck_index
            if index + wanted <= len(self._deck):  # the stub has them all (the common case)
                cards = self._deck[index:index + wanted]
                self._deck_index = index + wanted
            else:
                cards = self._from_reshuffled(wanted)
            # Replacements take the discarded cards' places (up to the cards available).
            replacements = iter(cards)
            new_hole = []
            for card in self._hole[position]:
                if card not in discards:
                    new_hole.append(card)
                else:
                    replacement = next(replacements, None)
                    if replacement is not None:
                        new_hole.append(replacement)
            self._hole[position] = new_hole
            self._muck.extend(discards)
        self._draw_pending.pop(0)
        if action.timed_out:
            self._penalized.add(position)
        elif self._penalized:
            self._penalized.discard(position)
        events.append(_cards_drawn(seat, count, action.timed_out))
        if count:
            events.append(_drawn_cards_dealt(seat, discards, cards))

    def _from_reshuffled(self, wanted: int) -> tuple[Card, ...]:
        """The rest of the stub, then cards from the discards thrown so far (reshuffled by the caller's order
        when the ones already reshuffled run short); ``ValueError`` leaves the hand as it was."""
        deck = self._deck
        from_stub = len(deck) - self._deck_index
        cards = list(deck[self._deck_index:])
        recycled = self._recycled
        if len(recycled) < wanted - from_stub:
            # Reshuffle every discard thrown so far and not yet dealt again (R-DRAW-1).
            pool = tuple(recycled) + tuple(self._muck)
            recycled = list(check_reshuffled(pool, self._reshuffle(pool, self._reshuffles)))
            self._recycled = recycled
            self._muck = []
            self._reshuffles += 1
        taken = min(wanted - from_stub, len(recycled))
        cards.extend(recycled[:taken])
        del recycled[:taken]
        self._deck_index = len(deck)
        return tuple(cards)
