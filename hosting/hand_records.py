"""Stored hands read back: the record, its game, and its history as PokerStars-style text or PHH.

Used by ``croupier export``/``reports``/``audit`` and by :meth:`hosting.store.Store.report_hand`. Every exported
hand carries its fairness transcript so ``croupier verify`` can re-check it offline (R-FAIR-1):

- PokerStars-style text: hands separated by two empty lines (as PokerStars writes them, and as PokerKit's
  parser splits them), nothing but PokerStars lines inside them; after the last hand, two empty lines and a
  comment block of proofs (:func:`proofs_block`), one line ``# croupier transcript #<number>: <JSON>`` per
  hand, that trackers and PokerKit skip (it is no hand: it does not open with "PokerStars Hand #").
  The JSON is ``{"hand": id, "transcript": {…}}`` (:meth:`engine.fairness.Transcript.to_json`).
- PHH: a ``.phhs`` file (PHH's several-hands form: ``[1]``, ``[2]``… sections), each record with the user
  fields ``_hand_id``, ``_table``, ``_time`` and ``_transcript`` (the transcript JSON as a string).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.events import Event, view_for
from engine.fair_draw import DrawProof
from engine.hand import ForcedBets, HandConfig
from engine.history import pokerstars_text
from engine.home import HomeOptions
from engine.phh import dumps, record_from_events
from engine.tournament.events import BountyWon, Eliminated, PrizeAwarded, Ranked
from engine.tournament_history import BountyTaken, Finished, TournamentHand, TournamentInfo
from hosting.config import TableConfig
from hosting.engine_tables import build_engine_table
from hosting.hand_codec import decode_events, forced_bets_from_json

POKERSTARS_GAMES = frozenset({"texas_holdem"})
"""Games whose PokerStars-style text an independent parser reads (PokerKit 0.7.7 parses only hold'em);
the others are exported all the same, and re-checked through PHH in the tests."""

TRANSCRIPT_PREFIX = "# croupier transcript #"
"""A proof line of a PokerStars-style export; exports before issue 14 wrote it without the ``# ``."""
DRAW_PROOF_PREFIX = "# croupier draw proof: "
"""A draw's proof line in an export (a tournament summary's proofs block): the JSON of
:meth:`engine.fair_draw.DrawProof.to_json` (a Spin's multiplier; ``croupier verify`` checks it)."""
PROOFS_HEADING = ("# croupier fairness proofs: one line per hand above, checked by `croupier verify FILE` "
                  "(trackers skip this block)")


@dataclass(frozen=True)
class StoredHand:
    """One row of ``hands``, decoded. ``number`` is the store's row number (the PokerStars hand number)."""

    number: int
    hand_id: str
    table_id: str
    table_hand_number: int
    status: str
    started_at: float
    finished_at: float | None
    players: Mapping[int, str]
    stacks: Mapping[int, int]
    forced_bets: ForcedBets
    settings: Mapping[str, Any]
    events: Sequence[Event] | None
    result: Mapping[str, Any] | None
    transcript: Mapping[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        from hosting.hand_codec import events_to_json, forced_bets_to_json

        return {"hand": self.hand_id, "table": self.table_id, "number": self.table_hand_number,
                "status": self.status, "started_at": self.started_at, "finished_at": self.finished_at,
                "players": {str(seat): name for seat, name in self.players.items()},
                "stacks": {str(seat): stack for seat, stack in self.stacks.items()},
                "forced_bets": forced_bets_to_json(self.forced_bets), "settings": dict(self.settings),
                "events": None if self.events is None else events_to_json(self.events),
                "result": self.result, "transcript": self.transcript}

    def hand_config(self) -> HandConfig:
        return hand_config(self.settings)


HAND_COLUMNS = ("rowid, id, table_id, number, status, started_at, finished_at, players, snapshot, events, result, "
            "transcript")


def decode_hand(row: Sequence[Any]) -> StoredHand:
    """A ``hands`` row selected as :data:`HAND_COLUMNS`, decoded (``CodecError``/``ValueError``/``KeyError`` if bad)."""
    rowid, hand_id, table_id, number, status, started_at, finished_at, players, snapshot, events, result, \
        transcript = row
    snap = json.loads(snapshot)
    return StoredHand(
        number=int(rowid), hand_id=hand_id, table_id=table_id, table_hand_number=int(number), status=status,
        started_at=float(started_at), finished_at=finished_at,
        players={int(seat): name for seat, name in json.loads(players).items()},
        stacks={int(seat): int(stack) for seat, stack in snap["stacks"].items()},
        forced_bets=forced_bets_from_json(snap["forced_bets"]), settings=snap.get("settings", {}),
        events=None if events is None else decode_events(events),
        result=None if result is None else json.loads(result),
        transcript=None if transcript is None else json.loads(transcript),
    )


def load_hand(connection: sqlite3.Connection, hand_id: str) -> StoredHand | None:
    row = connection.execute(f"SELECT {HAND_COLUMNS} FROM hands WHERE id = ?", (hand_id,)).fetchone()
    return None if row is None else decode_hand(row)


def iter_hands(connection: sqlite3.Connection, *, status: str | None = "finished", since: float | None = None,
               player: str | None = None) -> Iterator[StoredHand]:
    """Stored hands in the order they started; ``since`` in epoch seconds; ``player``: hands he was dealt in."""
    query = f"SELECT {HAND_COLUMNS} FROM hands WHERE 1 = 1"
    parameters: list[Any] = []
    if status is not None:
        query += " AND status = ?"
        parameters.append(status)
    if since is not None:
        query += " AND started_at >= ?"
        parameters.append(since)
    query += " ORDER BY started_at, rowid"
    for row in connection.execute(query, parameters):
        hand = decode_hand(row)
        if player is None or player in hand.players.values():
            yield hand


def hand_config(settings: Mapping[str, Any]) -> HandConfig:
    """The engine's hand settings for a stored table's settings (:class:`hosting.config.TableConfig` fields)."""
    known = {name: settings[name] for name in TableConfig.__dataclass_fields__ if name in settings}
    if isinstance(known.get("home"), Mapping):  # stored as JSON: the home-game options' own fields (R-HOME-1..4)
        known["home"] = HomeOptions(**{key: value for key, value in known["home"].items()
                                       if key in HomeOptions.__dataclass_fields__})
    return build_engine_table(TableConfig(**known)).config.hand


def _seat_of(hand: StoredHand, player: str | None) -> int | None:
    if player is None:
        return None
    return next((seat for seat, name in hand.players.items() if name == player), None)


def _view(hand: StoredHand, player: str | None) -> list[Event]:
    assert hand.events is not None
    events = list(hand.events)
    seat = _seat_of(hand, player)
    return events if player is None else view_for(events, seat)


def _played_at(hand: StoredHand) -> datetime:
    return datetime.fromtimestamp(hand.started_at, UTC)


TOURNAMENT_TAG = "tournament"
"""A tournament hand's tag in its stored settings: ``{"id": …, "buy_in": …, "fee": …, "bounty": …, "level": L,
"table": T}`` (the tournament's id, its entry in the room's units, the level the hand was dealt at, the director's
table number). A hand with it is exported in PokerStars' tournament layout, numbered as its tournament's row in
the store (``Tournament #N``, as its summary); its chips are tournament chips, never ledger rows."""


def tournament_tag(tournament_id: str, buy_in: int, fee: int, bounty: int, level: int, table: int,
                   heads: Mapping[int, int] | None = None, outcome: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The tag a tournament's table owner stores with each hand's settings (:data:`TOURNAMENT_TAG`); ``heads``:
    in a knockout, seat → the bounty on that player as the hand starts; ``outcome``: what the hand decided
    (:func:`hand_outcome`)."""
    return {"id": tournament_id, "buy_in": buy_in, "fee": fee, "bounty": bounty, "level": level, "table": table,
            "heads": {str(seat): amount for seat, amount in (heads or {}).items()}, **(outcome or {})}


def hand_outcome(changes: Sequence[Event], players: Collection[str], heads: Mapping[str, int]) -> dict[str, Any]:
    """What the director's ``changes`` after a hand say about its ``players`` (those dealt in), for the hand's
    PokerStars lines: ``taken`` — bounties ``[winner, loser, amount, added, head]`` (``head``: the winner's own
    bounty after it, from ``heads`` as the hand started); ``finished`` — ``[player, place, prize]`` for each
    place now known (a shootout round's or hand-for-hand's places may come with a later hand: none here then).

    >>> hand_outcome([BountyWon("ann", "bob", 12, "progressive", 13), Eliminated("bob", 2, 3),
    ...               PrizeAwarded("bob", 2, 3, 40)], {"ann", "bob"}, {"ann": 25})
    {'taken': [['ann', 'bob', 12, 13, 38]], 'finished': [['bob', 3, 40]]}
    """
    taken: list[list[Any]] = []
    places: dict[str, int] = {}
    prizes: dict[str, int] = {}
    own = dict(heads)
    for event in changes:
        if isinstance(event, BountyWon) and event.kind != "own" and event.winner in players:
            own[event.winner] = own.get(event.winner, 0) + event.added_to_own
            taken.append([event.winner, event.loser, event.amount, event.added_to_own,
                          own[event.winner] if event.added_to_own else 0])
        elif isinstance(event, Eliminated | Ranked) and event.player in players and event.place is not None:
            places[event.player] = event.place
        elif isinstance(event, PrizeAwarded) and event.player in players and event.secondary is None:
            places.setdefault(event.player, event.place)
            prizes[event.player] = prizes.get(event.player, 0) + event.amount
    finished = [[player, place, prizes.get(player, 0)] for player, place in places.items()]
    return {"taken": taken, "finished": finished}


def tournament_hand(settings: Mapping[str, Any], numbers: Mapping[str, int] | None = None) -> TournamentHand | None:
    """The tournament a stored hand was dealt in, from its settings' tag (``None``: a cash hand; a malformed tag
    counts as none, so the hand is still exported). ``numbers``: each tournament's number (its store row); a
    tournament without one is numbered by its id when that is digits, else 0."""
    tag = settings.get(TOURNAMENT_TAG)
    if not isinstance(tag, Mapping):
        return None
    try:
        values = {key: int(tag[key]) for key in ("buy_in", "fee", "bounty", "level", "table")}
    except (KeyError, TypeError, ValueError):
        return None
    name = str(tag.get("id", ""))
    number = (numbers or {}).get(name, int(name) if name.isdigit() else 0)
    info = TournamentInfo(number, values["buy_in"], values["fee"], values["bounty"])
    heads = tag.get("heads")
    try:
        bounties = {int(seat): int(amount) for seat, amount in heads.items()} if isinstance(heads, Mapping) else {}
    except (TypeError, ValueError):
        bounties = {}
    try:  # a hand stored before these were kept has none; a malformed one is left out, never the hand
        taken = tuple(BountyTaken(str(winner), str(loser), int(amount), int(added), int(head))
                      for winner, loser, amount, added, head in tag.get("taken") or ())
        finished = tuple(Finished(str(player), int(place), int(prize))
                         for player, place, prize in tag.get("finished") or ())
    except (TypeError, ValueError):
        taken, finished = (), ()
    return TournamentHand(info, max(1, values["level"]), values["table"], bounties, taken, finished)


def is_tournament_hand(hand: StoredHand) -> bool:
    """Whether a stored hand was a tournament's (its chips are not the room's: no ledger rows)."""
    return isinstance(hand.settings.get(TOURNAMENT_TAG), Mapping)


def pokerstars_hand(hand: StoredHand, player: str | None = None, numbers: Mapping[str, int] | None = None) -> str:
    """The hand as PokerStars-style text (``player``: as that player saw it, else the host's full copy), ending
    with a newline; its proof is :func:`proof_line`. ``numbers``: tournaments' numbers (:func:`tournament_hand`).
    ``engine.history.HistoryError`` for an unfinished hand."""
    settings = hand.settings
    text = pokerstars_text(
        _view(hand, player), hand.hand_config(), hand.forced_bets, hand_id=hand.number, players=hand.players,
        table_name=str(settings.get("name", hand.table_id)), seat_count=int(settings.get("seats", 10)),
        played_at=_played_at(hand), tournament=tournament_hand(settings, numbers))
    return text.rstrip("\n") + "\n"


def draw_proof_line(proof: DrawProof) -> str:
    """A draw's line in an export's proofs block (:data:`DRAW_PROOF_PREFIX`)."""
    return DRAW_PROOF_PREFIX + json.dumps(proof.to_json(), sort_keys=True, separators=(",", ":"))


def proof_line(hand: StoredHand) -> str:
    """The hand's line in the proofs block of a PokerStars-style export: its number, id and transcript."""
    trailer = json.dumps({"hand": hand.hand_id, "transcript": hand.transcript}, sort_keys=True,
                         separators=(",", ":"))
    return f"{TRANSCRIPT_PREFIX}{hand.number}: {trailer}"


def pokerstars_export(hands: Sequence[str], proofs: Sequence[str]) -> str:
    """The hands (each from :func:`pokerstars_hand`), two empty lines apart, then the proofs block.

    >>> print(pokerstars_export(["PokerStars Hand #1: x\\n"], ["# croupier transcript #1: {}"]), end="|")
    PokerStars Hand #1: x
    <BLANKLINE>
    <BLANKLINE>
    # croupier fairness proofs: one line per hand above, checked by `croupier verify FILE` (trackers skip this block)
    # croupier transcript #1: {}
    |
    """
    if not hands:
        return ""
    block = "\n".join([PROOFS_HEADING, *proofs])
    return "\n\n".join([*hands, block + "\n"])


def phh_hand(hand: StoredHand, player: str | None = None) -> str:
    """The hand as one PHH record with its transcript in ``_transcript`` (``engine.phh.PhhError`` when PHH
    cannot express it: dead or out-of-position blinds)."""
    metadata: dict[str, object] = {
        "_hand_id": hand.hand_id, "_table": hand.table_id,
        "_time": _played_at(hand).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "_transcript": json.dumps(hand.transcript, sort_keys=True, separators=(",", ":")),
    }
    record = record_from_events(_view(hand, player), hand.hand_config(), hand.forced_bets, players=hand.players,
                                metadata=metadata)
    return dumps(record)


def render_history(hand: StoredHand) -> str:
    """The full history kept with a hand report (R-AUDIT-1): PokerStars-style text, else PHH."""
    from engine.history import HistoryError
    from engine.phh import PhhError

    try:
        return pokerstars_export([pokerstars_hand(hand)], [proof_line(hand)])
    except (HistoryError, KeyError, ValueError):
        try:
            return phh_hand(hand)
        except (PhhError, ValueError):
            return json.dumps(hand.to_json(), sort_keys=True)
