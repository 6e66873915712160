"""Protocol v1: message validation, line framing, rate limit, abuse budget, and fuzzing (hosting/PROTOCOL.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from hosting import protocol
from hosting.protocol import (
    INBOUND_TYPES,
    ActionMessage,
    Chat,
    InboundStream,
    Limits,
    ProtocolError,
    Sit,
    TokenBucket,
    parse_message,
)
from tests.sweeps import sweep

HEX = "ab" * 32

VALID: list[dict[str, Any]] = [
    {"type": "hello", "client": "croupier-tui 0.1"},
    {"type": "auth", "password": "swordfish"},
    {"type": "auth", "invite": "FRIDAY-7"},
    {"type": "lobby"},
    {"type": "watch", "table": "t1"},
    {"type": "unwatch", "table": "t1"},
    {"type": "sit", "table": "t1", "buy_in": 2000},
    {"type": "sit", "table": "t1", "buy_in": 2000, "seat": 4},
    {"type": "leave", "table": "t1"},
    {"type": "sit_out", "table": "t1", "on": False},
    {"type": "wait_for_big_blind", "table": "t1"},
    {"type": "auto_muck", "table": "t1", "on": True},
    {"type": "show_cards", "table": "t1", "cards": ["As"]},
    {"type": "top_up", "table": "t1", "amount": 500},
    {"type": "auto_top_up", "table": "t1", "below": 50, "rebuy": True, "to": 200},
    {"type": "waiting_list", "table": "t1", "on": True},
    {"type": "action", "table": "t1", "hand": "t1-h7", "kind": "fold"},
    {"type": "action", "table": "t1", "hand": "t1-h7", "kind": "raise_to", "amount": 300},
    {"type": "action", "table": "t1", "hand": "t1-h7", "kind": "draw", "discard": ["As", "Kd"]},
    {"type": "action", "table": "t1", "hand": "t1-h7", "kind": "draw", "discard": []},
    {"type": "chat", "text": "gl all"},
    {"type": "chat", "text": "nh", "table": "t1"},
    {"type": "commit", "table": "t1", "hand": "t1-h7", "commitment": HEX},
    {"type": "hello", "client": "croupier", "features": ["host-blind"]},
    {"type": "blind_seat", "table": "t1", "hand": "t1-h7", "record": "{}"},
    {"type": "blind_entry", "table": "t1", "hand": "t1-h7", "entry": "{}"},
    {"type": "blind_complaint", "table": "t1", "hand": "t1-h7", "dealer": 2, "what": "false escrow share"},
    {"type": "reveal", "table": "t1", "hand": "t1-h7", "secret": HEX},
    {"type": "draw_commit", "draw": "spin:sng-3", "commitment": HEX},
    {"type": "draw_reveal", "draw": "spin:sng-3", "secret": HEX},
    {"type": "verification", "table": "t1", "hand": "t1-h7", "ok": True},
    {"type": "verification", "table": "t1", "hand": "t1-h7", "ok": False,
     "violations": [{"kind": "card_mismatch", "message": "…", "evidence": {"position": 3}}]},
    {"type": "report_hand", "hand": "t1-h7", "reason": "the river card looked odd"},
    {"type": "ping", "id": 12},
    {"type": "refill"},
    {"type": "host", "action": "pause", "args": {"table": "t1"}},
    {"type": "settle_up", "session": "friday"},
    {"type": "rabbit_hunt", "table": "t1"},
    {"type": "choose_game", "table": "horse", "game": "razz"},
    {"type": "notes", "player": "bob", "tag": "red", "note": "calls too wide"},
    {"type": "tournament", "action": "propose_deal", "tournament": "sunday-2", "deal": "icm"},
]


def _line(data: Any) -> bytes:
    return json.dumps(data).encode()


def test_every_inbound_type_has_a_valid_example() -> None:
    assert {example["type"] for example in VALID} == set(INBOUND_TYPES)


@pytest.mark.parametrize("example", VALID, ids=lambda example: example["type"])
def test_valid_messages_parse_to_their_dataclass(example: dict[str, Any]) -> None:
    parsed = parse_message(_line({"v": 1} | example))
    assert type(parsed) is INBOUND_TYPES[example["type"]]
    for name, value in example.items():
        if name != "type":
            assert getattr(parsed, name) == value


def test_parsed_values_are_the_sent_values() -> None:
    sit = parse_message(b'{"v":1,"type":"sit","table":"t2","buy_in":4000,"seat":3}')
    assert sit == Sit(table="t2", buy_in=4000, seat=3)
    draw = parse_message(_line({"v": 1, "type": "action", "table": "t1", "hand": "h1", "kind": "draw",
                                "discard": ["Th", "2c"]}))
    assert isinstance(draw, ActionMessage) and draw.discard_cards() == parse_cards("Th 2c")
    assert parse_message('{"v":1,"type":"chat","text":"hé ♠"}') == Chat(text="hé ♠")


@pytest.mark.parametrize(
    ("line", "code", "field"),
    [
        (b"{not json", protocol.BAD_JSON, None),
        (b"\xff\xfe{}", protocol.BAD_UTF8, None),
        (b"[1, 2]", protocol.NOT_AN_OBJECT, None),
        (b'"hello"', protocol.NOT_AN_OBJECT, None),
        (b'{"type":"lobby"}', protocol.BAD_VERSION, "v"),
        (b'{"v":2,"type":"lobby"}', protocol.BAD_VERSION, "v"),
        (b'{"v":true,"type":"lobby"}', protocol.BAD_VERSION, "v"),
        (b'{"v":1}', protocol.MISSING_FIELD, "type"),
        (b'{"v":1,"type":7}', protocol.BAD_FIELD, "type"),
        (b'{"v":1,"type":"shuffle_deck"}', protocol.UNKNOWN_TYPE, "type"),
        (b'{"v":1,"type":"sit","table":"t1"}', protocol.MISSING_FIELD, "buy_in"),
        (b'{"v":1,"type":"sit","table":"t1","buy_in":"100"}', protocol.BAD_FIELD, "buy_in"),
        (b'{"v":1,"type":"sit","table":"t1","buy_in":true}', protocol.BAD_FIELD, "buy_in"),
        (b'{"v":1,"type":"sit","table":"t1","buy_in":1.5}', protocol.BAD_FIELD, "buy_in"),
        (b'{"v":1,"type":"sit","table":"t1","buy_in":0}', protocol.BAD_FIELD, "buy_in"),
        (b'{"v":1,"type":"sit","table":"t1","buy_in":100,"seat":10}', protocol.BAD_FIELD, "seat"),
        (b'{"v":1,"type":"sit","table":"t 1","buy_in":100}', protocol.BAD_FIELD, "table"),
        (b'{"v":1,"type":"sit","table":"t1","buy_in":100,"chips":5}', protocol.UNKNOWN_FIELD, "chips"),
        (b'{"v":1,"type":"chat","text":""}', protocol.BAD_FIELD, "text"),
        (b'{"v":1,"type":"chat","text":"' + b"a" * 281 + b'"}', protocol.BAD_FIELD, "text"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"shove"}', protocol.BAD_FIELD, "kind"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"bet"}', protocol.MISSING_FIELD, "amount"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"call","amount":5}', protocol.BAD_FIELD,
         "amount"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"draw"}', protocol.MISSING_FIELD, "discard"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"draw","discard":["Zz"]}', protocol.BAD_FIELD,
         "discard"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"draw","discard":["As","As"]}',
         protocol.BAD_FIELD, "discard"),
        (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"draw","discard":[7]}', protocol.BAD_FIELD,
         "discard[0]"),
        (b'{"v":1,"type":"commit","table":"t1","hand":"h1","commitment":"ABCD"}', protocol.BAD_FIELD,
         "commitment"),
        (b'{"v":1,"type":"ping","id":-1}', protocol.BAD_FIELD, "id"),
        (b'{"v":1,"type":"tournament","action":"win","tournament":"t"}', protocol.BAD_FIELD, "action"),
        (b'{"v":1,"type":"tournament","action":"register","tournament":"a.b"}', protocol.BAD_FIELD, "tournament"),
        (b'{"v":1,"type":"tournament","action":"register"}', protocol.MISSING_FIELD, "tournament"),
        (b'{"v":1,"type":"tournament","action":"propose_deal","tournament":"t","deal":"half"}', protocol.BAD_FIELD,
         "deal"),
        (b'{"v":1,"type":"tournament","action":"register","tournament":"t","password":"' + b"p" * 129 + b'"}',
         protocol.BAD_FIELD, "password"),
        (b"[" * 100_000, protocol.BAD_JSON, None),
    ],
)
def test_bad_messages_get_an_error_naming_the_problem(line: bytes, code: str, field: str | None) -> None:
    with pytest.raises(ProtocolError) as raised:
        parse_message(line)
    reply = raised.value.reply()
    assert (reply["type"], reply["v"], reply["code"]) == ("error", 1, code)
    assert reply.get("field") == field
    assert reply["message"]
    json.dumps(reply)


def test_error_reply_names_the_expected_shape() -> None:
    with pytest.raises(ProtocolError, match=r"sit.buy_in: expected an integer, got \"100\""):
        parse_message(b'{"v":1,"type":"sit","table":"t1","buy_in":"100"}')
    with pytest.raises(ProtocolError, match="unknown message type \"shuffle_deck\"; known: action, auth"):
        parse_message(b'{"v":1,"type":"shuffle_deck"}')


# --- framing, rate limit, abuse ----------------------------------------------------------------------------


def test_stream_joins_chunks_and_splits_lines() -> None:
    stream = InboundStream(now=0.0)
    first = stream.feed(b'{"v":1,"type":"lo', 0.0)
    assert first.items == []
    second = stream.feed(b'bby"}\r\n\n{"v":1,"type":"ping","id":1}\n{"v":1,', 0.0)
    assert [type(message).__name__ for message in second.messages] == ["LobbyRequest", "Ping"]
    assert stream.feed(b'"type":"ping"}\n', 0.0).messages == [protocol.Ping()]


def test_oversized_line_is_refused_once_and_the_stream_recovers() -> None:
    stream = InboundStream(now=0.0, limits=Limits(max_line_bytes=100))
    result = stream.feed(b"x" * 150, 0.0)
    assert [error.code for error in result.errors] == [protocol.LINE_TOO_LONG]
    assert stream.feed(b"y" * 500, 0.0).items == []  # still the same long line: no second error
    after = stream.feed(b'zz\n{"v":1,"type":"lobby"}\n', 0.0)
    assert after.errors == [] and len(after.messages) == 1
    whole = stream.feed(b"w" * 101 + b"\n", 0.0)
    assert [error.code for error in whole.errors] == [protocol.LINE_TOO_LONG]


def test_messages_over_the_rate_are_dropped_with_an_error() -> None:
    stream = InboundStream(now=0.0, limits=Limits(message_burst=3, messages_per_second=1))
    burst = stream.feed(b'{"v":1,"type":"lobby"}\n' * 5, 0.0)
    assert len(burst.messages) == 3
    assert [error.code for error in burst.errors] == [protocol.RATE_LIMITED] * 2
    later = stream.feed(b'{"v":1,"type":"lobby"}\n' * 2, 1.0)
    assert len(later.messages) == 1 and len(later.errors) == 1


def test_repeated_abuse_sets_the_disconnect_reason() -> None:
    stream = InboundStream(now=0.0, limits=Limits(error_burst=5, errors_per_second=0.0))
    result = stream.feed(b"junk\n" * 10, 0.0)
    assert len(result.errors) == 6  # five spend the budget, the sixth finds it empty
    assert stream.disconnect_reason is not None and "too many bad messages (6)" in stream.disconnect_reason
    assert stream.feed(b'{"v":1,"type":"lobby"}\n', 0.0).items == []


def test_occasional_mistakes_never_disconnect() -> None:
    stream = InboundStream(now=0.0, limits=Limits(error_burst=3, errors_per_second=0.5))
    for second in range(100):
        stream.feed(b"oops\n", float(second * 2))
    assert stream.disconnect_reason is None and stream.error_count == 100


def test_token_bucket_refills_at_its_rate_up_to_capacity() -> None:
    bucket = TokenBucket(capacity=4, rate=2.0, now=10.0)
    assert all(bucket.take(10.0) for _ in range(4)) and not bucket.take(10.0)
    assert bucket.tokens(10.5) == pytest.approx(1.0)
    assert bucket.tokens(100.0) == 4
    assert bucket.tokens(5.0) == 0  # the clock going backwards never adds tokens
    with pytest.raises(ValueError, match="capacity > 0"):
        TokenBucket(capacity=0, rate=1.0, now=0.0)


def test_outbound_messages_are_one_json_line_with_version() -> None:
    line = protocol.encode(protocol.hello(room="Friday", room_id="r1", name="ana", registered=True))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {"v": 1, "type": "hello", "server": "croupier", "protocol": 1, "room": "Friday",
                                "room_id": "r1", "name": "ana", "registered": True, "needs": []}


# --- fuzzing: >= 10,000 hostile inbound messages, every one answered, nothing raises ------------------------

FUZZ_MESSAGES = sweep("CROUPIER_FUZZ_MESSAGES", 2_500, 10_000)  # the 10,000 with CROUPIER_FULL=1
BATCH = 50

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=8,
)
field_names = st.sampled_from(["v", "type", "table", "hand", "kind", "amount", "discard", "text", "seat", "buy_in",
                               "on", "commitment", "secret", "ok", "violations", "id", "password", "zzz"])


@st.composite
def mutated_valid(draw: st.DrawFn) -> bytes:
    """A valid message with one field replaced, removed or added: the most realistic hostile input."""
    message = {"v": 1} | dict(draw(st.sampled_from(VALID)))
    choice = draw(st.integers(0, 3))
    name = draw(field_names)
    if choice == 0:
        message[name] = draw(json_values)
    elif choice == 1:
        message.pop(draw(st.sampled_from(sorted(message))))
    elif choice == 2:
        message["type"] = draw(st.sampled_from(sorted(INBOUND_TYPES)))
    return json.dumps(message).encode()


inbound_lines = st.one_of(
    mutated_valid(),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.dictionaries(field_names, json_values, max_size=6).map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=80).map(lambda data: data.replace(b"\n", b" ")),
)


@settings(max_examples=FUZZ_MESSAGES // BATCH, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(inbound_lines, min_size=BATCH, max_size=BATCH))
def test_fuzzed_inbound_messages_get_a_message_or_an_error_reply(lines: list[bytes]) -> None:
    unlimited = Limits(message_burst=1e9, messages_per_second=1e9, error_burst=1e9)
    stream = InboundStream(now=0.0, limits=unlimited)
    result = stream.feed(b"\n".join(lines) + b"\n", 0.0)
    answered = [line for line in lines if line.strip()]
    assert len(result.items) == len(answered)
    for item in result.items:
        if isinstance(item, ProtocolError):
            reply = json.loads(protocol.encode(item.reply()))
            assert reply["type"] == "error" and reply["code"] and reply["message"]
        else:
            assert type(item) in INBOUND_TYPES.values()


@pytest.mark.parametrize(("line", "words"), [
    (b'{"v":1,"type":"sit","table":"t 1","buy_in":100}',
     'sit.table: expected a table id (1-32 of A-Z a-z 0-9 _ . -), got "t 1"'),
    (b'{"v":1,"type":"sit","table":"t1\\n","buy_in":100}',
     'sit.table: expected a table id (1-32 of A-Z a-z 0-9 _ . -), got "t1" (control characters removed)'),
    (b'{"v":1,"type":"commit","table":"t1","hand":"h1","commitment":"ABCD"}',
     'commit.commitment: expected 32 bytes as 64 lowercase hex digits, got "ABCD"'),
    (b'{"v":1,"type":"sit","table":"t1","buy_in":0}', "sit.buy_in: must be at least 1, got 0"),
    (b'{"v":1,"type":"sit","table":"t1","buy_in":100,"seat":10}', "sit.seat: must be at most 9, got 10"),
    (b'{"v":1,"type":"sit","table":"t1","buy_in":true}', "sit.buy_in: expected an integer, got true"),
    (b'{"v":1,"type":"auth","password":5}', "auth.password: expected text or null, got 5"),
    (b'{"v":1,"type":"chat","text":""}', "chat.text: must not be empty"),
    (b'{"v":1,"type":"hello","client":"' + b"x" * 65 + b'"}', "hello.client: longer than 64 characters"),
    (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"draw","discard":["As","Ks","Qs","Js","Ts","9s",'
     b'"8s","7s","6s","5s","4s"]}', "action.discard: more than 10 items"),
    (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"draw","discard":[7]}',
     "action.discard[0]: expected text, got 7"),
    (b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"shove"}',
     "action.kind: expected one of 'fold', 'check', 'call', 'bet', 'raise_to', 'all_in', 'bring_in', 'complete', "
     "'draw', 'split', 'show', 'muck', 'run_it_twice', 'run_it_once', got \"shove\""),
    (b'{"v":1,"type":"sit","table":"t1"}', "sit needs field 'buy_in'"),
    (b'{"v":1,"type":"sit","table":"t1","buy_in":100,"chips":5}', 'sit has no field "chips"'),
    (b'{"v":1,"type":"verification","table":"t1","hand":"h1","ok":true,"violations":[1]}',
     "verification.violations[0]: expected an object, got 1"),
])
def test_the_typed_schema_s_refusals_say_what_was_expected_and_what_came(line: bytes, words: str) -> None:
    """The messages are typed schemas checked by msgspec; its refusals reach the player in our words (a pattern
    by what it stands for, never the regular expression)."""
    with pytest.raises(ProtocolError) as raised:
        parse_message(line)
    assert str(raised.value) == words
