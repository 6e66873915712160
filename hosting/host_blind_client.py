"""A client's part in host-blind hands (fairness v2, issue 29): :class:`HostBlindParticipant`.

It holds the player's secrets (one :class:`engine.fairness_v2.player.Player` per table and seat: ElGamal,
signing and box keys), runs its own referee of every hand it is dealt into, and answers the room's
``blind_request`` with what *its own referee* says is due — never what the request asks for — signed. Its
hole cards it decrypts itself from the others' shares: the room only ever sends "two cards dealt face down",
and :meth:`HostBlindParticipant.rewrite` puts the real ones into this client's view of its own seat. Its
actions at a host-blind table become signed entries (:meth:`HostBlindParticipant.action`).

Whatever fails its referee's check is kept in :attr:`HostBlindParticipant.complaints` (who and what).
"""

from __future__ import annotations

import secrets
from typing import Any

import msgspec

from engine.events import CardsDealtFaceDown, HoleCardsDealt
from engine.fairness_v2.group import DEFAULT_GROUP
from engine.fairness_v2.opening import ScheduleViolation
from engine.fairness_v2.player import Player
from engine.fairness_v2.referee import DISCLOSE, ProtocolError
from engine.fairness_v2.transcript import Act, Body, Entry, Header, Shares, entry_head
from hosting import protocol

_ENTRY = msgspec.json.Decoder(Entry)
COMPLAINT_CHARACTERS = 300
_HEADER = msgspec.json.Decoder(Header)
_ACTIONS = {"fold": "fold", "check": "check", "call": "call", "bet": "bet", "raise_to": "raise", "complete": "raise"}


def _text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


