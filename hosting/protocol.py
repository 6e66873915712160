"""The room protocol, version 1: newline-delimited JSON over the ``croupier`` SSH subsystem (hosting/PROTOCOL.md).

Every message is one JSON object on one line, ``{"v": 1, "type": "...", ...}``. This module is the single
place that knows the message shapes:

- inbound (client → room) messages are frozen dataclasses, one per ``type`` (:data:`INBOUND_TYPES`), and
  :func:`parse_message` turns a line into one of them or into an :class:`ProtocolError` naming the problem;
- :class:`InboundStream` cuts a byte stream into lines, refuses oversized lines, applies the per-connection
  rate limit (:class:`TokenBucket`) and counts abuse, deciding when to disconnect;
- outbound (room → client) messages are built by the small functions at the end (:func:`hello`,
  :func:`error`, :func:`lobby`, …) and written with :func:`encode`.

Nothing here does I/O or reads the clock: times come in as arguments (seconds, any monotonic origin).
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Final, Literal, Union

from engine.cards import Card
from hosting.hand_codec import CodecError, event_from_json

VERSION: Final = 1
SUBSYSTEM: Final = "croupier"
"""The SSH subsystem name speaking this protocol (``ssh -s -p PORT name@host croupier``)."""
MAX_LINE_BYTES: Final = 16_384
"""Longest inbound line accepted, newline excluded; a longer one is refused with ``line_too_long``."""
MAX_CHIPS: Final = 10**15
MAX_LIST_ITEMS: Final = 64

# Error codes sent in ``error`` replies (PROTOCOL.md "Errors").
BAD_JSON: Final = "bad_json"
BAD_UTF8: Final = "bad_utf8"
NOT_AN_OBJECT: Final = "not_an_object"
BAD_VERSION: Final = "bad_version"
UNKNOWN_TYPE: Final = "unknown_type"
MISSING_FIELD: Final = "missing_field"
UNKNOWN_FIELD: Final = "unknown_field"
BAD_FIELD: Final = "bad_field"
LINE_TOO_LONG: Final = "line_too_long"
RATE_LIMITED: Final = "rate_limited"


class ProtocolError(ValueError):
    """An inbound line breaks protocol v1. ``code`` is one of the error codes above; ``field`` the bad field."""

    def __init__(self, code: str, message: str, *, field: str | None = None, type: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.type = type

    def reply(self) -> dict[str, Any]:
        """The ``error`` message to send back."""
        return error(self.code, str(self), field=self.field, in_reply_to=self.type)


# --- field constraints -------------------------------------------------------------------------------------

_TABLE_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}\Z")
_HAND_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}\Z")
_HEX_32 = re.compile(r"[0-9a-f]{64}\Z")


TABLE: Final[dict[str, Any]] = {"pattern": _TABLE_ID, "what": "a table id (1-32 of A-Z a-z 0-9 _ . -)"}
HAND: Final[dict[str, Any]] = {"pattern": _HAND_ID, "what": "a hand id (1-64 of A-Z a-z 0-9 _ . : -)"}
CHIPS: Final[dict[str, Any]] = {"minimum": 1, "maximum": MAX_CHIPS}
HEX32: Final[dict[str, Any]] = {"pattern": _HEX_32, "what": "32 bytes as 64 lowercase hex digits"}


# --- inbound messages --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inbound:
    """Base of every client → room message. ``type`` is the wire name."""

    type: ClassVar[str] = ""


@dataclass(frozen=True)
class Hello(Inbound):
    """Optional first message of a client: who it is (free text, for the log)."""

    type: ClassVar[str] = "hello"
    client: str = field(default="", metadata={"max_length": 64})


@dataclass(frozen=True)
class Auth(Inbound):
    """Room gates after the SSH key login: the room password and, for a new name, an invite code."""

    type: ClassVar[str] = "auth"
    password: str | None = field(default=None, metadata={"max_length": 128})
    invite: str | None = field(default=None, metadata={"max_length": 128})


@dataclass(frozen=True)
class LobbyRequest(Inbound):
    """Ask for the lobby (R-LOBBY-1); the answer is a ``lobby`` message."""

    type: ClassVar[str] = "lobby"


@dataclass(frozen=True)
class Watch(Inbound):
    """Spectate a table: public events only."""

    type: ClassVar[str] = "watch"
    table: str = field(metadata=TABLE)


@dataclass(frozen=True)
class Unwatch(Inbound):
    type: ClassVar[str] = "unwatch"
    table: str = field(metadata=TABLE)


@dataclass(frozen=True)
class Sit(Inbound):
    """Take a seat (``seat`` None = any free seat) with ``buy_in`` chips (R-BUYIN-1)."""

    type: ClassVar[str] = "sit"
    table: str = field(metadata=TABLE)
    buy_in: int = field(metadata=CHIPS)
    seat: int | None = field(default=None, metadata={"minimum": 0, "maximum": 9})


@dataclass(frozen=True)
class Leave(Inbound):
    """Stand up; the chips go back to the balance (after the current hand)."""

    type: ClassVar[str] = "leave"
    table: str = field(metadata=TABLE)


@dataclass(frozen=True)
class SitOut(Inbound):
    """Sit out (``on``) or come back (R-DISC-1)."""

    type: ClassVar[str] = "sit_out"
    table: str = field(metadata=TABLE)
    on: bool = field(default=True)


@dataclass(frozen=True)
class AutoMuck(Inbound):
    """Muck at showdown, unasked, the hands that cannot win (``on``), or show them (R-SHOW-1)."""

    type: ClassVar[str] = "auto_muck"
    table: str = field(metadata=TABLE)
    on: bool = field(default=True)


@dataclass(frozen=True)
class ShowCards(Inbound):
    """After winning a hand uncontested, before the next deal: show one card or the whole hand (``cards``)."""

    type: ClassVar[str] = "show_cards"
    table: str = field(metadata=TABLE)
    cards: list[str] = field(default_factory=list, metadata={"max_items": 7, "max_length": 3})

    def __post_init__(self) -> None:
        if not self.cards:
            raise ProtocolError(MISSING_FIELD, "show_cards needs 'cards' (one card, or the whole hand)",
                                field="cards", type=self.type)
        for text in self.cards:
            try:
                Card.parse(text)
            except ValueError as problem:
                raise ProtocolError(BAD_FIELD, f"cards: {problem}", field="cards", type=self.type) from None

    def parsed(self) -> tuple[Card, ...]:
        return tuple(Card.parse(text) for text in self.cards)


@dataclass(frozen=True)
class WaitForBigBlind(Inbound):
    """Wait for the big blind instead of posting out of position (R-BLIND-3)."""

    type: ClassVar[str] = "wait_for_big_blind"
    table: str = field(metadata=TABLE)
    on: bool = field(default=True)


@dataclass(frozen=True)
class TopUp(Inbound):
    """Add ``amount`` chips to the stack between hands, up to the table maximum (R-BUYIN-1)."""

    type: ClassVar[str] = "top_up"
    table: str = field(metadata=TABLE)
    amount: int = field(metadata=CHIPS)


@dataclass(frozen=True)
class WaitingList(Inbound):
    """Join (``on``) or leave the waiting list of a full table (R-LOBBY-1)."""

    type: ClassVar[str] = "waiting_list"
    table: str = field(metadata=TABLE)
    on: bool = field(default=True)


ActionKind = Literal["fold", "check", "call", "bet", "raise_to", "all_in", "bring_in", "complete", "draw",
                     "split", "show", "muck", "run_it_twice", "run_it_once"]
ACTION_KINDS: Final = typing.get_args(ActionKind)
_NEEDS_AMOUNT: Final = frozenset({"bet", "raise_to", "complete"})


@dataclass(frozen=True)
class ActionMessage(Inbound):
    """A player's move in hand ``hand`` at ``table``.

    ``amount`` (street total, R-BET-*) is required for ``bet``, ``raise_to`` and ``complete`` and refused
    otherwise; ``discard`` (cards such as ``"As"``) is required for ``draw`` and refused otherwise.
    """

    type: ClassVar[str] = "action"
    table: str = field(metadata=TABLE)
    hand: str = field(metadata=HAND)
    kind: ActionKind = field(metadata={})
    amount: int | None = field(default=None, metadata=CHIPS)
    discard: list[str] | None = field(default=None, metadata={"max_items": 10, "max_length": 3})

    def __post_init__(self) -> None:
        if self.kind in _NEEDS_AMOUNT and self.amount is None:
            raise ProtocolError(MISSING_FIELD, f"action {self.kind!r} needs 'amount' (the street total)",
                                field="amount", type=self.type)
        if self.kind not in _NEEDS_AMOUNT and self.amount is not None:
            raise ProtocolError(BAD_FIELD, f"action {self.kind!r} takes no 'amount'", field="amount",
                                type=self.type)
        if self.kind == "draw" and self.discard is None:
            raise ProtocolError(MISSING_FIELD, "action 'draw' needs 'discard' (a list, [] to stand pat)",
                                field="discard", type=self.type)
        if self.kind != "draw" and self.discard is not None:
            raise ProtocolError(BAD_FIELD, f"action {self.kind!r} takes no 'discard'", field="discard",
                                type=self.type)
        for text in self.discard or ():
            try:
                Card.parse(text)
            except ValueError as problem:
                raise ProtocolError(BAD_FIELD, f"discard: {problem}", field="discard", type=self.type) from None
        if self.discard is not None and len(set(self.discard)) != len(self.discard):
            raise ProtocolError(BAD_FIELD, "discard: a card is listed twice", field="discard", type=self.type)

    def discard_cards(self) -> tuple[Card, ...]:
        return tuple(Card.parse(text) for text in self.discard or ())


@dataclass(frozen=True)
class Chat(Inbound):
    """Say ``text`` at ``table`` (or in the lobby when ``table`` is None)."""

    type: ClassVar[str] = "chat"
    text: str = field(metadata={"min_length": 1, "max_length": 280})
    table: str | None = field(default=None, metadata=TABLE)


@dataclass(frozen=True)
class Commit(Inbound):
    """Fairness step 2: the seat's commitment for the hand (DESIGN.md "Fairness")."""

    type: ClassVar[str] = "commit"
    table: str = field(metadata=TABLE)
    hand: str = field(metadata=HAND)
    commitment: str = field(metadata=HEX32)


