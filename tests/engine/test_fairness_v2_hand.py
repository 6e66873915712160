"""Whole host-blind hold'em hands in process: every client's referee agrees, mucks stay closed, the host learns
no hole card, a player who vanishes after the shuffle cannot stall the hand."""

from __future__ import annotations

import secrets
from collections import Counter

import pytest

from engine.cards import full_deck
from engine.fairness_v2.elgamal import card_lookup
from engine.fairness_v2.group import RISTRETTO255, SECP256K1, Group
from engine.fairness_v2.referee import committee, verify_transcript
from engine.fairness_v2.transcript import Covers, Escrow, Shares, Shuffle, Stacks, Timeout
from hosting.transcript_signing import public_text, sshsig_verifier
from tests.engine.fairness_v2_play import HOST_KEY, make_players, play, play_session

VERIFY = sshsig_verifier(public_text(HOST_KEY))


@pytest.mark.parametrize("count", [2, 3, 6])
def test_hand_to_showdown_every_client_agrees(count: int) -> None:
    played = play(make_players(count))
    outcomes = list(played.outcomes.values())
    assert len(outcomes) == count and all(outcome == played.host_outcome for outcome in outcomes)
    outcome = played.host_outcome
    assert len(outcome.board) == 5 and len(outcome.shown) == 1
    assert sum(outcome.stacks.values()) == 1000 * count  # chips conserved
    holes = [card for cards in played.hole_cards.values() for card in cards]
    assert None not in holes and len(Counter([*holes, *outcome.board])) == 2 * count + 5
    ((shower, shown),) = outcome.shown.items()
    assert played.hole_cards[shower] == shown
    violations, offline = verify_transcript(played.transcript, VERIFY, secrets)
    assert violations == [] and offline == outcome


def test_ristretto_hand_verifies() -> None:
    played = play(make_players(3, group=RISTRETTO255))
    assert played.transcript.header.group == "ristretto255"
    assert verify_transcript(played.transcript, VERIFY, secrets)[0] == []


def test_committee_of_six_at_ten_players() -> None:
    assert committee(list(range(10)), 4) == [4, 5, 6, 7, 8, 9]
    assert committee(list(range(10)), 8) == [0, 1, 2, 3, 8, 9]
    assert committee(list(range(6)), 2) == list(range(6))


def _curious_host(group: Group, played: object) -> list[object]:
    """Everything the host holds, thrown at every position: the sum of all shares it saw for each position, and
    each share alone, against every card point. Returns the hole cards it could name."""
    from engine.fairness_v2.play import PlayedHand
    assert isinstance(played, PlayedHand)
    transcript = played.transcript
    shuffles = [entry.body for entry in transcript.entries if type(entry.body).__name__ == "Shuffle"]
    deck_points = shuffles[-1].deck  # type: ignore[attr-defined]
    seen: dict[int, list[bytes]] = {}
    for entry in transcript.entries:
        if isinstance(entry.body, Shares | Covers):
            for item in entry.body.items:
                seen.setdefault(item.position, []).append(item.share)
    lookup = card_lookup(group)
    named = []
    for position, shares in seen.items():
        c2 = deck_points[2 * position + 1]
        for subset in (shares, *([share] for share in shares)):
            point = group.subtract(c2, group.add(subset))
            if point in lookup:
                named.append((position, lookup[point]))
    return named


def test_the_host_learns_no_hole_card_that_was_not_shown() -> None:
    players = make_players(6)
    played = play(players)
    named = _curious_host(SECP256K1, played)
    outcome = played.host_outcome
    shown = {card for cards in outcome.shown.values() for card in cards}
    assert {card for _, card in named} == set(outcome.board) | shown  # the board and the show, nothing else
    mucked_or_folded = {card for seat, cards in played.hole_cards.items() if seat not in outcome.shown
                        for card in cards}
    assert len(mucked_or_folded) == 10 and not mucked_or_folded & {card for _, card in named}


def test_a_player_vanishes_after_the_shuffle() -> None:
    players = make_players(6)
    played = play(players, vanish=frozenset({3}))
    entries = played.transcript.entries
    assert any(isinstance(entry.body, Timeout) and entry.body.seat == 3 for entry in entries)
    covers = [entry.body for entry in entries if isinstance(entry.body, Covers)]
    assert covers and all(entry.dealer == 3 for entry in covers)
    assert {len(played.outcomes)} == {5} and all(o == played.host_outcome for o in played.outcomes.values())
    outcome = played.host_outcome
    assert not outcome.void and len(outcome.board) == 5 and 3 not in outcome.shown
    assert outcome.stacks[3] == 1000  # under the gun, folded at his clock before he bet a chip
    assert sum(outcome.stacks.values()) == 6000
    assert all(None not in cards for cards in played.hole_cards.values())  # the others' hole cards opened
    violations, offline = verify_transcript(played.transcript, VERIFY, secrets)
    assert violations == [] and offline == outcome
    # his hole cards stay closed: no cover of his positions exists, and no card opens there
    from engine.fairness_v2.referee import Referee
    referee = Referee(played.transcript.header, secrets)
    for entry in entries:
        referee.apply(entry)
    for position in referee.positions_of(3):
        assert referee.open_position(position) is None
        assert all(item.position != position for body in covers for item in body.items)
    assert {card for card in full_deck()} >= set(outcome.board)