class HostBlindParticipant:
    """One connection's player at host-blind tables (``name``: his name in the room)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._players: dict[tuple[str, int], Player] = {}
        self._hands: dict[str, tuple[str, Player]] = {}  # table → (hand id, the player dealt into it)
        self._legal: dict[str, dict[str, Any]] = {}  # table → the last action request's legal actions
        self._last: dict[str, Body] = {}  # table → the last action sent (signed again if the head moved)
        self.tables: set[str] = set()  # tables that deal host-blind (from their table messages)
        self.complaints: list[str] = []
        self.hole_cards: dict[str, tuple[str, ...]] = {}  # hand id → my cards as I decrypted them
        self.results: dict[tuple[str, str], list[str]] = {}  # (table, hand) → what my check of it found

    # --- messages in ---------------------------------------------------------------------------------

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Replies to ``message`` (a room message already read)."""
        kind = message.get("type")
        table = str(message.get("table", ""))
        try:
            if kind == "table":
                (self.tables.add if message.get("dealing") == "host-blind" else self.tables.discard)(table)
            elif kind == "blind_request":
                return self._request(table, message)
            elif kind == "blind_header":
                self._header(table, message)
            elif kind == "blind_entry":
                return self._entry(table, message)
            elif kind == "blind_end":
                self._end(table, message)
            elif kind == "action_request" and table in self.tables:
                self._legal[table] = dict(message.get("legal") or {})
            elif kind == "error" and message.get("code") == "stale_entry" and message.get("in_reply_to") == \
                    "blind_entry":
                return self._resend()
        except (ValueError, KeyError, ProtocolError, ScheduleViolation, RuntimeError) as problem:
            self.complaints.append(f"{kind} at {table}: {problem}")
        return []

    def _request(self, table: str, message: dict[str, Any]) -> list[dict[str, Any]]:
        step, seat, hand = str(message["step"]), int(message["seat"]), str(message["hand"])
        if step == "seat":
            player = self._players.get((table, seat))
            if player is None or player.name != self.name or message.get("fresh") is True:  # a pool's new hand
                player = self._players[(table, seat)] = Player(seat, self.name, DEFAULT_GROUP, secrets)
            record = player.seat_record(table, int(message["stack"]), secrets)
            return [protocol.message("blind_seat", table=table, hand=hand, record=_text(record))]
        current = self._hands.get(table)
        if current is None or current[0] != hand:
            raise ValueError(f"asked for {step} in hand {hand}, which I was not dealt into")
        player = current[1]
        body: Body
        if step == "escrow":
            body = player.escrow(secrets)
        elif step == "shuffle":
            body = player.shuffle(secrets)
        elif step == "deal":
            body = player.deal_shares(secrets)
        elif step == "board":
            body = player.board_shares(secrets)
        elif step == "show":
            body = player.show(secrets)
        elif step == "covers":
            body = player.covers(int(message["missing"]), secrets)
        elif step == DISCLOSE:
            body = player.disclose(int(message["holder"]))
        else:
            raise ValueError(f"unknown step {step!r}")
        if isinstance(body, Shares) and message.get("anchor") is not None:  # asked of everyone at once: signed
            entry = player.sign_opening(body)  # against the head my referee is at, the opening's start
            return [protocol.message("blind_entry", table=table, hand=hand, entry=_text(entry))]
        return [self._signed(table, hand, player, body)]

    def _signed(self, table: str, hand: str, player: Player, body: Body) -> dict[str, Any]:
        referee = player.ref
        entry = player.sign(referee.seq, referee.head, body)
        return protocol.message("blind_entry", table=table, hand=hand, entry=_text(entry))

    def _header(self, table: str, message: dict[str, Any]) -> None:
        header = _HEADER.decode(str(message["header"]))
        mine = next((record for record in header.seats if record.name == self.name), None)
        player = self._players.get((table, mine.seat)) if mine is not None else None
        if mine is None or player is None:
            raise ValueError(f"hand {header.hand}: a header without my seat")
        current = self._hands.get(table)
        if current is not None and current[0] == header.hand and current[1] is player \
                and player.referee is not None and player.ref.header == header:
            return  # the same hand again, after a reconnect: my part of it goes on where it was
        player.start(header, secrets)
        self._hands[table] = (header.hand, player)
        self._last.pop(table, None)

    def _entry(self, table: str, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply a relayed entry; what my check of it finds goes to the room too (``blind_complaint``): a false
        escrow share sealed to me names its dealer (the room asks him to disclose it), anything else names the
        entry."""
        current = self._hands.get(table)
        if current is None or current[0] != message.get("hand"):
            return []
        hand, player = current
        violations, complaints, disputes = len(player.ref.violations), len(player.complaints), len(player.disputes)
        entry = _ENTRY.decode(str(message["entry"]))
        if entry.seq < player.ref.seq:  # relayed again after a reconnect: applied already, if it is the same
            if player.ref.heads[entry.seq + 1] != entry_head(entry):
                self.complaints.append(f"entry {entry.seq} was relayed again, changed")
            return []
        if entry.sender == player.seat:
            self._last.pop(table, None)
        player.receive(entry)
        found = [str(item) for item in player.ref.violations[violations:]] + player.complaints[complaints:]
        self.complaints += found
        replies = [protocol.message("blind_complaint", table=table, hand=hand, dealer=dealer,
                                    what=f"seat {dealer}'s escrow share sealed to me is false")
                   for dealer in player.disputes[disputes:]]
        if len(found) > len(replies):
            replies.append(protocol.message("blind_complaint", table=table, hand=hand, seq=entry.seq,
                                            what="; ".join(found)[:COMPLAINT_CHARACTERS]))
        return replies

    def _end(self, table: str, message: dict[str, Any]) -> None:
        """The hand is over: my referee replays it with the opened cards (the result, every hand the engine
        turned up opened) and what it found is the hand's verdict."""
        current = self._hands.get(table)
        if current is None or current[0] != message.get("hand") or message.get("void"):
            return  # a deal given up before any chip moved: no hand to judge
        referee = current[1].ref
        referee.finish()
        self.results[(table, current[0])] = [str(item) for item in referee.violations]

    # --- what the client shows and sends ------------------------------------------------------------

    def rewrite(self, message: dict[str, Any]) -> dict[str, Any]:
        """My own seat's face-down cards as the cards I decrypted (the room never knew them)."""
        if message.get("type") != "event":
            return message
        event = message.get("event")
        table = str(message.get("table", ""))
        current = self._hands.get(table)
        if not isinstance(event, CardsDealtFaceDown) or current is None or current[0] != message.get("hand") \
                or event.seat != current[1].seat:
            return message
        cards = current[1].hole_cards()
        if any(card is None for card in cards):
            referee = current[1].ref
            if not (referee.voided or (referee.started and referee.replay.hand.is_over)):
                self.complaints.append(f"hand {current[0]}: my hole cards do not open")
            return message  # void, or over before the deal (the others dropped out): nothing was opened
        from engine.cards import format_cards
        self.hole_cards[current[0]] = tuple(format_cards(cards).split())  # type: ignore[arg-type]
        return {**message, "event": HoleCardsDealt(event.seat, tuple(card for card in cards if card is not None))}

    def action(self, fields: dict[str, Any]) -> dict[str, Any] | None:
        """The signed entry for an ``action`` at a host-blind table (``None``: not one of those tables)."""
        table, hand = str(fields.get("table", "")), str(fields.get("hand", ""))
        current = self._hands.get(table)
        if table not in self.tables or current is None or current[0] != hand:
            return None
        player = current[1]
        kind = str(fields.get("kind"))
        body: Body
        if kind == "show":
            body = player.show(secrets)
        elif kind == "muck":
            body = player.muck()
        elif kind == "all_in":
            legal = self._legal.get(table, {})
            top = legal.get("max_raise_to")
            body = Act("raise", int(top)) if top is not None else Act("call")
        elif kind in _ACTIONS:
            body = Act(_ACTIONS[kind], int(fields.get("amount") or 0))
        else:
            raise ValueError(f"{kind!r} is not an action at a host-blind table")
        self._last[table] = body
        return self._signed(table, hand, player, body)

    def _resend(self) -> list[dict[str, Any]]:
        replies = []
        for table, body in list(self._last.items()):
            current = self._hands.get(table)
            if current is not None:
                replies.append(self._signed(table, current[0], current[1], body))
        return replies