@dataclass(frozen=True)
class Reveal(Inbound):
    """Fairness step 3: the seat's secret, to the host only."""

    type: ClassVar[str] = "reveal"
    table: str = field(metadata=TABLE)
    hand: str = field(metadata=HAND)
    secret: str = field(metadata=HEX32)


@dataclass(frozen=True)
class VerificationReport(Inbound):
    """Fairness step 5: the client's verdict on a finished hand; ``violations`` as :class:`Violation.to_json`."""

    type: ClassVar[str] = "verification"
    table: str = field(metadata=TABLE)
    hand: str = field(metadata=HAND)
    ok: bool = field()
    violations: list[dict[str, Any]] = field(default_factory=list, metadata={"max_items": MAX_LIST_ITEMS})


@dataclass(frozen=True)
class ReportHand(Inbound):
    """R-AUDIT-1: flag a finished hand for the host's review; the room stores the report with the hand's full
    history (``croupier reports`` lists them). ``reason``: the player's words, may be empty."""

    type: ClassVar[str] = "report_hand"
    hand: str = field(metadata=HAND)
    reason: str = field(default="", metadata={"max_length": 500})


@dataclass(frozen=True)
class Refill(Inbound):
    """Ask for free play-money credits (R-PLAY-1: only while nearly broke, arriving after a delay); the
    answer is an ``ack`` with ``amount`` and ``arrives_in`` seconds, later a ``balance`` message."""

    type: ClassVar[str] = "refill"


