"""A host-blind hand played in process for the tests and the benchmark: players, a host key, a strategy."""

from __future__ import annotations

from collections.abc import Sequence

import asyncssh

from engine.actions import LegalActions, Show
from engine.fairness_v2.group import SECP256K1, Group
from engine.fairness_v2.play import HandSetup, Meter, PlayedHand, _no_meter, play_hand
from engine.fairness_v2.player import Player
from engine.fairness_v2.randomness import SeededRandom
from engine.fairness_v2.transcript import Act
from hosting.transcript_signing import public_text, sshsig_signer

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")
HOST_KEY = asyncssh.import_private_key(
    asyncssh.generate_private_key("ssh-ed25519").export_private_key())


def showdown_strategy(keep: int = 2, opening_raise: int = 0) -> object:
    """The first to act preflop raises to ``opening_raise`` (if any), everyone else calls; on the flop all but
    the first ``keep`` players fold; the rest check down; at showdown the first shows and the others muck (a muck
    opens nothing)."""
    kept: list[int] = []
    shown: list[int] = []
    raised: list[int] = []

    def decide(seat: int, legal: LegalActions, street: str) -> Act:
        if legal.allows(Show()):
            if shown:
                return Act("muck")
            shown.append(seat)
            return Act("show")
        if street == "preflop":
            if opening_raise and not raised:
                raised.append(seat)
                return Act("raise", opening_raise)
            return Act("call") if legal.can_call else Act("check")
        if seat not in kept and len(kept) >= keep:
            return Act("fold")
        if seat not in kept:
            kept.append(seat)
        return Act("call") if legal.can_call else Act("check")
    return decide


def make_players(count: int, group: Group = SECP256K1, seed: str = "players") -> list[Player]:
    rng = SeededRandom(seed)
    return [Player(seat, NAMES[seat], group, rng) for seat in range(count)]


def play(players: Sequence[Player], hand: str = "h1", button: int = 0, *, strategy: object | None = None,
         vanish: frozenset[int] = frozenset(), meter: Meter = _no_meter, stacks: int = 1000) -> PlayedHand:
    setup = HandSetup("t1", hand, button, {player.seat: stacks for player in players}, 5, 10, public_text(HOST_KEY))
    rngs = {player.seat: SeededRandom(f"{hand}/{player.seat}") for player in players}
    return play_hand(players, setup, sshsig_signer(HOST_KEY), strategy or showdown_strategy(),  # type: ignore[arg-type]
                     rngs, SeededRandom(f"{hand}/host"), vanish_after_shuffle=vanish, meter=meter)
