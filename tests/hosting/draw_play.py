"""A triple-draw bot table that reshuffles every hand, played straight into a :class:`hosting.store.Store`
(the way :mod:`tests.hosting.store_play` plays hold'em), with the reshuffles recorded in each transcript as
:mod:`hosting.table_runner` records them (R-DRAW-1, R-FAIR-1). Used by the audit and verify tests."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from engine.actions import Action, Call, Check, Draw, Show
from engine.draw import seeded_reshuffle
from engine.events import DrawnCardsDealt, HoleCardsDealt
from engine.fairness import (
    HOST,
    Committer,
    ReshuffleRecorder,
    Transcript,
    commit,
    deck_deals,
    derive_deck,
    reshuffle_key,
)
from engine.hand import Hand
from hosting.store import Store, hand_start_of
from tests.hosting.store_play import ROOM_ID, BotTable, table_config


class ReshufflingDrawTable(BotTable):
    """A 6-handed triple-draw bot table whose bots call down and throw all five cards at every draw: 30 dealt,
    a 22-card stub, so every hand reshuffles the discards (four times). The hand's reshuffle comes from its
    seeds and is recorded for the transcript, as :mod:`hosting.table_runner` does (R-DRAW-1, R-FAIR-1)."""

    recorder: ReshuffleRecorder | None = None

    def begin_hand(self, started_at: float) -> str:
        self.between_hands()
        table = self.table
        hand_id = f"{self.config.id}-{self.run}{table.hand_number + 1}"
        players = sorted(seat for seat, seated in table.players.items() if seated.can_play)
        plan = table.plan_next_hand(drawn_button=players[0] if table.positions is None else None)
        assert plan is not None
        seeds: dict[Committer, bytes] = {HOST: self.rng.randbytes(32)}
        seeds.update({seat: self.rng.randbytes(32) for seat in plan.dealt_in})
        self._commitments = {who: commit(ROOM_ID, self.config.id, hand_id, who, secret)
                             for who, secret in seeds.items()}
        self._seeds = seeds
        self._deck = derive_deck(hand_id, seeds, table.config.hand.variant.deck)
        self.recorder = ReshuffleRecorder(seeded_reshuffle(reshuffle_key(hand_id, seeds)))
        self.clock += 1.0
        events = table.start_hand(self._deck, self.clock, reshuffle=self.recorder,
                                  button_draw_deck=derive_deck(hand_id + "/button", seeds,
                                                               table.config.hand.variant.deck)
                                  if table.positions is None else None)
        self._hand = table.hand
        self._hand_id = hand_id
        self.store.hand_started(hand_start_of(table, self.config.id, hand_id, events, started_at, self.settings))
        self._dealt = []
        return hand_id

    def step(self) -> bool:
        table = self.table
        if table.hand is None:
            return False
        turn = table.to_act()
        options = table.hand.legal_actions()
        assert turn is not None and options is not None
        action: Action
        if options.max_discards is not None:
            assert isinstance(table.hand, Hand)
            action = Draw(table.hand.hole_cards(turn[0])[:options.max_discards])
        elif options.can_show:
            action = Show()
        else:
            action = Check() if options.can_check else Call()
        self.clock += 1.0
        table.act(table.players[turn[0]].player, action, self.clock)
        return table.hand is not None

    def finish_hand(self) -> Any:
        events = list(self._hand.events)
        assert self.recorder is not None
        dealt = [(card, event.seat) for event in events if isinstance(event, HoleCardsDealt | DrawnCardsDealt)
                 for card in event.cards]
        draws, reshuffles = self.recorder.records(events, len(self._deck))
        transcript = Transcript(ROOM_ID, self.config.id, self._hand_id, tuple(self.table.config.hand.variant.deck),
                                self._commitments, self._seeds, deck_deals(self._deck, dealt), (), draws, reshuffles)
        self.hands.append(self._hand_id)
        return self.store.hand_finished(self._hand_id, events, transcript)


def reshuffling_room(data_dir: Path, hands: int, seed: int = 11) -> Path:
    """A room directory with ``hands`` finished 6-handed triple-draw hands, each reshuffling its discards
    4 times (at draws 4, 8, 12 and 16: 18, 20, 20 and 10 cards dealt from them)."""
    store = Store.open(data_dir)
    config = table_config("d1", "deuce_to_seven_triple_draw", "fixed_limit", 5, 10, seats=6)
    names = [f"drawbot{seat}" for seat in range(6)]
    for name in names:
        store.register(name, f"ssh-ed25519 KEY{name}")
    table = ReshufflingDrawTable(store, config, names, random.Random(seed))
    for _ in range(hands):
        table.play_hand(time.time())
    store.close_now()
    return data_dir