@dataclass(frozen=True)
class HostRequest(Inbound):
    """A host's console action (hosting.admin): ``action`` and its ``args``, checked by
    :func:`hosting.admin_requests.parse_request`; refused (``not_host``) unless the sender is a host."""

    type: ClassVar[str] = "host"
    action: str = field(metadata={"pattern": re.compile(r"[a-z_]{1,32}\Z"), "what": "a host action name"})
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SettleUpRequest(Inbound):
    """Ask for a session's settle-up (hosting.settle_up): the latest, or ``session`` by name or number."""

    type: ClassVar[str] = "settle_up"
    session: str | None = field(default=None, metadata={"max_length": 200})


@dataclass(frozen=True)
class RabbitHunt(Inbound):
    """R-HOME-2: after a hand that ended before its board was complete, until the next deal, a player dealt into
    it asks to see the cards that would have come (shown to the table, marked not played)."""

    type: ClassVar[str] = "rabbit_hunt"
    table: str = field(metadata=TABLE)


@dataclass(frozen=True)
class Ping(Inbound):
    type: ClassVar[str] = "ping"
    id: int | None = field(default=None, metadata={"minimum": 0, "maximum": 2**53})


INBOUND_TYPES: Final[dict[str, type[Inbound]]] = {
    message.type: message
    for message in (Hello, Auth, LobbyRequest, Watch, Unwatch, Sit, Leave, SitOut, WaitForBigBlind, AutoMuck,
                    ShowCards, TopUp, WaitingList, ActionMessage, Chat, Commit, Reveal, VerificationReport, ReportHand,
                    Refill, HostRequest, SettleUpRequest, RabbitHunt, Ping)
}


