"""``croupier verify`` on host-blind transcripts: an honest hand checks out; any change to a card, action, amount,
name, proof or signature fails, saying what and where; the host key can be pinned."""

from __future__ import annotations

import argparse
from pathlib import Path

import msgspec
import pytest

from engine.fairness_v2.play import PlayedHand
from engine.fairness_v2.transcript import (
    Act,
    Entry,
    HandTranscript,
    Shares,
    Shuffle,
    TranscriptWriter,
    dumps,
    sign_entry,
    sign_opening,
)
from hosting.commands.verify import run
from hosting.transcript_signing import fingerprint, public_text, sshsig_signer
from tests.engine.fairness_v2_play import HOST_KEY, make_players, play, showdown_strategy

replace = msgspec.structs.replace


@pytest.fixture(scope="module")
def hand() -> tuple[PlayedHand, list[object]]:
    players = make_players(3)
    return play(players, strategy=showdown_strategy(opening_raise=30)), players  # type: ignore[return-value]


def verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], *transcripts: HandTranscript,
           host_key: str | None = None) -> tuple[int, str, str]:
    path = tmp_path / "hand.json"
    path.write_bytes(b"\n".join(dumps(item) for item in transcripts) + b"\n")
    code = run(argparse.Namespace(history=str(path), host_key=host_key))
    out, err = capsys.readouterr()
    return code, out, err


def index_of(transcript: HandTranscript, kind: type, test: object = None) -> int:
    return next(index for index, entry in enumerate(transcript.entries)
                if isinstance(entry.body, kind) and (test is None or test(entry)))  # type: ignore[operator]


def with_entry(transcript: HandTranscript, index: int, entry: Entry) -> HandTranscript:
    entries = list(transcript.entries)
    entries[index] = entry
    return replace(transcript, entries=tuple(entries))


def resigned(transcript: HandTranscript, index: int, body: object, players: list[object]) -> HandTranscript:
    """The sender himself signs a changed body (a cheating player, not a forger)."""
    entry = transcript.entries[index]
    key = players[entry.sender]._signing  # type: ignore[attr-defined]
    if entry.anchor is not None:  # an opening's share: signed against the head its opening started from
        signed = replace(sign_opening(transcript.header, entry.anchor, transcript.entries[entry.anchor].prev,
                                      entry.sender, body, key), seq=entry.seq, prev=entry.prev)  # type: ignore[arg-type]
    else:
        signed = sign_entry(transcript.header, entry.seq, entry.prev, entry.sender, body, key)  # type: ignore[arg-type]
    return with_entry(transcript, index, signed)


def rechained(transcript: HandTranscript, entries: list[Entry]) -> HandTranscript:
    """A dishonest host's hand: ``entries`` chained again as given (each in the place the host gives it), every
    checkpoint signed anew with the host's key — so neither the chain nor the host's signatures give it away."""
    writer = TranscriptWriter(transcript.header, sshsig_signer(HOST_KEY))
    writer.checkpoint()
    for entry in entries:
        writer.append(replace(entry, seq=writer.seq, prev=writer.head))
    writer.checkpoint()
    return writer.transcript()


def openings(transcript: HandTranscript) -> dict[int, list[int]]:
    """Each opening (its anchor) → the indexes of its shares, in the order chained."""
    found: dict[int, list[int]] = {}
    for index, entry in enumerate(transcript.entries):
        if entry.anchor is not None:
            found.setdefault(entry.anchor, []).append(index)
    return found


def test_honest_hand_checks_out_and_names_its_host_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    code, out, err = verify(tmp_path, capsys, played.transcript, played.transcript)
    assert (code, out) == (0, "")
    host = fingerprint(public_text(HOST_KEY))
    assert "2 host-blind hand(s)" in err and host in err and "checks out" in err
    assert verify(tmp_path, capsys, played.transcript, host_key=host)[0] == 0
    code, out, _ = verify(tmp_path, capsys, played.transcript, host_key="SHA256:someoneelse")
    assert code == 1 and f"hand h1: signed by host key {host}, not SHA256:someoneelse" in out


