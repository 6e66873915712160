"""``croupier verify FILE``: re-check exported hand histories against their fairness transcripts (R-FAIR-1).

``FILE`` is what ``croupier export`` wrote (PokerStars-style text or PHH, each hand with its transcript; see
:mod:`hosting.hand_records`). For every hand: the transcript's seeds must match its commitments, its deck
positions must be dealt top-down, and every card the history shows (hole cards dealt, the board, hands shown)
must sit in the deck the seeds derive where the transcript says it was dealt. In a draw game that ran out of
cards, the replacements dealt past the deck are checked against the transcript's reshuffles, each recomputed
from the seeds and its pool, and the published discards are replayed (R-DRAW-1; ``reshuffle_card_mismatch``,
``reshuffle_mismatch``). One line per problem; exit 0 when every hand checks out, 1 when one does not (or has
no transcript), 2 when the file cannot be read.

Draws that are not decks (a Spin's multiplier, :mod:`engine.fair_draw`) are exported as proof lines
(``# croupier draw proof: <JSON>``, :data:`hosting.hand_records.DRAW_PROOF_PREFIX`) after a tournament's summary
or its hands; each is checked the same way: every revealed secret against its commitment, the host's too, the
withheld players, the draw index from the key and the outcome from the table (``draw_mismatch`` lines). A
tournament summary with its proofs and no hands is a file to verify too.

A host-blind hand's signed transcript (fairness v2, :mod:`engine.fairness_v2.transcript`: one JSON object per
line) is checked offline in full: the hash chain, every player's signature, the host's SSHSIG checkpoints
against the host key the file names (``--host-key SHA256:…`` insists on the one ``known_hosts`` pins), every
shuffle proof, every share and cover proof, every opened card, and every action and amount replayed by the
engine. Each problem says what and where (``hand h1: entry 14 (action from seat 2 (bob)): …``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.cards import parse_cards
from engine.fair_draw import DrawProof, check_proof
from engine.fairness import FairnessError, Observation, SeenCard, Transcript, verify
from engine.phh import PhhError, loads
from hosting.hand_records import DRAW_PROOF_PREFIX, TRANSCRIPT_PREFIX
from hosting.host_blind_verify import check_exported, check_host_blind, host_blind_transcripts

_SEAT = re.compile(r"^Seat (\d+): (.+) \(.* in chips(?:, [^)]* bounty)?\)")  # a knockout's ", $5 bounty"
_DEALT = re.compile(r"^Dealt to (.+?) (?:\[[^\]]*\] )?\[([^\]]*)\]$")  # stud: "[cards before] [new cards]"
_BOARD = re.compile(r"^\*\*\* [A-Z ]+ \*\*\* (?:\[[^\]]*\] )?\[([^\]]*)\]$")
_SHOWS = re.compile(r"^(.+): shows \[([^\]]*)\]")
_SECTION = re.compile(r"^\[\d+\]\s*$", re.MULTILINE)
SUMMARY_START = "PokerStars Tournament #"


@dataclass(frozen=True)
class ExportedHand:
    """One hand of an export: a label for messages, the cards it shows, its transcript (``None``: none) and
    its players by seat index (``names``: the engine's seats, as the transcript numbers them)."""

    label: str
    seen: tuple[SeenCard, ...]
    transcript: dict[str, object] | None
    names: Mapping[int, str] = field(default_factory=dict)


_SEAT_INDEX = re.compile(r"\bseat (\d+)\b")


def named(text: str, names: Mapping[int, str]) -> str:
    """A verifier's message with players named: the engine says ``seat N`` (its seat index), the export's
    reader says who sat there (``Seat N+1`` of the export when nobody is known).

    >>> named("the seed of seat 2 does not match its commitment; Qs was seen as card 1 of seat 0", {2: "bob"})
    'the seed of bob does not match its commitment; Qs was seen as card 1 of Seat 1'
    """
    return _SEAT_INDEX.sub(lambda match: names.get(int(match[1]), f"Seat {int(match[1]) + 1}"), text)


def pokerstars_hands(text: str) -> Iterator[ExportedHand]:
    """The hands of a PokerStars-style export, each with the transcript line that follows it."""
    transcripts: dict[str, dict[str, object]] = {}
    for line in text.splitlines():
        # the proofs block after the hands; exports before it wrote each proof after its hand, without "# "
        for prefix in (TRANSCRIPT_PREFIX, TRANSCRIPT_PREFIX.removeprefix("# ")):
            if line.startswith(prefix):
                number, _, body = line[len(prefix):].partition(": ")
                transcripts[number] = json.loads(body)
    for chunk in re.split(r"\n{3,}", text):
        lines = chunk.strip("\n").splitlines()
        if not lines or not lines[0].startswith("PokerStars Hand #"):
            continue
        number = lines[0][len("PokerStars Hand #"):].split(":", 1)[0]
        seats: dict[str, int] = {}
        seen: list[SeenCard] = []
        dealt: set[int] = set()
        for line in lines:
            if match := _SEAT.match(line):  # the summary's "Seat n:" lines have no "in chips"
                seats.setdefault(match[2], int(match[1]) - 1)
            elif match := _DEALT.match(line):
                seat = seats[match[1]]
                dealt.add(seat)
                seen += [SeenCard(seat, card) for card in parse_cards(match[2])]
            elif match := _BOARD.match(line):
                seen += [SeenCard("board", card) for card in parse_cards(match[1])]
            elif (match := _SHOWS.match(line)) and match[1] in seats and seats[match[1]] not in dealt:
                seen += [SeenCard(seats[match[1]], card) for card in parse_cards(match[2])]
        entry = transcripts.get(number)
        transcript = entry.get("transcript") if entry else None
        label = f"hand #{number}" + (f" ({entry['hand']})" if entry else "")
        yield ExportedHand(label, tuple(seen), transcript if isinstance(transcript, dict) else None,
                           {seat: name for name, seat in seats.items()})


def phh_hands(text: str) -> Iterator[ExportedHand]:
    """The records of a PHH export (one record, or ``[n]`` sections) with their ``_transcript`` fields."""
    sections = [part for part in _SECTION.split(text) if part.strip()] if _SECTION.search(text) else [text]
    for index, section in enumerate(sections, 1):
        record = loads(section)
        seats = record.seats or tuple(range(1, record.player_count + 1))
        seen: list[SeenCard] = []
        known: set[int] = set()
        for action in record.actions:
            if action.verb == "dh":
                seat = seats[action.target - 1] - 1
                cards = [card for card in action.cards if card is not None]
                if cards:
                    known.add(seat)
                seen += [SeenCard(seat, card) for card in cards]
            elif action.verb == "sd" and action.actor == 0:
                continue
            elif action.verb == "db":
                seen += [SeenCard("board", card) for card in action.cards if card is not None]
            elif action.verb == "sm" and action.cards and seats[action.actor - 1] - 1 not in known:
                seen += [SeenCard(seats[action.actor - 1] - 1, card) for card in action.cards if card is not None]
        raw = record.metadata.get("_transcript")
        transcript = json.loads(raw) if isinstance(raw, str) else None
        label = f"record {index}" + (f" ({record.metadata['_hand_id']})" if "_hand_id" in record.metadata else "")
        names = {seat - 1: name for seat, name in zip(seats, record.players or (), strict=False)}
        yield ExportedHand(label, tuple(seen), transcript, names)


def check(hand: ExportedHand) -> list[str]:
    """The problems of one hand (empty when its shuffle checks out)."""
    if hand.transcript is None:
        return [f"{hand.label}: no fairness transcript"]
    if "host_blind" in hand.transcript:  # a host-blind hand: its signed transcript, checked in full
        return [named(line, hand.names) for line in check_exported(hand.label, hand.transcript["host_blind"],
                                                                   hand.seen, hand.transcript.get("button_draw"))]
    try:
        transcript = Transcript.from_json(hand.transcript)
    except FairnessError as problem:
        return [f"{hand.label}: {problem}"]
    observation = Observation(None, None, transcript.commitments, hand.seen)
    return [f"{hand.label}: {violation.kind.value}: {named(violation.message, hand.names)}"
            for violation in verify(transcript, observation).violations]


def check_draws(text: str) -> tuple[int, list[str]]:
    """How many draw proofs the export holds, and their problems (``draw <id>: draw_mismatch: …``)."""
    problems: list[str] = []
    count = 0
    for line in text.splitlines():
        if not line.startswith(DRAW_PROOF_PREFIX):
            continue
        count += 1
        try:
            data = json.loads(line[len(DRAW_PROOF_PREFIX):])
            proof = DrawProof.from_json(data if isinstance(data, dict) else {})
        except (ValueError, FairnessError) as problem:
            problems.append(f"draw {count}: bad_proof: {problem}")
            continue
        problems += [f"draw {proof.draw_id}: draw_mismatch: {problem}" for problem in check_proof(proof)]
    return count, problems


def read_hands(text: str) -> list[ExportedHand]:
    """The hands of an export in either format; ``ValueError`` when the text is neither."""
    if text.lstrip().startswith(SUMMARY_START):
        return []  # a tournament summary: its draw proofs are checked by check_draws
    if text.lstrip().startswith("PokerStars Hand #"):
        return list(pokerstars_hands(text))
    try:
        return list(phh_hands(text))
    except (PhhError, ValueError, KeyError, IndexError) as problem:
        raise ValueError(f"neither PokerStars-style text nor PHH: {problem}") from None


def run(arguments: argparse.Namespace) -> int:
    path = Path(arguments.history)
    try:
        text = path.read_text(encoding="utf-8")
        host_blind = host_blind_transcripts(text)
        hands = [] if host_blind else read_hands(text)
    except (OSError, UnicodeDecodeError, ValueError) as problem:
        print(f"croupier verify: cannot read {path}: {problem}", file=sys.stderr)
        return 2
    if host_blind:
        return check_host_blind(host_blind, path, arguments.host_key)
    problems = [line for hand in hands for line in check(hand)]
    draws, draw_problems = check_draws(text)
    if not (hands or draws):  # not a success: the file proves nothing (a Sit & Go summary has no draw proof)
        print(f"croupier verify: nothing to check in {path}: no hands and no draw proofs (a Sit & Go or MTT "
              "summary has none: its hands are in the file `croupier export` writes)", file=sys.stderr)
        return 1
    for line in problems + draw_problems:
        print(line)
    bad = len({line.split(":", 1)[0] for line in problems})
    verdict = f"{bad} hand(s) fail" if problems else "every shuffle checks out"
    if draws:
        bad_draws = len({line.split(":", 1)[0] for line in draw_problems})
        verdict += f"; {draws} draw(s), " + (f"{bad_draws} fail" if draw_problems else "every draw checks out")
    print(f"croupier verify: {len(hands)} hand(s) in {path}; {verdict}", file=sys.stderr)
    return 1 if problems or draw_problems or not (hands or draws) else 0