# --- validation --------------------------------------------------------------------------------------------

_JSON_NAMES: Final = {str: "text", int: "an integer", bool: "true or false", list: "a list", dict: "an object",
                      type(None): "null"}


def _describe(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return "one of " + ", ".join(repr(choice) for choice in typing.get_args(annotation))
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(arg) for arg in typing.get_args(annotation))
    if origin is not None:
        return _JSON_NAMES.get(origin, str(origin))
    return _JSON_NAMES.get(annotation, str(annotation))


def _check_value(name: str, value: Any, annotation: Any, metadata: Mapping[str, Any], message_type: str) -> None:
    """Raise :class:`ProtocolError` unless ``value`` fits ``annotation`` and the field's constraints."""

    def bad(reason: str) -> ProtocolError:
        return ProtocolError(BAD_FIELD, f"{message_type}.{name}: {reason}", field=name, type=message_type)

    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        options = typing.get_args(annotation)
        if value is None and type(None) in options:
            return
        non_null = [option for option in options if option is not type(None)]
        _check_value(name, value, non_null[0], metadata, message_type)
        return
    if origin is Literal:
        if not isinstance(value, str) or value not in typing.get_args(annotation):
            raise bad(f"expected {_describe(annotation)}, got {_short(value)}")
        return
    expected = origin or annotation
    # bool is an int in Python but not in our protocol: true is never a chip count
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise bad(f"expected {_describe(annotation)}, got {_short(value)}")
    if isinstance(value, str):
        if len(value) > metadata.get("max_length", 256):
            raise bad(f"longer than {metadata.get('max_length', 256)} characters")
        if len(value) < metadata.get("min_length", 0):
            raise bad("must not be empty")
        pattern = metadata.get("pattern")
        if pattern is not None and not pattern.match(value):
            raise bad(f"expected {metadata['what']}, got {_short(value)}")
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = metadata.get("minimum"), metadata.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            raise bad(f"must be between {low} and {high}, got {value}")
    if isinstance(value, list):
        if len(value) > metadata.get("max_items", MAX_LIST_ITEMS):
            raise bad(f"more than {metadata.get('max_items', MAX_LIST_ITEMS)} items")
        (item_type,) = typing.get_args(annotation) or (Any,)
        if item_type is not Any:
            item_metadata = {key: val for key, val in metadata.items() if key != "max_items"}
            for index, item in enumerate(value):
                _check_value(f"{name}[{index}]", item, item_type, item_metadata, message_type)


def _short(value: Any) -> str:
    """A value as JSON, cut to 40 characters, for error messages."""
    text = json.dumps(value, ensure_ascii=False)
    return text[:40] + ("…" if len(text) > 40 else "")


_HINTS: dict[type[Inbound], dict[str, Any]] = {}


def _hints(message_class: type[Inbound]) -> dict[str, Any]:
    if message_class not in _HINTS:
        _HINTS[message_class] = typing.get_type_hints(message_class)
    return _HINTS[message_class]


def validate(data: Any) -> Inbound:
    """Turn a decoded JSON value into its inbound message; :class:`ProtocolError` names the first problem."""
    if not isinstance(data, dict):
        raise ProtocolError(NOT_AN_OBJECT, f"a message is a JSON object, got {_short(data)}")
    message_type = data.get("type")
    version = data.get("v")
    if version != VERSION or isinstance(version, bool):
        raise ProtocolError(BAD_VERSION, f"this room speaks protocol v{VERSION}: send \"v\": {VERSION}",
                            field="v", type=message_type if isinstance(message_type, str) else None)
    if not isinstance(message_type, str):
        raise ProtocolError(MISSING_FIELD if message_type is None else BAD_FIELD,
                            "a message needs \"type\" (text)", field="type")
    message_class = INBOUND_TYPES.get(message_type)
    if message_class is None:
        known = ", ".join(sorted(INBOUND_TYPES))
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {_short(message_type)}; known: {known}",
                            field="type", type=message_type[:40])
    hints = _hints(message_class)
    declared = {item.name: item for item in fields(message_class)}
    for name in data:
        if name not in declared and name not in ("v", "type"):
            raise ProtocolError(UNKNOWN_FIELD, f"{message_type} has no field {_short(name)}",
                                field=name[:40], type=message_type)
    values: dict[str, Any] = {}
    for name, item in declared.items():
        if name not in data:
            if item.default is MISSING and item.default_factory is MISSING:
                raise ProtocolError(MISSING_FIELD, f"{message_type} needs field {name!r}", field=name,
                                    type=message_type)
            continue
        _check_value(name, data[name], hints[name], item.metadata, message_type)
        values[name] = data[name]
    return message_class(**values)