def test_changed_card_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            hand: tuple[PlayedHand, list[object]]) -> None:
    played, players = hand
    transcript = played.transcript
    index = index_of(transcript, Shares, lambda entry: entry.body.purpose == "board")
    body = transcript.entries[index].body
    items = list(body.items)
    items[0] = replace(items[0], share=items[1].share)  # the flop's second card's share in place of the first's
    changed = replace(body, items=tuple(items))
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, index, replace(transcript.entries[index],
                                                                                  body=changed)))
    sender = transcript.entries[index].sender
    assert code == 1
    assert f"entry {index} (shares from seat {sender} (" in out and "the signature does not verify" in out
    assert f"the share of deck position {items[0].position} does not match its proof" in out
    # the same change signed by its sender: the proof still catches it, and the card does not open
    code, out, _ = verify(tmp_path, capsys, resigned(transcript, index, changed, players))
    assert code == 1 and "signature does not verify" not in out.split("\n")[0]
    assert f"deck position {items[0].position} does not match its proof" in out
    assert f"deck position {items[0].position}: does not open to a card" in out


def test_substituted_card_in_a_shuffle_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             hand: tuple[PlayedHand, list[object]]) -> None:
    played, players = hand
    transcript = played.transcript
    index = index_of(transcript, Shuffle, lambda entry: entry.sender == 1)
    body = transcript.entries[index].body
    deck = list(body.deck)
    deck[0], deck[1] = deck[2], deck[3]  # card 0 replaced by a copy of card 1
    code, out, _ = verify(tmp_path, capsys, resigned(transcript, index, replace(body, deck=tuple(deck)), players))
    assert code == 1 and "the shuffle proof of seat 1 (bob) fails" in out


def test_changed_proof_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    index = index_of(transcript, Shuffle, lambda entry: entry.sender == 2)
    body = transcript.entries[index].body
    s = list(body.s)
    s[7] = (int.from_bytes(s[7], "big") + 1).to_bytes(32, "big")
    changed = replace(body, s=tuple(s))
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, index, replace(transcript.entries[index],
                                                                                  body=changed)))
    assert code == 1 and f"entry {index} (shuffle from seat 2 (cy)): the signature does not verify" in out
    assert "the shuffle proof of seat 2 (cy) fails" in out


def test_changed_action_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              hand: tuple[PlayedHand, list[object]]) -> None:
    played, players = hand
    transcript = played.transcript
    index = index_of(transcript, Act, lambda entry: entry.body.action == "call")
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, index, replace(
        transcript.entries[index], body=Act("fold"))))
    assert code == 1 and f"entry {index} (action from seat" in out and "signature does not verify" in out
    code, out, _ = verify(tmp_path, capsys, resigned(transcript, index, Act("check"), players))
    assert code == 1 and f"entry {index} (action from seat" in out and "check is not legal here" in out


def test_changed_amount_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              hand: tuple[PlayedHand, list[object]]) -> None:
    played, players = hand
    transcript = played.transcript
    index = index_of(transcript, Act, lambda entry: entry.body.action == "raise")
    assert transcript.entries[index].body == Act("raise", 30)
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, index, replace(
        transcript.entries[index], body=Act("raise", 40))))
    assert code == 1 and f"entry {index} (action from seat" in out and "signature does not verify" in out
    code, out, _ = verify(tmp_path, capsys, resigned(transcript, index, Act("raise", 15), players))
    assert code == 1 and "bet or raise to 15 is not legal here" in out


def test_changed_name_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    seats = list(transcript.header.seats)
    seats[1] = replace(seats[1], name="mallory")
    code, out, _ = verify(tmp_path, capsys, replace(transcript, header=replace(transcript.header,
                                                                               seats=tuple(seats))))
    assert code == 1
    assert "entry 0 (escrow from seat 0 (ana)): the chain is broken here: the header (table, seats, names" in out
    assert "checkpoint at entry 0: not a head of this chain" in out
    assert "checkpoint at entry 3: the host's signature does not verify against the host key" in out


def test_changed_signatures_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    index = index_of(transcript, Act)
    entry = transcript.entries[index]
    broken = replace(entry, signature=bytes([entry.signature[0] ^ 1]) + entry.signature[1:])
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, index, broken))
    assert code == 1 and f"entry {index} (action from seat {entry.sender}" in out
    assert "the signature does not verify" in out
    checkpoints = list(transcript.checkpoints)
    last = checkpoints[-1]
    checkpoints[-1] = replace(last, signature=last.signature.replace(b"A", b"B", 1) if b"A" in last.signature[40:]
                              else last.signature[:-40] + b"x" * 40)
    code, out, _ = verify(tmp_path, capsys, replace(transcript, checkpoints=tuple(checkpoints)))
    assert code == 1 and f"checkpoint at entry {last.seq}: the host's signature does not verify" in out


def test_truncated_or_reordered_hands_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    code, out, _ = verify(tmp_path, capsys, replace(transcript, entries=transcript.entries[:-3]))
    assert code == 1 and "the host's last checkpoint does not cover the whole hand" in out
    entries = list(transcript.entries)
    entries[5], entries[6] = entries[6], entries[5]
    code, out, _ = verify(tmp_path, capsys, replace(transcript, entries=tuple(entries)))
    assert code == 1 and "out of order" in out