def test_too_few_helpers_voids_the_hand_and_the_droppers_pay() -> None:
    players = make_players(6)
    played = play(players, button=5, vanish=frozenset({0, 1, 2}))  # blinds: seats 0 and 1 vanish
    outcome = played.host_outcome
    assert outcome.void
    # the big blind's uncalled 5 went back when he was folded; the 10 the droppers put in is shared by the
    # other three (odd chip to the first dealt), and nobody else loses a chip
    assert outcome.stacks == {0: 995, 1: 995, 2: 1000, 3: 1004, 4: 1003, 5: 1003}
    assert verify_transcript(played.transcript, VERIFY, secrets)[1] == outcome


def test_every_client_checks_every_shuffle_but_his_own() -> None:
    """Seat 0 shuffles first and substitutes a card: seat 1, who shuffled after him on top of the bad deck, must
    still catch it (his own honest shuffle launders nothing)."""
    import msgspec

    from engine.fairness_v2.referee import Referee
    from engine.fairness_v2.transcript import Shuffle, sign_entry
    players = make_players(3)
    played = play(players)
    transcript = played.transcript
    index = next(i for i, entry in enumerate(transcript.entries)
                 if isinstance(entry.body, Shuffle) and entry.sender == 0)
    body = transcript.entries[index].body
    assert isinstance(body, Shuffle)
    deck = list(body.deck)
    deck[0], deck[1] = deck[2], deck[3]
    entry = transcript.entries[index]
    cheat = sign_entry(transcript.header, entry.seq, entry.prev, 0, msgspec.structs.replace(body, deck=tuple(deck)),
                       players[0]._signing)
    entries = [*transcript.entries[:index], cheat, *transcript.entries[index + 1:]]
    for viewer in (1, 2):
        referee = Referee(transcript.header, secrets, viewer=viewer, check_signatures=False)
        for item in entries:
            referee.apply(item)
        assert [str(v) for v in referee.violations if "shuffle proof" in str(v)] == [
            f"entry {index + 2} (shuffle from seat 2 (cy)): the shuffle proof of seat 0 (ana) fails: the deck was "
            "not only reordered and re-masked (a card substituted, duplicated or dropped)"], viewer