def parse_message(line: bytes | str) -> Inbound:
    """One line (without its newline) → its inbound message; :class:`ProtocolError` otherwise."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as problem:
            raise ProtocolError(BAD_UTF8, f"a line must be UTF-8 ({problem.reason} at byte {problem.start})") from None
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as problem:
        reason = problem.msg if isinstance(problem, json.JSONDecodeError) else "nested too deeply"
        raise ProtocolError(BAD_JSON, f"not JSON: {reason}") from None
    return validate(data)


# --- rate limit and abuse ----------------------------------------------------------------------------------


class TokenBucket:
    """A token bucket: ``capacity`` tokens, refilled at ``rate`` tokens per second; times in seconds.

    >>> bucket = TokenBucket(capacity=2, rate=1.0, now=0.0)
    >>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
    [True, True, False, True]
    """

    def __init__(self, capacity: float, rate: float, now: float) -> None:
        if capacity <= 0 or rate < 0:
            raise ValueError(f"a token bucket needs capacity > 0 and rate >= 0, got {capacity}, {rate}")
        self.capacity = capacity
        self.rate = rate
        self._tokens = float(capacity)
        self._updated = now

    def tokens(self, now: float) -> float:
        """Tokens available at ``now`` (a time earlier than the last one counts as no time passing)."""
        elapsed = max(0.0, now - self._updated)
        return min(self.capacity, self._tokens + elapsed * self.rate)

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are enough at ``now``; whether it was allowed."""
        self._tokens = self.tokens(now)
        self._updated = max(self._updated, now)
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False


@dataclass(frozen=True)
class Limits:
    """Per-connection limits: message rate (burst, per second) and the error budget before a disconnect.

    The rate is far above what a person sends but must leave room for a client at a fast table, which answers
    every hand with a commit, a reveal and a verification besides its moves.
    """

    max_line_bytes: int = MAX_LINE_BYTES
    message_burst: float = 400
    messages_per_second: float = 200
    error_burst: float = 20
    errors_per_second: float = 0.2


@dataclass
class StreamResult:
    """What :meth:`InboundStream.feed` found: valid messages and error replies in arrival order."""

    items: list[Inbound | ProtocolError] = field(default_factory=list)

    @property
    def messages(self) -> list[Inbound]:
        return [item for item in self.items if isinstance(item, Inbound)]

    @property
    def errors(self) -> list[ProtocolError]:
        return [item for item in self.items if isinstance(item, ProtocolError)]