def test_garbage_line_is_a_problem_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    path = tmp_path / "hand.json"
    path.write_bytes(dumps(played.transcript) + b'\n{"header": 7}\n')
    assert run(argparse.Namespace(history=str(path), host_key=None)) == 1
    out, _ = capsys.readouterr()
    assert out.startswith("line 2: not a host-blind transcript")


def test_an_openings_shares_are_signed_apart_and_chained_in_seat_order(hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    rounds = openings(transcript)
    assert len(rounds) == 4  # the deal, the flop, the turn, the river: each asked of everyone at once
    for anchor, indexes in rounds.items():
        assert indexes[0] == anchor  # the run starts at the head its shares were signed against
        assert [transcript.entries[index].sender for index in indexes] == [0, 1, 2]


def test_reordered_shares_of_an_opening_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    anchor, run_ = max(openings(transcript).items())  # the river: nothing signed in place follows it but actions
    entries = list(transcript.entries)
    entries[run_[0]], entries[run_[1]] = entries[run_[1]], entries[run_[0]]
    code, out, _ = verify(tmp_path, capsys, rechained(transcript, entries))
    assert code == 1
    assert f"entry {run_[1]} (shares from seat 0 (ana)): out of seat order in the opening at entry {anchor} " \
           "(after seat 1)" in out
    # not chained again: the chain says it as well
    code, out, _ = verify(tmp_path, capsys, replace(transcript, entries=tuple(entries)))
    assert code == 1 and "out of order" in out and "out of seat order in the opening" in out


def test_a_share_moved_out_of_its_opening_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                hand: tuple[PlayedHand, list[object]]) -> None:
    played, _ = hand
    transcript = played.transcript
    anchor, run_ = min(item for item in openings(transcript).items() if item[0] > 6)  # the flop
    entries = list(transcript.entries)
    moved = entries.pop(run_[-1])
    entries.insert(run_[-1] + 1, moved)  # after the first flop action
    code, out, _ = verify(tmp_path, capsys, rechained(transcript, entries))
    assert code == 1
    assert f"entry {run_[-1] + 1} (shares from seat 2 (cy)): signed for the opening at entry {anchor}, but it is " \
           "not in that opening's unbroken run of shares (moved, or entries put between)" in out


def test_a_missing_or_forged_share_of_an_opening_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      hand: tuple[PlayedHand, list[object]]) -> None:
    played, players = hand
    transcript = played.transcript
    anchor, run_ = max(openings(transcript).items())  # the river
    river = transcript.entries[run_[1]].body.items[0].position  # type: ignore[union-attr]
    entries = list(transcript.entries)
    del entries[run_[1]]  # the host drops bob's share of the river, and chains the rest again
    code, out, _ = verify(tmp_path, capsys, rechained(transcript, entries))
    assert code == 1 and f"deck position {river}: does not open to a card (shares missing or not a card)" in out
    # a share signed against another opening's head: the signature binds the opening it answered
    entry = transcript.entries[run_[1]]
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, run_[1], replace(entry, anchor=anchor - 1)))
    assert code == 1 and f"entry {run_[1]} (shares from seat 1 (bob)): the signature does not verify" in out
    # an opening's share in another player's name, signed with a key he does not hold
    key = players[0]._signing  # type: ignore[attr-defined]
    forged = replace(sign_opening(transcript.header, anchor, transcript.entries[anchor].prev, 1, entry.body, key),
                     seq=entry.seq, prev=entry.prev)
    code, out, _ = verify(tmp_path, capsys, with_entry(transcript, run_[1], forged))
    assert code == 1 and f"entry {run_[1]} (shares from seat 1 (bob)): the signature does not verify" in out


def test_only_shares_are_signed_apart_from_the_chain(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     hand: tuple[PlayedHand, list[object]]) -> None:
    played, players = hand
    transcript = played.transcript
    index = index_of(transcript, Act, lambda entry: entry.body.action == "call")
    entry = transcript.entries[index]
    key = players[entry.sender]._signing  # type: ignore[attr-defined]
    loose = sign_opening(transcript.header, index, entry.prev, entry.sender, entry.body, key)
    code, out, _ = verify(tmp_path, capsys, rechained(transcript, [*transcript.entries[:index], loose,
                                                                   *transcript.entries[index + 1:]]))
    assert code == 1
    assert f"entry {index} (action from seat {entry.sender} (" in out
    assert "only a player's shares are signed apart from the chain" in out
