"""A host-blind hand played in process for the tests and the benchmark: players, a host key, a strategy."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import asyncssh

from engine.actions import LegalActions, Show
from engine.fairness_v2.group import SECP256K1, Group
from engine.fairness_v2.play import HandSetup, Meter, PlayedHand, PreparedHand, _no_meter, play_hand, prepare_hand
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


def play_session(players: Sequence[Player], hands: int, *, ahead: bool = True,
                 meter_for: Callable[[int], Meter] = lambda number: _no_meter, stacks: int = 1000) -> list[PlayedHand]:
    """Hands in a row at one table, the button moving, stacks carried over; with ``ahead`` each hand's escrow
    and shuffles run while the hand before it is played (the room's shuffle ahead). ``meter_for(n)`` meters
    hand ``n``'s work, its preparation during hand ``n − 1`` included."""
    seats = sorted(player.seat for player in players)
    current = {seat: stacks for seat in seats}
    played: list[PlayedHand] = []
    prepared: list[PreparedHand] = []

    def setup(number: int, chips: dict[int, int]) -> HandSetup:
        return HandSetup("t1", f"h{number}", seats[number % len(seats)], chips, 5, 10, public_text(HOST_KEY))

    for number in range(hands):
        rngs = {seat: SeededRandom(f"h{number}/{seat}") for seat in seats}

        def ahead_of(next_number: int = number + 1, chips: dict[int, int] = current) -> None:
            # (the stacks are not known yet: prepare_hand ignores them, play_hand sets them)
            ahead_rngs = {seat: SeededRandom(f"h{next_number}/ahead/{seat}") for seat in seats}
            prepared.append(prepare_hand(players, setup(next_number, chips), sshsig_signer(HOST_KEY), ahead_rngs,
                                         SeededRandom(f"h{next_number}/ahead/host"), meter=meter_for(next_number)))

        hand = play_hand(players, setup(number, current), sshsig_signer(HOST_KEY), showdown_strategy(),  # type: ignore[arg-type]
                         rngs, SeededRandom(f"h{number}/host"), meter=meter_for(number),
                         prepared=prepared.pop() if prepared else None,
                         during=ahead_of if ahead and number + 1 < hands else None)
        played.append(hand)
        current = dict(hand.host_outcome.stacks)
    return played
