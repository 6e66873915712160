"""The room protocol, version 1: newline-delimited JSON over the ``croupier`` SSH subsystem (hosting/PROTOCOL.md).

Every message is one JSON object on one line, ``{"v": 1, "type": "...", ...}``. This module is the single
place that knows the message shapes:

- inbound (client → room) messages are typed schemas (frozen msgspec structs, the library the events' encoding
  uses too), one per ``type`` (:data:`INBOUND_TYPES`), and :func:`parse_message` turns a line into one of them
  or into a :class:`ProtocolError` naming the problem (its code, its field, what was expected and what came);
- :class:`InboundStream` cuts a byte stream into lines, refuses oversized lines, applies the per-connection
  rate limit (:class:`TokenBucket`) and counts abuse, deciding when to disconnect;
- outbound (room → client) messages are built by the small functions at the end (:func:`hello`,
  :func:`error`, :func:`lobby`, …) and written with :func:`encode`.

Nothing here does I/O or reads the clock: times come in as arguments (seconds, any monotonic origin).
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Final, Literal

import msgspec
from msgspec import Meta, Struct

from engine.cards import Card
from engine.text import clean_text, clean_value
from hosting.hand_codec import CodecError, event_from_json

VERSION: Final = 1
SUBSYSTEM: Final = "croupier"
"""The SSH subsystem name speaking this protocol (``ssh -s -p PORT name@host croupier``)."""
MAX_LINE_BYTES: Final = 16_384
"""Longest inbound line accepted, newline excluded; a longer one is refused with ``line_too_long``."""
MAX_CHIPS: Final = 10**15
MAX_LIST_ITEMS: Final = 64
MAX_INTEGER_DIGITS: Final = 20
"""Longest integer a line may hold, sign included (2**64 has 20 digits; chips stop at 16): a longer one is refused
before it is converted, whatever field it is in (a conversion's cost grows with its digits)."""

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
    """An inbound line breaks protocol v1. ``code`` is one of the error codes above; ``field`` the bad field.

    Its message, field and type often quote the line (an unknown field's name, an unknown type): all three are
    cleaned here (:func:`engine.text.clean_text`), since they reach the sender's screen and the host's log."""

    def __init__(self, code: str, message: str, *, field: str | None = None, type: str | None = None) -> None:
        super().__init__(clean_text(message))
        self.code = code
        self.field = None if field is None else clean_text(field)[:40]
        self.type = None if type is None else clean_text(type)[:40]

    def reply(self) -> dict[str, Any]:
        """The ``error`` message to send back."""
        return error(self.code, str(self), field=self.field, in_reply_to=self.type)


# --- field types -------------------------------------------------------------------------------------------
# Each field's JSON type and bounds are declared once, in its annotation (msgspec ``Meta``); msgspec checks them.

_TABLE_PATTERN: Final = r"^[A-Za-z0-9_.-]{1,32}\Z"
_HAND_PATTERN: Final = r"^[A-Za-z0-9_.:-]{1,64}\Z"
_HEX_32_PATTERN: Final = r"^[0-9a-f]{64}\Z"
_HOST_ACTION_PATTERN: Final = r"^[a-z_]{1,32}\Z"
_TOURNAMENT_PATTERN: Final = r"^[A-Za-z0-9_-]{1,32}\Z"
_TOURNAMENT_ACTION_PATTERN: Final = \
    r"^(state|register|unregister|rebuy|add_on|decline_rebuy|propose_deal|accept_deal|decline_deal)\Z"
_DEAL_PATTERN: Final = r"^(equal|chips|icm|chip_chop)\Z"
_PAY_PATTERN: Final = r"^(ticket|balance)\Z"
_PLAYER_PATTERN: Final = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,23}\Z"
_TAG_PATTERN: Final = r"^(red|orange|yellow|green|blue|purple|)\Z"
_PATTERN_WORDS: Final = {_PLAYER_PATTERN: "a player name (1-24 of A-Z a-z 0-9 _ . -)",
                         _TAG_PATTERN: "red, orange, yellow, green, blue, purple or \"\"",
                         _TABLE_PATTERN: "a table id (1-32 of A-Z a-z 0-9 _ . -)",
                         _HAND_PATTERN: "a hand id (1-64 of A-Z a-z 0-9 _ . : -)",
                         _HEX_32_PATTERN: "32 bytes as 64 lowercase hex digits",
                         _HOST_ACTION_PATTERN: "a host action name",
                         _TOURNAMENT_PATTERN: "a tournament id (1-32 of A-Z a-z 0-9 _ -)",
                         _TOURNAMENT_ACTION_PATTERN: "a tournament action (state, register, unregister, rebuy, add_on, "
                                                     "decline_rebuy, propose_deal, accept_deal, decline_deal)",
                         _DEAL_PATTERN: "equal, chips, icm or chip_chop", _PAY_PATTERN: "ticket or balance"}