class InboundStream:
    """Cuts one connection's bytes into messages, enforcing line size, rate limit and the abuse budget.

    Each error (bad line, oversized line, message over the rate) spends one token of the error budget;
    when it is spent :attr:`disconnect_reason` is set and the connection should be closed.
    """

    def __init__(self, now: float, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._buffer = bytearray()
        self._discarding = False  # inside an oversized line: drop bytes until its newline
        self._messages = TokenBucket(self.limits.message_burst, self.limits.messages_per_second, now)
        self._errors = TokenBucket(self.limits.error_burst, self.limits.errors_per_second, now)
        self.disconnect_reason: str | None = None
        self.error_count = 0

    def feed(self, data: bytes, now: float) -> StreamResult:
        """Add received bytes; return the complete lines' messages and errors."""
        result = StreamResult()
        if self.disconnect_reason is not None:
            return result
        self._buffer += data
        while self.disconnect_reason is None:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                if len(self._buffer) > self.limits.max_line_bytes:
                    if not self._discarding:
                        self._fail(result, now, self._too_long())
                    self._discarding = True
                    self._buffer.clear()
                break
            line = bytes(self._buffer[:newline]).rstrip(b"\r")
            del self._buffer[:newline + 1]
            if self._discarding:
                self._discarding = False
                continue
            if len(line) > self.limits.max_line_bytes:
                self._fail(result, now, self._too_long())
                continue
            if not line.strip():
                continue
            self._handle_line(line, now, result)
        return result

    def _handle_line(self, line: bytes, now: float, result: StreamResult) -> None:
        if not self._messages.take(now):
            self._fail(result, now, ProtocolError(RATE_LIMITED, "too many messages: slow down (message dropped)"))
            return
        try:
            result.items.append(parse_message(line))
        except ProtocolError as problem:
            self._fail(result, now, problem)

    def refused(self, now: float, what: str) -> bool:
        """The room refused a valid message (an ``error`` reply, a wrong ``auth``): it spends the error budget
        like a bad line, so a client cannot hammer the room with requests it knows will be refused. Whether
        the budget is spent (:attr:`disconnect_reason` set)."""
        self.error_count += 1
        if self.disconnect_reason is None and not self._errors.take(now):
            self.disconnect_reason = f"too many refused requests ({self.error_count}); last: {what}"
        return self.disconnect_reason is not None

    def _too_long(self) -> ProtocolError:
        return ProtocolError(LINE_TOO_LONG, f"a line may hold at most {self.limits.max_line_bytes} bytes")

    def _fail(self, result: StreamResult, now: float, problem: ProtocolError) -> None:
        self.error_count += 1
        result.items.append(problem)
        if not self._errors.take(now):
            self.disconnect_reason = f"too many bad messages ({self.error_count}); last: {problem}"


# --- outbound messages -------------------------------------------------------------------------------------


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as a compact JSON line, newline included."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def message(message_type: str, **values: Any) -> dict[str, Any]:
    """``{"v": 1, "type": message_type, **values}`` with ``None`` values left out."""
    return {"v": VERSION, "type": message_type} | {key: value for key, value in values.items() if value is not None}


def hello(*, room: str, room_id: str, name: str, registered: bool, needs: Sequence[str] = (),
          motd: str | None = None, balance: int | None = None) -> dict[str, Any]:
    """Sent first on every connection: the room, who you are, and any gate still to pass (``password``,
    ``invite``); ``registered`` is true when this login registered your key for ``name``; ``balance``: your
    chips in the bank (not at tables), absent when the room keeps no balances."""
    return message("hello", server="croupier", protocol=VERSION, room=room, room_id=room_id, name=name,
                   registered=registered, needs=list(needs), motd=motd, balance=balance)


def balance(amount: int, reason: str | None = None) -> dict[str, Any]:
    """Your bank balance changed outside a request (a refill arrived)."""
    return message("balance", balance=amount, reason=reason)


def auth_result(ok: bool, reason: str | None = None) -> dict[str, Any]:
    return message("auth_result", ok=ok, reason=reason)


def error(code: str, text: str, *, field: str | None = None, in_reply_to: str | None = None) -> dict[str, Any]:
    return message("error", code=code, message=text, field=field, in_reply_to=in_reply_to)


def ack(in_reply_to: str, **values: Any) -> dict[str, Any]:
    """A request succeeded (``sit``, ``leave``, ``top_up``, …); ``values`` say the result."""
    return message("ack", in_reply_to=in_reply_to, **values)


def pong(ping_id: int | None) -> dict[str, Any]:
    return message("pong", id=ping_id)


def lobby(tables: Sequence[Mapping[str, Any]], balance: int | None = None) -> dict[str, Any]:
    """The table list; each table as :meth:`hosting.room.TableState.summary` (R-LOBBY-1); ``balance``: the
    asker's chips in the bank (absent when the room keeps no balances)."""
    return message("lobby", tables=list(tables), balance=balance)


def chat(*, sender: str, text: str, table: str | None, at: float) -> dict[str, Any]:
    return message("chat", sender=sender, text=text, table=table, at=at)


def table_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A table's seats and status, sent to its players and watchers on every change."""
    return message("table", **state)


def event(table: str, hand: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """One hand event as this connection may see it (its view, DESIGN.md "protocol"); ``body`` in the one
    event encoding (:func:`hosting.hand_codec.event_to_json`)."""
    return message("event", table=table, hand=hand, event=dict(body))


def jackpot_paid(table: str, hand: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """A jackpot paid after ``hand`` (R-JACK-1/2): ``body`` as :func:`hosting.table_runner.settle_jackpot`."""
    return message("jackpot_paid", table=table, hand=hand, **body)


HAND_CANCELLED_REASONS: Final = ("room_stopped",)
"""Why a hand was cancelled: ``room_stopped`` — the room stopped mid-hand and gave every chip back (R-CRASH-1)."""


def hand_cancelled(table: str, hand: str, reason: str) -> dict[str, Any]:
    """``hand`` at ``table`` was cancelled (:data:`HAND_CANCELLED_REASONS`): it will never be finished or
    verified. Control data, never prose: a client marks the hand by these fields."""
    return message("hand_cancelled", table=table, hand=hand, reason=reason)


UNREADABLE_EVENT: Final = "unreadable_event"
""":func:`read_room_message`'s type for an ``event`` whose body is not an event this client knows."""


def read_room_message(data: Any) -> dict[str, Any]:
    """A room → client message as clients use it: a JSON object whose ``event`` message carries a typed
    engine event (:func:`hosting.hand_codec.event_from_json`), never a dict. An event body this client cannot
    read becomes an :data:`UNREADABLE_EVENT` message naming the problem (clients skip it, and log it).
    ``data``: a line, or a message already decoded from JSON (a room in the same process)."""
    if isinstance(data, bytes | str):
        try:
            data = json.loads(data)
        except ValueError as problem:
            return message(UNREADABLE_EVENT, problem=f"not JSON: {problem}")
    if not isinstance(data, dict):
        return message(UNREADABLE_EVENT, problem="a message is a JSON object")
    if data.get("type") != "event" or not isinstance(data.get("event"), Mapping):
        return data
    try:
        return {**data, "event": event_from_json(data["event"])}
    except CodecError as problem:
        return {**data, "type": UNREADABLE_EVENT, "problem": str(problem)}


def action_request(table: str, hand: str, seat: int, legal: Mapping[str, Any], deadline: float) -> dict[str, Any]:
    return message("action_request", table=table, hand=hand, seat=seat, legal=dict(legal), deadline=deadline)


def commit_request(table: str, hand: str, seat: int, host_commitment: str, deadline: float) -> dict[str, Any]:
    """Fairness step 1–2: the host's commitment, and a request for this seat's commitment before ``deadline``."""
    return message("commit_request", table=table, hand=hand, seat=seat, host_commitment=host_commitment,
                   deadline=deadline)


def commitments(table: str, hand: str, by_seat: Mapping[str, str]) -> dict[str, Any]:
    """Fairness: the full list of commitments (``{"host": hex, "0": hex, …}``), published before any reveal."""
    return message("commitments", table=table, hand=hand, commitments=dict(by_seat))


def reveal_request(table: str, hand: str, seat: int, deadline: float,
                   ticket: tuple[str, str] | None = None) -> dict[str, Any]:
    """Fairness step 3. ``ticket``: ``(pool, ticket)`` when the seat committed ahead at a fast-fold pool (R-FAST-1):
    the client reveals the secret it committed to that ticket."""
    if ticket is None:
        return message("reveal_request", table=table, hand=hand, seat=seat, deadline=deadline)
    return message("reveal_request", table=table, hand=hand, seat=seat, deadline=deadline, pool=ticket[0],
                   ticket=ticket[1])


def seeds(table: str, hand: str, transcript: Mapping[str, Any]) -> dict[str, Any]:
    """Fairness step 5: the hand's transcript (:meth:`engine.fairness.Transcript.to_json`), seeds included."""
    return message("seeds", table=table, hand=hand, transcript=dict(transcript))


def verification_result(table: str, hand: str, name: str, ok: bool,
                        violations: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A client's verdict on a hand, echoed to the table (an alarm for everyone when not ok)."""
    return message("verification_result", table=table, hand=hand, name=name, ok=ok,
                   violations=list(violations))


MAX_PENDING_OUTPUT = 1 << 20
"""A client that lets more than this many bytes of output pile up is too slow to follow a table: dropped (an
SSH channel, or a served screen's local socket)."""
TOO_SLOW = "too slow: output piled up"

ROOM_CLOSED = "room_closed"
"""``bye.code`` when the host stops the room: clients say so and stop reconnecting."""


def bye(reason: str, code: str | None = None) -> dict[str, Any]:
    """Last message before the room closes the connection; ``code`` (e.g. :data:`ROOM_CLOSED`) for programs."""
    return message("bye", reason=reason, **({"code": code} if code else {}))