def test_a_host_cannot_act_in_a_players_name() -> None:
    """The host relays a fold in seat 2's name: the other clients reject its signature, seat 2 complains."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from engine.fairness_v2.transcript import Act, sign_entry
    players = make_players(3)
    played = play(players)
    transcript = played.transcript
    index = next(i for i, entry in enumerate(transcript.entries) if isinstance(entry.body, Act) and entry.sender == 2)
    original = transcript.entries[index]
    forged = sign_entry(transcript.header, original.seq, original.prev, 2, Act("fold"),
                        Ed25519PrivateKey.from_private_bytes(bytes(32)))
    for player in players:
        player.start(transcript.header, secrets)
        for entry in transcript.entries[:index]:
            player.receive(entry)
        player.receive(forged)
    for player in players[:2]:
        assert [str(v) for v in player.ref.violations] == [
            f"entry {index} (action from seat 2 (cy)): the signature does not verify: the entry was changed after "
            "it was signed"]
    assert players[2].complaints == [f"entry {index} was relayed in my name and I did not send it"]


def test_a_board_with_the_two_of_clubs_replays() -> None:
    """The two of clubs is card 0: the referee's replay once took it for "not opened" and ran out of filler
    cards (StopIteration from verify and from every client's end of hand)."""
    from tests.engine.fairness_v2_play import make_players, play
    played = play(make_players(2), "h9")
    assert [str(card) for card in played.host_outcome.board] == ["8c", "2c", "Ac", "4s", "6h"]
    assert played.outcomes[0].board == played.host_outcome.board


def test_shuffle_ahead_the_next_deck_is_ready_when_the_hand_starts() -> None:
    """Hand 2's escrows and shuffles are made while hand 1 is played; hand 2 opens with the host's Stacks
    entry (hand 1's final stacks), deals from that deck, and checks out offline like any hand."""
    players = make_players(3)
    first, second = play_session(players, 2)
    kinds = [type(entry.body).__name__ for entry in second.transcript.entries]
    assert kinds[:7] == ["Escrow"] * 3 + ["Shuffle"] * 3 + ["Stacks"]
    assert all(record.stack == 0 for record in second.transcript.header.seats)
    stacks = second.transcript.entries[6].body
    assert isinstance(stacks, Stacks)
    assert stacks.stacks == tuple(first.host_outcome.stacks[seat] for seat in range(3))
    assert sorted(stacks.stacks) != [1000, 1000, 1000]  # hand 1 moved chips: the stacks are really carried
    for played in (first, second):
        violations, outcome = verify_transcript(played.transcript, VERIFY, secrets)
        assert violations == [] and outcome == played.host_outcome
        assert all(outcome == played.host_outcome for outcome in played.outcomes.values())
        assert sum(played.host_outcome.stacks.values()) == 3000
    assert second.transcript.header.button == 1 and not any(player.complaints for player in players)


def test_shuffle_ahead_runs_during_the_hand_before() -> None:
    """The room's cue (``during``, once hand 1 is dealt) prepares hand 2 whole: every escrow and shuffle in,
    the chain checked."""
    from engine.fairness_v2 import play as play_module
    seen: list[tuple[int, bool]] = []
    original = play_module.prepare_hand

    def watching(*args: object, **kwargs: object) -> play_module.PreparedHand:
        prepared = original(*args, **kwargs)  # type: ignore[arg-type]
        seen.append((len(prepared.table.writer.entries), prepared.table.host.shuffled()))
        return prepared

    play_module.prepare_hand = watching  # type: ignore[assignment]
    import tests.engine.fairness_v2_play as helper
    helper.prepare_hand = watching  # type: ignore[assignment]
    try:
        players = make_players(3, seed="during")
        hands = play_session(players, 2)
    finally:
        play_module.prepare_hand = original
        helper.prepare_hand = original
    assert seen == [(6, True)]  # 3 escrows + 3 shuffles, the chain complete, while hand 1 was still dealt out
    assert len(hands) == 2


def test_a_prepared_hand_waits_for_its_stacks() -> None:
    """Before the host's Stacks entry nothing is dealt; the stacks come once, from the host, one per seat."""
    players = make_players(3, seed="stacks")
    _, second = play_session(players, 2)
    entries = list(second.transcript.entries)
    header = second.transcript.header
    from engine.fairness_v2.referee import Referee
    referee = Referee(header, secrets, check_signatures=False, check_proofs=False)
    for entry in entries[:6]:
        referee.apply(entry)
    assert referee.shuffled() and not referee.started and referee.needs(0) == {}
    deal = next(entry for entry in entries if isinstance(entry.body, Shares))
    referee.apply(deal.__class__(6, referee.head, deal.sender, deal.body, deal.signature))
    assert "before the deck was shuffled and the hand started" in str(referee.violations[-1])
    referee = Referee(header, secrets, check_signatures=False, check_proofs=False)
    for entry in entries[:6]:
        referee.apply(entry)
    stacks = entries[6]
    referee.apply(stacks.__class__(6, referee.head, 0, stacks.body, stacks.signature))
    assert "only the host sets the stacks" in str(referee.violations[-1])
    assert isinstance(stacks.body, Stacks)
    for bad in (Stacks(stacks.body.stacks[:2]), Stacks((0, *stacks.body.stacks[1:]))):
        referee.apply(stacks.__class__(referee.seq, referee.head, -1, bad, stacks.signature))
        assert "one positive amount per seat" in str(referee.violations[-1])
    # a changed amount in the Stacks entry fails its host signature and every checkpoint after it
    from msgspec.structs import replace
    changed = replace(second.transcript, entries=(*entries[:6], replace(stacks, body=Stacks(
        (stacks.body.stacks[0] + 10, stacks.body.stacks[1] - 10, stacks.body.stacks[2]))), *entries[7:]))
    violations, _ = verify_transcript(changed, VERIFY, secrets)
    assert any("signature does not verify" in str(problem) for problem in violations)


def test_a_preparation_for_other_seats_is_not_used() -> None:
    """If the seating changed, the prepared deck is dropped: the hand escrows and shuffles at its start."""
    from engine.fairness_v2.play import HandSetup, play_hand, prepare_hand
    from engine.fairness_v2.randomness import SeededRandom
    from hosting.transcript_signing import sshsig_signer
    from tests.engine.fairness_v2_play import showdown_strategy
    players = make_players(4, seed="reseat")
    setup = HandSetup("t1", "h1", 0, {seat: 1000 for seat in range(4)}, 5, 10, public_text(HOST_KEY))
    rngs = {seat: SeededRandom(f"r/{seat}") for seat in range(4)}
    prepared = prepare_hand(players, setup, sshsig_signer(HOST_KEY), rngs, SeededRandom("r/host"))
    three = HandSetup("t1", "h1", 0, {seat: 1000 for seat in range(3)}, 5, 10, public_text(HOST_KEY))
    played = play_hand(players[:3], three, sshsig_signer(HOST_KEY), showdown_strategy(),  # type: ignore[arg-type]
                       {seat: SeededRandom(f"p/{seat}") for seat in range(3)}, SeededRandom("p/host"),
                       prepared=prepared)
    kinds = [type(entry.body) for entry in played.transcript.entries]
    assert Stacks not in kinds and kinds.count(Escrow) == 3 and kinds.count(Shuffle) == 3
    assert verify_transcript(played.transcript, VERIFY, secrets)[0] == []

