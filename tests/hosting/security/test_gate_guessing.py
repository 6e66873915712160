"""Issue 13 items 6, 13 and 14: online guessing of the room password, refused requests hammered at the room,
and the host's log of both.

Wrong ``auth`` answers: 5 close the connection; after 3 from one address every further answer waits a delay
that doubles (refused unchecked before it). Every refused request and wrong answer spends the connection's
error budget. Each of these leaves a warning in the host's log naming the name, key fingerprint and address.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from hosting.client import RoomClient
from hosting.config import AccessConfig
from hosting.server import RunningRoom
from tests.hosting.security.helpers import drain, small_room

WRONG_ANSWERS = 5  # hosting.identity.WRONG_ANSWERS_PER_CONNECTION


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _security_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records
            if record.name == "croupier.security" and record.levelno == logging.WARNING]


async def test_wrong_passwords_close_the_connection_and_make_its_address_wait(
        rooms: Any, connect: Any, new_key: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    running: RunningRoom = await rooms(small_room(AccessConfig(password="swordfish", connections_per_minute=1000)),
                                       deal=False, clock=clock)
    key = new_key()
    guesser: RoomClient = await connect(running, "mallory", key)
    await guesser.send_raw(b"".join(b'{"v":1,"type":"auth","password":"guess%d"}\n' % index for index in range(200)))
    seen = await drain(guesser, 5.0)
    answers = [m["reason"] for m in seen if m["type"] == "auth_result"]
    assert answers[:3] == ["wrong room password"] * 3  # 3 free answers checked, then the address waits
    assert all(answer.startswith("too many wrong answers from your address: try again in") for answer in answers[3:])
    assert 20 <= len(answers) <= 22  # not 200: every answer spends the error budget (burst 20)
    assert seen[-1]["type"] == "bye" and "too many refused requests" in seen[-1]["reason"]
    assert "mallory" not in running.room.sessions

    # slow guesses, each after its wait: 5 wrong answers close the connection
    slow: RoomClient = await connect(running, "mallory", key)
    for _ in range(WRONG_ANSWERS):
        clock.now += 400
        assert (await slow.request("auth", password="guess"))["reason"] == "wrong room password"
    assert "5 wrong answers" in (await slow.wait_for("bye"))["reason"]

    # 8 wrong answers from the address: 32 s to wait; an answer sooner is not even checked (right or not)
    again: RoomClient = await connect(running, "mallory", key)
    early = await again.request("auth", password="swordfish")
    assert early["ok"] is False and "try again in 32 s" in early["reason"]
    clock.now += 33
    assert (await again.request("auth", password="swordfish"))["ok"] is True
    assert "mallory" in running.room.sessions

    warnings = "\n".join(_security_warnings(caplog))
    assert "wrong room gate answer" in warnings and "closed after 5 wrong answers" in warnings
    assert key.get_fingerprint("sha256") in warnings and "127.0.0.1" in warnings
    assert "'mallory'" in warnings


async def test_refused_requests_spend_the_error_budget_and_disconnect(
        rooms: Any, connect: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    running: RunningRoom = await rooms(small_room(), deal=False)
    hammer: RoomClient = await connect(running, "hammer")
    other: RoomClient = await connect(running, "ana")
    line = b'{"v":1,"type":"action","table":"t1","hand":"h1","kind":"fold"}\n'
    await hammer.send_raw(line * 300)  # under the message rate: only the refusals count
    seen = await drain(hammer, 5.0)
    refusals = [m for m in seen if m["type"] == "error"]
    assert {m["code"] for m in refusals} == {"no_hand"} and 20 <= len(refusals) <= 22
    assert seen[-1]["type"] == "bye" and "too many refused requests" in seen[-1]["reason"]
    assert "hammer" not in running.room.sessions
    assert (await other.request("ping", id=5))["id"] == 5  # the room plays on for everyone else
    assert any("disconnected name 'hammer'" in text for text in _security_warnings(caplog))