"""What each pattern asks for, in words: an error names this, never the regular expression."""

TableId = Annotated[str, Meta(pattern=_TABLE_PATTERN)]
HandId = Annotated[str, Meta(pattern=_HAND_PATTERN)]
Hex32 = Annotated[str, Meta(pattern=_HEX_32_PATTERN)]
Chips = Annotated[int, Meta(ge=1, le=MAX_CHIPS)]
CardText = Annotated[str, Meta(max_length=3)]
ShortText = Annotated[str, Meta(max_length=64)]
Secret = Annotated[str, Meta(max_length=128)]
Feature = Annotated[str, Meta(pattern=r"^[a-z-]{1,24}$")]
HOST_BLIND_FEATURE: Final = "host-blind"
HOST_BLIND_LINE_BYTES: Final = 65_536
"""A line may be this long on a connection that offered ``host-blind``: a shuffle with its proof is ~28 KB."""


# --- inbound messages --------------------------------------------------------------------------------------


class Inbound(Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every client → room message: a typed schema (msgspec) — every field's type and bounds in its
    annotation, no unknown field; ``type`` is the wire name. Checks across fields are in ``__post_init__``."""

    type: ClassVar[str] = ""


class Hello(Inbound, frozen=True):
    """Optional first message of a client: who it is (free text, for the log)."""

    type: ClassVar[str] = "hello"
    client: ShortText = ""
    features: Annotated[list[Feature], Meta(max_length=8)] = []
    """What this client can do beyond protocol 1: ``"host-blind"`` (it takes part in host-blind dealing)."""


class Auth(Inbound, frozen=True):
    """Room gates after the SSH key login: the room password and, for a new name, an invite code."""

    type: ClassVar[str] = "auth"
    password: Secret | None = None
    invite: Secret | None = None


class LobbyRequest(Inbound, frozen=True):
    """Ask for the lobby (R-LOBBY-1); the answer is a ``lobby`` message. ``follow``: the room sends the lobby
    again whenever it changes (hosting.live), until the connection ends."""

    type: ClassVar[str] = "lobby"
    follow: bool = False


class Watch(Inbound, frozen=True):
    """Spectate a table: public events only."""

    type: ClassVar[str] = "watch"
    table: TableId


class Unwatch(Inbound, frozen=True):
    type: ClassVar[str] = "unwatch"
    table: TableId


class Sit(Inbound, frozen=True):
    """Take a seat (``seat`` None = any free seat) with ``buy_in`` chips (R-BUYIN-1)."""

    type: ClassVar[str] = "sit"
    table: TableId
    buy_in: Chips
    seat: Annotated[int, Meta(ge=0, le=9)] | None = None


class Leave(Inbound, frozen=True):
    """Stand up; the chips go back to the balance (after the current hand)."""

    type: ClassVar[str] = "leave"
    table: TableId


class SitOut(Inbound, frozen=True):
    """Sit out (``on``) or come back (R-DISC-1)."""

    type: ClassVar[str] = "sit_out"
    table: TableId
    on: bool = True


class AutoMuck(Inbound, frozen=True):
    """Muck at showdown, unasked, the hands that cannot win (``on``), or show them (R-SHOW-1)."""

    type: ClassVar[str] = "auto_muck"
    table: TableId
    on: bool = True


def _check_cards(texts: Sequence[str], name: str, message_type: str) -> None:
    for text in texts:
        try:
            Card.parse(text)
        except ValueError as problem:
            raise ProtocolError(BAD_FIELD, f"{name}: {problem}", field=name, type=message_type) from None


class ShowCards(Inbound, frozen=True):
    """After winning a hand uncontested, before the next deal: show one card or the whole hand (``cards``)."""

    type: ClassVar[str] = "show_cards"
    table: TableId
    cards: Annotated[list[CardText], Meta(max_length=7)] = []

    def __post_init__(self) -> None:
        if not self.cards:
            raise ProtocolError(MISSING_FIELD, "show_cards needs 'cards' (one card, or the whole hand)",
                                field="cards", type=self.type)
        _check_cards(self.cards, "cards", self.type)

    def parsed(self) -> tuple[Card, ...]:
        return tuple(Card.parse(text) for text in self.cards)


class WaitForBigBlind(Inbound, frozen=True):
    """Wait for the big blind instead of posting out of position (R-BLIND-3)."""

    type: ClassVar[str] = "wait_for_big_blind"
    table: TableId
    on: bool = True


class TopUp(Inbound, frozen=True):
    """Add ``amount`` chips to the stack between hands, up to the table maximum (R-BUYIN-1)."""

    type: ClassVar[str] = "top_up"
    table: TableId
    amount: Chips


class AutoTopUpRequest(Inbound, frozen=True):
    """The player's standing order at a cash table (R-BUYIN-1), carried out by the room between his hands:
    ``below`` (0: off) tops him up when his stack is under it; ``rebuy`` buys in again when he has no chips;
    both to ``to`` chips (absent: the table's maximum buy-in). All off: the order is cancelled."""

    type: ClassVar[str] = "auto_top_up"
    table: TableId
    below: Annotated[int, Meta(ge=0, le=MAX_CHIPS)] = 0
    rebuy: bool = False
    to: Chips | None = None


class WaitingList(Inbound, frozen=True):
    """Join (``on``) or leave the waiting list of a full table (R-LOBBY-1)."""

    type: ClassVar[str] = "waiting_list"
    table: TableId
    on: bool = True


ActionKind = Literal["fold", "check", "call", "bet", "raise_to", "all_in", "bring_in", "complete", "draw",
                     "split", "show", "muck", "run_it_twice", "run_it_once"]
ACTION_KINDS: Final = typing.get_args(ActionKind)
_NEEDS_AMOUNT: Final = frozenset({"bet", "raise_to", "complete"})


class ActionMessage(Inbound, frozen=True):
    """A player's move in hand ``hand`` at ``table``.

    ``amount`` (street total, R-BET-*) is required for ``bet``, ``raise_to`` and ``complete`` and refused
    otherwise; ``discard`` (cards such as ``"As"``) is required for ``draw`` and refused otherwise.
    """

    type: ClassVar[str] = "action"
    table: TableId
    hand: HandId
    kind: ActionKind
    amount: Chips | None = None
    discard: Annotated[list[CardText], Meta(max_length=10)] | None = None

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
        _check_cards(self.discard or (), "discard", self.type)
        if self.discard is not None and len(set(self.discard)) != len(self.discard):
            raise ProtocolError(BAD_FIELD, "discard: a card is listed twice", field="discard", type=self.type)

    def discard_cards(self) -> tuple[Card, ...]:
        return tuple(Card.parse(text) for text in self.discard or ())


class Chat(Inbound, frozen=True):
    """Say ``text`` at ``table`` (or in the lobby when ``table`` is None)."""

    type: ClassVar[str] = "chat"
    text: Annotated[str, Meta(min_length=1, max_length=280)]
    table: TableId | None = None


class Commit(Inbound, frozen=True):
    """Fairness step 2: the seat's commitment for the hand (DESIGN.md "Fairness")."""

    type: ClassVar[str] = "commit"
    table: TableId
    hand: HandId
    commitment: Hex32


class Reveal(Inbound, frozen=True):
    """Fairness step 3: the seat's secret, to the host only."""

    type: ClassVar[str] = "reveal"
    table: TableId
    hand: HandId
    secret: Hex32


class BlindSeat(Inbound, frozen=True):
    """Host-blind dealing: the seat's keys for the hand (a :class:`engine.fairness_v2.transcript.SeatRecord`, as
    its JSON text), answering ``blind_request`` step ``seat``."""

    type: ClassVar[str] = "blind_seat"
    table: TableId
    hand: HandId
    record: Annotated[str, Meta(max_length=2_000)]


class BlindEntry(Inbound, frozen=True):
    """Host-blind dealing: one signed transcript entry (an :class:`engine.fairness_v2.transcript.Entry`, as its
    JSON text): a step the room asked for (``blind_request``), or the player's own action at his turn."""

    type: ClassVar[str] = "blind_entry"
    table: TableId
    hand: HandId
    entry: Annotated[str, Meta(max_length=HOST_BLIND_LINE_BYTES - 200)]


class BlindComplaint(Inbound, frozen=True):
    """Host-blind dealing: the player's check of a relayed entry failed. ``dealer``: the escrow share that
    dealer sealed to him is false (the room asks the dealer to disclose it); ``seq``: what else he found wrong
    with entry ``seq``. ``what`` is his client's words, for the host's log."""

    type: ClassVar[str] = "blind_complaint"
    table: TableId
    hand: HandId
    what: Annotated[str, Meta(max_length=300)] = ""
    dealer: Annotated[int, Meta(ge=0, le=99)] | None = None
    seq: Annotated[int, Meta(ge=0, le=100_000)] | None = None


class DrawCommit(Inbound, frozen=True):
    """A draw that is not a deck (a Spin's multiplier, first seats; hosting.draw_round): the player's
    commitment. ``draw``: the draw's id, shaped as a hand id."""

    type: ClassVar[str] = "draw_commit"
    draw: HandId
    commitment: Hex32


class DrawReveal(Inbound, frozen=True):
    """A draw's step 3: the player's secret, to the host only."""

    type: ClassVar[str] = "draw_reveal"
    draw: HandId
    secret: Hex32


class VerificationReport(Inbound, frozen=True):
    """Fairness step 5: the client's verdict on a finished hand; ``violations`` as :class:`Violation.to_json`."""

    type: ClassVar[str] = "verification"
    table: TableId
    hand: HandId
    ok: bool
    violations: Annotated[list[dict[str, Any]], Meta(max_length=MAX_LIST_ITEMS)] = []


class ReportHand(Inbound, frozen=True):
    """R-AUDIT-1: flag a finished hand for the host's review; the room stores the report with the hand's full
    history (``croupier reports`` lists them). ``reason``: the player's words, may be empty."""

    type: ClassVar[str] = "report_hand"
    hand: HandId
    reason: Annotated[str, Meta(max_length=500)] = ""


class Refill(Inbound, frozen=True):
    """Ask for free play-money credits (R-PLAY-1: only while nearly broke, arriving after a delay); the
    answer is an ``ack`` with ``amount`` and ``arrives_in`` seconds, later a ``balance`` message."""

    type: ClassVar[str] = "refill"


class HostRequest(Inbound, frozen=True):
    """A host's console action (hosting.admin): ``action`` and its ``args``, checked by
    :func:`hosting.admin_requests.parse_request`; refused (``not_host``) unless the sender is a host."""

    type: ClassVar[str] = "host"
    action: Annotated[str, Meta(pattern=_HOST_ACTION_PATTERN)]
    args: Annotated[dict[str, Any], Meta(max_length=MAX_LIST_ITEMS)] = {}


class SettleUpRequest(Inbound, frozen=True):
    """Ask for a session's settle-up (hosting.settle_up): the latest, or ``session`` by name or number."""

    type: ClassVar[str] = "settle_up"
    session: Annotated[str, Meta(max_length=200)] | None = None


class RabbitHunt(Inbound, frozen=True):
    """R-HOME-2: after a hand that ended before its board was complete, until the next deal, a player dealt into
    it asks to see the cards that would have come (shown to the table, marked not played)."""

    type: ClassVar[str] = "rabbit_hunt"
    table: TableId


class ChooseGame(Inbound, frozen=True):
    """Dealer's choice at a mixed table (R-MIX-2): the player on the button, while asked, picks the next game —
    its number in the table's list (``"1"``…), its id (``"razz"``) or its name."""

    type: ClassVar[str] = "choose_game"
    table: TableId
    game: Annotated[str, Meta(min_length=1, max_length=40)]


class PlayerNotesRequest(Inbound, frozen=True):
    """The player's own notes on others, kept by the room for a plain-ssh screen (which keeps no file; issue 27):
    with ``player``, set his ``tag`` (one of red, orange, yellow, green, blue, purple; "" none) and ``note`` (both
    empty forget him); the answer is a ``notes`` message with all of them (``{name: {tag, note}}``)."""

    type: ClassVar[str] = "notes"
    player: Annotated[str, Meta(pattern=_PLAYER_PATTERN)] | None = None
    tag: Annotated[str, Meta(pattern=_TAG_PATTERN)] = ""
    note: Annotated[str, Meta(max_length=200)] = ""


class TournamentRequest(Inbound, frozen=True):
    """A tournament request (hosting.tournament_desk): ``action`` on ``tournament`` — ``state`` (the answer is a
    ``tournament`` message), ``register`` (``password`` for a private one; ``pay``: ``ticket`` or ``balance``,
    by default a ticket when he holds one for it), ``unregister``, ``rebuy``, ``add_on``,
    ``decline_rebuy``, ``propose_deal`` (``deal``: equal, chips, icm or chip_chop), ``accept_deal``,
    ``decline_deal``."""

    type: ClassVar[str] = "tournament"
    action: Annotated[str, Meta(pattern=_TOURNAMENT_ACTION_PATTERN)]
    tournament: Annotated[str, Meta(pattern=_TOURNAMENT_PATTERN)]
    password: Secret | None = None
    deal: Annotated[str, Meta(pattern=_DEAL_PATTERN)] | None = None
    pay: Annotated[str, Meta(pattern=_PAY_PATTERN)] | None = None


class Ping(Inbound, frozen=True):
    type: ClassVar[str] = "ping"
    id: Annotated[int, Meta(ge=0, le=2**53)] | None = None


INBOUND_TYPES: Final[dict[str, type[Inbound]]] = {
    message.type: message
    for message in (Hello, Auth, LobbyRequest, Watch, Unwatch, Sit, Leave, SitOut, WaitForBigBlind, AutoMuck,
                    ShowCards, TopUp, AutoTopUpRequest, WaitingList, ActionMessage, Chat, Commit, Reveal, BlindSeat,
                    BlindEntry, BlindComplaint,
                    DrawCommit, DrawReveal,
                    VerificationReport, ReportHand,
                    Refill, HostRequest, SettleUpRequest, RabbitHunt, ChooseGame, PlayerNotesRequest, TournamentRequest,
                    Ping)
}


# --- validation --------------------------------------------------------------------------------------------

_JSON_NAMES: Final = {"int": "an integer", "str": "text", "bool": "true or false", "array": "a list",
                      "object": "an object", "null": "null", "float": "a number"}
_MISSING = re.compile(r"Object missing required field `(?P<name>.*)`\Z", re.S)
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<name>.*)`\Z", re.S)
_AT = re.compile(r"(?P<reason>.*?) - at `\$(?P<path>.*)`\Z", re.S)
_PATH_STEP = re.compile(r"\.(?P<key>[^.\[]+)|\[(?P<index>\d+)\]")


def _short(value: Any) -> str:
    """A value from the line as JSON, cleaned (:func:`engine.text.clean_value`: no escape sequence of the sender's
    reaches a screen or a log) and cut to 40 characters, for error messages.

    >>> _short("t1\\x1b[2J"), _short(["a" * 50])
    ('"t1" (control characters removed)', '["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…')
    """
    cleaned = clean_value(value)
    text = json.dumps(cleaned, ensure_ascii=False)
    text = text[:40] + ("…" if len(text) > 40 else "")
    return text if cleaned == value else f"{text} (control characters removed)"


def _value_at(data: Any, path: str) -> Any:
    """The value a msgspec error path (``.discard[0]``) points at in the message."""
    for step in _PATH_STEP.finditer(path):
        try:
            data = data[step["key"]] if step["key"] is not None else data[int(step["index"])]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _json_names(types_text: str) -> str:
    return " or ".join(_JSON_NAMES.get(name, name) for name in types_text.split(" | "))


def _reason(text: str, value: Any, choices: Sequence[str]) -> str:
    """msgspec's words for a bad value, in ours (what was expected and what came)."""
    if found := re.fullmatch(r"Expected `(.+?)`, got `.+`", text):
        return f"expected {_json_names(found[1])}, got {_short(value)}"
    if found := re.fullmatch(r"Expected `\w+` matching regex '(.*)'", text, re.S):
        pattern = found[1].replace("\\\\", "\\")  # msgspec doubles the pattern's backslashes
        return f"expected {_PATTERN_WORDS.get(pattern, 'another form')}, got {_short(value)}"
    if found := re.fullmatch(r"Expected `\w+` (>=|<=) (-?\d+)", text):
        return f"must be {'at least' if found[1] == '>=' else 'at most'} {found[2]}, got {value}"
    if found := re.fullmatch(r"Expected `str` of length (>=|<=) (\d+)", text):
        return "must not be empty" if found[1] == ">=" else f"longer than {found[2]} characters"
    if found := re.fullmatch(r"Expected `(?:array|object)` of length <= (\d+)", text):
        return f"more than {found[1]} items"
    if text.startswith("Invalid enum value"):
        return f"expected one of {', '.join(repr(choice) for choice in choices)}, got {_short(value)}"
    return text[:1].lower() + text[1:]


def _choices(message_class: type[Inbound], name: str) -> tuple[str, ...]:
    hint = typing.get_type_hints(message_class).get(name)
    return tuple(typing.get_args(hint)) if typing.get_origin(hint) is Literal else ()


def _refusal(problem: msgspec.ValidationError, data: Mapping[str, Any], message_type: str,
             message_class: type[Inbound]) -> ProtocolError:
    """The :class:`ProtocolError` for msgspec's refusal of ``data`` as ``message_class``."""
    if isinstance(problem.__cause__, ProtocolError):  # a check across fields (``__post_init__``)
        return problem.__cause__
    text = str(problem)
    if found := _MISSING.match(text):
        return ProtocolError(MISSING_FIELD, f"{message_type} needs field {found['name']!r}", field=found["name"],
                             type=message_type)
    if found := _UNKNOWN.match(text):
        return ProtocolError(UNKNOWN_FIELD, f"{message_type} has no field {_short(found['name'])}",
                             field=found["name"], type=message_type)
    found = _AT.match(text)
    path = found["path"] if found else ""
    field_name = path.removeprefix(".")
    reason = _reason(found["reason"] if found else text, _value_at(data, path),
                     _choices(message_class, field_name.split("[")[0]))
    return ProtocolError(BAD_FIELD, f"{message_type}.{field_name}: {reason}", field=field_name or None,
                         type=message_type)


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
                            field="type", type=message_type)
    fields = {name: value for name, value in data.items() if name not in ("v", "type")}
    try:
        return msgspec.convert(fields, message_class, strict=True)
    except msgspec.ValidationError as problem:
        raise _refusal(problem, fields, message_type, message_class) from None


def parse_message(line: bytes | str) -> Inbound:
    """One line (without its newline) → its inbound message; :class:`ProtocolError` otherwise."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as problem:
            raise ProtocolError(BAD_UTF8, f"a line must be UTF-8 ({problem.reason} at byte {problem.start})") from None
    try:
        data = _DECODER.decode(line)
    except ProtocolError:
        raise
    except json.JSONDecodeError as problem:
        raise ProtocolError(BAD_JSON, f"not JSON: {problem.msg}") from None
    except RecursionError:
        raise ProtocolError(BAD_JSON, "not JSON: nested too deeply") from None
    if _SURROGATE_ESCAPE.search(line) and not _utf8(data):
        raise ProtocolError(BAD_JSON, "not JSON: a lone UTF-16 surrogate (a \\ud800-\\udfff escape without its pair)")
    return validate(data)


def _bounded_integer(text: str) -> int:
    """A JSON integer's digits → its value, refused past :data:`MAX_INTEGER_DIGITS` (before converting them)."""
    if len(text) > MAX_INTEGER_DIGITS:
        raise ProtocolError(BAD_FIELD, f"a number may have at most {MAX_INTEGER_DIGITS} digits, got one of "
                            f"{len(text.lstrip('-'))}")
    return int(text)


_DECODER: Final = json.JSONDecoder(parse_int=_bounded_integer)
"""Made once: ``json.loads`` with an option builds a decoder on every call."""

_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
"""Only a ``\\uD800``–``\\uDFFF`` escape gives json a lone surrogate (UTF-8 bytes cannot): the rare lines holding one
are checked whole, since such a string breaks msgspec's errors, the database and every encoder after."""


def _utf8(data: Any) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


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

    def __init__(self, now: float, limits: Limits | None = None, *, messages: TokenBucket | None = None,
                 errors: TokenBucket | None = None) -> None:
        """``messages``/``errors``: the buckets to spend, when they are the player's rather than this
        connection's (``hosting.budgets``: a new channel must not bring a new budget)."""
        self.limits = limits or Limits()
        self._buffer = bytearray()
        self._discarding = False  # inside an oversized line: drop bytes until its newline
        self._messages = messages or TokenBucket(self.limits.message_burst, self.limits.messages_per_second, now)
        self._errors = errors or TokenBucket(self.limits.error_burst, self.limits.errors_per_second, now)
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

    def allow_long_lines(self, max_line_bytes: int) -> None:
        """Lines up to ``max_line_bytes`` from now on (a client taking part in host-blind dealing)."""
        if self.limits.max_line_bytes < max_line_bytes:
            self.limits = dataclasses.replace(self.limits, max_line_bytes=max_line_bytes)

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
    """One message as a compact JSON line, newline included (a :class:`Shared` message's line, made once)."""
    if isinstance(message, Shared):
        return message.line
    return _encode(message)


_JSON_ENCODER: Final = msgspec.json.Encoder()


def _encode(message: Mapping[str, Any]) -> bytes:
    # msgspec: compact UTF-8 JSON like ``json.dumps(separators=(",", ":"), ensure_ascii=False)``, ~15× faster
    # (issue 20); only a float's exponent is spelled otherwise (1e-7, not 1e-07): the same number to any reader
    return _JSON_ENCODER.encode(message) + b"\n"


class Shared(dict[str, Any]):
    """A message sent as it is to many connections (a table's public event, its seats, a lobby chat line): its
    JSON line is made once, by the first transport that writes it, not once per listener (issue 20: encoding
    the same event for every seat was a large part of the host's time). Build it complete, then send it: a
    change after the first send would not reach the line."""

    __slots__ = ("_line",)

    @property
    def line(self) -> bytes:
        line: bytes | None = getattr(self, "_line", None)
        if line is None:
            line = self._line = _encode(self)
        return line


def shared(message: Mapping[str, Any]) -> Shared:
    """``message`` as a :class:`Shared` message (encoded once for all who get it)."""
    return Shared(message)


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


def blind_request(table: str, hand: str, step: str, seat: int, deadline: float, **fields: Any) -> dict[str, Any]:
    """Host-blind dealing: the room asks ``seat`` for its next message of ``step`` (``seat``: its keys, with
    ``stack``; ``escrow``, ``shuffle``, ``deal``, ``board``, ``show``; ``covers`` with ``missing``: stand in for a
    timed-out player's share) before ``deadline`` (seconds from now). The client decides what it sends from its
    own check of the hand, never from the request. With ``anchor`` (the deal, board and turned-up shows, asked of
    every player at once) the shares are signed against the head the opening starts from, not a place in the
    chain (:func:`engine.fairness_v2.transcript.opening_bytes`)."""
    return message("blind_request", table=table, hand=hand, step=step, seat=seat, deadline=deadline, **fields)


def blind_header(table: str, hand: str, header: str) -> dict[str, Any]:
    """Host-blind dealing: the hand's transcript header (seats with their keys, blinds, button, shufflers)."""
    return message("blind_header", table=table, hand=hand, header=header)


def blind_entry(table: str, hand: str, entry: str) -> dict[str, Any]:
    """Host-blind dealing: one transcript entry as the host chained it, relayed to every player of the hand."""
    return message("blind_entry", table=table, hand=hand, entry=entry)


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
BANNED = "banned"
"""``bye.code`` when the host banned the player (``reason`` is the host's)."""
KICKED = "kicked"
"""``bye.code`` when the host kicked the player (``reason`` is the host's)."""


FAREWELL_LENGTH = 200
"""At most this many characters of the room's reason on the player's terminal (one line)."""


def farewell_words(bye: Mapping[str, Any]) -> str:
    """The line a plain-ssh player reads once his screen is gone: why the room ended his session (a ban or a
    kick in the host's words). Cleaned: nothing but plain text reaches his terminal."""
    reason = clean_text(str(bye.get("reason") or ""))[:FAREWELL_LENGTH]
    lead = {BANNED: "the host banned you from this room",
            KICKED: "the host removed you from the room"}.get(str(bye.get("code")))
    if lead is None:
        return reason or "the room closed the connection"
    return f"{lead}: {reason}" if reason else lead


def bye(reason: str, code: str | None = None) -> dict[str, Any]:
    """Last message before the room closes the connection; ``code`` (e.g. :data:`ROOM_CLOSED`) for programs."""
    return message("bye", reason=reason, **({"code": code} if code else {}))
