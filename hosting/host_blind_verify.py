"""``croupier verify`` for host-blind hands (fairness v2): reads signed transcripts, checks each offline.

A file holds one transcript per line (msgspec JSON, :func:`engine.fairness_v2.transcript.dumps`). Nothing in it is
trusted: a line that does not parse is a problem of that hand, and names from the file are cleaned before they
are printed.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.fair_draw import DrawProof, check_proof
from engine.fairness import FairnessError, SeenCard
from engine.fairness_v2.referee import verify_transcript
from engine.fairness_v2.transcript import HandTranscript, Header, loads
from engine.text import clean_text
from hosting.draw_round import button_draw_id
from hosting.transcript_signing import fingerprint, sshsig_verifier

_START = '{"header":'


def host_blind_transcripts(text: str) -> list[HandTranscript | str]:
    """Each line's transcript (or why it does not parse); empty when the file is not a v2 transcript file."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or not lines[0].lstrip().startswith(_START):
        return []
    found: list[HandTranscript | str] = []
    for number, line in enumerate(lines, 1):
        try:
            found.append(loads(line))
        except ValueError as problem:
            found.append(f"line {number}: not a host-blind transcript: {problem}")
    return found


def check_button_draw(label: str, data: object, header: Header) -> list[str]:
    """The first hand's button draw (``button_draw``, kept beside its transcript): the commit–reveal proof checks
    out, it was drawn for this hand, one equal row per seat dealt in, and its seat is the transcript's button."""
    try:
        proof = DrawProof.from_json(data if isinstance(data, dict) else {})
    except FairnessError as problem:
        return [f"{label}: the button draw's proof cannot be read: {clean_text(str(problem))[:200]}"]
    problems = [f"{label}: button draw: {clean_text(problem)[:200]}" for problem in check_proof(proof)]
    rows = {outcome for outcome, _ in proof.outcomes}
    if proof.draw_id != button_draw_id(header.hand):
        problems.append(f"{label}: the button draw was made for {clean_text(proof.draw_id)[:80]}, not this hand")
    if any(weight != 1 for _, weight in proof.outcomes) or len(rows) != len(proof.outcomes) \
            or not {record.seat for record in header.seats} <= rows:
        problems.append(f"{label}: the button draw does not give each seat dealt in one equal chance")
    if proof.outcome != header.button:
        problems.append(f"{label}: the button draw gave seat {proof.outcome + 1} the button, but seat "
                        f"{header.button + 1} had it")
    return problems


def check_exported(label: str, data: object, seen: Sequence[SeenCard], button_draw: object = None) -> list[str]:
    """A host-blind hand of a PHH or PokerStars-style export (its ``host_blind`` transcript, kept where trackers
    ignore it): the transcript checked in full, and every card the history shows (the board, a hand shown) must
    be the card the transcript opened there. Cards nobody opened are ``????`` in the history: nothing to check.
    ``button_draw``: a table's first hand's button draw (:func:`check_button_draw`)."""
    try:
        transcript = loads(json.dumps(data))
    except (ValueError, TypeError) as problem:
        return [f"{label}: not a host-blind transcript: {clean_text(str(problem))[:200]}"]
    violations, outcome = verify_transcript(transcript, sshsig_verifier(transcript.header.host_key), secrets)
    problems = [f"{label}: {clean_text(str(violation))}" for violation in violations]
    if button_draw is not None:
        problems += check_button_draw(label, button_draw, transcript.header)
    if outcome is None:
        return problems
    board = set(outcome.board)
    for item in seen:
        opened = board if item.recipient == "board" else set(outcome.shown.get(int(item.recipient), ()))
        if item.card not in opened:
            where = "the board" if item.recipient == "board" else f"seat {item.recipient}"
            problems.append(f"{label}: {item.card} shown for {where} is not what the transcript opened there")
    return problems


def check_host_blind(transcripts: list[HandTranscript | str], path: Path, pinned: str | None) -> int:
    problems: list[str] = []
    keys: set[str] = set()
    for item in transcripts:
        if isinstance(item, str):
            problems.append(item)
            continue
        label = f"hand {clean_text(item.header.hand)[:40]}"
        signer = fingerprint(item.header.host_key)
        keys.add(signer)
        if pinned is not None and signer != pinned:
            problems.append(f"{label}: signed by host key {signer}, not {clean_text(pinned)[:60]}")
        violations, _ = verify_transcript(item, sshsig_verifier(item.header.host_key), secrets)
        problems += [f"{label}: {clean_text(str(violation))}" for violation in violations]
    for line in problems:
        print(line)
    bad = len({line.split(":", 1)[0] for line in problems})
    hosts = ", ".join(sorted(keys)) or "?"
    verdict = f"{bad} hand(s) fail" if problems else "every signature, proof, card, action and amount checks out"
    print(f"croupier verify: {len(transcripts)} host-blind hand(s) in {path}, signed by host key {hosts}; "
          f"{verdict}" + ("" if pinned else " (compare that key with the room's: --host-key insists on it)"),
          file=sys.stderr)
    return 1 if problems else 0
