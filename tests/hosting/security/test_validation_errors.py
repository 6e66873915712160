"""Issue 25, after the attack pass: what a refused line quotes back is cleaned, and an integer too long is named.

A validation error quoted the offending field's name (and an unknown type, and a bad value) as the client sent
it: an escape sequence in a field's name reached the sender's screen in the ``error``'s ``field`` and the host's
log in the disconnect line. Every quoted text is cleaned now by the one sanitizer (engine.text). An integer of
thousands of digits was refused as "nested too deeply"; it is refused by its length now, before any conversion.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from engine.text import clean_text
from hosting import protocol
from hosting.client import RoomClient
from hosting.config import AccessConfig
from tests.hosting.security.helpers import small_room
from tests.hosting.security.wire_room import EVIL, EVIL_CLEAN, assert_clean

EIGHT_BIT = "\x9b2J\x9d0;title\x9c\u202egnp.exe\u202c"
"""8-bit CSI and OSC and a bidirectional override: json.dumps leaves these as they are."""


def _refusal(line: str) -> dict[str, Any]:
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.parse_message(line)
    return refused.value.reply()


def _line(**fields: Any) -> str:
    return json.dumps({"v": 1, **fields}, ensure_ascii=False)


@pytest.mark.parametrize("payload", [EVIL, EIGHT_BIT], ids=["7-bit", "8-bit and bidi"])
def test_an_unknown_fields_name_comes_back_cleaned(payload: str) -> None:
    reply = _refusal(_line(type="ping", **{f"x{payload}": 1}))
    assert reply["code"] == "unknown_field"
    assert reply["field"] == clean_text(f"x{payload}")
    assert reply["message"] == f'ping has no field "{clean_text(f"x{payload}")}" (control characters removed)'
    assert_clean(reply, "unknown field")


def test_an_unknown_type_and_a_bad_value_come_back_cleaned() -> None:
    reply = _refusal(_line(type=f"sit{EVIL}"))
    assert reply["code"] == "unknown_type"
    assert reply["in_reply_to"] == f"sit{EVIL_CLEAN}"
    assert reply["message"].startswith(f'unknown message type "sit{EVIL_CLEAN}" (control characters removed); known:')
    assert_clean(reply, "unknown type")
    reply = _refusal(_line(type="sit", table=f"t1{EIGHT_BIT}"))
    assert reply == protocol.error("bad_field", 'sit.table: expected a table id (1-32 of A-Z a-z 0-9 _ . -), got '
                                   '"t1gnp.exe" (control characters removed)', field="table", in_reply_to="sit")


def test_the_disconnect_line_quotes_the_last_refusal_cleaned() -> None:
    stream = protocol.InboundStream(0.0)
    line = _line(type="ping", **{EIGHT_BIT + EVIL: 1}).encode() + b"\n"
    for _ in range(int(protocol.Limits().error_burst) + 1):
        stream.feed(line, 0.0)
    assert stream.disconnect_reason is not None
    assert stream.disconnect_reason.endswith('last: ping has no field "gnp.exebefore click me after" '
                                             '(control characters removed)')
    assert_clean(stream.disconnect_reason, "disconnect reason")


async def test_over_ssh_the_sender_and_the_hosts_log_get_clean_refusals(
        rooms: Any, connect: Any, caplog: pytest.LogCaptureFixture) -> None:
    running = await rooms(small_room(AccessConfig(connections_per_minute=1000)), deal=False, served_tui=False)
    mallory: RoomClient = await connect(running, "mallory")
    caplog.set_level(logging.INFO)
    line = _line(type="ping", **{EIGHT_BIT + EVIL: 1}).encode() + b"\n"
    for _ in range(int(protocol.Limits().error_burst) + 1):
        await mallory.send_raw(line)
    bye = await mallory.wait_for("bye", timeout=60)
    errors = [message for message in mallory.received if message.get("type") == "error"]
    assert len(errors) == protocol.Limits().error_burst + 1
    assert {message["field"] for message in errors} == {"gnp.exebefore click me after"}
    assert_clean(mallory.received, "mallory's screen")
    assert bye["reason"].startswith("too many bad messages (21); last: ping has no field")
    logged = [record.getMessage() for record in caplog.records if "mallory" in record.getMessage()]
    assert any("too many bad messages" in text for text in logged)
    for text in logged:
        assert_clean(text, "host's log")


def test_an_integer_too_long_is_refused_by_its_length_not_as_nesting() -> None:
    for digits in (5_000, 4_000, 21):  # past Python's own limit (4,300), under it, and just past ours
        reply = _refusal(f'{{"v":1,"type":"ping","id":{"9" * digits}}}')
        assert reply == protocol.error("bad_field", f"a number may have at most 20 digits, got one of {digits}")
    # the same in a field whose content the schema leaves open (a host request's args): the bound holds there too
    reply = _refusal(f'{{"v":1,"type":"host","action":"stack","args":{{"amount":-{"1" * 4000}}}}}')
    assert reply["message"] == "a number may have at most 20 digits, got one of 4000"
    # 20 digits are read, then refused by the field's own bound, quoting the number
    reply = _refusal(f'{{"v":1,"type":"ping","id":{"9" * 20}}}')
    assert reply["message"] == f"ping.id: must be at most {2**53}, got {'9' * 20}"
    assert protocol.parse_message('{"v":1,"type":"ping","id":12}') == protocol.Ping(id=12)
    assert _refusal("[" * 100_000)["message"] == "not JSON: nested too deeply"
